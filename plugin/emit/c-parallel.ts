/**
 * A `parallel` loop as a pk_parallel_for (native/polykern_pool.h): its body is outlined into a static function
 * running one contiguous chunk of the iterations, reading what it needs from the enclosing kernel function through
 * a context struct. The call site estimates the loop's work (iterations, inner ones included) and runs the chunk
 * function on the whole range instead when the work is below PK_PARALLEL_MIN_WORK, so small calls never wake the
 * pool. Each output element is still computed by one thread in the serial order: results equal one thread's. A loop
 * whose iterations reduce into the same elements is split instead (c-split-reduction.ts), each thread reducing into
 * its own copy of them.
 */
import { coeffOf } from '../ir/affine.ts'
import { mostTrips } from '../analysis/bounds.ts'
import type { Bound, Kernel, Loop, Stmt, Tensor } from '../ir/nodes.ts'
import { boundVars, walkStmts } from '../ir/walk.ts'
import { C_TYPE } from './c-expr.ts'
import { reductionsAcross, splitReduction } from './c-split-reduction.ts'
import type { Layout } from './layout.ts'
import type { Names } from './names.ts'
import { PREC, operand, type Code } from './syntax.ts'

/** The statement and bound printers of the kernel being emitted (c.ts). */
export interface CPrinters {
  readonly stmt: (s: Stmt, depth: number) => string[]
  readonly bound: (b: Bound) => Code
}

export interface ParallelLoops {
  /** The lines running `loop` through the pool, or undefined to print it serially (nested, or not provably safe). */
  readonly emit: (loop: Loop, depth: number, print: CPrinters) => string[] | undefined
  /** The outlined chunk functions with their context structs, to print before the kernel function. */
  readonly outlined: readonly string[]
}

/** A variable of the kernel function the chunk function may read. */
export interface Capture {
  readonly name: string
  readonly type: string
}

/** Σ of products: each monomial a list of C factors (double-valued), the empty list meaning 1. */
type Work = readonly (readonly string[])[]

export function parallelLoops(kernel: Kernel, symbol: string, names: Names, layout: Layout): ParallelLoops {
  const outlined: string[] = []
  // Chunk functions by what they compute (sameChunk): loops that differ only in the tensors and sizes they use (the
  // same statement written for other tensors) share one function.
  const byBody = new Map<string, { readonly fn: string; readonly slots: readonly number[] }>()
  const captures = capturesOf(kernel, names, layout)
  let outlining = false

  const emit = (loop: Loop, depth: number, print: CPrinters): string[] | undefined => {
    if (outlining) return undefined
    const disjoint = writesDisjoint(loop)
    const reduced = disjoint ? undefined : reductionsAcross(loop)
    if (!disjoint && reduced === undefined) return undefined
    outlining = true
    const body = loop.body.flatMap((s) => print.stmt(s, 2))
    outlining = false

    const inner = new Set(loopVars(loop.body))
    const declared = new Set([loop.v, ...inner].map(names.of))
    const v = names.of(loop.v)
    const same = sameChunk(body, v, captures.filter((c) => !declared.has(c.name)))
    const { fields } = same
    // A split names the reduced tensors' fields of its context struct: its chunk function is its own.
    const key = reduced ? `${same.key}\n#split ${outlined.length}` : same.key
    let chunk = byBody.get(key)
    if (chunk === undefined) {
      // The struct lists its fields as the kernel declares them; slots: where each is in `fields`.
      const declaredOrder = captures.filter((c) => fields.includes(c))
      chunk = { fn: `${symbol}_p${outlined.length}`, slots: declaredOrder.map((c) => fields.indexOf(c)) }
      byBody.set(key, chunk)
      outlined.push(chunkFunction(chunk.fn, v, declaredOrder, body))
    }
    const { fn } = chunk
    // A split's chunk function is never shared (its key above), so it was outlined just now: its helpers follow it.
    const split = reduced && splitReduction(fn, reduced, names, layout)
    if (split) outlined.push(split.helpers)
    const ctx = `${fn}_ctx`

    const known = (name: string): boolean => name !== loop.v && !inner.has(name)
    const work = printWork(workOf(loop.body, known, print.bound, layout))
    const pad = '  '.repeat(depth)
    const values = [...chunk.slots.map((n) => fields[n].name), 'pk_lo'].join(', ')
    const hi = operand(print.bound(loop.hi), PREC.additive)
    const total = `(double)pk_n${work === '1' ? '' : ` * (${work})`}`
    const declare = `${pad}  ${ctx} pk_ctx = {${values}};`
    if (split) {
      return [`${pad}{`, `${pad}  const int64_t pk_lo = ${print.bound(loop.lo).text}, pk_n = ${hi} - pk_lo;`, declare, `${pad}  if (!(${split.call(total)})) ${fn}(&pk_ctx, 0, pk_n);`, `${pad}}`]
    }
    const pooled = [declare, `${pad}  if (${total} >= PK_PARALLEL_MIN_WORK) pk_parallel_for(pk_n, ${fn}, &pk_ctx);`, `${pad}  else ${fn}(&pk_ctx, 0, pk_n);`]
    // Fewer iterations than threads (a batch of one image): the loop inside runs on the pool instead, when it can.
    const next = innerCandidate(loop)
    const nested = next && emit({ ...next, mode: 'parallel' }, depth + 2, print)
    return [
      `${pad}{`,
      `${pad}  const int64_t pk_lo = ${print.bound(loop.lo).text}, pk_n = ${hi} - pk_lo;`,
      ...(nested === undefined ? pooled : [
        `${pad}  if (pk_n < pk_threads()) {`,
        `${pad}    for (int64_t ${v} = pk_lo; ${v} < pk_lo + pk_n; ${v}++)`,
        ...nested,
        `${pad}  } else {`,
        ...pooled.map((line) => `  ${line}`),
        `${pad}  }`,
      ]),
      `${pad}}`,
    ]
  }

  return { emit, outlined }
}

