/**
 * The reference interpreter: the executable definition of the IR in nodes.ts. It runs both forms (blocks and
 * loops), plainly, and every emitter is tested against it. Values are JS numbers; f32 values are rounded to f32 after
 * every operation that can leave f32 (the double result of + - * / sqrt of floats, rounded, is the float result), so
 * the whole value computes in f32 as the spec says and C does.
 *
 * A run first turns the kernel, once its sizes are known, into nested closures, one per node, then calls them: the
 * node-by-node meaning is the same as walking the tree at every point, without its lookups at every point (it is
 * the reference of nearly every native test, whose time went there). Each variable has a slot in one array; each
 * tensor's extents are numbers by then.
 */
import { internalAssert } from '../diagnostics.ts'
import { evaluate } from './affine.ts'
import { cheapest } from './polynomial.ts'
import type { Access, Affine, AssignOp, BinOp, Bound, Constraint, DType, Expr, IndexRange, Kernel, Stmt, Tensor, ValueType } from './nodes.ts'

export type TensorArray = Float32Array | Float64Array | Int32Array

const ARRAY: Record<DType, new (n: number) => TensorArray> = { f32: Float32Array, f64: Float64Array, i32: Int32Array }

/** A compiled node: evaluates to a number, or runs. */
type Num = () => number
type Run = () => void

/** What compiling a run's nodes needs: where each variable lives, the arrays, and the tensors' extents. */
interface Compiling {
  /** Every variable's slot in `values`; a name not yet seen gets the next. */
  readonly slots: Map<string, number>
  readonly values: number[]
  readonly arrays: ReadonlyMap<string, TensorArray>
  readonly tensors: ReadonlyMap<string, Tensor>
  readonly dims: ReadonlyMap<string, readonly number[]>
}

/** The variables that have a value where a node runs: the sizes, the choices and the enclosing indices. */
type Scope = ReadonlySet<string>

/** Runs `kernel` on `args` (typed arrays and sizes, in `kernel.params` order), writing outputs in place. */
export function interpret(kernel: Kernel, args: readonly unknown[]): void {
  internalAssert(args.length === kernel.params.length, 'interp', 'argument count does not match the parameters')
  const vars = new Map<string, number>()
  const arrays = new Map<string, TensorArray>()
  kernel.params.forEach((p, n) => {
    if (p.kind === 'size') vars.set(p.name, args[n] as number)
    else arrays.set(p.name, args[n] as TensorArray)
  })
  for (const c of kernel.choices ?? []) vars.set(c.name, cheapest(c, (s) => vars.get(s)!))
  // A tensor's shape depends on sizes only: its extents are evaluated once.
  const dims = new Map(kernel.tensors.map((t) => [t.name, t.shape.map((d) => evaluate(d, vars))]))
  for (const t of kernel.tensors) {
    if (t.role === 'temp') arrays.set(t.name, new ARRAY[t.dtype](dims.get(t.name)!.reduce((n, d) => n * d, 1)))
  }
  const r: Compiling = { slots: new Map(), values: [], arrays, tensors: new Map(kernel.tensors.map((t) => [t.name, t])), dims }
  for (const [name, value] of vars) r.values[slotOf(r, name)] = value
  body(kernel.body, r, new Set(vars.keys()))()
}

function slotOf(r: Compiling, name: string): number {
  let slot = r.slots.get(name)
  if (slot === undefined) r.slots.set(name, (slot = r.slots.size))
  return slot
}

function body(stmts: readonly Stmt[], r: Compiling, scope: Scope): Run {
  const runs = stmts.map((s) => stmt(s, r, scope))
  if (runs.length === 1) return runs[0]
  return () => {
    for (const f of runs) f()
  }
}

