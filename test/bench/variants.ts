// `npm run bench -- --variants`: the analytic schedule pick against the best of the top k ranked variants on five of
// the bench's cases, and build times of the built package in dist/ (variants-report.ts says what each number is).
// Bundled by run.mjs and run in its own process before the main bench, which merges the report written to --out
// into its JSON.
// Each case's candidates are compiled as separate kernels into one addon (plugin/tune/measure.ts) and timed in
// alternating rounds; the analytic pick's output is checked against a float64 reference before timing.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { findKernelSites } from '../../plugin/find/annotations.ts'
import type { Contraction, GemmBlocking } from '../../plugin/ir/nodes.ts'
import { walkStmts } from '../../plugin/ir/walk.ts'
import { resolveOptions } from '../../plugin/options.ts'
import { compileKernel } from '../../plugin/pipeline.ts'
import { argumentsOf } from '../../plugin/measure/arguments.ts'
import { loadVariants, timeVariants, type Variants } from '../../plugin/tune/measure.ts'
import { rankGemm, sameVariant } from '../../plugin/schedule/rank-gemm.ts'
import { blockingFor, spaceOf } from '../../plugin/schedule/select.ts'
import { ISAS } from '../../plugin/targets/index.ts'
import { readMachine } from '../../plugin/targets/machine.ts'
import { CASES, type GemmCase } from './cases.ts'
import { formatVariants, type VariantCase, type VariantsReport } from './variants-report.ts'

const { values: args } = parseArgs({
  options: {
    out: { type: 'string' },
    'top-k': { type: 'string', default: '5' },
    'budget-ms': { type: 'string', default: '8000' },
    'cached-child': { type: 'string' },
    'cold-child': { type: 'string' },
  },
})
const ROOT = path.resolve(fileURLToPath(import.meta.url), '../../../..')
const VARIANT_CASES = ['square-512', 'square-1024', 'gnmt-320x3072x4096', 'deepbench-1760x128x1760', 'transposed-1024']
const TOP_K = Number(args['top-k'])
const BUDGET_MS = Number(args['budget-ms'])
/**
 * Rounds per case at most: the budget, not tune's cap of MAX_ROUNDS, bounds a small case's timing here. At 512³ fifty
 * rounds of 1.3 ms calls left two identical schedules (loop orders of one block) 6% apart.
 */
const MAX_BENCH_ROUNDS = 2000
const log = (line: string): void => void process.stderr.write(`${line}\n`)
/** Cold builds: each in a fresh process with an empty cache, as a first bundler run; this many, and their median. */
const COLD_BUILDS = 3

/** A module holding one GEMM kernel, as a user writes it. */
const MODULE = `/* @kernel
   A: f32[M, K]
   B: f32[K, N]
   C: f32[M, N]
   C[i, j] +=! A[i, k] * B[k, j]
*/
export function matmul(A: Float32Array, B: Float32Array, C: Float32Array, M: number, N: number, K: number): Float32Array {
  return C
}
`

/** The built package (npm run bench builds it first): build times are the real plugin's, module loading aside. */
const dist = (await import(pathToFileURL(path.join(ROOT, 'dist/plugin/pipeline.js')).href)) as typeof import('../../plugin/pipeline.ts')
const distOptions = (await import(pathToFileURL(path.join(ROOT, 'dist/plugin/options.js')).href)) as typeof import('../../plugin/options.ts')

const childRoot = args['cached-child'] ?? args['cold-child']
if (childRoot !== undefined) {
  // A fresh process compiling the module into an empty cache (a first bundler run), or into the cache where the parent
  // built its addon (the cached rebuild of a new bundler run).
  const opts = distOptions.resolveOptions({ root: childRoot, cacheDir: path.join(childRoot, 'cache') })
  const started = performance.now()
  const compiled = await dist.compileModule(path.join(childRoot, 'kernel.ts'), MODULE, opts)
  console.log(JSON.stringify({ ms: performance.now() - started, cached: compiled?.addon?.cached }))
} else {
  if (args.out === undefined) throw new Error('variants: --out FILE is missing')
  const build = await measureBuild()
  const variants: VariantCase[] = []
  for (const name of VARIANT_CASES) variants.push(...(await measureCase(CASES.find((c) => c.name === name)!)))
  const report: VariantsReport = { ...build, variants }
  writeFileSync(args.out, JSON.stringify(report, null, 2))
  log(formatVariants(report))
}

async function measureBuild(): Promise<Omit<VariantsReport, 'variants'>> {
  const roots = Array.from({ length: COLD_BUILDS }, () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'polykern-build-time-'))
    writeFileSync(path.join(root, 'kernel.ts'), MODULE)
    return root
  })
  try {
    const child = (flag: string, root: string) => {
      const run = spawnSync(process.execPath, [fileURLToPath(import.meta.url), flag, root], { encoding: 'utf8' })
      return JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '{}') as { ms?: number; cached?: boolean }
    }
    const cold = roots.map((root) => child('--cold-child', root))
    if (cold.some((c) => c.cached !== false || c.ms === undefined)) throw new Error('variants: a cold build did not build')
    const root = roots[0]
    const opts = distOptions.resolveOptions({ root, cacheDir: path.join(root, 'cache') })
    // This process's first build of the module; the rebuild after it is a watch-mode rebuild's.
    await dist.compileModule(path.join(root, 'kernel.ts'), MODULE, opts)
    const started = performance.now()
    const cached = await dist.compileModule(path.join(root, 'kernel.ts'), MODULE, opts)
    const cachedMs = performance.now() - started
    const fresh = child('--cached-child', root)
    if (cached?.addon?.cached !== true || fresh.cached !== true) throw new Error('variants: the addon cache did not behave')
    const coldMs = cold.map((c) => c.ms!).sort((a, b) => a - b)
    return {
      buildColdMs: coldMs[Math.floor(coldMs.length / 2)],
      buildColdRunsMs: coldMs,
      buildCachedMs: cachedMs,
      buildCachedFreshProcessMs: fresh.ms ?? NaN,
    }
  } finally {
    for (const root of roots) rmSync(root, { recursive: true, force: true })
  }
}

