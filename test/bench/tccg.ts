/**
 * Issue 14's benchmark: the TCCG contractions (tccg-cases.ts, `kind: 'tccg'`) and the multi-operand einsum-path cases
 * (einsum-path.ts, `kind: 'einsum-path'`), f32, at 1 and 2 threads. Systems:
 * - `polykern`: the case's kernel of tccg-kernels.ts / path-kernels.ts (own bundles, own runtime), native only;
 * - `polykern-gemm`: kernels.ts's `matmul` on contiguous data, M, N, K the products of the roles' extents: the same
 *   flops as one GEMM, the ceiling a contraction can reach;
 * - `onnxruntime`: one Einsum node; `numpy`: numpy.einsum(optimize=True) in python3 (numpy-runner.ts);
 * - `js-loops`: the plain loops of the kernel's body, at sizes cut to JS_MAX_FLOPS (its row's `shape` says which).
 * Every output is checked before it is timed: NaN anywhere (outputs start as NaN) or a sampled element off the
 * float64 sum fails the row. A system whose first call takes SLOW_CALL_SECONDS or more is timed on that call alone;
 * polykern, when a probe at reduced size says a full call would take over POLYKERN_MAX_CALL_SECONDS (plain loops),
 * runs at that reduced size instead, like js-loops: both keep the whole run near 10-15 minutes on 2 cores.
 */
import * as ort from 'onnxruntime-node'
import type * as runtime from 'polykern/runtime'
import { callPathOf, directFlops, EINSUM_PATH_CASES, equationOf, indicesOf, optimalFlops, type Einsum, type EinsumPathCase, type ExplainedPath } from './einsum-path.ts'
import { keepFastest, measure, MIN_RUNS, MIN_SECONDS, timeCall, WARMUP_SECONDS, type Timing } from './measure.ts'
import { startNumpy, type NumpyRunner } from './numpy-runner.ts'
import { einsumModel } from './onnx-model.ts'
import { gemmShapeOf, kernelNameOf, reducedSizes, TCCG_CASES, tccgFlops, type TccgCase, type TccgList } from './tccg-cases.ts'
import { einsumOfTccg, loopsOf, pathKernelName, paramsOf, sizeParamsOf } from './tccg-source.ts'

export type TccgSystem = 'polykern' | 'polykern-gemm' | 'onnxruntime' | 'numpy' | 'js-loops'
export const TCCG_SYSTEMS: readonly TccgSystem[] = ['polykern', 'polykern-gemm', 'onnxruntime', 'numpy', 'js-loops']

export interface TccgResult {
  readonly name: string
  readonly kind: 'tccg' | 'einsum-path'
  /** Extents by index letter (row-major spec letters; for polykern-gemm: M, N, K). */
  readonly shape: Readonly<Record<string, number>>
  readonly system: TccgSystem
  readonly threads: 1 | 2
  /** The flops one call does (2 per point); einsum-path: the optimal path's, so GFLOP/s compare time directly. */
  readonly flops: number
  readonly gflops: number
  readonly medianGflops: number
  readonly maxRelErr: number
  readonly bestSeconds: number
  readonly medianSeconds: number
  readonly runs: number
  /** Ran at sizes cut down from the case's (js-loops always; polykern when it runs plain loops). */
  readonly reduced?: boolean
  readonly list?: TccgList
  readonly equation: string
  readonly pathFlops?: number | null
  readonly optimalFlops?: number
  readonly pathSource?: string
  readonly path?: readonly string[]
}

export interface TccgRun {
  readonly results: TccgResult[]
  readonly skipped: { name: string; system: TccgSystem; reason: string }[]
  readonly failures: { name: string; system: TccgSystem; threads: 1 | 2; maxRelErr: number }[]
  /** numpy's version and BLAS per thread count, or why numpy did not run. */
  readonly numpy: { readonly threads1?: Record<string, unknown>; readonly threads2?: Record<string, unknown>; readonly missing?: string }
}

