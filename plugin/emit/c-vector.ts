/**
 * A `vector` loop as explicit SIMD code for one ISA (Vyasa's vector code, not GCC's auto-vectorizer): a full
 * register of lanes (16 f32 / 8 f64 on AVX-512, 8 / 4 on AVX2), loop-invariant subexpressions computed once and
 * broadcast, unit-stride loads and stores, reductions into vector accumulators (two per reduction, for the adder's
 * latency) combined horizontally after the loop, and one masked iteration for the tail. Every operation is the ISA's
 * vector table's (targets/vector-ops.ts): math functions and NaN-propagating max/min from the ISA's header.
 * Reductions are reassociated and exp/log/tanh/sigmoid are within a few ulp of libm; the rest is the scalar loop's
 * arithmetic, lane by lane, bit for bit (one rounding per operation, no FMA, a division stays a division).
 * Undefined, so c.ts prints the loop serially, when the ISA has no vector unit or the body needs something this file
 * has no vector form of (i32 lanes, mixed element types, `%`, `pow`).
 */
import { KernelInternalError } from '../diagnostics.ts'
import { add, coeffOf, constant, equal, substitute, variable, varsOf } from '../ir/affine.ts'
import { identityOf } from '../spec/build-ir.ts'
import { vectorElementType } from '../analysis/vector-form.ts'
import type { Access, AssignOp, Bound, DType, Expr, Loop, Store, Tensor } from '../ir/nodes.ts'
import { loadsOf, mapExpr, perfectNest, readsVar, walkExpr } from '../ir/walk.ts'
import type { Isa } from '../targets/isa.ts'
import { instantiate, type CompareOp, type Horizontal, type VectorOps } from '../targets/vector-ops.ts'
import { C_TYPE, cConst, cExpr } from './c-expr.ts'
import type { Layout } from './layout.ts'
import type { Names } from './names.ts'
import type { Code } from './syntax.ts'

const HORIZONTAL: Readonly<Record<Exclude<AssignOp, '='>, Horizontal>> = { '+=': 'sum', '*=': 'prod', 'max=': 'max', 'min=': 'min' }

export interface VectorLoopContext {
  readonly isa: Isa
  readonly names: Names
  readonly layout: Layout
  readonly bound: (b: Bound) => Code
  /** A nest's accumulators start at zero instead of loading the elements (the zero fill before it dropped). */
  readonly zeroStart?: boolean
  /**
   * Around a nest, also run the iterations `v + 1` .. `v + count - 1` of the enclosing loop `v` (c-jam.ts checked
   * they are independent of each other and leave the nest's bounds alone): their sums are more registers side by side,
   * sharing the loads that do not move with `v`.
   */
  readonly jam?: { readonly v: string; readonly count: number }
  /**
   * Instead, run the iterations of the enclosing loop `v` from its variable's value up to `end` (a C variable) and this
   * loop's lanes as one stretch of memory (runForm): print only that run, under its runtime conditions, leaving `v` at
   * `end` when it ran. Undefined from emitVectorLoop when the loop has no run form.
   */
  readonly run?: { readonly v: string; readonly end: string }
}

/** The vector operations `isa` runs `loop` with, or undefined when it runs the loop serially. */
function vectorOps(loop: Loop, isa: Isa): VectorOps | undefined {
  const stores = perfectNest(loop)?.stores ?? (loop.body as readonly Store[])
  const dtype = vectorElementType(stores)
  return dtype === undefined ? undefined : isa.vectors?.[dtype]
}

/** Whether `isa` runs `loop` as SIMD lanes around a nest whose accumulators live in registers across it. */
export const isRegisterNest = (loop: Loop, isa: Isa): boolean =>
  perfectNest(loop) !== undefined && vectorOps(loop, isa) !== undefined

