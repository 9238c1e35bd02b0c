import path from 'node:path'
import { MAX_THREADS } from '../runtime/threads.ts'
import type { MachineOverrides } from './targets/machine.ts'
import { resolveTarget, type Target } from './targets/target.ts'

/** The `tune` option resolved: how long tuning may take and how many variants it times. */
export interface TuneSettings {
  /** Milliseconds one kernel's tuning may take, its build included. */
  readonly budgetMs: number
  /** Variants timed per shape class: the top of its ranking. */
  readonly topK: number
}

export const TUNE_DEFAULTS: TuneSettings = { budgetMs: 30_000, topK: 5 }

/** Options of the polykern bundler plugin (and of the CLI, which takes the same object). */
export interface Options {
  /**
   * Files to scan for `@kernel` annotations (picomatch globs or RegExps, as unplugin's `transform.filter.id`).
   * @default [/\.[cm]?[jt]sx?$/]
   */
  include?: string | RegExp | readonly (string | RegExp)[]
  /**
   * Files never scanned.
   * @default [/node_modules/]
   */
  exclude?: string | RegExp | readonly (string | RegExp)[]
  /**
   * Where built addons are cached, keyed by a content hash of everything that goes into them.
   * @default '<root>/node_modules/.cache/polykern'
   */
  cacheDir?: string
  /**
   * Fail the build when a native addon cannot be built, instead of warning and shipping the JS fallback.
   * @default false
   */
  strict?: boolean
  /**
   * `false` skips the native build: every kernel runs as generated JS loops.
   * @default true
   */
  native?: boolean
  /**
   * Project root: relative file names in messages and the default cache directory hang off it.
   * @default process.cwd()
   */
  root?: string
  /**
   * Threads a kernel's parallel loops use, baked into the addon (1 to 256). At run time the environment variable
   * POLYKERN_THREADS overrides it when the addon loads, and `setThreads(n)` from 'polykern/runtime' afterwards.
   * @default the number of online cores of the machine the addon runs on
   */
  threads?: number
  /**
   * Measure each kernel on the build machine after building its addon (tens of milliseconds per kernel, cached with
   * the addon): the work below which its JS loops beat the native call, whose overhead they do not pay. Calls
   * smaller than that run the JS loops. `false` skips the measurement and every call goes native.
   * @default true, except when NODE_ENV is 'test' (test runs rarely need it and should not time anything)
   */
  calibrate?: boolean
  /**
   * The build machine as the schedule ranking sees it: cache sizes, latencies and bandwidths, cores, the streams its
   * prefetchers follow. Each field replaces what Linux sysfs and /proc/cpuinfo say (or the documented defaults
   * elsewhere), e.g.
   * `{ caches: [{ level: 2, bytes: 1 << 20 }] }`.
   * @default {} (read from the machine)
   */
  machine?: MachineOverrides
  /**
   * Time the `topK` best-ranked schedules of each contraction per shape class on the build machine and keep the
   * fastest instead of the analytic pick; `budgetMs` bounds one kernel's tuning, its build included. Winners are cached
   * beside the addons. `true`: the defaults.
   * @default false (the analytic pick)
   */
  tune?: boolean | { readonly budgetMs?: number; readonly topK?: number }
  /**
   * No progress lines (each kernel compiled, each addon built or found in the cache) in the bundler's log. Warnings
   * and errors are reported either way.
   * @default true when the environment variable CI is 'true' or '1', else false
   */
  quiet?: boolean
  /**
   * How convolutions (reductions whose input is read at `stride·p + dilation·r + offset`) run natively: `direct`
   * reads the input in place, tap by tap, through the GEMM microkernels (SConv); `im2col` first copies each output
   * row's windows into a buffer and runs one GEMM on it (the baseline direct convolution is measured against).
   * @default 'direct'
   */
  convolution?: 'direct' | 'im2col'
  /**
   * Write `polykern-report.html` (self-contained: inline SVG and CSS) and `polykern-report.json` beside the bundle
   * (the bundler's output directory): per kernel its spec and location, the schedule of each shape class with the
   * model's working sets and predicted GFLOP/s, the GFLOP/s measured by timing the native kernel on the build machine
   * (at most about 200 ms per kernel, only with this option), a roofline and the ranked variants. `dir` writes them
   * there instead (relative to `root`).
   * @default false
   */
  report?: boolean | { readonly dir?: string }
}

