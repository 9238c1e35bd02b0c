/**
 * Contraction paths (opt_einsum, issues 4 and 14): a block `out[...] += f1 * f2 * ... * fn` with three or more
 * factors that depend on its indices becomes n - 1 pairwise blocks through temporaries, each a GEMM candidate for
 * substitute-microkernel. Cost = Σ over the blocks of the product of their extents (each point is one multiply-add).
 * The best order depends on sizes known only at call time, so path-candidates.ts picks a few candidate paths that
 * between them come near the optimum at any sizes; with more than one, the kernel gets a SizeChoice and each call
 * runs the candidate whose cost polynomial is least at its sizes (`if (s0_path == k) { ... }`). `O[e, f] +=!
 * X[e, a] * Y[a, b] * Z[b, f]` costs E·A·B·F; its candidates (X·Y)·Z, costing E·A·B + E·B·F, and X·(Y·Z), costing
 * A·B·F + E·A·F, are 32× less at 64. Whether to split at all is judged with every size symbol at REPRESENTATIVE_SIZE:
 * only when the best path does fewer flops (2 per pairwise point) than the one nest (n per point: n - 1 multiplies
 * and the add); a pairwise step also runs as a GEMM, many times faster per flop than a loop nest of n factors.
 *
 * Exact algebra: a sum of products reassociates, so only '+=' qualifies (a max of products does not factor), and an
 * index is summed inside a pair only when no other factor and not the output holds it. Floating-point sums round
 * differently, as in any reordered reduction. Out-of-range reads stay excluded: a block with constraints (a `where`
 * clause, or the guards ir/build adds for padded reads) or a read not provably inside its tensor is left alone, since
 * a temporary would sum points the guard skips. Factors free of the block's indices (constants, sizes, rank-0
 * tensors) ride along with the last product. Every decision is logged (POLYKERN_DEBUG=path).
 * Candidates share code where their paths agree: a product of the same factors is one temporary, and a step that
 * multiplies the same two products is one block, under a flag of the SizeChoice naming the candidates that take it
 * (a five-factor product's 24 candidates take 96 steps, written as 32 blocks: its AVX-512 C went from 535 to 224 KB).
 * Needs: block form from ir/build (one store per block). Leaves: block form; each new `temp` is reset by a Fill just
 * before each block that writes it; the first candidate's last block keeps the original id and store, its others
 * are `<id>.1`, `<id>.2`, ...; blocks candidate k > 0 takes first are `<id>.p<k>` and `<id>.p<k>.1`, .... The
 * output's reset (`+=!`), when it comes just before the block, moves to just before each block that writes it.
 */
import { provablyInRange, type Ranges } from '../analysis/bounds.ts'
import { add, coeffOf, constant, evaluate, variable } from '../ir/affine.ts'
import { identityOf } from '../spec/build-ir.ts'
import type { Access, Block, Constraint, DType, Expr, Fill, If, Kernel, Monomial, SharedFlag, SizeChoice, Stmt, Store, Tensor } from '../ir/nodes.ts'
import { printPolynomial, productOf, sumOf } from '../ir/polynomial.ts'
import { printConstraint, printExpr, printStmts } from '../ir/print.ts'
import { freshName, takenNames } from '../ir/names.ts'
import { loadsOf, walkExpr, withBody } from '../ir/walk.ts'
import type { PairContraction } from './greedy-path.ts'
import { flattenProduct, isScaledProduct } from './match-contraction.ts'
import { candidateTrees, stepsOf, type PathProblem } from './path-candidates.ts'

/** The value every size symbol takes when deciding whether to split, and for the costs logs and explain print. */
export const REPRESENTATIVE_SIZE = 64

/** One pairwise block of a chosen path, printed for logs and `polykern explain`. */
export interface PathStep {
  readonly block: string
  /** `s0_t1[e, b] += X[e, a] * Y[a, b]` */
  readonly statement: string
  readonly summed: readonly string[]
  /** Multiply-adds at representative sizes. */
  readonly cost: number
}

/** One candidate path: its blocks and the multiply-adds a call with given sizes costs, as a polynomial. */
export interface PathCandidate {
  /** `E·A·B + E·B·F` */
  readonly cost: string
  readonly steps: readonly PathStep[]
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
  /** The path at representative sizes (also when it did not gain enough). */
  readonly steps: readonly PathStep[]
  /** Every candidate, `steps`' first; a call runs the one whose cost is least at its sizes (`choice` picks). */
  readonly candidates: readonly PathCandidate[]
  /** The size symbol naming the candidate a call runs, when there are several. */
  readonly choice?: string
}

