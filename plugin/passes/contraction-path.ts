/**
 * Contraction paths (opt_einsum, issue 4): a block `out[...] += f1 * f2 * ... * fn` with three or more factors that
 * depend on its indices becomes n - 1 pairwise blocks through temporaries, in the order greedy-path.ts picks, when
 * that cuts the multiply-adds at least MIN_GAIN-fold. Cost = Σ over the blocks of the product of their extents
 * (each point is one multiply-add); sizes are symbolic, so costs are compared with every size symbol set to
 * REPRESENTATIVE_SIZE and literal extents as written. `O[e, f] +=! X[e, a] * Y[a, b] * Z[b, f]` costs E·A·B·F; its
 * path (X·Y)·Z costs E·A·B + E·B·F: 32× less at 64.
 *
 * Exact algebra: a sum of products reassociates, so only '+=' qualifies (a max of products does not factor), and an
 * index is summed inside a pair only when no other factor and not the output holds it. Floating-point sums round
 * differently, as in any reordered reduction. Out-of-range reads stay excluded: a block with constraints (a `where`
 * clause, or the guards ir/build adds for padded reads) or a read not provably inside its tensor is left alone, since
 * a temporary would sum points the guard skips. Factors free of the block's indices (constants, sizes, rank-0
 * tensors) ride along with the last product. Every decision is logged (POLYKERN_DEBUG=path).
 * Needs: block form from ir/build (one store per block). Leaves: block form; each new `temp` is reset by a Fill just
 * before its block; the last block keeps the original id and store, the others are `<id>.1`, `<id>.2`, ...
 */
import { provablyInRange, type Ranges } from '../analysis/bounds.ts'
import { coeffOf, evaluate, variable } from '../ir/affine.ts'
import { identityOf } from '../ir/build.ts'
import type { Access, Block, DType, Expr, Kernel, Stmt, Store, Tensor } from '../ir/nodes.ts'
import { printConstraint, printExpr, printStmts } from '../ir/print.ts'
import { loadsOf, walkExpr } from '../ir/walk.ts'
import { greedyPath } from './greedy-path.ts'
import { flattenProduct } from './match-contraction.ts'

/** The value every size symbol takes when costs are compared. */
export const REPRESENTATIVE_SIZE = 64
/** Factorize only when the multiply-adds fall at least this many times: temporaries cost memory traffic. */
export const MIN_GAIN = 2

/** One pairwise block of a chosen path, printed for logs and `polykern explain`. */
export interface PathStep {
  readonly block: string
  /** `s0_t1[e, b] += X[e, a] * Y[a, b]` */
  readonly statement: string
  readonly summed: readonly string[]
  /** Multiply-adds at representative sizes. */
  readonly cost: number
}

/** What the pass decided for one block whose value multiplies three or more factors. */
export interface PathDecision {
  readonly block: string
  /** The factors as printed; index-free ones included. */
  readonly factors: readonly string[]
  readonly factorized: boolean
  /** Why it was, or was not, factorized. */
  readonly reason: string
  /** Multiply-adds at representative sizes, when a path was costed. */
  readonly costBefore?: number
  readonly costAfter?: number
  /** The path found (also when it did not gain enough). */
  readonly steps: readonly PathStep[]
}

export interface ContractionPathOptions {
  readonly log?: (message: string) => void
}

export function contractionPath(kernel: Kernel, opts: ContractionPathOptions = {}): Kernel {
  const plans = planKernel(kernel)
  for (const p of plans) opts.log?.(`${kernel.name} ${p.decision.block}: ${describe(p.decision)}`)
  const chosen = new Map(plans.flatMap((p) => (p.rewrite ? [[p.decision.block, p.rewrite] as const] : [])))
  if (chosen.size === 0) return kernel
  const body = kernel.body.flatMap((s) => (s.kind === 'block' ? (chosen.get(s.id)?.stmts ?? [s]) : [s]))
  const temps = [...chosen.values()].flatMap((r) => r.temps)
  return { ...kernel, tensors: [...kernel.tensors, ...temps], body }
}

