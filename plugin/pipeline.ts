/**
 * The compiler, phase by phase: read this file first. Each step is a pure function from one folder of plugin/; the
 * pass sequence is data (BLOCK_PASSES, LOWERING_PASSES) that compileKernel and `polykern explain` both walk through
 * `lowerSpec`, which verifies the IR after every step and prints it when POLYKERN_DEBUG includes `ir` (other topics:
 * `path`, `match`, `time`; `1` is `ir,time`).
 */
import path from 'node:path'
import type { KernelAbi } from '../runtime/abi.ts'
import { NATIVE_DISABLED } from '../runtime/load-addon.ts'
import { buildAddon, type AddonBuildRequest } from './addon/build.ts'
import { calibrate, type Calibration } from './addon/calibrate.ts'
import { analyzeKernel, type KernelFacts } from './analysis/deps.ts'
import { findSlowStatements, type SlowStatement } from './passes/slow-statements.ts'
import { findPrefixScans, type PrefixScan } from './analysis/prefix-scans.ts'
import { findSplitSums, type SplitSum } from './passes/split-sums.ts'
import { KernelDiagnostic, lineColumn } from './diagnostics.ts'
import { emitJs } from './emit/js.ts'
import { addonIsas, emitAddonSource } from './emit/napi.ts'
import type { CompiledKernel } from './compiled-kernel.ts'
import { findKernelSites } from './find/annotations.ts'
import type { KernelSite } from './find/site.ts'
import { buildKernel } from './spec/build-ir.ts'
import type { Block, Kernel } from './ir/nodes.ts'
import { printKernel } from './ir/print.ts'
import { verifyKernel } from './ir/verify.ts'
import { defaultTarget, type ResolvedOptions } from './options.ts'
import { lintQuadraticScan, lintSplitSum, nativeBuildFailed, perfPlainLoops } from './messages.ts'
import { contractionPath } from './passes/contraction-path.ts'
import { factsAfterFusion, fuse } from './passes/fuse.ts'
import { lowerBlocks } from './passes/lower-blocks.ts'
import { reorder } from './passes/reorder.ts'
import { substituteConvolutions } from './passes/substitute-convolution.ts'
import { substituteMicrokernels } from './passes/substitute-microkernel.ts'
import { saveScheduleMemo, scheduleMemoFor, type ScheduleMemo } from './schedule/schedule-cache.ts'
import { tuneKernels } from './tune/tune.ts'
import { vectorize } from './passes/vectorize.ts'
import { progressLines, type Progress } from './progress.ts'
import type { KernelMemo } from './kernel-memo.ts'
import { debugTopics } from './debug-topics.ts'
import { rewriteModule } from './rewrite/rewrite.ts'
import { abiOf } from './abi.ts'
import { parseSpec } from './spec/parser.ts'
import { checkSpec } from './spec/check.ts'
import type { KernelSpec } from './spec/checked.ts'

/** A source file after polykern: the rewritten code, its source map, and the addon to emit beside the bundle. */
export interface CompiledModule {
  readonly code: string
  readonly map: import('magic-string').SourceMap
  readonly kernels: readonly CompiledKernel[]
  /** Present when the native build succeeded: emit the file at `path` as the asset `fileName`. */
  readonly addon?: {
    readonly fileName: string
    readonly path: string
    readonly cached: boolean
    readonly sha256: string
    /** The hash of the sources it was built from, compiled into it (runtime/identity.ts). */
    readonly identity: string
  }
  /** Non-fatal problems (statements doing cubic work as plain loops; a failed native build with `strict: false`), for `this.warn`. */
  readonly warnings: readonly KernelDiagnostic[]
}

/** Spec text → lowered IR and JS loops. Throws KernelDiagnostic for user errors. `observe` sees every step. */
export function compileKernel(
  site: KernelSite, code: string, opts: ResolvedOptions, observe?: PipelineObserver, scheduleMemo?: ScheduleMemo,
): CompiledKernel {
  const spec = checkedSpec(site)
  const { ir, built, blockForm } = lowerSpec(spec, observe, { ...opts, scheduleMemo })
  const slow = findSlowStatements(blockForm, ir, site.specStart)
  const [splitSums, prefixScans] = [findSplitSums(built, site.specStart), findPrefixScans(built, site.specStart)]
  return { site, ir, abi: abiOf(spec, locationOf(site, code, opts), blockForm), js: emitJs(ir), slow, splitSums, prefixScans }
}

