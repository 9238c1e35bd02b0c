/**
 * Picks each block's loop order from its access maps: the index that walks the most memory contiguously goes
 * innermost. An index scores, for every access it appears in, a weight that falls with the distance of its
 * dimension from the last (contiguous) one, scaled by the tensor's rank so large tensors dominate small ones.
 * Legal for any order: a block's points are independent but for the reduction of its stores (Stripe's rule).
 * A stand-in until the working-set ranking of the contraction work replaces it.
 */
import { coeffOf, isConstant, varsOf } from '../ir/affine.ts'
import type { Access, Block, IndexRange, Kernel } from '../ir/nodes.ts'
import { loadsOf, mapStmts, withBody } from '../ir/walk.ts'

const DIM_WEIGHT = [1000, 30, 1]
/** Extents below this many iterations count as short (a 512-bit vector of f32 has 16 lanes). */
const SHORT_EXTENT = 16
/** The most points (product of constant extents) of a reduction the contiguous stored index may run around. */
const SHORT_REDUCTION = 64

export function reorder(kernel: Kernel): Kernel {
  const body = mapStmts(kernel.body, { block: (b, recurse) => reorderBlock(withBody(b, recurse(b.body))) })
  return body === kernel.body ? kernel : { ...kernel, body }
}

function reorderBlock(b: Block): Block {
  const accesses: Access[] = []
  for (const s of b.body) if (s.kind === 'store') accesses.push(s.access, ...loadsOf(s.value).map((l) => l.access))
  const short = (name: string) => {
    const extent = b.indices.find((ix) => ix.name === name)!.extent
    return isConstant(extent) && extent.constant < SHORT_EXTENT ? extent.constant / SHORT_EXTENT : 1
  }
  const score = new Map(b.indices.map((ix) => [ix.name, 0]))
  for (const a of accesses) {
    a.index.forEach((expr, d) => {
      const fromLast = a.index.length - 1 - d
      const weight = (DIM_WEIGHT[fromLast] ?? 0) * a.index.length
      for (const ix of b.indices) {
        if (coeffOf(expr, ix.name) === 0) continue
        score.set(ix.name, score.get(ix.name)! + (fromLast === 0 ? weight * short(ix.name) : weight))
      }
    })
  }
  // Stable: equal scores keep the spec's order (output indices first).
  const byScore = b.indices.map((ix, n) => ({ ix, n })).sort((x, y) => score.get(x.ix.name)! - score.get(y.ix.name)! || x.n - y.n).map((x) => x.ix)
  const indices = reductionsInside(byScore, b)
  return indices.every((ix, n) => ix === b.indices[n]) ? b : { ...b, indices }
}

/**
 * The order with every index the stores do not use (a reduction's) moved inside the ones they use: a reduction loop
 * outside a store loop re-walks, on each of its iterations, every stored element the loops inside it reach (a 3×3
 * depthwise convolution ordered r, p, s, q walks its whole output nine times); inside them, each stored element stays
 * in a register or L1 while it accumulates. The innermost index stays where contiguity put it, but for a stored one
 * over a short reduction (a filter's taps, at most SHORT_REDUCTION points of constant extents): it goes outside the
 * taps, where the vectorizer runs it as lanes whose sums stay in registers across them (passes/vectorize.ts). A long
 * reduction (a matmul's k) keeps the contiguous index inside, which plain loops (JS, scalar C) walk far better, and so
 * does a window sliding along it.
 */
function reductionsInside(order: readonly IndexRange[], b: Block): readonly IndexRange[] {
  const stored = new Set<string>()
  for (const s of b.body) if (s.kind === 'store') for (const e of s.access.index) for (const v of varsOf(e)) stored.add(v)
  const last = order[order.length - 1]
  if (last === undefined) return order
  const reductions = order.filter((ix) => !stored.has(ix.name))
  const points = reductions.reduce((n, ix) => (isConstant(ix.extent) ? n * ix.extent.constant : Infinity), 1)
  // A window along the contiguous index (a blur's x + c) bounds the taps by it at the edges: the lanes could not run
  // around them, so that index stays inside.
  const windowed = b.body.some((s) => s.kind === 'store' && loadsOf(s.value).some((l) => l.access.index.some((ix) =>
    coeffOf(ix, last.name) !== 0 && reductions.some((r) => coeffOf(ix, r.name) !== 0))))
  const around = stored.has(last.name) && reductions.length > 0 && points <= SHORT_REDUCTION && !windowed
  const outer = around ? order : order.slice(0, -1)
  return [...outer.filter((ix) => stored.has(ix.name)), ...outer.filter((ix) => !stored.has(ix.name)), ...(around ? [] : [last])]
}
