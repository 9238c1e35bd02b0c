/**
 * Marks loops the C emitter runs as SIMD lanes (Vyasa's explicit vector code instead of hoping GCC vectorizes: it
 * will not for float reductions without -ffast-math, nor around expf or a NaN-propagating max): serial loops that
 * keep the `vector` mode's contract (verify.ts: vectorLoopProblem). The outermost such loop of a nest wins: a loop
 * around the reduction loops of the elements it stores (a convolution's or a filter's taps) keeps each lane's sum in
 * a register across them (Vyasa's vectorization of convolutions along the output), where an inner tap loop would
 * run a few lanes and a horizontal sum per output. Parallel loops keep their threads. The emitter still prints a
 * marked loop serially for an ISA or a body it has no vector code for.
 * Needs: lowered IR. Leaves: the same loops, some with mode `vector`.
 */
import type { Kernel, Loop, Stmt } from '../ir/nodes.ts'
import { vectorLoopProblem } from '../ir/verify.ts'
import { mapStmts, withBody } from '../ir/walk.ts'

export function vectorize(kernel: Kernel): Kernel {
  const body = mapStmts(kernel.body, {
    loop: (loop, recurse) => {
      const inner = withBody(loop, recurse(loop.body))
      if (inner.mode !== 'serial') return inner
      const around = withBody(inner, serial(inner.body))
      if (around.body !== inner.body && vectorLoopProblem(around) === undefined) return { ...around, mode: 'vector' }
      return vectorLoopProblem(inner) === undefined ? { ...inner, mode: 'vector' } : inner
    },
  })
  return body === kernel.body ? kernel : { ...kernel, body }
}

/** The statements with every vector loop inside them serial again. */
const serial = (stmts: readonly Stmt[]): readonly Stmt[] =>
  mapStmts(stmts, {
    loop: (l: Loop, recurse) => {
      const inner = withBody(l, recurse(l.body))
      return inner.mode === 'vector' ? { ...inner, mode: 'serial' } : inner
    },
  })