/** A finding about one statement: its block and its span as offsets into the spec text. */
type Located = { readonly block: string; readonly span?: { readonly start: number; readonly end: number } }

/**
 * A kernel's build warnings at its site's current offsets: `lint_split_sum` unless its comment has
 * `@allow-split-sum`, `lint_quadratic_scan` unless `@allow-quadratic-scan`, `perf_plain_loops` unless `@allow-loops`.
 */
export function kernelWarnings(k: CompiledKernel): KernelDiagnostic[] {
  const { site } = k
  /** A statement's span in the file, and its text on one line (its block id when it has no span). */
  const where = (s: Located) => ({
    span: s.span && { file: site.file, start: site.specStart + s.span.start, end: site.specStart + s.span.end },
    text: s.span ? site.specText.slice(s.span.start, s.span.end).replace(/\s+/g, ' ').trim() : s.block,
  })
  /** The findings' warnings, none when the comment's directive (`allowed`: its why) accepts them. */
  const warn = <T extends Located>(allowed: string | undefined, found: readonly T[], make: (s: T, at: ReturnType<typeof where>) => KernelDiagnostic) =>
    allowed !== undefined ? [] : found.map((s) => make(s, where(s)))
  return [
    ...warn(site.allowSplitSum, k.splitSums, (s, at) => lintSplitSum(at.span, site.name, at.text, s.first, s.second, s.meant)),
    ...warn(site.allowQuadraticScan, k.prefixScans, (s, at) => lintQuadraticScan(at.span, site.name, at.text, s.output, s.reduced)),
    ...warn(site.allowLoops, k.slow, (s, at) => perfPlainLoops(at.span, site.name, s.block, at.text, s.large, s.reason)),
  ]
}

/** The site's spec, parsed and checked; diagnostics name the kernel. */
export const checkedSpec = (site: KernelSite): KernelSpec =>
  inKernel(site, () => checkSpec(parseSpec(site.specText, site.specStart, site.file), site))

/** A POLYKERN_DEBUG topic's logger: undefined when nobody listens, so passes skip building messages. */
export type DebugLog = (topic: string) => ((message: string) => void) | undefined

/** A named step of the pass sequence: a pure function of the IR, verified after it runs. */
export interface PassStep<Context = { readonly log: DebugLog }> {
  readonly name: string
  readonly run: (ir: Kernel, ctx: Context) => Kernel
  /** Its result is lowered IR: no blocks left. */
  readonly lowered?: boolean
}

/** What the lowering passes read: the target, the conv lowering, and schedules ranked before (in memory). */
export type LoweringOptions = Pick<ResolvedOptions, 'target'> & Partial<Pick<ResolvedOptions, 'convolution'>> & {
  readonly scheduleMemo?: ScheduleMemo
}

/** The lowering passes also read the analysis of the block form the block passes left. */
export type LoweringContext = LoweringOptions & {
  readonly log: DebugLog
  readonly facts: KernelFacts
}

/** Passes that reshape the block form: the analysis, the ABI's work and the lowering passes see their result. */
export const BLOCK_PASSES: readonly PassStep[] = [
  { name: 'contraction-path', run: (ir, c) => contractionPath(ir, { log: c.log('path') }) },
]

/** Passes that schedule and lower the analysed block form, in order. */
export const LOWERING_PASSES: readonly PassStep<LoweringContext>[] = [
  { name: 'reorder', run: (ir) => reorder(ir) },
  {
    name: 'substitute-convolution',
    run: (ir, c) => substituteConvolutions(ir, {
      isas: c.target.isas, machine: c.target.machine, lowering: c.convolution, log: c.log('match'),
    }),
  },
  {
    name: 'substitute-microkernel',
    run: (ir, c) => substituteMicrokernels(ir, {
      isas: c.target.isas,
      machine: c.target.machine,
      threads: c.target.threads,
      scheduleMemo: c.scheduleMemo,
      log: c.log('match'),
    }),
  },
  { name: 'fuse', run: (ir) => fuse(ir) },
  { name: 'lower-blocks', lowered: true, run: (ir, c) => lowerBlocks(ir, outermostParallel(factsAfterFusion(c.facts, ir))) },
  { name: 'vectorize', lowered: true, run: (ir) => vectorize(ir) },
]

