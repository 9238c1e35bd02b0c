/**
 * Gives each index of a statement its range [0, extent): from the tensor dimensions it indexes alone (which must
 * agree), else from a `where` upper bound in sizes only, which is then consumed.
 */
import type { Span } from '../diagnostics.ts'
import { add, coeffOf, constant, equal, format, variable, varsOf } from '../ir/affine.ts'
import type { Access, Affine } from '../ir/nodes.ts'
import { specShapeConflict, specUnboundedIndex } from '../messages.ts'
import type { RangeSource } from '../messages.ts'
import type { CheckedConstraint, CheckedIndex } from './checked.ts'
import type { SpecScope } from './scope.ts'

/** A resolved tensor access with the span of each index expression, target included. */
export interface AccessSite {
  readonly access: Access
  readonly indexSpans: readonly Span[]
}

export interface InferredRanges {
  readonly indices: readonly CheckedIndex[]
  /** The `where` constraints that did not become a range. */
  readonly where: readonly CheckedConstraint[]
}

/** `firstUse` maps each index to its first occurrence in the statement: where an unbounded index is reported. */
export function inferRanges(
  firstUse: ReadonlyMap<string, Span>,
  accesses: readonly AccessSite[],
  where: readonly CheckedConstraint[],
  scope: SpecScope,
): InferredRanges {
  let remaining = where
  const indices = [...firstUse].map(([name, use]): CheckedIndex => {
    const fromShapes = shapeRange(name, accesses, scope)
    if (fromShapes) return fromShapes
    for (const c of remaining) {
      const extent = upperBound(c, name, scope)
      if (!extent) continue
      remaining = remaining.filter((other) => other !== c)
      return { name, extent, origin: c.span }
    }
    throw specUnboundedIndex(use, name, scope.kernel)
  })
  return { indices, where: remaining }
}

/** The extent every dimension indexed by `name` alone agrees on, or undefined when there is none. */
function shapeRange(name: string, accesses: readonly AccessSite[], scope: SpecScope): CheckedIndex | undefined {
  const alone = variable(name)
  let first: (RangeSource & { readonly affine: Affine }) | undefined
  for (const { access, indexSpans } of accesses) {
    const shape = scope.tensors.get(access.tensor)?.shape ?? []
    for (let dim = 0; dim < access.index.length; dim++) {
      if (!equal(access.index[dim], alone)) continue
      const affine = shape[dim]
      const source = { tensor: access.tensor, dim, extent: format(affine), span: indexSpans[dim], affine }
      if (!first) first = source
      else if (!equal(first.affine, source.affine)) throw specShapeConflict(name, first, source, scope.kernel)
    }
  }
  return first && { name, extent: first.affine, origin: first.span }
}

/** `E - name - 1 >= 0` (from `name < E` or `name <= E - 1`) with E in sizes only gives the extent E. */
function upperBound(c: CheckedConstraint, name: string, scope: SpecScope): Affine | undefined {
  if (c.op !== '>=' || coeffOf(c.expr, name) !== -1) return undefined
  if (!varsOf(c.expr).every((v) => v === name || scope.sizes.has(v))) return undefined
  return add(c.expr, add(variable(name), constant(1)))
}
