/** Convolution kernels from spec text through the pass that finds them, on a fixed machine so tiles never vary. */
import { splitOutputFactors } from '../../plugin/passes/output-factors.ts'
import { buildKernel } from '../../plugin/spec/build-ir.ts'
import type { ConvolutionPlan, Kernel } from '../../plugin/ir/nodes.ts'
import { verifyKernel } from '../../plugin/ir/verify.ts'
import { analyzeKernel } from '../../plugin/analysis/deps.ts'
import { fuseEpilogues } from '../../plugin/passes/fuse-epilogue.ts'
import { lowerBlocks } from '../../plugin/passes/lower-blocks.ts'
import { vectorize } from '../../plugin/passes/vectorize.ts'
import { reorder } from '../../plugin/passes/reorder.ts'
import { substituteConvolutions } from '../../plugin/passes/substitute-convolution.ts'
import { ISAS } from '../../plugin/targets/index.ts'
import { paramsOf, TEST_MACHINE } from './contractions.ts'
import { specOf } from './examples.ts'

/** Spec → lowered IR with convolutions, as the pipeline builds it; `plan` may rewrite every plan (small tiles). */
export const convolutionKernel = (
  specText: string, name: string, lowering: ConvolutionPlan['lowering'] = 'direct',
  plan: (p: ConvolutionPlan) => ConvolutionPlan = (p) => p, log?: (message: string) => void,
): Kernel => lowered(specText, name, lowering, plan, log, false)

/**
 * A convolution with an element-wise statement after it, fused as the pipeline fuses it (fuse-epilogue.ts, from the
 * block form's dependences), lowered and vectorized; `plan` as in convolutionKernel, `log` sees the fusion's messages.
 */
export const fusedConvolutionKernel = (
  specText: string, name: string, lowering: ConvolutionPlan['lowering'] = 'direct',
  plan: (p: ConvolutionPlan) => ConvolutionPlan = (p) => p, log?: (message: string) => void,
): Kernel => lowered(specText, name, lowering, plan, log, true)

function lowered(
  specText: string, name: string, lowering: ConvolutionPlan['lowering'], plan: (p: ConvolutionPlan) => ConvolutionPlan,
  log: ((message: string) => void) | undefined, fuse: boolean,
): Kernel {
  const built = { ...buildKernel(specOf(specText, paramsOf(specText))), name }
  // Fused as the pipeline fuses: a factor of the output's indices split off the sum first.
  const blockForm = fuse ? splitOutputFactors(built) : built
  const ir = substituteConvolutions(reorder(blockForm), { isas: ISAS, machine: TEST_MACHINE, lowering, log: fuse ? undefined : log })
  const fused = fuse ? fuseEpilogues(ir, analyzeKernel(blockForm), log) : ir
  const body = fused.body.map((s) => (s.kind === 'convolution' ? { ...s, plans: s.plans.map(plan) } : s))
  const loops = lowerBlocks({ ...fused, body })
  return verifyKernel(fuse ? vectorize(loops) : loops, 'test', { lowered: true })
}

/**
 * Convolutions with an epilogue (bias, ReLU, scale, residual), each laid out as one path of the driver runs it: channels
 * last and first, grouped, strided, 1×1 over dense axes, f64; the epilogue's indices named unlike the convolution's.
 */