/** The lines of a `vector` loop at indentation `depth`, or undefined when this ISA runs it serially. */
export function emitVectorLoop(loop: Loop, depth: number, ctx: VectorLoopContext): string[] | undefined {
  // Around a nest of reduction loops, each stored element's lanes accumulate in a register across the nest.
  const nest = perfectNest(loop)
  const stores = nest?.stores ?? (loop.body as readonly Store[])
  const ops = vectorOps(loop, ctx.isa)
  if (ops === undefined) return undefined
  const dtype = vectorElementType(stores)!
  const { names, layout } = ctx
  const v = names.of(loop.v)
  const t = instantiate
  const movesWith = (a: Access) => a.index.some((ix) => coeffOf(ix, loop.v) !== 0)
  const moves = (e: Expr) => {
    let moving = false
    walkExpr(e, (x) => void (moving ||= x.kind === 'load' && movesWith(x.access)))
    return moving
  }
  // What the nest's loops change cannot be hoisted before the vector loop: it is broadcast where it is used.
  const nestVars = new Set(nest?.loops.map((l) => l.v) ?? [])
  const inNest = (e: Expr) => {
    let found = false
    walkExpr(e, (x) => {
      if (x.kind === 'var' && nestVars.has(x.name)) found = true
      if (x.kind === 'load' && x.access.index.some((ix) => varsOf(ix).some((n) => nestVars.has(n)))) found = true
    })
    return found
  }

  // Loop-invariant subexpressions: evaluated once, before the loop, as the scalar code would, then broadcast.
  const hoisted: string[] = []
  const hoistedNames = new Map<string, string>()
  const hoist = (key: string, declare: (name: string) => string): string => {
    let name = hoistedNames.get(key)
    if (name === undefined) {
      hoistedNames.set(key, (name = `pk_vc${hoistedNames.size}`))
      hoisted.push(declare(name))
    }
    return name
  }
  const scalar = (e: Expr) => {
    const x = cExpr(e, names, layout).text
    return hoist(`scalar ${x}`, (n) => `const ${C_TYPE[dtype]} ${n} = ${x};`)
  }
  const invariant = (e: Expr): string => {
    if (e.type !== 'bool') {
      const x = scalar(e)
      return hoist(`vector ${x}`, (n) => `const ${ops.vector} ${n} = ${t(ops.set1, { x })};`)
    }
    const x = cExpr(e, names, layout).text
    return hoist(`mask ${x}`, (n) => `const ${ops.mask} ${n} = ${t(ops.broadcastMask, { x })};`)
  }

  const pointer = (a: Access, lane: number) => `${names.of(a.tensor)} + ${layout.offset(a).text}${lane ? ` + ${lane}` : ''}`

  // Inputs streamed through the loop are prefetched a little ahead: a row ends on a page boundary (1024 floats),
  // where the hardware prefetcher stops, so the next row would otherwise start with a miss.
  const streams = new Map<string, Access>()
  for (const s of stores) {
    walkExpr(s.value, (x) => {
      if (x.kind === 'load' && movesWith(x.access) && layout.tensor(x.access.tensor).role === 'in') streams.set(pointer(x.access, 0), x.access)
    })
  }
  const elementBytes = dtype === 'f32' ? 4 : 8
  const ahead = PREFETCH_BYTES / elementBytes
  const prefetches = (lane: number) =>
    [...streams.values()].map((a) => `__builtin_prefetch(${pointer(a, lane + ahead)}, 0, 3);`)

  /**
   * The vector of a subexpression `x` whose lanes are all one value, or undefined when they differ: computed in the
   * nest where it reads the nest's loops, else once before the loop; an operator over lanes that differ is built
   * from its operands, anything else whose lanes differ is the caller's (a load along the lanes).
   */
  const sameLanes = (x: Expr): string | undefined => {
    if (!moves(x) && inNest(x)) {
      const c = cExpr(x, names, layout).text
      return x.type === 'bool' ? t(ops.broadcastMask, { x: c }) : t(ops.set1, { x: c })
    }
    return !moves(x) || (x.kind !== 'load' && !isOperator(x)) ? invariant(x) : undefined
  }

  /** One vector of `e` at lanes `lane`.. past `v`; `mask` in the tail. */
  const vexpr = (e: Expr, lane: number, mask: string | undefined): string =>
    vectorExpr(e, ops, (x) => {
      const same = sameLanes(x)
      if (same !== undefined || x.kind !== 'load') return same
      const p = pointer(x.access, lane)
      return mask ? t(ops.maskedLoad, { m: mask, p }) : t(ops.load, { p })
    })

  const combine = (op: AssignOp, a: string, b: string): string => {
    return t(ops[op === 'max=' ? 'max' : op === 'min=' ? 'min' : op === '*=' ? 'mul' : 'add'], { a, b })
  }

  // Reductions into elements the loop does not move: UNROLL accumulators each, from the operation's identity.
  const reductions = stores.map((s, n) => (movesWith(s.access) ? undefined : `pk_vacc${n}`))
  const unroll = reductions.some((r) => r !== undefined) ? UNROLL : 1
  const L = ops.lanes

  const flatLines = (): string[] => {
    /** The statements of one vector step, at `lane` past `v`, into accumulator copy `u`. */
    const step = (lane: number, u: number, mask?: string): string[] => [
      ...(mask ? [] : prefetches(lane)),
      ...stores.map((s, n) => {
        const value = vexpr(s.value, lane, mask)
        const acc = reductions[n]
        if (acc !== undefined) {
          const next = combine(s.op, `${acc}_${u}`, value)
          return `${acc}_${u} = ${mask ? t(ops.blend, { m: mask, a: `${acc}_${u}`, b: next }) : next};`
        }
        const p = pointer(s.access, lane)
        const old = mask ? t(ops.maskedLoad, { m: mask, p }) : t(ops.load, { p })
        const stored = s.op === '=' ? value : combine(s.op, old, value)
        return `${mask ? t(ops.maskedStore, { p, m: mask, v: stored }) : t(ops.store, { p, v: stored })};`
      }),
    ]
    const accumulators = stores.flatMap((s, n) => {
      const acc = reductions[n]
      if (acc === undefined) return []
      // -0, not build's +0, for `+=`: x + -0 is x for every x, -0 included.
      const start = s.op === '+=' ? cConst(-0, dtype) : cExpr(identityOf(s.op, dtype), names, layout)
      return Array.from({ length: unroll }, (_, u) => `${ops.vector} ${acc}_${u} = ${t(ops.set1, { x: start.text })};`)
    })
    const finish = stores.flatMap((s, n) => {
      const acc = reductions[n]
      if (acc === undefined) return []
      const total = Array.from({ length: unroll }, (_, u) => `${acc}_${u}`).reduce((a, b) => combine(s.op, a, b))
      const reduced = t(ops.horizontal[HORIZONTAL[s.op as Exclude<AssignOp, '='>]], { a: total })
      const element = `${names.of(s.access.tensor)}[${layout.offset(s.access).text}]`
      if (s.op !== 'max=' && s.op !== 'min=') return [`${element} ${s.op} ${reduced};`]
      return [`${element} = pk_${s.op.slice(0, 3)}_${dtype}(${element}, ${reduced});`]
    })
    const unrolled = Array.from({ length: unroll }, (_, u) => step(u * L, u)).flat().map(indent)
    const W = unroll * L
    return [
      ...accumulators,
      `int64_t ${v} = pk_vlo;`,
      ...(unroll > 1 ? [`for (; ${v} <= pk_vhi - ${W}; ${v} += ${W}) {`, ...unrolled, '}'] : []),
      `for (; ${v} <= pk_vhi - ${L}; ${v} += ${L}) {`,
      ...step(0, 0).map(indent),
      '}',
      `if (${v} < pk_vhi) {`,
      `  const ${ops.mask} pk_vm = ${t(ops.firstLanes, { n: `pk_vhi - ${v}` })};`,
      ...step(0, 0, 'pk_vm').map(indent),
      '}',
      ...finish,
    ]
  }

  /** A stored vector's register before the nest: zero, or the elements at `p`. */
  const start = (p: string, mask?: string) =>
    ctx.zeroStart ? t(ops.set1, { x: cConst(0, dtype).text }) : mask ? t(ops.maskedLoad, { m: mask, p }) : t(ops.load, { p })
  /** The nest's loops around `updates` (given the indentation inside them). */
  const nestLoopsAround = (updates: (deep: string) => string[]): string[] => {
    const opens = nest!.loops.map((l, d) => {
      const x = names.of(l.v)
      const [lo, hi] = [ctx.bound(l.lo).text, ctx.bound(l.hi).text]
      const end = l.hi.kind === 'affine' ? undefined : names.fresh(`${x}_end`)
      const init = end === undefined ? `int64_t ${x} = ${lo}` : `int64_t ${x} = ${lo}, ${end} = ${hi}`
      return '  '.repeat(d) + `for (${init}; ${x} < ${end ?? hi}; ${x}++) {`
    })
    const closes = nest!.loops.map((_, d) => '  '.repeat(nest!.loops.length - 1 - d) + '}')
    return [...opens, ...updates('  '.repeat(nest!.loops.length)), ...closes]
  }

  /**
   * Around the nest: a register per stored tensor and vector, loaded before the nest, updated in it, stored after it.
   * NEST_UNROLL vectors at a time share the nest's loop overhead and give the core independent sums to overlap.
   */
  const nestLines = (): string[] => {
    const tensors = [...new Set(stores.map((s) => s.access.tensor))]
    const jam = ctx.jam
    const copies = Array.from({ length: jam?.count ?? 1 }, (_, j) => (j === 0 ? stores : stores.map((s) => shifted(s, jam!.v, j))))
    const accOf = (tensor: string, u: number, j: number) => `pk_vacc${tensors.indexOf(tensor)}_${u}${j ? `_${j}` : ''}`
    const atOf = (tensor: string, j: number) => copies[j].find((s) => s.access.tensor === tensor)!.access
    const step = (vectors: number, mask?: string): string[] => {
      const lanes = Array.from({ length: vectors }, (_, u) => u)
      const updates = (deep: string) => lanes.flatMap((u) =>
        copies.flatMap((copy, j) => copy.map((s) => {
          const acc = accOf(s.access.tensor, u, j)
          return `${deep}${acc} = ${combine(s.op, acc, vexpr(s.value, u * ops.lanes, mask))};`
        })),
      )
      const each = (f: (acc: string, p: string) => string) =>
        lanes.flatMap((u) => copies.flatMap((_, j) => tensors.map((tensor) => f(accOf(tensor, u, j), pointer(atOf(tensor, j), u * ops.lanes)))))
      return [
        ...each((acc, p) => `${ops.vector} ${acc} = ${start(p, mask)};`),
        ...nestLoopsAround(updates),
        ...each((acc, p) => `${mask ? t(ops.maskedStore, { p, m: mask, v: acc }) : t(ops.store, { p, v: acc })};`),
      ]
    }
    // Halving ladders down to one vector: an extent under NEST_UNROLL vectors (32 channels in 16 lanes) still runs
    // independent sums side by side instead of one latency-bound sum at a time.
    const ladder = (vectors: number): string[] => {
      const W = vectors * ops.lanes
      const loop = [`for (; ${v} <= pk_vhi - ${W}; ${v} += ${W}) {`, ...step(vectors).map(indent), '}']
      return vectors === 1 ? loop : [...loop, ...ladder(vectors >> 1)]
    }
    // Jammed, the copies already give the core independent sums: fewer vectors per step keep them all in registers.
    const top = jam ? Math.max(1, Math.floor(jamRegisters(ctx.isa) / jam.count)) : NEST_UNROLL
    return [
      `int64_t ${v} = pk_vlo;`,
      ...ladder(top),
      `if (${v} < pk_vhi) {`,
      `  const ${ops.mask} pk_vm = ${t(ops.firstLanes, { n: `pk_vhi - ${v}` })};`,
      ...step(1, 'pk_vm').map(indent),
      '}',
    ]
  }
  /**
   * The run form (runForm): the outer loop's iterations times this loop's lanes as one stretch of each streamed
   * tensor, in vectors aligned to the 64-byte lines of the streamed tensor read most. A Float32Array of more than a
   * few pages starts 16 bytes past a page (glibc's mmap chunk header), so the nest form's vectors, which start at
   * each output element's channel 0, straddle two lines each when a row of channels is a whole number of lines; and
   * arrays made otherwise start elsewhere: a 3×3 depthwise convolution whose input's lines lie apart from its
   * output's ran 54-58 GFLOP/s aligned to the output, 71-78 aligned to the input, read 9 times as often (112² × 32,
   * AMD EPYC Zen 5 AVX-512, 1 thread; 75-81 either way where they lie alike). A periodic
   * operand's vector at a run position is its lanes from that position's phase: each of its rows is copied once per
   * run, rotated to the phase of the first aligned vector. A pass sums `block` vectors side by side; where a period (E
   * elements) is short (RUN_SUMS_PER_LOAD), the periodic operands' vectors of one period serve them all, as the
   * nest form's jam shares its filter vectors between columns.
   */
  const runLines = (run: NonNullable<VectorLoopContext['run']>, form: RunForm): string[] => {
    const q = names.of(run.v)
    const L = ops.lanes
    const tensors = [...new Set(stores.map((s) => s.access.tensor))]
    const block = runBlock(ctx.isa, tensors.length)
    const at = (a: Access) => layout.offset(atRunStart(a, loop.v, run.v)).text
    const table = (tensor: string) => `pk_run_${names.of(tensor)}`
    const streamed = (a: Access, f: string) => `${names.of(a.tensor)} + ${at(a)} + ${f}`
    /** One vector of `e` at run position `f`, the periodic operands' lanes from `phase` (C expressions). */
    const runExpr = (e: Expr, f: string, phase: string, mask?: string, head = false): string =>
      vectorExpr(e, ops, (x) => {
        if (x.kind === 'load' && form.streamed.has(x.access.tensor)) {
          const p = streamed(x.access, f)
          return mask ? t(ops.maskedLoad, { m: mask, p }) : t(ops.load, { p })
        }
        if (x.kind === 'load' && form.periodic.has(x.access.tensor)) {
          // The head reads lanes 0.. of each row straight from the tensor; after it, the rotated copy.
          const p = head ? `${names.of(x.access.tensor)} + ${at(x.access)}` : `${table(x.access.tensor)} + ${at(x.access)} + ${phase}`
          return mask ? t(ops.maskedLoad, { m: mask, p }) : t(ops.loadAligned, { p })
        }
        return sameLanes(x)
      })
    /** The nest over `vectors` vectors side by side from run position `f`, vector u's periodic lanes from `phase(u)`. */
    const pass = (vectors: number, f: string, phase: (u: number) => string, mask?: string, head = false): string[] => {
      const acc = (tensor: string, u: number) => `pk_vacc${tensors.indexOf(tensor)}_${u}`
      const lanes = Array.from({ length: vectors }, (_, u) => u)
      const position = (u: number) => (u === 0 ? f : `${f} + ${u * L}`)
      const each = (g: (a: string, p: string) => string) =>
        lanes.flatMap((u) => tensors.map((tensor) => {
          const s = stores.find((x) => x.access.tensor === tensor)!
          return g(acc(tensor, u), streamed(s.access, position(u)))
        }))
      const updates = (deep: string) => lanes.flatMap((u) => stores.map((s) => {
        const a = acc(s.access.tensor, u)
        return `${deep}${a} = ${combine(s.op, a, runExpr(s.value, position(u), phase(u), mask, head))};`
      }))
      return [
        ...each((a, p) => `${ops.vector} ${a} = ${start(p, mask)};`),
        ...nestLoopsAround(updates),
        ...each((a, p) => `${mask ? t(ops.maskedStore, { p, m: mask, v: a }) : t(ops.store, { p, v: a })};`),
      ]
    }
    // The run's vectors start on a line of the streamed tensor read most: one loaded in the nest (at each of its
    // iterations: a filter's taps) over the stored one (once a vector), taken at the nest's first iteration (its
    // indices at 0: their steps are whole rows, lines apart where the rows are).
    const loaded = stores.flatMap((s) => loadsOf(s.value)).find((l) => form.streamed.has(l.access.tensor))?.access
    const aligned = loaded === undefined ? stores[0].access
      : { ...loaded, index: loaded.index.map((ix) => nest!.loops.reduce((x, l) => substitute(x, l.v, constant(0)), ix)) }
    const alignedAt = `(uintptr_t)${names.of(aligned.tensor)} + (uintptr_t)(${at(aligned)} + pk_rf) * ${elementBytes}`
    const periodic = [...form.periodic]
    const limit = RUN_TABLE_BYTES / elementBytes
    const fits = periodic.map((tensor) => ` && ${layout.count(tensor).text} <= ${limit}`).join('')
    // A period of P vectors: vector u of a pass reads the periodic operands' vector u mod P of the rotated copy.
    const longest = longestRunPeriod(ctx.isa, tensors.length)
    const periods = Array.from({ length: Math.log2(longest) + 1 }, (_, k) => 2 ** k)
    const loosePhase = () => '(pk_rf - pk_ra) % pk_vhi'
    return [
      `const int64_t pk_per = pk_vhi / ${L};`,
      `if (pk_vhi % ${L} == 0 && (pk_per & (pk_per - 1)) == 0 && pk_per <= ${longest} && ${q} < ${run.end}${fits}) {`,
      `  int64_t pk_rf = ${q} * pk_vhi;`,
      `  const int64_t pk_rend = ${run.end} * pk_vhi;`,
      `  const int64_t pk_head = pk_min_i64(pk_rend - pk_rf, (int64_t)(((uintptr_t)0 - (${alignedAt})) % ${L * elementBytes}) / ${elementBytes});`,
      `  if (pk_head > 0) {`,
      `    const ${ops.mask} pk_vm = ${t(ops.firstLanes, { n: 'pk_head' })};`,
      ...pass(1, 'pk_rf', () => '0', 'pk_vm', true).map((l) => `    ${l}`),
      `  }`,
      `  pk_rf += pk_head;`,
      // The phase of the rotated copies, which only periodic operands read.
      ...(periodic.length > 0 ? [`  const int64_t pk_ra = pk_rf;`] : []),
      ...periodic.flatMap((tensor) => [
        `  _Alignas(64) ${C_TYPE[dtype]} ${table(tensor)}[${limit}];`,
        `  for (int64_t pk_row = 0; pk_row < ${layout.count(tensor).text}; pk_row += pk_vhi) {`,
        `    int64_t pk_j = 0;`,
        `    for (; pk_j < pk_vhi - pk_head; pk_j++) ${table(tensor)}[pk_row + pk_j] = ${names.of(tensor)}[pk_row + pk_head + pk_j];`,
        `    for (; pk_j < pk_vhi; pk_j++) ${table(tensor)}[pk_row + pk_j] = ${names.of(tensor)}[pk_row + pk_head + pk_j - pk_vhi];`,
        `  }`,
      ]),
      ...periods.flatMap((period) => [
        `  if (pk_per == ${period}) {`,
        `    for (; pk_rf <= pk_rend - ${block * L}; pk_rf += ${block * L}) {`,
        ...pass(block, 'pk_rf', (u) => String((u % period) * L)).map((l) => `      ${l}`),
        `    }`,
        `  }`,
      ]),
      `  for (; pk_rf <= pk_rend - ${L}; pk_rf += ${L}) {`,
      ...pass(1, 'pk_rf', loosePhase).map((l) => `    ${l}`),
      `  }`,
      `  if (pk_rf < pk_rend) {`,
      `    const ${ops.mask} pk_vm = ${t(ops.firstLanes, { n: 'pk_rend - pk_rf' })};`,
      ...pass(1, 'pk_rf', loosePhase, 'pk_vm').map((l) => `    ${l}`),
      `  }`,
      `  ${q} = ${run.end};`,
      `}`,
    ]
  }
  // Printed before `hoisted` is read: printing the loop fills it.
  let core: string[]
  if (ctx.run !== undefined) {
    const form = nest === undefined ? undefined : runForm(loop, stores, ctx.run.v, layout.tensor)
    if (form === undefined) return undefined
    core = runLines(ctx.run, form)
  } else core = nest === undefined ? flatLines() : nestLines()
  // Hoisted loads sit inside the non-empty check: the scalar loop reads nothing when it runs no iteration.
  const lines = [
    '{',
    `  const int64_t pk_vlo = ${ctx.bound(loop.lo).text}, pk_vhi = ${ctx.bound(loop.hi).text};`,
    '  if (pk_vlo < pk_vhi) {',
    ...[...hoisted, ...core].map((l) => `    ${l}`),
    '  }',
    '}',
  ]
  return lines.map((l) => '  '.repeat(depth) + l)
}

