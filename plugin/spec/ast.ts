import type { Span } from '../diagnostics.ts'

import type { AssignOp, DType } from '../ir/nodes.ts'

// The IR's element types and assignment operators: the spec's words for them.
export type { AssignOp, DType }

export type BinaryOp = '+' | '-' | '*' | '/' | '%' | '<' | '<=' | '>' | '>=' | '==' | '!=' | '&&' | '||'
export type CompareOp = '<' | '<=' | '>' | '>=' | '=='

/** Built-in functions of the spec language, with their arity. */
export const BUILTINS = {
  exp: 1,
  log: 1,
  sqrt: 1,
  abs: 1,
  tanh: 1,
  sigmoid: 1,
  max: 2,
  min: 2,
  pow: 2,
} as const
export type Builtin = keyof typeof BUILTINS

export interface Ident {
  readonly name: string
  readonly span: Span
}

/** A tensor dimension: a size symbol bound at call time, or an integer literal the kernel is specialized to. */
export type AstDim =
  | { readonly kind: 'size'; readonly name: string; readonly span: Span }
  | { readonly kind: 'lit'; readonly value: number; readonly span: Span }

/** `A: f32[M, K]` (a parameter of the function) or `let T: f32[N]` (a temporary local to the kernel). */
export interface AstDecl {
  readonly kind: 'decl'
  readonly name: Ident
  readonly dtype: DType
  readonly dtypeSpan: Span
  readonly dims: readonly AstDim[]
  readonly local: boolean
  readonly span: Span
}

export type AstExpr =
  /** Numeric literal; `isFloat` when written with a `.` or exponent (`1.0`, `1e-5`). */
  | { readonly kind: 'num'; readonly value: number; readonly isFloat: boolean; readonly span: Span }
  /** A bare name: an index, a size symbol, or a rank-0 tensor; the checker decides which. */
  | { readonly kind: 'name'; readonly name: string; readonly span: Span }
  /** `T[e, ...]`; `T[]` is a rank-0 access. */
  | { readonly kind: 'access'; readonly tensor: Ident; readonly indices: readonly AstExpr[]; readonly span: Span }
  | { readonly kind: 'unary'; readonly op: '-' | '!'; readonly operand: AstExpr; readonly span: Span }
  | { readonly kind: 'binary'; readonly op: BinaryOp; readonly left: AstExpr; readonly right: AstExpr; readonly span: Span }
  /** `cond ? a : b` */
  | { readonly kind: 'select'; readonly cond: AstExpr; readonly then: AstExpr; readonly otherwise: AstExpr; readonly span: Span }
  | { readonly kind: 'call'; readonly fn: Ident; readonly args: readonly AstExpr[]; readonly span: Span }

/** `where left op right`: restricts a statement's iteration domain. Both sides must be affine. */
export interface AstConstraint {
  readonly left: AstExpr
  readonly op: CompareOp
  readonly right: AstExpr
  readonly span: Span
}

/** `Out[i, j] op value where ...`; `init` is TC's `!` (`+=!`): reset the output to the op's identity first. */
export interface AstStatement {
  readonly kind: 'stmt'
  readonly target: Extract<AstExpr, { kind: 'access' }>
  readonly op: AssignOp
  readonly opSpan: Span
  readonly init: boolean
  readonly value: AstExpr
  readonly where: readonly AstConstraint[]
  readonly span: Span
}

export interface SpecAst {
  readonly decls: readonly AstDecl[]
  readonly stmts: readonly AstStatement[]
  readonly span: Span
}
