/** One-line descriptions of blockings and their guards, for the generated C's comments and `polykern explain`. */
import type { GemmBlocking, SizeGuard } from '../ir/nodes.ts'

export const describeBlocking = (x: GemmBlocking): string =>
  `mc ${x.mc} nc ${x.nc} kc ${x.kc}, order ${x.order.join('')}, inner ${x.inner}, parallel ${x.parallel}, ` +
  `pack ${[x.packA ? 'A' : '', x.packB ? 'B' : ''].join('') || 'none'}`

/** The guard's bounds on the call's sizes (and B's binding), e.g. `M <= 64, M*N*K <= 2097152`. */
export function describeGuard(w: SizeGuard): string {
  const bounds = [
    w.minM === undefined ? '' : `M >= ${w.minM}`,
    w.maxM === undefined ? '' : `M <= ${w.maxM}`,
    w.maxN === undefined ? '' : `N <= ${w.maxN}`,
    w.maxK === undefined ? '' : `K <= ${w.maxK}`,
    w.maxWork === undefined ? '' : `M*N*K <= ${w.maxWork}`,
    w.minBatch === undefined ? '' : `batch >= ${w.minBatch}`,
    w.boundB === undefined ? '' : w.boundB ? 'B bound' : 'B not bound',
    w.spreadB === undefined ? '' : `B's rows spread over L1 (${w.spreadB.rows} rows of ${w.spreadB.lines} lines)`,
  ]
  return bounds.filter((b) => b !== '').join(', ') || 'always'
}