/** The chunk function `fn` running iterations of the loop over `v`, and its context struct `<fn>_ctx`. */
function chunkFunction(fn: string, v: string, fields: readonly Capture[], body: readonly string[]): string {
  const ctx = `${fn}_ctx`
  return [
    `/* Iterations [pk_begin, pk_end) of the parallel loop over ${v}, counted from its first (pk_lo). */`,
    `typedef struct {`,
    ...fields.map((f) => `  ${f.type} ${f.name};`),
    '  int64_t pk_lo;',
    `} ${ctx};`,
    '',
    // Never inlined at the serial call: gcc would optimise every loop nest twice (a kernel with 338 of them
    // compiled in 12.7 s), for no gain, the call costing nothing next to a loop nest.
    `__attribute__((noinline)) static void ${fn}(void *pk_ctx, int64_t pk_begin, int64_t pk_end) {`,
    `  const ${ctx} *pk_c = pk_ctx;`,
    ...fields.map((f) => `  ${f.type} ${f.name} = pk_c->${f.name};`),
    '  const int64_t pk_first = pk_c->pk_lo + pk_begin, pk_last = pk_c->pk_lo + pk_end;',
    `  for (int64_t ${v} = pk_first; ${v} < pk_last; ${v}++) {`,
    ...body,
    '  }',
    '}',
    '',
  ].join('\n')
}

/** What a chunk function may need from the kernel function: tensors, sizes, hoisted strides, enclosing indices. */
export function capturesOf(kernel: Kernel, names: Names, layout: Layout): Capture[] {
  const tensors = [
    ...kernel.params.filter((p) => p.kind === 'tensor').map((p) => layout.tensor(p.name)),
    ...kernel.tensors.filter((t) => t.role === 'temp'),
  ]
  const pointer = (t: Tensor) => `${t.role === 'in' ? 'const ' : ''}${C_TYPE[t.dtype]} *restrict`
  return [
    ...tensors.map((t) => ({ name: names.of(t.name), type: pointer(t) })),
    ...[...kernel.sizes, ...new Set(loopVars(kernel.body))].map((s) => ({ name: names.of(s), type: 'int64_t' })),
    ...layout.hoisted.map((h) => ({ name: h.name, type: 'int64_t' })),
  ]
}

/** Identifiers in C text, skipping the letters inside number literals (`1e-5f`). */
const IDENTIFIER = /(?<![\w.])[A-Za-z_]\w*/g

/**
 * The captures a chunk's body reads, in the order it first reads them, and a key equal for two chunks exactly when
 * their bodies differ only in those names: such chunks share one function and context struct.
 */
