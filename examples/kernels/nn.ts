// Neural-network kernels: broadcasting, convolutions written as affine specs (padding = out-of-range reads),
// pooling, and multi-statement kernels with temporaries (softmax, layer norm, attention).

/* @kernel
   X: f32[M, N]
   bias: f32[N]
   Y: f32[M, N]
   Y[i, j] = max(X[i, j] + bias[j], 0)
*/
export function biasRelu(X: Float32Array, bias: Float32Array, Y: Float32Array, M: number, N: number): Float32Array {
  for (let i = 0; i < M; i++) for (let j = 0; j < N; j++) Y[i * N + j] = Math.max(X[i * N + j] + bias[j], 0)
  return Y
}

/* @kernel
   I: f32[N, H, W, C]
   F: f32[3, 3, C, K]
   O: f32[N, P, Q, K]
   O[n, p, q, k] +=! I[n, 2*p + r - 1, 2*q + s - 1, c] * F[r, s, c, k]
*/
export function conv2dStride2(I: Float32Array, F: Float32Array, O: Float32Array, N: number, H: number, W: number, C: number, K: number, P: number, Q: number): Float32Array {
  O.fill(0)
  for (let n = 0; n < N; n++)
    for (let p = 0; p < P; p++)
      for (let q = 0; q < Q; q++)
        for (let r = 0; r < 3; r++)
          for (let s = 0; s < 3; s++) {
            const h = 2 * p + r - 1
            const w = 2 * q + s - 1
            if (h < 0 || h >= H || w < 0 || w >= W) continue
            for (let c = 0; c < C; c++)
              for (let k = 0; k < K; k++) O[((n * P + p) * Q + q) * K + k] += I[((n * H + h) * W + w) * C + c] * F[((r * 3 + s) * C + c) * K + k]
          }
  return O
}

/* @kernel
   I: f32[H, W, C]
   F: f32[3, 3, C]
   O: f32[H, W, C]
   O[h, w, c] +=! I[h + r - 1, w + s - 1, c] * F[r, s, c]
*/
export function depthwise3x3(I: Float32Array, F: Float32Array, O: Float32Array, H: number, W: number, C: number): Float32Array {
  O.fill(0)
  for (let h = 0; h < H; h++)
    for (let w = 0; w < W; w++)
      for (let r = 0; r < 3; r++)
        for (let s = 0; s < 3; s++) {
          const y = h + r - 1
          const x = w + s - 1
          if (y < 0 || y >= H || x < 0 || x >= W) continue
          for (let c = 0; c < C; c++) O[(h * W + w) * C + c] += I[(y * W + x) * C + c] * F[(r * 3 + s) * C + c]
        }
  return O
}

/* @kernel
   I: f32[H, W, C]
   O: f32[P, Q, C]
   O[p, q, c] max=! I[2*p + r, 2*q + s, c] where r < 2, s < 2
*/
export function maxPool2x2(I: Float32Array, O: Float32Array, H: number, W: number, C: number, P: number, Q: number): Float32Array {
  for (let p = 0; p < P; p++)
    for (let q = 0; q < Q; q++)
      for (let c = 0; c < C; c++) {
        let m = -Infinity
        for (let r = 0; r < 2; r++)
          for (let s = 0; s < 2; s++) {
            const y = 2 * p + r
            const x = 2 * q + s
            if (y < H && x < W) m = Math.max(m, I[(y * W + x) * C + c])
          }
        O[(p * Q + q) * C + c] = m
      }
  return O
}

/* @kernel
   X: f32[N, D]
   Y: f32[N, D]
   let m: f32[N]
   let z: f32[N]
   m[i] max=! X[i, j]
   Y[i, j] = exp(X[i, j] - m[i])
   z[i] +=! Y[i, j]
   Y[i, j] = Y[i, j] / z[i]
*/
export function softmax(X: Float32Array, Y: Float32Array, N: number, D: number): Float32Array {
  for (let i = 0; i < N; i++) {
    let m = -Infinity
    for (let j = 0; j < D; j++) m = Math.max(m, X[i * D + j])
    let z = 0
    for (let j = 0; j < D; j++) z += Y[i * D + j] = Math.exp(X[i * D + j] - m)
    for (let j = 0; j < D; j++) Y[i * D + j] /= z
  }
  return Y
}

/* @kernel
   X: f32[N, D]
   gamma: f32[D]
   beta: f32[D]
   Y: f32[N, D]
   let mean: f32[N]
   let rstd: f32[N]
   mean[i] +=! X[i, j] / D
   rstd[i] +=! (X[i, j] - mean[i]) * (X[i, j] - mean[i]) / D
   rstd[i] = 1 / sqrt(rstd[i] + 0.00001)
   Y[i, j] = (X[i, j] - mean[i]) * rstd[i] * gamma[j] + beta[j]
*/
export function layerNorm(X: Float32Array, gamma: Float32Array, beta: Float32Array, Y: Float32Array, N: number, D: number): Float32Array {
  for (let i = 0; i < N; i++) {
    let mean = 0
    for (let j = 0; j < D; j++) mean += X[i * D + j]
    mean /= D
    let v = 0
    for (let j = 0; j < D; j++) v += (X[i * D + j] - mean) ** 2
    const rstd = 1 / Math.sqrt(v / D + 1e-5)
    for (let j = 0; j < D; j++) Y[i * D + j] = (X[i * D + j] - mean) * rstd * gamma[j] + beta[j]
  }
  return Y
}

/* @kernel
   Q: f32[S, D]
   K: f32[T, D]
   V: f32[T, E]
   O: f32[S, E]
   let scores: f32[S, T]
   let m: f32[S]
   let z: f32[S]
   scores[s, t] +=! Q[s, d] * K[t, d] / sqrt(D)
   m[s] max=! scores[s, t]
   scores[s, t] = exp(scores[s, t] - m[s])
   z[s] +=! scores[s, t]
   O[s, e] +=! scores[s, t] * V[t, e] / z[s]
*/
export function attention(Q: Float32Array, K: Float32Array, V: Float32Array, O: Float32Array, S: number, T: number, D: number, E: number): Float32Array {
  const p = new Float64Array(T)
  for (let s = 0; s < S; s++) {
    let m = -Infinity
    for (let t = 0; t < T; t++) {
      let dotQK = 0
      for (let d = 0; d < D; d++) dotQK += Q[s * D + d] * K[t * D + d]
      p[t] = dotQK / Math.sqrt(D)
      m = Math.max(m, p[t])
    }
    let z = 0
    for (let t = 0; t < T; t++) z += p[t] = Math.exp(p[t] - m)
    for (let e = 0; e < E; e++) {
      let acc = 0
      for (let t = 0; t < T; t++) acc += p[t] * V[t * E + e]
      O[s * E + e] = acc / z
    }
  }
  return O
}
