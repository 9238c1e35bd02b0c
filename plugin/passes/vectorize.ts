/**
 * Marks loops the C emitter runs as SIMD lanes (Vyasa's explicit vector code instead of hoping GCC vectorizes: it
 * will not for float reductions without -ffast-math, nor around expf or a NaN-propagating max): every innermost
 * serial loop whose body keeps the `vector` mode's contract (verify.ts: vectorLoopProblem). Parallel loops keep
 * their threads. The emitter still prints a marked loop serially for an ISA or a body it has no vector code for.
 * Needs: lowered IR. Leaves: the same loops, some with mode `vector`.
 */
import type { Kernel } from '../ir/nodes.ts'
import { vectorLoopProblem } from '../ir/verify.ts'
import { mapStmts, withBody } from '../ir/walk.ts'

export function vectorize(kernel: Kernel): Kernel {
  const body = mapStmts(kernel.body, {
    loop: (loop, recurse) => {
      const inner = withBody(loop, recurse(loop.body))
      if (inner.mode !== 'serial' || vectorLoopProblem(inner) !== undefined) return inner
      return { ...inner, mode: 'vector' }
    },
  })
  return body === kernel.body ? kernel : { ...kernel, body }
}
