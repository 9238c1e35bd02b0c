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
}

/** Typed-array constructor name per dtype. */
export const ARRAY_TYPE: Readonly<Record<AbiDType, string>> = {
  f32: 'Float32Array',
  f64: 'Float64Array',
  i32: 'Int32Array',
}
