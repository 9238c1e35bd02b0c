/**
 * The reference interpreter: the executable definition of the IR in nodes.ts. It runs both forms (blocks and
 * loops), plainly, and every emitter is tested against it. Values are JS numbers; f32 values are rounded to f32 after
 * every operation that can leave f32 (the double result of + - * / sqrt of floats, rounded, is the float result), so
 * the whole value computes in f32 as the spec says and C does.
 *
 * A kernel is first written out as one JS function, a statement or expression per node, whose arithmetic calls the
 * operations defined below (`operation`, `callOf`); that function is kept for the kernel's next run, and runs with
 * the call's sizes. The node-by-node meaning is the same as walking the tree at every point, without the walk: the
 * interpreter is the reference of nearly every native test, and most of their JS time went to walking (later to
 * nested closures, one per node, whose calls V8 cannot inline: 93 ns a point of a 96 × 80 × 72 GEMM against 14 ns
 * written out). Each variable is a JS variable, each tensor's extents are numbers read once per run.
 */
import { KernelInternalError, internalAssert } from '../diagnostics.ts'
import { evaluate } from './affine.ts'
import { cheapest, flagValues } from './polynomial.ts'
import type { Access, Affine, AssignOp, BinOp, Bound, CallFn, Constraint, DType, Expr, IndexRange, Kernel, Stmt, Tensor, ValueType } from './nodes.ts'

export type TensorArray = Float32Array | Float64Array | Int32Array

const ARRAY: Record<DType, new (n: number) => TensorArray> = { f32: Float32Array, f64: Float64Array, i32: Int32Array }

/** A kernel written out: runs on its sizes' and choices' values (in slot order), its tensors' arrays and extents. */
type Compiled = (values: readonly number[], arrays: readonly TensorArray[], dims: readonly (readonly number[])[]) => void

interface Program {
  readonly run: Compiled
  /** The sizes' and choices' slots, in the order `values` gives them. */
  readonly inputs: readonly string[]
}

const programs = new WeakMap<Kernel, Program>()

/** Runs `kernel` on `args` (typed arrays and sizes, in `kernel.params` order), writing outputs in place. */
export function interpret(kernel: Kernel, args: readonly unknown[]): void {
  internalAssert(args.length === kernel.params.length, 'interp', 'argument count does not match the parameters')
  const vars = new Map<string, number>()
  const arrays = new Map<string, TensorArray>()
  kernel.params.forEach((p, n) => {
    if (p.kind === 'size') vars.set(p.name, args[n] as number)
    else arrays.set(p.name, args[n] as TensorArray)
  })
  for (const c of kernel.choices ?? []) {
    const k = cheapest(c, (s) => vars.get(s)!)
    vars.set(c.name, k)
    for (const [flag, value] of flagValues(c, k)) vars.set(flag, value)
  }
  // A tensor's shape depends on sizes only: its extents are evaluated once.
  const dims = kernel.tensors.map((t) => t.shape.map((d) => evaluate(d, vars)))
  kernel.tensors.forEach((t, n) => {
    if (t.role === 'temp') arrays.set(t.name, new ARRAY[t.dtype](dims[n].reduce((m, d) => m * d, 1)))
  })
  let program = programs.get(kernel)
  if (program === undefined) programs.set(kernel, (program = compile(kernel, [...vars.keys()])))
  program.run(program.inputs.map((name) => vars.get(name)!), kernel.tensors.map((t) => arrays.get(t.name)!), dims)
}

/** What writing a kernel out keeps track of: its variables, its tensors, and the functions its code calls. */
interface Writing {
  /** Every variable's JS name; a name not yet seen gets the next. */
  readonly slots: Map<string, string>
  readonly tensors: ReadonlyMap<string, { readonly at: number; readonly tensor: Tensor }>
  /** The tensors the code reads or writes, by position. */
  readonly used: Set<number>
  /** The functions the code calls, each passed in once. */
  readonly calls: Map<unknown, string>
}

/** The variables that have a value where a node runs: the sizes, the choices and the enclosing indices. */
type Scope = ReadonlySet<string>

