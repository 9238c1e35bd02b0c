import type { Span } from '../diagnostics.ts'

/** A parameter of an annotated function, with its TypeScript type text when it has one. */
export interface SiteParam {
  readonly name: string
  readonly typeText?: string
  readonly span: Span
}

/** An annotated function found in a source file: everything later phases need, with offsets into that file. */
export interface KernelSite {
  readonly file: string
  /** The function's name (`function f` or `const f = (...) => {}`). */
  readonly name: string
  /** Text between `@kernel` and `*​/`, with JSDoc `*` gutters blanked out so offsets still line up. */
  readonly specText: string
  /** Offset of `specText[0]` in the file. */
  readonly specStart: number
  readonly params: readonly SiteParam[]
  /** The whole comment, `/*` to `*​/`. */
  readonly commentSpan: Span
  /** The function's name identifier. */
  readonly nameSpan: Span
  /** The function body's braces, `{` to `}` inclusive: what the rewrite replaces. */
  readonly bodySpan: Span
  readonly form: 'function' | 'arrow' | 'function-expression'
  /**
   * Present when the comment has an `@allow-loops` line (which the spec lexer skips): the kernel's statements may run
   * as plain loops without a `perf_plain_loops` warning. The text after it on the line, the why ('' if none).
   */
  readonly allowLoops?: string
  /** Likewise for an `@allow-split-sum` line: a sum that splits into separate sums gives no `lint_split_sum`. */
  readonly allowSplitSum?: string
  /** Likewise for `@allow-quadratic-scan`: a prefix sum per element gives no `lint_quadratic_scan`. */
  readonly allowQuadraticScan?: string
}