/** What a pipeline observer (`polykern explain`) sees, in order: each step's IR and messages, and the analysis. */
export type PipelineEvent =
  | {
      readonly kind: 'step'
      readonly name: string
      /** Undefined for `build`, the first step. */
      readonly before?: Kernel
      readonly ir: Kernel
      readonly messages: readonly { readonly topic: string; readonly text: string }[]
    }
  | { readonly kind: 'analysis'; readonly blockForm: Kernel; readonly facts: KernelFacts }

export type PipelineObserver = (event: PipelineEvent) => void

/** Runs the steps: build, the block passes, the analysis, the lowering passes; the IR as built, too (the lints). */
export function lowerSpec(
  spec: KernelSpec,
  observe?: PipelineObserver,
  options: LoweringOptions = { target: defaultTarget() },
): { ir: Kernel; built: Kernel; blockForm: Kernel; facts: KernelFacts } {
  const debug = debugTopics(process.env.POLYKERN_DEBUG)
  const step = (name: string, before: Kernel | undefined, run: (log: DebugLog) => Kernel, lowered = false): Kernel => {
    const messages: { topic: string; text: string }[] = []
    const log: DebugLog = (topic) => {
      const print = debug.includes(topic)
      if (!print && !observe) return undefined
      return (text) => {
        messages.push({ topic, text })
        if (print) console.error(`[polykern] ${topic}: ${text}`)
      }
    }
    const start = performance.now()
    const ir = verifyKernel(run(log), name, { lowered })
    if (debug.includes('time')) console.error(`[polykern] ${name}: ${(performance.now() - start).toFixed(2)} ms`)
    if (debug.includes('ir')) console.error(`[polykern] after ${name}:${ir === before ? ' (unchanged)' : `\n${printKernel(ir)}`}`)
    observe?.({ kind: 'step', name, before, ir, messages })
    return ir
  }
  const built = step('build', undefined, () => buildKernel(spec))
  let ir = built
  for (const s of BLOCK_PASSES) {
    const before = ir
    ir = step(s.name, before, (log) => s.run(before, { log }), s.lowered)
  }
  const blockForm = ir
  const facts = analyzeKernel(blockForm)
  observe?.({ kind: 'analysis', blockForm, facts })
  for (const s of LOWERING_PASSES) {
    const before = ir
    ir = step(s.name, before, (log) => s.run(before, { ...options, log, facts }), s.lowered)
  }
  return { ir, built, blockForm, facts }
}

/** The outermost index of a block free to run in parallel (deps.ts), for lower-blocks. */
const outermostParallel = (facts: KernelFacts) => (b: Block) =>
  b.indices.find((ix) => facts.blocks.get(b.id)?.parallelIndices.includes(ix.name))?.name

/**
 * Where a rewritten module runs: `output`, in a bundle (or `polykern build`'s output) with its addon written beside
 * it, which it names by file name only; `sources`, where the source file is (dev servers, `polykern/register`,
 * in-process tests), so it also names the build cache's copy of its addon.
 */
export type RunsFrom = 'output' | 'sources'

/**
 * Compiles every kernel of a file, builds their addon, and rewrites the file. Undefined when it has none. `progress`
 * hears a line per kernel compiled (or unchanged) and one for the addon (built, or found in the cache). With a `memo`
 * (watch mode, dev servers), kernels unchanged since the module's previous version skip the passes.
 */
