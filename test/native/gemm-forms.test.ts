/**
 * Issue 14's forms of a contraction beyond `C += A·B`, each of which must run as a blocked GEMM, not as loops:
 * - constant factors (`2.5 * A[i, k] * B[k, j]`) and size expressions (`/ sqrt(K)`), multiplied into A while it is
 *   packed (ContractionRoles.alpha): flattened, transposed, gathered and batched contractions, several constants,
 *   negations and divisions, `+=!` and `+=`;
 * - tensor factors over one operand's indices (`* d[k]`, a mask `W[k, j]`, row and column scales, a divisor
 *   `/ z[i]`), applied to that operand while it is gathered (ContractionRoles.scaleA / scaleB);
 * - triangular domains (`where j <= i`: causal attention scores, symmetric rank-k updates, bands, a diagonal),
 *   whose tiles outside are skipped and whose edge tiles are masked (ContractionRoles.domain).
 * Each built by the whole pipeline into a real addon and run at every ISA this CPU runs and at 1 and 2 threads
 * against the interpreter on the IR straight from the spec and the emitted JS (every element of C, inside the domain
 * and out), at small odd sizes, a 1 and an empty sum.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { format } from '../../plugin/ir/affine.ts'
import { printExpr } from '../../plugin/ir/print.ts'
import { rng } from '../support/random.ts'
import { contractionOf, expectAgreesEverywhere, pipelineKernel, type PipelineKernel } from '../support/pipeline-kernels.ts'
import { loadTestAddon, testAddonSource, type TestAddon } from '../support/test-addon.ts'

interface Case {
  readonly name: string
  readonly text: string
  readonly layout: string
  /** The factors that do not vary over the block, as explain prints them. */
  readonly alpha?: string
  /** The domain as explain prints it. */
  readonly domain?: string
  /** The tensor factors weighting A and B. */
  readonly scales?: string
}

const CASES: readonly Case[] = [
  { name: 'scaled', text: 'A: f32[M, K]\nB: f32[K, N]\nC: f32[M, N]\nC[i, j] +=! 2.5 * A[i, k] * B[k, j]', alpha: '2.5', layout: 'flattened' },
  { name: 'accumulated', text: 'A: f64[M, K]\nB: f64[K, N]\nC: f64[M, N]\nC[i, j] += A[i, k] * B[k, j] * 0.5', alpha: '0.5', layout: 'flattened' },
  { name: 'transposed', text: 'A: f32[K, M]\nB: f32[N, K]\nC: f32[M, N]\nC[i, j] +=! 3 * A[k, i] * B[j, k]', alpha: '3', layout: 'flattened' },
  { name: 'two_constants', text: 'A: f32[M, K]\nB: f32[K, N]\nC: f32[M, N]\nC[i, j] +=! 2 * A[i, k] * B[k, j] * 0.75', alpha: '1.5', layout: 'flattened' },
  { name: 'gathered', text: 'A: f32[M, K, N]\nB: f32[P, K]\nC: f32[P, N, M]\nC[p, n, m] +=! -2 * A[m, k, n] * B[p, k]', alpha: '-2', layout: 'gathered' },
  { name: 'batched', text: 'A: f64[Q, M, K]\nB: f64[Q, K, N]\nC: f64[Q, M, N]\nC[q, i, j] +=! 0.25 * A[q, i, k] * B[q, k, j]', alpha: '0.25', layout: 'flattened' },
  { name: 'causal', text: 'A: f32[M, K]\nB: f32[M, K]\nC: f32[M, M]\nC[i, j] +=! A[i, k] * B[j, k] where j <= i', domain: 'i - j >= 0', layout: 'flattened' },
  { name: 'syrk', text: 'A: f64[M, K]\nC: f64[M, M]\nC[i, j] += A[i, k] * A[j, k] where j <= i', domain: 'i - j >= 0', layout: 'flattened' },
  {
    name: 'band', text: 'A: f32[M, K]\nB: f32[K, M]\nC: f32[M, M]\nC[i, j] +=! A[i, k] * B[k, j] where j <= i + width, i <= j + width',
    domain: 'i - j + width >= 0, -i + j + width >= 0', layout: 'flattened',
  },
  { name: 'upper_transposed', text: 'A: f32[M, K]\nB: f32[K, N]\nC: f32[N, M]\nC[j, i] += A[i, k] * B[k, j] where i < j', domain: '-i + j - 1 >= 0', layout: 'flattened' },
  {
    name: 'gathered_causal', text: 'A: f32[K, M, L]\nB: f32[L, M, K]\nC: f32[M, M]\nC[i, j] +=! 3 * A[k, i, l] * B[l, j, k] where j <= i',
    domain: 'i - j >= 0', alpha: '3', layout: 'gathered',
  },
  { name: 'scale_k', text: 'A: f32[M, K]\nB: f32[K, N]\nd: f32[K]\nC: f32[M, N]\nC[i, j] +=! A[i, k] * B[k, j] * d[k]', scales: 'A × d', layout: 'gathered' },
  {
    name: 'scale_rows_cols', text: 'A: f64[M, K]\nB: f64[K, N]\ns: f64[M]\nt: f64[N]\nC: f64[M, N]\nC[i, j] += s[i] * A[i, k] * B[k, j] * t[j]',
    scales: 'A × s, B × t', layout: 'gathered',
  },
  { name: 'mask', text: 'A: f32[M, K]\nB: f32[K, N]\nW: f32[K, N]\nC: f32[M, N]\nC[i, j] +=! A[i, k] * (B[k, j] * W[k, j])', scales: 'B × W', layout: 'gathered' },
  {
    name: 'scale_and_constant', text: 'A: f32[K, M]\nB: f32[N, K]\nw: f32[K]\nC: f32[M, N]\nC[i, j] +=! 0.5 * A[k, i] * w[k] * B[j, k]',
    alpha: '0.5', scales: 'A × w', layout: 'gathered',
  },
  {
    name: 'scale_batched', text: 'A: f32[Q, M, K]\nB: f32[Q, K, N]\nd: f32[K]\nC: f32[Q, M, N]\nC[q, i, j] +=! A[q, i, k] * B[q, k, j] * d[k]',
    scales: 'A × d', layout: 'gathered',
  },
  { name: 'size_divisor', text: 'A: f32[M, K]\nB: f32[K, N]\nC: f32[M, N]\nC[i, j] +=! A[i, k] * B[k, j] / sqrt(K)', alpha: '(1 / sqrt(K))', layout: 'flattened' },
  {
    name: 'negated_over_sizes', text: 'A: f64[K, M]\nB: f64[N, K]\nC: f64[M, N]\nC[i, j] += -A[k, i] * B[j, k] / (M * 2) * N',
    alpha: '((-0.5 * N) / M)', layout: 'flattened',
  },
  {
    name: 'row_divisor', text: 'P: f32[M, K]\nV: f32[K, N]\nz: f32[M]\nC: f32[M, N]\nC[s, e] += P[s, t] * V[t, e] / z[s] / sqrt(N)',
    alpha: '(1 / sqrt(N))', scales: 'A ÷ z', layout: 'gathered',
  },
  { name: 'mask_divisor', text: 'A: f64[M, K]\nB: f64[K, N]\nW: f64[K, N]\nC: f64[M, N]\nC[i, j] += A[i, k] * (B[k, j] / W[k, j])', scales: 'B ÷ W', layout: 'gathered' },
  { name: 'diagonal', text: 'A: f64[M, K]\nB: f64[K, M]\nC: f64[M, M]\nC[i, j] +=! A[i, k] * B[k, j] where i == j', domain: 'i - j == 0', layout: 'flattened' },
]

