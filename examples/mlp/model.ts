// A small MLP's inference (784 → 256 → 10, ReLU, softmax), as one kernel: two dense layers, their biases and
// activation, and the row-wise softmax of the logits.

/* @kernel
   X: f32[B, I]
   W1: f32[I, H]
   b1: f32[H]
   W2: f32[H, O]
   b2: f32[O]
   P: f32[B, O]
   let Z: f32[B, H]
   let A: f32[B, H]
   let L: f32[B, O]
   let m: f32[B]
   let z: f32[B]
   Z[n, h] +=! X[n, i] * W1[i, h]
   A[n, h] = max(Z[n, h] + b1[h], 0)
   L[n, o] +=! A[n, h] * W2[h, o]
   m[n] max=! L[n, o] + b2[o]
   z[n] +=! exp(L[n, o] + b2[o] - m[n])
   P[n, o] = exp(L[n, o] + b2[o] - m[n]) / z[n]
*/
export function mlp(X: Float32Array, W1: Float32Array, b1: Float32Array, W2: Float32Array, b2: Float32Array, P: Float32Array, B: number, I: number, H: number, O: number): Float32Array {
  const hidden = new Float32Array(H)
  const logits = new Float32Array(O)
  for (let n = 0; n < B; n++) {
    hidden.fill(0)
    for (let i = 0; i < I; i++) {
      const x = X[n * I + i]
      for (let h = 0; h < H; h++) hidden[h] += x * W1[i * H + h]
    }
    for (let h = 0; h < H; h++) hidden[h] = Math.max(hidden[h] + b1[h], 0)
    let max = -Infinity
    for (let o = 0; o < O; o++) {
      let sum = 0
      for (let h = 0; h < H; h++) sum += hidden[h] * W2[h * O + o]
      logits[o] = sum + b2[o]
      max = Math.max(max, logits[o])
    }
    let total = 0
    for (let o = 0; o < O; o++) total += Math.exp(logits[o] - max)
    for (let o = 0; o < O; o++) P[n * O + o] = Math.exp(logits[o] - max) / total
  }
  return P
}
