/**
 * The register-tile ranking of convolutions (conv-slicing.ts: registerTileCycles, convolutionMicrokernel): which of an
 * ISA's microkernels of a type runs a direct channels-last convolution, from its tiles' FMAs and loads on the sizes.
 */
import { describe, expect, it } from 'vitest'
import { convolutionMicrokernel, registerTileCycles, tileCostTable, type ConvolutionSizes } from '../../plugin/schedule/conv-slicing.ts'
import { AVX2, AVX512 } from '../../plugin/targets/index.ts'

const sizes = (positions: number, channelsOut: number): ConvolutionSizes => ({
  batch: 1, channelsIn: 64, channelsInKnown: false, channelsOut, taps: 9, lastTaps: 3, positions, rows: positions, inputPerRow: 0,
})
const f32 = AVX512.microkernels.filter((m) => m.dtype === 'f32')
const named = (name: string) => f32.find((m) => m.name === name)!

describe('convolution register tiles', () => {
  it('64 output channels run on 6 × 64 (no edge tile); 48 and 96 on 8 × 48 (none either)', () => {
    expect(convolutionMicrokernel(f32, sizes(56, 64))?.name).toBe('gemm_f32_avx512_6x64')
    expect(convolutionMicrokernel(f32, sizes(56, 48))?.name).toBe('gemm_f32_avx512_8x48')
    expect(convolutionMicrokernel(f32, sizes(56, 96))?.name).toBe('gemm_f32_avx512_8x48')
  })

  it("an 8 × 16 edge tile costs more per FMA than the full tile: its 8 broadcasts leave it load-bound", () => {
    const wide = named('gemm_f32_avx512_8x48')
    // 7 row tiles × (k = 3 taps × 64 channels): full 8 × 3 vectors is FMA-bound at 12 cycles a step, the 8 × 1 edge
    // load-bound at (8 + 1) / 2 = 4.5 (4 if FMA-bound); each call adds 16 cycles and 2 per accumulator.
    expect(registerTileCycles(wide, sizes(56, 48))).toBe(7 * (192 * 12 + 16 + 2 * 24))
    expect(registerTileCycles(wide, sizes(56, 64))).toBe(7 * (192 * 12 + 16 + 2 * 24) + 7 * (192 * 4.5 + 16 + 2 * 8))
  })

  it('rows past the last full tile run on the next taller tile height', () => {
    const tall = named('gemm_f32_avx512_6x64')
    // 56 = 9 × 6 + 2: the 2-row tile of 4 vectors, FMA-bound at 2 · 4 / 2 = 4 cycles a step (its loads take 3).
    expect(registerTileCycles(tall, sizes(56, 64))).toBe(9 * (192 * 12 + 16 + 2 * 24) + (192 * 4 + 16 + 2 * 8))
  })

  it('a tile with no register for the broadcast (7 × 64) runs no direct call, however cheap its tiles rank', () => {
    const seven = named('gemm_f32_avx512_7x64')
    expect(registerTileCycles(seven, sizes(56, 64))).toBeLessThan(registerTileCycles(named('gemm_f32_avx512_6x64'), sizes(56, 64)))
    expect(convolutionMicrokernel(f32, sizes(56, 64))?.name).not.toBe(seven.name)
    expect(convolutionMicrokernel([seven], sizes(56, 64))).toBeUndefined()
  })

  it("the cost table a call ranks im2col's microkernels with is the same model, tile by tile", () => {
    for (const mk of f32) {
      const { heights, step, call } = tileCostTable(mk)
      expect(heights[0]).toBe(mk.mr)
      expect(step.map((row) => row.length)).toEqual(heights.map(() => mk.nr / mk.lanes))
      // One tile per call: positions = a height, channels = a width; one k step of 3 taps × 64 channels.
      heights.forEach((r, h) => step[h].forEach((cycles, v) => {
        const one = { ...sizes(r, (v + 1) * mk.lanes), lastTaps: 1, channelsIn: 1 }
        expect(registerTileCycles(mk, one), `${mk.name} ${r}×${v + 1}`).toBe(cycles + call[h][v])
      }))
    }
  })

  it('one microkernel of the type: that one', () => {
    expect(convolutionMicrokernel(AVX2.microkernels.filter((m) => m.dtype === 'f32'), sizes(56, 64))?.name).toBe('gemm_f32_avx2_6x16')
  })
})