const isOperator = (e: Expr): boolean => e.kind === 'unary' || e.kind === 'call' || e.kind === 'select' || e.kind === 'binary'

/**
 * `e` as one vector of `ops`: `leaf(x)` for each subexpression x, outermost first, and where it answers undefined (only
 * ever for an operator), the operator lane by lane on its operands' vectors.
 */
export function vectorExpr(e: Expr, ops: VectorOps, leaf: (e: Expr) => string | undefined): string {
  const own = leaf(e)
  if (own !== undefined) return own
  const sub = (x: Expr) => vectorExpr(x, ops, leaf)
  switch (e.kind) {
    case 'unary':
      return instantiate(ops[e.op === 'not' ? 'not' : 'neg'], { a: sub(e.arg) })
    case 'call':
      return instantiate(ops.math[e.fn], { a: sub(e.arg) })
    case 'select':
      return instantiate(ops.blend, { m: sub(e.cond), a: sub(e.b), b: sub(e.a) })
    case 'binary': {
      const fast = e.op === 'max' || e.op === 'min' ? constantSided(e.op, e.a, e.b, ops, sub) : undefined
      if (fast !== undefined) return fast
      const [a, b] = [sub(e.a), sub(e.b)]
      if (e.op in ops.compare) return instantiate(ops.compare[e.op as CompareOp], { a, b })
      return instantiate(ops[e.op as 'add' | 'sub' | 'mul' | 'div' | 'and' | 'or' | 'max' | 'min'], { a, b })
    }
    default:
      throw new KernelInternalError('emit', `no vector for a ${e.kind} the caller did not place`)
  }
}

