/**
 * Issue 4's row-wise cases: softmax and layer norm over rows of 4096×1024, batch-norm + ReLU on 1×56×56×256 (NHWC),
 * fp32; and a per-channel mean over 8×56×56×256 (NHWC, batch norm's statistics: a reduction across rows, which the
 * threads split). Systems: `polykern` (the fused kernel), `polykern-unfused` (the same statements as separate kernels,
 * called in turn; the mean as a sum, then a division), `onnxruntime` (Softmax, LayerNormalization,
 * BatchNormalization + Relu in NCHW, its layout; ReduceMean over the NHWC tensor's first three axes), `js-loops`.
 * Same rules as the GEMM cases: one process, every output checked against a float64 reference before it is timed.
 * Results share the GEMM cases' JSON shape with `kind: 'rowwise'`; `gflops` counts a nominal number of operations
 * per element (FLOPS_PER_ELEMENT), `gbps` the bytes a call must move (input and output once).
 */
import * as ort from 'onnxruntime-node'
import * as runtime from 'polykern/runtime'
import { keepFastest, measure, PASSES, timeCall } from './measure.ts'
import { maxRelErr } from './reference.ts'
import * as kernels from './rowwise-kernels.ts'
import { batchNormReluModel, channelMeanModel, layerNormModel, softmaxModel } from './rowwise-onnx.ts'

export type RowwiseOp = 'softmax' | 'layernorm' | 'bnrelu' | 'chanmean'
export type RowwiseSystem = 'polykern' | 'polykern-unfused' | 'onnxruntime' | 'js-loops'

export interface RowwiseCase {
  readonly name: string
  readonly op: RowwiseOp
  /** Sizes by letter: N, D for rows, N, H, W, C for the NHWC tensor. */
  readonly shape: Readonly<Record<string, number>>
}

export const ROWWISE_CASES: readonly RowwiseCase[] = [
  { name: 'softmax-4096x1024', op: 'softmax', shape: { N: 4096, D: 1024 } },
  { name: 'layernorm-4096x1024', op: 'layernorm', shape: { N: 4096, D: 1024 } },
  { name: 'bnrelu-1x56x56x256', op: 'bnrelu', shape: { N: 1, H: 56, W: 56, C: 256 } },
  { name: 'chanmean-8x56x56x256', op: 'chanmean', shape: { N: 8, H: 56, W: 56, C: 256 } },
]

/** max, subtract, exp, add, divide; mean (add, divide), variance (4), normalize (4); multiply, add, max; add. */
const FLOPS_PER_ELEMENT: Readonly<Record<RowwiseOp, number>> = { softmax: 5, layernorm: 10, bnrelu: 3, chanmean: 1 }

export interface RowwiseResult {
  readonly name: string
  readonly kind: 'rowwise'
  readonly shape: Readonly<Record<string, number>>
  readonly system: RowwiseSystem
  readonly threads: 1 | 2
  readonly gflops: number
  readonly gbps: number
  readonly maxRelErr: number
  readonly medianGflops: number
  readonly bestSeconds: number
  readonly medianSeconds: number
  readonly runs: number
  readonly threadsSet?: boolean
}

export interface RowwiseRun {
  readonly results: RowwiseResult[]
  readonly skipped: { name: string; system: RowwiseSystem; reason: string }[]
  readonly failures: { name: string; system: RowwiseSystem; threads: 1 | 2; maxRelErr: number }[]
}

const TOLERANCE = 1e-4

/** Inputs, the float64 reference, and each system's call on one case; every call writes `out` (NHWC / row-major). */
interface Setup {
  readonly elements: number
  /** Bytes a call must move: its input and output once. */
  readonly bytes: number
  readonly reference: Float64Array
  readonly fused: () => unknown
  readonly unfused: () => unknown
  readonly js: () => unknown
  readonly out: Float32Array
  /** The ONNX model, its feeds, and its output in the kernels' layout. */
  readonly model: Uint8Array
  readonly feeds: Record<string, ort.Tensor>
  readonly fromOnnx: (y: Float32Array) => Float32Array
}

