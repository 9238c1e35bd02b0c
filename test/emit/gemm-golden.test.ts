// The blocked GEMM's C, compared with reviewed goldens: microkernels, packing routines, drivers and call sites.
// `UPDATE_GOLDEN=1 npx vitest run test/emit` rewrites them; review the diff.
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { emitC, emitCSupport } from '../../plugin/emit/c.ts'
import type { ContractionSchedule, GemmBlocking, Kernel } from '../../plugin/ir/nodes.ts'
import { emitMicrokernel } from '../../plugin/emit/c-microkernel.ts'
import type { Isa } from '../../plugin/targets/isa.ts'
import { AVX2, AVX512, SCALAR } from '../../plugin/targets/index.ts'
import { contractionKernel } from '../support/contractions.ts'

const GOLDEN = path.join(path.dirname(fileURLToPath(import.meta.url)), 'golden')

function expectGolden(name: string, actual: string): void {
  const file = path.join(GOLDEN, name)
  if (process.env.UPDATE_GOLDEN === '1') writeFileSync(file, actual)
  expect(existsSync(file), `${name} is missing: run UPDATE_GOLDEN=1 npx vitest run test/emit`).toBe(true)
  expect(actual).toBe(readFileSync(file, 'utf8'))
}

// Fixed blockings and microkernels (each ISA's first of the type), not the ranking's picks: these goldens review the
// emitter alone.
const LARGE: GemmBlocking = {
  mc: 96, nc: 480, kc: 256, order: ['n', 'k', 'm'], inner: 'mn', parallel: 'm', packA: true, packB: true,
}
const firstOfType = (x: ContractionSchedule): string => {
  const mks = [AVX512, AVX2].find((isa) => isa.name === x.isa)!.microkernels
  return mks.find((m) => m.dtype === mks.find((n) => n.name === x.microkernel)!.dtype)!.name
}
const fixed = (own: GemmBlocking, special: ContractionSchedule['special'] = []) => (x: ContractionSchedule) =>
  ({ isa: x.isa, microkernel: firstOfType(x), ...own, special })
const mm = contractionKernel(
  'A: f32[M, K]\nB: f32[K, N]\nC: f32[M, N]\nC[i, j] +=! A[i, k] * B[k, j]',
  'matmul',
  fixed(LARGE, [
    { when: { maxM: 16 }, blocking: { ...LARGE, kc: 64, order: ['k', 'n', 'm'], parallel: 'n', packA: false, packB: false } },
  ]),
)
const batched = contractionKernel(
  'A: f64[Bt, M, K]\nB: f64[K, Bt, N]\nC: f64[M, Bt, N]\nlet T: f64[M]\nC[i, b, j] += A[b, i, k] * B[k, b, j]\nT[i] +=! A[0, i, 0]',
  'batched',
  fixed({ ...LARGE, nc: 240, inner: 'nm' }, [
    { when: { minBatch: 2, maxWork: 2 ** 21 }, blocking: { ...LARGE, nc: 240, parallel: 'batch' } },
  ]),
)

// Two indices per role, adjacent everywhere: one GEMM with M = A·B, N = E·F, K = C·D and each role's inner stride.
const flattened = contractionKernel(
  'X: f64[A, B, C, D]\nY: f64[C, D, E, F]\nZ: f64[A, B, E, F]\nZ[a, b, e, f] +=! X[a, b, c, d] * Y[c, d, e, f]',
  'reshaped',
  fixed(LARGE),
)

// transC's `abc-bk-akc` (TCCG): n = a·c is not one run of C's dimensions, so every operand goes through offset tables.
const gathered = contractionKernel(
  'X: f32[K, B]\nY: f32[C, K, A]\nZ: f32[C, B, A]\nZ[c, b, a] += X[k, b] * Y[c, k, a]',
  'transC',
  fixed({ ...LARGE, order: ['k', 'm', 'n'], parallel: 'n' }),
)

/** The ISA region's support code, then the tile families it declares, as their own files define them. */
const supportText = (kernels: readonly Kernel[], isa: Isa): string => {
  const support = emitCSupport(kernels, isa)
  return [support.code, ...support.families.map((f) => emitMicrokernel(f, true))].join('\n')
}

describe('GEMM goldens', () => {
  for (const isa of [AVX512, AVX2]) {
    it(`matmul on ${isa.name}`, () => {
      expectGolden(`gemm-${isa.name}.c`, `${supportText([mm], isa)}\n${emitC(mm, 'kc_0_matmul', isa)}`)
    })
  }
  it('a transposed, batched f64 call site freeing a temporary when packing fails', () => {
    expectGolden('gemm-batched.c', emitC(batched, 'kc_1_batched', AVX512))
  })
  it('several indices per role flattened into one GEMM dimension each', () => {
    expectGolden('gemm-flattened.c', emitC(flattened, 'kc_2_reshaped', AVX512))
  })
  it('a gathered contraction: offset tables, gathering packs and a shape storing C through the tables', () => {
    expectGolden('gemm-gathered.c', `${supportText([gathered], AVX2)}\n${emitC(gathered, 'kc_3_transC', AVX2)}`)
  })
  it('a GEMM that overwrites C drops the zero fill before it, where it runs as a GEMM', () => {
    expect(emitC(mm, 'kc_0_matmul', AVX512)).not.toMatch(/C\[q\] = 0/)
    expect(emitC(mm, 'kc_0_matmul', AVX512)).toContain('.kc = pk_kc, .overwrite = 1}, NULL, pk_shape')
    expect(emitC(mm, 'kc_0_matmul', SCALAR)).toMatch(/C\[q\] = 0/)
    // `+=` accumulates into C's old content: no fill, and the GEMM reads C.
    expect(emitC(batched, 'kc_1_batched', AVX512)).toContain('.kc = pk_kc}, &pk_bt, pk_shape')
  })
  it('scalar runs the loop nest and needs no support code', () => {
    expect(emitCSupport([mm, batched], SCALAR)).toEqual({ code: '', families: [] })
    expect(emitC(mm, 'kc_0_matmul', SCALAR)).not.toContain('pk_gemm_f32')
  })
})
