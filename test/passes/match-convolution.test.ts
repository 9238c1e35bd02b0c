/**
 * match-convolution and substitute-convolution: the roles read off the access maps for convolutions in several
 * layouts, the reasons for what the direct path must decline, and the `convolution` option reaching the plans
 * through the pipeline.
 */
import { format } from '../../plugin/ir/affine.ts'
import { describe, expect, it } from 'vitest'
import { buildKernel } from '../../plugin/spec/build-ir.ts'
import type { Block, Convolution, Kernel } from '../../plugin/ir/nodes.ts'
import { walkStmts } from '../../plugin/ir/walk.ts'
import { resolveOptions } from '../../plugin/options.ts'
import { convolutionLayout, matchConvolution } from '../../plugin/passes/match-convolution.ts'
import { lowerSpec } from '../../plugin/pipeline.ts'
import { paramsOf } from '../support/contractions.ts'
import { CONV_SPECS, convolutionKernel } from '../support/convolutions.ts'
import { specOf } from '../support/examples.ts'
import { resolveTarget } from '../../plugin/targets/target.ts'

const built = (text: string): Kernel => buildKernel(specOf(text, paramsOf(text)))
const lastBlock = (k: Kernel): Block => k.body.filter((s): s is Block => s.kind === 'block').at(-1)!
const match = (text: string) => {
  const k = built(text)
  return matchConvolution(lastBlock(k), new Map(k.tensors.map((t) => [t.name, t])))
}
const reasonOf = (text: string): string => {
  const m = match(text)
  if (m.ok) throw new Error(`matched: ${text}`)
  return m.reason
}
const convolutions = (k: Kernel): Convolution[] => {
  const found: Convolution[] = []
  walkStmts(k.body, (s) => void (s.kind === 'convolution' && found.push(s)))
  return found
}

