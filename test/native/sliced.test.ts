/**
 * Sliced contractions (ir/nodes.ts SlicedContraction): a gathered contraction whose leading n indices in C can run as
 * a batch A does not move along gets that form too, and its calls of few rows take it. Each kernel runs with its m
 * extent below every ISA's bound (the sliced form) and above it (the gathered form), at every ISA and 1, 2 threads,
 * against the interpreter.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { interpret } from '../../plugin/ir/interp.ts'
import type { Contraction, Kernel } from '../../plugin/ir/nodes.ts'
import { buildKernel } from '../../plugin/spec/build-ir.ts'
import { walkStmts } from '../../plugin/ir/walk.ts'
import { AVX512, ISAS } from '../../plugin/targets/index.ts'
import { withBlocking } from '../../plugin/tune/measure.ts'
import { contractionKernel, paramsOf } from '../support/contractions.ts'
import { specOf } from '../support/examples.ts'
import { copyArgs, irArgs } from '../support/kernel-args.ts'
import { maxRelErr, rngOf, tolerance, type TensorArray } from '../support/random.ts'
import { loadTestAddon, onEveryIsaAndThreads, testAddonSource, type KernelCall, type TestAddon } from '../support/test-addon.ts'

/** Each spec, the batch its sliced form runs and the size of its m index. */
const CASES = [
  {
    // TCCG ao2mo abcd-eb-aecd: two of C's n indices lead C and B.
    spec: `A: f32[SB, SE]
B: f32[SD, SC, SE, SA]
C: f32[SD, SC, SB, SA]
C[d, c, b, a] +=! A[b, e] * B[d, c, e, a]`,
    batch: ['d', 'c'],
    m: 'SB',
  },
  {
    // TCCG ao2mo abcd-ec-abed, accumulating: one leading n index, the rest (b·a) one run in B and C.
    spec: `A: f32[SC, SE]
B: f32[SD, SE, SB, SA]
C: f32[SD, SC, SB, SA]
C[d, c, b, a] += A[c, e] * B[d, e, b, a]`,
    batch: ['d'],
    m: 'SC',
  },
  {
    // A batch index of all three ahead of the moved one, and a constant factor (packed with A).
    spec: `A: f32[SZ, SB, SE]
B: f32[SZ, SD, SE, SA]
C: f32[SZ, SD, SB, SA]
C[z, d, b, a] +=! 2.5 * A[z, b, e] * B[z, d, e, a]`,
    batch: ['z', 'd'],
    m: 'SB',
  },
].map((c, n) => ({ ...c, kernel: contractionKernel(c.spec, `sliced${n}`), reference: buildKernel(specOf(c.spec, paramsOf(c.spec))) }))

/** More rows than any ISA's sliced form takes (16 tiles of its gathered schedule's rows), and fewer. */
const MAX_ROWS = 16 * Math.max(...ISAS.flatMap((isa) => isa.microkernels.map((mk) => mk.mr)))
const ROWS = [7, 13, MAX_ROWS + 3]

let addon: TestAddon
let remove = () => {}
beforeAll(async () => {
  ;({ addon, remove } = await loadTestAddon(testAddonSource(CASES.map((c) => c.kernel), 'test/native/sliced.test.ts'), 'sliced'))
}, 300_000)
afterAll(() => remove())

const contractionOf = (kernel: Kernel): Contraction => {
  let found: Contraction | undefined
  walkStmts(kernel.body, (s) => void (s.kind === 'contraction' && (found ??= s)))
  return found!
}

describe('sliced contractions', () => {
  it('are gathered, with a flattened sliced form over the batch expected', () => {
    for (const { kernel, batch } of CASES) {
      const c = contractionOf(kernel)
      expect(c.roles.layout, kernel.name).toBe('gathered')
      expect(c.sliced?.roles.layout, kernel.name).toBe('flattened')
      expect(c.sliced?.roles.batch.map((ix) => ix.name), kernel.name).toEqual(batch)
      expect(c.sliced?.schedules.map((x) => x.isa), kernel.name).toEqual(c.schedules.map((x) => x.isa))
    }
  })

  it('are not offered where a leading index of C plays m, or B holds the leading n indices behind others', () => {
    const specs = [
      // TCCG ccsd abc-ad-bdc: C's leading c plays m (in B[c, d, b], which becomes the GEMM's A).
      'A: f32[SD, SA]\nB: f32[SC, SD, SB]\nC: f32[SC, SB, SA]\nC[c, b, a] +=! A[d, a] * B[c, d, b]',
      // B holds d and c behind the summed e: a slice of B per batch element would not be one block.
      'A: f32[SB, SE]\nB: f32[SE, SD, SC, SA]\nC: f32[SD, SC, SB, SA]\nC[d, c, b, a] +=! A[b, e] * B[e, d, c, a]',
    ]
    for (const spec of specs) {
      const c = contractionOf(contractionKernel(spec, 'k'))
      expect(c.roles.layout, spec).toBe('gathered')
      expect(c.sliced, spec).toBeUndefined()
    }
  })

  it('leave tuning to time the blocking it tunes: a timed variant has no sliced form', () => {
    const { kernel } = CASES[0]
    const c = contractionOf(kernel)
    const variant = contractionOf(withBlocking(kernel, c.id, AVX512, c.schedules[0], 'timed'))
    expect(variant.sliced).toBeUndefined()
    expect(variant.schedules.map((x) => x.isa)).toEqual(['avx512'])
  })

  it('run calls of few rows and of many = the interpreter, at every ISA and thread count', () => {
    onEveryIsaAndThreads(addon, (isa, threads) => {
      for (const { kernel, reference, m } of CASES) {
        for (const rows of ROWS) {
          const sizes = new Map(kernel.sizes.map((s, n) => [s, s === m ? rows : [5, 3, 6, 9][n % 4]]))
          const args = irArgs(kernel, sizes, rngOf(`${kernel.name} ${rows}`))
          const want = copyArgs(args)
          interpret(reference, want)
          const got = copyArgs(args)
          ;(addon[kernel.name] as KernelCall)(...got)
          const out = kernel.params.findIndex((p) => p.name === 'C')
          const at = `${kernel.name} at ${[...sizes].map(([s, v]) => `${s}=${v}`).join(' ')} on ${isa}, ${threads} thread(s)`
          expect(maxRelErr(got[out] as TensorArray, want[out] as TensorArray), at).toBeLessThan(tolerance('f32', 16))
        }
      }
    })
  })
})