export interface ContractionPathOptions {
  readonly log?: (message: string) => void
}

export function contractionPath(kernel: Kernel, opts: ContractionPathOptions = {}): Kernel {
  const plans = planKernel(kernel)
  for (const p of plans) opts.log?.(`${kernel.name} ${p.decision.block}: ${describe(p.decision)}`)
  const chosen = new Map(plans.flatMap((p) => (p.rewrite ? [[p.decision.block, p.rewrite] as const] : [])))
  if (chosen.size === 0) return kernel
  // The output's `!` reset moves down to just before each path's last block, where a GEMM that overwrites its output
  // (c-gemm.ts overwritingGemms) makes it free; legal when no factor reads the output.
  const resets = (fill: Stmt | undefined, next: Stmt | undefined): fill is Fill =>
    fill?.kind === 'fill' && next?.kind === 'block' && chosen.has(next.id) && next.body[0].kind === 'store' &&
    next.body[0].access.tensor === fill.tensor && !loadsOf(next.body[0].value).some((l) => l.access.tensor === fill.tensor)
  const body = kernel.body.flatMap((s, n): readonly Stmt[] => {
    if (resets(s, kernel.body[n + 1])) return []
    const stmts = s.kind === 'block' ? chosen.get(s.id)?.stmts : undefined
    if (!stmts) return [s]
    const fill = kernel.body[n - 1]
    if (!resets(fill, s)) return stmts
    // Before every block that writes the output (each candidate's last), a node of its own: the emitters judge each
    // fill by identity, and one candidate's GEMM may make it redundant where another's loops add to it.
    const withReset = (list: readonly Stmt[]): Stmt[] => list.flatMap((x): Stmt[] =>
      x.kind === 'if' ? [withBody(x, withReset(x.body))] : x.kind === 'block' && writes(x, fill.tensor) ? [{ ...fill }, x] : [x])
    return withReset(stmts)
  })
  const temps = [...chosen.values()].flatMap((r) => r.temps)
  const choices = [...chosen.values()].flatMap((r) => (r.choice ? [r.choice] : []))
  return {
    ...kernel,
    tensors: [...kernel.tensors, ...temps],
    ...(choices.length > 0 ? { choices: [...(kernel.choices ?? []), ...choices] } : {}),
    body,
  }
}

/** The decision for every candidate block (a product of three or more factors), in kernel order. */
export const planContractionPaths = (kernel: Kernel): PathDecision[] => planKernel(kernel).map((p) => p.decision)

/** One line: the verdict, the costs and the path. */
function describe(d: PathDecision): string {
  const costs = d.costBefore === undefined
    ? ''
    : ` (${d.costBefore} → ${d.costAfter} multiply-adds at size ${REPRESENTATIVE_SIZE})`
  const path = d.steps.map((s) => `${s.block}: ${s.statement}`).join('; ')
  const others = d.candidates.slice(1).map((c) => `${c.steps.at(-1)!.block} costing ${c.cost}`)
  const choice = others.length > 0 ? `; ${d.choice} picks it (costing ${d.candidates[0].cost}) or ${others.join(' or ')}` : ''
  return `${d.factorized ? 'factorized' : 'kept'}: ${d.reason}${costs}${path ? `; path ${path}` : ''}${choice}`
}

interface Plan {
  readonly decision: PathDecision
  readonly rewrite?: { readonly temps: readonly Tensor[]; readonly stmts: readonly Stmt[]; readonly choice?: SizeChoice }
}

