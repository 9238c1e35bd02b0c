// A register epilogue that adds a term the same in every row to its one read of the sum (emit/c-tile-epilogue.ts):
// the tiles start their accumulators from it, so a bias + ReLU stores one max a vector (the sum is never -0, so the
// max needs no fix-up). Terms that differ by row, and epilogues reading the sum twice, start from zero.
import { describe, expect, it } from 'vitest'
import { emitC } from '../../plugin/emit/c.ts'
import { AVX2, AVX512 } from '../../plugin/targets/index.ts'
import { pipelineKernel } from '../support/pipeline-kernels.ts'

const gemm = (epilogue: string, inputs = 'bias: f32[N]') =>
  pipelineKernel({ name: 'k', text: `${inputs}${inputs && '\n'}A: f32[M, K]\nB: f32[K, N]\nC: f32[M, N]\nlet T: f32[M, N]\nT[i, j] +=! A[i, k] * B[k, j]\nC[i, j] = ${epilogue}` }).ir

// The first tile (the full one) of the family the epilogue named `k_g0` runs in, whichever the machine's blocking picked.
function fullTile(source: string): string {
  const at = source.search(/static inline void pk_ukr_\w+_k_g0_\d+x\d+\(/)
  expect(at, 'a tile family with the epilogue').toBeGreaterThanOrEqual(0)
  const body = source.slice(at)
  return body.slice(0, body.indexOf('\nstatic ', 1))
}

describe('register epilogues that start the sums', () => {
  it('bias + ReLU: every row starts from the bias (plus +0), and the store is one max', () => {
    const source = emitC(gemm('max(T[i, j] + bias[j], 0)'), 'k', AVX512)
    const tile = fullTile(source)
    expect(tile).toContain('const __m512 pk_s1 = _mm512_add_ps(_mm512_maskz_loadu_ps(m1, pk_e->f1 + pk_j0 + 16), _mm512_setzero_ps());')
    expect(tile).toContain('__m512 c1_0 = pk_s0, c1_1 = pk_s1,')
    expect(tile).toContain('c1_1 = _mm512_max_ps(_mm512_set1_ps(0.0f), c1_1);')
    expect(tile).not.toContain('_mm512_loadu_ps(pk_e->f1')
    // AVX2 the same, through its vector masks.
    expect(emitC(gemm('max(T[i, j] + bias[j], 0)'), 'k', AVX2)).toContain('_mm256_add_ps(_mm256_maskload_ps(pk_e->f1 + pk_j0 + 0, m0), _mm256_setzero_ps())')
  })

  it('a term over no index starts them too; a sum with nothing added still skips the fix-up', () => {
    const scaled = fullTile(emitC(gemm('max(T[i, j] + s, 0)', 's: f32[]'), 'k', AVX512))
    expect(scaled).toContain('const __m512 pk_s0 = _mm512_add_ps(_mm512_set1_ps(pk_e->f1), _mm512_setzero_ps());')
    const relu = fullTile(emitC(gemm('max(T[i, j], 0)', ''), 'k', AVX512))
    expect(relu).toContain('c0_0 = _mm512_max_ps(_mm512_set1_ps(0.0f), c0_0);')
    expect(relu).not.toContain('pk_s0')
  })

  for (const [what, epilogue, inputs] of [
    ['a residual (its term differs by row)', 'max(T[i, j] + R[i, j], 0)', 'R: f32[M, N]'],
    ['a per-row term', 'T[i, j] + z[i]', 'z: f32[M]'],
    ['two reads of the sum', 'T[i, j] * T[i, j] + bias[j]', 'bias: f32[N]'],
  ] as const) {
    it(`starts from zero with ${what}`, () => {
      const tile = fullTile(emitC(gemm(epilogue, inputs), 'k', AVX512))
      expect(tile).toContain('__m512 c0_0 = _mm512_setzero_ps()')
      expect(tile).not.toContain('pk_s0')
    })
  }
})
