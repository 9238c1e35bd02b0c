/** The contract of a `Convolution` node (nodes.ts) that verify.ts checks after every pass. */
import { format } from './affine.ts'
import type { Convolution } from './nodes.ts'

/** Why `s` breaks the Convolution contract, or undefined when it keeps it. */
export function convolutionProblem(s: Convolution): string | undefined {
  const r = s.roles
  const roles = [...r.batch, ...r.spatial.flatMap((a) => [a.out, a.tap]), r.outChannels, r.inChannels]
  if (new Set(roles.map((ix) => ix.name)).size !== roles.length) return 'one index plays two roles'
  if (r.spatial.length < 1 || r.spatial.length > 3) return `${r.spatial.length} spatial dimensions (1 to 3 run directly)`
  const badAxis = r.spatial.find((a) => !(a.stride >= 1 && a.dilation >= 1 && Number.isInteger(a.offset.constant)))
  if (badAxis) return `axis ${badAxis.out.name}: stride ${badAxis.stride}, dilation ${badAxis.dilation}`
  // An offset is a call-time constant: over size symbols, never over the indices it offsets.
  const indexed = r.spatial.find((a) => a.offset.terms.some((t) => roles.some((ix) => ix.name === t.v)))
  if (indexed) return `axis ${indexed.out.name}: its offset ${format(indexed.offset)} depends on an index`
  if (r.batch.length > 4) return `${r.batch.length} batch indices (at most 4)`
  for (const p of s.plans) {
    const sizes = [p.mc, p.nc, p.kc]
    if (!sizes.every((n) => Number.isInteger(n) && n > 0)) return `${p.isa}: block sizes ${sizes}`
  }
  if (new Set(s.plans.map((p) => p.isa)).size !== s.plans.length) return 'two plans for one ISA'
  const e = s.epilogue ?? 0
  if (!(Number.isInteger(e) && e >= 0 && e < s.body.length)) return `an epilogue of ${e} statements in a body of ${s.body.length}`
  return undefined
}
