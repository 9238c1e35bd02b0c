/** Kernels for the `.async` tests: a GEMM (pool-threaded, blocked), a fused row kernel, and two outputs in f64. */
export const ASYNC_KERNELS = `
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
   X: f32[N, D]
   Y: f32[N, D]
   let m: f32[N]
   let s: f32[N]
   m[i] max=! X[i, j]
   Y[i, j] = exp(X[i, j] - m[i])
   s[i] +=! Y[i, j]
   Y[i, j] = Y[i, j] / s[i]
*/
export const softmax = (X: Float32Array, Y: Float32Array, N: number, D: number): Float32Array => {
  return Y
}

/* @kernel
   x: f64[N]
   lo: f64[N]
   hi: f64[N]
   lo[i] = min(x[i], 0)
   hi[i] = max(x[i], 0)
*/
export function split(x: Float64Array, lo: Float64Array, hi: Float64Array, N: number): void {}
`

/** The kernels' signatures as the tests call them, with the `.async` form the rewrite adds. */
export interface AsyncKernels {
  readonly matmul: AsyncForm
  readonly softmax: AsyncForm
  readonly split: AsyncForm
}
type AsyncForm = ((...args: unknown[]) => unknown) & { readonly async: (...args: unknown[]) => Promise<unknown> }
