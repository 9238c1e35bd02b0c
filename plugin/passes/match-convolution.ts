/**
 * Does a block compute a direct convolution `O[.., p, .., k] += I[.., stride·p + dilation·r + offset, .., c] ·
 * F[.., r, .., c, k]`, up to index names, dimension order (NHWC, NCHW, ...), operand order, batch and group indices?
 * Roles come from the access maps only, never from names: an input dimension holding two indices pairs an output
 * position (in the output) with a filter tap (in the filter, reduced); a plain index of the input and the filter only
 * is the reduced input channel, of the output and the filter only the output channel, of the output and the input
 * only a batch index (images), of all three a group. Padding is the block's in-range guards on the input: any other
 * constraint (a `where` clause) is refused. A mismatch returns the first reason found, for POLYKERN_DEBUG=match.
 */
import { inRangeConstraints } from '../analysis/bounds.ts'
import { equal, format } from '../ir/affine.ts'
import type { Access, Affine, Block, ConvolutionAxis, ConvolutionRoles, DType, IndexRange, Tensor } from '../ir/nodes.ts'
import { printExpr } from '../ir/print.ts'
import { flattenProduct } from './match-contraction.ts'

export type ConvolutionMatch =
  | { readonly ok: true; readonly roles: ConvolutionRoles }
  | { readonly ok: false; readonly reason: string }

const fail = (reason: string): ConvolutionMatch => ({ ok: false, reason })

/** The index a dimension is, when it is one index with coefficient 1 and no offset. */
export const plainIndex = (ix: Affine): string | undefined =>
  ix.terms.length === 1 && ix.terms[0].coeff === 1 && ix.constant === 0 ? ix.terms[0].v : undefined

/** Every dimension plain and no index twice, or why not. */
function plainProblem(a: Access): string | undefined {
  const seen = new Set<string>()
  for (const [d, ix] of a.index.entries()) {
    const v = plainIndex(ix)
    if (v === undefined) return `${a.tensor}'s dimension ${d} is ${format(ix)}, not a single index`
    if (seen.has(v)) return `index ${v} appears twice in ${a.tensor}`
    seen.add(v)
  }
  return undefined
}

