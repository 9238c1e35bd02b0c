/**
 * The call signature of a compiled kernel, as plain JSON data: written into the rewritten module by the plugin,
 * read by the runtime to validate every call the same way on the native and the JS path.
 */
export type AbiDType = 'f32' | 'f64' | 'i32'

export type AbiParam =
  /** A typed array holding a row-major tensor; `shape` entries are size-parameter names or fixed extents. */
  | {
      readonly kind: 'tensor'
      readonly name: string
      readonly dtype: AbiDType
      readonly shape: readonly (string | number)[]
      /** 'in': only read. 'out': written (its old content unused). 'inout': written and its old content read. */
      readonly role: 'in' | 'out' | 'inout'
    }
  /** A `number` parameter giving a size symbol: a non-negative safe integer at call time. */
  | { readonly kind: 'size'; readonly name: string }

export interface KernelAbi {
  /** The annotated function's name. */
  readonly name: string
  /** `file:line:column` of the annotation, for error messages. */
  readonly loc: string
  /** Parameters in the function's declaration order. */
  readonly params: readonly AbiParam[]
  /** Index in `params` of the argument the function returns (its single output), or -1 (returns undefined). */
  readonly returns: number
  /**
   * The work of a call, Σ over the kernel's blocks of the product of their extents, as monomials over size names:
   * `[coefficient, ...sizes]`, e.g. `[[1, 'M', 'N', 'K']]` for a matmul.
   */
  readonly work?: readonly WorkMonomial[]
  /** Calls whose work is below this run the JS loops, measured faster there on the build machine; absent: none. */
  readonly jsBelow?: number
  /** Calls with at least this much work run the JS loops too (native was slower at the largest sizes measured). */
  readonly jsFrom?: number
  /** The kernel's temporaries (`let`): a call is refused when one would have more elements than a tensor may. */
  readonly temps?: readonly AbiTemp[]
}

/** A temporary tensor the kernel allocates per call; `shape` as in AbiParam. */
export interface AbiTemp {
  readonly name: string
  readonly dtype: AbiDType
  readonly shape: readonly (string | number)[]
}

/** `[c, 'M', 'N']` is c·M·N. */
/** Elements of a tensor of `shape` (fixed extents and size names), with `sizeOf` giving each size's value. */
export function elementCount(shape: readonly (string | number)[], sizeOf: (size: string) => number): number {
  return shape.reduce<number>((n, d) => n * (typeof d === 'number' ? d : sizeOf(d)), 1)
}

export type WorkMonomial = readonly [number, ...string[]]

/** Typed-array constructor name per dtype. */
export const ARRAY_TYPE: Readonly<Record<AbiDType, string>> = {
  f32: 'Float32Array',
  f64: 'Float64Array',
  i32: 'Int32Array',
}
