/**
 * The oracle's oracle: a spec evaluated straight from its syntax tree, by looping over every combination of index
 * values, with the README's semantics written out again from scratch. It shares no code with the checker, the IR
 * or the interpreter (only the AST types), so when it and `interpret` agree, both read the spec the same way.
 *
 * Semantics (README, "The spec language"): statements run in order; each index ranges over [0, extent) where the
 * extent is the dimension of a tensor the index subscripts alone, else the bound of a `where i < E` clause; every
 * `where` clause filters the points; `!` first fills the output with the operator's identity; in a reduction a
 * point where any read leaves its tensor is skipped, in `=` such a read is 0; values compute in the output's dtype
 * (i32 wraps, i32 x/0 = x%0 = 0; every f32 subexpression is the nearest float to its exact value, so f32
 * arithmetic rounds once per operation); temporaries start at zero.
 */
import type { AstExpr, AstStatement, DType, SpecAst } from '../../plugin/spec/ast.ts'

type TypedArray = Float32Array | Float64Array | Int32Array
const ARRAY = { f32: Float32Array, f64: Float64Array, i32: Int32Array } as const
type Access = Extract<AstExpr, { kind: 'access' }>

interface Declared {
  readonly dtype: DType
  readonly dims: readonly (string | number)[]
}

/** Runs `ast` on `args` (typed arrays and sizes by parameter name), writing the outputs in place. */
export function naiveEvaluate(ast: SpecAst, args: ReadonlyMap<string, TypedArray | number>): void {
  const decls = new Map<string, Declared>(ast.decls.map((d) => [d.name.name, {
    dtype: d.dtype,
    dims: d.dims.map((x) => (x.kind === 'size' ? x.name : x.value)),
  }]))
  const sizes = new Map<string, number>()
  for (const d of decls.values()) for (const x of d.dims) if (typeof x === 'string') sizes.set(x, args.get(x) as number)
  const arrays = new Map<string, TypedArray>()
  const shapeOf = (t: string) => decls.get(t)!.dims.map((x) => (typeof x === 'string' ? sizes.get(x)! : x))
  for (const d of ast.decls) {
    const name = d.name.name
    arrays.set(name, d.local ? new ARRAY[d.dtype](shapeOf(name).reduce((a, b) => a * b, 1)) : (args.get(name) as TypedArray))
  }
  for (const stmt of ast.stmts) runStatement(stmt, decls, sizes, arrays, shapeOf)
}

function runStatement(
  stmt: AstStatement,
  decls: ReadonlyMap<string, Declared>,
  sizes: ReadonlyMap<string, number>,
  arrays: ReadonlyMap<string, TypedArray>,
  shapeOf: (t: string) => number[],
): void {
  const target = stmt.target.tensor.name
  const dtype = decls.get(target)!.dtype
  const out = arrays.get(target)!
  if (stmt.init) out.fill(identity(stmt.op, dtype))

  const isIndex = (n: string) => !decls.has(n) && !sizes.has(n)
  const indices: string[] = []
  const note = (e: AstExpr): void => {
    if (e.kind === 'name' && isIndex(e.name) && !indices.includes(e.name)) indices.push(e.name)
    for (const c of childrenOf(e)) note(c)
  }
  stmt.target.indices.forEach(note)
  note(stmt.value)
  for (const w of stmt.where) [w.left, w.right].forEach(note)

  const accesses = [stmt.target, ...accessesOf(stmt.value)]
  const extent = (v: string): number => {
    for (const a of accesses) {
      const d = a.indices.findIndex((e) => e.kind === 'name' && e.name === v)
      if (d >= 0) return shapeOf(a.tensor.name)[d]
    }
    for (const w of stmt.where) {
      if (w.left.kind === 'name' && w.left.name === v && (w.op === '<' || w.op === '<=')) {
        return integer(w.right, new Map(sizes)) + (w.op === '<=' ? 1 : 0)
      }
    }
    throw new Error(`naive evaluator: no range for index '${v}' (only 'v < E' and 'v <= E' clauses are understood)`)
  }
  const extents = indices.map(extent)
  const env = new Map<string, number>(sizes)
  const reduction = stmt.op !== '='

  const visit = (depth: number): void => {
    if (depth < indices.length) {
      for (let x = 0; x < extents[depth]; x++) {
        env.set(indices[depth], x)
        visit(depth + 1)
      }
      return
    }
    if (!stmt.where.every((w) => compare(w.op, integer(w.left, env), integer(w.right, env)))) return
    if (reduction && accessesOf(stmt.value).some((a) => offset(a, env, shapeOf) < 0)) return
    const at = offset(stmt.target, env, shapeOf)
    const x = value(stmt.value, dtype, env, arrays, shapeOf, decls)
    out[at] = stmt.op === '=' ? x : reduce(stmt.op, out[at], x, dtype)
  }
  visit(0)
}

function identity(op: AstStatement['op'], dtype: DType): number {
  switch (op) {
    case '*=': return 1
    case 'max=': return dtype === 'i32' ? -(2 ** 31) : -Infinity
    case 'min=': return dtype === 'i32' ? 2 ** 31 - 1 : Infinity
    default: return 0
  }
}