/** A bundle of generated kernels (tccg-kernels.ts or path-kernels.ts) with its runtime, or why it did not build. */
export type KernelBundle =
  | { readonly kernels: typeof runtime.kernels; readonly setThreads: (n: number) => void }
  | { readonly error: string }

export interface TccgContext {
  readonly tccg: KernelBundle
  readonly paths: KernelBundle
  /** kernels.ts's `matmul`, native, from the main bundle, and that bundle's thread control. */
  readonly matmul: runtime.KernelFn | null
  readonly setThreads: (n: number) => void
  /** `polykern explain --json`'s `paths` entry per path kernel, or why it is missing. */
  readonly explained: Readonly<Record<string, ExplainedPath | string>>
  /** Why numpy cannot run, or undefined. */
  readonly numpyMissing: string | undefined
  readonly log: (line: string) => void
}

const TOLERANCE = 1e-3
/** Output elements checked against the float64 sum per call. */
const SAMPLES = 96
/** js-loops' sizes are cut until a call costs at most this (plain JS: ~0.3-1 GFLOP/s). */
export const JS_MAX_FLOPS = 1e8
/** polykern's probe runs at most this much work; above POLYKERN_MAX_CALL_SECONDS per full call it stays reduced. */
const PROBE_FLOPS = 2.5e8
const POLYKERN_MAX_CALL_SECONDS = 6
const SLOW_CALL_SECONDS = 3
/**
 * One pass over the systems per case, not measure.ts's PASSES: 54 cases at two passes took 23 minutes on this shared
 * 2-core machine; one keeps the run near 12. Machine drift then shows in single cases, less in the geomeans; only
 * polykern and polykern-gemm, whose ratio is issue 14's target, are timed a second time (benchOne).
 */
const TCCG_PASSES = 1

let seed = 20261126
const randomF32 = (n: number): Float32Array =>
  Float32Array.from({ length: n }, () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32) * 2 - 1)

/** One problem instance: an einsum at given sizes, its operands, and a sampled float64 reference. */
interface Instance {
  readonly einsum: Einsum
  readonly sizes: Readonly<Record<string, number>>
  readonly operands: readonly Float32Array[]
  readonly shapes: readonly number[][]
  readonly outShape: number[]
  readonly out: Float32Array
  readonly check: (out: Float32Array) => number
  /** The size arguments in the kernels' order (sorted index letters). */
  readonly sizeArgs: number[]
  /** At sizes cut down from the case's. */
  readonly reduced: boolean
}

export function instanceOf(einsum: Einsum, sizes: Readonly<Record<string, number>>, reduced = false): Instance {
  const shapeOf = (t: string) => [...t].map((i) => sizes[i])
  const shapes = einsum.operands.map(shapeOf)
  const operands = shapes.map((s) => randomF32(s.reduce((n, d) => n * d, 1)))
  const outShape = shapeOf(einsum.output)
  const outSize = outShape.reduce((n, d) => n * d, 1)
  // Fewer samples when each is a long sum (a chain's inner indices), so checking stays well under a second.
  const summedVolume = indicesOf(einsum).filter((i) => !einsum.output.includes(i)).reduce((n, i) => n * sizes[i], 1)
  const samples = Math.max(8, Math.min(SAMPLES, Math.floor(4e6 / summedVolume)))
  const positions = Array.from({ length: Math.min(samples, outSize) }, (_, n) => (n === 0 ? 0 : n === 1 ? outSize - 1 : Math.floor(Math.abs(randomF32(1)[0]) * outSize)))
  const want = positions.map((p) => referenceAt(einsum, sizes, operands, p))
  const check = (out: Float32Array): number => {
    if (out.length !== outSize) return Infinity
    for (let n = 0; n < out.length; n++) if (Number.isNaN(out[n])) return NaN
    return positions.reduce((worst, p, n) => Math.max(worst, Math.abs(out[p] - want[n]) / Math.max(1, Math.abs(want[n]))), 0)
  }
  const sizeArgs = sizeParamsOf(einsum).map((s) => sizes[s.slice(1)])
  return { einsum, sizes, operands, shapes, outShape, out: new Float32Array(outSize), check, sizeArgs, reduced }
}

