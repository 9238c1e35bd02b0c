// Linear-algebra kernels: each function's body is the plain loop a developer would write; the `@kernel`
// spec above it is what polykern compiles. After bundling, every call runs the native addon (or the JS fallback).

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
   A: f64[M, N]
   x: f64[N]
   y: f64[M]
   y[i] +=! A[i, j] * x[j]
*/
export function matvec(A: Float64Array, x: Float64Array, y: Float64Array, M: number, N: number): Float64Array {
  for (let i = 0; i < M; i++) {
    let s = 0
    for (let j = 0; j < N; j++) s += A[i * N + j] * x[j]
    y[i] = s
  }
  return y
}

/* @kernel
   x: f32[N]
   y: f32[N]
   out: f32[]
   out +=! x[i] * y[i]
*/
export function dot(x: Float32Array, y: Float32Array, out: Float32Array, N: number): Float32Array {
  let s = 0
  for (let i = 0; i < N; i++) s += x[i] * y[i]
  out[0] = s
  return out
}

/* @kernel
   x: f32[M]
   y: f32[N]
   P: f32[M, N]
   P[i, j] = x[i] * y[j]
*/
export const outer = (x: Float32Array, y: Float32Array, P: Float32Array, M: number, N: number): Float32Array => {
  for (let i = 0; i < M; i++) for (let j = 0; j < N; j++) P[i * N + j] = x[i] * y[j]
  return P
}

/* @kernel
   A: i32[M, N]
   T: i32[N, M]
   T[j, i] = A[i, j]
*/
export function transpose(A: Int32Array, T: Int32Array, M: number, N: number): Int32Array {
  for (let i = 0; i < M; i++) for (let j = 0; j < N; j++) T[j * M + i] = A[i * N + j]
  return T
}

/* @kernel
   X: f32[N, C, H, W]
   Y: f32[N, H, W, C]
   Y[n, h, w, c] = X[n, c, h, w]
*/
export function nchwToNhwc(X: Float32Array, Y: Float32Array, N: number, C: number, H: number, W: number): Float32Array {
  for (let n = 0; n < N; n++)
    for (let h = 0; h < H; h++)
      for (let w = 0; w < W; w++)
        for (let c = 0; c < C; c++) Y[((n * H + h) * W + w) * C + c] = X[((n * C + c) * H + h) * W + w]
  return Y
}

/* @kernel
   A: f64[N, N]
   t: f64[]
   t +=! A[i, i]
*/
export function trace(A: Float64Array, t: Float64Array, N: number): Float64Array {
  let s = 0
  for (let i = 0; i < N; i++) s += A[i * N + i]
  t[0] = s
  return t
}

/* @kernel
   A: f32[N, N]
   d: f32[N]
   d[i] = A[i, i]
*/
export function diagonal(A: Float32Array, d: Float32Array, N: number): Float32Array {
  for (let i = 0; i < N; i++) d[i] = A[i * N + i]
  return d
}

/* @kernel
   X: f32[M, N]
   s: f32[M]
   s[i] +=! X[i, j]
*/
export function rowSum(X: Float32Array, s: Float32Array, M: number, N: number): Float32Array {
  for (let i = 0; i < M; i++) {
    let acc = 0
    for (let j = 0; j < N; j++) acc += X[i * N + j]
    s[i] = acc
  }
  return s
}

/* @kernel
   X: i32[M, N]
   m: i32[M]
   m[i] max=! X[i, j]
*/
export function rowMax(X: Int32Array, m: Int32Array, M: number, N: number): Int32Array {
  for (let i = 0; i < M; i++) {
    let best = -2147483648
    for (let j = 0; j < N; j++) best = Math.max(best, X[i * N + j])
    m[i] = best
  }
  return m
}

/* @kernel
   X: f32[E, A]
   Y: f32[A, B]
   Z: f32[B, F]
   O: f32[E, F]
   O[e, f] +=! X[e, a] * Y[a, b] * Z[b, f]
*/
export function chain3(X: Float32Array, Y: Float32Array, Z: Float32Array, O: Float32Array, E: number, A: number, B: number, F: number): Float32Array {
  O.fill(0)
  for (let e = 0; e < E; e++)
    for (let a = 0; a < A; a++)
      for (let b = 0; b < B; b++)
        for (let f = 0; f < F; f++) O[e * F + f] += X[e * A + a] * Y[a * B + b] * Z[b * F + f]
  return O
}
