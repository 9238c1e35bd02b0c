// The demo: every example kernel at a realistic size, timed on its native addon and on its JS fallback in the
// same process, after checking that both give the same answer. Bundled with polykern by examples/run.mjs.
import { kernels, type KernelEntry } from 'polykern/runtime'
import * as linalg from '../kernels/linalg.ts'
import * as nn from '../kernels/nn.ts'
import { bestMs, f32, f64, i32, maxRelErr, printTable } from '../shared/measure.ts'

type Arg = Float32Array | Float64Array | Int32Array | number
interface Case {
  readonly kernel: string
  readonly shape: string
  /** Arithmetic operations of one call, for GFLOP/s (0 for data movement). */
  readonly flops: number
  readonly args: () => Arg[]
}

const cases: Case[] = [
  { kernel: 'matmul', shape: '512x512x512', flops: 2 * 512 ** 3, args: () => [f32(512 * 512), f32(512 * 512), f32(512 * 512), 512, 512, 512] },
  { kernel: 'batchedMatmul', shape: '16x128x128x128', flops: 2 * 16 * 128 ** 3, args: () => [f32(16 * 128 * 128), f32(16 * 128 * 128), f32(16 * 128 * 128), 16, 128, 128, 128] },
  { kernel: 'matvec', shape: '2048x2048 f64', flops: 2 * 2048 * 2048, args: () => [f64(2048 * 2048), f64(2048), f64(2048), 2048, 2048] },
  { kernel: 'dot', shape: '1M', flops: 2 * 2 ** 20, args: () => [f32(2 ** 20), f32(2 ** 20), f32(1), 2 ** 20] },
  { kernel: 'outer', shape: '1024x1024', flops: 1024 * 1024, args: () => [f32(1024), f32(1024), f32(1024 * 1024), 1024, 1024] },
  { kernel: 'transpose', shape: '1024x1024 i32', flops: 0, args: () => [i32(1024 * 1024), i32(1024 * 1024), 1024, 1024] },
  { kernel: 'nchwToNhwc', shape: '1x64x112x112', flops: 0, args: () => [f32(64 * 112 * 112), f32(64 * 112 * 112), 1, 64, 112, 112] },
  { kernel: 'trace', shape: '2048x2048 f64', flops: 2048, args: () => [f64(2048 * 2048), f64(1), 2048] },
  { kernel: 'diagonal', shape: '2048x2048', flops: 0, args: () => [f32(2048 * 2048), f32(2048), 2048] },
  { kernel: 'rowSum', shape: '2048x2048', flops: 2048 * 2048, args: () => [f32(2048 * 2048), f32(2048), 2048, 2048] },
  { kernel: 'rowMax', shape: '2048x2048 i32', flops: 2048 * 2048, args: () => [i32(2048 * 2048), i32(2048), 2048, 2048] },
  { kernel: 'chain3', shape: '48x48x48x48', flops: 3 * 48 ** 4, args: () => [f32(48 * 48), f32(48 * 48), f32(48 * 48), f32(48 * 48), 48, 48, 48, 48] },
  { kernel: 'biasRelu', shape: '1024x1024', flops: 2 * 1024 * 1024, args: () => [f32(1024 * 1024), f32(1024), f32(1024 * 1024), 1024, 1024] },
  { kernel: 'conv2dStride2', shape: '1x112x112x32 -> 56x56x64, 3x3', flops: 2 * 56 * 56 * 64 * 32 * 9, args: () => [f32(112 * 112 * 32), f32(9 * 32 * 64), f32(56 * 56 * 64), 1, 112, 112, 32, 64, 56, 56] },
  { kernel: 'depthwise3x3', shape: '112x112x64', flops: 2 * 112 * 112 * 64 * 9, args: () => [f32(112 * 112 * 64), f32(9 * 64), f32(112 * 112 * 64), 112, 112, 64] },
  { kernel: 'maxPool2x2', shape: '112x112x64', flops: 56 * 56 * 64 * 4, args: () => [f32(112 * 112 * 64), f32(56 * 56 * 64), 112, 112, 64, 56, 56] },
  { kernel: 'softmax', shape: '1024x1024', flops: 4 * 1024 * 1024, args: () => [f32(1024 * 1024), f32(1024 * 1024), 1024, 1024] },
  { kernel: 'layerNorm', shape: '1024x1024', flops: 8 * 1024 * 1024, args: () => [f32(1024 * 1024), f32(1024), f32(1024), f32(1024 * 1024), 1024, 1024] },
  { kernel: 'attention', shape: 'S=T=256, D=E=64', flops: 4 * 256 * 256 * 64, args: () => [f32(256 * 64), f32(256 * 64), f32(256 * 64), f32(256 * 64), 256, 256, 64, 64] },
]

const exported = { ...linalg, ...nn } as Record<string, unknown>
const registry = new Map(kernels().map((k: KernelEntry) => [k.name, k]))
const rows: string[][] = []
let failures = 0
for (const c of cases) {
  const entry = registry.get(c.kernel)
  if (!entry || typeof exported[c.kernel] !== 'function') throw new Error(`demo: kernel ${c.kernel} was not compiled`)
  const args = c.args()
  const outputs = (fn: (...a: unknown[]) => unknown) => {
    const copy = args.map((a) => (typeof a === 'number' ? a : a.slice()))
    fn(...copy)
    return copy
  }
  const viaNative = outputs(entry.call)
  const viaJs = outputs(entry.js)
  const err = Math.max(...viaNative.map((a, n) => (typeof a === 'number' ? 0 : maxRelErr(viaJs[n] as ArrayLike<number>, a))))
  if (!(err < 1e-3)) failures++
  const nativeMs = bestMs(() => entry.call(...args))
  const jsMs = bestMs(() => entry.js(...args))
  const gflops = (ms: number) => (c.flops ? (c.flops / ms / 1e6).toFixed(2) : '-')
  rows.push([c.kernel, c.shape, entry.native ? 'native' : 'JS (fallback!)', nativeMs.toFixed(3), jsMs.toFixed(3), (jsMs / nativeMs).toFixed(1) + 'x', gflops(nativeMs), gflops(jsMs), err.toExponential(1)])
}

printTable(['kernel', 'shape', 'path', 'native ms', 'JS ms', 'native/JS', 'GFLOP/s native', 'GFLOP/s JS', 'max rel err'], rows, 3)
if (failures) {
  console.error(`\n${failures} kernel(s) disagree between native and JS`)
  process.exitCode = 1
}
