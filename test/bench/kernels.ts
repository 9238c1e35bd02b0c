// The bench's GEMM kernels (issue 3): sizes are runtime parameters, so one compiled kernel serves every case.
// `+=!` overwrites C (it starts from zero), as onnxruntime's MatMul and Gemm write a fresh output.

/* @kernel
   A: f32[M, K]
   B: f32[K, N]
   C: f32[M, N]
   C[i, j] +=! A[i, k] * B[k, j]
*/
export function matmul(A: Float32Array, B: Float32Array, C: Float32Array, M: number, N: number, K: number): Float32Array {
  for (let i = 0; i < M; i++)
    for (let j = 0; j < N; j++) {
      let s = 0
      for (let k = 0; k < K; k++) s += A[i * K + k] * B[k * N + j]
      C[i * N + j] = s
    }
  return C
}

/* @kernel
   A: f32[Bt, M, K]
   B: f32[Bt, K, N]
   C: f32[Bt, M, N]
   C[b, i, j] +=! A[b, i, k] * B[b, k, j]
*/
export function batchedMatmul(A: Float32Array, B: Float32Array, C: Float32Array, Bt: number, M: number, N: number, K: number): Float32Array {
  for (let b = 0; b < Bt; b++)
    for (let i = 0; i < M; i++)
      for (let j = 0; j < N; j++) {
        let s = 0
        for (let k = 0; k < K; k++) s += A[(b * M + i) * K + k] * B[(b * K + k) * N + j]
        C[(b * M + i) * N + j] = s
      }
  return C
}

/* @kernel
   A: f32[K, M]
   B: f32[N, K]
   C: f32[M, N]
   C[i, j] +=! A[k, i] * B[j, k]
*/
export function matmulTransposed(A: Float32Array, B: Float32Array, C: Float32Array, M: number, N: number, K: number): Float32Array {
  for (let i = 0; i < M; i++)
    for (let j = 0; j < N; j++) {
      let s = 0
      for (let k = 0; k < K; k++) s += A[k * M + i] * B[j * K + k]
      C[i * N + j] = s
    }
  return C
}

/* @kernel
   A: f32[M, K]
   B: f32[K, N]
   bias: f32[N]
   C: f32[M, N]
   let T: f32[M, N]
   T[i, j] +=! A[i, k] * B[k, j]
   C[i, j] = max(T[i, j] + bias[j], 0)
*/
export function matmulBiasRelu(A: Float32Array, B: Float32Array, bias: Float32Array, C: Float32Array, M: number, N: number, K: number): Float32Array {
  for (let i = 0; i < M; i++)
    for (let j = 0; j < N; j++) {
      let s = 0
      for (let k = 0; k < K; k++) s += A[i * K + k] * B[k * N + j]
      C[i * N + j] = Math.max(s + bias[j], 0)
    }
  return C
}