function planKernel(kernel: Kernel): Plan[] {
  const taken = takenNames(kernel)
  const sizes = new Map(kernel.sizes.map((s) => [s, REPRESENTATIVE_SIZE]))
  const plans: Plan[] = []
  for (const s of kernel.body) {
    if (s.kind !== 'block') continue
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
  const base = { block: b.id, factors: leaves.map(printExpr), steps: [], candidates: [] }
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
  if (isScaledProduct(b)) return keep('the factors beyond two each scale one of them: packed with it into one contraction')
  const output = order.filter((v) => accessUses(store.access, v))
  const orphan = order.find((v) => !output.includes(v) && !factors.some((f) => indicesOf(f).includes(v)))
  if (orphan) return keep(`index ${orphan} is in no factor and not in the output, so its multiplicity would be lost`)

  const extent = (v: string) => Math.max(1, evaluate(ranges.get(v)!, sizes))
  const symbols = kernel.sizes.filter((s) => b.indices.some((ix) => coeffOf(ix.extent, s) !== 0))
  const problem: PathProblem = {
    operands: factors.map(indicesOf), output, order, extents: ranges, sizes: symbols, representative: REPRESENTATIVE_SIZE,
  }
  const paths = candidateTrees(problem).map((t) => stepsOf(t, problem, extent))
  const costBefore = order.reduce((n, v) => n * extent(v), 1)
  const costAfter = paths[0].reduce((n, s) => n + s.cost, 0)
  const rewrite = rewritePaths(b, store, factors, rideAlong, paths, taken)
  const candidates = rewrite.blocks.map((blocks, k): PathCandidate & { poly: Monomial[] } => {
    const poly = sumOf(paths[k].map((s) => productOf(s.indices.map((v) => ranges.get(v)!))))
    const steps = blocks.map((blk, n): PathStep => ({
      block: blk.id, statement: printStmts(blk.body).trim(), summed: paths[k][n].summed, cost: paths[k][n].cost,
    }))
    return { cost: printPolynomial(poly), steps, poly }
  })
  const choice = candidates.length > 1 ? freshName(`${b.id}_path`, taken) : undefined
  const decision = {
    ...base, costBefore, costAfter, steps: candidates[0].steps,
    candidates: candidates.map(({ cost, steps }) => ({ cost, steps })), ...(choice ? { choice } : {}),
  }
  const ratio = `${gainOf(costBefore, costAfter)} fewer multiply-adds`
  if (2 * costAfter >= factors.length * costBefore) {
    const flops = `${2 * costAfter} flops against ${factors.length * costBefore} in one nest`
    return { decision: { ...decision, factorized: false, reason: `the best path does no fewer flops: ${flops}` } }
  }
  const temps = rewrite.tensors
  const reason = `${factors.length} factors, ${ratio}${choice ? `; ${candidates.length} candidate paths, chosen per call` : ''}`
  if (!choice) return { decision: { ...decision, factorized: true, reason }, rewrite: { temps, stmts: rewrite.steps.flatMap((s) => s.stmts) } }
  const { stmts, shared } = guarded(rewrite.steps, choice, taken)
  const sizeChoice: SizeChoice = {
    name: choice, costs: candidates.map((c) => c.poly), temps: rewrite.temps, ...(shared.length > 0 ? { shared } : {}),
  }
  return { decision: { ...decision, factorized: true, reason }, rewrite: { temps, stmts, choice: sizeChoice } }
}

/** The statements candidate `k` of the SizeChoice `choice` runs, under `if (choice == k)`. */
export const candidateIf = (choice: string, k: number, body: readonly Stmt[]): If => ({ kind: 'if', conds: [isValue(choice, k)], body })

/** `name == value`. */
const isValue = (name: string, value: number): Constraint => ({ expr: add(variable(name), constant(-value)), op: '==' })

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

/** One pairwise step of one or more candidates: its statements (a temporary's Fill and block, or the last block). */
interface SharedStep {
  readonly stmts: readonly Stmt[]
  /** The candidates whose paths take this step, ascending. */
  readonly users: number[]
}

/**
 * The paths as IR: per step, a temp, its Fill and its block, but the last step stores into the original output.
 * Steps that multiply the same two products (of the same factors) are one step whoever takes them, and the product
 * of the same factors is one temporary (its indices depend on the factors alone), so candidates that share part of
 * their paths share its code. A step comes after every step that writes a temporary it reads, in any candidate (one
 * temporary may have several writers: (X·Y)·Z and X·(Y·Z)); among those free to go next, the one taken first.
 */
function rewritePaths(
  b: Block, store: Store, factors: readonly Expr[], rideAlong: readonly Expr[],
  paths: readonly (readonly PairContraction[])[], taken: Set<string>,
) {
  const dtype = store.value.type as DType
  const range = new Map(b.indices.map((ix) => [ix.name, ix]))
  const times = (x: Expr, y: Expr): Expr => ({ kind: 'binary', op: 'mul', a: x, b: y, type: dtype })
  // By bit mask of the factors they multiply.
  const products = new Map<number, Tensor>()
  const steps = new Map<string, SharedStep & { readonly block: Block; readonly after: Set<SharedStep> }>()
  const tensors: Tensor[] = []
  const blocks = paths.map(() => [] as Block[])
  const temps = paths.map(() => [] as string[])
  paths.forEach((path, candidate) => {
    const tag = candidate === 0 ? '' : `.p${candidate}`
    let live = factors.map((expr, k) => ({ expr, mask: 1 << k }))
    const writer = new Map<number, SharedStep>()
    path.forEach((step, n) => {
      const [x, y] = [live[step.pair[0]], live[step.pair[1]]]
      const mask = x.mask | y.mask
      const last = n === path.length - 1
      if (!last && !products.has(mask)) {
        const name = freshName(`${b.id}${tag.replace('.', '_')}_t${n + 1}`, taken)
        products.set(mask, { name, dtype, shape: step.keep.map((v) => range.get(v)!.extent), role: 'temp', span: b.span })
        tensors.push(products.get(mask)!)
      }
      const temp = products.get(mask)
      const access = temp && { tensor: temp.name, index: step.keep.map((v) => variable(v)) }
      const key = [x.mask, y.mask].sort((p, q) => p - q).join('·')
      if (!steps.has(key)) {
        const blockOf = (id: string, s: Store): Block => ({
          ...b, id, indices: step.indices.map((v) => range.get(v)!), body: [s], tags: step.summed.length > 0 ? ['reduction'] : [],
        })
        const block = access
          ? blockOf(`${b.id}${tag}.${n + 1}`, { kind: 'store', access, op: '+=', value: times(x.expr, y.expr), span: store.span })
          : blockOf(`${b.id}${tag}`, { ...store, value: rideAlong.reduce(times, times(x.expr, y.expr)) })
        const stmts = temp ? [{ kind: 'fill', tensor: temp.name, value: identityOf('+=', dtype) } as const, block] : [block]
        steps.set(key, { stmts, users: [], block, after: new Set() })
      }
      const shared = steps.get(key)!
      shared.users.push(candidate)
      for (const read of [x.mask, y.mask]) if (writer.has(read)) shared.after.add(writer.get(read)!)
      writer.set(mask, shared)
      blocks[candidate].push(shared.block)
      if (temp) temps[candidate].push(temp.name)
      const rest = live.filter((_, k) => k !== step.pair[0] && k !== step.pair[1])
      live = access ? [...rest, { expr: { kind: 'load', access, type: dtype, zeroOutside: false }, mask }] : rest
    })
  })
  const pending = [...steps.values()]
  const ordered: SharedStep[] = []
  while (pending.length > 0) {
    const next = pending.findIndex((st) => [...st.after].every((w) => ordered.includes(w)))
    ordered.push(...pending.splice(next, 1))
  }
  return { tensors, blocks, temps, steps: ordered }
}

/**
 * The steps under their guards: `if (choice == k)` for a step of candidate k alone, `if (flag == 1)` for one that
 * several take (one flag per set of candidates); consecutive steps under the same guard share one if.
 */
function guarded(steps: readonly SharedStep[], choice: string, taken: Set<string>) {
  const flags = new Map<string, SharedFlag>()
  const guardOf = (users: readonly number[]): Constraint => {
    if (users.length === 1) return isValue(choice, users[0])
    const key = users.join(',')
    if (!flags.has(key)) flags.set(key, { name: freshName(`${choice}_shared`, taken), candidates: users })
    return isValue(flags.get(key)!.name, 1)
  }
  const stmts: If[] = []
  for (const step of steps) {
    const guard = guardOf(step.users)
    const previous = stmts.at(-1)
    const same = previous && printConstraint(previous.conds[0]) === printConstraint(guard)
    if (same) stmts[stmts.length - 1] = withBody(previous, [...previous.body, ...step.stmts])
    else stmts.push({ kind: 'if', conds: [guard], body: step.stmts })
  }
  return { stmts, shared: [...flags.values()] }
}

const writes = (b: Block, tensor: string): boolean => b.body.some((s) => s.kind === 'store' && s.access.tensor === tensor)
