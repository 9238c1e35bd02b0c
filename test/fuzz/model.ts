/**
 * A generated kernel as data: what the generator builds, the shrinker simplifies and the printer turns into spec text
 * and an annotated TypeScript function. Nothing here knows polykern's internals: the spec text is the only interface.
 */
import type { AssignOp, BinaryOp, Builtin, CompareOp, DType } from '../../plugin/spec/ast.ts'

/** Σ c·v + k over index and size names, printed as `2*p + r - 1`. */
export interface GenAffine {
  readonly terms: readonly { readonly v: string; readonly c: number }[]
  readonly k: number
}

export type GenExpr =
  | { readonly kind: 'read'; readonly tensor: string; readonly index: readonly GenAffine[] }
  | { readonly kind: 'lit'; readonly value: number; readonly float: boolean }
  /** An index or size symbol used as a value. */
  | { readonly kind: 'var'; readonly name: string }
  | { readonly kind: 'unary'; readonly op: '-' | '!'; readonly a: GenExpr }
  | { readonly kind: 'bin'; readonly op: BinaryOp; readonly a: GenExpr; readonly b: GenExpr }
  | { readonly kind: 'select'; readonly c: GenExpr; readonly a: GenExpr; readonly b: GenExpr }
  | { readonly kind: 'call'; readonly fn: Builtin; readonly args: readonly GenExpr[] }

export interface GenWhere {
  readonly left: GenAffine
  readonly op: CompareOp
  readonly right: GenAffine
}

export interface GenStmt {
  readonly target: string
  readonly indices: readonly string[]
  readonly op: AssignOp
  readonly init: boolean
  readonly value: GenExpr
  readonly where: readonly GenWhere[]
}

export interface GenTensor {
  readonly name: string
  readonly dtype: DType
  readonly dims: readonly (string | number)[]
  /** `let`: a temporary, not a parameter. */
  readonly local: boolean
}

export interface GenKernel {
  readonly name: string
  readonly tensors: readonly GenTensor[]
  /** The function's parameters in order: non-local tensors and size symbols. */
  readonly params: readonly string[]
  readonly stmts: readonly GenStmt[]
}

export const affine = (terms: GenAffine['terms'], k = 0): GenAffine => ({ terms: terms.filter((t) => t.c !== 0), k })
export const plain = (v: string): GenAffine => affine([{ v, c: 1 }])

export function printAffine(a: GenAffine): string {
  let s = ''
  for (const { v, c } of a.terms) {
    const mag = Math.abs(c)
    const term = mag === 1 ? v : `${mag}*${v}`
    s += s === '' ? (c < 0 ? `-${term}` : term) : c < 0 ? ` - ${term}` : ` + ${term}`
  }
  if (s === '') return String(a.k)
  if (a.k > 0) s += ` + ${a.k}`
  if (a.k < 0) s += ` - ${-a.k}`
  return s
}

function printLiteral(value: number, float: boolean): string {
  const text = float && Number.isInteger(value) ? `${Math.abs(value)}.0` : String(Math.abs(value))
  return value < 0 || Object.is(value, -0) ? `(-${text})` : text
}

/** Fully parenthesised, so the printed text parses back to exactly this tree. */
export function printExpr(e: GenExpr): string {
  switch (e.kind) {
    case 'read':
      return `${e.tensor}[${e.index.map(printAffine).join(', ')}]`
    case 'lit':
      return printLiteral(e.value, e.float)
    case 'var':
      return e.name
    case 'unary':
      return `${e.op}(${printExpr(e.a)})`
    case 'bin':
      return `(${printExpr(e.a)} ${e.op} ${printExpr(e.b)})`
    case 'select':
      return `(${printExpr(e.c)} ? ${printExpr(e.a)} : ${printExpr(e.b)})`
    case 'call':
      return `${e.fn}(${e.args.map(printExpr).join(', ')})`
  }
}

export function printStmt(s: GenStmt): string {
  const target = s.indices.length === 0 ? s.target : `${s.target}[${s.indices.join(', ')}]`
  const where = s.where.map((w) => `${printAffine(w.left)} ${w.op} ${printAffine(w.right)}`)
  return `${target} ${s.op}${s.init ? '!' : ''} ${printExpr(s.value)}${where.length ? ` where ${where.join(', ')}` : ''}`
}

export function specText(k: GenKernel): string {
  const decls = k.tensors.map((t) => `${t.local ? 'let ' : ''}${t.name}: ${t.dtype}[${t.dims.join(', ')}]`)
  return [...decls, ...k.stmts.map(printStmt)].join('\n')
}

/** A kernel as the developer writes it: what the pipeline, the regression tests and the shrinker's output hold. */
export interface KernelText {
  readonly name: string
  readonly spec: string
  readonly params: readonly string[]
}

export const textOf = (k: GenKernel): KernelText => ({ name: k.name, spec: specText(k), params: k.params })

/** The annotated function: untyped parameters (JavaScript style) and an empty body the rewrite replaces. */
export function kernelSource(k: KernelText): string {
  const spec = k.spec.split('\n').map((line) => `   ${line}`).join('\n')
  return `/* @kernel\n${spec}\n*/\nexport function ${k.name}(${k.params.join(', ')}) {}\n`
}

export const moduleSource = (kernels: readonly KernelText[]): string => kernels.map(kernelSource).join('\n')

/** Size symbols: every named dimension, in order of first declaration. */
export const sizesOf = (k: GenKernel): string[] =>
  [...new Set(k.tensors.flatMap((t) => t.dims.filter((d): d is string => typeof d === 'string')))]

/** Every read of an expression, in source order. */
export function readsOf(e: GenExpr): Extract<GenExpr, { kind: 'read' }>[] {
  switch (e.kind) {
    case 'read':
      return [e]
    case 'lit':
    case 'var':
      return []
    case 'unary':
      return readsOf(e.a)
    case 'bin':
      return [...readsOf(e.a), ...readsOf(e.b)]
    case 'select':
      return [...readsOf(e.c), ...readsOf(e.a), ...readsOf(e.b)]
    case 'call':
      return e.args.flatMap(readsOf)
  }
}

/** Number of nodes: what the shrinker minimises, with statements and tensors. */
export function exprSize(e: GenExpr): number {
  switch (e.kind) {
    case 'read':
      return 1 + e.index.reduce((n, a) => n + a.terms.length + (a.k !== 0 ? 1 : 0), 0)
    case 'lit':
    case 'var':
      return 1
    case 'unary':
      return 1 + exprSize(e.a)
    case 'bin':
      return 1 + exprSize(e.a) + exprSize(e.b)
    case 'select':
      return 1 + exprSize(e.c) + exprSize(e.a) + exprSize(e.b)
    case 'call':
      return 1 + e.args.reduce((n, a) => n + exprSize(a), 0)
  }
}

export const kernelSize = (k: GenKernel): number =>
  k.stmts.reduce((n, s) => n + 10 + exprSize(s.value) + 3 * s.where.length + s.indices.length, 0) +
  k.tensors.reduce((n, t) => n + 2 + t.dims.length, 0)
