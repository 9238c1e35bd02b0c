// The bench's `onednn` system on sizes that are not multiples of oneDNN's 16-wide blocks: its harness is built as the
// bench builds it (installing Debian's libdnnl-dev first when missing; a machine that cannot is a failure, not a
// skip), and each case it runs matches plain loops, at 1 and 2 threads.
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { GemmCase } from './cases.ts'
import type { ConvModelShape } from './conv-onnx.ts'
import { loadOnednn, type Onednn, type Prepared } from './onednn.ts'
import { maxRelErr } from './reference.ts'

const ROOT = path.resolve(import.meta.dirname, '../..')
const work = mkdtempSync(path.join(os.tmpdir(), 'polykern-onednn-'))
let onednn: Onednn
beforeAll(() => {
  onednn = loadOnednn(ROOT, work) // apt-get on a fresh machine: tens of seconds
}, 900_000)
afterAll(() => rmSync(work, { recursive: true, force: true }))

let seed = 11
const randomF32 = (n: number): Float32Array =>
  Float32Array.from({ length: n }, () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32) * 2 - 1)

/** C[b] = A[b]·B[b] by the definition; transposed: A stored [K, M], B [N, K]. */
function gemmLoops(c: GemmCase, A: Float32Array, B: Float32Array): Float64Array {
  const { M, N, K } = c
  const batch = c.batch ?? 1
  const C = new Float64Array(batch * M * N)
  for (let b = 0; b < batch; b++)
    for (let i = 0; i < M; i++)
      for (let j = 0; j < N; j++)
        for (let k = 0; k < K; k++) {
          const a = c.transposed ? A[k * M + i] : A[(b * M + i) * K + k]
          const w = c.transposed ? B[j * K + k] : B[(b * K + k) * N + j]
          C[(b * M + i) * N + j] += a * w
        }
  return C
}

/** NHWC convolution by the definition, F [R, S, C, K] ([R, S, C] depthwise), then bias and ReLU when given. */
function convLoops(s: ConvModelShape, I: Float32Array, F: Float32Array, bias?: Float32Array): Float64Array {
  const P = Math.floor((s.H + 2 * s.pad - s.R) / s.stride) + 1
  const Q = Math.floor((s.W + 2 * s.pad - s.S) / s.stride) + 1
  const depthwise = s.groups > 1
  const O = new Float64Array(s.N * P * Q * s.K)
  for (let n = 0; n < s.N; n++)
    for (let p = 0; p < P; p++)
      for (let q = 0; q < Q; q++)
        for (let k = 0; k < s.K; k++) {
          let sum = bias?.[k] ?? 0
          for (let r = 0; r < s.R; r++)
            for (let t = 0; t < s.S; t++) {
              const h = p * s.stride + r - s.pad
              const w = q * s.stride + t - s.pad
              if (h < 0 || h >= s.H || w < 0 || w >= s.W) continue
              const input = ((n * s.H + h) * s.W + w) * s.C
              if (depthwise) sum += I[input + k] * F[(r * s.S + t) * s.C + k]
              else for (let c = 0; c < s.C; c++) sum += I[input + c] * F[((r * s.S + t) * s.C + c) * s.K + k]
            }
          O[((n * P + p) * Q + q) * s.K + k] = bias ? Math.max(sum, 0) : sum
        }
  return O
}

/** `prepared` run on `input` into an output that starts as NaN, so an element it never writes fails the check. */
function runOnce(prepared: Prepared, input: Float32Array, outputLength: number): Float32Array {
  const output = new Float32Array(outputLength).fill(NaN)
  try {
    prepared.run(input, output)
  } finally {
    prepared.release()
  }
  return output
}

const GEMMS: GemmCase[] = [
  { name: 'plain', M: 13, N: 21, K: 19 },
  { name: 'transposed', M: 13, N: 21, K: 19, transposed: true },
  { name: 'batched', M: 5, N: 11, K: 7, batch: 3 },
]

const conv = (H: number, C: number, K: number, R: number, stride: number, pad: number, groups = 1): ConvModelShape =>
  ({ N: 1, H, W: H, C, K, R, S: R, stride, pad, groups })
const CONVS: [string, ConvModelShape][] = [
  ['3x3 pad 1', conv(9, 5, 7, 3, 1, 1)],
  ['1x1', conv(6, 17, 3, 1, 1, 0)],
  ['7x7 stride 2 pad 3', conv(11, 3, 5, 7, 2, 3)],
  ['depthwise 3x3', conv(10, 6, 6, 3, 1, 1, 6)],
]

describe.each([1, 2] as const)('oneDNN at %i thread(s) matches plain loops', (threads) => {
  it.each(GEMMS)('matmul, $name', (c) => {
    const batch = c.batch ?? 1
    const A = randomF32(batch * c.M * c.K)
    const B = randomF32(batch * c.K * c.N)
    const C = runOnce(onednn.gemm(c, B, threads), A, batch * c.M * c.N)
    expect(maxRelErr(C, gemmLoops(c, A, B))).toBeLessThan(1e-5)
  })

  it('matmul with bias and ReLU', () => {
    const c: GemmCase = { name: 'bias', M: 9, N: 13, K: 7 }
    const [A, B, bias] = [randomF32(c.M * c.K), randomF32(c.K * c.N), randomF32(c.N)]
    const want = gemmLoops(c, A, B).map((v, i) => Math.max(v + bias[i % c.N], 0))
    const C = runOnce(onednn.gemm(c, B, threads, bias), A, c.M * c.N)
    expect(want.some((x) => x === 0) && want.some((x) => x > 0)).toBe(true)
    expect(maxRelErr(C, want)).toBeLessThan(1e-5)
  })

  it.each(CONVS)('convolution, %s', (_, s) => {
    const I = randomF32(s.H * s.W * s.C)
    const F = randomF32(s.R * s.S * s.C * (s.groups > 1 ? 1 : s.K))
    const want = convLoops(s, I, F)
    expect(maxRelErr(runOnce(onednn.conv(s, F, threads), I, want.length), want)).toBeLessThan(1e-5)
  })

  it('convolution with bias and ReLU, the weights copied when prepared', () => {
    const s = conv(9, 5, 7, 3, 1, 1)
    const [I, F, bias] = [randomF32(s.H * s.W * s.C), randomF32(s.R * s.S * s.C * s.K), randomF32(s.K)]
    const want = convLoops(s, I, F, bias)
    const prepared = onednn.conv(s, F, threads, bias)
    F.fill(0)
    bias.fill(0)
    const O = runOnce(prepared, I, want.length)
    expect(want.some((x) => x === 0) && want.some((x) => x > 0)).toBe(true)
    expect(maxRelErr(O, want)).toBeLessThan(1e-5)
  })
})

it('names its version and OpenMP, whose thread count the harness sets', () => {
  expect(onednn.version).toMatch(/^2\.\d+\.\d+ \(OpenMP\)$/)
})

it('refuses activations of the wrong size and calls after release', () => {
  const c = GEMMS[0]
  const prepared = onednn.gemm(c, randomF32(c.K * c.N), 1)
  expect(() => prepared.run(new Float32Array(c.M * c.K - 1), new Float32Array(c.M * c.N))).toThrow(/sizes/)
  prepared.release()
  expect(() => prepared.run(new Float32Array(c.M * c.K), new Float32Array(c.M * c.N))).toThrow(/released/)
})
