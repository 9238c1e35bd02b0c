/** Stable codes of the errors a kernel call throws, on the native and the JS path alike. */
export const KERNEL_ERROR_CODES = [
  'runtime_arg_count',
  'runtime_arg_type',
  'runtime_size_invalid',
  'runtime_size_overflow',
  'runtime_arg_length',
  'runtime_alias',
  'runtime_out_of_memory',
  /** `.async` on the native path only: an argument's buffer was transferred, detached or resized during the call. */
  'runtime_arg_detached',
  /** `bind()` given something it cannot bind: no tensor, a tensor the kernel writes, a name it does not take. */
  'runtime_bind_invalid',
  /** A bound kernel called after `release()`. */
  'runtime_bound_released',
] as const

export type KernelErrorCode = (typeof KERNEL_ERROR_CODES)[number]

/**
 * The TypeError (`runtime_not_kernel`) for a function polykern did not rewrite, as when its module was not compiled;
 * `lacks` says what the caller wanted of it (`has no .async form: it `).
 */
export function notKernel(fn: unknown, lacks = ''): TypeError {
  const name = typeof fn === 'function' && fn.name ? `'${fn.name}'` : 'this value'
  return Object.assign(
    new TypeError(`polykern: ${name} ${lacks}is not a /* @kernel */ function compiled by polykern ` +
      '(is its module included in the bundler plugin, or loaded through polykern/register?)'),
    { code: 'runtime_not_kernel' },
  )
}

/** A value of the wrong kind: an argument missing, not the right typed array, or a size that is not a number. */
export class KernelTypeError extends TypeError {
  override readonly name = 'KernelTypeError'
  constructor(
    readonly code: KernelErrorCode,
    message: string,
    /** The kernel (annotated function) that was called. */
    readonly kernel: string,
    /** The parameter at fault; undefined when the whole argument list is (a wrong count). */
    readonly argument?: string,
  ) {
    super(message)
  }
}

/** A value of the right kind out of range: a bad size, a wrong length, too many elements, overlapping arrays. */
export class KernelRangeError extends RangeError {
  override readonly name = 'KernelRangeError'
  constructor(
    readonly code: KernelErrorCode,
    message: string,
    readonly kernel: string,
    readonly argument?: string,
  ) {
    super(message)
  }
}