function stmt(s: Stmt, r: Compiling, scope: Scope): Run {
  switch (s.kind) {
    case 'fill': {
      const array = r.arrays.get(s.tensor)!
      const v = value(s.value, r, scope)
      return () => void array.fill(v())
    }
    case 'store': {
      const array = r.arrays.get(s.access.tensor)!
      const at = offset(s.access, r, scope)
      const v = value(s.value, r, scope)
      const { op } = s
      const dtype = r.tensors.get(s.access.tensor)!.dtype
      const tensor = s.access.tensor
      return () => {
        const i = at()
        internalAssert(i >= 0, 'interp', `store to ${tensor} outside its bounds`)
        array[i] = combine(op, array[i], v(), dtype)
      }
    }
    case 'if': {
      const conds = s.conds.map((c) => holds(c, r, scope))
      const then = body(s.body, r, scope)
      return () => {
        if (conds.every((c) => c())) then()
      }
    }
    case 'loop': {
      const [lo, hi] = [bound(s.lo, r, scope), bound(s.hi, r, scope)]
      const slot = slotOf(r, s.v)
      const inner = body(s.body, r, new Set([...scope, s.v]))
      const { values } = r
      return () => {
        const end = hi()
        for (let v = lo(); v < end; v++) {
          values[slot] = v
          inner()
        }
      }
    }
    case 'block':
      return block(s.indices, s.constraints, s.body, r, scope)
    case 'contraction':
    case 'convolution':
      return body(s.body, r, scope)
  }
}

/** A block: its indices from the first to the last, each over [0, extent); the body where the constraints hold. */
function block(indices: readonly IndexRange[], constraints: readonly Constraint[], stmts: readonly Stmt[], r: Compiling, scope: Scope): Run {
  const extents: Num[] = []
  const slots: number[] = []
  let inner = new Set(scope)
  for (const ix of indices) {
    extents.push(affine(ix.extent, r, inner))
    slots.push(slotOf(r, ix.name))
    inner = new Set([...inner, ix.name])
  }
  const conds = constraints.map((c) => holds(c, r, inner))
  const run = body(stmts, r, inner)
  const { values } = r
  const depth = (d: number): void => {
    if (d === indices.length) {
      if (conds.every((c) => c())) run()
      return
    }
    const n = extents[d]()
    const slot = slots[d]
    for (let v = 0; v < n; v++) {
      values[slot] = v
      depth(d + 1)
    }
  }
  return () => depth(0)
}

/** An affine form; a variable with no value where it is used is an error when the form is evaluated. */
function affine(a: Affine, r: Compiling, scope: Scope): Num {
  const missing = a.terms.find((t) => !scope.has(t.v))
  if (missing !== undefined) {
    return () => {
      throw new Error(`affine variable '${missing.v}' has no value`)
    }
  }
  const { values } = r
  const c = a.constant
  const terms = a.terms.map((t) => ({ slot: slotOf(r, t.v), coeff: t.coeff }))
  if (terms.length === 0) return () => c
  if (terms.length === 1) {
    const [{ slot, coeff }] = terms
    return () => c + coeff * values[slot]
  }
  if (terms.length === 2) {
    const [x, y] = terms
    return () => c + x.coeff * values[x.slot] + y.coeff * values[y.slot]
  }
  return () => {
    let s = c
    for (const t of terms) s += t.coeff * values[t.slot]
    return s
  }
}

function holds(c: Constraint, r: Compiling, scope: Scope): () => boolean {
  const x = affine(c.expr, r, scope)
  return c.op === '>=' ? () => x() >= 0 : () => x() === 0
}

function bound(b: Bound, r: Compiling, scope: Scope): Num {
  switch (b.kind) {
    case 'affine':
      return affine(b.a, r, scope)
    case 'max':
    case 'min': {
      const args = b.args.map((x) => bound(x, r, scope))
      const pick = b.kind === 'max' ? Math.max : Math.min
      return () => pick(...args.map((f) => f()))
    }
    case 'ceildiv': {
      const arg = bound(b.arg, r, scope)
      return () => Math.ceil(arg() / b.by)
    }
    case 'floordiv': {
      const arg = bound(b.arg, r, scope)
      return () => Math.floor(arg() / b.by)
    }
  }
}

/** Row-major offset, or -1 when an index is outside its dimension. */
function offset(access: Access, r: Compiling, scope: Scope): Num {
  const dims = r.dims.get(access.tensor)!
  const index = access.index.map((a) => affine(a, r, scope))
  return () => {
    let at = 0
    for (let d = 0; d < dims.length; d++) {
      const ix = index[d]()
      if (ix < 0 || ix >= dims[d]) return -1
      at = at * dims[d] + ix
    }
    return at
  }
}