export async function benchRowwise(cases: readonly RowwiseCase[], log: (line: string) => void): Promise<RowwiseRun> {
  const run: RowwiseRun = { results: [], skipped: [], failures: [] }
  const setThreads = Reflect.get(runtime, 'setThreads') as ((n: number) => void) | undefined
  for (const [n, c] of cases.entries()) {
    log(`[rowwise ${n + 1}/${cases.length}] ${c.name}`)
    const setup = setupOf(c)
    const { bytes } = setup
    const bench = async (system: RowwiseSystem, threads: 1 | 2, call: () => unknown, output: () => Promise<Float32Array>) => {
      let out: Float32Array | undefined
      const verifySeconds = await timeCall(async () => void (out = await output()))
      const err = maxRelErr(out!, setup.reference)
      if (!(err <= TOLERANCE)) {
        run.failures.push({ name: c.name, system, threads, maxRelErr: err })
        log(`  ${system} ${threads}T: WRONG, maxRelErr ${err}`)
        return
      }
      const t = await measure(call, verifySeconds)
      const flops = FLOPS_PER_ELEMENT[c.op] * setup.elements
      keepFastest(run.results, {
        name: c.name, kind: 'rowwise', shape: c.shape, system, threads, maxRelErr: err,
        gflops: flops / t.bestSeconds / 1e9, medianGflops: flops / t.medianSeconds / 1e9, gbps: bytes / t.bestSeconds / 1e9,
        ...t, ...(system.startsWith('polykern') ? { threadsSet: setThreads !== undefined } : {}),
      })
      log(`  ${`${system} ${threads}T`.padEnd(22)} ${(t.bestSeconds * 1e3).toFixed(3).padStart(9)} ms  (median ${(t.medianSeconds * 1e3).toFixed(3)}, ${t.runs} runs, maxRelErr ${err.toExponential(1)})`)
    }
    /** The verification call starts from NaN, so an element a system never writes fails the check. */
    const writing = (call: () => unknown) => async (): Promise<Float32Array> => {
      setup.out.fill(NaN)
      call()
      return setup.out
    }
    for (let pass = 0; pass < PASSES; pass++) {
      for (const threads of [1, 2] as const) {
        setThreads?.(threads)
        await bench('polykern', threads, setup.fused, writing(setup.fused))
        await bench('polykern-unfused', threads, setup.unfused, writing(setup.unfused))
      }
      for (const threads of [1, 2] as const) {
        const session = await ort.InferenceSession.create(setup.model, {
          intraOpNumThreads: threads, interOpNumThreads: 1, executionMode: 'sequential', graphOptimizationLevel: 'all',
        })
        const call = () => session.run(setup.feeds)
        await bench('onnxruntime', threads, call, async () => setup.fromOnnx((await call()).Y.data as Float32Array))
        await session.release()
      }
    }
    await bench('js-loops', 1, setup.js, writing(setup.js))
  }
  return run
}

let seed = 20240917
const random = (lo: number, hi: number): number => lo + ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32) * (hi - lo)
const randomF32 = (n: number, lo: number, hi: number): Float32Array => Float32Array.from({ length: n }, () => random(lo, hi))

/** This bundle's compiled kernel `name` from rowwise-kernels.ts, natively. */
function native(name: keyof typeof kernels): runtime.KernelFn {
  const entry = runtime.kernels().find((k) => k.name === name && k.module.endsWith('test/bench/rowwise-kernels.ts'))
  if (!entry || typeof kernels[name] !== 'function') throw new Error(`bench: kernel ${name} was not compiled by polykern`)
  if (!entry.nativeFn) throw new Error(`bench: the native addon of ${name} did not load (${entry.addonPath ?? 'no addon'})`)
  return entry.nativeFn
}

function setupOf(c: RowwiseCase): Setup {
  switch (c.op) {
    case 'softmax':
      return softmaxSetup(c.shape.N, c.shape.D)
    case 'layernorm':
      return layerNormSetup(c.shape.N, c.shape.D)
    case 'bnrelu':
      return bnReluSetup(c.shape.N, c.shape.H, c.shape.W, c.shape.C)
    case 'chanmean':
      return channelMeanSetup(c.shape.N, c.shape.H, c.shape.W, c.shape.C)
  }
}