function reduce(op: AstStatement['op'], old: number, x: number, dtype: DType): number {
  const int = dtype === 'i32'
  switch (op) {
    case '+=': return int ? (old + x) | 0 : old + x
    case '*=': return int ? Math.imul(old, x) : old * x
    case 'max=': return Math.max(old, x)
    case 'min=': return Math.min(old, x)
    default: throw new Error(`naive evaluator: ${op} is not a reduction`)
  }
}

/** Row-major element of an access, or -1 when an index is outside its dimension. */
function offset(a: Access, env: ReadonlyMap<string, number>, shapeOf: (t: string) => number[]): number {
  const shape = shapeOf(a.tensor.name)
  let at = 0
  for (let d = 0; d < shape.length; d++) {
    const x = integer(a.indices[d], env)
    if (x < 0 || x >= shape[d]) return -1
    at = at * shape[d] + x
  }
  return at
}

/** An affine index expression or `where` side: integers only. */
function integer(e: AstExpr, env: ReadonlyMap<string, number>): number {
  switch (e.kind) {
    case 'num': return e.value
    case 'name': {
      const x = env.get(e.name)
      if (x === undefined) throw new Error(`naive evaluator: '${e.name}' has no value`)
      return x
    }
    case 'unary': return -integer(e.operand, env)
    case 'binary':
      if (e.op === '+') return integer(e.left, env) + integer(e.right, env)
      if (e.op === '-') return integer(e.left, env) - integer(e.right, env)
      if (e.op === '*') return integer(e.left, env) * integer(e.right, env)
      break
    default: break
  }
  throw new Error(`naive evaluator: not an affine expression (${e.kind})`)
}

function compare(op: string, a: number, b: number): boolean {
  switch (op) {
    case '<': return a < b
    case '<=': return a <= b
    case '>': return a > b
    case '>=': return a >= b
    case '==': return a === b
    case '!=': return a !== b
    default: throw new Error(`naive evaluator: unknown comparison ${op}`)
  }
}

function value(
  e: AstExpr,
  dtype: DType,
  env: ReadonlyMap<string, number>,
  arrays: ReadonlyMap<string, TypedArray>,
  shapeOf: (t: string) => number[],
  decls: ReadonlyMap<string, Declared>,
): number {
  const x = exactValue(e, (sub) => value(sub, dtype, env, arrays, shapeOf, decls), dtype, env, arrays, shapeOf, decls)
  return dtype === 'f32' ? Math.fround(x) : x
}

/** `e`'s value from its operands' (`v`), before rounding to the dtype. */
function exactValue(
  e: AstExpr,
  v: (sub: AstExpr) => number,
  dtype: DType,
  env: ReadonlyMap<string, number>,
  arrays: ReadonlyMap<string, TypedArray>,
  shapeOf: (t: string) => number[],
  decls: ReadonlyMap<string, Declared>,
): number {
  const int = dtype === 'i32'
  switch (e.kind) {
    case 'num':
      return e.value
    case 'name':
      return decls.has(e.name) ? arrays.get(e.name)![0] : env.get(e.name)!
    case 'access': {
      const at = offset(e, env, shapeOf)
      return at < 0 ? 0 : arrays.get(e.tensor.name)![at]
    }
    case 'unary':
      if (e.op === '!') return v(e.operand) ? 0 : 1
      return int ? -v(e.operand) | 0 : -v(e.operand)
    case 'select':
      return v(e.cond) ? v(e.then) : v(e.otherwise)
    case 'binary': {
      const [a, b] = [v(e.left), v(e.right)]
      switch (e.op) {
        case '+': return int ? (a + b) | 0 : a + b
        case '-': return int ? (a - b) | 0 : a - b
        case '*': return int ? Math.imul(a, b) : a * b
        case '/': return int ? (b === 0 ? 0 : Math.trunc(a / b) | 0) : a / b
        case '%': return int ? (b === 0 ? 0 : (a % b) | 0) : a % b
        case '&&': return a && b ? 1 : 0
        case '||': return a || b ? 1 : 0
        default: return compare(e.op, a, b) ? 1 : 0
      }
    }
    case 'call': {
      const [a, b] = e.args.map(v)
      switch (e.fn.name) {
        case 'exp': return Math.exp(a)
        case 'log': return Math.log(a)
        case 'sqrt': return Math.sqrt(a)
        case 'tanh': return Math.tanh(a)
        case 'sigmoid': return a < 0 ? Math.exp(a) / (1 + Math.exp(a)) : 1 / (1 + Math.exp(-a))
        case 'abs': return int ? Math.abs(a) | 0 : Math.abs(a)
        case 'max': return Math.max(a, b)
        case 'min': return Math.min(a, b)
        case 'pow': return Math.pow(a, b)
        default: throw new Error(`naive evaluator: unknown function ${e.fn.name}`)
      }
    }
  }
}

function childrenOf(e: AstExpr): readonly AstExpr[] {
  switch (e.kind) {
    case 'num':
    case 'name': return []
    case 'access': return e.indices
    case 'unary': return [e.operand]
    case 'binary': return [e.left, e.right]
    case 'select': return [e.cond, e.then, e.otherwise]
    case 'call': return e.args
  }
}

/** Every `T[...]` read, and rank-0 reads written as a bare tensor name, as accesses. */
function accessesOf(e: AstExpr): Access[] {
  if (e.kind === 'access') return [e]
  return childrenOf(e).flatMap(accessesOf)
}
