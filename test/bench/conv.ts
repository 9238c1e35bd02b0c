/**
 * Issue 4's convolution cases (batch 1, NHWC, fp32; ResNet and MobileNet layers). Systems: `polykern` (direct
 * convolution), `polykern-im2col` (the same kernels built with `convolution: 'im2col'`: SConv's baseline),
 * `onnxruntime` (one Conv node, NCHW, weights as an initializer), `onednn` (a convolution primitive with its weights
 * reordered once into its preferred layout; NHWC activations, reordered within the call where it prefers another),
 * `js-loops`. Same rules as the other cases: one process, every output checked against a float64 reference before it
 * is timed. Results share the JSON shape with `kind: 'conv'`; `gflops` counts 2 operations per multiply-add of the
 * convolution (padding taps not counted).
 */
import * as ort from 'onnxruntime-node'
import * as runtime from 'polykern/runtime'
import * as kernels from './conv-kernels.ts'
import { convModel, outputSize, type ConvModelShape } from './conv-onnx.ts'
import { keepFastest, measure, PASSES, timeCall, type Timing } from './measure.ts'
import { timeOnednn, type Onednn } from './onednn.ts'
import { maxRelErr } from './reference.ts'
import { groupSkips } from './report.ts'

export type ConvSystem = 'polykern' | 'polykern-bound' | 'polykern-im2col' | 'polykern-unfused' | 'onnxruntime' | 'onednn' | 'js-loops'

export interface ConvCase {
  readonly name: string
  /** Sizes by letter: N, H, W, C, K, R, S, stride, pad, groups. */
  readonly shape: ConvModelShape
}

const conv = (H: number, C: number, K: number, R: number, stride = 1, pad = 0, groups = 1): ConvCase => ({
  name: `conv-${groups > 1 ? 'dw-' : ''}${H}x${H}-${C}to${K}-${R}x${R}${stride > 1 ? `-s${stride}` : ''}${pad > 0 ? `-p${pad}` : ''}`,
  shape: { N: 1, H, W: H, C, K, R, S: R, stride, pad, groups },
})

export const CONV_CASES: readonly ConvCase[] = [
  conv(56, 64, 64, 3, 1, 1),
  conv(56, 64, 256, 1),
  conv(56, 256, 64, 1),
  conv(28, 128, 128, 3, 1, 1),
  conv(14, 256, 256, 3, 1, 1),
  conv(7, 512, 512, 3, 1, 1),
  conv(224, 3, 64, 7, 2, 3),
  conv(112, 32, 32, 3, 1, 1, 32),
]

/** One system's best timing on one case of a family of cases whose JSON rows share `kind`. */
export interface SystemResult<Kind extends string, System extends string, Shape> extends Timing {
  readonly name: string
  readonly kind: Kind
  readonly shape: Shape
  readonly system: System
  readonly threads: 1 | 2
  readonly gflops: number
  readonly medianGflops: number
  readonly maxRelErr: number
}

/** A family's results, what it skipped and why, and the outputs that failed their check. */
export interface SystemRun<Kind extends string, System extends string, Shape> {
  readonly results: SystemResult<Kind, System, Shape>[]
  readonly skipped: { name: string; system: System; reason: string }[]
  readonly failures: { name: string; system: System; threads: 1 | 2; maxRelErr: number }[]
}

export type ConvResult = SystemResult<'conv', ConvSystem, ConvModelShape>
export type ConvRun = SystemRun<'conv', ConvSystem, ConvModelShape>

const TOLERANCE = 1e-3
type Kernels = typeof kernels
type KernelName = 'conv3x3' | 'conv1x1' | 'conv7x7s2' | 'depthwise3x3'

/** The kernel of conv-kernels.ts a case runs on. */
function kernelOf(s: ConvModelShape): KernelName {
  if (s.groups > 1) return 'depthwise3x3'
  if (s.R === 1 && s.stride === 1 && s.pad === 0) return 'conv1x1'
  if (s.R === 3 && s.stride === 1 && s.pad === 1) return 'conv3x3'
  if (s.R === 7 && s.stride === 2 && s.pad === 3) return 'conv7x7s2'
  throw new Error(`bench: no kernel for ${JSON.stringify(s)}`)
}