export async function compileModule(
  file: string, code: string, opts: ResolvedOptions, progress?: Progress, memo?: KernelMemo, runsFrom: RunsFrom = 'output',
): Promise<CompiledModule | undefined> {
  const sites = findKernelSites(file, code)
  if (sites.length === 0) return undefined
  const memoized = memo?.module(file, opts)
  // The schedule cache, read before the passes and written after them: the passes only see it in memory.
  const schedules = await scheduleMemoFor(opts.cacheDir)
  let kernels = sites.map((site, n) => {
    const start = performance.now()
    const earlier = memoized?.find(site)
    // An unchanged spec may still have moved: the rewrite needs the new offsets, runtime messages the new line.
    const kernel = earlier ? { ...earlier, site, abi: { ...earlier.abi, loc: locationOf(site, code, opts) } } : compileKernel(site, code, opts, undefined, schedules)
    memoized?.keep(site, kernel, earlier !== undefined)
    progress?.(earlier
      ? progressLines.unchanged(n + 1, sites.length, site.name)
      : progressLines.kernel(n + 1, sites.length, site.name, performance.now() - start))
    return kernel
  })
  memoized?.commit()
  await saveScheduleMemo(opts.cacheDir, schedules)
  if (opts.native && opts.tune) {
    const log = process.env.POLYKERN_DEBUG?.split(',').includes('tune') ? (m: string) => console.error(`[polykern] tune: ${m}`) : undefined
    const { machine, threads } = opts.target
    kernels = await tuneKernels(kernels, { cacheDir: opts.cacheDir, machine, threads, settings: opts.tune, log })
  }
  const moduleId = moduleIdOf(file, opts)
  const warnings: KernelDiagnostic[] = kernels.flatMap(kernelWarnings)
  let addon: CompiledModule['addon']
  let nativeReason: string | undefined = NATIVE_DISABLED
  if (opts.native) {
    const built = await buildAddon({ ...addonRequest(kernels, moduleId, opts), progress })
    if (built.ok) {
      const fileName = `polykern-${built.hash.slice(0, 16)}.node`
      addon = { fileName, path: built.path, cached: built.cached, sha256: built.sha256, identity: built.hash }
      progress?.(progressLines.addon(addon.fileName, built.cached, built.ms))
      nativeReason = undefined
      // Without a measurement every call goes native; one that fails (the addon does not load here) changes nothing.
      const measured: Calibration = opts.calibrate ? await calibrate(built.path, kernels, built.hash).catch(() => ({})) : {}
      kernels = kernels.map((k) => {
        const route = measured[k.abi.name]
        if (!route || (!route.jsBelow && route.jsFrom === undefined)) return k
        return { ...k, abi: { ...k.abi, ...(route.jsBelow ? { jsBelow: route.jsBelow } : {}), ...(route.jsFrom === undefined ? {} : { jsFrom: route.jsFrom }) } }
      })
    } else {
      const d = nativeBuildFailed(sites[0].commentSpan, moduleId, built.error)
      if (opts.strict) throw d
      warnings.push(d)
      nativeReason = `native build failed: ${built.error.split('\n')[0]}`
    }
  }
  const { code: out, map } = rewriteModule({
    file,
    code,
    moduleId,
    kernels,
    addon: addon
      ? { fileName: addon.fileName, cachePath: runsFrom === 'sources' ? addon.path : null, sha256: addon.sha256, identity: addon.identity }
      : null,
    nativeReason,
    // The addon picks its best ISA version itself; the JS side only checks that the lowest one can run.
    requires: addonIsas().at(-1)!.cpuFeatures,
  })
  return { code: out, map, kernels, addon, warnings }
}

/** The module's name in its addon and messages: its path from the project root, with '/'. */
export const moduleIdOf = (file: string, opts: ResolvedOptions): string =>
  path.relative(opts.root, file).split(path.sep).join('/')

/** What buildAddon needs for a module's kernels: also how `explain` finds the addon a build made. */
export function addonRequest(kernels: readonly CompiledKernel[], moduleId: string, opts: ResolvedOptions): AddonBuildRequest {
  const sources = emitAddonSource(
    kernels.map((k, n) => ({ kernel: k.ir, abi: k.abi, symbol: `kc_${n}_${k.ir.name.replace(/[^A-Za-z0-9_]/g, '_')}` })),
    { moduleId, threads: opts.threads },
  )
  return { sources, cacheDir: opts.cacheDir }
}

/** Parser diagnostics do not know the function they sit on; name it for the message. */
function inKernel<T>(site: KernelSite, phase: () => T): T {
  try {
    return phase()
  } catch (e) {
    if (e instanceof KernelDiagnostic && !e.kernel) throw new KernelDiagnostic(e.code, e.message, e.span, e.notes, site.name)
    throw e
  }
}

function locationOf(site: KernelSite, code: string, opts: ResolvedOptions): string {
  const { line, column } = lineColumn(code, site.commentSpan.start)
  return `${path.relative(opts.root, site.file).split(path.sep).join('/')}:${line}:${column + 1}`
}
