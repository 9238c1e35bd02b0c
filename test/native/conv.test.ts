/**
 * Convolutions through the direct and im2col paths, in a real addon (node-gyp): every ISA version (switched with
 * `__polykern.setIsa`), at 1 and 2 threads, and the generated JS, against the interpreter running the same IR's loop
 * nest. Shapes are small and random: odd sizes, channel counts past one and two register tiles (K > 48, 96: small
 * im2col calls on 2 threads split their channels when their rows do not split evenly), output extents that
 * overhang the input (whole rows of padding), size 1. Tiles come from the cost model (whose direct plans run rows
 * shorter than 2 register tiles through im2col: output rows of 1 to 53 positions cross that switch), and also small
 * ones (mc of one register tile, nc of one panel, kc 4; direct always) in both stationary orders so modest shapes cross
 * every block edge, with the filter packed or read in place. The addon wakes the pool for any work, so 2 threads
 * really split the rows. Every other trial passes the arrays as views at odd element offsets.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { emitJs } from '../../plugin/emit/js.ts'
import { interpret } from '../../plugin/ir/interp.ts'
import type { ConvolutionPlan, Kernel } from '../../plugin/ir/nodes.ts'
import { walkStmts } from '../../plugin/ir/walk.ts'
import { ISAS, microkernelNamed } from '../../plugin/targets/index.ts'
import { CONV_SPECS, EPILOGUE_SPECS, convolutionKernel, fusedConvolutionKernel } from '../support/convolutions.ts'
import { copyArgs, copyArgsAtOddOffsets, irArgs } from '../support/kernel-args.ts'
import { maxRelErr, rng, rngOf, tolerance, type TensorArray } from '../support/random.ts'
import { loadTestAddon, onEveryIsaAndThreads, testAddonSource, type KernelCall as Fn, type TestAddon } from '../support/test-addon.ts'

const tileOf = (p: ConvolutionPlan) => microkernelNamed(p.microkernel)!
/**
 * Small tiles (no L2 share, so a call's own slicing keeps one register tile); direct calls stay direct whatever their
 * rows' length (the model's plan also tests the switch); the filter always packed, or read in place wherever its
 * layout allows.
 */
const small = (stationary: ConvolutionPlan['stationary'], pack: boolean) => (p: ConvolutionPlan): ConvolutionPlan => ({
  ...p, mc: tileOf(p).mr, nc: tileOf(p).nr, kc: 4, l1Elements: 0, l2Elements: 0, stationary, im2colBelow: 0, gemmKc: 4, packFilterFrom: pack ? 0 : 2 ** 52,
})

const KERNELS: readonly Kernel[] = Object.entries(CONV_SPECS).flatMap(([name, spec]) => [
  convolutionKernel(spec, name),
  convolutionKernel(spec, `${name}_ws`, 'direct', small('weight', true)),
  convolutionKernel(spec, `${name}_is`, 'direct', small('input', false)),
  convolutionKernel(spec, `${name}_im2col`, 'im2col', small('input', true)),
  convolutionKernel(spec, `${name}_im2col_in_place`, 'im2col', small('input', false)),
])

/**
 * Each epilogue spec on the model's plan (input- or weight-stationary, short rows through im2col) and on small tiles
 * weight-stationary; bias + ReLU also on small tiles input-stationary and through im2col alone. The reference
 * interprets the spec unfused (the temporary T written, then read by the statement after it).
 */
const UNFUSED = new Map<string, Kernel>()
const FUSED: readonly Kernel[] = Object.entries(EPILOGUE_SPECS).flatMap(([name, spec]) => [
  fusedConvolutionKernel(spec, `${name}_fused`),
  fusedConvolutionKernel(spec, `${name}_fused_ws`, 'direct', small('weight', true)),
  ...(name === 'bias_relu' ? [
    fusedConvolutionKernel(spec, `${name}_fused_is`, 'direct', small('input', false)),
    fusedConvolutionKernel(spec, `${name}_fused_im2col`, 'im2col', small('input', true)),
  ] : []),
].map((k) => (UNFUSED.set(k.name, convolutionKernel(spec, name)), k)))

