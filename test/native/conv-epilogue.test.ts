/**
 * Issue 16's epilogues in registers for convolutions: where a direct channels-last call sums output tiles whole in one
 * tile call (every input channel in one block, the filter packed, the rows of taps that reach the input one run: the
 * positions fused along the last axis, and the row's ends too on window copies), those tiles apply the fused epilogue
 * before storing (PK_CONV(sums_whole), native/polykern_conv_driver.h); the outlined epilogue runs on the rest.
 * The plans are forced onto that path (filter packed, every channel in one block, no im2col) with an L1 share that
 * allows window copies or not, blocks of one register tile (several per row and per channel range) or of whole rows,
 * in both stationary orders. Shapes: 'same' outputs, outputs shorter than or overhanging the input (rows whose taps
 * reach it only in part, or not at all), odd channel counts (edge tiles), stride 2; a 1×1 filter without padding (a
 * single tap along the last axis is a run of one: its positions inside the input apply it too). Against the
 * interpreter on the unfused spec, on every ISA this CPU runs, at 1 and 2 threads.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { emitC } from '../../plugin/emit/c.ts'
import { interpret } from '../../plugin/ir/interp.ts'
import type { ConvolutionPlan, Kernel } from '../../plugin/ir/nodes.ts'
import { AVX2, AVX512, microkernelNamed } from '../../plugin/targets/index.ts'
import { EPILOGUE_SPECS, convolutionKernel, fusedConvolutionKernel } from '../support/convolutions.ts'
import { copyArgs, copyArgsAtOddOffsets, irArgs } from '../support/kernel-args.ts'
import { maxRelErr, rngOf, tolerance, type TensorArray } from '../support/random.ts'
import { loadTestAddon, onEveryIsaAndThreads, testAddonSource, type KernelCall as Fn, type TestAddon } from '../support/test-addon.ts'

const pick = <T,>(next: () => number, xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]

/**
 * The epilogue specs whose tiles can apply it, with their filter and stride along each spatial axis and the plans
 * they run on (bias + ReLU on each, the others on two that differ in every choice: each kernel is a tile family more
 * to compile).
 */
const SPECS: readonly { readonly name: string; readonly taps?: number; readonly pad?: number; readonly stride: number; readonly variants: readonly Variant[] }[] = [
  { name: 'bias_relu', stride: 1, variants: ['copies_ws_tiles', 'copies_is', 'in_place_is', 'in_place_ws_tiles'] },
  { name: 'pointwise_bias_relu', taps: 1, pad: 0, stride: 1, variants: ['in_place_is', 'in_place_ws_tiles'] },
  { name: 'residual_s2', taps: 3, stride: 2, variants: ['copies_is', 'in_place_ws_tiles'] },
  { name: 'f64_clamp', taps: 3, stride: 1, variants: ['copies_ws_tiles', 'in_place_is'] },
]

const HUGE = 2 ** 30
/** Plans on the path whose tiles sum outputs whole: `copies` (an L1 share that holds any window), `tiles` (one
    register tile a block, with no L2 share), `stationary`. */
const forced = (stationary: ConvolutionPlan['stationary'], copies: boolean, tiles: boolean) => (p: ConvolutionPlan): ConvolutionPlan => {
  const mk = microkernelNamed(p.microkernel)!
  return {
    ...p, kc: HUGE, gemmKc: HUGE, packFilterFrom: 0, im2colBelow: 0, stationary,
    l1Elements: copies ? HUGE : 0, l2Elements: tiles ? 0 : HUGE, ...(tiles ? { mc: mk.mr, nc: mk.nr } : {}),
  }
}
const VARIANTS = {
  copies_ws_tiles: forced('weight', true, true),
  copies_is: forced('input', true, false),
  in_place_is: forced('input', false, false),
  in_place_ws_tiles: forced('weight', false, true),
}
type Variant = keyof typeof VARIANTS

