/**
 * The microkernels' object files kept between builds (addon/build.ts, AddonFile.shared): an addon built after another
 * that needed the same tile families links their objects instead of compiling them again and agrees with the
 * interpreter as the first does; an object the linker refuses is discarded and compiled again; an object's address
 * changes with anything that changes its bytes.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import { afterAll, expect, it, vi } from 'vitest'
import { buildAddon } from '../../plugin/addon/build.ts'
import { objectHash, type AddonInputs } from '../../plugin/addon/hash.ts'
import { rng } from '../support/random.ts'
import { expectAgreesEverywhere, pipelineKernel } from '../support/pipeline-kernels.ts'
import { testAddonSource, type TestAddon } from '../support/test-addon.ts'

const GEMM = 'A: f32[M, K]\nB: f32[K, N]\nC: f32[M, N]\nC[m, n] +=! A[m, k] * B[k, n]'
const first = pipelineKernel({ name: 'mm', text: GEMM })
const second = pipelineKernel({ name: 'mm_relu', text: `${GEMM.replace('C: f32', 'let T: f32').replace('C[m, n] +=!', 'T[m, n] +=!')}\nC: f32[M, N]\nC[m, n] = max(T[m, n], 0)` })
const third = pipelineKernel({ name: 'mm_plus', text: `${GEMM.replace('C: f32', 'let T: f32').replace('C[m, n] +=!', 'T[m, n] +=!')}\nC: f32[M, N]\nC[m, n] = T[m, n] + 1` })

const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'polykern-shared-objects-'))
afterAll(() => rmSync(cacheDir, { recursive: true, force: true }))
const objects = path.join(cacheDir, 'objects')

/** Builds `kernels` as module `id` in the test's cache (its own objects folder); the addon and the build's log. */
async function build(kernels: readonly ReturnType<typeof pipelineKernel>[], id: string) {
  // The suite points every build at one objects folder (vitest.config.ts); this test watches its own.
  vi.stubEnv('POLYKERN_OBJECT_CACHE', '')
  const log: string[] = []
  const sources = testAddonSource(kernels.map((k) => k.ir), id)
  const built = await buildAddon({ sources, cacheDir, log: (m) => log.push(m) })
  if (!built.ok) throw new Error(built.error)
  return { addon: createRequire(import.meta.url)(built.path) as TestAddon, log: log.join('\n'), shared: sources.filter((f) => f.shared).length }
}

/** Each kernel against the interpreter at every ISA and thread count, on sizes past a tile's edges. */
function expectAgrees(kernels: readonly ReturnType<typeof pipelineKernel>[], addon: TestAddon, seed: number): void {
  const next = rng(seed)
  for (const k of kernels) {
    for (const [M, N, K] of [[37, 70, 29], [6, 64, 300], [1, 17, 1]]) {
      expectAgreesEverywhere(k, addon, new Map([['M', M], ['N', N], ['K', K]]), next, 'C', K)
    }
  }
}

it('a second addon links the tile families the first compiled, and agrees with the interpreter', async () => {
  const a = await build([first], 'shared-a.ts')
  expect(a.shared, 'a GEMM calls tile families on every ISA with microkernels').toBeGreaterThan(1)
  expect(a.log).toContain(`0 of ${a.shared} tile families' object files reused`)
  expect(readdirSync(objects).filter((f) => f.endsWith('.o'))).toHaveLength(a.shared)
  expectAgrees([first], a.addon, 1)

  const b = await build([second], 'shared-b.ts')
  expect(b.log).toMatch(new RegExp(`[1-9]\\d* of ${b.shared} tile families' object files reused`))
  expectAgrees([second], b.addon, 2)
}, 600_000)

it('an object file the linker refuses is discarded and compiled again', async () => {
  const before = readdirSync(objects).filter((f) => f.endsWith('.o'))
  for (const f of before) writeFileSync(path.join(objects, f), 'not an object file')
  const c = await build([third], 'shared-c.ts')
  expect(c.log).toContain('discarding shared object files the linker refused')
  expectAgrees([third], c.addon, 3)
  for (const f of readdirSync(objects).filter((f) => f.endsWith('.o'))) {
    expect(readFileSync(path.join(objects, f)).subarray(0, 4).toString('latin1'), f).toBe('\x7fELF')
  }
}, 600_000)

it("an object's address changes with its source, its flags, the headers and the compiler", () => {
  const inputs: AddonInputs = {
    sources: [], headers: [{ name: 'polykern_simd.h', text: 'x' }], bindingGyp: 'gyp', gypi: '', compiler: 'gcc 12',
    napiVersion: 8, version: '0.1.0', platform: 'linux', arch: 'x64',
  }
  const file = { name: 'pk_ukr_f.c', text: 'void f(void) {}' }
  const base = objectHash(inputs, file, [])
  expect(objectHash(inputs, file, [])).toBe(base)
  expect(objectHash(inputs, { ...file, text: 'void f(void) { }' }, [])).not.toBe(base)
  expect(objectHash(inputs, file, ['-fsanitize=address'])).not.toBe(base)
  expect(objectHash({ ...inputs, headers: [{ name: 'polykern_simd.h', text: 'y' }] }, file, [])).not.toBe(base)
  expect(objectHash({ ...inputs, compiler: 'gcc 13' }, file, [])).not.toBe(base)
  // Nothing of the addon it is built into: the other sources and the module's gyp list are not part of it.
  expect(objectHash({ ...inputs, sources: [{ name: 'polykern.c', text: 'int x;' }], gypi: 'other' }, file, [])).toBe(base)
})
