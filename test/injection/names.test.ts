/**
 * Names that mean something to C, JavaScript or polykern itself, through esbuild and a real addon: kernel functions
 * named `__proto__`, `constructor`, `toString`, non-ASCII and astral identifiers, C library and N-API symbols; and
 * tensors, sizes, temporaries and indices named `Math`, `int`, `NULL`, `for`, `if`, `return`. Every kernel runs
 * natively and computes the right thing: names never become raw C or JS, the emitters generate identifiers.
 */
import { spawnSync } from 'node:child_process'
import { readFileSync, rmSync } from 'node:fs'
import path from 'node:path'
import * as esbuild from 'esbuild'
import { afterAll, expect, test } from 'vitest'
import polykern from '../../plugin/esbuild.ts'
import { scratch } from '../build-robustness/fixture.ts'

const fixture = path.join(import.meta.dirname, 'fixture')
const dir = scratch('names')
afterAll(() => rmSync(dir, { recursive: true, force: true }))

test('kernels with hostile names build natively and compute the right thing', async () => {
  const outfile = path.join(dir, 'main.mjs')
  const built = await esbuild.build({
    absWorkingDir: fixture, entryPoints: ['main.ts'], bundle: true, platform: 'node', format: 'esm', outfile,
    logLevel: 'silent', plugins: [polykern({ root: fixture, cacheDir: path.join(dir, 'cache') })],
  })
  expect(built.warnings).toEqual([])
  const run = spawnSync(process.execPath, [outfile], { encoding: 'utf8' })
  expect(run.status, run.stderr).toBe(0)
  expect(run.stderr).toBe('')
  const { results, ran } = JSON.parse(run.stdout) as { results: { name: string; y: number[] }[]; ran: { name: string; native: boolean }[] }
  const names = [...readFileSync(path.join(fixture, 'kernels.ts'), 'utf8').matchAll(/export function (\S+)\(/g)].map((m) => m[1])
  expect(results.map((r) => r.name).sort()).toEqual([...names].sort())
  for (const { name, y } of results) {
    expect(y, name).toEqual(name === 'keywords' ? [-2, -1, 0, 1, 2, 3, 4] : [-6, -4, -2, 0, 2, 4, 6])
  }
  expect(ran.map((k) => k.name).sort()).toEqual([...names].sort())
  expect(ran.every((k) => k.native)).toBe(true)
}, 180_000)
