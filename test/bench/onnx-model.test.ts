// The bench's hand-written ONNX writer, checked by onnxruntime-node itself: it must load the model and compute the
// same product as a plain triple loop.
import * as ort from 'onnxruntime-node'
import { describe, expect, it } from 'vitest'
import { MODEL_IO, matMulModel } from './onnx-model.ts'
import { varint } from './protobuf.ts'

let seed = 7
const random = (): number => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32) * 2 - 1
const randomF32 = (n: number): Float32Array => Float32Array.from({ length: n }, random)

/** C[t] = op(A[t]) · op(B[t]) by the definition, where op transposes when `transposed`. */
function tripleLoop(A: Float32Array, B: Float32Array, batch: number, M: number, N: number, K: number, transposed: boolean): Float64Array {
  const C = new Float64Array(batch * M * N)
  for (let t = 0; t < batch; t++)
    for (let i = 0; i < M; i++)
      for (let j = 0; j < N; j++)
        for (let k = 0; k < K; k++) {
          const a = transposed ? A[k * M + i] : A[(t * M + i) * K + k]
          const b = transposed ? B[j * K + k] : B[(t * K + k) * N + j]
          C[(t * M + i) * N + j] += a * b
        }
  return C
}

async function runModel(model: Uint8Array, A: Float32Array, a: number[], B: Float32Array, b: number[]): Promise<ort.Tensor> {
  const session = await ort.InferenceSession.create(model, { intraOpNumThreads: 1, graphOptimizationLevel: 'all' })
  try {
    const out = await session.run({ [MODEL_IO.a]: new ort.Tensor('float32', A, a), [MODEL_IO.b]: new ort.Tensor('float32', B, b) })
    return out[MODEL_IO.y]
  } finally {
    await session.release()
  }
}

function expectClose(got: ArrayLike<number>, want: ArrayLike<number>): void {
  expect(got.length).toBe(want.length)
  for (let i = 0; i < want.length; i++) expect(Math.abs(got[i] - want[i])).toBeLessThan(1e-5 * Math.max(1, Math.abs(want[i])))
}

describe('matMulModel', () => {
  it('encodes varints as the protobuf spec does (its worked example: 150 and 300)', () => {
    expect([...varint(1)]).toEqual([0x01])
    expect([...varint(150)]).toEqual([0x96, 0x01])
    expect([...varint(300)]).toEqual([0xac, 0x02])
    expect([...varint(2 ** 35)]).toEqual([0x80, 0x80, 0x80, 0x80, 0x80, 0x01])
  })

  it('runs a 7x5 · 5x3 MatMul in onnxruntime-node equal to a triple loop', async () => {
    const A = randomF32(7 * 5)
    const B = randomF32(5 * 3)
    const Y = await runModel(matMulModel({ a: [7, 5], b: [5, 3], y: [7, 3] }), A, [7, 5], B, [5, 3])
    expect(Y.dims).toEqual([7, 3])
    expect(Y.type).toBe('float32')
    expectClose(Y.data as Float32Array, tripleLoop(A, B, 1, 7, 3, 5, false))
  })

  it('runs the transposed form (Gemm, transA = transB = 1) for A stored 5x7 and B stored 3x5', async () => {
    const A = randomF32(5 * 7)
    const B = randomF32(3 * 5)
    const Y = await runModel(matMulModel({ a: [5, 7], b: [3, 5], y: [7, 3], transposed: true }), A, [5, 7], B, [3, 5])
    expect(Y.dims).toEqual([7, 3])
    expectClose(Y.data as Float32Array, tripleLoop(A, B, 1, 7, 3, 5, true))
  })

  it('runs a batched 3-D MatMul (2 x 7x5 · 5x3)', async () => {
    const A = randomF32(2 * 7 * 5)
    const B = randomF32(2 * 5 * 3)
    const Y = await runModel(matMulModel({ a: [2, 7, 5], b: [2, 5, 3], y: [2, 7, 3] }), A, [2, 7, 5], B, [2, 5, 3])
    expect(Y.dims).toEqual([2, 7, 3])
    expectClose(Y.data as Float32Array, tripleLoop(A, B, 2, 7, 3, 5, false))
  })

  it('rejects a transposed batched model, which Gemm cannot express', () => {
    expect(() => matMulModel({ a: [2, 5, 7], b: [2, 3, 5], y: [2, 7, 3], transposed: true })).toThrow(/2-D only/)
  })
})