export function sameChunk(body: readonly string[], v: string, captures: readonly Capture[]): { fields: Capture[]; key: string } {
  const byName = new Map(captures.map((c) => [c.name, c]))
  const fields: Capture[] = []
  const text = body.join('\n').replace(IDENTIFIER, (name) => {
    const c = byName.get(name)
    if (c === undefined) return name
    if (!fields.includes(c)) fields.push(c)
    return `$${fields.indexOf(c)}`
  })
  return { fields, key: [v, ...fields.map((f) => f.type), text].join('\n') }
}

export function loopVars(body: readonly Stmt[]): string[] {
  const found: string[] = []
  walkStmts(body, (s) => {
    if (s.kind === 'loop') found.push(s.v)
  })
  return found
}

/**
 * The one loop a parallel loop's body consists of, when it too writes different elements in different iterations and
 * its bounds do not need the outer index: what runs on the pool when the outer loop has too few iterations.
 */
function innerCandidate(loop: Loop): Loop | undefined {
  const [only] = loop.body
  if (loop.body.length !== 1 || only.kind !== 'loop' || only.mode !== 'serial') return undefined
  return boundVars(only.lo).includes(loop.v) || boundVars(only.hi).includes(loop.v) || !writesDisjoint(only) ? undefined : only
}

/**
 * Whether different iterations write different elements: every store has an index that moves with the loop variable
 * and depends on no loop inside it (`parallel` also admits reductions across iterations, which threads would race on).
 */
function writesDisjoint(loop: Loop): boolean {
  const inner = new Set(loopVars(loop.body))
  let disjoint = true
  walkStmts(loop.body, (s) => {
    // A fill rewrites a whole tensor; a GEMM runs its own threads and may need to fail the whole call.
    if (s.kind === 'fill' || s.kind === 'contraction' || s.kind === 'convolution') disjoint = false
    if (s.kind !== 'store') return
    const moves = s.access.index.some((e) => coeffOf(e, loop.v) !== 0 && e.terms.every((t) => !inner.has(t.v)))
    disjoint &&= moves
  })
  return disjoint
}

/**
 * Iterations of a statement list, as C over values known before the loop: a loop bound that needs an inner index is
 * replaced by a max/min argument that does not (an over-estimate), else the loop counts its most trips where its
 * bounds cap them (a tile's points), or once.
 */
function workOf(
  stmts: readonly Stmt[], known: (name: string) => boolean, bound: (b: Bound) => Code, layout: Layout,
): Work {
  const outer = (b: Bound): Bound | undefined => {
    switch (b.kind) {
      case 'affine':
        return b.a.terms.every((t) => known(t.v)) ? b : undefined
      case 'max':
      case 'min':
        return b.args.map(outer).find((x) => x !== undefined)
      case 'ceildiv':
      case 'floordiv': {
        const arg = outer(b.arg)
        return arg && { ...b, arg }
      }
    }
  }
  return stmts.flatMap((s): Work => {
    switch (s.kind) {
      case 'store':
        return [[]]
      case 'fill':
        return [[`(double)${operand(layout.count(s.tensor), PREC.unary)}`]]
      case 'loop': {
        const body = workOf(s.body, known, bound, layout)
        const [lo, hi] = [outer(s.lo), outer(s.hi)]
        if (lo === undefined || hi === undefined) {
          const most = mostTrips(s)
          return most === undefined ? body : body.map((m) => [String(most), ...m])
        }
        const [l, h] = [bound(lo), bound(hi)]
        const trips = l.text === '0'
          ? `(double)${operand(h, PREC.unary)}`
          : `(double)(${h.text} - ${operand(l, PREC.additive + 1)})`
        return body.map((m) => [trips, ...m])
      }
      default:
        return workOf(s.body, known, bound, layout)
    }
  })
}

/** `(double)K * (double)N + 2` style; equal monomials are counted once with a factor. */
function printWork(work: Work): string {
  const counts = new Map<string, number>()
  for (const m of work) {
    const key = m.join(' * ')
    counts.set(key, (counts.get(key) ?? 0) + 1)
  }
  const terms = [...counts].map(([key, n]) => (key === '' ? String(n) : n === 1 ? key : `${n} * ${key}`))
  return terms.length === 0 ? '0' : terms.join(' + ')
}