/** The float64 sum behind output element `flat`: every summed index enumerated, the product of the operands. */
function referenceAt(e: Einsum, sizes: Readonly<Record<string, number>>, operands: readonly Float32Array[], flat: number): number {
  const at: Record<string, number> = {}
  let rest = flat
  for (const i of [...e.output].reverse()) {
    at[i] = rest % sizes[i]
    rest = Math.floor(rest / sizes[i])
  }
  const summed = indicesOf(e).filter((i) => !e.output.includes(i))
  const offset = (t: string) => [...t].reduce((o, i) => o * sizes[i] + at[i], 0)
  let total = 0
  const visit = (depth: number): void => {
    if (depth === summed.length) {
      total += e.operands.reduce((p, t, n) => p * operands[n][offset(t)], 1)
      return
    }
    for (let v = 0; v < sizes[summed[depth]]; v++) {
      at[summed[depth]] = v
      visit(depth + 1)
    }
  }
  visit(0)
  return total
}

/** The kernel's own loops as a plain JS function (its body in tccg-kernels.ts / path-kernels.ts). */
function plainLoops(e: Einsum): (...args: unknown[]) => unknown {
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  return new Function(...paramsOf(e), loopsOf(e)) as (...args: unknown[]) => unknown
}

export async function benchTccg(
  tccgCases: readonly TccgCase[], pathCases: readonly EinsumPathCase[], ctx: TccgContext,
): Promise<TccgRun> {
  const run: TccgRun = { results: [], skipped: [], failures: [], numpy: {} }
  const numpy = new Map<1 | 2, NumpyRunner>()
  if (ctx.numpyMissing === undefined) {
    for (const threads of [1, 2] as const) numpy.set(threads, await startNumpy(threads))
    Object.assign(run.numpy, { threads1: numpy.get(1)!.info, threads2: numpy.get(2)!.info })
  } else {
    Object.assign(run.numpy, { missing: ctx.numpyMissing })
    ctx.log(`numpy: skipped (${ctx.numpyMissing})`)
  }
  try {
    for (const [n, c] of tccgCases.entries()) {
      ctx.log(`[tccg ${n + 1}/${tccgCases.length}] ${c.name} ${JSON.stringify(c.sizes)}`)
      await benchOne(run, ctx, numpy, {
        name: c.name, kind: 'tccg', list: c.list, einsum: einsumOfTccg(c.tccg), sizes: c.sizes, flops: tccgFlops(c),
        bundle: ctx.tccg, kernel: kernelNameOf(c.tccg), gemm: gemmShapeOf(c),
      })
    }
    for (const [n, c] of pathCases.entries()) {
      ctx.log(`[einsum-path ${n + 1}/${pathCases.length}] ${c.name} ${JSON.stringify(c.sizes)}`)
      const optimal = optimalFlops(c.einsum, c.sizes)
      const explained = ctx.explained[pathKernelName(c.name)]
      const call = typeof explained === 'object' ? callPathOf(c.einsum, explained, c.sizes) : undefined
      const pathFields = {
        pathFlops: call?.flops ?? null,
        optimalFlops: optimal,
        pathSource: call?.source ?? `unknown: ${explained ?? 'polykern explain gave no path for this kernel'}`,
        path: call?.path,
      }
      ctx.log(`  path ${call ? `${(call.flops / 1e9).toFixed(3)} GFLOP (${call.source}: ${call.path.join('; ')})` : 'unknown'}, optimal ${(optimal / 1e9).toFixed(3)} GFLOP, one nest ${(directFlops(c.einsum, c.sizes) / 1e9).toFixed(1)} GFLOP`)
      await benchOne(run, ctx, numpy, {
        name: c.name, kind: 'einsum-path', einsum: c.einsum, sizes: c.sizes, flops: optimal,
        bundle: ctx.paths, kernel: pathKernelName(c.name), extra: pathFields,
      })
    }
  } finally {
    for (const r of numpy.values()) r.close()
  }
  return run
}

