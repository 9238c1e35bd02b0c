/**
 * The candidate contraction paths of a product whose sizes are known only at call time (issue 14). Which pairwise
 * order is cheapest depends on the sizes: `A[i,j] B[j,k] C[k,l]` wants (A·B)·C when i is small and A·(B·C) when l is.
 * So the build samples the sizes (every size symbol at 1, 64 and 4096 together, and log-uniform random points in
 * [1, 4096]), finds the optimal path at each sample (dynamic programming over subsets of the factors, opt_einsum's
 * `optimal`, exact up to MAX_EXACT_FACTORS), and keeps a few paths that together come within COVER of the optimum
 * at every sample (greedy set cover, starting from the optimum at REPRESENTATIVE sizes). Each call then runs the
 * candidate whose cost polynomial is least at its sizes (nodes.ts SizeChoice).
 * Cost = multiply-adds: Σ over the pairwise steps of the product of their domain's extents, as in greedy-path.ts.
 * Beyond MAX_EXACT_FACTORS factors (or 30 indices) the only candidate is greedy's path at representative sizes.
 */
import { evaluate } from '../ir/affine.ts'
import type { Affine } from '../ir/nodes.ts'
import { greedyPath, type PairContraction } from './greedy-path.ts'

/** A contraction tree: a leaf is a factor's position, a node the pairwise product of its two subtrees. */
export type PathTree = number | readonly [PathTree, PathTree]

/** A candidate stays only if it is the best within this factor at some sample no earlier candidate covers. */
export const COVER = 1.05
/** At most this many candidates per product: each is compiled (GEMM calls per ISA) into the kernel. */
export const MAX_CANDIDATES = 24
/** Exact search costs 3^n per sample: beyond this many factors, greedy alone. */
export const MAX_EXACT_FACTORS = 8
const CORNER_VALUES = [1, 64, 4096]
const MAX_CORNERS = 729
const RANDOM_SAMPLES = 2000

export interface PathProblem {
  /** Each factor's indices. */
  readonly operands: readonly (readonly string[])[]
  readonly output: readonly string[]
  /** Every index once; fixes the order of the index lists of the steps. */
  readonly order: readonly string[]
  readonly extents: ReadonlyMap<string, Affine>
  /** The size symbols the extents use. */
  readonly sizes: readonly string[]
  readonly representative: number
}

/** The candidate trees, the first optimal at representative sizes; distinct, at most MAX_CANDIDATES. */
export function candidateTrees(p: PathProblem): PathTree[] {
  const first = new Map(p.sizes.map((s) => [s, p.representative]))
  // Index sets are bit masks of 30 bits (int32, never negative).
  if (p.operands.length > MAX_EXACT_FACTORS || p.order.length > 30) {
    return [treeOf(greedyPath(p.operands, p.output, p.order, extentAt(p, first)), p.operands.length)]
  }
  const masks = subsetMasks(p)
  const samples = [first, ...samplesOf(p.sizes)].map((s) => p.order.map(extentAt(p, s)))
  const optima = samples.map((extents) => optimalTree(masks, extents))
  const trees = new Map<string, { tree: PathTree; domains: number[] }>()
  for (const o of optima) trees.set(keyOf(o.tree), { tree: o.tree, domains: domainsOf(o.tree, masks) })
  // Each tree's cost over the optimum, per sample.
  const excess = new Map([...trees].map(([k, t]) => [k, samples.map((e, n) => pathCost(t.domains, e) / optima[n].cost)]))
  const chosen = [keyOf(optima[0].tree)]
  let uncovered = samples.map((_, n) => n).filter((n) => excess.get(chosen[0])![n] > COVER)
  while (uncovered.length > 0 && chosen.length < MAX_CANDIDATES) {
    let best = { key: '', covers: 0 }
    for (const [key, over] of excess) {
      const covers = uncovered.filter((n) => over[n] <= COVER).length
      if (covers > best.covers) best = { key, covers }
    }
    chosen.push(best.key)
    uncovered = uncovered.filter((n) => excess.get(best.key)![n] > COVER)
  }
  return chosen.map((k) => trees.get(k)!.tree)
}

/** The tree as greedy-path's steps: each node after its subtrees, left first; results join the end of the list. */
export function stepsOf(tree: PathTree, p: PathProblem, extent: (index: string) => number): PairContraction[] {
  const n = p.operands.length
  const leaves = (t: PathTree): number[] => (typeof t === 'number' ? [t] : [...leaves(t[0]), ...leaves(t[1])])
  const indicesOf = new Map<PathTree, ReadonlySet<string>>(p.operands.map((o, k) => [k, new Set(o)]))
  let live: PathTree[] = [...Array(n).keys()]
  const steps: PairContraction[] = []
  const inOrder = (set: ReadonlySet<string>) => p.order.filter((v) => set.has(v))
  const visit = (t: PathTree): void => {
    if (typeof t === 'number') return
    visit(t[0])
    visit(t[1])
    const inside = new Set(leaves(t))
    const needed = new Set([...p.output, ...p.operands.flatMap((o, k) => (inside.has(k) ? [] : o))])
    const root = inside.size === n
    const domain = new Set([...indicesOf.get(t[0])!, ...indicesOf.get(t[1])!, ...(root ? p.output : [])])
    const keep = new Set([...domain].filter((v) => needed.has(v)))
    const pair = [live.indexOf(t[0]), live.indexOf(t[1])].sort((a, b) => a - b) as [number, number]
    const cost = [...domain].reduce((c, v) => c * extent(v), 1)
    steps.push({ pair, indices: inOrder(domain), keep: inOrder(keep), summed: inOrder(new Set([...domain].filter((v) => !keep.has(v)))), cost })
    indicesOf.set(t, keep)
    live = [...live.filter((_, k) => k !== pair[0] && k !== pair[1]), t]
  }
  visit(tree)
  return steps
}