/** 1×1 without padding (here only: conv.test.ts runs every spec of EPILOGUE_SPECS, a tile family each). */
const SPEC_TEXTS: Readonly<Record<string, string>> = {
  ...EPILOGUE_SPECS,
  pointwise_bias_relu: 'I: f32[N, H, W, C]\nF: f32[1, 1, C, K]\nbias: f32[K]\nO: f32[N, P, Q, K]\nlet T: f32[N, P, Q, K]\n' +
    'T[n, p, q, k] +=! I[n, p + r, q + s, c] * F[r, s, c, k]\nO[n, p, q, k] = max(T[n, p, q, k] + bias[k], 0)',
}

const CASES = SPECS.flatMap((spec) => spec.variants.map((variant) => ({
  spec,
  fused: fusedConvolutionKernel(SPEC_TEXTS[spec.name], `${spec.name}_${variant}`, 'direct', VARIANTS[variant]),
  unfused: convolutionKernel(SPEC_TEXTS[spec.name], spec.name),
})))

let addon: TestAddon
let remove = () => {}
beforeAll(async () => void ({ addon, remove } = await loadTestAddon(testAddonSource(CASES.map((c) => c.fused), 'test/native/conv-epilogue.test.ts'), 'conv-epilogue-test')), 600_000)
afterAll(() => remove())

/** Output extents of 'same' convolutions (padding 1 unless the spec says), or one shorter or longer; the rest random and odd. */
function sizesOf(next: () => number, spec: (typeof SPECS)[number]): Map<string, number> {
  const [H, W, R, S] = [pick(next, [1, 3, 5]), pick(next, [3, 7, 13, 22, 31]), pick(next, [1, 3]), pick(next, [1, 3])]
  const out = (extent: number, taps: number) =>
    Math.max(1, Math.floor((extent + 2 * (spec.pad ?? 1) - (spec.taps ?? taps)) / spec.stride) + 1 + pick(next, [-1, 0, 0, 1]))
  return new Map([
    ['N', pick(next, [1, 2])], ['H', H], ['W', W], ['R', R], ['S', S], ['P', out(H, R)], ['Q', out(W, S)],
    ['C', pick(next, [1, 3, 8, 19])], ['K', pick(next, [5, 16, 33, 70])],
  ])
}

describe('a convolution whose direct tiles sum outputs whole applies its epilogue in registers', () => {
  for (const { spec, fused, unfused } of CASES) {
    it(`${fused.name}: the tiles apply it on every ISA, and it matches the interpreter on the unfused spec at 1 and 2 threads`, () => {
      for (const isa of [AVX512, AVX2]) expect(emitC(fused, 'k', isa), `${isa.name}: its tiles apply it`).toContain('.final = (pk_conv_final)')
      expectMatches(fused, unfused, (next) => sizesOf(next, spec))
    })
  }
})

/** 6 trials of `kernel` on every ISA and thread count against the interpreter running `reference`. */
function expectMatches(kernel: Kernel, reference: Kernel, sizesFor: (next: () => number) => Map<string, number>): void {
  const next = rngOf(kernel.name)
  const dtype = kernel.tensors[0].dtype
  const out = kernel.params.findIndex((p) => p.name === 'O')
  for (let trial = 0; trial < 6; trial++) {
    const sizes = sizesFor(next)
    const args = irArgs(kernel, sizes, next)
    const want = copyArgs(args)
    interpret(reference, want)
    const shape = [...sizes].map(([k, v]) => `${k}=${v}`).join(' ')
    // Odd trials pass every array as a view at an odd element offset, which no fresh (16-byte aligned) array is.
    const odd = trial % 2 === 1
    onEveryIsaAndThreads(addon, (isa, threads) => {
      const got = (odd ? copyArgsAtOddOffsets : copyArgs)(args)
      ;(addon[kernel.name] as Fn)(...got)
      // Every output sums C·9 terms at most; the epilogue adds two roundings.
      const tol = tolerance(dtype, sizes.get('C')! * 9 + 2)
      const what = `${kernel.name} ${shape}${odd ? ', views at odd offsets,' : ''} on ${isa}, ${threads} thread(s)`
      expect(maxRelErr(got[out] as TensorArray, want[out] as TensorArray), what).toBeLessThan(tol)
    })
  }
}
