/**
 * The native kernels under AddressSanitizer and UndefinedBehaviorSanitizer: the example kernels, a module of the
 * CI fuzz kernels and the hostile-argument kernels, compiled with `-fsanitize=address,undefined` and loaded into
 * node with the sanitizer runtimes preloaded (see sanitizers.ts). The differential check (every ISA this CPU runs, 1
 * and 2 threads) and the hostile-argument calls run there with zero reports. Planted bugs show that the setup does
 * report.
 */
import { readFileSync, mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'
import { buildAddon } from '../../plugin/addon/build.ts'
import { findKernelSites } from '../../plugin/find/annotations.ts'
import { resolveOptions } from '../../plugin/options.ts'
import { buildAll, compileAll, randomSizes } from '../fuzz/differential.ts'
import { generateKernels } from '../fuzz/generate.ts'
import { textOf, type KernelText } from '../fuzz/model.ts'
import { buildHostileAddon } from '../hostile/kernels.ts'
import { emitAddonSource } from '../../plugin/emit/napi.ts'
import { abiOf } from '../emit/kernels.ts'
import { runnableIsas } from '../support/cpu.ts'
import { ISAS } from '../../plugin/targets/index.ts'
import { GEMM_SHAPES, gemmVariants } from './gemm-variants.ts'
import { ASAN_EXIT, SANITIZED_ISAS, SANITIZER_FLAGS, runSanitized } from './sanitizers.ts'

const root = path.resolve(fileURLToPath(import.meta.url), '../../..')
const out = path.join(root, 'test/.out/sanitize')
const opts = resolveOptions({ root, cacheDir: 'node_modules/.cache/polykern-test' })
/** The CI fuzz run's seed (differential.test.ts): the same kernels, here sanitized. */
const FUZZ_SEED = 20260605
const FUZZ_KERNELS = 60

/** The example kernels as the pipeline sees them, and a slice of the fuzz kernels. */
function texts(): KernelText[] {
  const examples = ['linalg', 'nn'].flatMap((name) => {
    const file = path.join(root, `examples/kernels/${name}.ts`)
    return findKernelSites(file, readFileSync(file, 'utf8')).map((s) => ({ name: s.name, spec: s.specText, params: s.params.map((p) => p.name) }))
  })
  return [...examples, ...generateKernels(FUZZ_SEED, FUZZ_KERNELS).map(textOf)]
}

const fuzzer = path.join(root, 'test/fuzz/main.ts')
beforeAll(() => {
  mkdirSync(out, { recursive: true })
  const skipped = ISAS.filter((isa) => !SANITIZED_ISAS.includes(isa)).map((isa) => isa.name)
  if (skipped.length > 0) console.log(`sanitize: this CPU cannot run ${skipped.join(', ')}: the sanitized addons leave it out (the other native tests compile it)`)
})

describe('the setup reports what it should', () => {
  let planted: string
  beforeAll(async () => {
    const built = await buildAddon({ sources: [{ name: 'polykern.c', text: readFileSync(path.join(import.meta.dirname, 'planted.c'), 'utf8') }], cacheDir: opts.cacheDir, cflags: SANITIZER_FLAGS })
    if (!built.ok) throw new Error(built.error)
    planted = built.path
  })
  const call = (expr: string) => {
    const script = path.join(out, 'planted.cjs')
    writeFileSync(script, `require(${JSON.stringify(planted)}).${expr}\n`)
    return runSanitized(script)
  }

  it('a heap overflow is reported by AddressSanitizer', () => {
    const run = call('overflow()')
    expect(run.status).toBe(ASAN_EXIT)
    expect(run.stderr).toContain('heap-buffer-overflow')
  })

  it('an undefined shift is reported by UndefinedBehaviorSanitizer', () => {
    const run = call('shift(40)')
    expect(run.status).not.toBe(0)
    expect(run.stderr).toMatch(/runtime error: shift exponent 40/)
    expect(call('shift(3)').reports).toEqual([])
  })
})

it('the example and fuzz kernels agree with the interpreter at every ISA and thread count, with zero reports', async () => {
  const kernels = texts()
  const file = path.join(out, 'kernels.ts')
  const compiled = compileAll(kernels, file, opts)
  const addon = await buildAll(compiled, 'sanitize.ts', opts.cacheDir, SANITIZER_FLAGS, SANITIZED_ISAS)
  const cases = compiled.flatMap((c, n) => {
    if (!c.ok) throw new Error(`${c.text.name} did not compile`)
    return [1, 2].flatMap((s) => {
      const sizes = randomSizes(c.reference, FUZZ_SEED + n * 5 + s, 8_000)
      return sizes ? [{ kernel: n, sizes: [...sizes], dataSeed: n + s }] : []
    })
  })
  const job = path.join(out, 'job.json')
  writeFileSync(job, JSON.stringify({ file, texts: kernels, addon, cases }))
  const run = runSanitized(fuzzer, ['--child', job])
  expect(run.reports, run.stderr.slice(0, 4000)).toEqual([])
  expect(run.status, run.stderr.slice(0, 4000)).toBe(0)
  const results = run.stdout.split('\n').filter((l) => l.startsWith('{"mismatches"')).map((l) => JSON.parse(l) as { mismatches: unknown[] })
  expect(results).toHaveLength(cases.length)
  expect(results.filter((r) => r.mismatches.length > 0)).toEqual([])
  expect(cases.length).toBeGreaterThan(100)
}, 600_000)

it('hostile arguments against the sanitized addon, directly and through the runtime, with zero reports', async () => {
  await buildHostileAddon(SANITIZER_FLAGS, SANITIZED_ISAS)
  const run = runSanitized(path.join(import.meta.dirname, 'hostile-child.ts'))
  expect(run.reports, run.stderr.slice(0, 4000)).toEqual([])
  expect(run.status, run.stderr.slice(0, 4000)).toBe(0)
  expect(JSON.parse(run.stdout).ran).toBeGreaterThan(50)
}, 300_000)

it('blocked GEMMs with every blocking choice and edge, at every ISA and thread count, with zero reports', async () => {
  const kernels = gemmVariants()
  const sources = emitAddonSource(kernels.map((kernel, n) => ({ kernel, abi: abiOf(kernel), symbol: `kc_${n}` })), { moduleId: 'sanitize-gemm.ts', isas: SANITIZED_ISAS, parallelMinWork: 1 })
  const built = await buildAddon({ sources, cacheDir: opts.cacheDir, cflags: SANITIZER_FLAGS })
  if (!built.ok) throw new Error(built.error)
  const run = runSanitized(path.join(import.meta.dirname, 'gemm-child.ts'), [built.path])
  expect(run.reports, run.stderr.slice(0, 4000)).toEqual([])
  expect(run.status, run.stderr.slice(0, 4000)).toBe(0)
  const { cases, wrong, isas } = JSON.parse(run.stdout) as { cases: number; wrong: string[]; isas: string[] }
  expect(wrong).toEqual([])
  // Every ISA this CPU runs (AVX-512 only where it has it): each variant and shape at 1 and 2 threads.
  expect(isas).toEqual(runnableIsas)
  expect(cases).toBe(kernels.length * GEMM_SHAPES.length * runnableIsas.length * 2)
}, 600_000)