/** The decision for every candidate block (a product of three or more factors), in kernel order. */
export const planContractionPaths = (kernel: Kernel): PathDecision[] => planKernel(kernel).map((p) => p.decision)

/** One line: the verdict, the costs and the path. */
function describe(d: PathDecision): string {
  const costs = d.costBefore === undefined
    ? ''
    : ` (${d.costBefore} → ${d.costAfter} multiply-adds at size ${REPRESENTATIVE_SIZE})`
  const path = d.steps.map((s) => `${s.block}: ${s.statement}`).join('; ')
  return `${d.factorized ? 'factorized' : 'kept'}: ${d.reason}${costs}${path ? `; path ${path}` : ''}`
}

interface Plan {
  readonly decision: PathDecision
  readonly rewrite?: { readonly temps: readonly Tensor[]; readonly stmts: readonly Stmt[] }
}

function planKernel(kernel: Kernel): Plan[] {
  const taken = new Set([...kernel.tensors.map((t) => t.name), ...kernel.sizes])
  const sizes = new Map(kernel.sizes.map((s) => [s, REPRESENTATIVE_SIZE]))
  const plans: Plan[] = []
  for (const s of kernel.body) {
    if (s.kind !== 'block') continue
    for (const ix of s.indices) taken.add(ix.name)
    const plan = planBlock(s, kernel, sizes, taken)
    if (plan) plans.push(plan)
  }
  return plans
}

function planBlock(b: Block, kernel: Kernel, sizes: ReadonlyMap<string, number>, taken: Set<string>): Plan | undefined {
  const store = b.body.length === 1 && b.body[0].kind === 'store' ? b.body[0] : undefined
  const leaves = store ? flattenProduct(store.value) : []
  if (!store || leaves.length < 3) return undefined
  const order = b.indices.map((ix) => ix.name)
  const indicesOf = (e: Expr): string[] => order.filter((v) => mentions(e, v))
  const factors = leaves.filter((f) => indicesOf(f).length > 0)
  const rideAlong = leaves.filter((f) => indicesOf(f).length === 0)
  const base = { block: b.id, factors: leaves.map(printExpr), steps: [] }
  const keep = (reason: string): Plan => ({ decision: { ...base, factorized: false, reason } })

  if (store.op !== '+=') return keep(`the op is '${store.op}': only a sum of products reassociates`)
  if (factors.length < 3) return keep(`only ${factors.length} factors depend on the indices: already one contraction`)
  if (b.constraints.length > 0) {
    const where = b.constraints.map(printConstraint).join(', ')
    return keep(`the domain has constraints (${where}: a where clause or padding), which temporaries would not honour`)
  }
  const ranges: Ranges = new Map(b.indices.map((ix) => [ix.name, ix.extent]))
  const outOfRange = outOfRangeRead(factors, ranges, kernel)
  if (outOfRange) return keep(`${outOfRange} is not provably inside its tensor (padding): a temporary would sum it`)
  const output = order.filter((v) => accessUses(store.access, v))
  const orphan = order.find((v) => !output.includes(v) && !factors.some((f) => indicesOf(f).includes(v)))
  if (orphan) return keep(`index ${orphan} is in no factor and not in the output, so its multiplicity would be lost`)

  const extent = (v: string) => Math.max(1, evaluate(ranges.get(v)!, sizes))
  const path = greedyPath(factors.map(indicesOf), output, order, extent)
  const costBefore = order.reduce((n, v) => n * extent(v), 1)
  const costAfter = path.reduce((n, s) => n + s.cost, 0)
  const rewrite = rewriteBlock(b, store, factors, rideAlong, path, taken)
  const steps = rewrite.blocks.map((blk, n): PathStep => ({
    block: blk.id,
    statement: printStmts(blk.body).trim(),
    summed: path[n].summed,
    cost: path[n].cost,
  }))
  const decision = { ...base, costBefore, costAfter, steps }
  const ratio = `${gainOf(costBefore, costAfter)} fewer multiply-adds`
  if (costBefore < MIN_GAIN * costAfter) {
    const reason = `the best path found saves too little: ${ratio}, below ${MIN_GAIN}×`
    return { decision: { ...decision, factorized: false, reason } }
  }
  rewrite.tensors.forEach((t) => taken.add(t.name))
  return {
    decision: { ...decision, factorized: true, reason: `${factors.length} factors, ${ratio}` },
    rewrite: { temps: rewrite.tensors, stmts: rewrite.stmts },
  }
}