const KERNELS: readonly PipelineKernel[] = CASES.map(pipelineKernel)

let addon: TestAddon
let remove = () => {}
beforeAll(async () => void ({ addon, remove } = await loadTestAddon(testAddonSource(KERNELS.map((k) => k.ir), 'test/native/gemm-forms.test.ts'), 'gemm-forms-test')), 600_000)
afterAll(() => remove())


/**
 * Per size symbol: odd sizes past a few register tiles (tiles inside, outside and on a domain's edge), a 1, and an
 * empty sum (K = 0: C is zeroed or left alone); a band's width small and large.
 */
const SHAPES: readonly ((size: string, n: number) => number)[] = [
  (s, n) => (s === 'width' ? 5 : [37, 11, 29, 5, 3][n % 5]),
  (s, n) => (s === 'width' ? 0 : [1, 9, 3, 17, 2][n % 5]),
  (s) => (s === 'K' ? 0 : s === 'width' ? 2 : 7),
  (s, n) => (s === 'width' ? 40 : [61, 7, 53, 3, 5][n % 5]),
]

describe('contractions with constant factors or triangular domains run as GEMMs', () => {
  for (const [n, k] of KERNELS.entries()) {
    const { alpha, domain, layout, scales: weights } = CASES[n]
    it(`${k.name}: a GEMM${alpha === undefined ? '' : ` with A × ${alpha}`}${weights === undefined ? '' : `, ${weights}`}${domain === undefined ? '' : ` on ${domain}`}; native at every ISA and 1, 2 threads = JS = interpreter`, () => {
      const c = contractionOf(k.ir)
      expect(c, 'runs as a contraction').toBeDefined()
      expect(c!.roles.alpha && printExpr(c!.roles.alpha)).toBe(alpha)
      expect(c!.roles.domain?.map((x) => `${format(x.expr)} ${x.op} 0`).join(', ')).toBe(domain)
      expect(c!.roles.layout).toBe(layout)
      const scales = ([['A', c!.roles.scaleA], ['B', c!.roles.scaleB]] as const).flatMap(([o, x]) => (x ? [`${o} ${x.divides ? '÷' : '×'} ${x.by.tensor}`] : []))
      expect(scales.join(', ') || undefined).toBe(CASES[n].scales)
      expect(c!.schedules.length).toBeGreaterThan(0)
      const next = rng(5100 + n)
      for (const shape of SHAPES) {
        const sizes = new Map(k.reference.sizes.map((s, i) => [s, shape(s, i)]))
        expectAgreesEverywhere(k, addon, sizes, next, 'C', Math.max(sizes.get('K') ?? 1, (sizes.get('K') ?? 1) * (sizes.get('L') ?? 1)))
      }
    }, 600_000)
  }
})