/** `im2col`: conv-im2col.ts's bundle (the same kernels, its own registry). `onednn`: the system, or why it is skipped. */
export async function benchConv(
  cases: readonly ConvCase[], log: (line: string) => void,
  im2col: Kernels & { kernels: typeof runtime.kernels; setThreads: (n: number) => void }, onednn: Onednn | string,
): Promise<ConvRun> {
  const run: ConvRun = { results: [], skipped: [], failures: [] }
  const setThreads = Reflect.get(runtime, 'setThreads') as ((n: number) => void) | undefined
  for (const [n, c] of cases.entries()) {
    log(`[conv ${n + 1}/${cases.length}] ${c.name}`)
    const s = c.shape
    const { P, Q } = outputSize(s)
    const depthwise = s.groups > 1
    const I = randomF32(s.N * s.H * s.W * s.C)
    const F = randomF32(s.R * s.S * s.C * (depthwise ? 1 : s.K))
    const O = new Float32Array(s.N * P * Q * s.K)
    const reference = referenceConv(s, I, F)
    const flops = 2 * s.N * P * Q * s.K * (s.C / s.groups) * s.R * s.S
    const args = depthwise ? [I, F, O, s.N, s.H, s.W, s.C, P, Q] : [I, F, O, s.N, s.H, s.W, s.C, s.K, P, Q]
    const name = kernelOf(s)

    const bench = systemBench(run, log, { name: c.name, kind: 'conv', shape: s, flops, reference })
    const writing = writingInto(O)
    const direct = native(runtime.kernels(), name)
    // The filter bound once (packed on its first call), as an app calling the layer again and again would.
    const layer = direct.bind({ F })
    const layerArgs = args.filter((a) => a !== F)
    const viaIm2col = native(im2col.kernels(), name)
    const { X, W, toNhwc } = onnxLayout(s, I, F)
    if (typeof onednn === 'string') run.skipped.push({ name: c.name, system: 'onednn', reason: onednn })
    for (let pass = 0; pass < PASSES; pass++) {
      for (const threads of [1, 2] as const) {
        setThreads?.(threads)
        im2col.setThreads(threads)
        await bench('polykern', threads, () => direct(...args), writing(() => direct(...args)))
        await bench('polykern-bound', threads, () => layer(...layerArgs), writing(() => layer(...layerArgs)))
        await bench('polykern-im2col', threads, () => viaIm2col(...args), writing(() => viaIm2col(...args)))
      }
      for (const threads of [1, 2] as const) {
        const session = await ort.InferenceSession.create(convModel(s, W), {
          intraOpNumThreads: threads, interOpNumThreads: 1, executionMode: 'sequential', graphOptimizationLevel: 'all',
        })
        const feeds = { X: new ort.Tensor('float32', X, [s.N, s.C, s.H, s.W]) }
        const call = () => session.run(feeds)
        await bench('onnxruntime', threads, call, async () => toNhwc((await call()).Y.data as Float32Array))
        await session.release()
      }
      if (typeof onednn === 'object') await timeOnednn(bench, writing, (threads) => onednn.conv(s, F, threads), I, O)
    }
    layer.release()
    // The loops themselves: the annotated functions are rewritten to call the addon.
    const { R, stride, pad } = s
    const js = depthwise
      ? () => kernels.depthwiseLoops(I, F, O, s.N, s.H, s.W, s.C, P, Q)
      : () => kernels.convLoops(I, F, O, s.N, s.H, s.W, s.C, s.K, P, Q, R, stride, pad)
    await bench('js-loops', 1, js, writing(js))
  }
  return run
}

/** One case's timing of a system: its output checked against `reference` first (a wrong one is recorded, never timed). */
export function systemBench<Kind extends string, System extends string, Shape>(
  run: SystemRun<Kind, System, Shape>, log: (line: string) => void,
  c: { readonly name: string; readonly kind: Kind; readonly shape: Shape; readonly flops: number; readonly reference: ArrayLike<number> },
) {
  return async (system: System, threads: 1 | 2, call: () => unknown, output: () => Promise<Float32Array>): Promise<void> => {
    let out: Float32Array | undefined
    const verifySeconds = await timeCall(async () => void (out = await output()))
    const err = maxRelErr(out!, c.reference)
    if (!(err <= TOLERANCE)) {
      run.failures.push({ name: c.name, system, threads, maxRelErr: err })
      log(`  ${system} ${threads}T: WRONG, maxRelErr ${err}`)
      return
    }
    const t = await measure(call, verifySeconds)
    const gflops = c.flops / t.bestSeconds / 1e9
    keepFastest(run.results, {
      name: c.name, kind: c.kind, shape: c.shape, system, threads, maxRelErr: err, gflops, medianGflops: c.flops / t.medianSeconds / 1e9, ...t,
    })
    log(`  ${`${system} ${threads}T`.padEnd(22)} ${gflops.toFixed(2).padStart(8)} GFLOP/s  (${t.runs} runs, maxRelErr ${err.toExponential(1)})`)
  }
}