export const EPILOGUE_SPECS: Readonly<Record<string, string>> = {
  bias_relu: 'I: f32[N, H, W, C]\nF: f32[R, S, C, K]\nbias: f32[K]\nO: f32[N, P, Q, K]\nlet T: f32[N, P, Q, K]\n' +
    'T[n, p, q, k] +=! I[n, p + r - 1, q + s - 1, c] * F[r, s, c, k]\nO[n, p, q, k] = max(T[n, p, q, k] + bias[k], 0)',
  // Stride 2, a scale per channel and a residual; the statement's own index names.
  residual_s2: 'I: f32[N, H, W, C]\nF: f32[3, 3, C, K]\nscale: f32[K]\nX: f32[N, P, Q, K]\nO: f32[N, P, Q, K]\n' +
    'let T: f32[N, P, Q, K]\nT[n, p, q, k] +=! I[n, 2*p + r - 1, 2*q + s - 1, c] * F[r, s, c, k]\n' +
    'O[a, b, e, d] = T[a, b, e, d] * scale[d] + X[a, b, e, d]',
  nchw_bias_relu: 'I: f32[N, C, H, W]\nF: f32[K, C, 3, 3]\nbias: f32[K]\nO: f32[N, K, P, Q]\nlet T: f32[N, K, P, Q]\n' +
    'T[n, k, p, q] +=! I[n, c, p + r - 1, q + s - 1] * F[k, c, r, s]\nO[n, k, p, q] = max(T[n, k, p, q] + bias[k], 0)',
  grouped_bias: 'I: f32[N, H, W, G, C]\nF: f32[G, 3, 3, C, K]\nbias: f32[G, K]\nO: f32[N, P, Q, G, K]\n' +
    'let T: f32[N, P, Q, G, K]\nT[n, p, q, g, k] +=! I[n, p + r - 1, q + s - 1, g, c] * F[g, r, s, c, k]\n' +
    'O[n, p, q, g, k] = T[n, p, q, g, k] + bias[g, k]',
  // 1×1 over dense axes (collapsed into one row, the epilogue's blocks mapped back to its axes); T read twice.
  pointwise_square: 'I: f32[N, H, W, C]\nF: f32[1, 1, C, K]\nO: f32[N, H, W, K]\nlet T: f32[N, H, W, K]\n' +
    'T[n, p, q, k] +=! I[n, p + r, q + s, c] * F[r, s, c, k]\nO[n, p, q, k] = T[n, p, q, k] * T[n, p, q, k]',
  // In place on the convolution's own output, no temporary.
  in_place_bias_relu: 'I: f32[N, H, W, C]\nF: f32[3, 3, C, K]\nbias: f32[K]\nO: f32[N, P, Q, K]\n' +
    'O[n, p, q, k] +=! I[n, p + r - 1, q + s - 1, c] * F[r, s, c, k]\nO[n, p, q, k] = max(O[n, p, q, k] + bias[k], 0)',
  // A factor of the output channel inside the product, split off the sum (output-factors.ts) and then fused in place.
  channel_scale_in_product: 'I: f32[N, H, W, C]\nF: f32[3, 3, C, K]\ng: f32[K]\nO: f32[N, P, Q, K]\n' +
    'O[n, p, q, k] +=! I[n, p + r - 1, q + s - 1, c] * F[r, s, c, k] * g[k]',
  f64_clamp: 'I: f64[N, H, W, C]\nF: f64[3, 3, C, K]\nO: f64[N, P, Q, K]\nlet T: f64[N, P, Q, K]\n' +
    'T[n, p, q, k] +=! I[n, p + r - 1, q + s - 1, c] * F[r, s, c, k]\nO[n, p, q, k] = min(max(T[n, p, q, k], -1), 1)',
}

