// The registry, to check in the worker that the native path loaded and to run the JS loops as the reference.
export { kernels } from 'polykern/runtime'

/* A GEMM (blocked, packed into per-thread buffers, on the pool) and a strided convolution: the two kernels whose
   native state (pool threads, thread-exit destructors) outlived a worker's environment. */

/* @kernel
   A: f32[M, K]
   B: f32[K, N]
   C: f32[M, N]
   C[i, j] +=! A[i, k] * B[k, j]
*/
export function matmul(A: Float32Array, B: Float32Array, C: Float32Array, M: number, N: number, K: number): Float32Array {
  return C
}

/* @kernel
   I: f32[N, H, W, C]
   F: f32[3, 3, C, K]
   O: f32[N, P, Q, K]
   O[n, p, q, k] +=! I[n, 2*p + r - 1, 2*q + s - 1, c] * F[r, s, c, k]
*/
export function conv(I: Float32Array, F: Float32Array, O: Float32Array, N: number, H: number, W: number, C: number, K: number, P: number, Q: number): Float32Array {
  return O
}
