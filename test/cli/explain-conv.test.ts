/** `polykern explain` on a convolution: the roles it was matched with and each ISA's tiling, stationarity, packing. */
import { describe, expect, it } from 'vitest'
import type { FileExplanation } from '../../plugin/explain.ts'
import { runCli } from './io.ts'

const NN = 'examples/kernels/nn.ts'

describe('explain: convolutions', () => {
  it('conv2dStride2: matched by its access maps, with tiles per level, stationarity and packing per ISA', async () => {
    const run = await runCli(['explain', `${NN}:conv2dStride2`])
    expect(run.code, run.stderr).toBe(0)
    const section = run.stdout.slice(run.stdout.indexOf('\nconvolutions\n'))
    expect(section).toMatch(/s0: convolution O \+= I ⊛ F; batch n; axes 2\*p \+ r - 1, 2\*q \+ s - 1; channels c → k/)
    // The 64 output channels the ranking assumes fill 6 × 64 tiles with no edge tile; short rows run on the GEMMs' 8 × 48.
    expect(section).toMatch(/avx512 gemm_f32_avx512_6x64: direct channels-last, mc=\d+ nc=\d+ kc=\d+, (input|weight)-stationary/)
    expect(section).toMatch(/avx2 gemm_f32_avx2_6x16: direct/)
    for (const level of ['registers: 6 q × 64 k outputs', 'L1: ', 'L2: r·s taps', 'packing: filter packed once']) {
      expect(section).toContain(level)
    }
    expect(section).toMatch(/rows of fewer than 12 positions run through im2col \(one GEMM per block of rows, each call on the cheapest of gemm_f32_avx512_8x48, gemm_f32_avx512_6x64, gemm_f32_avx512_7x64 for its sizes, kc up to \d+\)/)
    expect(section).toMatch(/through im2col \(one GEMM per block of rows, on gemm_f32_avx2_6x16, kc up to \d+\)/)
    // PK_CONV(columns): each ISA's direct plan says where a tap's left-over positions run, on its own tile height.
    expect(section.match(/the positions a tap leaves past its whole register tiles run as one tile down 6 output rows/g)).toHaveLength(2)
    expect(section).toMatch(/scalar has no f32 microkernel/)
    // The microkernel section agrees: a convolution is not "loops" because no plain GEMM matched it.
    const microkernels = run.stdout.slice(run.stdout.indexOf('\nmicrokernels\n'), run.stdout.indexOf('\nconvolutions\n'))
    expect(microkernels).toContain('s0: convolution, run directly on a GEMM microkernel (see convolutions below)')
    expect(microkernels).not.toContain('runs as loops')
  })

  it('--json: the plan as data; a reduction that is no convolution says why', async () => {
    const run = await runCli(['explain', NN, '--json'])
    expect(run.code, run.stderr).toBe(0)
    const x = JSON.parse(run.stdout) as FileExplanation
    const conv = x.kernels.find((k) => k.name === 'conv2dStride2')!.convolutions
    expect(conv).toHaveLength(1)
    expect(conv[0].roles).toMatchObject({ input: 'I', filter: 'F', output: 'O', inChannels: 'c', outChannels: 'k' })
    expect(conv[0].plans.map((p) => p.isa)).toEqual(['avx512', 'avx2'])
    for (const p of conv[0].plans) {
      expect(p.cost.input).toBeGreaterThan(0)
      expect(p.stationary).toBe(p.cost.weight < p.cost.input ? 'weight' : 'input')
    }
    const pool = x.kernels.find((k) => k.name === 'maxPool2x2')!.convolutions
    expect(pool[0].roles).toBeUndefined()
    expect(pool[0].log.join('\n')).toMatch(/not a convolution: op is max=/)
  })
  it('depthwise3x3: the loop over columns runs 8 at a time around the register nest, inside the window\'s edges, or along memory', async () => {
    const run = await runCli(['explain', `${NN}:depthwise3x3`, '--json'])
    expect(run.code, run.stderr).toBe(0)
    const [kernel] = (JSON.parse(run.stdout) as FileExplanation).kernels
    expect(kernel.jams).toEqual([
      'w: 8 at a time on avx512 and avx2, around the register nest over c; inside [max(0, min(W, 1)), ' +
        "max(max(0, min(W, 1)), min(W, W - 1))), the window's edges one by one; where a row of c is 1, 2 or 4 vectors " +
        "on avx512, 1 or 2 on avx2, the interior runs along memory instead, in vectors aligned to O's cache lines",
    ])
    // A matrix product has no register nest to jam.
    const matmul = await runCli(['explain', 'examples/kernels/linalg.ts:matmul', '--json'])
    expect((JSON.parse(matmul.stdout) as FileExplanation).kernels[0].jams).toEqual([])
  })
})