/**
 * max or min with a constant side as the instruction, the constant first: the instruction returns its second operand
 * where either is NaN (so the other side's NaN comes through) or both are zero. JavaScript's max wants +0 there when
 * the constant is +0, which adding +0 gives (it turns -0 into +0 and changes no other value): a ReLU's `max(x, 0)` is
 * two instructions instead of the header function's six. Its min wants -0 when the constant is -0: left to the header.
 */
function constantSided(op: 'max' | 'min', a: Expr, b: Expr, ops: VectorOps, sub: (x: Expr) => string): string | undefined {
  const [c, x] = b.kind === 'const' ? [b, a] : a.kind === 'const' ? [a, b] : [undefined, undefined]
  if (c === undefined || Number.isNaN(c.value) || (op === 'min' && Object.is(c.value, -0))) return undefined
  const constant = sub(c)
  const picked = instantiate(op === 'max' ? ops.maxInstruction : ops.minInstruction, { a: constant, b: sub(x) })
  return op === 'max' && Object.is(c.value, 0) ? instantiate(ops.add, { a: picked, b: constant }) : picked
}

/** How the tensors of a run (VectorLoopContext.run) are read: along the run, or periodically (the lanes' index only). */
export interface RunForm {
  readonly streamed: ReadonlySet<string>
  readonly periodic: ReadonlySet<string>
}

