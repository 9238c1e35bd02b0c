/**
 * Issue 4's and issue 16's fused cases: conv + bias + ReLU on ResNet-50 layers (NHWC, fp32, batch 1): the first 3×3
 * convolution (56×56, 64→64, pad 1) and a bottleneck's 1×1 expansion (56×56, 64→256), whose bias + ReLU pass over
 * four times the outputs weighs more against its sums. Systems: `polykern` (one kernel holding the convolution and
 * the bias + ReLU statement), `polykern-bound` (the same with F and bias bound once), `polykern-unfused` (the
 * convolution kernel, then a bias + ReLU kernel over its output), `onnxruntime` (Conv with its bias input, then Relu,
 * NCHW), `onednn` (a convolution with its bias and a ReLU post-op, layouts as in conv.ts), `js-loops`. Same rules
 * and JSON shape as the other conv cases.
 */
import * as ort from 'onnxruntime-node'
import * as runtime from 'polykern/runtime'
import * as kernels from './conv-kernels.ts'
import { native, onnxLayout, randomF32, referenceConv, systemBench, writingInto, type ConvRun } from './conv.ts'
import { PASSES } from './measure.ts'
import { timeOnednn, type Onednn } from './onednn.ts'
import { outputSize, type ConvModelShape } from './conv-onnx.ts'
import { model } from './rowwise-onnx.ts'

export interface ConvBiasReluCase {
  readonly name: string
  readonly shape: ConvModelShape
  /** The fused kernel and the convolution alone, in conv-kernels.ts. */
  readonly fused: string
  readonly conv: string
}

export const CONV_BIAS_RELU_CASES: readonly ConvBiasReluCase[] = [
  {
    name: 'conv-bias-relu-56x56-64to64-3x3-p1', fused: 'conv3x3BiasRelu', conv: 'conv3x3',
    shape: { N: 1, H: 56, W: 56, C: 64, K: 64, R: 3, S: 3, stride: 1, pad: 1, groups: 1 },
  },
  {
    name: 'conv-bias-relu-56x56-64to256-1x1', fused: 'conv1x1BiasRelu', conv: 'conv1x1',
    shape: { N: 1, H: 56, W: 56, C: 64, K: 256, R: 1, S: 1, stride: 1, pad: 0, groups: 1 },
  },
]

/** `onednn`: the system, or why it is skipped. */
export async function benchConvBiasRelu(c: ConvBiasReluCase, run: ConvRun, log: (line: string) => void, onednn: Onednn | string): Promise<void> {
  const { name, shape: s } = c
  log(`[conv] ${name}`)
  const { P, Q } = outputSize(s)
  const I = randomF32(s.N * s.H * s.W * s.C)
  const F = randomF32(s.R * s.S * s.C * s.K)
  const bias = randomF32(s.K)
  const O = new Float32Array(s.N * P * Q * s.K)
  const T = new Float32Array(O.length)
  const reference = referenceConv(s, I, F).map((v, i) => Math.max(v + bias[i % s.K], 0))
  const flops = 2 * s.N * P * Q * s.K * s.C * s.R * s.S
  const [fused, conv, biasRelu] = [c.fused, c.conv, 'biasRelu'].map((k) => native(runtime.kernels(), k))
  const layer = fused.bind({ F, bias })
  const calls: Record<'polykern' | 'polykern-bound' | 'polykern-unfused' | 'js-loops', () => unknown> = {
    polykern: () => fused(I, F, bias, O, s.N, s.H, s.W, s.C, s.K, P, Q),
    'polykern-bound': () => layer(I, O, s.N, s.H, s.W, s.C, s.K, P, Q),
    'polykern-unfused': () => biasRelu(conv(I, F, T, s.N, s.H, s.W, s.C, s.K, P, Q), bias, O, s.N * P * Q, s.K),
    'js-loops': () => {
      kernels.convLoops(I, F, O, s.N, s.H, s.W, s.C, s.K, P, Q, s.R, s.stride, s.pad)
      return kernels.biasReluLoops(O, bias, O, s.N * P * Q, s.K)
    },
  }
  const bench = systemBench(run, log, { name, kind: 'conv', shape: s, flops, reference })
  const writing = writingInto(O)
  const setThreads = Reflect.get(runtime, 'setThreads') as ((n: number) => void) | undefined
  const { X, W, toNhwc } = onnxLayout(s, I, F)
  if (typeof onednn === 'string') run.skipped.push({ name, system: 'onednn', reason: onednn })
  for (let pass = 0; pass < PASSES; pass++) {
    for (const threads of [1, 2] as const) {
      setThreads?.(threads)
      for (const system of ['polykern', 'polykern-bound', 'polykern-unfused'] as const) await bench(system, threads, calls[system], writing(calls[system]))
    }
    for (const threads of [1, 2] as const) {
      const session = await ort.InferenceSession.create(convBiasReluModel(s, W, bias), {
        intraOpNumThreads: threads, interOpNumThreads: 1, executionMode: 'sequential', graphOptimizationLevel: 'all',
      })
      const feeds = { X: new ort.Tensor('float32', X, [s.N, s.C, s.H, s.W]) }
      const call = () => session.run(feeds)
      await bench('onnxruntime', threads, call, async () => toNhwc((await call()).Y.data as Float32Array))
      await session.release()
    }
    if (typeof onednn === 'object') await timeOnednn(bench, writing, (threads) => onednn.conv(s, F, threads, bias), I, O)
  }
  layer.release()
  await bench('js-loops', 1, calls['js-loops'], writing(calls['js-loops']))
}

/** Y = Relu(Conv(X, W, B)): X NCHW, W OIHW and B as initializers, so the runtime may fuse and prepack them. */
function convBiasReluModel(s: ConvModelShape, weightsOihw: Float32Array, bias: Float32Array): Uint8Array {
  const { P, Q } = outputSize(s)
  return model(
    [
      {
        op: 'Conv', inputs: ['X', 'W', 'B'], output: 'Z',
        attributes: { kernel_shape: [s.R, s.S], strides: [s.stride, s.stride], pads: [s.pad, s.pad, s.pad, s.pad], group: s.groups },
      },
      { op: 'Relu', inputs: ['Z'], output: 'Y' },
    ],
    [{ name: 'X', shape: [s.N, s.C, s.H, s.W] }],
    { name: 'Y', shape: [s.N, s.K, P, Q] },
    [{ name: 'W', shape: [s.K, s.C, s.R, s.S], data: weightsOihw }, { name: 'B', shape: [s.K], data: bias }],
  )
}