interface OneCase {
  readonly name: string
  readonly kind: 'tccg' | 'einsum-path'
  readonly list?: TccgList
  readonly einsum: Einsum
  readonly sizes: Readonly<Record<string, number>>
  readonly flops: number
  readonly bundle: KernelBundle
  readonly kernel: string
  readonly gemm?: { readonly M: number; readonly N: number; readonly K: number }
  readonly extra?: Partial<TccgResult>
}

async function benchOne(run: TccgRun, ctx: TccgContext, numpy: ReadonlyMap<1 | 2, NumpyRunner>, c: OneCase): Promise<void> {
  const equation = equationOf(c.einsum)
  const full = instanceOf(c.einsum, c.sizes)
  /** `system threads` whose first call was slow: timed on that call alone, and not again in the next pass. */
  const slow = new Set<string>()
  const skip = (system: TccgSystem, reason: string) => {
    run.skipped.push({ name: c.name, system, reason })
    ctx.log(`  ${system}: skipped (${reason})`)
  }
  /** Checks one system's output (its first call), then times it; a first call of SLOW_CALL_SECONDS is the timing. */
  const bench = async (
    system: TccgSystem, threads: 1 | 2, inst: Instance, flops: number, call: () => unknown,
    output: () => Promise<Float32Array>, extra: Partial<TccgResult> = {},
  ): Promise<Timing | undefined> => {
    if (slow.has(`${system} ${threads}`)) return undefined
    let out: Float32Array | undefined
    const first = await timeCall(async () => void (out = await output()))
    const err = inst.check(out!)
    if (!(err <= TOLERANCE)) {
      run.failures.push({ name: c.name, system, threads, maxRelErr: err })
      ctx.log(`  ${system} ${threads}T: WRONG, maxRelErr ${err}`)
      return undefined
    }
    const t = first >= SLOW_CALL_SECONDS ? { bestSeconds: first, medianSeconds: first, runs: 1 } : await measure(call, first)
    if (t.runs === 1) slow.add(`${system} ${threads}`)
    record(system, threads, inst, flops, err, t, extra)
    return t
  }
  const record = (system: TccgSystem, threads: 1 | 2, inst: Instance, flops: number, err: number, t: Timing, extra: Partial<TccgResult>) => {
    const gflops = flops / t.bestSeconds / 1e9
    keepFastest(run.results, {
      name: c.name, kind: c.kind, shape: extra.shape ?? inst.sizes, system, threads, flops, gflops,
      medianGflops: flops / t.medianSeconds / 1e9, maxRelErr: err, bestSeconds: t.bestSeconds, medianSeconds: t.medianSeconds,
      runs: t.runs, equation, ...(c.list ? { list: c.list } : {}), ...(inst.reduced ? { reduced: true } : {}), ...c.extra, ...extra,
    })
    ctx.log(`  ${`${system} ${threads}T`.padEnd(18)} ${gflops.toFixed(2).padStart(8)} GFLOP/s  (${t.runs} runs${inst.reduced ? ', reduced sizes' : ''}, maxRelErr ${err.toExponential(1)})`)
  }
  const writing = (inst: Instance, call: () => unknown) => async (): Promise<Float32Array> => {
    inst.out.fill(NaN)
    call()
    return inst.out
  }

  // polykern: the case's kernel, native; at reduced sizes when a probe says full calls run for too long.
  const bundle = c.bundle
  const entry = 'error' in bundle ? undefined : bundle.kernels().find((k) => k.name === c.kernel)
  const nativeFn = entry?.nativeFn ?? null
  let pk: Instance | undefined
  if ('error' in bundle) skip('polykern', `its kernels did not build: ${bundle.error}`)
  else if (!entry) skip('polykern', `kernel ${c.kernel} is not in its bundle`)
  else if (!nativeFn) skip('polykern', `the native addon did not load (${entry.addonPath ?? 'no addon'})`)
  else {
    pk = full
    bundle.setThreads(1)
    const probeSizes = reducedSizes(indicesOf(c.einsum).join(''), c.sizes, PROBE_FLOPS)
    if (c.flops > 4 * PROBE_FLOPS) {
      const probe = instanceOf(c.einsum, probeSizes, true)
      const seconds = await timeCall(() => nativeFn(...probe.operands, probe.out, ...probe.sizeArgs))
      const probeFlops = directFlops(c.einsum, probeSizes)
      const estimate = (seconds * c.flops) / probeFlops
      if (c.kind === 'tccg' && estimate > POLYKERN_MAX_CALL_SECONDS) {
        ctx.log(`  polykern: a full call would take ~${estimate.toFixed(0)} s (${(probeFlops / seconds / 1e9).toFixed(2)} GFLOP/s at reduced sizes): timed at reduced sizes`)
        pk = probe
      }
    }
  }
  const pkFlops = pk === full ? c.flops : pk ? directFlops(c.einsum, pk.sizes) : 0

  const gemm = c.gemm && ctx.matmul ? instanceOf({ output: 'mn', operands: ['mk', 'kn'] }, { m: c.gemm.M, n: c.gemm.N, k: c.gemm.K }) : undefined
  if (c.gemm && !ctx.matmul) skip('polykern-gemm', "kernels.ts's matmul has no native function")

  const timeNative = async () => {
    for (const threads of [1, 2] as const) {
      if (pk && nativeFn && !('error' in bundle)) {
        bundle.setThreads(threads)
        const inst = pk
        const call = () => nativeFn(...inst.operands, inst.out, ...inst.sizeArgs)
        await bench('polykern', threads, inst, pkFlops, call, writing(inst, call))
      }
      if (gemm && ctx.matmul) {
        ctx.setThreads(threads)
        const mm = ctx.matmul
        const call = () => mm(gemm.operands[0], gemm.operands[1], gemm.out, c.gemm!.M, c.gemm!.N, c.gemm!.K)
        await bench('polykern-gemm', threads, gemm, c.flops, call, writing(gemm, call), { shape: { ...c.gemm! } })
      }
    }
  }
  for (let pass = 0; pass < TCCG_PASSES; pass++) {
    await timeNative()
    for (const threads of [1, 2] as const) {
      const session = await ort.InferenceSession.create(einsumModel(equation, full.shapes, full.outShape), {
        intraOpNumThreads: threads, interOpNumThreads: 1, executionMode: 'sequential', graphOptimizationLevel: 'all',
      }).catch((e: unknown) => e as Error)
      if (session instanceof Error) {
        if (pass === 0 && threads === 1) skip('onnxruntime', `Einsum did not load: ${session.message.split('\n')[0]}`)
        continue
      }
      const feeds = Object.fromEntries(full.operands.map((x, n) => [`X${n}`, new ort.Tensor('float32', x, full.shapes[n])]))
      const call = () => session.run(feeds)
      await bench('onnxruntime', threads, full, c.flops, call, async () => (await call()).Y.data as Float32Array)
      await session.release()
    }
    for (const threads of [1, 2] as const) {
      const np = numpy.get(threads)
      if (!np || slow.has(`numpy ${threads}`)) continue
      const timing = { warmup: WARMUP_SECONDS, minSeconds: MIN_SECONDS, minRuns: MIN_RUNS, slowCall: SLOW_CALL_SECONDS }
      const r = await np.run(equation, full.operands.map((data, n) => ({ data, shape: full.shapes[n] })), timing)
      const err = full.check(r.output)
      if (!(err <= TOLERANCE)) {
        run.failures.push({ name: c.name, system: 'numpy', threads, maxRelErr: err })
        ctx.log(`  numpy ${threads}T: WRONG, maxRelErr ${err}`)
        continue
      }
      if (r.runs === 1) slow.add(`numpy ${threads}`)
      record('numpy', threads, full, c.flops, err, r, {})
    }
  }
  // polykern and polykern-gemm again, after the peers, each keeping its better timing: polykern 1T is always the
  // first timing of a case, and on the memory-bound ccsd_t cases that first timing drifted most (abcdef-degb-gfac,
  // the same code in two runs: 52 and 92 GFLOP/s; its 2T and polykern-gemm within 5%).
  await timeNative()
  if (ctx.numpyMissing !== undefined) skip('numpy', ctx.numpyMissing)

  // js-loops: the kernel's own body, unbundled from the plugin, at sizes plain JS gets through.
  const js = instanceOf(c.einsum, reducedSizes(indicesOf(c.einsum).join(''), c.sizes, JS_MAX_FLOPS), true)
  const loops = plainLoops(c.einsum)
  const jsCall = () => loops(...js.operands, js.out, ...js.sizeArgs)
  await bench('js-loops', 1, js, directFlops(c.einsum, js.sizes), jsCall, writing(js, jsCall))
}