/** A verification call into `O` that starts from NaN, so an element a system never writes fails the check. */
export const writingInto = (O: Float32Array) => (call: () => unknown) => async (): Promise<Float32Array> => {
  O.fill(NaN)
  call()
  return O
}

let seed = 20241122
export const randomF32 = (n: number): Float32Array =>
  Float32Array.from({ length: n }, () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32) * 2 - 1)

/** A kernel's native function from a registry (of `module`): the bench never times a JS fallback as native. */
export function native(
  registry: ReturnType<typeof runtime.kernels>, name: string, module = 'test/bench/conv-kernels.ts',
): runtime.KernelFn {
  const entry = registry.find((k) => k.name === name && k.module.endsWith(module))
  if (!entry) throw new Error(`bench: kernel ${name} was not compiled by polykern`)
  if (!entry.nativeFn) throw new Error(`bench: the native addon of ${name} did not load (${entry.addonPath ?? 'no addon'})`)
  return entry.nativeFn
}

/** O in float64, NHWC, filter [R, S, C, K] (depthwise: [R, S, C]). */
export function referenceConv(s: ConvModelShape, I: Float32Array, F: Float32Array): Float64Array {
  const { P, Q } = outputSize(s)
  const depthwise = s.groups > 1
  const out = new Float64Array(s.N * P * Q * s.K)
  for (let n = 0; n < s.N; n++)
    for (let p = 0; p < P; p++)
      for (let q = 0; q < Q; q++)
        for (let r = 0; r < s.R; r++)
          for (let t = 0; t < s.S; t++) {
            const [h, w] = [s.stride * p + r - s.pad, s.stride * q + t - s.pad]
            if (h < 0 || h >= s.H || w < 0 || w >= s.W) continue
            const o = ((n * P + p) * Q + q) * s.K
            const i = ((n * s.H + h) * s.W + w) * s.C
            for (let c = 0; c < s.C; c++) {
              if (depthwise) out[o + c] += I[i + c] * F[(r * s.S + t) * s.C + c]
              else for (let k = 0; k < s.K; k++) out[o + k] += I[i + c] * F[((r * s.S + t) * s.C + c) * s.K + k]
            }
          }
  return out
}

/** onnxruntime's layout: X NCHW, W OIHW (depthwise: [C, 1, R, S]), and its NCHW output back to NHWC for the check. */
export function onnxLayout(s: ConvModelShape, I: Float32Array, F: Float32Array) {
  const { P, Q } = outputSize(s)
  const X = new Float32Array(I.length)
  for (let n = 0; n < s.N; n++)
    for (let x = 0; x < s.H * s.W; x++)
      for (let c = 0; c < s.C; c++) X[(n * s.C + c) * s.H * s.W + x] = I[(n * s.H * s.W + x) * s.C + c]
  const W = new Float32Array(F.length)
  const taps = s.R * s.S
  const cIn = s.C / s.groups
  for (let t = 0; t < taps; t++)
    for (let c = 0; c < cIn; c++)
      for (let k = 0; k < s.K; k++) {
        W[(k * cIn + c) * taps + t] = s.groups > 1 ? F[t * s.C + k] : F[(t * s.C + c) * s.K + k]
      }
  const toNhwc = (y: Float32Array): Float32Array => {
    const out = new Float32Array(y.length)
    for (let n = 0; n < s.N; n++)
      for (let x = 0; x < P * Q; x++)
        for (let k = 0; k < s.K; k++) out[(n * P * Q + x) * s.K + k] = y[(n * s.K + k) * P * Q + x]
    return out
  }
  return { X, W, toNhwc }
}