/** `32×`: how many times fewer multiply-adds, for logs and explain. */
export function gainOf(costBefore: number, costAfter: number): string {
  const r = costBefore / costAfter
  return `${r >= 10 ? Math.round(r) : r.toFixed(1)}×`
}

const accessUses = (a: Access, v: string): boolean => a.index.some((ix) => coeffOf(ix, v) !== 0)

function mentions(e: Expr, v: string): boolean {
  let found = false
  walkExpr(e, (x) => {
    if ((x.kind === 'var' && x.name === v) || (x.kind === 'load' && accessUses(x.access, v))) found = true
  })
  return found
}

/** The first read of a factor that may fall outside its tensor, printed; undefined when every one is in range. */
function outOfRangeRead(factors: readonly Expr[], ranges: Ranges, kernel: Kernel): string | undefined {
  for (const load of factors.flatMap(loadsOf)) {
    const shape = kernel.tensors.find((t) => t.name === load.access.tensor)!.shape
    if (load.zeroOutside || load.access.index.some((ix, d) => !provablyInRange(ix, shape[d], ranges))) return printExpr(load)
  }
  return undefined
}

/** The path as IR: a temp, its Fill and its block per step but the last, which stores into the original output. */
function rewriteBlock(
  b: Block, store: Store, factors: readonly Expr[], rideAlong: readonly Expr[],
  path: ReturnType<typeof greedyPath>, taken: ReadonlySet<string>,
) {
  const dtype = store.value.type as DType
  const range = new Map(b.indices.map((ix) => [ix.name, ix]))
  const times = (x: Expr, y: Expr): Expr => ({ kind: 'binary', op: 'mul', a: x, b: y, type: dtype })
  let live = [...factors]
  const tensors: Tensor[] = []
  const blocks: Block[] = []
  const stmts: Stmt[] = []
  path.forEach((step, n) => {
    const [x, y] = [live[step.pair[0]], live[step.pair[1]]]
    const last = n === path.length - 1
    const block = (id: string, s: Store): Block => ({
      ...b,
      id,
      indices: step.indices.map((v) => range.get(v)!),
      body: [s],
      tags: step.summed.length > 0 ? ['reduction'] : [],
    })
    if (last) {
      const value = rideAlong.reduce(times, times(x, y))
      blocks.push(block(b.id, { ...store, value }))
      stmts.push(blocks.at(-1)!)
      return
    }
    const name = freshName(`${b.id}_t${n + 1}`, taken)
    const access = { tensor: name, index: step.keep.map((v) => variable(v)) }
    tensors.push({ name, dtype, shape: step.keep.map((v) => range.get(v)!.extent), role: 'temp', span: b.span })
    blocks.push(block(`${b.id}.${n + 1}`, { kind: 'store', access, op: '+=', value: times(x, y), span: store.span }))
    stmts.push({ kind: 'fill', tensor: name, value: identityOf('+=', dtype) }, blocks.at(-1)!)
    const rest = live.filter((_, k) => k !== step.pair[0] && k !== step.pair[1])
    live = [...rest, { kind: 'load', access, type: dtype, zeroOutside: false }]
  })
  return { tensors, blocks, stmts }
}

function freshName(want: string, taken: ReadonlySet<string>): string {
  let name = want
  while (taken.has(name)) name += '_'
  return name
}