function softmaxSetup(N: number, D: number): Setup {
  const X = randomF32(N * D, -8, 8)
  const Y = new Float32Array(N * D)
  const [m, z] = [new Float32Array(N), new Float32Array(N)]
  const reference = new Float64Array(N * D)
  for (let i = 0; i < N; i++) {
    const row = X.subarray(i * D, (i + 1) * D)
    const max = row.reduce((a, x) => Math.max(a, x), -Infinity)
    const sum = row.reduce((a, x) => a + Math.exp(x - max), 0)
    for (let j = 0; j < D; j++) reference[i * D + j] = Math.exp(row[j] - max) / sum
  }
  const [fused, rowMax, expShifted, rowSum, divideRows] = [
    native('softmax'), native('rowMax'), native('expShifted'), native('rowSum'), native('divideRows'),
  ]
  return {
    elements: N * D,
    bytes: 8 * N * D,
    reference,
    out: Y,
    fused: () => fused(X, Y, N, D),
    unfused: () => {
      rowMax(X, m, N, D)
      expShifted(X, m, Y, N, D)
      rowSum(Y, z, N, D)
      divideRows(Y, z, N, D)
    },
    js: () => softmaxLoops(X, Y, N, D),
    model: softmaxModel(N, D),
    feeds: { X: new ort.Tensor('float32', X, [N, D]) },
    fromOnnx: (y) => y,
  }
}

function layerNormSetup(N: number, D: number): Setup {
  const X = randomF32(N * D, -2, 3)
  const [gamma, beta] = [randomF32(D, 0.5, 1.5), randomF32(D, -0.5, 0.5)]
  const Y = new Float32Array(N * D)
  const [mean, rstd] = [new Float32Array(N), new Float32Array(N)]
  const reference = new Float64Array(N * D)
  for (let i = 0; i < N; i++) {
    const row = X.subarray(i * D, (i + 1) * D)
    const mu = row.reduce((a, x) => a + x, 0) / D
    const variance = row.reduce((a, x) => a + (x - mu) ** 2, 0) / D
    for (let j = 0; j < D; j++) reference[i * D + j] = ((row[j] - mu) / Math.sqrt(variance + 1e-5)) * gamma[j] + beta[j]
  }
  const [fused, rowMean, rowVariance, reciprocalStd, normalizeRows] = [
    native('layerNorm'), native('rowMean'), native('rowVariance'), native('reciprocalStd'), native('normalizeRows'),
  ]
  return {
    elements: N * D,
    bytes: 8 * N * D,
    reference,
    out: Y,
    fused: () => fused(X, gamma, beta, Y, N, D),
    unfused: () => {
      rowMean(X, mean, N, D)
      rowVariance(X, mean, rstd, N, D)
      reciprocalStd(rstd, N)
      normalizeRows(X, mean, rstd, gamma, beta, Y, N, D)
    },
    js: () => layerNormLoops(X, gamma, beta, Y, N, D),
    model: layerNormModel(N, D),
    feeds: {
      X: new ort.Tensor('float32', X, [N, D]),
      gamma: new ort.Tensor('float32', gamma, [D]),
      beta: new ort.Tensor('float32', beta, [D]),
    },
    fromOnnx: (y) => y,
  }
}

