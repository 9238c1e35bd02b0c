/**
 * What the checker proves about a spec, in the IR's vocabulary: every name resolved, every index given a range,
 * every expression typed, every tensor index affine. `build-ir.ts` turns it into blocks without further checks.
 */
import type { Span } from '../diagnostics.ts'
import type { Affine, AssignOp, DType, Expr, Param, Tensor } from '../ir/nodes.ts'

/** An index of a statement's domain with the range the checker inferred for it: [0, extent). */
export interface CheckedIndex {
  readonly name: string
  readonly extent: Affine
  /** Where the range came from (the tensor dimension or `where` bound), for diagnostics and explain output. */
  readonly origin: Span
}

/** `affine >= 0` (normalised from `<`, `<=`, `>`, `>=`) or `affine == 0`, from a `where` clause. */
export interface CheckedConstraint {
  readonly expr: Affine
  readonly op: '>=' | '=='
  readonly span: Span
}

export interface CheckedStatement {
  /** The written tensor and its indices: distinct plain index names, one per dimension (empty for rank 0). */
  readonly target: { readonly tensor: string; readonly indices: readonly string[] }
  readonly op: AssignOp
  /** TC's `!`: set the whole output to the op's identity before this statement. */
  readonly init: boolean
  /** Typed value; loads carry affine accesses with `zeroOutside` false (build decides the out-of-range rule). */
  readonly value: Expr
  /** The domain, output indices first (in target order), then reduced indices in order of first appearance. */
  readonly indices: readonly CheckedIndex[]
  /** Indices that appear only on the right-hand side: reduced over with `op`. */
  readonly reduced: readonly string[]
  readonly where: readonly CheckedConstraint[]
  readonly dtype: DType
  readonly span: Span
}

export interface KernelSpec {
  /** The annotated function's name. */
  readonly name: string
  /** The function's parameters in order, each bound to a spec tensor or size symbol by name. */
  readonly params: readonly Param[]
  /** Declared tensors with their inferred roles ('in' read only, 'out' written, 'inout' written and read, 'temp' for `let`). */
  readonly tensors: readonly Tensor[]
  /** Size symbols, in order of first declaration. */
  readonly sizes: readonly string[]
  readonly statements: readonly CheckedStatement[]
  readonly span: Span
}