/**
 * The run form of vector loop `loop` (lanes c, around a nest storing `stores`) inside loop `v`, or undefined. The
 * lanes must cover [0, E) where E is the last dimension of every tensor they index, and each access must either move
 * along the run (c exactly its last index and v plus terms of other variables its second last, neither index
 * anywhere else: element v·E + c of a row) or be periodic (a load with c exactly its last index and no v), or read
 * neither. Stores move along the run; values read neither c nor v as numbers.
 */
export function runForm(loop: Loop, stores: readonly Store[], v: string, tensor: (name: string) => Tensor): RunForm | undefined {
  const c = loop.v
  if (loop.lo.kind !== 'affine' || !equal(loop.lo.a, constant(0)) || loop.hi.kind !== 'affine') return undefined
  const extent = loop.hi.a
  const streamed = new Set<string>(), periodic = new Set<string>()
  const place = (a: Access, store: boolean): boolean => {
    const last = a.index.length - 1
    const uses = (x: string) => a.index.flatMap((ix, d) => (coeffOf(ix, x) !== 0 ? [d] : []))
    const [byC, byV] = [uses(c), uses(v)]
    if (byC.length === 0 && byV.length === 0 && !store) return true
    const shape = tensor(a.tensor).shape
    if (byC.length !== 1 || byC[0] !== last || !equal(a.index[last], variable(c)) || !equal(shape[last], extent)) return false
    const [role, other] = byV.length === 0 && !store ? [periodic, streamed] : [streamed, periodic]
    if (role === streamed && (byV.length !== 1 || byV[0] !== last - 1 || coeffOf(a.index[last - 1], v) !== 1)) return false
    if (other.has(a.tensor)) return false
    role.add(a.tensor)
    return true
  }
  for (const s of stores) {
    if (!place(s.access, true) || readsVar(s.value, c) || readsVar(s.value, v)) return undefined
    let ok = true
    walkExpr(s.value, (x) => void (ok &&= x.kind !== 'load' || (!x.zeroOutside && place(x.access, false))))
    if (!ok) return undefined
  }
  return periodic.size + streamed.size > 0 ? { streamed, periodic } : undefined
}

