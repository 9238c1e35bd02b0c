/**
 * Block → loop nest, in the block's index order. Each `>=` constraint becomes a bound of the innermost loop it
 * mentions when it can (`2*p + r - 1 >= 0` turns into `r >= 1 - 2*p`), so padded convolutions run guard-free
 * inner loops; the rest (`==`, constraints on sizes alone) become `If`s at the shallowest depth where all their
 * variables are bound. Bounds the box already implies are dropped.
 * Needs: blocks whose extents depend only on sizes (true for ir/build output). Leaves: no blocks.
 */
import { implied, type Ranges } from '../analysis/bounds.ts'
import { add, coeffOf, constant, scale, substitute } from '../ir/affine.ts'
import type { Affine, Block, Bound, Constraint, IndexRange, Kernel, Stmt } from '../ir/nodes.ts'
import { mapStmts } from '../ir/walk.ts'

export function lowerBlocks(kernel: Kernel, parallelIndex: (b: Block) => string | undefined = () => undefined): Kernel {
  const body = mapStmts(kernel.body, { block: (b, recurse) => lowerBlock(b, recurse(b.body), parallelIndex(b)) })
  return body === kernel.body ? kernel : { ...kernel, body }
}

interface LoopPlan {
  readonly index: IndexRange
  readonly lo: Bound[]
  readonly hi: Bound[]
  readonly guards: Constraint[]
}

/** The block's nest: one loop, or (a block without indices) its statements, each one once. */
function lowerBlock(b: Block, body: readonly Stmt[], parallel: string | undefined): Stmt | readonly Stmt[] {
  const ranges: Ranges = new Map(b.indices.map((ix) => [ix.name, ix.extent]))
  const plans: LoopPlan[] = b.indices.map((index) => ({ index, lo: [], hi: [], guards: [] }))
  const outerGuards: Constraint[] = []
  for (const c of b.constraints) {
    if (implied(c, ranges)) continue
    const depth = innermostDepth(c.expr, b.indices)
    if (depth < 0) outerGuards.push(c)
    else if (c.op === '>=') addBound(plans[depth], c.expr)
    else plans[depth].guards.push(c)
  }

  let nest: readonly Stmt[] = body
  for (let d = plans.length - 1; d >= 0; d--) {
    const p = plans[d]
    if (p.guards.length) nest = [{ kind: 'if', conds: p.guards, body: nest }]
    const zero: Bound = { kind: 'affine', a: constant(0) }
    const extent: Bound = { kind: 'affine', a: p.index.extent }
    nest = [{
      kind: 'loop',
      v: p.index.name,
      lo: p.lo.length ? { kind: 'max', args: [zero, ...p.lo] } : zero,
      hi: p.hi.length ? { kind: 'min', args: [extent, ...p.hi] } : extent,
      mode: p.index.name === parallel ? 'parallel' : 'serial',
      body: nest,
    }]
  }
  return outerGuards.length ? { kind: 'if', conds: outerGuards, body: nest } : nest
}

/** Depth of the innermost block index the form mentions, or -1 when it mentions none. */
function innermostDepth(a: Affine, indices: readonly IndexRange[]): number {
  for (let d = indices.length - 1; d >= 0; d--) if (coeffOf(a, indices[d].name) !== 0) return d
  return -1
}

/** `c·v + rest >= 0` → `v >= ceil(-rest / c)` for c > 0, `v < floor(rest / -c) + 1` for c < 0. */
function addBound(plan: LoopPlan, expr: Affine): void {
  const v = plan.index.name
  const c = coeffOf(expr, v)
  const rest = substitute(expr, v, constant(0))
  if (c > 0) {
    const lo = scale(rest, -1)
    plan.lo.push(c === 1 ? { kind: 'affine', a: lo } : { kind: 'ceildiv', arg: { kind: 'affine', a: lo }, by: c })
  } else {
    const hi = add(rest, constant(-c))
    plan.hi.push(c === -1 ? { kind: 'affine', a: hi } : { kind: 'floordiv', arg: { kind: 'affine', a: hi }, by: -c })
  }
}
