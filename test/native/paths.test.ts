/**
 * Issue 14, differentially: kernels whose contraction path is chosen per call (a SizeChoice between candidate paths,
 * or between a gathered operand and an output staged through a temporary), built by the whole pipeline into a real
 * addon, against the interpreter running the block form before the path pass and against the emitted JS, on every
 * ISA this CPU runs, at 1 and 2 threads. Sizes: the bench's three cases shrunk to small odd sizes with the same shape
 * (so the same candidate wins), sizes of 0, then random sizes in [1, 40]; more than one candidate of each kernel must
 * run. Results agree up to the tolerance of reordered sums.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { interpret } from '../../plugin/ir/interp.ts'
import { cheapest } from '../../plugin/ir/polynomial.ts'
import { runnableIsas } from '../support/cpu.ts'
import { copyArgs, makeArgs, points } from '../support/kernel-args.ts'
import { maxRelErr, rng, tolerance, type TensorArray } from '../support/random.ts'
import { pipelineKernel, runEverywhere, type PipelineKernel } from '../support/pipeline-kernels.ts'
import { loadTestAddon, testAddonSource, type TestAddon as Addon } from '../support/test-addon.ts'

const CASES: readonly { readonly name: string; readonly text: string; readonly fixed: readonly Record<string, number>[] }[] = [
  {
    name: 'chain3',
    text: 'A: f32[Si, Sj]\nB: f32[Sj, Sk]\nC: f32[Sk, Sl]\nD: f32[Si, Sl]\nD[i, l] +=! A[i, j] * B[j, k] * C[k, l]',
    // The bench's 2048x16x16x2048 and 2048x16x2048x16, shrunk; then empty sums and an empty temporary.
    fixed: [
      { Si: 67, Sj: 3, Sk: 3, Sl: 61 }, { Si: 67, Sj: 3, Sk: 61, Sl: 3 }, { Si: 3, Sj: 61, Sk: 3, Sl: 67 },
      { Si: 5, Sj: 0, Sk: 3, Sl: 4 }, { Si: 5, Sj: 3, Sk: 0, Sl: 4 }, { Si: 0, Sj: 3, Sk: 2, Sl: 4 },
    ],
  },
  {
    name: 'chain4',
    text: 'A: f64[Si, Sj]\nB: f64[Sj, Sk]\nC: f64[Sk, Sl]\nD: f64[Sl, Sm]\nE: f64[Si, Sm]\nE[i, m] +=! A[i, j] * B[j, k] * C[k, l] * D[l, m]',
    fixed: [{ Si: 53, Sj: 3, Sk: 53, Sl: 3, Sm: 53 }],
  },
  {
    // The issue's `dba,ead,cad->bce`, accumulating into the output's old content.
    name: 'dba_ead_cad',
    text: 'X: f32[Sd, Sb, Sa]\nY: f32[Se, Sa, Sd]\nZ: f32[Sc, Sa, Sd]\nO: f32[Sb, Sc, Se]\nO[b, c, e] += X[d, b, a] * Y[e, a, d] * Z[c, a, d]',
    fixed: [{ Sa: 5, Sb: 9, Sc: 7, Sd: 3, Se: 11 }],
  },
  {
    name: 'five',
    text: 'X: f32[E, A]\nY: f32[F, B]\nZ: f32[A, B, C, D]\nU: f32[G, C]\nV: f32[H, D]\nO: f32[E, F, G, H]\n' +
      'O[e, f, g, h] +=! X[e, a] * Y[f, b] * Z[a, b, c, d] * U[g, c] * V[h, d]',
    fixed: [{ E: 7, F: 5, G: 3, H: 2, A: 3, B: 5, C: 7, D: 2 }],
  },
  {
    // stage-output.ts: the sum staged in A's layout and copied (2·|A| > 4·|C| + Sa·|B|: the first size set), or A
    // gathered through a transpose (the second); the direct candidate has no temporary at all. Sc = 0 stages an empty
    // temporary.
    name: 'staged_bda',
    text: 'A: f32[Sa, Sd, Sb]\nB: f32[Sc, Sd]\nC: f32[Sc, Sb, Sa]\nC[c, b, a] +=! A[a, d, b] * B[c, d]',
    fixed: [{ Sa: 19, Sb: 23, Sc: 3, Sd: 41 }, { Sa: 19, Sb: 23, Sc: 5, Sd: 7 }, { Sa: 5, Sb: 3, Sc: 0, Sd: 7 }, { Sa: 5, Sb: 3, Sc: 2, Sd: 0 }],
  },
  {
    // Staged with a batch index, accumulating onto the output's old content.
    name: 'staged_batched',
    text: 'A: f64[Sh, Sa, Sd, Sb]\nB: f64[Sh, Sc, Sd]\nC: f64[Sh, Sc, Sb, Sa]\nC[h, c, b, a] += A[h, a, d, b] * B[h, c, d]',
    fixed: [{ Sh: 3, Sa: 17, Sb: 13, Sc: 2, Sd: 37 }, { Sh: 3, Sa: 17, Sb: 13, Sc: 9, Sd: 5 }],
  },
  {
    // Two choices, the second reading the first's output: both candidates' temporaries share one arena.
    name: 'two_chains',
    text: 'A: f64[M, K]\nB: f64[K, N]\nC: f64[N, P]\nD: f64[M, P]\nE: f64[P, Q]\nF: f64[Q, R]\nG: f64[M, R]\n' +
      'D[m, p] +=! A[m, k] * B[k, n] * C[n, p]\nG[m, r] +=! D[m, p] * E[p, q] * F[q, r]',
    fixed: [{ M: 37, K: 3, N: 29, P: 3, Q: 31, R: 2 }, { M: 2, K: 31, N: 3, P: 29, Q: 2, R: 37 }],
  },
]
const RANDOM_RUNS = 12
const MAX_POINTS = 400_000

const KERNELS: readonly PipelineKernel[] = CASES.map(pipelineKernel)

let addon: Addon
let remove = () => {}
beforeAll(async () => void ({ addon, remove } = await loadTestAddon(testAddonSource(KERNELS.map((k) => k.ir), 'test/native/paths.test.ts'), 'paths-test')), 600_000)
afterAll(() => remove())



describe('contraction paths chosen per call', () => {
  for (const [n, k] of KERNELS.entries()) {
    it(`${k.name}: interpreter, JS and native at every ISA and 1 and 2 threads agree, several candidates run`, () => {
      expect(k.ir.choices?.length, 'the kernel chooses its paths per call').toBe(k.reference.body.filter((s) => s.kind === 'block').length)
      expect(addon.__polykern.isas).toEqual(expect.arrayContaining([...runnableIsas]))
      const choice = k.ir.choices![0]
      const next = rng(1400 + n)
      const shapes = CASES[n].fixed.map((f) => new Map(Object.entries(f)))
      while (shapes.length < CASES[n].fixed.length + RANDOM_RUNS) {
        const sizes = new Map(k.reference.sizes.map((s) => [s, 1 + Math.floor(40 ** next())]))
        if (points(k.reference, sizes) <= MAX_POINTS) shapes.push(sizes)
      }
      const ran = new Set<number>()
      const out = k.reference.params.findLastIndex((p) => p.kind === 'tensor' && k.reference.tensors.find((t) => t.name === p.name)!.role !== 'in')
      const dtype = k.reference.tensors[0].dtype
      for (const sizes of shapes) {
        ran.add(cheapest(choice, (s) => sizes.get(s)!))
        const args = makeArgs(k.abi, sizes, next)
        const want = copyArgs(args)
        interpret(k.reference, want)
        const reduction = Math.max(...sizes.values()) ** 3
        const shown = [...sizes].map(([s, v]) => `${s}=${v}`).join(' ')
        const check = (got: unknown[], where: string) =>
          expect(maxRelErr(got[out] as TensorArray, want[out] as TensorArray), `${k.name} ${shown} ${where}`)
            .toBeLessThanOrEqual(tolerance(dtype, reduction))
        const viaIr = copyArgs(args)
        interpret(k.ir, viaIr)
        check(viaIr, 'interpreter, lowered')
        runEverywhere(k, addon, args, check)
      }
      expect(ran.size, `candidates run of ${choice.costs.length}`).toBeGreaterThanOrEqual(Math.min(2, choice.costs.length))
    }, 600_000)
  }
})