function bnReluSetup(N: number, H: number, W: number, C: number): Setup {
  const P = N * H * W
  const X = randomF32(P * C, -3, 3)
  const [gamma, beta, mean, variance] = [randomF32(C, 0.5, 1.5), randomF32(C, -0.5, 0.5), randomF32(C, -0.5, 0.5), randomF32(C, 0.1, 1.1)]
  const Y = new Float32Array(P * C)
  const [s, b, T] = [new Float32Array(C), new Float32Array(C), new Float32Array(P * C)]
  const reference = new Float64Array(P * C)
  for (let p = 0; p < P; p++)
    for (let c = 0; c < C; c++) {
      const y = ((X[p * C + c] - mean[c]) / Math.sqrt(variance[c] + 1e-5)) * gamma[c] + beta[c]
      reference[p * C + c] = Math.max(y, 0)
    }
  // onnxruntime runs NCHW: the same tensor, transposed once here and back for the check (outside the timing).
  const nchw = new Float32Array(P * C)
  for (let n = 0; n < N; n++) for (let q = 0; q < H * W; q++) for (let c = 0; c < C; c++) nchw[(n * C + c) * H * W + q] = X[(n * H * W + q) * C + c]
  const toNhwc = (y: Float32Array): Float32Array => {
    const out = new Float32Array(P * C)
    for (let n = 0; n < N; n++) for (let q = 0; q < H * W; q++) for (let c = 0; c < C; c++) out[(n * H * W + q) * C + c] = y[(n * C + c) * H * W + q]
    return out
  }
  const [fused, scaleShift, apply, relu] = [native('batchNormRelu'), native('batchNormScaleShift'), native('batchNormApply'), native('relu')]
  const channel = (a: Float32Array) => new ort.Tensor('float32', a, [C])
  return {
    elements: P * C,
    bytes: 8 * P * C,
    reference,
    out: Y,
    fused: () => fused(X, gamma, beta, mean, variance, Y, N, H, W, C),
    unfused: () => {
      scaleShift(gamma, beta, mean, variance, s, b, C)
      apply(X, s, b, T, N, H, W, C)
      relu(T, Y, N, H, W, C)
    },
    js: () => bnReluLoops(X, gamma, beta, mean, variance, Y, P, C),
    model: batchNormReluModel(N, C, H, W),
    feeds: {
      X: new ort.Tensor('float32', nchw, [N, C, H, W]),
      gamma: channel(gamma), beta: channel(beta), mean: channel(mean), variance: channel(variance),
    },
    fromOnnx: toNhwc,
  }
}

function channelMeanSetup(N: number, H: number, W: number, C: number): Setup {
  const P = N * H * W
  const X = randomF32(P * C, 0, 4)
  const [m, s, count] = [new Float32Array(C), new Float32Array(C), Float32Array.of(P)]
  const reference = new Float64Array(C)
  for (let p = 0; p < P; p++) for (let c = 0; c < C; c++) reference[c] += X[p * C + c] / P
  const [fused, sum, divide] = [native('channelMean'), native('channelSum'), native('divideChannels')]
  return {
    elements: P * C,
    bytes: 4 * (P * C + C),
    reference,
    out: m,
    fused: () => fused(X, m, N, H, W, C),
    unfused: () => {
      sum(X, s, N, H, W, C)
      divide(s, count, m, C)
    },
    js: () => channelMeanLoops(X, m, P, C),
    model: channelMeanModel(N, H, W, C),
    feeds: { X: new ort.Tensor('float32', X, [N, H, W, C]) },
    fromOnnx: (y) => y,
  }
}

// The `js-loops` system: what a developer writes without polykern.

function softmaxLoops(X: Float32Array, Y: Float32Array, N: number, D: number): void {
  for (let i = 0; i < N; i++) {
    let m = -Infinity
    for (let j = 0; j < D; j++) m = Math.max(m, X[i * D + j])
    let z = 0
    for (let j = 0; j < D; j++) z += Y[i * D + j] = Math.exp(X[i * D + j] - m)
    for (let j = 0; j < D; j++) Y[i * D + j] /= z
  }
}

function layerNormLoops(X: Float32Array, gamma: Float32Array, beta: Float32Array, Y: Float32Array, N: number, D: number): void {
  for (let i = 0; i < N; i++) {
    let mean = 0
    for (let j = 0; j < D; j++) mean += X[i * D + j]
    mean /= D
    let v = 0
    for (let j = 0; j < D; j++) v += (X[i * D + j] - mean) ** 2
    const rstd = 1 / Math.sqrt(v / D + 1e-5)
    for (let j = 0; j < D; j++) Y[i * D + j] = (X[i * D + j] - mean) * rstd * gamma[j] + beta[j]
  }
}

