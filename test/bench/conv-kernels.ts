// The conv bench's kernels (issue 4): NHWC, fp32, one per filter shape of the cases. Bundled twice by run.mjs: with
// polykern's defaults (the `polykern` system, direct convolution) and with `convolution: 'im2col'` (conv-im2col.ts).
// Bodies are the plain loops a developer would write (convLoops, depthwiseLoops): the `js-loops` system calls them
// directly, since polykern rewrites the annotated functions themselves.

/** O[n, p, q, k] = Σ I[n, stride·p + r - pad, stride·q + s - pad, c] · F[r, s, c, k], reads outside I skipped. */
export function convLoops(I: Float32Array, F: Float32Array, O: Float32Array, N: number, H: number, W: number, C: number,
  K: number, P: number, Q: number, R: number, stride: number, pad: number): Float32Array {
  O.fill(0)
  for (let n = 0; n < N; n++)
    for (let p = 0; p < P; p++)
      for (let q = 0; q < Q; q++)
        for (let r = 0; r < R; r++) {
          const h = stride * p + r - pad
          if (h < 0 || h >= H) continue
          for (let s = 0; s < R; s++) {
            const w = stride * q + s - pad
            if (w < 0 || w >= W) continue
            const o = ((n * P + p) * Q + q) * K
            for (let c = 0; c < C; c++) {
              const x = I[((n * H + h) * W + w) * C + c]
              const f = ((r * R + s) * C + c) * K
              for (let k = 0; k < K; k++) O[o + k] += x * F[f + k]
            }
          }
        }
  return O
}

/* @kernel
   I: f32[N, H, W, C]
   F: f32[3, 3, C, K]
   O: f32[N, P, Q, K]
   O[n, p, q, k] +=! I[n, p + r - 1, q + s - 1, c] * F[r, s, c, k]
*/
export function conv3x3(I: Float32Array, F: Float32Array, O: Float32Array, N: number, H: number, W: number, C: number, K: number, P: number, Q: number): Float32Array {
  return convLoops(I, F, O, N, H, W, C, K, P, Q, 3, 1, 1)
}

/* @kernel
   I: f32[N, H, W, C]
   F: f32[1, 1, C, K]
   O: f32[N, P, Q, K]
   O[n, p, q, k] +=! I[n, p + r, q + s, c] * F[r, s, c, k]
*/
export function conv1x1(I: Float32Array, F: Float32Array, O: Float32Array, N: number, H: number, W: number, C: number, K: number, P: number, Q: number): Float32Array {
  return convLoops(I, F, O, N, H, W, C, K, P, Q, 1, 1, 0)
}

/* @kernel
   I: f32[N, H, W, C]
   F: f32[7, 7, C, K]
   O: f32[N, P, Q, K]
   O[n, p, q, k] +=! I[n, 2*p + r - 3, 2*q + s - 3, c] * F[r, s, c, k]
*/
export function conv7x7s2(I: Float32Array, F: Float32Array, O: Float32Array, N: number, H: number, W: number, C: number, K: number, P: number, Q: number): Float32Array {
  return convLoops(I, F, O, N, H, W, C, K, P, Q, 7, 2, 3)
}

/* @kernel
   I: f32[N, H, W, C]
   F: f32[3, 3, C]
   O: f32[N, P, Q, C]
   O[n, p, q, c] +=! I[n, p + r - 1, q + s - 1, c] * F[r, s, c]
*/
export function depthwise3x3(I: Float32Array, F: Float32Array, O: Float32Array, N: number, H: number, W: number, C: number, P: number, Q: number): Float32Array {
  return depthwiseLoops(I, F, O, N, H, W, C, P, Q)
}

/** O[n, p, q, c] = Σ I[n, p + r - 1, q + s - 1, c] · F[r, s, c] over a 3×3 window, reads outside I skipped. */
export function depthwiseLoops(I: Float32Array, F: Float32Array, O: Float32Array, N: number, H: number, W: number, C: number,
  P: number, Q: number): Float32Array {
  O.fill(0)
  for (let n = 0; n < N; n++)
    for (let p = 0; p < P; p++)
      for (let q = 0; q < Q; q++)
        for (let r = 0; r < 3; r++)
          for (let s = 0; s < 3; s++) {
            const [h, w] = [p + r - 1, q + s - 1]
            if (h < 0 || h >= H || w < 0 || w >= W) continue
            for (let c = 0; c < C; c++) O[((n * P + p) * Q + q) * C + c] += I[((n * H + h) * W + w) * C + c] * F[(r * 3 + s) * C + c]
          }
  return O
}

/* @kernel
   I: f32[N, H, W, C]
   F: f32[3, 3, C, K]
   bias: f32[K]
   O: f32[N, P, Q, K]
   let T: f32[N, P, Q, K]
   T[n, p, q, k] +=! I[n, p + r - 1, q + s - 1, c] * F[r, s, c, k]
   O[n, p, q, k] = max(T[n, p, q, k] + bias[k], 0)
*/
export function conv3x3BiasRelu(I: Float32Array, F: Float32Array, bias: Float32Array, O: Float32Array, N: number, H: number, W: number, C: number, K: number, P: number, Q: number): Float32Array {
  convLoops(I, F, O, N, H, W, C, K, P, Q, 3, 1, 1)
  return biasReluLoops(O, bias, O, N * P * Q, K)
}

/* @kernel
   I: f32[N, H, W, C]
   F: f32[1, 1, C, K]
   bias: f32[K]
   O: f32[N, P, Q, K]
   let T: f32[N, P, Q, K]
   T[n, p, q, k] +=! I[n, p + r, q + s, c] * F[r, s, c, k]
   O[n, p, q, k] = max(T[n, p, q, k] + bias[k], 0)
*/
export function conv1x1BiasRelu(I: Float32Array, F: Float32Array, bias: Float32Array, O: Float32Array, N: number, H: number, W: number, C: number, K: number, P: number, Q: number): Float32Array {
  convLoops(I, F, O, N, H, W, C, K, P, Q, 1, 1, 0)
  return biasReluLoops(O, bias, O, N * P * Q, K)
}

/* @kernel
   X: f32[M, K]
   bias: f32[K]
   Y: f32[M, K]
   Y[m, k] = max(X[m, k] + bias[k], 0)
*/
export function biasRelu(X: Float32Array, bias: Float32Array, Y: Float32Array, M: number, K: number): Float32Array {
  return biasReluLoops(X, bias, Y, M, K)
}

/** Y[m, k] = max(X[m, k] + bias[k], 0): the unfused second step, and the fused kernel's loops after its convolution. */
export function biasReluLoops(X: Float32Array, bias: Float32Array, Y: Float32Array, M: number, K: number): Float32Array {
  for (let m = 0; m < M; m++) for (let k = 0; k < K; k++) Y[m * K + k] = Math.max(X[m * K + k] + bias[k], 0)
  return Y
}
