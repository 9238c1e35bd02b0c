/** The GEMM cases of issue 3's benchmark, and the operand shapes every system derives from them. */

export interface GemmCase {
  readonly name: string
  readonly M: number
  readonly N: number
  readonly K: number
  /** Batch count B when batched: C[b] = A[b]·B[b]. */
  readonly batch?: number
  /** C = Aᵀ·Bᵀ with A stored [K, M] and B stored [N, K] (`C[i,j] += A[k,i] * B[j,k]`). */
  readonly transposed?: boolean
  /** Part of `--quick`. */
  readonly quick?: boolean
}

const square = (n: number, quick = false): GemmCase => ({ name: `square-${n}`, M: n, N: n, K: n, quick })
const mnk = (set: string, M: number, N: number, K: number): GemmCase => ({ name: `${set}-${M}x${N}x${K}`, M, N, K })

export const CASES: readonly GemmCase[] = [
  square(64, true),
  square(128, true),
  square(256, true),
  square(512, true),
  square(1024),
  square(2048),
  // PolyDL's GNMT set
  mnk('gnmt', 128, 2048, 4096),
  mnk('gnmt', 320, 3072, 4096),
  mnk('gnmt', 2048, 4096, 32),
  // DeepBench
  mnk('deepbench', 1760, 128, 1760),
  mnk('deepbench', 2048, 64, 2048),
  mnk('deepbench', 35, 8457, 2560),
  { name: 'matvec-1x4096x4096', M: 1, N: 4096, K: 4096, quick: true },
  { name: 'batched-32x128x128x64', M: 128, N: 128, K: 64, batch: 32, quick: true },
  { name: 'transposed-1024', M: 1024, N: 1024, K: 1024, transposed: true },
]

export interface GemmShape {
  readonly M: number
  readonly N: number
  readonly K: number
  readonly B?: number
}

/** Arithmetic of one call: a multiply and an add per (b, i, j, k). */
export const flopsOf = (s: GemmShape): number => 2 * s.M * s.N * s.K * (s.B ?? 1)

/** The JSON `shape`: sizes by letter, B only when batched. */
export function shapeOf(c: GemmCase): GemmShape {
  return c.batch === undefined ? { M: c.M, N: c.N, K: c.K } : { M: c.M, N: c.N, K: c.K, B: c.batch }
}

/** Row-major shapes of A and B as stored, and of the output C. */
export function operandShapes(c: GemmCase): { readonly a: number[]; readonly b: number[]; readonly c: number[] } {
  const { M, N, K, batch } = c
  if (batch !== undefined) return { a: [batch, M, K], b: [batch, K, N], c: [batch, M, N] }
  if (c.transposed) return { a: [K, M], b: [N, K], c: [M, N] }
  return { a: [M, K], b: [K, N], c: [M, N] }
}

export const elementsOf = (shape: readonly number[]): number => shape.reduce((n, d) => n * d, 1)
