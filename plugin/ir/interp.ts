/**
 * The reference interpreter: the executable definition of the IR in nodes.ts. It runs both forms (blocks and
 * loops), slowly and plainly, and every emitter is tested against it. Values are JS numbers; f32 values are
 * rounded to f32 after every operation that can leave f32 (the double result of + - * / sqrt of floats, rounded,
 * is the float result), so the whole value computes in f32 as the spec says and C does.
 */
import { internalAssert } from '../diagnostics.ts'
import { evaluate } from './affine.ts'
import { cheapest } from './polynomial.ts'
import type { Access, AssignOp, BinOp, IndexRange, Bound, Constraint, DType, Expr, Kernel, Stmt, Tensor, ValueType } from './nodes.ts'

export type TensorArray = Float32Array | Float64Array | Int32Array

const ARRAY: Record<DType, new (n: number) => TensorArray> = { f32: Float32Array, f64: Float64Array, i32: Int32Array }

interface Env {
  readonly vars: Map<string, number>
  readonly arrays: ReadonlyMap<string, TensorArray>
  readonly tensors: ReadonlyMap<string, Tensor>
  /** Each tensor's extents: its shape depends on sizes only, so it is evaluated once, not at every access. */
  readonly dims: ReadonlyMap<string, readonly number[]>
}

/** Runs `kernel` on `args` (typed arrays and sizes, in `kernel.params` order), writing outputs in place. */
export function interpret(kernel: Kernel, args: readonly unknown[]): void {
  internalAssert(args.length === kernel.params.length, 'interp', 'argument count does not match the parameters')
  const vars = new Map<string, number>()
  const arrays = new Map<string, TensorArray>()
  kernel.params.forEach((p, n) => {
    if (p.kind === 'size') vars.set(p.name, args[n] as number)
    else arrays.set(p.name, args[n] as TensorArray)
  })
  const tensors = new Map(kernel.tensors.map((t) => [t.name, t]))
  for (const c of kernel.choices ?? []) vars.set(c.name, cheapest(c, (s) => vars.get(s)!))
  const dims = new Map(kernel.tensors.map((t) => [t.name, t.shape.map((d) => evaluate(d, vars))]))
  for (const t of kernel.tensors) {
    if (t.role === 'temp') arrays.set(t.name, new ARRAY[t.dtype](dims.get(t.name)!.reduce((n, d) => n * d, 1)))
  }
  run(kernel.body, { vars, arrays, tensors, dims })
}

function run(stmts: readonly Stmt[], env: Env): void {
  for (const s of stmts) {
    switch (s.kind) {
      case 'fill':
        env.arrays.get(s.tensor)!.fill(value(s.value, env))
        break
      case 'store': {
        const array = env.arrays.get(s.access.tensor)!
        const at = offset(s.access, env)
        internalAssert(at >= 0, 'interp', `store to ${s.access.tensor} outside its bounds`)
        array[at] = combine(s.op, array[at], value(s.value, env), env.tensors.get(s.access.tensor)!.dtype)
        break
      }
      case 'if':
        if (s.conds.every((c) => holds(c, env))) run(s.body, env)
        break
      case 'loop': {
        const hi = bound(s.hi, env)
        for (let v = bound(s.lo, env); v < hi; v++) {
          env.vars.set(s.v, v)
          run(s.body, env)
        }
        env.vars.delete(s.v)
        break
      }
      case 'block':
        runBlock(s.indices, 0, s.constraints, s.body, env)
        break
      case 'contraction':
      case 'convolution':
        run(s.body, env)
        break
    }
  }
}

function runBlock(indices: readonly IndexRange[], depth: number,
  constraints: readonly Constraint[], body: readonly Stmt[], env: Env): void {
  if (depth === indices.length) {
    if (constraints.every((c) => holds(c, env))) run(body, env)
    return
  }
  const { name, extent } = indices[depth]
  const n = evaluate(extent, env.vars)
  for (let v = 0; v < n; v++) {
    env.vars.set(name, v)
    runBlock(indices, depth + 1, constraints, body, env)
  }
  env.vars.delete(name)
}

const holds = (c: Constraint, env: Env): boolean => {
  const x = evaluate(c.expr, env.vars)
  return c.op === '>=' ? x >= 0 : x === 0
}

function bound(b: Bound, env: Env): number {
  switch (b.kind) {
    case 'affine':
      return evaluate(b.a, env.vars)
    case 'max':
      return Math.max(...b.args.map((x) => bound(x, env)))
    case 'min':
      return Math.min(...b.args.map((x) => bound(x, env)))
    case 'ceildiv':
      return Math.ceil(bound(b.arg, env) / b.by)
    case 'floordiv':
      return Math.floor(bound(b.arg, env) / b.by)
  }
}

/** Row-major offset, or -1 when an index is outside its dimension. */
function offset(access: Access, env: Env): number {
  const shape = env.dims.get(access.tensor)!
  let at = 0
  for (let d = 0; d < shape.length; d++) {
    const dim = shape[d]
    const ix = evaluate(access.index[d], env.vars)
    if (ix < 0 || ix >= dim) return -1
    at = at * dim + ix
  }
  return at
}

function value(e: Expr, env: Env): number {
  switch (e.kind) {
    case 'const':
      return inType(e.value, e.type)
    case 'var':
      return inType(env.vars.get(e.name)!, e.type)
    case 'load': {
      const at = offset(e.access, env)
      internalAssert(at >= 0 || e.zeroOutside, 'interp', `read of ${e.access.tensor} outside its bounds`)
      return at < 0 ? 0 : env.arrays.get(e.access.tensor)![at]
    }
    case 'unary': {
      const x = value(e.arg, env)
      if (e.op === 'not') return x ? 0 : 1
      return e.type === 'i32' ? -x | 0 : -x
    }
    case 'call':
      return inType(call(e.fn, value(e.arg, env), e.type), e.type)
    case 'select':
      return value(e.cond, env) ? value(e.a, env) : value(e.b, env)
    case 'binary':
      if (e.op === 'and') return value(e.a, env) && value(e.b, env) ? 1 : 0
      if (e.op === 'or') return value(e.a, env) || value(e.b, env) ? 1 : 0
      return binary(e.op, value(e.a, env), value(e.b, env), e.a.type)
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
