// An image filter: a 5×5 Gaussian blur, then the gradient magnitude of the blurred image (an edge map). Pixels past
// the border read as 0, in the spec and in the loops alike.

/* @kernel
   I: f32[H, W]
   F: f32[5, 5]
   E: f32[H, W]
   let S: f32[H, W]
   S[y, x] +=! I[y + r - 2, x + c - 2] * F[r, c]
   E[y, x] = sqrt((S[y, x + 1] - S[y, x - 1]) * (S[y, x + 1] - S[y, x - 1]) + (S[y + 1, x] - S[y - 1, x]) * (S[y + 1, x] - S[y - 1, x]))
*/
export function blurEdges(I: Float32Array, F: Float32Array, E: Float32Array, H: number, W: number): Float32Array {
  const S = new Float32Array(H * W)
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      let sum = 0
      for (let r = 0; r < 5; r++)
        for (let c = 0; c < 5; c++) {
          const yy = y + r - 2
          const xx = x + c - 2
          if (yy >= 0 && yy < H && xx >= 0 && xx < W) sum += I[yy * W + xx] * F[r * 5 + c]
        }
      S[y * W + x] = sum
    }
  const at = (y: number, x: number) => (y >= 0 && y < H && x >= 0 && x < W ? S[y * W + x] : 0)
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const gx = at(y, x + 1) - at(y, x - 1)
      const gy = at(y + 1, x) - at(y - 1, x)
      E[y * W + x] = Math.sqrt(gx * gx + gy * gy)
    }
  return E
}
