// The two heavy steps of Lloyd's k-means: the squared distance of every point to every centroid, and the per-cluster
// sums of the points (a contraction with the one-hot assignment matrix). The argmin between them stays in JS.

/* @kernel
   @allow-loops: exact on purpose; the GEMM form |x|² - 2·x·c + |c|² loses digits for points near a centroid
   X: f32[N, D]
   C: f32[K, D]
   Dist: f32[N, K]
   Dist[n, c] +=! (X[n, d] - C[c, d]) * (X[n, d] - C[c, d])
*/
export function distances(X: Float32Array, C: Float32Array, Dist: Float32Array, N: number, D: number, K: number): Float32Array {
  for (let n = 0; n < N; n++)
    for (let c = 0; c < K; c++) {
      let sum = 0
      for (let d = 0; d < D; d++) {
        const diff = X[n * D + d] - C[c * D + d]
        sum += diff * diff
      }
      Dist[n * K + c] = sum
    }
  return Dist
}

/* @kernel
   X: f32[N, D]
   Assign: f32[N, K]
   S: f32[K, D]
   S[c, d] +=! Assign[n, c] * X[n, d]
*/
export function clusterSums(X: Float32Array, Assign: Float32Array, S: Float32Array, N: number, D: number, K: number): Float32Array {
  S.fill(0)
  for (let n = 0; n < N; n++)
    for (let c = 0; c < K; c++) {
      const w = Assign[n * K + c]
      if (w !== 0) for (let d = 0; d < D; d++) S[c * D + d] += w * X[n * D + d]
    }
  return S
}