function compile(kernel: Kernel, inputs: readonly string[]): Program {
  const w: Writing = {
    slots: new Map(),
    tensors: new Map(kernel.tensors.map((tensor, at) => [tensor.name, { at, tensor }])),
    used: new Set(),
    calls: new Map(),
  }
  for (const name of inputs) slotOf(w, name)
  const code = body(kernel.body, w, new Set(inputs))
  const variables = [...w.slots.values()].map((v, n) => (n < inputs.length ? `${v} = values[${n}]` : v))
  const tensors = [...w.used].flatMap((at) => [
    `a${at} = arrays[${at}]`,
    ...kernel.tensors[at].shape.map((_, d) => `n${at}_${d} = dims[${at}][${d}]`),
  ])
  const calls = [...w.calls.values()]
  const source = [
    `'use strict'`,
    `return (values, arrays, dims) => {`,
    ...(variables.length > 0 ? [`let ${variables.join(', ')}`] : []),
    ...(tensors.length > 0 ? [`const ${tensors.join(', ')}`] : []),
    code,
    `}`,
  ].join('\n')
  const run = new Function(...calls, source)(...w.calls.keys()) as Compiled
  return { run, inputs }
}

function slotOf(w: Writing, name: string): string {
  let slot = w.slots.get(name)
  if (slot === undefined) w.slots.set(name, (slot = `v${w.slots.size}`))
  return slot
}

/** The name the code calls `f` by. */
function callName(w: Writing, f: unknown): string {
  let name = w.calls.get(f)
  if (name === undefined) w.calls.set(f, (name = `f${w.calls.size}`))
  return name
}

function tensorOf(w: Writing, name: string): { readonly at: number; readonly tensor: Tensor } {
  const t = w.tensors.get(name)
  internalAssert(t !== undefined, 'interp', `no tensor ${name}`)
  w.used.add(t.at)
  return t
}

function body(stmts: readonly Stmt[], w: Writing, scope: Scope): string {
  return stmts.map((s) => stmt(s, w, scope)).join('\n')
}

function stmt(s: Stmt, w: Writing, scope: Scope): string {
  switch (s.kind) {
    case 'fill':
      return `a${tensorOf(w, s.tensor).at}.fill(${value(s.value, w, scope)})`
    case 'store': {
      const { at, tensor } = tensorOf(w, s.access.tensor)
      const fail = callName(w, failing(`store to ${s.access.tensor} outside its bounds`))
      const v = value(s.value, w, scope)
      const combined = s.op === '=' ? v : `${callName(w, operation(REDUCE[s.op], tensor.dtype))}(a${at}[i], ${v})`
      return `{ const i = ${offset(s.access, w, scope)}; if (!(i >= 0)) ${fail}(); a${at}[i] = ${combined} }`
    }
    case 'if': {
      const conds = s.conds.map((c) => holds(c, w, scope))
      return `if (${conds.length > 0 ? conds.join(' && ') : 'true'}) {\n${body(s.body, w, scope)}\n}`
    }
    case 'loop': {
      const [lo, hi] = [bound(s.lo, w, scope), bound(s.hi, w, scope)]
      const v = slotOf(w, s.v)
      // The variable is the kernel's one slot for its name, as a nest reads it: the loop counts in a local.
      return `for (let t = ${lo}, end = ${hi}; t < end; t++) {\n${v} = t\n${body(s.body, w, new Set([...scope, s.v]))}\n}`
    }
    case 'block':
      return block(s.indices, s.constraints, s.body, w, scope)
    case 'contraction':
    case 'convolution':
      return body(s.body, w, scope)
  }
}

/** A block: its indices from the first to the last, each over [0, extent); the body where the constraints hold. */
function block(indices: readonly IndexRange[], constraints: readonly Constraint[], stmts: readonly Stmt[], w: Writing, scope: Scope): string {
  let inner = new Set(scope)
  const heads: string[] = []
  for (const ix of indices) {
    heads.push(`for (let t = 0, end = ${affine(ix.extent, w, inner)}; t < end; t++) {\n${slotOf(w, ix.name)} = t`)
    inner = new Set([...inner, ix.name])
  }
  const conds = constraints.map((c) => holds(c, w, inner))
  const run = body(stmts, w, inner)
  const guarded = conds.length > 0 ? `if (${conds.join(' && ')}) {\n${run}\n}` : run
  return [...heads, guarded, ...indices.map(() => '}')].join('\n')
}

