/**
 * The `.async` form of an annotated function, typed. The rewrite gives every kernel function an `async` property,
 * but the source the user type-checks is the one before the rewrite, where TypeScript cannot know about it.
 */
import { notKernel } from './errors.ts'

/** An annotated function with its Promise form: `(matmul as AsyncKernel<typeof matmul>).async(A, B, C, M, N, K)`. */
export type AsyncKernel<F extends (...args: never[]) => unknown> = F & {
  /** Runs the kernel off the JS thread; resolves with what `F` returns, rejects with the error `F` would throw. */
  readonly async: (...args: Parameters<F>) => Promise<ReturnType<F>>
}

/**
 * `kernelAsync(matmul)(A, B, C, M, N, K)`: the Promise form of a compiled kernel function. Throws a TypeError when
 * `fn` was not rewritten by polykern (the bundler or `polykern/register` did not see its module).
 */
export function kernelAsync<F extends (...args: never[]) => unknown>(fn: F): AsyncKernel<F>['async'] {
  const promised = (fn as { async?: unknown } | null)?.async
  if (typeof promised !== 'function') throw notKernel(fn, 'has no .async form: it ')
  return promised as AsyncKernel<F>['async']
}
