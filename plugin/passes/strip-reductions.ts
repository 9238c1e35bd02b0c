/**
 * A sum over a whole tensor into a few elements (a dot product, a squared norm, a loss: `s +=! x[i] * y[i]`) is one
 * vector loop at the top of the kernel, which no thread partition reaches: its stores do not move with its index.
 * Strip-mined here, `for i_strip parallel { for i in STRIP_POINTS points of it vector { ... } }`, it is a reduction
 * loop the emitter splits between the threads (emit/c-split-reduction.ts), each strip ending in its lanes' sum. One
 * thread runs the strips in order.
 * Needs: lowered IR, after vectorize. Leaves: the strip loop parallel around the vector loop.
 */
import { add, coeffOf, constant, sub, variable } from '../ir/affine.ts'
import type { Affine, Kernel, Loop } from '../ir/nodes.ts'
import { freshName, takenNames } from '../ir/names.ts'
import { mapStmts } from '../ir/walk.ts'

/** Points per strip: a strip's lanes are summed once at its end, so long strips cost nothing, and there are many. */
export const STRIP_POINTS = 4096

export function stripReductions(kernel: Kernel): Kernel {
  const taken = takenNames(kernel)
  // Outermost loops only (the handler does not recurse), and none inside a contraction's or convolution's own nest.
  const body = mapStmts(kernel.body, {
    loop: (l) => {
      const bounds = reducingBounds(l)
      return bounds ? strips(l, bounds, freshName(`${l.v}_strip`, taken)) : l
    },
    contraction: (c) => c,
    convolution: (c) => c,
  })
  return body === kernel.body ? kernel : { ...kernel, body }
}

/** The bounds of a vector loop whose stores all reduce into elements it does not move, when they need no other loop. */
function reducingBounds(l: Loop): { readonly lo: Affine; readonly hi: Affine } | undefined {
  if (l.mode !== 'vector' || l.lo.kind !== 'affine' || l.hi.kind !== 'affine') return undefined
  const across = l.body.every((s) => s.kind === 'store' && s.op !== '=' && s.access.index.every((e) => coeffOf(e, l.v) === 0))
  return across ? { lo: l.lo.a, hi: l.hi.a } : undefined
}

function strips(l: Loop, bounds: { readonly lo: Affine; readonly hi: Affine }, strip: string): Loop {
  const start = add(bounds.lo, variable(strip, STRIP_POINTS))
  const points: Loop = { ...l, lo: { kind: 'affine', a: start }, hi: { kind: 'min', args: [l.hi, { kind: 'affine', a: add(start, constant(STRIP_POINTS)) }] } }
  return {
    kind: 'loop', v: strip, lo: { kind: 'affine', a: constant(0) }, mode: 'parallel', body: [points],
    hi: { kind: 'ceildiv', arg: { kind: 'affine', a: sub(bounds.hi, bounds.lo) }, by: STRIP_POINTS },
  }
}