/** `a` at the start of its row of the run: the lanes' index c and the run's loop v at 0. */
function atRunStart(a: Access, c: string, v: string): Access {
  return { ...a, index: a.index.map((ix) => substitute(substitute(ix, c, constant(0)), v, constant(0))) }
}

/** Vectors a run's pass sums side by side, storing `stored` tensors: a power of two, half the registers in all. */
const runBlock = (isa: Isa, stored: number): number => 2 ** Math.floor(Math.log2(Math.max(1, jamRegisters(isa) / stored)))

/**
 * The most vectors a row of a run's lanes may be (its period) on `isa`: a pass's blocks then start at phase 0, being
 * whole periods, and load one periodic vector per RUN_SUMS_PER_LOAD sums or fewer.
 */
export const longestRunPeriod = (isa: Isa, stored: number): number => Math.max(1, runBlock(isa, stored) / RUN_SUMS_PER_LOAD)

/**
 * Sums of a run's pass per vector it loads from a periodic operand, at least: its longest period is its vectors over
 * this. 3×3 depthwise convolutions, Intel, 1 thread: on AVX-512 (16 vectors a pass), a period of 4 vectors (64 channels)
 * ran at 71 GFLOP/s where the nest form ran at 37-60 (depending on the arrays' alignment), 8 (28×28 × 128) at 40 where
 * the nest form ran at 41-67; on AVX2 (8 vectors a pass), a period of 4 (32 channels) at 40-45 against 42-51.
 */
