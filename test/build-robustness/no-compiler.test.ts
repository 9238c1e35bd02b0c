/**
 * No C compiler on PATH (nor CC): the bundler succeeds with one `native_build_failed` warning through its own
 * channel, and the bundle runs correctly on the JS loops with one run-time warning. The bundler process runs with a
 * PATH holding nothing but `node`.
 */
import { mkdirSync, readdirSync, rmSync, symlinkSync } from 'node:fs'
import path from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { runBundle, scratch, startBundler } from './fixture.ts'

const dir = scratch('no-compiler')
afterAll(() => rmSync(dir, { recursive: true, force: true }))

test('a PATH without cc, gcc or clang: a warning and a working JS-fallback bundle', async () => {
  const bin = path.join(dir, 'bin')
  mkdirSync(bin)
  symlinkSync(process.execPath, path.join(bin, 'node'))
  const env: NodeJS.ProcessEnv = { ...process.env, PATH: bin }
  delete env.CC
  const outDir = path.join(dir, 'out')
  const run = await startBundler('esbuild', outDir, path.join(dir, 'cache'), env).done
  expect(run.status, run.stderr).toBe(0)
  const { bundle, warnings } = JSON.parse(run.stdout) as { bundle: string; warnings: string[] }
  expect(warnings).toHaveLength(1)
  expect(warnings[0]).toContain('[native_build_failed]')
  expect(warnings[0]).toContain("'cc' was not found")
  expect(readdirSync(outDir).filter((f) => f.endsWith('.node'))).toEqual([])
  const { out, warnings: runtime, stderr } = runBundle(bundle)
  expect(out.ran.every((k) => !k.native)).toBe(true)
  expect(runtime).toBe(1)
  expect(stderr).toContain('native build failed')
}, 180_000)