export interface ResolvedOptions {
  readonly include: readonly (string | RegExp)[]
  readonly exclude: readonly (string | RegExp)[]
  readonly cacheDir: string
  readonly strict: boolean
  readonly native: boolean
  readonly root: string
  /** undefined: the cores of the machine the addon runs on. */
  readonly threads: number | undefined
  readonly calibrate: boolean
  readonly machine: MachineOverrides
  /** The machine, CPUs, threads and ISAs the build compiles for, read once here. */
  readonly target: Target
  /** undefined: no tuning. */
  readonly tune: TuneSettings | undefined
  readonly quiet: boolean
  readonly convolution: 'direct' | 'im2col'
  /** undefined: no report; `dir` absent: the bundle's output directory. */
  readonly report: { readonly dir?: string } | undefined
}

let defaultTargetOnce: Target | undefined

/** The target of default options, read once per process: for callers that give none (tests, tools). */
export const defaultTarget = (): Target => (defaultTargetOnce ??= resolveTarget({}, undefined))

const list = (v: string | RegExp | readonly (string | RegExp)[]): readonly (string | RegExp)[] =>
  Array.isArray(v) ? v : [v as string | RegExp]

export function resolveOptions(options: Options = {}): ResolvedOptions {
  const root = path.resolve(options.root ?? process.cwd())
  const threads = threadCount(options.threads)
  return {
    include: list(options.include ?? [/\.[cm]?[jt]sx?$/]),
    exclude: list(options.exclude ?? [/node_modules/]),
    cacheDir: path.resolve(root, options.cacheDir ?? 'node_modules/.cache/polykern'),
    strict: options.strict ?? false,
    native: options.native ?? true,
    root,
    threads,
    calibrate: options.calibrate ?? process.env.NODE_ENV !== 'test',
    machine: options.machine ?? {},
    target: resolveTarget(options.machine ?? {}, threads),
    tune: tuneSettings(options.tune),
    quiet: options.quiet ?? (process.env.CI === 'true' || process.env.CI === '1'),
    convolution: convolutionLowering(options.convolution),
    report: reportSettings(options.report, root),
  }
}

function tuneSettings(tune: Options['tune']): TuneSettings | undefined {
  if (tune === undefined || tune === false) return undefined
  const settings = { ...TUNE_DEFAULTS, ...(tune === true ? {} : tune) }
  const { budgetMs, topK } = settings
  if (!(budgetMs >= 0) || !(Number.isInteger(topK) && topK >= 1)) {
    throw new RangeError(`[polykern] the 'tune' option needs budgetMs >= 0 and an integer topK >= 1, got ${JSON.stringify(tune)}`)
  }
  return settings
}

function convolutionLowering(v: Options['convolution']): ResolvedOptions['convolution'] {
  if (v === undefined || v === 'direct' || v === 'im2col') return v ?? 'direct'
  throw new RangeError(`[polykern] the 'convolution' option must be 'direct' or 'im2col', got ${JSON.stringify(v)}`)
}

function reportSettings(report: Options['report'], root: string): ResolvedOptions['report'] {
  if (report === undefined || report === false) return undefined
  if (report === true) return {}
  return report.dir === undefined ? {} : { dir: path.resolve(root, report.dir) }
}

function threadCount(threads: number | undefined): number | undefined {
  if (threads === undefined || (Number.isInteger(threads) && threads >= 1 && threads <= MAX_THREADS)) return threads
  throw new RangeError(`[polykern] the 'threads' option must be an integer from 1 to ${MAX_THREADS}, got ${threads}`)
}