/** Convolutions in every form the direct path takes, and two it declines (depthwise, NCHW with stride 2). */
export const CONV_SPECS: Readonly<Record<string, string>> = {
  // The README's example: NHWC, stride 2, padding 1.
  nhwc_s2: 'I: f32[N, H, W, C]\nF: f32[3, 3, C, K]\nO: f32[N, P, Q, K]\nO[n, p, q, k] +=! I[n, 2*p + r - 1, 2*q + s - 1, c] * F[r, s, c, k]',
  // Filter size at call time, stride 1, padding 1, accumulating into the output's old content.
  nhwc_acc: 'I: f32[N, H, W, C]\nF: f32[R, S, C, K]\nO: f32[N, P, Q, K]\nO[n, p, q, k] += I[n, p + r - 1, q + s - 1, c] * F[r, s, c, k]',
  // Dilation 2, padding 2, the filter's channels outermost.
  dilated: 'I: f32[N, H, W, C]\nF: f32[C, 3, 3, K]\nO: f32[N, P, Q, K]\nO[n, p, q, k] +=! I[n, p + 2*r - 2, q + 2*s - 2, c] * F[c, r, s, k]',
  // 1×1 over dense axes: the driver runs each image as one row of H·W positions.
  pointwise: 'I: f32[N, H, W, C]\nF: f32[1, 1, C, K]\nO: f32[N, H, W, K]\nO[n, p, q, k] +=! I[n, p + r, q + s, c] * F[r, s, c, k]',
  // 1-d, the filter's channels before its taps: taps adjacent in the input are not in the filter.
  conv1d: 'I: f32[W, C]\nF: f32[C, S, K]\nO: f32[Q, K]\nO[q, k] +=! I[2*q + s - 2, c] * F[c, s, k]',
  conv3d: 'I: f32[D, H, W, C]\nF: f32[3, 2, 3, C, K]\nO: f32[T, P, Q, K]\nO[t, p, q, k] +=! I[t + u - 1, p + r, q + s - 1, c] * F[u, r, s, c, k]',
  grouped: 'I: f32[N, H, W, G, C]\nF: f32[G, 3, 3, C, K]\nO: f32[N, P, Q, G, K]\nO[n, p, q, g, k] +=! I[n, p + r - 1, q + s - 1, g, c] * F[g, r, s, c, k]',
  // Groups outermost in the output: one image's rows of consecutive groups follow each other, each with its filter.
  grouped_outer: 'I: f32[N, G, H, W, C]\nF: f32[G, 3, 3, C, K]\nO: f32[N, G, P, Q, K]\nO[n, g, p, q, k] +=! I[n, g, p + r - 1, q + s - 1, c] * F[g, r, s, c, k]',
  f64: 'I: f64[N, H, W, C]\nF: f64[3, 3, C, K]\nO: f64[N, P, Q, K]\nO[n, p, q, k] +=! I[n, p + r - 1, 2*q + s, c] * F[r, s, c, k]',
  depthwise: 'I: f32[N, H, W, C]\nF: f32[3, 3, C]\nO: f32[N, P, Q, C]\nO[n, p, q, c] +=! I[n, p + r - 1, q + s - 1, c] * F[r, s, c]',
  // Channels first: output channels become the microkernel's rows; with stride 2 the input is not read at unit stride.
  nchw_s2: 'I: f32[N, C, H, W]\nF: f32[K, C, 3, 3]\nO: f32[N, K, P, Q]\nO[n, k, p, q] +=! I[n, c, 2*p + r - 1, 2*q + s - 1] * F[k, c, r, s]',
  nchw_grouped: 'I: f32[N, G, C, H, W]\nF: f32[G, K, C, 3, 3]\nO: f32[N, G, K, P, Q]\nO[n, g, k, p, q] +=! I[n, g, c, p + r - 1, q + s - 1] * F[g, k, c, r, s]',
  nchw: 'I: f32[N, C, H, W]\nF: f32[K, C, 3, 3]\nO: f32[N, K, P, Q]\nO[n, k, p, q] +=! I[n, c, p + r - 1, q + s - 1] * F[k, c, r, s]',
  // Padding given at call time (issue 14): `pad` is a size symbol the spec names only in the input's index.
  nhwc_pad: 'I: f32[N, H, W, C]\nF: f32[R, S, C, K]\nO: f32[N, P, Q, K]\nO[n, p, q, k] +=! I[n, 2*p + r - pad, q + s - pad, c] * F[r, s, c, k]',
  nchw_pad: 'I: f32[N, C, H, W]\nF: f32[K, C, 3, 3]\nO: f32[N, K, P, Q]\nO[n, k, p, q] += I[n, c, p + r - pad, q + s - pad] * F[k, c, r, s]',
}
