/** Where two runs of a kernel first disagree: the first element, in argument order, outside the tolerance. */
import type { AbiDType, AbiParam, KernelAbi } from '../../runtime/abi.ts'
import type { Shape } from './random-args.ts'

export interface Difference {
  readonly argument: string
  /** The element's flat index, and its position by dimension. */
  readonly index: number
  readonly position: readonly number[]
  /** What the compiled kernel (the spec) wrote, and what the function's own body wrote. */
  readonly expected: number
  readonly got: number
}

/**
 * Relative tolerance per dtype (against max(1, |expected|, |got|)): the body usually sums in double precision where
 * the kernel sums in the tensor's type, and vector exp/log are within 2 ulp; a real bug is off by far more.
 */
export const DEFAULT_TOLERANCE: Readonly<Record<AbiDType, number>> = { f32: 1e-3, f64: 1e-9, i32: 0 }

export function firstDifference(
  abi: KernelAbi, shape: Shape, expected: readonly unknown[], got: readonly unknown[], tolerance?: number,
): Difference | undefined {
  for (let n = 0; n < abi.params.length; n++) {
    const p = abi.params[n]
    if (p.kind !== 'tensor') continue
    const [want, have] = [expected[n] as ArrayLike<number>, got[n] as ArrayLike<number>]
    const tol = tolerance ?? DEFAULT_TOLERANCE[p.dtype]
    for (let i = 0; i < want.length; i++) {
      if (!differ(want[i], have[i], tol)) continue
      return { argument: p.name, index: i, position: positionOf(p, shape, i), expected: want[i], got: have[i] }
    }
  }
  return undefined
}

function differ(a: number, b: number, tol: number): boolean {
  if (Object.is(a, b) || a === b) return false
  if (Number.isNaN(a) || Number.isNaN(b)) return true
  return !(Math.abs(a - b) <= tol * Math.max(1, Math.abs(a), Math.abs(b)))
}

/** Row-major: the last dimension varies fastest. */
function positionOf(p: Extract<AbiParam, { kind: 'tensor' }>, shape: Shape, index: number): number[] {
  const dims = p.shape.map((d) => (typeof d === 'number' ? d : shape[d]))
  const position: number[] = []
  for (let d = dims.length - 1; d >= 0; d--) {
    position.unshift(index % dims[d])
    index = Math.floor(index / dims[d])
  }
  return position
}
