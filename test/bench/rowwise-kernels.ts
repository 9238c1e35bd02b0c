// The row-wise bench's kernels (issue 4): each fused kernel, then the same statements as separate kernels (the
// `polykern-unfused` system), so the two differ only in fusion. Bodies are the plain loops a developer would write.

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
   m: f32[N]
   m[i] max=! X[i, j]
*/
export function rowMax(X: Float32Array, m: Float32Array, N: number, D: number): Float32Array {
  for (let i = 0; i < N; i++) {
    m[i] = -Infinity
    for (let j = 0; j < D; j++) m[i] = Math.max(m[i], X[i * D + j])
  }
  return m
}

/* @kernel
   X: f32[N, D]
   m: f32[N]
   Y: f32[N, D]
   Y[i, j] = exp(X[i, j] - m[i])
*/
export function expShifted(X: Float32Array, m: Float32Array, Y: Float32Array, N: number, D: number): Float32Array {
  for (let i = 0; i < N; i++) for (let j = 0; j < D; j++) Y[i * D + j] = Math.exp(X[i * D + j] - m[i])
  return Y
}

/* @kernel
   Y: f32[N, D]
   z: f32[N]
   z[i] +=! Y[i, j]
*/
export function rowSum(Y: Float32Array, z: Float32Array, N: number, D: number): Float32Array {
  for (let i = 0; i < N; i++) {
    z[i] = 0
    for (let j = 0; j < D; j++) z[i] += Y[i * D + j]
  }
  return z
}

/* @kernel
   Y: f32[N, D]
   z: f32[N]
   Y[i, j] = Y[i, j] / z[i]
*/
export function divideRows(Y: Float32Array, z: Float32Array, N: number, D: number): Float32Array {
  for (let i = 0; i < N; i++) for (let j = 0; j < D; j++) Y[i * D + j] /= z[i]
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
    for (let j = 0; j < D; j++) mean += X[i * D + j] / D
    let v = 0
    for (let j = 0; j < D; j++) v += ((X[i * D + j] - mean) * (X[i * D + j] - mean)) / D
    const rstd = 1 / Math.sqrt(v + 0.00001)
    for (let j = 0; j < D; j++) Y[i * D + j] = (X[i * D + j] - mean) * rstd * gamma[j] + beta[j]
  }
  return Y
}

/* @kernel
   X: f32[N, D]
   mean: f32[N]
   mean[i] +=! X[i, j] / D
*/
export function rowMean(X: Float32Array, mean: Float32Array, N: number, D: number): Float32Array {
  for (let i = 0; i < N; i++) {
    mean[i] = 0
    for (let j = 0; j < D; j++) mean[i] += X[i * D + j] / D
  }
  return mean
}

/* @kernel
   X: f32[N, D]
   mean: f32[N]
   rstd: f32[N]
   rstd[i] +=! (X[i, j] - mean[i]) * (X[i, j] - mean[i]) / D
*/
export function rowVariance(X: Float32Array, mean: Float32Array, rstd: Float32Array, N: number, D: number): Float32Array {
  for (let i = 0; i < N; i++) {
    rstd[i] = 0
    for (let j = 0; j < D; j++) rstd[i] += ((X[i * D + j] - mean[i]) * (X[i * D + j] - mean[i])) / D
  }
  return rstd
}

/* @kernel
   rstd: f32[N]
   rstd[i] = 1 / sqrt(rstd[i] + 0.00001)
*/
export function reciprocalStd(rstd: Float32Array, N: number): Float32Array {
  for (let i = 0; i < N; i++) rstd[i] = 1 / Math.sqrt(rstd[i] + 0.00001)
  return rstd
}

/* @kernel
   X: f32[N, D]
   mean: f32[N]
   rstd: f32[N]
   gamma: f32[D]
   beta: f32[D]
   Y: f32[N, D]
   Y[i, j] = (X[i, j] - mean[i]) * rstd[i] * gamma[j] + beta[j]
*/
export function normalizeRows(X: Float32Array, mean: Float32Array, rstd: Float32Array, gamma: Float32Array, beta: Float32Array, Y: Float32Array, N: number, D: number): Float32Array {
  for (let i = 0; i < N; i++) for (let j = 0; j < D; j++) Y[i * D + j] = (X[i * D + j] - mean[i]) * rstd[i] * gamma[j] + beta[j]
  return Y
}