function bnReluLoops(X: Float32Array, gamma: Float32Array, beta: Float32Array, mean: Float32Array, variance: Float32Array,
  Y: Float32Array, P: number, C: number): void {
  for (let p = 0; p < P; p++)
    for (let c = 0; c < C; c++) {
      const y = ((X[p * C + c] - mean[c]) / Math.sqrt(variance[c] + 1e-5)) * gamma[c] + beta[c]
      Y[p * C + c] = Math.max(y, 0)
    }
}

function channelMeanLoops(X: Float32Array, m: Float32Array, P: number, C: number): void {
  m.fill(0)
  for (let p = 0; p < P; p++) for (let c = 0; c < C; c++) m[c] += X[p * C + c]
  for (let c = 0; c < C; c++) m[c] /= P
}

/** The table: best ms per call by system and thread count, and the ratios the issue's targets are stated in. */
export function formatRowwise(run: RowwiseRun): string {
  const names = [...new Set([...run.results.map((r) => r.name), ...run.failures.map((f) => f.name)])]
  const find = (name: string, system: RowwiseSystem, threads: 1 | 2) =>
    run.results.find((r) => r.name === name && r.system === system && r.threads === threads)
  const ms = (name: string, system: RowwiseSystem, threads: 1 | 2): string => {
    if (run.failures.some((f) => f.name === name && f.system === system && f.threads === threads)) return 'WRONG'
    const r = find(name, system, threads)
    return r ? (r.bestSeconds * 1e3).toFixed(r.bestSeconds < 0.01 ? 3 : 2) : '-'
  }
  const ratio = (name: string, a: RowwiseSystem, at: 1 | 2, b: RowwiseSystem, bt: 1 | 2): string => {
    const [x, y] = [find(name, a, at), find(name, b, bt)]
    return x && y ? `${(y.bestSeconds / x.bestSeconds).toFixed(2)}x` : '-'
  }
  const head = ['case', 'pk 1T', 'pk 2T', 'unfused 1T', 'unfused 2T', 'ort 1T', 'ort 2T', 'js', 'pk/ort 1T', 'pk/ort 2T',
    'pk/unfused 1T', 'pk/js', 'pk 1T GB/s']
  const rows = names.map((n) => [
    n, ms(n, 'polykern', 1), ms(n, 'polykern', 2), ms(n, 'polykern-unfused', 1), ms(n, 'polykern-unfused', 2),
    ms(n, 'onnxruntime', 1), ms(n, 'onnxruntime', 2), ms(n, 'js-loops', 1),
    ratio(n, 'polykern', 1, 'onnxruntime', 1), ratio(n, 'polykern', 2, 'onnxruntime', 2),
    ratio(n, 'polykern', 1, 'polykern-unfused', 1), ratio(n, 'polykern', 1, 'js-loops', 1),
    find(n, 'polykern', 1)?.gbps.toFixed(1) ?? '-',
  ])
  const widths = head.map((_, k) => Math.max(...[head, ...rows].map((r) => r[k].length)))
  const line = (r: readonly string[]) => r.map((s, k) => (k === 0 ? s.padEnd(widths[k]) : s.padStart(widths[k]))).join('  ').trimEnd()
  return [
    'Row-wise kernels: ms per call (best); pk = polykern (fused), unfused = the same statements as separate polykern ' +
      'kernels, ort = onnxruntime-node (Softmax, LayerNormalization, BatchNormalization+Relu, ReduceMean), js = plain JS loops; ' +
      'ratios are speedups of pk',
    '',
    line(head),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...rows.map(line),
    ...run.skipped.map((s) => `skipped: ${s.name} ${s.system}: ${s.reason}`),
    ...run.failures.map((f) => `WRONG: ${f.name} ${f.system} ${f.threads}T: maxRelErr ${f.maxRelErr} > ${TOLERANCE} (not timed)`),
  ].join('\n')
}