/** An affine form; a variable with no value where it is used is an error when the form is evaluated. */
function affine(a: Affine, w: Writing, scope: Scope): string {
  const missing = a.terms.find((t) => !scope.has(t.v))
  if (missing !== undefined) return `${callName(w, throwing(`affine variable '${missing.v}' has no value`))}()`
  return `(${[literal(a.constant), ...a.terms.map((t) => `${literal(t.coeff)} * ${slotOf(w, t.v)}`)].join(' + ')})`
}

function holds(c: Constraint, w: Writing, scope: Scope): string {
  return `${affine(c.expr, w, scope)} ${c.op === '>=' ? '>= 0' : '=== 0'}`
}

function bound(b: Bound, w: Writing, scope: Scope): string {
  switch (b.kind) {
    case 'affine':
      return affine(b.a, w, scope)
    case 'max':
    case 'min':
      return `Math.${b.kind}(${b.args.map((x) => bound(x, w, scope)).join(', ')})`
    case 'ceildiv':
      return `Math.ceil(${bound(b.arg, w, scope)} / ${literal(b.by)})`
    case 'floordiv':
      return `Math.floor(${bound(b.arg, w, scope)} / ${literal(b.by)})`
  }
}

/** Row-major offset, or -1 when an index is outside its dimension. */
function offset(access: Access, w: Writing, scope: Scope): string {
  const { at } = tensorOf(w, access.tensor)
  const index = access.index.map((a) => affine(a, w, scope))
  return `${callName(w, offsetOfRank(index.length))}(${[...index, ...index.map((_, d) => `n${at}_${d}`)].join(', ')})`
}

const offsets: ((...xs: number[]) => number)[] = []

/** `(i0, ..., n0, ...) => offset`: each index checked against its extent, then the row-major sum. */
function offsetOfRank(rank: number): (...xs: number[]) => number {
  const is = Array.from({ length: rank }, (_, d) => `i${d}`)
  const ns = Array.from({ length: rank }, (_, d) => `n${d}`)
  const checks = is.map((i, d) => `if (${i} < 0 || ${i} >= ${ns[d]}) return -1`)
  const sum = is.reduce((at, i, d) => `(${at}) * ${ns[d]} + ${i}`, '0')
  return (offsets[rank] ??= new Function(...is, ...ns, [...checks, `return ${sum}`].join('\n')) as (...xs: number[]) => number)
}

function value(e: Expr, w: Writing, scope: Scope): string {
  switch (e.kind) {
    case 'const':
      return literal(inType(e.value, e.type))
    case 'var': {
      // A variable with no value where it is read reads undefined, as from a slot never written.
      const x = scope.has(e.name) ? slotOf(w, e.name) : 'undefined'
      return e.type === 'f32' ? `Math.fround(${x})` : x
    }
    case 'load': {
      const { at } = tensorOf(w, e.access.tensor)
      const read = callName(w, e.zeroOutside ? readOrZero : reading(`read of ${e.access.tensor} outside its bounds`))
      return `${read}(a${at}, ${offset(e.access, w, scope)})`
    }
    case 'unary': {
      const x = value(e.arg, w, scope)
      if (e.op === 'not') return `(${x} ? 0 : 1)`
      return e.type === 'i32' ? `(-${x} | 0)` : `(-${x})`
    }
    case 'call':
      return `${callName(w, callOf(e.fn, e.type))}(${value(e.arg, w, scope)})`
    case 'select':
      return `(${value(e.cond, w, scope)} ? ${value(e.a, w, scope)} : ${value(e.b, w, scope)})`
    case 'binary': {
      const [a, b] = [value(e.a, w, scope), value(e.b, w, scope)]
      if (e.op === 'and') return `(${a} && ${b} ? 1 : 0)`
      if (e.op === 'or') return `(${a} || ${b} ? 1 : 0)`
      return `${callName(w, operation(e.op, e.a.type))}(${a}, ${b})`
    }
  }
}