describe('matchConvolution', () => {
  it('reads stride, dilation and padding of each axis, batch, channels from the access maps', () => {
    const m = match(CONV_SPECS.nhwc_s2)
    if (!m.ok) throw new Error(m.reason)
    const r = m.roles
    expect([r.input.tensor, r.filter.tensor, r.output.tensor]).toEqual(['I', 'F', 'O'])
    expect(r.batch.map((b) => b.name)).toEqual(['n'])
    expect(r.spatial.map((a) => [a.out.name, a.tap.name, a.stride, a.dilation, format(a.offset), a.inputDim])).toEqual([
      ['p', 'r', 2, 1, '-1', 1],
      ['q', 's', 2, 1, '-1', 2],
    ])
    expect([r.inChannels.name, r.outChannels.name]).toEqual(['c', 'k'])
    expect(convolutionLayout(r)).toEqual({ layout: 'channels-last' })
  })

  it('a padding given at call time: `p + r - pad` with pad a size symbol (a parameter named only there)', () => {
    const text = 'I: f32[N, H, W, C]\nF: f32[R, S, C, K]\nO: f32[N, P, Q, K]\nO[n, p, q, k] +=! I[n, 2*p + r - pad, 2*q + s - pad + 1, c] * F[r, s, c, k]'
    const k = buildKernel(specOf(text, [...paramsOf(text), 'pad']))
    expect(k.sizes).toContain('pad')
    const m = matchConvolution(lastBlock(k), new Map(k.tensors.map((t) => [t.name, t])))
    if (!m.ok) throw new Error(m.reason)
    expect(m.roles.spatial.map((a) => [a.out.name, a.stride, format(a.offset)])).toEqual([['p', 2, '-pad'], ['q', 2, '-pad + 1']])
  })

  it('takes operands in either order, dilation, groups, 1-d and 3-d', () => {
    const swapped = match('I: f32[W, C]\nF: f32[S, C, K]\nO: f32[Q, K]\nO[q, k] +=! F[s, c, k] * I[q + 3*s - 3, c]')
    expect(swapped.ok && swapped.roles.spatial[0]).toMatchObject({ stride: 1, dilation: 3, offset: { constant: -3, terms: [] } })
    const dilated = match(CONV_SPECS.dilated)
    expect(dilated.ok && dilated.roles.spatial.map((a) => a.dilation)).toEqual([2, 2])
    const grouped = match(CONV_SPECS.grouped)
    expect(grouped.ok && grouped.roles.batch.map((b) => b.name)).toEqual(['n', 'g'])
    const deep = match(CONV_SPECS.conv3d)
    expect(deep.ok && deep.roles.spatial.map((a) => a.tap.name)).toEqual(['u', 'r', 's'])
  })

  it('reads NHWC channels last and NCHW channels first; strided NCHW and NCHW through im2col stay loops, saying why', () => {
    const layoutOf = (text: string) => {
      const m = match(text)
      if (!m.ok) throw new Error(m.reason)
      return convolutionLayout(m.roles)
    }
    expect(layoutOf(CONV_SPECS.nhwc_s2)).toEqual({ layout: 'channels-last' })
    expect(layoutOf(CONV_SPECS.nchw)).toEqual({ layout: 'channels-first' })
    expect(layoutOf(CONV_SPECS.nchw_s2)).toEqual({ reason: expect.stringMatching(/channels first with stride 2/) })
    expect(convolutions(convolutionKernel(CONV_SPECS.nchw, 'nchw'))[0].plans.map((p) => p.layout))
      .toEqual(['channels-first', 'channels-first'])
    for (const [spec, lowering, why] of [
      [CONV_SPECS.nchw_s2, 'direct', /stride 2/], [CONV_SPECS.nchw, 'im2col', /im2col needs channels last/],
    ] as const) {
      const log: string[] = []
      expect(convolutions(convolutionKernel(spec, 'k', lowering, undefined, (l) => log.push(l)))).toEqual([])
      expect(log.join('\n')).toMatch(new RegExp(`s0: a convolution, run as loops: .*${why.source}`))
    }
  })

  it('declines what is not a convolution, with the reason', () => {
    // A reduced index that also appears in the output: r is both a tap and an output index.
    expect(reasonOf('I: f32[H, C]\nF: f32[R, C]\nO: f32[P, R]\nO[p, r] +=! I[p + r, c] * F[r, c]'))
      .toMatch(/does not pair an output position with a filter tap/)
    expect(reasonOf('I: f32[H, W, C]\nO: f32[P, Q, C]\nO[p, q, c] max=! I[2*p + r, 2*q + s, c] where r < 2, s < 2'))
      .toMatch(/op is max=, a convolution sums/)
    expect(reasonOf(CONV_SPECS.depthwise)).toMatch(/depthwise/)
    expect(reasonOf('A: f32[M, K]\nB: f32[K, N]\nC: f32[M, N]\nC[i, j] +=! A[i, k] * B[k, j]'))
      .toMatch(/no input dimension slides a window/)
    expect(reasonOf('I: f32[W, C]\nF: f32[3, C, K]\nO: f32[Q, K]\nO[q, k] +=! I[q + s - 1, c] * F[s, c, k] where q >= 1'))
      .toMatch(/constraint that is not padding: q - 1 >= 0/)
    expect(reasonOf('I: f32[W, C]\nF: f32[3, C, K]\nO: f32[Q, K]\nO[q, k] +=! I[2*q - s + 2, c] * F[s, c, k]'))
      .toMatch(/dilation -1/)
    expect(reasonOf('I: f32[W, C]\nF: f32[3, C, K]\nb: f32[K]\nO: f32[Q, K]\nO[q, k] +=! I[q + s, c] * F[s, c, k] * b[k]'))
      .toMatch(/not a product of two tensor elements/)
    expect(reasonOf('I: f32[W, C]\nF: f32[C, K]\nO: f32[Q, K]\nO[q, k] +=! I[q + s, c] * F[c, k] where s < 3'))
      .toMatch(/tap s .* does not index the filter/)
    expect(reasonOf('I: f32[W, C]\nF: f32[3, C]\nO: f32[Q]\nO[q] +=! I[q + s, c] * F[s, c]'))
      .toMatch(/0 indices play the output channel/)
  })
})

describe('the convolution option', () => {
  it("defaults to 'direct', takes 'im2col', refuses anything else", () => {
    expect(resolveOptions({}).convolution).toBe('direct')
    expect(resolveOptions({ convolution: 'im2col' }).convolution).toBe('im2col')
    expect(() => resolveOptions({ convolution: 'winograd' as 'direct' })).toThrow(/'direct' or 'im2col'/)
  })

  it('reaches every plan through the pipeline; the loop nest inside is unchanged', () => {
    const spec = specOf(CONV_SPECS.nhwc_s2, paramsOf(CONV_SPECS.nhwc_s2))
    const options = { target: resolveTarget({}, 2) }
    const [direct, im2col] = (['direct', 'im2col'] as const).map((convolution) =>
      convolutions(lowerSpec(spec, undefined, { ...options, convolution }).ir)[0])
    expect(direct.plans.map((p) => p.lowering)).toEqual(['direct', 'direct'])
    expect(im2col.plans.map((p) => [p.lowering, p.stationary])).toEqual([['im2col', 'input'], ['im2col', 'input']])
    expect(im2col.body).toEqual(direct.body)
  })
})
