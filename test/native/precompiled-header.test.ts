/**
 * The vector files' system headers precompiled once and kept between builds (addon/precompiled.ts): every vector
 * file of an addon reads them through the `.gch` (gcc's dependency lists say so), a later addon reuses it, and its
 * addons agree with the interpreter; a `.gch` the compiler cannot read, or one whose system headers changed since,
 * is compiled again.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import { afterAll, expect, it, vi } from 'vitest'
import { buildAddon } from '../../plugin/addon/build.ts'
import { X86_SYSTEM_HEADER } from '../../plugin/targets/x86.ts'
import { rng } from '../support/random.ts'
import { expectAgreesEverywhere, pipelineKernel } from '../support/pipeline-kernels.ts'
import { testAddonSource, type TestAddon } from '../support/test-addon.ts'

/** A GEMM (its ISA files and tile families include the header) and an element-wise kernel (its ISA files do). */
const cases = [
  {
    kernel: pipelineKernel({ name: 'mm', text: 'A: f32[M, K]\nB: f32[K, N]\nC: f32[M, N]\nC[m, n] +=! A[m, k] * B[k, n]' }),
    sizes: [{ M: 37, N: 70, K: 29 }, { M: 1, N: 17, K: 1 }],
    output: 'C',
    summed: 'K',
  },
  { kernel: pipelineKernel({ name: 'affine', text: 'X: f32[N]\nY: f32[N]\nY[i] = X[i] * 2 + 1' }), sizes: [{ N: 37 }, { N: 1 }], output: 'Y' },
]
const [GEMM, ELEMENTWISE] = [0, 1]

const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'polykern-precompiled-'))
afterAll(() => rmSync(cacheDir, { recursive: true, force: true }))
const objects = path.join(cacheDir, 'objects')
const entries = (): string[] => readdirSync(objects).filter((f) => f.endsWith('.gch'))

let builds = 0

/** Builds case `index` as a new module (a new addon) in the test's cache; its build's account of the precompiled header. */
async function build(index: number) {
  // The suite points every build at one objects folder (vitest.config.ts); this test watches its own.
  vi.stubEnv('POLYKERN_OBJECT_CACHE', '')
  const log: string[] = []
  const { kernel, sizes, output, summed } = cases[index]
  const built = await buildAddon({ sources: testAddonSource([kernel.ir], `precompiled-${builds++}.ts`), cacheDir, log: (m) => log.push(m) })
  if (!built.ok) throw new Error(built.error)
  const addon = createRequire(import.meta.url)(built.path) as TestAddon
  const next = rng(builds)
  for (const size of sizes) {
    const extents = new Map(Object.entries(size))
    expectAgreesEverywhere(kernel, addon, extents, next, output, summed ? extents.get(summed)! : 1)
  }
  const line = log.find((l) => l.startsWith(`precompiled header ${X86_SYSTEM_HEADER}`))
  const counts = /used by (\d+) of (\d+) files/.exec(line ?? '')
  return { log: log.join('\n'), line, used: counts ? Number(counts[1]) : undefined, of: counts ? Number(counts[2]) : undefined }
}

it('every vector file reads the system headers precompiled, and a later addon reuses them', async () => {
  const first = await build(GEMM)
  expect(first.line, first.log).toMatch(/ compiled \(/)
  expect(first.of, 'the ISA files and the tile families include the header').toBeGreaterThan(2)
  expect(first.used, first.log).toBe(first.of)
  expect(entries()).toHaveLength(1)

  const second = await build(ELEMENTWISE)
  expect(second.line, second.log).toMatch(/ reused \(/)
  expect(second.of, 'the ISA files include the header').toBe(2)
  expect(second.used, second.log).toBe(second.of)
}, 600_000)

it('a precompiled header whose system headers changed since is compiled again', async () => {
  const [entry] = entries()
  const depsFile = path.join(objects, `${entry}.deps.json`)
  const deps = JSON.parse(readFileSync(depsFile, 'utf8')) as [string, number, number][]
  expect(deps.map(([file]) => path.basename(file))).toContain('immintrin.h')
  writeFileSync(depsFile, JSON.stringify(deps.map(([file, size, mtime], i) => [file, i === 0 ? size + 1 : size, mtime])))
  const changed = await build(ELEMENTWISE)
  expect(changed.line, changed.log).toMatch(/ compiled \(/)
  expect(changed.used, changed.log).toBe(changed.of)
}, 600_000)

it('a precompiled header the compiler cannot read is dropped', async () => {
  // Cut short: gcc stops with a fatal error, and the build drops it and compiles the addon parsing the headers.
  const [entry] = entries()
  const bytes = readFileSync(path.join(objects, entry))
  writeFileSync(path.join(objects, entry), bytes.subarray(0, bytes.length >> 2))
  const cut = await build(ELEMENTWISE)
  expect(cut.log).toContain('discarding the precompiled headers the compiler refused')
  expect(cut.line, 'the second attempt goes without').toBeUndefined()
  expect(entries()).toEqual([])

  // Not a precompiled header at all: gcc parses the headers instead, and the build drops it for the next one.
  writeFileSync(path.join(objects, entry), 'not a precompiled header')
  writeFileSync(path.join(objects, `${entry}.deps.json`), '[]')
  const garbage = await build(ELEMENTWISE)
  expect(garbage.line, garbage.log).toMatch(/ reused \(/)
  expect(garbage.used, garbage.log).toBe(0)
  expect(entries()).toEqual([])
}, 600_000)
