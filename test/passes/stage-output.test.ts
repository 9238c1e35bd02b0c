/**
 * stage-output.ts: a contraction whose large operand a direct call would gather through a transpose gets a second
 * candidate, the sum into a temporary in the operand's GEMM layout and a copy into the output, chosen per call by
 * what each way moves. Checked on the IR (the candidates, the temporary's order, the reset
 * moved into the copy), against the interpreter at sizes that choose each candidate, and on the sums it must leave
 * alone. The native runs are in test/native/paths.test.ts.
 */
import { describe, expect, it } from 'vitest'
import { interpret } from '../../plugin/ir/interp.ts'
import type { Block, If, Kernel } from '../../plugin/ir/nodes.ts'
import { cheapest } from '../../plugin/ir/polynomial.ts'
import { printStmts } from '../../plugin/ir/print.ts'
import { verifyKernel } from '../../plugin/ir/verify.ts'
import { STAGE_WEIGHTS, stageOutputs } from '../../plugin/passes/stage-output.ts'
import { lowerSpec } from '../../plugin/pipeline.ts'
import { buildKernel } from '../../plugin/spec/build-ir.ts'
import { paramsOf } from '../support/contractions.ts'
import { specOf } from '../support/examples.ts'
import { copyArgs, irArgs } from '../support/kernel-args.ts'
import { maxRelErr, rng, tolerance, type TensorArray } from '../support/random.ts'

const built = (text: string): Kernel => verifyKernel(buildKernel(specOf(text, paramsOf(text))), 'build')
const staged = (k: Kernel): Kernel => verifyKernel(stageOutputs(k), 'stage-output')

const BDA = 'A: f32[Sa, Sd, Sb]\nB: f32[Sc, Sd]\nC: f32[Sc, Sb, Sa]\nC[c, b, a] +=! A[a, d, b] * B[c, d]'

/** The candidates' statement lists, in order. */
const candidates = (k: Kernel): readonly (readonly string[])[] =>
  k.body.filter((s): s is If => s.kind === 'if').map((c) => printStmts(c.body).trim().split('\n').map((l) => l.trim()))

/** Both kernels' outputs at `sizes`, against each other. */
function expectSameOutputs(before: Kernel, after: Kernel, sizes: ReadonlyMap<string, number>, seed: number): void {
  const next = rng(seed)
  const args = irArgs(before, sizes, next)
  const [want, got] = [copyArgs(args), copyArgs(args)]
  interpret(before, want)
  interpret(after, got)
  before.params.forEach((p, n) => {
    const t = before.tensors.find((x) => x.name === p.name)
    if (t?.role === 'out' || t?.role === 'inout') {
      expect(maxRelErr(got[n] as TensorArray, want[n] as TensorArray), `${p.name} at ${[...sizes]}`).toBeLessThanOrEqual(tolerance(t.dtype, Math.max(...sizes.values())))
    }
  })
}

