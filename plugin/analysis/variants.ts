/**
 * PolyDL's loop variant generator and poly-ranking for one contraction block: two-level tilings (`i:2` over
 * T2-tiles, `i:1` over T1-tiles inside them, then the point loops, which stay innermost and in the nest's order:
 * they are the microkernel), orders of the tile loops, and which outer tile loop runs in parallel (anywhere among
 * them, as PolyDL's GEMM runs `it2` or `jt2` in parallel). Each variant's working sets (Algorithm 1) are
 * assigned to the caches (Algorithm 2) and ranked by Eq. 1, cheapest first.
 *
 * Tile sizes: multiples of the register block that are powers of two or divide the extent, and the extent itself.
 * The product of all choices is far too many for 2048³, so the search runs in two stages: every size choice in the
 * canonical order (thinned until it fits the budget), then every order and parallel loop for the best sizes.
 */
import type { Machine } from '../targets/machine.ts'
import { assignCaches, type CacheAssignment } from './cache-assign.ts'
import { tileLoopName, tiledNest, type LoopNest, type Tiling } from './loop-nest.ts'
import { workingSets, type WorkingSetAnalysis } from './working-set.ts'

export interface VariantSpace {
  readonly machine: Machine
  /** Register block per loop (MR, NR, KR): inner tile sizes are multiples of it. Absent loops: 1. */
  readonly registerBlock?: ReadonlyMap<string, number>
  /** Loops whose iterations are independent (deps.ts `parallelIndices`): their outer tile loop may be parallel. */
  readonly parallelLoops: readonly string[]
  /** Threads for the parallel loop; 1 generates serial variants only. Default: the machine's cores. */
  readonly threads?: number
  /** At most this many variants are evaluated (PolyDL generated 4 to 1228 per GEMM). */
  readonly maxVariants?: number
}

export interface Variant {
  readonly tiling: Tiling & { readonly order: readonly string[] }
  readonly analysis: WorkingSetAnalysis
  readonly assignment: CacheAssignment
  /** Eq. 1: lower is better. */
  readonly cost: number
}

export const DEFAULT_MAX_VARIANTS = 1000

/** Working sets, cache assignment and cost of one tiling of the nest (the untiled nest: `sizes` empty). */
export function evaluateVariant(nest: LoopNest, tiling: Tiling, machine: Machine): Variant {
  const tiled = tiledNest(nest, tiling)
  const analysis = workingSets(tiled)
  const assignment = assignCaches(analysis.workingSets.map((w) => w.footprint.bytes), machine)
  return { tiling: { ...tiling, order: tiled.loops.map((l) => l.name) }, analysis, assignment, cost: assignment.cost }
}

