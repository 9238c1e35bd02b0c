/** Brute-force references for the reuse analysis: every iteration visited, index tuples compared as strings. */
import { evaluate } from '../../plugin/ir/affine.ts'
import type { LoopNest } from '../../plugin/analysis/loop-nest.ts'
import type { Point } from '../../plugin/analysis/working-set.ts'

/** Every iteration of [from, to] in lexicographic order, by counting through the mixed radix of the extents. */
export function* iterationsBetween(extents: readonly number[], from: Point, to: Point): Generator<number[]> {
  const x = [...from]
  for (;;) {
    yield [...x]
    if (x.every((value, q) => value === to[q])) return
    let q = x.length - 1
    while (x[q] === extents[q] - 1) x[q--] = 0
    x[q]++
  }
}

/** Distinct elements per tensor that the nest's accesses touch over [from, to]. */
export function bruteFootprint(nest: LoopNest, from: Point, to: Point): Map<string, number> {
  const seen = new Map(nest.accesses.map((a) => [a.tensor, new Set<string>()]))
  for (const x of iterationsBetween(nest.loops.map((l) => l.extent), from, to)) {
    const env = new Map(nest.loops.map((l, q) => [l.name, x[q]]))
    for (const a of nest.accesses) seen.get(a.tensor)!.add(a.index.map((e) => evaluate(e, env)).join(','))
  }
  return new Map([...seen].map(([t, s]) => [t, s.size]))
}

export const lexLess = (x: Point, y: Point): boolean => {
  const q = x.findIndex((value, n) => value !== y[n])
  return q >= 0 && x[q] < y[q]
}