/** A number as JS source that reads back as the same number (-0, NaN and the infinities included). */
const literal = (x: number): string => (Object.is(x, -0) ? '(-0)' : `(${x})`)

const readOrZero = (array: TensorArray, i: number): number => (i < 0 ? 0 : array[i])

function reading(message: string): (array: TensorArray, i: number) => number {
  return (array, i) => {
    internalAssert(i >= 0, 'interp', message)
    return array[i]
  }
}

const failing = (message: string) => (): never => {
  throw new KernelInternalError('interp', message)
}

const throwing = (message: string) => (): never => {
  throw new Error(message)
}

/** `x` as a value of `type`: f32 values are the nearest float. */
const inType = (x: number, type: ValueType): number => (type === 'f32' ? Math.fround(x) : x)

/** 1 / (1 + exp(-x)) from exp(-|x|), which cannot overflow: for x < 0 it is exp(x) / (1 + exp(x)). */
export function sigmoid(x: number): number {
  const e = Math.exp(-Math.abs(x))
  return (x < 0 ? e : 1) / (1 + e)
}

const FUNCTIONS: Record<CallFn, (x: number, type: DType) => number> = {
  exp: Math.exp,
  log: Math.log,
  sqrt: Math.sqrt,
  tanh: Math.tanh,
  sigmoid,
  abs: (x, type) => (type === 'i32' ? Math.abs(x) | 0 : Math.abs(x)),
}

/** `fn` of a value of `type`, in `type`. */
function callOf(fn: CallFn, type: DType): (x: number) => number {
  const f = FUNCTIONS[fn]
  internalAssert(f !== undefined, 'interp', `unknown function ${fn}`)
  return type === 'f32' ? (x) => Math.fround(f(x, type)) : (x) => f(x, type)
}

type Operation = (a: number, b: number) => number

const COMPARISONS: Partial<Record<BinOp, Operation>> = {
  lt: (a, b) => (a < b ? 1 : 0),
  le: (a, b) => (a <= b ? 1 : 0),
  gt: (a, b) => (a > b ? 1 : 0),
  ge: (a, b) => (a >= b ? 1 : 0),
  eq: (a, b) => (a === b ? 1 : 0),
  ne: (a, b) => (a !== b ? 1 : 0),
  max: Math.max,
  min: Math.min,
}

const I32: Partial<Record<BinOp, Operation>> = {
  add: (a, b) => (a + b) | 0,
  sub: (a, b) => (a - b) | 0,
  mul: Math.imul,
  div: (a, b) => (b === 0 ? 0 : (a / b) | 0),
  mod: (a, b) => (b === 0 ? 0 : a % b | 0),
}

const F64: Partial<Record<BinOp, Operation>> = {
  add: (a, b) => a + b,
  sub: (a, b) => a - b,
  mul: (a, b) => a * b,
  div: (a, b) => a / b,
  mod: (a, b) => a % b, // exact: the remainder of two floats is a float
  pow: Math.pow,
}

const F32: Partial<Record<BinOp, Operation>> = {
  add: (a, b) => Math.fround(a + b),
  sub: (a, b) => Math.fround(a - b),
  mul: (a, b) => Math.fround(a * b),
  div: (a, b) => Math.fround(a / b),
  mod: F64.mod,
  pow: (a, b) => Math.fround(Math.pow(a, b)),
}

/**
 * `op` on operands of `type`: i32 wraps and x/0 = x%0 = 0 (never a trap), floats are IEEE f32 or f64. An operator
 * the type does not define is an error where it is evaluated.
 */
function operation(op: BinOp, type: ValueType): Operation {
  const f = COMPARISONS[op] ?? (type === 'i32' ? I32 : type === 'f32' ? F32 : type === 'f64' ? F64 : {})[op]
  return f ?? failing(`operator ${op} is not defined on ${type}`)
}

/** `op` on `a` and `b` of `type`, as the interpreter computes it. */
export const binary = (op: BinOp, a: number, b: number, type: ValueType): number => operation(op, type)(a, b)

const REDUCE: Record<Exclude<AssignOp, '='>, BinOp> = { '+=': 'add', '*=': 'mul', 'max=': 'max', 'min=': 'min' }