/** Every evaluated variant, cheapest first (ties in generation order). */
export function rankVariants(nest: LoopNest, space: VariantSpace): readonly Variant[] {
  const threads = space.threads ?? space.machine.cores
  const budget = space.maxVariants ?? DEFAULT_MAX_VARIANTS
  const names = nest.loops.map((l) => l.name)
  const values = nest.loops.map((l) => sizeValues(l.extent, space.registerBlock?.get(l.name) ?? 1))
  // An outer tile loop may run in parallel when it has a tile for every thread. When some loop can, every variant
  // uses the threads: Eq. 1 prices memory traffic only, so it would otherwise favour serial variants.
  const tilesFor = (n: string, outerSize: number) => Math.ceil(extentOf(nest, n) / outerSize) >= threads
  const canRunParallel = (n: string, q: number) => space.parallelLoops.includes(n) && values[q].some((t) => tilesFor(n, t))
  const candidates = threads > 1 ? names.filter(canRunParallel) : []
  const parallelOf = (sizes: Tiling['sizes']) =>
    candidates.filter((n) => tilesFor(n, sizes.get(n)![0])).map((n) => tileLoopName(n, 2))
  // The canonical order first: outer tile loops, inner tile loops, point loops, each in the nest's order.
  function* orders(): Generator<readonly string[]> {
    for (const outer of permutations(names)) {
      const tiles = outer.map((n) => tileLoopName(n, 2))
      for (const inner of permutations(names)) yield [...tiles, ...inner.map((n) => tileLoopName(n, 1)), ...names]
    }
  }
  const canonical = orders().next().value!

  // Stage 1: every size choice (thinned to two thirds of the budget), canonical order, first parallel choice.
  const combos = () => values.reduce((n, v) => n * pairsOf(v).length, 1)
  while (combos() > (budget * 2) / 3 && thinOnce(values)) {
    /* thinning until it fits */
  }
  const sizeChoices = [...take(combinations(values.map(pairsOf)), budget)]
    .map((pairs) => new Map(names.map((n, q) => [n, pairs[q]])))
    .filter((sizes) => candidates.length === 0 || parallelOf(sizes).length > 0)
  const stage1 = sizeChoices
    .map((sizes) => evaluateVariant(nest, { sizes, order: canonical, parallel: parallelOf(sizes)[0] }, space.machine))
    .sort(byCost)

  // Stage 2: every order and parallel choice for the best sizes, with the rest of the budget (deep nests have
  // more orders than that: the first ones of the best sizes, then).
  const remaining = Math.max(0, budget - stage1.length)
  const perSizes = factorial(names.length) ** 2 * Math.max(1, candidates.length) - 1
  function* alternatives(): Generator<Tiling> {
    for (const best of stage1.slice(0, Math.max(1, Math.floor(remaining / perSizes)))) {
      const parallel: (string | undefined)[] = parallelOf(best.tiling.sizes)
      if (parallel.length === 0) parallel.push(undefined)
      let first = true
      for (const order of orders()) {
        for (const p of parallel) {
          if (!first || p !== best.tiling.parallel) yield { sizes: best.tiling.sizes, order, parallel: p }
        }
        first = false
      }
    }
  }
  const stage2 = [...take(alternatives(), remaining)].map((t) => evaluateVariant(nest, t, space.machine))
  return [...stage1, ...stage2].sort(byCost)
}

const extentOf = (nest: LoopNest, name: string): number => nest.loops.find((l) => l.name === name)!.extent

const byCost = (x: Variant, y: Variant): number => x.cost - y.cost

/** Multiples of the register block that are powers of two or divide the extent, below it; and the extent. */
function sizeValues(extent: number, block: number): number[] {
  const out = new Set<number>([extent])
  for (let t = block; t < extent; t *= 2) out.add(t)
  for (let t = block; t < extent; t += block) if (extent % t === 0) out.add(t)
  return [...out].sort((a, b) => a - b)
}

/** [T2, T1] pairs: T1 from the values, T2 a multiple of it (so tiles nest exactly) or the extent (the last value). */
function pairsOf(values: readonly number[]): number[][] {
  const extent = values[values.length - 1]
  return values.flatMap((t1) => values.filter((t2) => t2 >= t1 && (t2 % t1 === 0 || t2 === extent)).map((t2) => [t2, t1]))
}

/** Drops one inner value from the loop with the most: the one closest (in ratio) to its neighbours. */
function thinOnce(values: number[][]): boolean {
  const widest = values.reduce((w, v, n) => (v.length > values[w].length ? n : w), 0)
  const v = values[widest]
  if (v.length <= 2) return false
  let drop = 1
  for (let n = 2; n < v.length - 1; n++) if (v[n + 1] / v[n - 1] < v[drop + 1] / v[drop - 1]) drop = n
  v.splice(drop, 1)
  return true
}

function permutations<T>(xs: readonly T[]): T[][] {
  if (xs.length <= 1) return [[...xs]]
  return xs.flatMap((x, n) => permutations([...xs.slice(0, n), ...xs.slice(n + 1)]).map((rest) => [x, ...rest]))
}

function* take<T>(items: Iterable<T>, n: number): Generator<T> {
  if (n <= 0) return
  for (const item of items) {
    yield item
    if (--n === 0) return
  }
}

const factorial = (n: number): number => (n <= 1 ? 1 : n * factorial(n - 1))

function* combinations<T>(choices: readonly (readonly T[])[]): Generator<T[]> {
  if (choices.length === 0) return yield []
  for (const first of choices[0]) for (const rest of combinations(choices.slice(1))) yield [first, ...rest]
}
