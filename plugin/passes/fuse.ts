/**
 * Fusion of consecutive blocks (PolyDL's Algorithm 3 with Stripe's fuse and localize), legal from the access maps:
 * - Row-wise: blocks whose index orders start with the same indices R (softmax's, layer norm's rows) become one
 *   block over R, tagged `fused`, whose body runs each statement's remaining indices in order; a fill among them
 *   becomes a per-row initialisation. Legal when every tensor the run writes is indexed by each row index alone, in
 *   one dimension, at every access in the run (row r touches only row r's elements), or is reduced by one statement
 *   over exactly R, without constraints, that no other statement of the run touches.
 * - Element-wise producer/consumer pairs are the case where R is every index: their bodies are concatenated.
 * Fusion runs again inside each fused body (softmax's exp and row sum share one pass). A statement between fused
 * blocks that shares no tensor with the run so far moves in front of it.
 * Localize: a temporary assigned once and read only by later statements of the same body at the same element is
 * substituted into them (a register instead of a tensor); a temporary used only inside one fused block, set in
 * full before each row uses it, shrinks to one row. A row-local temporary keeps that row loop serial (c-parallel's
 * disjoint-writes test), so only temporaries with a dimension left shrink: per-row scalars keep their tensor.
 * Needs: block form after reorder, whose index orders decide R. Leaves: nested blocks and ifs, for lower-blocks.
 */
import { coeffOf, equal, variable } from '../ir/affine.ts'
import type { Access, Affine, AssignOp, Block, Expr, Fill, IndexRange, Kernel, Stmt, Store, Tensor } from '../ir/nodes.ts'
import { takenNames } from '../ir/names.ts'
import { loadsOf, mapExpr, walkStmts, withBody } from '../ir/walk.ts'
import type { KernelFacts } from '../analysis/deps.ts'

export const FUSED_TAG = 'fused'

export function fuse(kernel: Kernel): Kernel {
  const ctx: Context = { tensors: new Map(kernel.tensors.map((t) => [t.name, t])), fresh: freshIndexNames(kernel) }
  const body = fuseList(kernel.body, ctx)
  if (body === kernel.body) return kernel
  return shrinkRowTemps(forwardTemps({ ...kernel, body }))
}

/**
 * The block facts lower-blocks picks parallel loops from, after fusion. A fused block's row runs in parallel when
 * every store inside it, at any depth, writes where that row index stands alone (c-parallel's disjoint writes): a
 * row-local temporary or a reduction over the row keeps it serial. The blocks inside run within one row: none.
 */
export function factsAfterFusion(facts: KernelFacts, fused: Kernel): KernelFacts {
  const blocks = new Map(facts.blocks)
  for (const s of fused.body) {
    if (s.kind !== 'block' || !s.tags.includes(FUSED_TAG)) continue
    const writes: Access[] = []
    walkStmts(s.body, (x) => {
      if (x.kind === 'block') blocks.delete(x.id)
      if (x.kind === 'store') writes.push(x.access)
    })
    const rows = s.indices.map((ix) => ix.name)
    blocks.set(s.id, {
      id: s.id,
      reductionIndices: rows.filter((r) => !writes.every((a) => a.index.some((ix) => coeffOf(ix, r) !== 0))),
      parallelIndices: rows.filter((r) => writes.every((a) => a.index.some((ix) => isPlain(ix, r)))),
    })
  }
  return { ...facts, blocks }
}

interface Context {
  readonly tensors: ReadonlyMap<string, Tensor>
  readonly fresh: () => string
}

/** Tensors a statement list reads, writes (with the op) and fills, at any depth. */
interface Footprint {
  readonly reads: readonly Access[]
  readonly writes: readonly { readonly access: Access; readonly op: AssignOp }[]
  readonly fills: readonly string[]
}

function footprintOf(stmts: readonly Stmt[]): Footprint {
  const reads: Access[] = []
  const writes: { access: Access; op: AssignOp }[] = []
  const fills: string[] = []
  walkStmts(stmts, (s) => {
    if (s.kind === 'store') {
      writes.push({ access: s.access, op: s.op })
      reads.push(...loadsOf(s.value).map((l) => l.access))
    } else if (s.kind === 'fill') fills.push(s.tensor)
  })
  return { reads, writes, fills }
}

const writtenBy = (f: Footprint): Set<string> => new Set([...f.writes.map((w) => w.access.tensor), ...f.fills])
const touchedBy = (f: Footprint): Set<string> => new Set([...writtenBy(f), ...f.reads.map((a) => a.tensor)])
const accessesOf = (f: Footprint, tensor: string): Access[] =>
  [...f.reads, ...f.writes.map((w) => w.access)].filter((a) => a.tensor === tensor)