const RUN_SUMS_PER_LOAD = 4

/** Bytes of the stack copy of each periodic operand of a run (a 3×3 filter of up to 455 f32 channels). */
const RUN_TABLE_BYTES = 16384

/** Accumulator copies per reduction: two adds in flight hide most of the adder's latency. */
const UNROLL = 2
/**
 * Vectors per step of a loop around a nest (measured on a 3×3 depthwise convolution of 112×112 × 32 on AVX2, 1
 * thread: one vector per step 16.1 GFLOP/s, four 21.3; the accumulator in memory, as before the nest form, 11.3).
 * The ladder below it (two, then one) serves extents under four vectors: the same convolution on AVX-512 (two
 * vectors of 16), 1 thread, AMD Zen 5: 27.8 GFLOP/s a vector at a time, 40 two at a time.
 */
const NEST_UNROLL = 4

/** Accumulators a jammed nest may keep (c-jam.ts): half the registers, the rest for the loads they share. */
export const jamRegisters = (isa: Isa): number => Math.floor(isa.vectorRegisters / 2)
/** How far ahead input streams are prefetched (measured on softmax rows: 2-8 KiB all gain ~8%). */
const PREFETCH_BYTES = 2048

const indent = (l: string) => `  ${l}`

/** `s` at iteration `v + by` of loop `v`: every access's `v` shifted (the jam never reads `v` as a value). */
function shifted(s: Store, v: string, by: number): Store {
  const at = (a: Access): Access => ({ ...a, index: a.index.map((ix) => substitute(ix, v, add(variable(v), constant(by)))) })
  const value = mapExpr(s.value, (e) => (e.kind === 'load' ? { ...e, access: at(e.access) } : e))
  return { ...s, access: at(s.access), value }
}
