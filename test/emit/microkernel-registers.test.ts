// A tile with no vector register left for A's broadcast (emit/c-microkernel.ts: bParts) loads B in parts and
// broadcasts each row of A once per part; every other tile, one part. gcc spilled an accumulator around every k step
// of the one-part 7 × 64 tile on AVX-512 (28 accumulators and 4 B vectors in 32 registers).
import { describe, expect, it } from 'vitest'
import { emitMicrokernel } from '../../plugin/emit/c-microkernel.ts'
import { AVX2, AVX512 } from '../../plugin/targets/index.ts'
import { registersUsed } from '../../plugin/targets/microkernel.ts'

// Tile `name`'s function (`<family>_<R>x<V>`) in its family's source: every k loop of it.
function tile(source: string, name: string): string {
  const body = source.slice(source.indexOf(`${name}(int64_t kb`))
  return body.slice(0, body.indexOf('\nstatic '))
}
const count = (text: string, what: string): number => text.split(what).length - 1

describe('microkernel register budget', () => {
  const mks = [...AVX512.microkernels, ...AVX2.microkernels]

  it('7 × 64 on AVX-512 broadcasts each row twice a k step, over 2 of its 4 B vectors each time', () => {
    const mk = AVX512.microkernels.find((m) => m.name === 'gemm_f32_avx512_7x64')!
    expect(registersUsed(mk) + 1).toBeGreaterThan(mk.registers)
    const loop = tile(emitMicrokernel({ mk, packA: false, packB: true, groupedK: true }), 'pk_ukr_gemm_f32_avx512_7x64_upg_7x4')
    // Per k step, in every copy of the step: 14 broadcasts and 4 loads of B for 28 FMAs.
    const fmas = count(loop, '_mm512_fmadd_ps(')
    expect(fmas).toBeGreaterThan(0)
    expect(count(loop, '_mm512_set1_ps(') / fmas).toBe(14 / 28)
    expect(count(loop, '_mm512_load_ps(') / fmas).toBe(4 / 28)
    // The second part reads A through a position the compiler cannot prove equal to the first's.
    expect(loop).toContain('__asm__("" : "+r"(pk_at1));')
    // Its narrower tiles have room: one broadcast per row.
    const three = tile(emitMicrokernel({ mk, packA: false, packB: true, groupedK: true }), 'pk_ukr_gemm_f32_avx512_7x64_upg_7x3')
    expect(count(three, '_mm512_set1_ps(') / count(three, '_mm512_fmadd_ps(')).toBe(7 / 21)
  })

  it('every tile with a register for the broadcast loads B once and broadcasts each row once a k step', () => {
    for (const mk of mks.filter((m) => registersUsed(m) + 1 <= m.registers)) {
      const V = mk.nr / mk.lanes
      const loop = tile(emitMicrokernel({ mk, packA: true, packB: true }), `pk_ukr_${mk.name}_pp_${mk.mr}x${V}`)
      const fmas = count(loop, mk.ops.fma.split('(')[0] + '(')
      expect(fmas, mk.name).toBeGreaterThan(0)
      expect(count(loop, mk.ops.broadcast.split('(')[0] + '(') / fmas, mk.name).toBe(1 / V)
      expect(loop, mk.name).not.toContain('__asm__')
    }
  })
})