const sources = testAddonSource([...KERNELS, ...FUSED], 'test/native/conv.test.ts')
const source = sources.map((f) => f.text).join('\n')
let addon: TestAddon
let remove = () => {}

beforeAll(async () => void ({ addon, remove } = await loadTestAddon(sources, 'conv-test')), 300_000)
afterAll(() => remove())

const pick = (next: () => number, xs: readonly number[]) => xs[Math.floor(next() * xs.length)]

/** Random sizes: channels past a register tile, odd extents, outputs larger than the input needs (all padding). */
function sizesOf(next: () => number): Map<string, number> {
  return new Map([
    ['N', pick(next, [1, 2])], ['G', pick(next, [1, 3])], ['D', pick(next, [1, 4])], ['T', pick(next, [1, 3, 5])],
    ['H', pick(next, [1, 3, 6, 9])], ['W', pick(next, [1, 5, 8, 13, 21, 40])],
    ['P', pick(next, [1, 3, 5, 7])], ['Q', pick(next, [1, 4, 9, 12, 23, 30, 53])],
    ['C', pick(next, [1, 3, 8, 17])], ['K', pick(next, [1, 5, 16, 49, 97])],
    ['R', pick(next, [1, 2, 3])], ['S', pick(next, [1, 3, 4])], ['pad', pick(next, [0, 1, 2, 3])],
  ])
}

const planned = (kernel: Kernel): string[] => {
  const isas: string[] = []
  walkStmts(kernel.body, (s) => void (s.kind === 'convolution' && isas.push(...s.plans.map((p) => p.isa))))
  return isas
}

/** Kernel `name` (nhwc_acc unless given) at `sizes` (random data from `seed`) against the interpreter on every ISA and thread count. */
function expectNhwcMatches(sizes: Map<string, number>, seed: number, summed: number, label: string, name = 'nhwc_acc'): void {
  const kernel = KERNELS.find((k) => k.name === name)!
  const args = irArgs(kernel, sizes, rng(seed))
  const want = copyArgs(args)
  interpret(kernel, want)
  const out = kernel.params.findIndex((p) => p.name === 'O')
  onEveryIsaAndThreads(addon, (isa, threads) => {
    const got = copyArgs(args)
    ;(addon[kernel.name] as Fn)(...got)
    expect(maxRelErr(got[out] as TensorArray, want[out] as TensorArray), `${label}${isa}, ${threads} thread(s)`).toBeLessThan(tolerance('f32', summed))
  })
}