describe('a transposed operand much larger than the output', () => {
  it('gets a staged candidate: the sum in the operand\'s layout, then a copy that takes over the reset', () => {
    const k = staged(built(BDA))
    expect(k.choices).toHaveLength(1)
    const [direct, stage] = candidates(k)
    expect(direct).toEqual(['C[*] = 0', 'block s0 [c < Sc, b < Sb, a < Sa, d < Sd] #reduction {', 'C[c, b, a] += (A[a, d, b] * B[c, d])', '}'])
    expect(stage).toEqual([
      's0_p1_t1[*] = 0',
      'block s0.p1.1 [c < Sc, b < Sb, a < Sa, d < Sd] #reduction {', 's0_p1_t1[a, c, b] += (A[a, d, b] * B[c, d])', '}',
      'block s0.p1 [c < Sc, b < Sb, a < Sa] {', 'C[c, b, a] = s0_p1_t1[a, c, b]', '}',
    ])
    expect(k.tensors.find((t) => t.name === 's0_p1_t1')).toMatchObject({ role: 'temp', dtype: 'f32' })
    expect(k.choices![0].temps).toEqual([[], ['s0_p1_t1']])
  })

  it('stages where gathering the operand costs more than copying the output and repacking B, and computes the same either way', () => {
    const before = built(BDA)
    const k = staged(before)
    const pick = (sizes: Record<string, number>) => cheapest(k.choices![0], (s) => sizes[s])
    // Direct: gather·|A| = gather·Sa·Sd·Sb. Staged: copy·|C| + repack·Sa·|B| = copy·Sc·Sb·Sa + repack·Sa·Sc·Sd.
    const { gather, copy, repack } = STAGE_WEIGHTS
    const stages = (sizes: Record<string, number>) => gather * sizes.Sd * sizes.Sb > copy * sizes.Sc * sizes.Sb + repack * sizes.Sc * sizes.Sd
    // At the weights 2, 4, 1 and Sa 7, Sb 9, Sc 3: Sd · 15 > 108, so Sd = 8 stages and 7 does not.
    for (const Sd of [7, 8, 13, 40]) expect(pick({ Sa: 7, Sb: 9, Sc: 3, Sd }), `Sd ${Sd}`).toBe(stages({ Sb: 9, Sc: 3, Sd }) ? 1 : 0)
    expect(pick({ Sa: 7, Sb: 9, Sc: 3, Sd: 8 })).toBe(1)
    expect(pick({ Sa: 7, Sb: 9, Sc: 3, Sd: 7 })).toBe(0)
    // Batch GEMMs two columns wide: the operand is over 3× the output, but repacking B for each of them outweighs it.
    expect(pick({ Sa: 100, Sb: 2, Sc: 3, Sd: 20 })).toBe(0)
    expect(pick({ Sa: 100, Sb: 2, Sc: 3, Sd: 30 })).toBe(1)
    for (const [n, sizes] of [{ Sa: 7, Sb: 9, Sc: 3, Sd: 41 }, { Sa: 5, Sb: 3, Sc: 4, Sd: 7 }, { Sa: 5, Sb: 3, Sc: 0, Sd: 7 }].entries()) {
      expectSameOutputs(before, k, new Map(Object.entries(sizes)), 300 + n)
    }
  })

  it('accumulates onto the output where there is no reset, and keeps batch indices leading', () => {
    const text = 'A: f64[Sh, Sa, Sd, Sb]\nB: f64[Sh, Sc, Sd]\nC: f64[Sh, Sc, Sb, Sa]\nC[h, c, b, a] += A[h, a, d, b] * B[h, c, d]'
    const before = built(text)
    const k = staged(before)
    const [direct, stage] = candidates(k)
    expect(direct[0]).toMatch(/^block s0 /)
    expect(stage).toContain('s0_p1_t1[h, a, c, b] += (A[h, a, d, b] * B[h, c, d])')
    expect(stage).toContain('C[h, c, b, a] += s0_p1_t1[h, a, c, b]')
    expectSameOutputs(before, k, new Map(Object.entries({ Sh: 3, Sa: 5, Sb: 7, Sc: 2, Sd: 33 })), 310)
  })

  it('runs both candidates as GEMMs through the pipeline', () => {
    const { ir } = lowerSpec(specOf(BDA, paramsOf(BDA)))
    const contractions = ir.body.flatMap((s) => (s.kind === 'if' ? s.body : [])).filter((s) => s.kind === 'contraction')
    expect(contractions.map((c) => c.kind === 'contraction' && c.id)).toEqual(['s0', 's0.p1.1'])
  })
})

describe('left alone', () => {
  const cases: Record<string, string> = {
    'a GEMM, whose operands already share the output\'s stride-1 index': 'A: f32[M, K]\nB: f32[K, N]\nC: f32[M, N]\nC[i, j] +=! A[i, k] * B[k, j]',
    'an operand whose summed indices are not one run': 'A: f32[Sd, Sa, Se, Sb]\nB: f32[Sc, Sd, Se]\nC: f32[Sc, Sb, Sa]\nC[c, b, a] +=! A[d, a, e, b] * B[c, d, e]',
    'a domain with constraints': 'A: f32[Sa, Sd, Sb]\nB: f32[Sc, Sd]\nC: f32[Sc, Sb, Sa]\nC[c, b, a] +=! A[a, d, b] * B[c, d] where d <= a',
    'a product of three factors': 'A: f32[Sa, Sd, Sb]\nB: f32[Sc, Sd]\nw: f32[Sd]\nC: f32[Sc, Sb, Sa]\nC[c, b, a] +=! A[a, d, b] * B[c, d] * w[d]',
    'a max of products': 'A: f32[Sa, Sd, Sb]\nB: f32[Sc, Sd]\nC: f32[Sc, Sb, Sa]\nC[c, b, a] max= A[a, d, b] * B[c, d]',
    'a sum into a temporary': 'A: f32[Sa, Sd, Sb]\nB: f32[Sc, Sd]\nC: f32[Sc, Sb, Sa]\nlet T: f32[Sc, Sb, Sa]\n' +
      'T[c, b, a] +=! A[a, d, b] * B[c, d]\nC[c, b, a] = T[c, b, a] * 2',
    'a sum the next statement reads (its epilogue)': 'A: f32[Sa, Sd, Sb]\nB: f32[Sc, Sd]\nbias: f32[Sa]\nC: f32[Sc, Sb, Sa]\n' +
      'C[c, b, a] +=! A[a, d, b] * B[c, d]\nC[c, b, a] = max(C[c, b, a] + bias[a], 0)',
  }
  for (const [why, text] of Object.entries(cases)) {
    it(why, () => {
      const k = built(text)
      expect(stageOutputs(k)).toBe(k)
    })
  }
})

it('the staged block keeps its span for messages', () => {
  const k = staged(built(BDA))
  const stage = k.body.filter((s): s is If => s.kind === 'if')[1]
  const copy = stage.body.at(-1) as Block
  expect(copy.span).toEqual((built(BDA).body.find((s) => s.kind === 'block') as Block).span)
})