/** Matches `block` against the convolution shape; `tensors` gives the input's extents (its padding guards). */
export function matchConvolution(block: Block, tensors: ReadonlyMap<string, Tensor>): ConvolutionMatch {
  if (block.body.length !== 1 || block.body[0].kind !== 'store') return fail('the block is not one store')
  const s = block.body[0]
  if (s.op !== '+=') return fail(`op is ${s.op}, a convolution sums (+=)`)
  const factors = flattenProduct(s.value)
  if (factors.length !== 2) return fail(`the value ${printExpr(s.value)} is not a product of two tensor elements`)
  const loads: Access[] = []
  for (const f of factors) {
    if (f.kind !== 'load' || f.zeroOutside) return fail(`factor ${printExpr(f)} is not a tensor element`)
    loads.push(f.access)
  }
  const dtype: DType = factors[0].type as DType
  if (dtype !== 'f32' && dtype !== 'f64') return fail(`element type ${dtype}: the microkernels are f32 and f64`)
  const out = s.access
  const outProblem = plainProblem(out)
  if (outProblem !== undefined) return fail(outProblem)

  const windowed = loads.filter((a) => plainProblem(a) !== undefined)
  if (windowed.length === 0) return fail('no input dimension slides a window (every access is plain)')
  if (windowed.length === 2) return fail('both factors have dimensions that are not single indices')
  const input = windowed[0]
  const filter = loads.find((a) => a !== input)!
  const filterProblem = plainProblem(filter)
  if (filterProblem !== undefined) return fail(filterProblem)

  const inOut = new Set(out.index.map((ix) => plainIndex(ix)!))
  const inFilter = new Set(filter.index.map((ix) => plainIndex(ix)!))
  const range = new Map(block.indices.map((ix) => [ix.name, ix]))
  const spatial: ConvolutionAxis[] = []
  const batch: IndexRange[] = []
  const inChannels: IndexRange[] = []
  const seenInInput = new Set<string>()
  for (const [d, ix] of input.index.entries()) {
    const where = `${input.tensor}'s dimension ${d} (${format(ix)})`
    // Terms over size symbols (a call-time padding, `p + r - pad`) join the constant in the offset.
    const indexTerms = ix.terms.filter((t) => range.has(t.v))
    for (const t of indexTerms) {
      if (seenInInput.has(t.v)) return fail(`index ${t.v} appears twice in ${input.tensor}`)
      seenInInput.add(t.v)
    }
    const v = plainIndex(ix)
    if (v !== undefined) {
      if (inOut.has(v)) batch.push(range.get(v)!)
      else if (inFilter.has(v)) inChannels.push(range.get(v)!)
      else return fail(`index ${v} of ${input.tensor} is in neither the output nor the filter`)
      continue
    }
    if (indexTerms.length !== 2) return fail(`${where} is not stride·position + dilation·tap + offset`)
    const pos = indexTerms.find((t) => inOut.has(t.v))
    const tap = indexTerms.find((t) => !inOut.has(t.v))
    if (pos === undefined || tap === undefined) return fail(`${where} does not pair an output position with a filter tap`)
    if (!inFilter.has(tap.v)) return fail(`tap ${tap.v} of ${where} does not index the filter`)
    if (inFilter.has(pos.v)) return fail(`output position ${pos.v} also indexes the filter`)
    if (pos.coeff < 1 || tap.coeff < 1) return fail(`${where}: stride ${pos.coeff}, dilation ${tap.coeff} (both must be >= 1)`)
    spatial.push({
      out: range.get(pos.v)!, tap: range.get(tap.v)!, stride: pos.coeff, dilation: tap.coeff,
      offset: { constant: ix.constant, terms: ix.terms.filter((t) => !range.has(t.v)) },
      inputDim: d,
    })
  }
  const taps = new Set(spatial.map((a) => a.tap.name))
  const outChannels = [...inFilter].filter((v) => inOut.has(v) && !seenInInput.has(v)).map((v) => range.get(v)!)
  for (const v of inFilter) {
    if (!taps.has(v) && !seenInInput.has(v) && !inOut.has(v)) return fail(`index ${v} appears only in the filter ${filter.tensor}`)
  }
  for (const v of inOut) {
    if (!seenInInput.has(v) && !inFilter.has(v)) return fail(`index ${v} appears only in the output`)
  }
  if (spatial.length > 3) return fail(`${spatial.length} spatial dimensions; 1 to 3 run directly`)
  if (inChannels.length === 0) {
    return fail('no input channel is summed over by input and filter (depthwise): the loop path runs it')
  }
  if (inChannels.length > 1) return fail(`${inChannels.length} indices play the input channel; one is needed`)
  if (outChannels.length !== 1) return fail(`${outChannels.length} indices play the output channel; one is needed`)

  // Padding: the only constraints allowed are the input's in-range guards.
  const shape = tensors.get(input.tensor)?.shape
  if (shape === undefined) return fail(`tensor ${input.tensor} is not declared`)
  const guards = spatial.flatMap((a) => inRangeConstraints(input.index[a.inputDim], shape[a.inputDim]))
  const extra = block.constraints.find((c) => !guards.some((g) => g.op === c.op && equal(g.expr, c.expr)))
  if (extra !== undefined) return fail(`the domain has a constraint that is not padding: ${format(extra.expr)} ${extra.op} 0`)

  return {
    ok: true,
    roles: { dtype, output: out, input, filter, batch, spatial, outChannels: outChannels[0], inChannels: inChannels[0] },
  }
}

/**
 * How the direct path reads these tensors in place, or why it cannot. Channels last (NHWC): output positions along
 * the last axis are the microkernel's rows, read from input pixels contiguous in the channels, the output channels
 * contiguous its columns. Channels first (NCHW): output channels are its rows, output positions its columns, read from
 * input rows of unit stride (stride 1 along the last axis), the output contiguous along that axis.
 */
export function convolutionLayout(
  r: ConvolutionRoles,
): { readonly layout: 'channels-last' | 'channels-first' } | { readonly reason: string } {
  const last = (a: Access) => plainIndex(a.index[a.index.length - 1])
  if (last(r.output) === r.outChannels.name && last(r.input) === r.inChannels.name) return { layout: 'channels-last' }
  const axis = r.spatial[r.spatial.length - 1]
  if (last(r.output) === axis.out.name && axis.inputDim === r.input.index.length - 1) {
    if (axis.stride === 1) return { layout: 'channels-first' }
    return { reason: `channels first with stride ${axis.stride} along ${axis.out.name}: the input is not read at unit stride` }
  }
  return {
    reason: `neither channels last (${r.outChannels.name}, ${r.inChannels.name} the last dimensions) nor channels first ` +
      `(${axis.out.name} the output's last dimension, read along the input's last)`,
  }
}