/** The readable tables: per case GFLOP/s per system and thread count, the ratios, their geomeans; the path cases. */
export function formatTccg(run: TccgRun, machine: string): string {
  const at = (name: string, system: TccgSystem, threads: 1 | 2) =>
    run.results.find((r) => r.name === name && r.system === system && r.threads === threads)
  const failed = (name: string, system: TccgSystem, threads: 1 | 2) =>
    run.failures.some((f) => f.name === name && f.system === system && f.threads === threads)
  const cell = (name: string, system: TccgSystem, threads: 1 | 2) => {
    if (failed(name, system, threads)) return 'WRONG'
    const r = at(name, system, threads)
    if (!r) return run.skipped.some((s) => s.name === name && s.system === system) ? 'skip' : '-'
    return `${r.gflops >= 100 ? r.gflops.toFixed(0) : r.gflops >= 10 ? r.gflops.toFixed(1) : r.gflops.toFixed(2)}${r.reduced && system !== 'js-loops' ? '*' : ''}`
  }
  const ratio = (name: string, other: TccgSystem, threads: 1 | 2): number | undefined => {
    const [pk, o] = [at(name, 'polykern', threads), at(name, other, threads)]
    return pk && o ? pk.gflops / o.gflops : undefined
  }
  const ratioText = (r: number | undefined) => (r === undefined ? '-' : `${r >= 0.1 ? r.toFixed(2) : r.toPrecision(2)}x`)
  const tccgNames = [...new Set(run.results.filter((r) => r.kind === 'tccg').map((r) => r.name))]
  const head = ['case', 'list', 'pk 1T', 'pk 2T', 'gemm 1T', 'gemm 2T', 'np 1T', 'np 2T', 'ort 1T', 'ort 2T', 'js', 'pk/gemm 1T', 'pk/gemm 2T', 'pk/np 1T', 'pk/ort 1T']
  const rows = tccgNames.map((name) => [
    name.replace(/^tccg-/, ''),
    at(name, 'polykern-gemm', 1)?.list ?? run.results.find((r) => r.name === name)?.list ?? '',
    cell(name, 'polykern', 1), cell(name, 'polykern', 2), cell(name, 'polykern-gemm', 1), cell(name, 'polykern-gemm', 2),
    cell(name, 'numpy', 1), cell(name, 'numpy', 2), cell(name, 'onnxruntime', 1), cell(name, 'onnxruntime', 2), cell(name, 'js-loops', 1),
    ratioText(ratio(name, 'polykern-gemm', 1)), ratioText(ratio(name, 'polykern-gemm', 2)),
    ratioText(ratio(name, 'numpy', 1)), ratioText(ratio(name, 'onnxruntime', 1)),
  ])
  const geomean = (other: TccgSystem, threads: 1 | 2): string => {
    const rs = tccgNames.flatMap((n) => ratio(n, other, threads) ?? [])
    if (rs.length === 0) return '-'
    const reduced = tccgNames.filter((n) => ratio(n, other, threads) !== undefined && at(n, 'polykern', threads)?.reduced).length
    return `${ratioText(Math.exp(rs.reduce((s, r) => s + Math.log(r), 0) / rs.length))} (${rs.length} cases${reduced ? `, ${reduced} *` : ''})`
  }
  const atLeast = tccgNames.filter((n) => (ratio(n, 'polykern-gemm', 1) ?? 0) >= 0.75).length
  const lines = [
    `TCCG contractions, f32, GFLOP/s (2 per point / best call); pk = polykern, gemm = polykern-gemm (the same flops as one ` +
      `contiguous GEMM), np = numpy.einsum(optimize=True), ort = onnxruntime Einsum, js = plain JS loops at reduced sizes; ` +
      `* = polykern timed at reduced sizes (plain loops: a full call would take over ${POLYKERN_MAX_CALL_SECONDS} s), its ratios ` +
      `from its GFLOP/s there; ${machine}`,
    '',
    ...align([head, ...rows]),
    '',
    `geomean polykern/polykern-gemm: 1T ${geomean('polykern-gemm', 1)}, 2T ${geomean('polykern-gemm', 2)} (target >= 0.9x; ` +
      `each >= 0.75x at 1T: ${atLeast} of ${tccgNames.length})`,
    `geomean polykern/numpy: 1T ${geomean('numpy', 1)}, 2T ${geomean('numpy', 2)} (target >= 1.5x)`,
    `geomean polykern/onnxruntime: 1T ${geomean('onnxruntime', 1)}, 2T ${geomean('onnxruntime', 2)} (target >= 1.5x)`,
  ]
  const pathNames = [...new Set(run.results.filter((r) => r.kind === 'einsum-path').map((r) => r.name))]
  if (pathNames.length > 0) {
    const ms = (name: string, system: TccgSystem, threads: 1 | 2) => {
      if (failed(name, system, threads)) return 'WRONG'
      const r = at(name, system, threads)
      return r ? `${(r.bestSeconds * 1e3).toFixed(r.bestSeconds < 0.1 ? 2 : 0)}${r.reduced && system !== 'js-loops' ? '*' : ''}` : '-'
    }
    const pathRows = pathNames.map((name) => {
      const r = run.results.find((x) => x.name === name)!
      const gf = (x: number | null | undefined) => (x == null ? '?' : (x / 1e9).toPrecision(3))
      return [name, gf(r.pathFlops), gf(r.optimalFlops), r.pathFlops == null ? '-' : `${(r.pathFlops / r.optimalFlops!).toFixed(2)}x`,
        ms(name, 'polykern', 1), ms(name, 'polykern', 2), ms(name, 'numpy', 1), ms(name, 'onnxruntime', 1)]
    })
    lines.push('', 'einsum-path cases: GFLOP of the path polykern runs for the call vs the optimal path (exhaustive search); best call in ms',
      ...align([['case', 'path GFLOP', 'optimal', 'path/opt', 'pk 1T ms', 'pk 2T ms', 'np 1T ms', 'ort 1T ms'], ...pathRows]))
    for (const name of pathNames) {
      const r = run.results.find((x) => x.name === name)!
      lines.push(`  ${name}: ${r.pathSource}${r.path ? `: ${r.path.join('; ')}` : ''}`)
    }
  }
  const groups = new Map<string, string[]>()
  for (const s of run.skipped) groups.set(`${s.system}: ${s.reason}`, [...(groups.get(`${s.system}: ${s.reason}`) ?? []), s.name])
  for (const [why, names] of groups) lines.push(`skipped: ${why}: ${names.length > 6 ? `${names.length} cases` : names.join(', ')}`)
  for (const f of run.failures) lines.push(`WRONG: ${f.name} ${f.system} ${f.threads}T: maxRelErr ${f.maxRelErr}`)
  const blas = run.numpy.threads1?.openblas as { corename?: string; config?: string } | undefined
  if (blas) lines.push(`numpy ${run.numpy.threads1?.numpy}: OpenBLAS kernel ${blas.corename} (${blas.config?.trim()})`)
  return lines.join('\n')
}

function align(rows: readonly (readonly string[])[]): string[] {
  const widths = rows[0].map((_, n) => Math.max(...rows.map((r) => r[n].length)))
  const line = (r: readonly string[]) => r.map((s, n) => (n < 2 ? s.padEnd(widths[n]) : s.padStart(widths[n]))).join('  ').trimEnd()
  return [line(rows[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line)]
}

export { EINSUM_PATH_CASES, TCCG_CASES }
