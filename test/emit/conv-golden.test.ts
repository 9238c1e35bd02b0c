// The convolution driver's C, compared with reviewed goldens: tile functions, the driver's instantiation of
// native/polykern_conv_driver.h (compiled by test/native/headers.test.ts) and call sites. `UPDATE_GOLDEN=1 npx vitest run test/emit` rewrites them.
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { emitC, emitCSupport } from '../../plugin/emit/c.ts'
import type { ConvolutionPlan } from '../../plugin/ir/nodes.ts'
import { AVX2, AVX512, SCALAR } from '../../plugin/targets/index.ts'
import { CONV_SPECS, EPILOGUE_SPECS, convolutionKernel, fusedConvolutionKernel } from '../support/convolutions.ts'
import { expectGolden as expectGoldenIn } from '../support/golden.ts'

const GOLDEN = path.join(path.dirname(fileURLToPath(import.meta.url)), 'golden')
const expectGolden = (name: string, actual: string): void => expectGoldenIn(GOLDEN, name, actual)

// Fixed tiles, not the cost model's: these goldens review the emitter alone.
const fixed = (p: ConvolutionPlan): ConvolutionPlan => ({ ...p, mc: 64, nc: 96, kc: 128, stationary: 'weight' })
const direct = convolutionKernel(CONV_SPECS.nhwc_s2, 'conv', 'direct', fixed)
const im2col = convolutionKernel(CONV_SPECS.grouped, 'grouped', 'im2col', fixed)
const nchw = convolutionKernel(CONV_SPECS.nchw, 'nchw', 'direct', fixed)
const fused = fusedConvolutionKernel(EPILOGUE_SPECS.residual_s2, 'fused', 'direct', fixed)

describe('convolution goldens', () => {
  it('a strided, padded NHWC convolution on avx512: its tile families declared, the drivers, and the call site', () => {
    // The tile functions are the GEMM's (emit/c-microkernel.ts, reviewed in gemm-*.c), with k in runs (groupedK):
    // only that they are there.
    const support = emitCSupport([direct], AVX512)
    const families = support.families.map((f) => `pk_ukr_${f.mk.name}`)
    expect(support.code).toContain('PK_SHARED void pk_ukr_gemm_f32_avx512_8x48_upg(')
    // Direct rows on 6 × 64 (the ranking's choice for 64 output channels), short rows through im2col on whichever of
    // the three f32 microkernels costs least on the call: three whole drivers.
    expect(support.code).toContain('PK_SHARED void pk_ukr_gemm_f32_avx512_6x64_upg(')
    expect(support.code).toContain('PK_SHARED void pk_ukr_gemm_f32_avx512_7x64_uu(')
    expect(new Set(families)).toEqual(new Set(['8x48', '6x64', '7x64'].map((t) => `pk_ukr_gemm_f32_avx512_${t}`)))
    const drivers = support.code.split('\n/* Direct ').slice(1).map((d) => `/* Direct ${d.split('\nPK_SHARED ')[0]}`)
    expect(drivers).toHaveLength(3)
    expectGolden('conv-avx512.c', `${drivers.join('\n')}\n${emitC(direct, 'kc_0_conv', AVX512)}`)
  })
  it('a grouped convolution through im2col on avx2: the call site', () => {
    expectGolden('conv-im2col-avx2.c', emitC(im2col, 'kc_1_grouped', AVX2))
  })
  it('an NCHW convolution on avx512 (channels first): the call site', () => {
    expectGolden('conv-nchw-avx512.c', emitC(nchw, 'kc_2_nchw', AVX512))
  })
  it('a convolution with a fused scale + residual on avx512: the epilogue on a block, its context and the call site', () => {
    expectGolden('conv-epilogue-avx512.c', emitC(fused, 'kc_3_fused', AVX512))
  })
  it('scalar has no microkernel: the loop nest, and no driver', () => {
    expect(emitCSupport([direct], SCALAR)).toEqual({ code: '', families: [] })
    expect(emitC(direct, 'kc_0_conv', SCALAR)).not.toContain('pk_conv_')
  })
})