/** No tensor one writes is touched by the other: the two may run in either order. */
function independent(a: Footprint, b: Footprint): boolean {
  const [touchedA, touchedB] = [touchedBy(a), touchedBy(b)]
  return [...writtenBy(a)].every((t) => !touchedB.has(t)) && [...writtenBy(b)].every((t) => !touchedA.has(t))
}

const isPlain = (ix: Affine, v: string): boolean =>
  ix.constant === 0 && ix.terms.length === 1 && ix.terms[0].v === v && ix.terms[0].coeff === 1

/**
 * The dimension each row index takes at every one of `accesses`: alone, in the same dimension every time, and in
 * no other dimension. Undefined when some row index does not (or there is no access to tell).
 */
function rowDims(accesses: readonly Access[], rows: readonly IndexRange[]): number[] | undefined {
  if (accesses.length === 0) return undefined
  const dims: number[] = []
  for (const r of rows) {
    const d = accesses[0].index.findIndex((ix) => isPlain(ix, r.name))
    const alone = (a: Access) => a.index.every((ix, k) => (k === d ? isPlain(ix, r.name) : coeffOf(ix, r.name) === 0))
    if (d < 0 || !accesses.every(alone)) return undefined
    dims.push(d)
  }
  return dims
}

const sameNames = (a: readonly IndexRange[], b: readonly IndexRange[]) =>
  a.length === b.length && a.every((ix) => b.some((y) => y.name === ix.name))

/** Whether a run of blocks and fills may share a loop nest over `rows` (the legality rule of the file comment). */
function rowsHold(run: readonly Stmt[], rows: readonly IndexRange[], ctx: Context): boolean {
  const prints = run.map((s) => footprintOf([s]))
  const written = new Set(prints.flatMap((p) => [...writtenBy(p)]))
  for (const t of written) {
    const filled = prints.some((p) => p.fills.includes(t))
    const accesses = prints.flatMap((p) => accessesOf(p, t))
    if (accesses.length === 0) continue // only filled so far: the statements that use it decide
    const dims = rowDims(accesses, rows)
    const shape = ctx.tensors.get(t)!.shape
    if (dims && (!filled || rows.every((r, k) => equal(shape[dims[k]], r.extent)))) continue
    const users = run.filter((_, n) => touchedBy(prints[n]).has(t))
    const only = users.length === 1 ? users[0] : undefined
    const reducedOverRows =
      only?.kind === 'block' && only.constraints.length === 0 && sameNames(only.indices, rows) &&
      footprintOf([only]).writes.every((w) => w.access.tensor !== t || w.op !== '=')
    if (!reducedOverRows) return false
  }
  return true
}

/** The longest common leading run of the blocks' index lists that `rowsHold` accepts; empty when none. */
function rowsOf(run: readonly Stmt[], ctx: Context): IndexRange[] {
  const blocks = run.filter((s): s is Block => s.kind === 'block')
  const common: IndexRange[] = []
  for (const ix of blocks[0].indices) {
    const d = common.length
    if (!blocks.every((b) => b.indices[d]?.name === ix.name && equal(b.indices[d].extent, ix.extent))) break
    common.push(ix)
  }
  for (let k = common.length; k > 0; k--) if (rowsHold(run, common.slice(0, k), ctx)) return common.slice(0, k)
  return []
}

/** Fuses maximal runs in one statement list, then inside each fused body. Unchanged lists keep identity. */
function fuseList(stmts: readonly Stmt[], ctx: Context): readonly Stmt[] {
  const out: Stmt[] = []
  let changed = false
  for (let i = 0; i < stmts.length; ) {
    const grown = growRun(stmts, i, ctx)
    if (grown === undefined) {
      out.push(stmts[i++])
      continue
    }
    const { rows, end } = grown
    // A fill no statement of the run uses commutes with the run: it goes in front, unchanged.
    const unused = (s: Stmt) => s.kind === 'fill' && accessesOf(footprintOf(grown.run), s.tensor).length === 0
    const run = grown.run.filter((s) => !unused(s))
    const moved = [...grown.moved, ...grown.run.filter(unused)]
    const blocks = run.filter((s): s is Block => s.kind === 'block')
    const body = run.flatMap((s) => rowRemainder(s, rows, run, ctx))
    out.push(...moved, {
      kind: 'block',
      id: blocks.map((b) => b.id).join('+'),
      indices: rows,
      constraints: [],
      body: fuseList(body, ctx),
      tags: [FUSED_TAG],
      span: blocks[0].span,
    })
    changed = true
    i = end
  }
  return changed ? out : stmts
}

