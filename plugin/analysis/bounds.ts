/**
 * Symbolic bounds of affine forms over a box of indices, each in [0, extent) with extents affine in the sizes.
 * Sizes are only known to be >= 0, so a fact is proved only when it holds for every size assignment.
 */
import { add, constant, isConstant, scale, sub } from '../ir/affine.ts'
import type { Affine, Bound, Constraint, Loop } from '../ir/nodes.ts'

/** Index name → extent; an index ranges over [0, extent). */
export type Ranges = ReadonlyMap<string, Affine>

/** The minimum of `a` over the box, as an affine form in the sizes (and in any variable not in `ranges`). */
export function minOver(a: Affine, ranges: Ranges): Affine {
  let out = constant(a.constant)
  for (const t of a.terms) {
    const extent = ranges.get(t.v)
    if (extent === undefined) out = add(out, { terms: [t], constant: 0 })
    else if (t.coeff < 0) out = add(out, scale(sub(extent, constant(1)), t.coeff))
  }
  return out
}

/** The maximum of `a` over the box (non-empty box assumed, as for any loop that runs). */
export const maxOver = (a: Affine, ranges: Ranges): Affine => scale(minOver(scale(a, -1), ranges), -1)

/** True when `a >= 0` for all sizes >= 0: every coefficient and the constant are non-negative. */
export const nonNegativeForAllSizes = (a: Affine): boolean => a.constant >= 0 && a.terms.every((t) => t.coeff >= 0)

/** True when the constraint holds at every point of the box, for every size assignment. */
export function implied(c: Constraint, ranges: Ranges): boolean {
  if (c.op === '>=') return nonNegativeForAllSizes(minOver(c.expr, ranges))
  return c.expr.terms.length === 0 && c.expr.constant === 0
}

/** `0 <= index <= extent - 1`, as the two constraints a guard needs. */
export function inRangeConstraints(index: Affine, extent: Affine): Constraint[] {
  return [
    { expr: index, op: '>=' },
    { expr: sub(sub(extent, index), constant(1)), op: '>=' },
  ]
}

/** True when `index` stays within [0, extent) over the whole box. */
export const provablyInRange = (index: Affine, extent: Affine, ranges: Ranges): boolean =>
  inRangeConstraints(index, extent).every((c) => implied(c, ranges))

/**
 * The most iterations `l` runs where its bounds cap them at a constant, whatever the values they read: `[s, s + n)`,
 * or `[s, min(.., s + n))` (a tile's points, tile-transposes.ts); else undefined.
 */
export function mostTrips(l: Loop): number | undefined {
  if (l.lo.kind !== 'affine') return undefined
  const lo = l.lo.a
  const span = (b: Bound): number | undefined => {
    const d = b.kind === 'affine' ? sub(b.a, lo) : undefined
    return d && isConstant(d) ? Math.max(0, d.constant) : undefined
  }
  const spans = l.hi.kind === 'min' ? l.hi.args.map(span) : [span(l.hi)]
  const known = spans.filter((n): n is number => n !== undefined)
  return known.length === 0 ? undefined : Math.min(...known)
}
