/**
 * `polykern bench`: each kernel of a file timed on the native addon and on its generated JS loops, on the same random
 * data at the sizes asked for, and the function's own body as written. Reports milliseconds per call (the fastest
 * call, measure/timing.ts) and the speed-up (JS time / native time). The budget holds for the JS loops too: when
 * one call at the sizes asked for would take longer, they are timed at sizes halved until a call's work is at most
 * ESTIMATE_WORK, and their time scaled up by the ratio of the works (marked estimated).
 */
import { workOfCall } from '../../runtime/work.ts'
import type { KernelEntry } from '../../runtime/index.ts'
import { formatDiagnostic } from '../diagnostics.ts'
import type { ResolvedOptions } from '../options.ts'
import type { CompiledKernel } from '../compiled-kernel.ts'
import { compileFile } from '../pipeline.ts'
import { loadCompiled } from '../project/load-compiled.ts'
import { ownBody } from '../verify/own-body.ts'
import { argumentsOf } from '../measure/arguments.ts'
import { elementsOf, type Shape } from '../verify/random-args.ts'
import { timeCalls } from '../measure/timing.ts'

export interface BenchOptions {
  readonly kernel?: string
  /** Sizes by name; a size not given is `defaultSize`. */
  readonly sizes: Readonly<Record<string, number>>
  readonly defaultSize: number
  /** Time budget of each side of each kernel, in ms. */
  readonly budgetMs: number
  /** Called as each kernel's row is done, and with each warning (a kernel whose work dwarfs the others'). */
  readonly onRow?: (row: BenchRow) => void
  readonly onWarning?: (message: string) => void
}

/** A side's time per call: the measurement kit's statistic, its fastest call (measure/timing.ts), in ms. */
export interface Timing {
  readonly ms: number
  /** Calls timed, the warm-up call not counted. */
  readonly calls: number
}

export interface BenchRow {
  readonly kernel: string
  readonly shape: Shape
  readonly native: Timing | null
  /** `estimatedFrom`: the JS loops ran at these smaller sizes and `ms` is scaled up by the work (see above). */
  readonly js: Timing & { readonly estimatedFrom?: Shape }
  /** js.ms / native.ms: how many times faster the native call is; null without native. */
  readonly speedup: number | null
  /**
   * The function's own body as the user wrote it, on the same arguments: what the kernel replaces (an empty body is
   * quick and proves nothing; a hand-written linear scan can beat a quadratic spec). `error` when it throws.
   */
  readonly body: Timing | { readonly error: string }
}

export interface BenchReport {
  readonly file: string
  /** Why there is no native column, when there is none. */
  readonly nativeMissing?: string
  /** The addon's ISA version and pool threads, when it loaded. */
  readonly addon?: { readonly isa: string; readonly threads: number }
  readonly rows: readonly BenchRow[]
  readonly errors: readonly string[]
  readonly available: readonly string[]
}

/** Tensors larger than this are refused before anything is allocated. */
const MAX_ELEMENTS = 2 ** 28
/** The work at which the JS loops are timed when the sizes asked for would overrun the budget (milliseconds in JS). */
const ESTIMATE_WORK = 2 ** 20
/** A kernel whose call does this many times the other kernels' median work, at sizes --size filled in, is warned about. */
const DWARFING = 1000
/** Calls timed per side at most, however short they are. */
const MAX_CALLS = 1000

export class BenchSizeError extends Error {}

export async function benchFile(file: string, code: string, opts: ResolvedOptions, options: BenchOptions): Promise<BenchReport> {
  // As a build would (tuning included), with the sizes checked before the addon is built.
  const asked = { only: options.kernel, errors: 'collect', partialAddon: true } as const
  const compiled = await compileFile(file, code, opts, { ...asked, through: 'tune' })
  const errors = compiled.errors.map((e) => formatDiagnostic(e, code))
  const available = compiled.sites.map((s) => s.name)
  const { kernels } = compiled
  const known = new Set(kernels.flatMap((k) => k.abi.params.filter((p) => p.kind === 'size').map((p) => p.name)))
  const unknown = Object.keys(options.sizes).filter((s) => !known.has(s))
  if (unknown.length > 0 && kernels.length > 0) {
    throw new BenchSizeError(`no kernel here has a size ${unknown.join(', ')}; their sizes: ${[...known].join(', ') || 'none'}`)
  }
  const shapes = kernels.map((k) => shapeOf(k, options))
  if (kernels.length === 0) return { file: compiled.moduleId, rows: [], errors, available }
  warnDwarfing(kernels, shapes, options)

  const built = await compileFile(file, code, opts, { ...asked, from: compiled, through: 'build' })
  const { entries, nativeMissing } = loadCompiled(built, 'polykern bench')
  const rows = kernels.map((k, n) => {
    const entry = entries[n]
    const args = argumentsAt(k, shapes[n])
    const native = entry.nativeFn ? timed(() => entry.nativeFn!(...args), options.budgetMs) : null
    const js = timeJs(k, shapes[n], (shape) => {
      const at = shape === shapes[n] ? args : argumentsAt(k, shape)
      return () => entry.js(...at)
    }, options.budgetMs)
    const body = timeBody(k, code, args, options.budgetMs)
    const row = { kernel: k.abi.name, shape: shapes[n], native, js, speedup: native ? js.ms / native.ms : null, body }
    options.onRow?.(row)
    return row
  })
  const meta = addonMetaOf(entries)
  return { file: compiled.moduleId, nativeMissing, addon: meta, rows, errors, available }
}