function value(e: Expr, r: Compiling, scope: Scope): Num {
  switch (e.kind) {
    case 'const': {
      const v = inType(e.value, e.type)
      return () => v
    }
    case 'var': {
      const { values } = r
      const slot = scope.has(e.name) ? slotOf(r, e.name) : -1
      const type = e.type
      return () => inType(values[slot], type)
    }
    case 'load': {
      const array = r.arrays.get(e.access.tensor)!
      const at = offset(e.access, r, scope)
      const { zeroOutside } = e
      const tensor = e.access.tensor
      return () => {
        const i = at()
        internalAssert(i >= 0 || zeroOutside, 'interp', `read of ${tensor} outside its bounds`)
        return i < 0 ? 0 : array[i]
      }
    }
    case 'unary': {
      const x = value(e.arg, r, scope)
      if (e.op === 'not') return () => (x() ? 0 : 1)
      return e.type === 'i32' ? () => -x() | 0 : () => -x()
    }
    case 'call': {
      const x = value(e.arg, r, scope)
      const { fn, type } = e
      return () => inType(call(fn, x(), type), type)
    }
    case 'select': {
      const [cond, a, b] = [value(e.cond, r, scope), value(e.a, r, scope), value(e.b, r, scope)]
      return () => (cond() ? a() : b())
    }
    case 'binary': {
      const [a, b] = [value(e.a, r, scope), value(e.b, r, scope)]
      if (e.op === 'and') return () => (a() && b() ? 1 : 0)
      if (e.op === 'or') return () => (a() || b() ? 1 : 0)
      const { op } = e
      const type = e.a.type
      return () => binary(op, a(), b(), type)
    }
  }
}

/** `x` as a value of `type`: f32 values are the nearest float. */
const inType = (x: number, type: ValueType): number => (type === 'f32' ? Math.fround(x) : x)

/** 1 / (1 + exp(-x)) from exp(-|x|), which cannot overflow: for x < 0 it is exp(x) / (1 + exp(x)). */
export function sigmoid(x: number): number {
  const e = Math.exp(-Math.abs(x))
  return (x < 0 ? e : 1) / (1 + e)
}

function call(fn: string, x: number, type: DType): number {
  switch (fn) {
    case 'exp': return Math.exp(x)
    case 'log': return Math.log(x)
    case 'sqrt': return Math.sqrt(x)
    case 'tanh': return Math.tanh(x)
    case 'sigmoid': return sigmoid(x)
    case 'abs': return type === 'i32' ? Math.abs(x) | 0 : Math.abs(x)
  }
  internalAssert(false, 'interp', `unknown function ${fn}`)
}

/** Arithmetic in the operands' type: i32 wraps and x/0 = x%0 = 0 (never a trap), floats are IEEE f32 or f64. */
export function binary(op: BinOp, a: number, b: number, type: ValueType): number {
  switch (op) {
    case 'lt': return a < b ? 1 : 0
    case 'le': return a <= b ? 1 : 0
    case 'gt': return a > b ? 1 : 0
    case 'ge': return a >= b ? 1 : 0
    case 'eq': return a === b ? 1 : 0
    case 'ne': return a !== b ? 1 : 0
    case 'max': return Math.max(a, b)
    case 'min': return Math.min(a, b)
    default: break
  }
  if (type === 'i32') {
    switch (op) {
      case 'add': return (a + b) | 0
      case 'sub': return (a - b) | 0
      case 'mul': return Math.imul(a, b)
      case 'div': return b === 0 ? 0 : (a / b) | 0
      case 'mod': return b === 0 ? 0 : a % b | 0
      default: break
    }
  } else {
    switch (op) {
      case 'add': return inType(a + b, type)
      case 'sub': return inType(a - b, type)
      case 'mul': return inType(a * b, type)
      case 'div': return inType(a / b, type)
      case 'mod': return a % b // exact: the remainder of two floats is a float
      case 'pow': return inType(Math.pow(a, b), type)
      default: break
    }
  }
  internalAssert(false, 'interp', `operator ${op} is not defined on ${type}`)
}

const REDUCE: Record<Exclude<AssignOp, '='>, BinOp> = { '+=': 'add', '*=': 'mul', 'max=': 'max', 'min=': 'min' }

function combine(op: AssignOp, old: number, x: number, dtype: DType): number {
  return op === '=' ? x : binary(REDUCE[op], old, x, dtype)
}
