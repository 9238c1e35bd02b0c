/** Plain-loop references for the fixture's kernels, in f64, and a tolerance check scaled by each sum's magnitude. */
import { expect } from 'vitest'

export interface FixtureOutput {
  readonly matmuls: readonly { M: number; N: number; K: number; A: number[]; B: number[]; C: number[] }[]
  readonly softmaxes: readonly { N: number; D: number; X: number[]; Y: number[] }[]
  readonly convs: readonly { H: number; W: number; C: number; I: number[]; F: number[]; O: number[] }[]
  readonly ran: readonly { name: string; native: boolean; addonPath: string | null }[]
}

/** f32 arithmetic against an f64 reference: relative to the sum of |terms|, which bounds the rounding error. */
function expectClose(got: readonly number[], want: readonly number[], magnitude: readonly number[], what: string): void {
  expect(got.length, what).toBe(want.length)
  for (let i = 0; i < want.length; i++) {
    const tolerance = 1e-5 * (1 + magnitude[i])
    if (!(Math.abs(got[i] - want[i]) <= tolerance)) expect.fail(`${what}[${i}]: got ${got[i]}, want ${want[i]} ± ${tolerance}`)
  }
}

export function expectFixtureResults(out: FixtureOutput): void {
  expect(out.matmuls.length + out.softmaxes.length + out.convs.length).toBe(13)
  for (const { M, N, K, A, B, C } of out.matmuls) {
    const want: number[] = []
    const magnitude: number[] = []
    for (let i = 0; i < M; i++) {
      for (let j = 0; j < N; j++) {
        let s = 0
        let m = 0
        for (let k = 0; k < K; k++) {
          s += A[i * K + k] * B[k * N + j]
          m += Math.abs(A[i * K + k] * B[k * N + j])
        }
        want.push(s)
        magnitude.push(m)
      }
    }
    expectClose(C, want, magnitude, `matmul ${M}x${N}x${K}`)
  }
  for (const { N, D, X, Y } of out.softmaxes) {
    const want: number[] = []
    for (let i = 0; i < N; i++) {
      const row = X.slice(i * D, (i + 1) * D)
      const max = Math.max(...row)
      const e = row.map((x) => Math.exp(x - max))
      const z = e.reduce((a, b) => a + b, 0)
      want.push(...e.map((v) => v / z))
    }
    expectClose(Y, want, want.map(() => 1), `softmax ${N}x${D}`)
  }
  for (const { H, W, C, I, F, O } of out.convs) {
    const want: number[] = []
    const magnitude: number[] = []
    for (let h = 0; h < H; h++) {
      for (let w = 0; w < W; w++) {
        for (let c = 0; c < C; c++) {
          let s = 0
          let m = 0
          for (let r = 0; r < 3; r++) {
            for (let q = 0; q < 3; q++) {
              const y = h + r - 1
              const x = w + q - 1
              if (y < 0 || y >= H || x < 0 || x >= W) continue // zero padding
              s += I[(y * W + x) * C + c] * F[(r * 3 + q) * C + c]
              m += Math.abs(I[(y * W + x) * C + c] * F[(r * 3 + q) * C + c])
            }
          }
          want.push(s)
          magnitude.push(m)
        }
      }
    }
    expectClose(O, want, magnitude, `depthwise3x3 ${H}x${W}x${C}`)
  }
}
