/**
 * The report's measured GFLOP/s: each kernel of a freshly built addon called on the build machine, within a small
 * budget. A contraction's kernel is timed at the representative sizes of its first contraction's shape classes,
 * cheapest first, while the budget lasts; any other kernel at one size every size parameter shares. The fastest of a
 * few calls counts (measure/timing.ts), after one warm-up call. FLOPs are twice the kernel's work (Σ of its blocks'
 * loop extents): exact for a contraction's multiply-adds, a convention for anything else.
 */
import { elementCount, type KernelAbi } from '../../runtime/abi.ts'
import { workOfCall } from '../../runtime/work.ts'
import type { Contraction, Kernel } from '../ir/nodes.ts'
import { argumentsOf, largestTensor, uniformSizes } from '../measure/arguments.ts'
import type { BuiltAddon } from '../measure/load-built.ts'
import { timeCalls } from '../measure/timing.ts'
import { shapeClasses } from '../schedule/select.ts'
import { sizesOf } from '../tune/tune.ts'
import { ISAS } from '../targets/index.ts'
import type { Machine } from '../targets/machine.ts'
import type { Measurement } from './report-types.ts'

/** One kernel's timing may take this long, argument set-up included. */
export const MEASURE_BUDGET_MS = 200
/** Tensors larger than this are not allocated for a timing. */
const MAX_ELEMENTS = 2 ** 22
/** The uniform size stops growing at this much work per call. */
const UNIFORM_MAX_WORK = 2 ** 24
const TIMED_CALLS = 3
/** Calls always timed: on a shared machine one call alone can land on a busy core. */
const MIN_TIMED_CALLS = 2
/** Before the first timing, how fast a call is assumed to run when deciding whether it fits the budget. */
const GUESSED_GFLOPS = 5

interface Plan {
  readonly label: string
  readonly sizes?: ReadonlyMap<string, number>
  readonly skipped?: string
}

export function measureKernel(
  abi: KernelAbi, ir: Kernel, contractions: readonly Contraction[], addon: BuiltAddon, ctx: { machine: Machine; threads: number },
): Measurement[] {
  const call = addon.call(abi.name)
  const work = workOfCall(abi)
  const plans = contractions.length > 0 ? classPlans(ir, contractions[0], addon.meta.isa, ctx) : [uniformPlan(abi)]
  const deadline = performance.now() + MEASURE_BUDGET_MS
  let rate = GUESSED_GFLOPS * 1e9
  const rows = plans.map((plan) => {
    const sizes = plan.sizes ?? new Map<string, number>()
    const args = abi.params.map((p) => (p.kind === 'size' ? sizes.get(p.name) ?? 0 : undefined))
    const flops = 2 * (work?.(args) ?? 0)
    return { plan, sizes, flops, intensity: flops / tensorBytes(abi, sizes) }
  })
  rows.sort((x, y) => x.flops - y.flops)
  return rows.map(({ plan, sizes, flops, intensity }): Measurement => {
    const base = { label: plan.label, sizes: Object.fromEntries(sizes), flops, intensity }
    const skip = plan.skipped ?? (work === undefined ? 'no work formula' : undefined) ?? overBudget(abi, sizes, flops / rate, deadline)
    if (skip !== undefined) return { ...base, skipped: skip }
    const args = argumentsOf(abi, sizes, 'random')
    const budgetMs = Math.max(0, deadline - performance.now())
    const [timed] = timeCalls([() => call(...args)], { warmCalls: 1, budgetMs, minRounds: MIN_TIMED_CALLS, maxRounds: TIMED_CALLS })
    const seconds = timed.bestNs / 1e9
    rate = Math.max(rate, flops / seconds)
    return { ...base, seconds, gflops: flops / seconds / 1e9 }
  })
}

/** Why a timing at `sizes` is left out, or undefined when it fits: tensors too large, or too little time left. */
function overBudget(abi: KernelAbi, sizes: ReadonlyMap<string, number>, guessSeconds: number, deadline: number): string | undefined {
  if (largestTensor(abi, sizes) > MAX_ELEMENTS) {
    return `a tensor would have more than 2^22 elements`
  }
  // The warm-up call and the calls always timed must fit in what is left.
  if (performance.now() + (1 + MIN_TIMED_CALLS) * guessSeconds * 1e3 > deadline) return `over the ${MEASURE_BUDGET_MS} ms timing budget`
  return undefined
}

/** The shape classes of the contraction's microkernel on the ISA that runs here, at sizes the kernel can take. */
function classPlans(ir: Kernel, c: Contraction, isa: string, ctx: { machine: Machine; threads: number }): Plan[] {
  const schedule = c.schedules.find((s) => s.isa === isa)
  const mk = ISAS.find((i) => i.name === isa)?.microkernels.find((m) => m.name === schedule?.microkernel)
  if (mk === undefined) return [{ label: 'large', skipped: `no blocked GEMM on ${isa}` }]
  return shapeClasses(mk, ctx.threads, c.roles.batch.length > 0).map((sc) => {
    const sizes = sizesOf(ir, c, sc)
    return sizes ? { label: sc.name, sizes } : { label: sc.name, skipped: 'its sizes do not fit the kernel’s size parameters' }
  })
}

/** Every size parameter S, the largest power of two from 16 whose tensors and work stay small. */
function uniformPlan(abi: KernelAbi): Plan {
  const work = workOfCall(abi)
  const args = (s: number) => abi.params.map((p) => (p.kind === 'size' ? s : undefined))
  let s = 16
  const fits = (x: number) => largestTensor(abi, uniformSizes(abi, x)) <= MAX_ELEMENTS && (work?.(args(x)) ?? 0) <= UNIFORM_MAX_WORK
  while (s < 1 << 16 && fits(2 * s)) s *= 2
  return { label: 'uniform', sizes: uniformSizes(abi, s) }
}

const elements = (shape: readonly (string | number)[], sizes: ReadonlyMap<string, number>): number =>
  elementCount(shape, (d) => sizes.get(d) ?? 1)

/** Bytes of every tensor argument at these sizes, each moved once. */
function tensorBytes(abi: KernelAbi, sizes: ReadonlyMap<string, number>): number {
  const width = { f32: 4, f64: 8, i32: 4 } as const
  return abi.params.reduce((n, p) => (p.kind === 'tensor' ? n + elements(p.shape, sizes) * width[p.dtype] : n), 0)
}