/**
 * The longest run starting at `start` holding two blocks or more: blocks and fills that fuse, with the statements
 * between them that commute with the run so far moved in front. Undefined when there is none.
 */
function growRun(stmts: readonly Stmt[], start: number, ctx: Context) {
  const first = stmts[start]
  if (first.kind !== 'block' && first.kind !== 'fill') return undefined
  let run: Stmt[] = [first]
  let best: { run: Stmt[]; rows: IndexRange[]; moved: Stmt[]; end: number } | undefined
  const moved: Stmt[] = []
  for (let j = start + 1; j < stmts.length; j++) {
    const s = stmts[j]
    const tried = [...run, s]
    const hasBlock = tried.some((x) => x.kind === 'block')
    const rows = (s.kind === 'block' || s.kind === 'fill') && hasBlock ? rowsOf(tried, ctx) : []
    if (rows.length > 0 || (s.kind === 'fill' && !hasBlock)) {
      run = tried
      const blocks = run.filter((x) => x.kind === 'block').length
      if (s.kind === 'block' && blocks >= 2) best = { run, rows, moved: [...moved], end: j + 1 }
    } else if (independent(footprintOf([s]), footprintOf(run))) moved.push(s)
    else break
  }
  return best
}

/** What one statement of a run executes for one row: its remaining indices, or its body when none remain. */
function rowRemainder(s: Stmt, rows: readonly IndexRange[], run: readonly Stmt[], ctx: Context): readonly Stmt[] {
  if (s.kind === 'fill') return [rowInit(s, rows, run, ctx)]
  if (s.kind !== 'block') return [s]
  const rest = s.indices.filter((ix) => !rows.some((r) => r.name === ix.name))
  if (rest.length > 0) return [{ ...s, indices: rest }]
  return s.constraints.length > 0 ? [{ kind: 'if', conds: s.constraints, body: s.body }] : s.body
}

/** A fill as the assignment of one row's elements: `m[i] = -inf`, or a block over the dimensions rows leave. */
function rowInit(fill: Fill, rows: readonly IndexRange[], run: readonly Stmt[], ctx: Context): Stmt {
  const dims = rowDims(accessesOf(footprintOf(run), fill.tensor), rows)!
  const free: IndexRange[] = []
  const index = ctx.tensors.get(fill.tensor)!.shape.map((extent, d) => {
    const k = dims.indexOf(d)
    if (k >= 0) return variable(rows[k].name)
    const name = ctx.fresh()
    free.push({ name, extent })
    return variable(name)
  })
  const store: Store = { kind: 'store', access: { tensor: fill.tensor, index }, op: '=', value: fill.value }
  if (free.length === 0) return store
  return { kind: 'block', id: `fill:${fill.tensor}`, indices: free, constraints: [], body: [store], tags: [] }
}