const extentAt = (p: PathProblem, sizes: ReadonlyMap<string, number>) => (v: string) =>
  Math.max(1, evaluate(p.extents.get(v)!, sizes))

/** Per subset of the factors (bit mask), the indices of its product: those it shares with the other factors or
 * the output; a single factor keeps all of its own, the whole set the output's. */
interface Masks {
  readonly keep: Int32Array
  readonly output: number
  readonly full: number
}

function subsetMasks(p: PathProblem): Masks {
  const bit = (v: string) => 1 << p.order.indexOf(v)
  const mask = (list: readonly string[]) => list.reduce((m, v) => m | bit(v), 0)
  const operands = p.operands.map(mask)
  const output = mask(p.output)
  const full = (1 << operands.length) - 1
  const keep = new Int32Array(full + 1)
  for (let s = 1; s <= full; s++) {
    let [inside, outside] = [0, output]
    operands.forEach((o, k) => ((s >> k) & 1 ? (inside |= o) : (outside |= o)))
    keep[s] = s === full ? output : (s & (s - 1)) === 0 ? inside : inside & outside
  }
  return { keep, output, full }
}

function product(mask: number, extents: readonly number[]): number {
  let n = 1
  for (let v = 0; mask >> v; v++) if ((mask >> v) & 1) n *= extents[v]
  return n
}

/** The domain of the step joining subsets a and b. */
const domainOf = (a: number, b: number, m: Masks) => m.keep[a] | m.keep[b] | ((a | b) === m.full ? m.output : 0)

/** The optimal tree and its cost: dynamic programming over subsets of the factors, every split of every subset. */
function optimalTree(m: Masks, extents: readonly number[]): { tree: PathTree; cost: number } {
  const best = new Float64Array(m.full + 1).fill(Infinity)
  const split = new Int32Array(m.full + 1)
  for (let s = 1; s <= m.full; s++) {
    if ((s & (s - 1)) === 0) {
      best[s] = 0
      continue
    }
    const low = s & -s
    // Subsets a of s holding its lowest factor, b the rest: each unordered split once.
    for (let a = (s - 1) & s; a > 0; a = (a - 1) & s) {
      if (!(a & low)) continue
      const b = s ^ a
      const cost = best[a] + best[b] + product(domainOf(a, b, m), extents)
      if (cost < best[s]) (best[s] = cost), (split[s] = a)
    }
  }
  const build = (s: number): PathTree => ((s & (s - 1)) === 0 ? Math.log2(s) : [build(split[s]), build(s ^ split[s])])
  return { tree: build(m.full), cost: best[m.full] }
}

/** The domains of a tree's steps, as index masks. */
function domainsOf(t: PathTree, m: Masks): number[] {
  const out: number[] = []
  const walk = (x: PathTree): number => {
    if (typeof x === 'number') return 1 << x
    const [a, b] = [walk(x[0]), walk(x[1])]
    out.push(domainOf(a, b, m))
    return a | b
  }
  walk(t)
  return out
}

const pathCost = (domains: readonly number[], extents: readonly number[]) => domains.reduce((c, d) => c + product(d, extents), 0)

/** A tree's identity up to the order of each node's children. */
function keyOf(t: PathTree): string {
  if (typeof t === 'number') return String(t)
  const [a, b] = [keyOf(t[0]), keyOf(t[1])]
  return a < b ? `(${a},${b})` : `(${b},${a})`
}

/** The tree of greedy-path's steps. */
function treeOf(steps: readonly PairContraction[], n: number): PathTree {
  let live: PathTree[] = [...Array(n).keys()]
  for (const s of steps) live = [...live.filter((_, k) => k !== s.pair[0] && k !== s.pair[1]), [live[s.pair[0]], live[s.pair[1]]]]
  return live[0]
}

/** Every corner of {1, 64, 4096}^sizes when there are few enough, then seeded log-uniform points in [1, 4096]. */
function samplesOf(sizes: readonly string[]): Map<string, number>[] {
  const out: Map<string, number>[] = []
  const values = CORNER_VALUES.length ** sizes.length <= MAX_CORNERS ? CORNER_VALUES : [CORNER_VALUES[0], CORNER_VALUES.at(-1)!]
  if (values.length ** sizes.length <= MAX_CORNERS) {
    for (let c = 0; c < values.length ** sizes.length; c++) {
      out.push(new Map(sizes.map((s, k) => [s, values[Math.floor(c / values.length ** k) % values.length]])))
    }
  }
  let seed = 0x9e3779b9
  const random = () => {
    // mulberry32: the same samples, so the same candidates, on every build.
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  for (let k = 0; k < RANDOM_SAMPLES; k++) out.push(new Map(sizes.map((s) => [s, Math.round(4096 ** random())])))
  return out
}