/* @kernel
   X: f32[N, H, W, C]
   gamma: f32[C]
   beta: f32[C]
   mean: f32[C]
   variance: f32[C]
   Y: f32[N, H, W, C]
   let s: f32[C]
   let b: f32[C]
   let T: f32[N, H, W, C]
   s[c] = gamma[c] / sqrt(variance[c] + 0.00001)
   b[c] = beta[c] - mean[c] * s[c]
   T[n, h, w, c] = X[n, h, w, c] * s[c] + b[c]
   Y[n, h, w, c] = max(T[n, h, w, c], 0)
*/
export function batchNormRelu(X: Float32Array, gamma: Float32Array, beta: Float32Array, mean: Float32Array, variance: Float32Array, Y: Float32Array, N: number, H: number, W: number, C: number): Float32Array {
  for (let p = 0; p < N * H * W; p++)
    for (let c = 0; c < C; c++) {
      const s = gamma[c] / Math.sqrt(variance[c] + 0.00001)
      Y[p * C + c] = Math.max(X[p * C + c] * s + (beta[c] - mean[c] * s), 0)
    }
  return Y
}

/* @kernel
   gamma: f32[C]
   beta: f32[C]
   mean: f32[C]
   variance: f32[C]
   s: f32[C]
   b: f32[C]
   s[c] = gamma[c] / sqrt(variance[c] + 0.00001)
   b[c] = beta[c] - mean[c] * s[c]
*/
export function batchNormScaleShift(gamma: Float32Array, beta: Float32Array, mean: Float32Array, variance: Float32Array, s: Float32Array, b: Float32Array, C: number): Float32Array {
  for (let c = 0; c < C; c++) {
    s[c] = gamma[c] / Math.sqrt(variance[c] + 0.00001)
    b[c] = beta[c] - mean[c] * s[c]
  }
  return b
}

/* @kernel
   X: f32[N, H, W, C]
   s: f32[C]
   b: f32[C]
   T: f32[N, H, W, C]
   T[n, h, w, c] = X[n, h, w, c] * s[c] + b[c]
*/
export function batchNormApply(X: Float32Array, s: Float32Array, b: Float32Array, T: Float32Array, N: number, H: number, W: number, C: number): Float32Array {
  for (let p = 0; p < N * H * W; p++) for (let c = 0; c < C; c++) T[p * C + c] = X[p * C + c] * s[c] + b[c]
  return T
}

/* @kernel
   T: f32[N, H, W, C]
   Y: f32[N, H, W, C]
   Y[n, h, w, c] = max(T[n, h, w, c], 0)
*/
export function relu(T: Float32Array, Y: Float32Array, N: number, H: number, W: number, C: number): Float32Array {
  for (let p = 0; p < N * H * W * C; p++) Y[p] = Math.max(T[p], 0)
  return Y
}

/* @kernel
   X: f32[N, H, W, C]
   m: f32[C]
   m[c] +=! X[n, h, w, c] / (N * H * W)
*/
export function channelMean(X: Float32Array, m: Float32Array, N: number, H: number, W: number, C: number): Float32Array {
  m.fill(0)
  for (let p = 0; p < N * H * W; p++) for (let c = 0; c < C; c++) m[c] += X[p * C + c] / (N * H * W)
  return m
}

/* @kernel
   X: f32[N, H, W, C]
   s: f32[C]
   s[c] +=! X[n, h, w, c]
*/
export function channelSum(X: Float32Array, s: Float32Array, N: number, H: number, W: number, C: number): Float32Array {
  s.fill(0)
  for (let p = 0; p < N * H * W; p++) for (let c = 0; c < C; c++) s[c] += X[p * C + c]
  return s
}

/* @kernel
   s: f32[C]
   count: f32[]
   m: f32[C]
   m[c] = s[c] / count
*/
export function divideChannels(s: Float32Array, count: Float32Array, m: Float32Array, C: number): Float32Array {
  for (let c = 0; c < C; c++) m[c] = s[c] / count[0]
  return m
}
