/**
 * Times candidate blockings of one contraction on the build machine (PolyDL's last step: run the top k, keep the
 * fastest). Each candidate becomes a copy of the kernel whose contraction runs only that blocking, exported as
 * `<kernel>__<n>`; all copies go into one addon for the ISA (and scalar code, which a CPU without it runs instead),
 * built through the addon cache (a repeat costs nothing) and loaded into this process.
 * Before timing, every copy's output is checked against the first one's; the copies that agree are timed together
 * in rounds (measure/timing.ts), one call each per round, and each copy's fastest call counts.
 */
import type { KernelAbi } from '../../runtime/abi.ts'
import { buildAddon } from '../addon/build.ts'
import { emitAddonSource } from '../emit/napi.ts'
import type { GemmBlocking, Kernel } from '../ir/nodes.ts'
import { mapStmts } from '../ir/walk.ts'
import type { Isa } from '../targets/isa.ts'
import { SCALAR } from '../targets/scalar.ts'
import { argumentsOf } from '../measure/arguments.ts'
import { loadBuiltAddon } from '../measure/load-built.ts'
import { timeCalls } from '../measure/timing.ts'

export interface VariantRequest {
  /** Lowered IR holding the contraction, and its ABI. */
  readonly kernel: Kernel
  readonly abi: KernelAbi
  readonly contraction: string
  readonly isa: Isa
  readonly blockings: readonly GemmBlocking[]
  readonly cacheDir: string
  /** Threads the addon runs with; default: its own default. */
  readonly threads?: number
}

/** The loaded copies: call `timeVariants` on them. */
export interface Variants {
  /** The ISA the addon runs on this CPU: the requested one, or `scalar` when the CPU lacks it. */
  readonly isa: string
  readonly abi: KernelAbi
  readonly calls: readonly Call[]
  /** The addon's thread count, for every copy. */
  readonly setThreads: (n: number) => void
  readonly buildMs: number
  readonly cached: boolean
}

type Call = (...args: unknown[]) => unknown

/** The fewest and most rounds `timeVariants` runs, whatever its budget says. */
export const MIN_ROUNDS = 2
export const MAX_ROUNDS = 50
const TOLERANCE = 1e-3

export async function loadVariants(req: VariantRequest): Promise<{ ok: true; variants: Variants } | { ok: false; error: string }> {
  const copies = req.blockings.map((blocking, n) => ({
    kernel: withBlocking(req.kernel, req.contraction, req.isa, blocking, `${req.kernel.name}__${n}`),
    abi: { ...req.abi, name: `${req.abi.name}__${n}` },
    symbol: `kt_${n}`,
  }))
  const isas = req.isa.name === SCALAR.name ? [SCALAR] : [req.isa, SCALAR]
  const sources = emitAddonSource(copies, { moduleId: `tuning of ${req.kernel.name}`, isas, threads: req.threads })
  const built = await buildAddon({ sources, cacheDir: req.cacheDir })
  if (!built.ok) return { ok: false, error: built.error }
  const addon = loadBuiltAddon(built.path, built.hash, copies.map((c) => c.abi.name))
  const meta = addon.meta
  const variants: Variants = {
    isa: meta.isa,
    abi: req.abi,
    calls: copies.map((c) => addon.call(c.abi.name)),
    setThreads: (n) => meta.setThreads(n),
    buildMs: built.ms,
    cached: built.cached,
  }
  return { ok: true, variants }
}

/**
 * The kernel with contraction `id` running `blocking` on `isa` (which must have a schedule for it), its loops
 * elsewhere; without its sliced form, which would take the calls of few rows from the blocking timed.
 */
export function withBlocking(kernel: Kernel, id: string, isa: Isa, blocking: GemmBlocking, name: string): Kernel {
  const body = mapStmts(kernel.body, {
    contraction: (c) => {
      if (c.id !== id) return c
      const own = c.schedules.filter((x) => x.isa === isa.name).map(({ microkernel }) => ({ isa: isa.name, microkernel, ...blocking }))
      return { ...c, schedules: own, sliced: undefined }
    },
  })
  return { ...kernel, name, body }
}

/**
 * Fastest seconds per call of the copies `which` at `sizes` (Infinity: output disagreed with the first copy's, not
 * timed), after at least MIN_ROUNDS rounds and until `budgetMs` or `maxRounds`.
 */
export function timeVariants(
  v: Variants, which: readonly number[], sizes: ReadonlyMap<string, number>, budgetMs: number, maxRounds = MAX_ROUNDS,
): number[] {
  const args = argumentsOf(v.abi, sizes, 'random')
  const outputs = v.abi.params.flatMap((p, n) => (p.kind === 'tensor' && p.role !== 'in' ? [n] : []))
  const initial = outputs.map((n) => (args[n] as Float32Array).slice())
  const run = (call: Call): Float64Array[] => {
    outputs.forEach((n, i) => (args[n] as Float32Array).set(initial[i]))
    call(...args)
    return outputs.map((n) => Float64Array.from(args[n] as ArrayLike<number>))
  }
  const reference = run(v.calls[which[0]])
  // Places in `which` of the copies that agree with the first: only those are timed.
  const agreeing = which.flatMap((n, i) => (i === 0 || agrees(run(v.calls[n]), reference) ? [i] : []))
  const timed = timeCalls(agreeing.map((i) => () => v.calls[which[i]](...args)), { budgetMs, minRounds: MIN_ROUNDS, maxRounds })
  return which.map((_, i) => (agreeing.includes(i) ? timed[agreeing.indexOf(i)].bestNs / 1e9 : Number.POSITIVE_INFINITY))
}

function agrees(out: readonly Float64Array[], reference: readonly Float64Array[]): boolean {
  return out.every((a, t) => {
    const b = reference[t]
    let scale = 1e-30
    for (let i = 0; i < b.length; i++) scale = Math.max(scale, Math.abs(b[i]))
    for (let i = 0; i < a.length; i++) if (!(Math.abs(a[i] - b[i]) <= TOLERANCE * scale)) return false
    return true
  })
}
