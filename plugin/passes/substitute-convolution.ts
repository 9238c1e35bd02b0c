/**
 * Direct convolution (SConv, no im2col): every block that matches a convolution (match-convolution.ts) is wrapped in
 * a `Convolution` holding the block itself (lowered later like any block: what the interpreter, the JS fallback and
 * ISAs without a plan run) and, per ISA with a microkernel of its element type, the tiling the C emitter runs it with
 * (schedule/conv-slicing.ts), for a channels-last or channels-first layout (match-convolution.ts: convolutionLayout).
 * `lowering: 'im2col'` plans the baseline instead (blocks of output rows' windows copied into a buffer, then the same
 * microkernel as one GEMM per block; channels last only). Anything else stays a block, with the reason logged.
 * Needs: block form. Leaves: Convolutions around single-store blocks.
 */
import type { Block, Convolution, ConvolutionPlan, Kernel } from '../ir/nodes.ts'
import { mapStmts } from '../ir/walk.ts'
import {
  IM2COL_BELOW_TILES, PACK_FILTER_FROM, convolutionMicrokernel, gemmKc, representativeSizes, sliceConvolution,
} from '../schedule/conv-slicing.ts'
import type { Isa } from '../targets/isa.ts'
import type { Machine } from '../targets/machine.ts'
import { convolutionLayout, matchConvolution } from './match-convolution.ts'

export interface SubstituteConvolutionOptions {
  readonly isas: readonly Isa[]
  readonly machine: Machine
  /** `direct` (default) or the im2col baseline. */
  readonly lowering?: ConvolutionPlan['lowering']
  /** Why each block did or did not become a convolution, per ISA (POLYKERN_DEBUG=match). */
  readonly log?: (message: string) => void
}

export function substituteConvolutions(kernel: Kernel, opts: SubstituteConvolutionOptions): Kernel {
  const tensors = new Map(kernel.tensors.map((t) => [t.name, t]))
  const body = mapStmts(kernel.body, {
    block: (b) => {
      // Only reductions can be convolutions; other blocks say nothing, as in substitute-microkernel.
      if (!b.tags.includes('reduction')) return b
      const match = matchConvolution(b, tensors)
      if (!match.ok) {
        opts.log?.(`${kernel.name} ${b.id}: not a convolution: ${match.reason}`)
        return b
      }
      return convolutionOf(kernel.name, b, match.roles, opts)
    },
  })
  return body === kernel.body ? kernel : { ...kernel, body }
}

function convolutionOf(
  kernel: string, block: Block, roles: Convolution['roles'], opts: SubstituteConvolutionOptions,
): Block | Convolution {
  const lowering = opts.lowering ?? 'direct'
  const read = convolutionLayout(roles)
  const problem = 'reason' in read ? read.reason
    : read.layout === 'channels-first' && lowering === 'im2col' ? 'im2col needs channels last' : undefined
  if (problem !== undefined || 'reason' in read) {
    opts.log?.(`${kernel} ${block.id}: a convolution, run as loops: ${problem}`)
    return block
  }
  const { layout } = read
  const sizes = representativeSizes(roles)
  const plans: ConvolutionPlan[] = []
  for (const isa of opts.isas) {
    const ofType = isa.microkernels.filter((m) => m.dtype === roles.dtype)
    // A direct channels-last plan runs on the microkernel whose tiles cost least on the sizes; im2col, one GEMM per block
    // of rows, forced or for a direct plan's short rows, on the one that costs least on each call's GEMMs (their
    // sizes are the call's: a 7×7 map's 49 positions fill 7-row tiles). Channels first keeps the GEMMs'.
    const mk = lowering === 'direct' && layout === 'channels-last' ? convolutionMicrokernel(ofType, sizes) : ofType[0]
    if (mk === undefined) {
      opts.log?.(`${kernel} ${block.id}: ${isa.name} has no ${roles.dtype} microkernel: the convolution runs as loops`)
      continue
    }
    const tiles = sliceConvolution(mk, sizes, opts.machine)
    // im2col runs one output row's GEMM after another: the input-stationary order by construction.
    const plan: ConvolutionPlan = {
      isa: isa.name, microkernel: mk.name, layout, lowering, ...tiles,
      im2colMicrokernels: layout === 'channels-last' ? ofType.map((m) => m.name) : [],
      // Channels first has no im2col: its positions are the microkernel's columns.
      im2colBelow: lowering === 'direct' && layout === 'channels-last' ? IM2COL_BELOW_TILES * mk.mr : 0,
      gemmKc: layout === 'channels-last' ? gemmKc(ofType[0], sizes, opts.machine) : tiles.kc,
      packFilterFrom: PACK_FILTER_FROM,
      ...(lowering === 'im2col' ? { stationary: 'input' as const } : {}),
    }
    plans.push(plan)
    opts.log?.(
      `${kernel} ${block.id}: ${isa.name} runs a ${lowering} ${layout} convolution on ${mk.name}: mc ${plan.mc} nc ${plan.nc} ` +
        `kc ${plan.kc}, ${plan.stationary}-stationary` +
        (plan.im2colMicrokernels.some((m) => m !== mk.name)
          ? `; its short rows through im2col on the cheapest of ${plan.im2colMicrokernels.join(', ')} for each call` : ''),
    )
  }
  if (plans.length === 0) return block
  return { kind: 'convolution', id: block.id, body: [block], roles, plans }
}