/**
 * The table: GFLOP/s by system at 1 thread; direct's ratio to im2col and to onnxruntime at 1 thread and to oneDNN
 * (reordering nothing but its weights, once) at 1 and 2 threads, and the bound kernel's to oneDNN, with geomeans;
 * then the fused case's line and the skipped systems.
 */
export function formatConv(run: ConvRun): string {
  const names = [...new Set(run.results.map((r) => r.name))]
  const gflops = (name: string, system: ConvSystem, threads: 1 | 2) =>
    run.results.find((r) => r.name === name && r.system === system && r.threads === threads)?.gflops
  const systems: ConvSystem[] = ['polykern', 'polykern-bound', 'polykern-im2col', 'onnxruntime', 'onednn', 'js-loops']
  const cell = (x: number | undefined) => (x === undefined ? '-' : x.toFixed(1)).padStart(8)
  /** The ratio columns, in order: a label, the system compared, to which system, at how many threads. */
  const versus = [
    ['im2col', 'polykern', 'polykern-im2col', 1], ['ort', 'polykern', 'onnxruntime', 1],
    ['dnnl 1T', 'polykern', 'onednn', 1], ['dnnl 2T', 'polykern', 'onednn', 2],
    ['bnd/dnnl 1T', 'polykern-bound', 'onednn', 1], ['bnd/dnnl 2T', 'polykern-bound', 'onednn', 2],
  ] as const
  const ratios = versus.map((): number[] => [])
  const lines = [`${'conv (GFLOP/s)'.padEnd(36)} ${systems.map((s) => `${s} 1T`.padStart(20)).join('')}` +
    versus.map(([label]) => `  ${`vs ${label}`.padStart(12)}`).join('')]
  const fusedCases = names.filter((name) => run.results.some((r) => r.name === name && r.system === 'polykern-unfused'))
  for (const name of names.filter((n) => !fusedCases.includes(n))) {
    const cells = versus.map(([, compared, system, threads], n) => {
      const [d, b] = [gflops(name, compared, threads), gflops(name, system, threads)]
      if (d === undefined || b === undefined) return '-'
      ratios[n].push(d / b)
      return `${(d / b).toFixed(2)}x`
    })
    lines.push(`${name.padEnd(36)} ${systems.map((s) => cell(gflops(name, s, 1)).padStart(20)).join('')}` +
      cells.map((r) => `  ${r.padStart(12)}`).join(''))
  }
  const geomean = (xs: number[]) => (xs.length ? Math.exp(xs.reduce((a, x) => a + Math.log(x), 0) / xs.length) : NaN)
  lines.push(`geomean: direct / im2col ${geomean(ratios[0]).toFixed(2)}x 1T, direct / onnxruntime ${geomean(ratios[1]).toFixed(2)}x 1T, ` +
    `direct / onednn ${geomean(ratios[2]).toFixed(2)}x 1T, ${geomean(ratios[3]).toFixed(2)}x 2T, ` +
    `bound / onednn ${geomean(ratios[4]).toFixed(2)}x 1T, ${geomean(ratios[5]).toFixed(2)}x 2T`)
  for (const name of fusedCases) {
    const at = (system: ConvSystem, threads: 1 | 2) => gflops(name, system, threads)
    const ratio = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined ? '-' : `${(a / b).toFixed(2)}x`)
    lines.push(`${name}: polykern ${at('polykern', 1)?.toFixed(1)} GFLOP/s 1T; fused / unfused ${ratio(at('polykern', 1), at('polykern-unfused', 1))} ` +
      `1T, ${ratio(at('polykern', 2), at('polykern-unfused', 2))} 2T; fused / onnxruntime ${ratio(at('polykern', 1), at('onnxruntime', 1))} 1T, ` +
      `${ratio(at('polykern', 2), at('onnxruntime', 2))} 2T; fused / onednn (post-op convolution) ` +
      `${ratio(at('polykern', 1), at('onednn', 1))} 1T, ${ratio(at('polykern', 2), at('onednn', 2))} 2T; bound fused / onednn ` +
      `${ratio(at('polykern-bound', 1), at('onednn', 1))} 1T, ${ratio(at('polykern-bound', 2), at('onednn', 2))} 2T`)
  }
  for (const s of groupSkips(run.skipped)) lines.push(`skipped: ${s}`)
  return lines.join('\n')
}
