/**
 * Two bundler processes (esbuild and Rollup) building the same kernels into one cache at the same moment: both
 * succeed, both bundles run natively and correctly, and the cache holds one sound entry and nothing half-written.
 */
import { readFileSync, rmSync } from 'node:fs'
import { createHash } from 'node:crypto'
import path from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { cacheEntries, runBundle, scratch, startBundler } from './fixture.ts'

const dir = scratch('concurrent')
afterAll(() => rmSync(dir, { recursive: true, force: true }))

test('esbuild and Rollup building the same addon at once both succeed and leave one consistent entry', async () => {
  const cacheDir = path.join(dir, 'cache')
  const runs = ['esbuild', 'rollup'].map((b) => startBundler(b, path.join(dir, b), cacheDir))
  const results = await Promise.all(runs.map((r) => r.done))
  for (const r of results) expect(r.status, r.stderr).toBe(0)
  for (const r of results) {
    const { out, warnings } = runBundle(JSON.parse(r.stdout).bundle)
    expect(out.ran.every((k) => k.native)).toBe(true)
    expect(warnings).toBe(0)
  }
  const { addons, leftovers } = cacheEntries(cacheDir)
  expect(addons).toHaveLength(1)
  expect(leftovers).toEqual([])
  const entry = path.join(cacheDir, addons[0])
  const bytes = readFileSync(path.join(entry, 'polykern.node'))
  expect(createHash('sha256').update(bytes).digest('hex')).toBe(readFileSync(path.join(entry, 'polykern.node.sha256'), 'utf8').trim())
}, 180_000)