/** Index names used nowhere in the kernel. */
function freshIndexNames(kernel: Kernel): () => string {
  const taken = takenNames(kernel)
  let n = 0
  return () => {
    while (taken.has(`q${n}`)) n++
    taken.add(`q${n}`)
    return `q${n}`
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Localize

/** Every statement list of `stmts`, innermost first, rebuilt by `f`. */
function mapLists(stmts: readonly Stmt[], f: (list: readonly Stmt[]) => readonly Stmt[]): readonly Stmt[] {
  let changed = false
  const inner = stmts.map((s) => {
    if (s.kind === 'store' || s.kind === 'fill') return s
    const next = withBody<typeof s>(s, mapLists(s.body, f))
    changed ||= next !== s
    return next
  })
  return f(changed ? inner : stmts)
}

const temps = (k: Kernel): Tensor[] => k.tensors.filter((t) => t.role === 'temp')

/** Temporaries assigned once and read only just after, in the same list at the same element, become expressions. */
function forwardTemps(kernel: Kernel): Kernel {
  let k = kernel
  for (const t of temps(kernel)) {
    const whole = footprintOf(k.body)
    const writes = whole.writes.filter((w) => w.access.tensor === t.name)
    if (writes.length !== 1 || writes[0].op !== '=' || whole.fills.includes(t.name)) continue
    const reads = whole.reads.filter((a) => a.tensor === t.name).length
    let done = false
    const body = mapLists(k.body, (list) => {
      const forwarded = forwardIn(list, t.name, reads)
      done ||= forwarded !== list
      return forwarded
    })
    if (done) k = { ...k, body: withoutEmptyBlocks(body), tensors: k.tensors.filter((x) => x !== t) }
  }
  return k
}

/** `stmts` without the blocks a forwarded temporary left empty (a store to a temporary nothing reads was its all). */
const withoutEmptyBlocks = (stmts: readonly Stmt[]): readonly Stmt[] =>
  mapLists(stmts, (list) => list.filter((s) => s.kind !== 'block' || s.body.length > 0))

/**
 * `list` with the store to `temp` substituted into the later stores of the list reading it, or `list` itself unless
 * those read all `reads` loads of it in the kernel, at the stored element, before anything rewrites the store's inputs.
 */
function forwardIn(list: readonly Stmt[], temp: string, reads: number): readonly Stmt[] {
  const at = list.findIndex((s) => s.kind === 'store' && s.access.tensor === temp)
  if (at < 0) return list
  const def = list[at] as Store
  const loadsOfTemp = (s: Stmt) => (s.kind === 'store' ? loadsOf(s.value).filter((l) => l.access.tensor === temp) : [])
  const readers = list.flatMap((s, n) => (n > at && loadsOfTemp(s).length > 0 ? [n] : []))
  const loads = readers.flatMap((n) => loadsOfTemp(list[n]))
  if (loads.length !== reads || !loads.every((l) => l.access.index.every((ix, d) => equal(ix, def.access.index[d])))) return list
  const inputs = new Set(loadsOf(def.value).map((l) => l.access.tensor))
  const between = list.slice(at + 1, readers.at(-1) ?? at)
  if (between.some((s) => [...writtenBy(footprintOf([s]))].some((w) => inputs.has(w)))) return list
  const inline = (e: Expr): Expr => mapExpr(e, (x) => (x.kind === 'load' && x.access.tensor === temp ? def.value : x))
  return list.flatMap((s, n): Stmt[] => {
    if (n === at) return []
    return readers.includes(n) ? [{ ...(s as Store), value: inline((s as Store).value) }] : [s]
  })
}

/** Temporaries used only inside one fused block, and set in full before each row reads them, lose their row dims. */
function shrinkRowTemps(kernel: Kernel): Kernel {
  let k = kernel
  for (const t of temps(kernel)) {
    const everywhere = footprintOf(k.body)
    const count = accessesOf(everywhere, t.name).length
    const uses = (s: Stmt) => touchedBy(footprintOf([s])).has(t.name)
    const owner = k.body.findIndex((s) => s.kind === 'block' && s.tags.includes(FUSED_TAG) && uses(s))
    if (owner < 0 || everywhere.fills.includes(t.name)) continue
    const fused = k.body[owner] as Block
    const inside = accessesOf(footprintOf([fused]), t.name)
    const dims = rowDims(inside, fused.indices)
    if (inside.length !== count || !dims || t.shape.length - dims.length < 1) continue
    if (!setsWholeRow(fused.body.find(uses)!, t, dims)) continue
    const drop = (a: Access): Access => (a.tensor === t.name ? { ...a, index: a.index.filter((_, d) => !dims.includes(d)) } : a)
    const shrunk = rewriteAccesses(fused, drop)
    const tensor: Tensor = { ...t, shape: t.shape.filter((_, d) => !dims.includes(d)) }
    k = {
      ...k,
      body: k.body.map((s, n) => (n === owner ? shrunk : s)),
      tensors: k.tensors.map((x) => (x === t ? tensor : x)),
    }
  }
  return k
}

/** `s` assigns every element of one row of `t` and reads none: a block `[q < extent...] t[rows, q...] = value`. */
function setsWholeRow(s: Stmt, t: Tensor, rowDimensions: readonly number[]): boolean {
  if (s.kind !== 'block' || s.constraints.length > 0 || s.body.length !== 1) return false
  const store = s.body[0]
  if (store.kind !== 'store' || store.op !== '=' || store.access.tensor !== t.name) return false
  if (loadsOf(store.value).some((l) => l.access.tensor === t.name)) return false
  const rest = store.access.index.filter((_, d) => !rowDimensions.includes(d))
  const restShape = t.shape.filter((_, d) => !rowDimensions.includes(d))
  return (
    rest.length === s.indices.length &&
    rest.every((ix, n) => s.indices.some((b) => isPlain(ix, b.name) && equal(b.extent, restShape[n]))) &&
    new Set(rest.map((ix) => ix.terms[0].v)).size === rest.length
  )
}

function rewriteAccesses(b: Block, f: (a: Access) => Access): Block {
  const expr = (e: Expr): Expr => mapExpr(e, (x) => (x.kind === 'load' ? { ...x, access: f(x.access) } : x))
  const list = (stmts: readonly Stmt[]): readonly Stmt[] =>
    stmts.map((s): Stmt => {
      if (s.kind === 'store') return { ...s, access: f(s.access), value: expr(s.value) }
      if (s.kind === 'fill') return s
      return withBody<typeof s>(s, list(s.body))
    })
  return withBody(b, list(b.body))
}