/** The case at 1 and 2 threads: the top k of each thread count's ranking and the call-time pick, in one addon. */
async function measureCase(c: GemmCase): Promise<VariantCase[]> {
  const name = c.transposed ? 'matmulTransposed' : 'matmul'
  const file = path.join(ROOT, 'test/bench/kernels.ts')
  const code = readFileSync(file, 'utf8')
  const site = findKernelSites(file, code).find((s) => s.name === name)!
  const { ir, abi } = compileKernel(site, code, resolveOptions({ root: ROOT }))
  let contraction: Contraction | undefined
  walkStmts(ir.body, (s) => void (s.kind === 'contraction' && (contraction ??= s)))
  const machine = readMachine()
  const sizes = new Map([['M', c.M], ['N', c.N], ['K', c.K]])
  for (const isa of ISAS) {
    const schedule = contraction!.schedules.find((x) => x.isa === isa.name)
    const mk = isa.microkernels.find((m) => m.name === schedule?.microkernel)
    if (schedule === undefined || mk === undefined) continue
    const problem = { m: c.M, n: c.N, k: c.K, batch: 1, mr: mk.mr, nr: mk.nr, lanes: mk.lanes, bytes: 4 }
    const plans = ([1, 2] as const).map((threads) => {
      const ranked = rankGemm(problem, spaceOf({ roles: contraction!.roles, mk, machine, threads }))
      const top = ranked.map((r) => r.variant).filter((v, n, all) => all.findIndex((w) => sameVariant(v, w)) === n).slice(0, TOP_K)
      return { threads, top, classPick: blockingFor(schedule, { m: c.M, n: c.N, k: c.K, batch: 1 }) }
    })
    const blockings: GemmBlocking[] = []
    const indexOf = (b: GemmBlocking) => {
      const at = blockings.findIndex((x) => sameVariant(x, b))
      return at >= 0 ? at : blockings.push(b) - 1
    }
    const indexed = plans.map((p) => ({ ...p, top: p.top.map(indexOf), classPick: indexOf(p.classPick) }))
    const cacheDir = resolveOptions({ root: ROOT }).cacheDir
    const loaded = await loadVariants({ kernel: ir, abi, contraction: contraction!.id, isa, blockings, cacheDir })
    if (!loaded.ok) throw new Error(`variants: ${c.name}: ${loaded.error}`)
    if (loaded.variants.isa !== isa.name) continue
    log(`${c.name}: ${blockings.length} variants on ${isa.name} (addon ${loaded.variants.cached ? 'cached' : `built in ${loaded.variants.buildMs} ms`})`)
    const maxRelErr = checkAnalytic(loaded.variants, indexed[0].top[0], c, sizes)
    return indexed.map(({ threads, top, classPick }) => {
      loaded.variants.setThreads(threads)
      const which = [...top, ...(top.includes(classPick) ? [] : [classPick])]
      const seconds = timeVariants(loaded.variants, which, sizes, BUDGET_MS, MAX_BENCH_ROUNDS)
      const gflops = seconds.map((s) => (2 * c.M * c.N * c.K) / s / 1e9)
      const timings = top.map((b, rank) => ({ rank, blocking: blockings[b], gflops: gflops[rank] }))
      const best = Math.max(...timings.map((t) => t.gflops))
      const v: VariantCase = {
        name: c.name,
        shape: { M: c.M, N: c.N, K: c.K },
        threads,
        isa: isa.name,
        topK: top.length,
        analyticGflops: timings[0].gflops,
        bestOfTopKGflops: best,
        ratio: timings[0].gflops / best,
        classPickGflops: gflops[which.indexOf(classPick)],
        maxRelErr,
        variants: timings,
      }
      log(`  ${threads}T: analytic ${v.analyticGflops.toFixed(1)}, best of top ${top.length} ${best.toFixed(1)} GFLOP/s (ratio ` +
        `${v.ratio.toFixed(3)}), class pick ${v.classPickGflops.toFixed(1)}`)
      return v
    })
  }
  throw new Error(`variants: no ISA of this machine has a schedule for ${c.name}`)
}

/** The analytic pick's output against float64 sums on 2000 sampled elements; throws past the bench's tolerance. */
function checkAnalytic(v: Variants, index: number, c: GemmCase, sizes: ReadonlyMap<string, number>): number {
  const [A, B, C] = argumentsOf(v.abi, sizes, 'random') as Float32Array[]
  v.calls[index](A, B, C, c.M, c.N, c.K)
  const a = (i: number, k: number) => (c.transposed ? A[k * c.M + i] : A[i * c.K + k])
  const b = (k: number, j: number) => (c.transposed ? B[j * c.K + k] : B[k * c.N + j])
  let worst = 0
  for (let s = 0; s < 2000; s++) {
    const i = (s * 7919) % c.M
    const j = (s * 104729) % c.N
    let sum = 0
    for (let k = 0; k < c.K; k++) sum += a(i, k) * b(k, j)
    worst = Math.max(worst, Math.abs(C[i * c.N + j] - sum) / Math.max(1, Math.abs(sum)))
  }
  if (!(worst <= 1e-3)) throw new Error(`variants: ${c.name}: the analytic pick is wrong (maxRelErr ${worst})`)
  return worst
}