describe('direct and im2col convolution', () => {
  it('every spec but depthwise, strided NCHW and NCHW through im2col has a plan on each ISA with microkernels, none on scalar', () => {
    const vectorIsas = ISAS.filter((i) => i.microkernels.length > 0).map((i) => i.name)
    for (const kernel of KERNELS) {
      const declined = /^(depthwise|nchw_s2)/.test(kernel.name) || /^nchw.*_im2col/.test(kernel.name)
      expect(planned(kernel), kernel.name).toEqual(declined ? [] : vectorIsas)
    }
    // AVX-512's im2col calls rank its three f32 microkernels per call; AVX2 has one.
    expect(source).toContain('{pk_conv_gemm_f32_avx512_7x64_im2col_cycles, pk_conv_gemm_f32_avx512_7x64_run},')
    expect(source).toContain('pk_conv_gemm_f32_avx2_6x16_run(&pk_cv)')
  })

  it('a short-row call whose im2col GEMM takes whole filter rows matches the interpreter on every ISA, at 1 and 2 threads', () => {
    // 7 positions per row run through im2col, 49 per filter: the filter is packed, block by block. With 64 input
    // channels the L2 share holds about 80 rows of all 400 output channels, so one thread's blocks take whole filter
    // rows, and two threads, splitting the channels, part rows.
    const sizes = new Map([['N', 1], ['H', 7], ['W', 7], ['P', 7], ['Q', 7], ['C', 64], ['K', 400], ['R', 3], ['S', 3]])
    expectNhwcMatches(sizes, 400, 64 * 9, '')
  })

  it('a 1×1 call of one image through im2col, one row at 1 thread and its rows shared at 2, matches the interpreter', () => {
    // Dense axes collapse into one row of P·Q positions only where the team keeps a row each (pk_conv_collapse); 9 and
    // 5 rows split unevenly between two threads, and 70 channels, one panel and a few, leave the team the rows to share.
    for (const [P, Q] of [[9, 13], [5, 1]]) {
      const sizes = new Map([['N', 1], ['H', P], ['W', Q], ['C', 37], ['K', 70]])
      expectNhwcMatches(sizes, P * Q + 70, 37, `${P}×${Q}, `, 'pointwise_im2col')
    }
  })

  it('channels-first calls whose rows split unevenly, their output channels shared at 2 threads, match the interpreter', () => {
    // 7 and 5 rows (4 + 3, 3 + 2) share their 70 output channels instead, in whole panels of the microkernel's rows
    // (pk_conv_prepare): the second thread's share ends in a partial panel; one call of 2 images keeps its 14 rows.
    for (const [N, P, Q] of [[1, 7, 9], [1, 5, 5], [2, 7, 3]]) {
      const sizes = new Map([['N', N], ['H', P], ['W', Q], ['P', P], ['Q', Q], ['C', 11], ['K', 70]])
      expectNhwcMatches(sizes, N * P * Q + 70, 11 * 9, `${N}×${P}×${Q}, `, 'nchw')
    }
  })

  it("im2col calls whose sizes each favour another of AVX-512's microkernels match the interpreter, at 1 and 2 threads", () => {
    // At 1 thread one GEMM of all P·Q positions: 49 × 64 fills 7 × 64 tiles, 48 × 48 one column of 8 × 48 tiles, 54 × 64
    // nine 6 × 64 tiles (pk_conv_run_cheapest on the model's tile costs; the other two leave edge tiles).
    for (const [P, Q, K] of [[7, 7, 64], [6, 8, 48], [6, 9, 64]]) {
      const sizes = new Map([['N', 1], ['H', P], ['W', Q], ['P', P], ['Q', Q], ['C', 5], ['K', K], ['R', 3], ['S', 3]])
      expectNhwcMatches(sizes, P * Q + K, 5 * 9, `${P}×${Q}→${K}, `)
    }
  })

  it('im2col tiles of one output row with 256 input channels and more run each tap on its rows inside the input, and match', () => {
    // Rows of 7, 6 and 8 positions fill one register tile each on 7-, 6- and 8-row tiles (a 2-thread call's share of
    // one row, too), so every tap of a position whose window reads the padding runs on the tile's other rows
    // (PK_CONV(tile_taps)). The model's plans take whole taps a k block; the small ones (k blocks of 4) start a row's
    // sums on a tap that leaves its first position out, which must then start from zero (dilated and nhwc_s2
    // overwrite their output; nhwc_acc adds to it). 70 output channels cross a panel; 7 × 7 × 64 fills 7 × 64 tiles.
    for (const [P, Q, C, K] of [[7, 7, 257, 64], [3, 6, 300, 70], [2, 8, 256, 70]]) {
      const sizes = new Map([['N', 1], ['H', P], ['W', Q], ['P', P], ['Q', Q], ['C', C], ['K', K], ['R', 3], ['S', 3]])
      for (const name of ['nhwc_acc', 'dilated_im2col']) expectNhwcMatches(sizes, P * Q + C, C * 9, `${name} ${P}×${Q}×${C}, `, name)
      const strided = new Map([...sizes, ['H', 2 * P], ['W', 2 * Q]])
      expectNhwcMatches(strided, P + Q + C, C * 9, `nhwc_s2 ${P}×${Q}×${C}, `, 'nhwc_s2')
    }
  })

  it('rows whose end positions run on zero-padded copies of their windows match the interpreter on every ISA, at 1 and 2 threads', () => {
    // Padding 1, few channels (one block of all of them, the 3 taps of a row fused): rows of 28 positions with 3
    // channels run their first and last tiles on copies of the windows (PK_CONV(windows)), on 6- and 8-row tiles
    // alike (with 17 the model prices columns lower: the next test's path); rows of 56 on 6-row tiles would take one
    // tile more that way, and run their ends tap by tap. 70 output channels cross a panel.
    for (const [P, Q, C] of [[5, 28, 3], [3, 28, 17], [2, 56, 8]]) {
      const sizes = new Map([['N', 1], ['H', P], ['W', Q], ['P', P], ['Q', Q], ['C', C], ['K', 70], ['R', 3], ['S', 3]])
      expectNhwcMatches(sizes, P * Q + C, C * 9, `${P}×${Q}×${C}, `)
    }
  })

  it('rows whose ends run down the rows on the taps inside the input, one k loop a row of taps, match on every ISA, at 1 and 2 threads', () => {
    // Padding 1, 20 to 24 input channels in one block (a row's 3 taps fused): on AVX-512's 6 × 64 and AVX2's 6 × 16
    // a row of 27 to 29 positions models cheaper in columns than on window copies (PK_CONV(columns_pay)), so the call
    // takes whole rows: the fused positions' whole tiles in place, and the end positions and the fused ones past the
    // whole tiles down the rows, each on the taps it reads inside the input in one call (PK_CONV(columns)). 7 and 3
    // rows leave a short batch; 70 output channels cross a panel. The same with bias and ReLU applied in the tiles'
    // registers where the outputs sum whole (PK_CONV(sums_whole)) and after the columns elsewhere.
    for (const [P, Q, C] of [[7, 28, 24], [3, 27, 20], [3, 29, 23]]) {
      const sizes = new Map([['N', 1], ['H', P], ['W', Q], ['P', P], ['Q', Q], ['C', C], ['K', 70], ['R', 3], ['S', 3]])
      expectNhwcMatches(sizes, P * Q + C, C * 9, `${P}×${Q}×${C}, `)
    }
    const fused = FUSED.find((k) => k.name === 'bias_relu_fused')!
    const sizes = new Map([['N', 1], ['H', 7], ['W', 29], ['P', 7], ['Q', 29], ['C', 24], ['K', 70], ['R', 3], ['S', 3]])
    matchesEverywhere(fused, UNFUSED.get(fused.name)!, () => sizes, 2)
  })

  it('rows of at most three register tiles, each k loop over all 300 input channels, match the interpreter on every ISA, at 1 and 2 threads', () => {
    // 13 positions a row stay direct (two tiles and more) on 2 or 3 tiles, so each tile's k loop takes all 300 input
    // channels (pk_conv_all_channels) where the plan's kc is 128 or 256; 70 output channels cross a panel.
    const sizes = new Map([['N', 1], ['H', 5], ['W', 13], ['P', 5], ['Q', 13], ['C', 300], ['K', 70], ['R', 3], ['S', 3]])
    expectNhwcMatches(sizes, 413, 300 * 9, '5×13×300, ')
  })

  it('a filter each member packs block by block (channels last) or the team packs together (channels first) matches on every ISA, at 1 and 2 threads', () => {
    // Rows of 26 positions stay direct, weight-stationary. At 2 threads each member of a channels-last call packs each
    // block of the filter into its own copy just before its rows use it; a channels-first one has 120 output channels
    // × 9 taps × 64 input channels, past PK_CONV_PARALLEL_PACK_MIN (65,536) packed elements, so each member packs its
    // share of the taps before the team computes. Calls alternate between two filters, so that a block or share left
    // unpacked cannot pass on the previous call's packed filter.
    for (const name of ['nhwc_acc', 'nchw']) {
      const kernel = KERNELS.find((k) => k.name === name)!
      const sizes = new Map([['N', 1], ['H', 2], ['W', 26], ['P', 2], ['Q', 26], ['C', 64], ['K', 120], ['R', 3], ['S', 3]])
      const next = rng(120)
      const cases = [0, 1].map(() => {
        const args = irArgs(kernel, sizes, next)
        const want = copyArgs(args)
        interpret(kernel, want)
        return { args, want }
      })
      const out = kernel.params.findIndex((p) => p.name === 'O')
      let calls = 0
      onEveryIsaAndThreads(addon, (isa, threads) => {
        const { args, want } = cases[calls++ % 2]
        const got = copyArgs(args)
        ;(addon[kernel.name] as Fn)(...got)
        expect(maxRelErr(got[out] as TensorArray, want[out] as TensorArray), `${name}, ${isa}, ${threads} thread(s)`).toBeLessThan(tolerance('f32', 64 * 9))
      })
    }
  })

  for (const kernel of FUSED) {
    it(`${kernel.name}: the statement after the convolution runs as its epilogue and matches the interpreter in JS and on every ISA, at 1 and 2 threads`, () => {
      const conv = kernel.body.find((s) => s.kind === 'convolution')
      expect(conv?.kind === 'convolution' && conv.epilogue, 'fused').toBe(1)
      expect(kernel.tensors.map((t) => t.name), 'T is gone').not.toContain('T')
      expect(planned(kernel)).toEqual(ISAS.filter((i) => i.microkernels.length > 0).map((i) => i.name))
      // O starts as random numbers: the kernel's zero fill of it is the driver's (zero_out) on ISAs with a plan. The
      // last trial has no input channels: every sum is 0 and the epilogue still runs on the whole output.
      matchesEverywhere(kernel, UNFUSED.get(kernel.name)!, (next, trial) => new Map([...sizesOf(next), ...(trial === 5 ? [['C', 0] as const] : [])]))
    })
  }

  for (const kernel of KERNELS) {
    it(`${kernel.name} matches the interpreter in JS and on every ISA, at 1 and 2 threads`, () => {
      matchesEverywhere(kernel, kernel, sizesOf)
    })
  }
})

