/**
 * The bench's independent reference: float64 accumulation over the case's operands, written without any code of the
 * systems it checks. Transposed operands are first copied into row-major [M, K] and [K, N] form.
 */
import type { GemmCase } from './cases.ts'

export function referenceGemm(c: GemmCase, A: Float32Array, B: Float32Array): Float64Array {
  const { M, N, K } = c
  const batch = c.batch ?? 1
  const a = c.transposed ? transposed(A, K, M) : A
  const b = c.transposed ? transposed(B, N, K) : B
  const out = new Float64Array(batch * M * N)
  for (let t = 0; t < batch; t++)
    for (let i = 0; i < M; i++) {
      const row = (t * M + i) * N
      for (let k = 0; k < K; k++) {
        const aik = a[(t * M + i) * K + k]
        const bRow = (t * K + k) * N
        for (let j = 0; j < N; j++) out[row + j] += aik * b[bRow + j]
      }
    }
  return out
}

/** [rows, cols] row-major to [cols, rows]. */
function transposed(x: Float32Array, rows: number, cols: number): Float32Array {
  const out = new Float32Array(x.length)
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) out[c * rows + r] = x[r * cols + c]
  return out
}

/** max |got - want| / max(1, |want|): relative for large entries, absolute near zero. NaN anywhere gives NaN. */
export function maxRelErr(got: ArrayLike<number>, want: ArrayLike<number>): number {
  if (got.length !== want.length) return Infinity
  let worst = 0
  for (let i = 0; i < got.length; i++) {
    const err = Math.abs(got[i] - want[i]) / Math.max(1, Math.abs(want[i]))
    if (Number.isNaN(err)) return NaN
    if (err > worst) worst = err
  }
  return worst
}
