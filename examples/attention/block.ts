// A causal self-attention head as one kernel: the query, key and value projections of the sequence, scaled dot
// products, a softmax over the earlier positions (t <= s), the weighted sum of the values and the output projection.
// Every product runs on the GEMM microkernels: 1/sqrt(E) scales Q's packed panels, 1/z[s] is applied to each output
// tile in registers; the weighted sum runs over every t, as `+=!` zeroed P where t > s.

/* @kernel
   X: f32[S, D]
   Wq: f32[D, E]
   Wk: f32[D, E]
   Wv: f32[D, E]
   Wo: f32[E, D]
   Y: f32[S, D]
   let Q: f32[S, E]
   let Kp: f32[S, E]
   let V: f32[S, E]
   let P: f32[S, S]
   let m: f32[S]
   let z: f32[S]
   let A: f32[S, E]
   Q[s, e] +=! X[s, d] * Wq[d, e]
   Kp[t, e] +=! X[t, d] * Wk[d, e]
   V[t, e] +=! X[t, d] * Wv[d, e]
   P[s, t] +=! Q[s, e] * Kp[t, e] / sqrt(E) where t <= s
   m[s] max=! P[s, t] where t <= s
   P[s, t] = exp(P[s, t] - m[s]) where t <= s
   z[s] +=! P[s, t] where t <= s
   A[s, e] +=! P[s, t] * V[t, e] / z[s]
   Y[s, d] +=! A[s, e] * Wo[e, d]
*/
export function causalAttention(X: Float32Array, Wq: Float32Array, Wk: Float32Array, Wv: Float32Array, Wo: Float32Array, Y: Float32Array, S: number, D: number, E: number): Float32Array {
  const project = (W: Float32Array) => {
    const out = new Float32Array(S * E)
    for (let s = 0; s < S; s++)
      for (let d = 0; d < D; d++) {
        const x = X[s * D + d]
        for (let e = 0; e < E; e++) out[s * E + e] += x * W[d * E + e]
      }
    return out
  }
  const [Q, K, V] = [project(Wq), project(Wk), project(Wv)]
  const weights = new Float64Array(S)
  const head = new Float32Array(E)
  Y.fill(0)
  for (let s = 0; s < S; s++) {
    let max = -Infinity
    for (let t = 0; t <= s; t++) {
      let dot = 0
      for (let e = 0; e < E; e++) dot += Q[s * E + e] * K[t * E + e]
      weights[t] = dot / Math.sqrt(E)
      max = Math.max(max, weights[t])
    }
    let total = 0
    for (let t = 0; t <= s; t++) total += (weights[t] = Math.exp(weights[t] - max))
    head.fill(0)
    for (let t = 0; t <= s; t++) for (let e = 0; e < E; e++) head[e] += (weights[t] * V[t * E + e]) / total
    for (let e = 0; e < E; e++) for (let d = 0; d < D; d++) Y[s * D + d] += head[e] * Wo[e * D + d]
  }
  return Y
}