/** `trials` trials of `kernel`'s JS and every ISA at 1 and 2 threads against the interpreter running `reference`. */
function matchesEverywhere(
  kernel: Kernel, reference: Kernel, sizesFor: (next: () => number, trial: number) => Map<string, number>, trials = 6,
): void {
  const next = rngOf(kernel.name)
  const dtype = kernel.tensors[0].dtype
  const out = kernel.params.findIndex((p) => p.name === 'O')
  const js = new Function(`'use strict'; return ${emitJs(kernel)}`)() as Fn
  for (let trial = 0; trial < trials; trial++) {
    const sizes = sizesFor(next, trial)
    const args = irArgs(kernel, sizes, next)
    const want = copyArgs(args)
    interpret(reference, want)
    // Every output sums C·27 terms at most; an epilogue adds two roundings.
    const tol = tolerance(dtype, sizes.get('C')! * 27 + 2)
    const shape = [...sizes].map(([k, v]) => `${k}=${v}`).join(' ')
    const viaJs = copyArgs(args)
    js(...viaJs)
    expect(maxRelErr(viaJs[out] as TensorArray, want[out] as TensorArray), `${kernel.name} JS ${shape}`).toBeLessThan(tol)
    // Odd trials pass every array as a view at an odd element offset, which no fresh (16-byte aligned) array is.
    const odd = trial % 2 === 1
    onEveryIsaAndThreads(addon, (isa, threads) => {
      const got = (odd ? copyArgsAtOddOffsets : copyArgs)(args)
      ;(addon[kernel.name] as Fn)(...got)
      const what = `${kernel.name} ${shape}${odd ? ', arrays at odd element offsets,' : ''} on ${isa}, ${threads} thread(s)`
      expect(maxRelErr(got[out] as TensorArray, want[out] as TensorArray), what).toBeLessThan(tol)
    })
  }
}
