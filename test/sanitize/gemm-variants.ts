/**
 * Blocked GEMMs under the sanitizers: small cache blocks push modest shapes through every edge of the packing and
 * microkernel code (partial blocks and register tiles), with each loop order, register-tile order, operand packed
 * or read in place, and parallel range. The kernels are built by the test and run by gemm-child.ts.
 */
import type { ContractionSchedule, GemmBlocking, Kernel } from '../../plugin/ir/nodes.ts'
import { microkernelNamed } from '../../plugin/targets/index.ts'
import { contractionKernel } from '../support/contractions.ts'

const MM = 'A: f32[M, K]\nB: f32[K, N]\nC: f32[M, N]\nC[i, j] +=! A[i, k] * B[k, j]'
const TT = 'A: f64[K, M]\nB: f64[N, K]\nC: f64[M, N]\nC[i, j] += A[k, i] * B[j, k]'
const BMM = 'A: f32[Bt, M, K]\nB: f32[K, Bt, N]\nC: f32[M, Bt, N]\nC[i, b, j] += A[b, i, k] * B[k, b, j]'

const tile = (x: ContractionSchedule) => microkernelNamed(x.microkernel)!
const small = (b: Partial<GemmBlocking>) => (x: ContractionSchedule): ContractionSchedule => ({
  isa: x.isa,
  microkernel: x.microkernel,
  mc: 2 * tile(x).mr, nc: 2 * tile(x).nr, kc: 16, order: ['n', 'k', 'm'], inner: 'nm', parallel: 'm', packA: true, packB: true,
  ...b,
})

export const gemmVariants = (): Kernel[] => [
  contractionKernel(MM, 'mm'),
  contractionKernel(MM, 'mm_small', small({})),
  contractionKernel(MM, 'mm_kmn_n_mn', small({ order: ['k', 'm', 'n'], parallel: 'n', inner: 'mn' })),
  contractionKernel(MM, 'mm_in_place', small({ packA: false, packB: false, parallel: 'n' })),
  contractionKernel(MM, 'mm_shallow_in_place', small({ kc: 4, inner: 'mn', packA: false, packB: false, parallel: 'n' })),
  contractionKernel(MM, 'mm_mnk_none', small({ order: ['m', 'n', 'k'], parallel: 'none', packB: false })),
  contractionKernel(TT, 'tt', small({ packA: false, packB: false, order: ['k', 'n', 'm'] })),
  contractionKernel(BMM, 'bmm_across', small({ parallel: 'batch', packB: false })),
  contractionKernel(BMM, 'bmm'),
]

/** [M, N, K]; Bt is 3. */
export const GEMM_SHAPES: readonly (readonly [number, number, number])[] = [
  [1, 1, 1], [7, 17, 33], [33, 7, 1], [17, 33, 129], [129, 33, 17], [3, 5, 0], [5, 64, 37], [0, 4, 4],
]