/** One warm-up call (V8 optimizes the JS loops, the addon's pool starts, caches warm), then `minCalls` and more while the budget lasts. */
function timed(run: () => unknown, budgetMs: number, minCalls = 3): Timing {
  const [t] = timeCalls([run], { warmCalls: 1, budgetMs, minRounds: minCalls, maxRounds: MAX_CALLS })
  return { ms: t.bestNs / 1e6, calls: t.calls }
}

/** The user's own body timed on `args`, as the kernels are; its error when it cannot run on its own or throws. */
function timeBody(k: CompiledKernel, code: string, args: readonly unknown[], budgetMs: number): BenchRow['body'] {
  try {
    const own = ownBody(k.site, code)
    return timed(() => own(...args), budgetMs)
  } catch (e) {
    return { error: String((e as Error)?.message ?? e).split('\n')[0] }
  }
}

/** The measurement kit's arguments (seeded random values) at `shape`. */
const argumentsAt = (k: CompiledKernel, shape: Shape): unknown[] => argumentsOf(k.abi, new Map(Object.entries(shape)), 'random')

/** A call's work at `shape` (the ABI's work formula; a kernel without one counts as 1). */
function workAt(k: CompiledKernel, shape: Shape): number {
  const work = workOfCall(k.abi)
  return work ? work(k.abi.params.map((p) => (p.kind === 'size' ? shape[p.name] : undefined))) : 1
}

/**
 * The JS loops' time per call at `shape`: measured there when one call fits the budget, judged by a call at sizes
 * halved until its work is at most ESTIMATE_WORK, whose time scales by the works when it does not.
 */
function timeJs(k: CompiledKernel, shape: Shape, callAt: (shape: Shape) => () => unknown, budgetMs: number): BenchRow['js'] {
  const full = workAt(k, shape)
  let small = shape
  while (workAt(k, small) > ESTIMATE_WORK && Object.values(small).some((v) => v > 1)) {
    small = Object.fromEntries(Object.entries(small).map(([s, v]) => [s, Math.max(1, Math.floor(v / 2))]))
  }
  if (small === shape) return timed(callAt(shape), budgetMs)
  const probe = timed(callAt(small), budgetMs / 4)
  const estimate = probe.ms * (full / workAt(k, small))
  // Two calls at full size (the warm-up and one timed) must fit.
  if (2 * estimate <= budgetMs) return timed(callAt(shape), budgetMs, 1)
  return { ms: estimate, calls: 0, estimatedFrom: small }
}

/** Warns when sizes that --size filled in make one kernel's call far more work than the others' (a blanket size). */
function warnDwarfing(compiled: readonly CompiledKernel[], shapes: readonly Shape[], options: BenchOptions): void {
  if (compiled.length < 2) return
  const works = compiled.map((k, n) => workAt(k, shapes[n]))
  compiled.forEach((k, n) => {
    const others = works.filter((_, m) => m !== n).sort((a, b) => a - b)
    const median = others[Math.floor((others.length - 1) / 2)]
    const blanket = Object.keys(shapes[n]).filter((s) => options.sizes[s] === undefined)
    if (works[n] < DWARFING * median || blanket.length === 0) return
    options.onWarning?.(`${k.abi.name}: --size ${options.defaultSize} for ${blanket.join(', ')} makes one call ` +
      `${works[n].toExponential(1)} units of work, ${Math.round(works[n] / median)}× the other kernels' median: ` +
      'name its sizes with --sizes')
  })
}

/** The kernel's sizes from the options; refuses tensors too large to allocate. */
function shapeOf(k: CompiledKernel, options: BenchOptions): Shape {
  const shape: Record<string, number> = {}
  for (const p of k.abi.params) if (p.kind === 'size') shape[p.name] = options.sizes[p.name] ?? options.defaultSize
  for (const p of k.abi.params) {
    if (p.kind === 'tensor' && elementsOf(p, shape) > MAX_ELEMENTS) {
      throw new BenchSizeError(`${k.abi.name}: argument '${p.name}' would have ${elementsOf(p, shape)} elements at ` +
        `${Object.entries(shape).map(([s, v]) => `${s}=${v}`).join(' ')}; at most ${MAX_ELEMENTS}`)
    }
  }
  return shape
}

/** The ISA and threads of the addon the runtime loaded for these kernels (read live from its `__polykern`). */
function addonMetaOf(entries: readonly KernelEntry[]): { isa: string; threads: number } | undefined {
  const meta = entries.find((e) => e.meta !== null)?.meta
  return typeof meta?.isa === 'string' && typeof meta.threads === 'number' ? { isa: meta.isa, threads: meta.threads } : undefined
}
