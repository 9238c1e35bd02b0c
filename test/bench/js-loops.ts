/** The `js-loops` system: the plain i-k-j triple loop a developer writes over Float32Array, without polykern. */
import type { GemmCase } from './cases.ts'

export type GemmCall = (A: Float32Array, B: Float32Array, C: Float32Array) => void

export function jsLoops(c: GemmCase): GemmCall {
  const { M, N, K } = c
  if (c.transposed) return (A, B, C) => ikjTransposed(A, B, C, M, N, K)
  const batch = c.batch ?? 1
  return (A, B, C) => ikj(A, B, C, batch, M, N, K)
}

function ikj(A: Float32Array, B: Float32Array, C: Float32Array, batch: number, M: number, N: number, K: number): void {
  C.fill(0)
  for (let t = 0; t < batch; t++)
    for (let i = 0; i < M; i++)
      for (let k = 0; k < K; k++) {
        const a = A[(t * M + i) * K + k]
        for (let j = 0; j < N; j++) C[(t * M + i) * N + j] += a * B[(t * K + k) * N + j]
      }
}

/** C = Aᵀ·Bᵀ with A stored [K, M] and B stored [N, K]: the same loop order, reading the operands where they are. */
function ikjTransposed(A: Float32Array, B: Float32Array, C: Float32Array, M: number, N: number, K: number): void {
  C.fill(0)
  for (let i = 0; i < M; i++)
    for (let k = 0; k < K; k++) {
      const a = A[k * M + i]
      for (let j = 0; j < N; j++) C[i * N + j] += a * B[j * K + k]
    }
}
