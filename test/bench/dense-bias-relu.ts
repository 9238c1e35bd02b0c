/**
 * Issue 16's register epilogue on dense layers: C = max(A·B + bias, 0), fp32, row-major. Systems: `polykern` (one
 * kernel, the bias + ReLU applied by the GEMM's register tiles), `polykern-bound` (the same with B and bias bound
 * once), `polykern-unfused` (the GEMM kernel, then the bias + ReLU kernel over its output), `onednn` (a matmul with
 * its bias and a ReLU post-op, weights reordered once), `onnxruntime` (MatMul, Add, Relu with B and bias as
 * initializers, which its optimizer fuses), `js-loops`. Same rules as every case: one process, every output checked
 * against a float64 reference first. JSON: `kind: 'dense'`, the GEMM cases' fields and shape.
 */
import * as ort from 'onnxruntime-node'
import * as runtime from 'polykern/runtime'
import { biasReluLoops } from './conv-kernels.ts'
import { jsLoops } from './js-loops.ts'
import { shapeOf, type GemmCase, type GemmShape } from './cases.ts'
import { native, randomF32, systemBench, writingInto, type SystemRun } from './conv.ts'
import { PASSES } from './measure.ts'
import { timeOnednn, type Onednn } from './onednn.ts'
import { referenceGemm } from './reference.ts'
import { model } from './rowwise-onnx.ts'

export type DenseSystem = 'polykern' | 'polykern-bound' | 'polykern-unfused' | 'onednn' | 'onnxruntime' | 'js-loops'

/** Two layers: a short K, where the unfused pass over C weighs most, and a square one. */
export const DENSE_CASES: readonly GemmCase[] = [
  { name: 'dense-bias-relu-1024x1024x128', M: 1024, N: 1024, K: 128 },
  { name: 'dense-bias-relu-512x512x512', M: 512, N: 512, K: 512 },
]

export type DenseRun = SystemRun<'dense', DenseSystem, GemmShape>

export async function benchDense(cases: readonly GemmCase[], log: (line: string) => void, onednn: Onednn | string): Promise<DenseRun> {
  const run: DenseRun = { results: [], skipped: [], failures: [] }
  const setThreads = Reflect.get(runtime, 'setThreads') as ((n: number) => void) | undefined
  for (const c of cases) {
    log(`[dense] ${c.name}`)
    const { M, N, K } = c
    const [A, B, bias] = [randomF32(M * K), randomF32(K * N), randomF32(N)]
    const C = new Float32Array(M * N)
    const T = new Float32Array(M * N)
    const reference = referenceGemm(c, A, B).map((v, i) => Math.max(v + bias[i % N], 0))
    const [fused, gemm] = ['matmulBiasRelu', 'matmul'].map((k) => native(runtime.kernels(), k, 'test/bench/kernels.ts'))
    const biasRelu = native(runtime.kernels(), 'biasRelu')
    const layer = fused.bind({ B, bias })
    const loops = jsLoops(c)
    const calls: Record<'polykern' | 'polykern-bound' | 'polykern-unfused' | 'js-loops', () => unknown> = {
      polykern: () => fused(A, B, bias, C, M, N, K),
      'polykern-bound': () => layer(A, C, M, N, K),
      'polykern-unfused': () => biasRelu(gemm(A, B, T, M, N, K), bias, C, M, N),
      'js-loops': () => {
        loops(A, B, C)
        return biasReluLoops(C, bias, C, M, N)
      },
    }
    const bench = systemBench(run, log, { name: c.name, kind: 'dense', shape: shapeOf(c), flops: 2 * M * N * K, reference })
    const writing = writingInto(C)
    if (typeof onednn === 'string') run.skipped.push({ name: c.name, system: 'onednn', reason: onednn })
    for (let pass = 0; pass < PASSES; pass++) {
      for (const threads of [1, 2] as const) {
        setThreads?.(threads)
        for (const system of ['polykern', 'polykern-bound', 'polykern-unfused'] as const) await bench(system, threads, calls[system], writing(calls[system]))
      }
      for (const threads of [1, 2] as const) {
        const session = await ort.InferenceSession.create(denseModel(c, B, bias), {
          intraOpNumThreads: threads, interOpNumThreads: 1, executionMode: 'sequential', graphOptimizationLevel: 'all',
        })
        const feeds = { A: new ort.Tensor('float32', A, [M, K]) }
        const call = () => session.run(feeds)
        await bench('onnxruntime', threads, call, async () => (await call()).Y.data as Float32Array)
        await session.release()
      }
      if (typeof onednn === 'object') await timeOnednn(bench, writing, (threads) => onednn.gemm(c, B, threads, bias), A, C)
    }
    layer.release()
    await bench('js-loops', 1, calls['js-loops'], writing(calls['js-loops']))
  }
  return run
}

/** Y = Relu(A·B + bias), B and bias as initializers. */
function denseModel(c: GemmCase, B: Float32Array, bias: Float32Array): Uint8Array {
  return model(
    [
      { op: 'MatMul', inputs: ['A', 'B'], output: 'Z' },
      { op: 'Add', inputs: ['Z', 'bias'], output: 'S' },
      { op: 'Relu', inputs: ['S'], output: 'Y' },
    ],
    [{ name: 'A', shape: [c.M, c.K] }],
    { name: 'Y', shape: [c.M, c.N] },
    [{ name: 'B', shape: [c.K, c.N], data: B }, { name: 'bias', shape: [c.N], data: bias }],
  )
}

/** Per case and thread count: GFLOP/s of each system, and polykern against oneDNN and its own unfused pair. */
export function formatDense(run: DenseRun): string {
  const find = (name: string, system: DenseSystem, threads: 1 | 2) =>
    run.results.find((r) => r.name === name && r.system === system && r.threads === threads)
  const ratio = (name: string, a: DenseSystem, b: DenseSystem, threads: 1 | 2) => {
    const [x, y] = [find(name, a, threads), find(name, b, threads)]
    return x && y ? `${(x.gflops / y.gflops).toFixed(2)}x` : '-'
  }
  const lines = ['dense layers, C = max(A·B + bias, 0): GFLOP/s, and ratios within this run']
  for (const name of [...new Set(run.results.map((r) => r.name))]) {
    for (const threads of [1, 2] as const) {
      const systems = (['polykern', 'polykern-bound', 'polykern-unfused', 'onednn', 'onnxruntime', 'js-loops'] as const)
        .map((s) => `${s} ${find(name, s, threads)?.gflops.toFixed(1) ?? '-'}`)
      lines.push(`  ${name} ${threads}T: ${systems.join(', ')}; fused/unfused ${ratio(name, 'polykern', 'polykern-unfused', threads)}, ` +
        `pk/dnnl ${ratio(name, 'polykern', 'onednn', threads)}, bound/dnnl ${ratio(name, 'polykern-bound', 'onednn', threads)}`)
    }
  }
  for (const f of run.failures) lines.push(`  WRONG: ${f.name} ${f.system} ${f.threads}T: maxRelErr ${f.maxRelErr}`)
  return lines.join('\n')
}
