/**
 * The compiler, phase by phase: read this file first. Two pipelines, both lists of named steps as data:
 * - per kernel, the passes (BLOCK_PASSES, LOWERING_PASSES): pure functions from one folder of plugin/ each, which
 *   compileKernel and `polykern explain` both walk through `lowerSpec`; it verifies the IR after every step and prints
 *   it when POLYKERN_DEBUG includes `ir` (other topics: `path`, `match`, `time`; `1` is `ir,time`);
 * - per file, the module steps (MODULE_STEPS): find the annotations, compile each kernel through the passes, tune,
 *   build the addon, calibrate, rewrite the file. `compileFile` runs them for the bundler adapters, `polykern build`,
 *   `polykern/register`, explain, verify and bench alike; POLYKERN_DEBUG=time times them too.
 */
import path from 'node:path'
import { NATIVE_DISABLED } from '../runtime/load-addon.ts'
import { addonLocation, buildAddon, type AddonBuildRequest } from './addon/build.ts'
import { calibrate, type Calibration } from './addon/calibrate.ts'
import { analyzeKernel, type KernelFacts } from './analysis/deps.ts'
import { findSlowStatements } from './passes/slow-statements.ts'
import { findPrefixScans } from './analysis/prefix-scans.ts'
import { findSplitSums } from './passes/split-sums.ts'
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
import { stageOutputs } from './passes/stage-output.ts'
import { contractionPath } from './passes/contraction-path.ts'
import { splitOutputFactors } from './passes/output-factors.ts'
import { factsAfterFusion, fuse } from './passes/fuse.ts'
import { fuseEpilogues } from './passes/fuse-epilogue.ts'
import { lowerBlocks } from './passes/lower-blocks.ts'
import { reorder } from './passes/reorder.ts'
import { substituteConvolutions } from './passes/substitute-convolution.ts'
import { substituteMicrokernels } from './passes/substitute-microkernel.ts'
import { saveScheduleMemo, scheduleMemoFor, type ScheduleMemo } from './schedule/schedule-cache.ts'
import { tuneKernels } from './tune/tune.ts'
import { tileTransposes } from './passes/tile-transposes.ts'
import { vectorize } from './passes/vectorize.ts'
import { stripReductions } from './passes/strip-reductions.ts'
import { progressLines, type Progress } from './progress.ts'
import type { KernelMemo } from './kernel-memo.ts'
import { debugTopics } from './debug-topics.ts'
import { rewriteModule } from './rewrite/rewrite.ts'
import { abiOf } from './abi.ts'
import { parseSpec } from './spec/parser.ts'
import { checkSpec } from './spec/check.ts'
import type { KernelSpec } from './spec/checked.ts'

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
  { name: 'output-factors', run: (ir, c) => splitOutputFactors(ir, c.log('path')) },
  { name: 'contraction-path', run: (ir, c) => contractionPath(ir, { log: c.log('path') }) },
  { name: 'stage-output', run: (ir, c) => stageOutputs(ir, c.log('path')) },
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
  { name: 'fuse-epilogue', run: (ir, c) => fuseEpilogues(ir, c.facts, c.log('match')) },
  { name: 'lower-blocks', lowered: true, run: (ir, c) => lowerBlocks(ir, outermostParallel(factsAfterFusion(c.facts, ir))) },
  { name: 'vectorize', lowered: true, run: (ir) => vectorize(ir) },
  { name: 'strip-reductions', lowered: true, run: (ir) => stripReductions(ir) },
  { name: 'tile-transposes', lowered: true, run: (ir, c) => tileTransposes(ir, c.target.machine.caches[0]) },
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

/**
 * The index of a block lower-blocks runs in parallel: its outermost one free to (deps.ts), or the outermost one itself
 * when the block reduces over it and every store reduces (`+=`, `max=`, ...) and loops run inside it. Threads then
 * split its iterations, each reducing into its own copy of the outputs (emit/c-split-reduction.ts), where the
 * parallel index reorder put inside it (a column sum, xᵀA) would wake them once per iteration.
 */
const outermostParallel = (facts: KernelFacts) => (b: Block) => {
  const block = facts.blocks.get(b.id)
  const [outer] = b.indices
  const reducing = b.body.every((s) => s.kind === 'store' && s.op !== '=')
  if (b.indices.length > 1 && reducing && block?.reductionIndices.includes(outer.name)) return outer.name
  return b.indices.find((ix) => block?.parallelIndices.includes(ix.name))?.name
}

/**
 * Where a rewritten module runs: `output`, in a bundle (or `polykern build`'s output) with its addon written beside
 * it, which it names by file name only; `sources`, where the source file is (dev servers, `polykern/register`,
 * in-process tests), so it also names the build cache's copy of its addon.
 */
export type RunsFrom = 'output' | 'sources'

/** The addon of a module's kernels, built or found in the cache: the bundle emits the file at `path` as `fileName`. */
export interface ModuleAddon {
  readonly fileName: string
  readonly path: string
  readonly cached: boolean
  readonly sha256: string
  /** The hash of the sources it was built from, compiled into it (runtime/identity.ts). */
  readonly identity: string
}

/** A source file on its way through the module steps: each step adds its part. */
export interface ModuleState {
  readonly file: string
  readonly code: string
  /** The file from the project root, with '/': its name in its addon and in messages. */
  readonly moduleId: string
  readonly sites: readonly KernelSite[]
  /** In their sites' order; with `errors: 'collect'`, those whose spec has an error are left out. */
  readonly kernels: readonly CompiledKernel[]
  /** With `errors: 'collect'`: what kept a kernel (or, from `find`, the whole file) out. */
  readonly errors: readonly KernelDiagnostic[]
  /** Build warnings: the kernels' lints, a failed native build with `strict: false`. */
  readonly warnings: readonly KernelDiagnostic[]
  readonly addon?: ModuleAddon
  /** Why the kernels run their JS loops, when there is no addon (the runtime's warning says it). */
  readonly nativeReason?: string
  /** The `build` step's cache directory for this source, also when `addon: 'locate'` found nothing there. */
  readonly addonDir?: string
  readonly output?: { readonly code: string; readonly map: import('magic-string').SourceMap }
  /** The steps run so far, in order: what each did, and how long it took. */
  readonly steps: readonly ModuleStepRecord[]
}

export interface ModuleStepRecord {
  readonly name: ModuleStepName
  readonly ms: number
  /** One line: what the step did, or why it did nothing. */
  readonly did: string
}

/** How `compileFile` runs: the bundlers take the defaults; explain, verify and bench stop early and keep going. */
export interface FileOptions {
  /** The compiler's progress lines: each kernel compiled (or unchanged), the addon built or found in the cache. */
  readonly progress?: Progress
  /** Watch mode and dev servers: kernels unchanged since the module's previous version skip the passes. */
  readonly memo?: KernelMemo
  readonly runsFrom?: RunsFrom
  /** The last step to run (default `rewrite`, all of them). */
  readonly through?: ModuleStepName
  /** Where an earlier call stopped (`through`): the steps it ran are not run again. */
  readonly from?: ModuleState
  /** Compile only the kernel of this name (the addon holds only it). */
  readonly only?: string
  /** `throw` (default): the first spec error ends the build; `collect`: it joins `errors`, the other kernels go on. */
  readonly errors?: 'throw' | 'collect'
  /** With errors collected, build the addon of the kernels that compiled (verify, bench); by default none is built. */
  readonly partialAddon?: boolean
  /** `locate`: use the addon only when the cache has it for this source, never build it (explain without --build). */
  readonly addon?: 'build' | 'locate'
  /** Sees the pass sequence of a kernel's compilation (explain), when it returns an observer for its site. */
  readonly observe?: (site: KernelSite) => PipelineObserver | undefined
}

interface StepContext extends FileOptions {
  readonly opts: ResolvedOptions
}

/** What a step changes in the state, and its one line of what it did. */
type StepResult = Partial<Omit<ModuleState, 'steps'>> & { readonly did: string }

/** A named step of the module pipeline: a file's kernels compiled, tuned, built into an addon and called from the file. */
export interface ModuleStep {
  readonly name: ModuleStepName
  readonly run: (state: ModuleState, ctx: StepContext) => Promise<StepResult>
}

export type ModuleStepName = 'find' | 'compile' | 'tune' | 'build' | 'calibrate' | 'rewrite'

/** The module steps, in order: what a bundler's transform, `polykern build` and `polykern/register` run per file. */
export const MODULE_STEPS: readonly ModuleStep[] = [
  { name: 'find', run: findStep },
  { name: 'compile', run: compileStep },
  { name: 'tune', run: tuneStep },
  { name: 'build', run: buildStep },
  { name: 'calibrate', run: calibrateStep },
  { name: 'rewrite', run: rewriteStep },
]

/**
 * Runs the module steps on one file, through `options.through`; after `find`, only while the file has kernels. Each
 * step is timed and recorded in `steps`; POLYKERN_DEBUG=time prints them as they end.
 */
export async function compileFile(file: string, code: string, opts: ResolvedOptions, options: FileOptions = {}): Promise<ModuleState> {
  const timed = debugLog('time')
  const ctx: StepContext = { ...options, opts }
  const last = MODULE_STEPS.findIndex((s) => s.name === (options.through ?? 'rewrite'))
  let state: ModuleState = options.from ?? {
    file, code, moduleId: moduleIdOf(file, opts), sites: [], kernels: [], errors: [], warnings: [], steps: [],
  }
  for (const step of MODULE_STEPS.slice(state.steps.length, last + 1)) {
    if (step.name !== 'find' && state.sites.length === 0) break
    const start = performance.now()
    const { did, ...changes } = await step.run(state, ctx)
    const ms = performance.now() - start
    timed?.(`${state.moduleId} ${step.name}: ${ms.toFixed(2)} ms (${did})`)
    state = { ...state, ...changes, steps: [...state.steps, { name: step.name, ms, did }] }
  }
  return state
}

/** The annotations of the file. A malformed one ends the build, or with errors collected, keeps the file out. */
async function findStep(s: ModuleState, ctx: StepContext): Promise<StepResult> {
  try {
    const sites = findKernelSites(s.file, s.code)
    return { sites, did: `${sites.length} kernel${sites.length === 1 ? '' : 's'}` }
  } catch (e) {
    if (!(e instanceof KernelDiagnostic) || ctx.errors !== 'collect') throw e
    return { errors: [e], did: `the file has an error: ${e.code}` }
  }
}

/** Every kernel through the pass pipeline (or the memo), with the schedule cache read before and written after. */
async function compileStep(s: ModuleState, ctx: StepContext): Promise<StepResult> {
  const { opts, memo, progress } = ctx
  const sites = s.sites.filter((site) => ctx.only === undefined || site.name === ctx.only)
  const memoized = memo?.module(s.file, opts)
  const schedules = await scheduleMemoFor(opts.cacheDir)
  const kernels: CompiledKernel[] = []
  const errors: KernelDiagnostic[] = []
  let unchanged = 0
  sites.forEach((site, n) => {
    const start = performance.now()
    const earlier = memoized?.find(site)
    let kernel: CompiledKernel
    try {
      // An unchanged spec may still have moved: the rewrite needs the new offsets, runtime messages the new line.
      kernel = earlier
        ? { ...earlier, site, abi: { ...earlier.abi, loc: locationOf(site, s.code, opts) } }
        : compileKernel(site, s.code, opts, ctx.observe?.(site), schedules)
    } catch (e) {
      if (!(e instanceof KernelDiagnostic) || ctx.errors !== 'collect') throw e
      errors.push(e)
      return
    }
    memoized?.keep(site, kernel, earlier !== undefined)
    kernels.push(kernel)
    if (earlier) unchanged++
    progress?.(earlier
      ? progressLines.unchanged(n + 1, sites.length, site.name)
      : progressLines.kernel(n + 1, sites.length, site.name, performance.now() - start))
  })
  memoized?.commit()
  await saveScheduleMemo(opts.cacheDir, schedules)
  return {
    kernels,
    errors: [...s.errors, ...errors],
    warnings: [...s.warnings, ...kernels.flatMap(kernelWarnings)],
    did: `${kernels.length} compiled${errors.length ? `, ${errors.length} with errors` : ''}${unchanged ? ` (${unchanged} unchanged)` : ''}`,
  }
}

/** The `tune` option: the ranking's top schedules timed on this machine, the fastest kept (tune/tune.ts). */
async function tuneStep(s: ModuleState, { opts }: StepContext): Promise<StepResult> {
  if (!opts.native || !opts.tune) return { did: opts.native ? 'off (no `tune` option)' : 'off (native: false)' }
  const { machine, threads } = opts.target
  const kernels = await tuneKernels(s.kernels, { cacheDir: opts.cacheDir, machine, threads, settings: opts.tune, log: debugLog('tune') })
  return { kernels, did: `${kernels.filter((k, n) => k.ir !== s.kernels[n].ir).length} of ${kernels.length} kernels tuned` }
}

/** A module step's POLYKERN_DEBUG topic: a logger to stderr when it is on. */
const debugLog = (topic: string) =>
  debugTopics(process.env.POLYKERN_DEBUG).includes(topic) ? (m: string) => console.error(`[polykern] ${topic}: ${m}`) : undefined

/** The kernels' addon, built with node-gyp or found in the content-hash cache. */
async function buildStep(s: ModuleState, ctx: StepContext): Promise<StepResult> {
  const { opts } = ctx
  const none = (nativeReason: string, did = nativeReason) => ({ nativeReason, did })
  if (!opts.native) return none(NATIVE_DISABLED)
  if (s.kernels.length === 0) return none('no kernel compiled')
  if (s.errors.length > 0 && !ctx.partialAddon) return none('a kernel of the file has an error')
  const request = addonRequest(s.kernels, s.moduleId, opts)
  if (ctx.addon === 'locate') {
    const where = await addonLocation(request)
    if (!where.built) return { ...none('none in the cache for the current source'), addonDir: where.dir }
  }
  const built = await buildAddon({ ...request, progress: ctx.progress })
  if (!built.ok) {
    const d = nativeBuildFailed(s.sites[0].commentSpan, s.moduleId, built.error)
    if (opts.strict && ctx.errors !== 'collect') throw d
    return { warnings: [...s.warnings, d], ...none(`native build failed: ${built.error.split('\n')[0]}`, 'failed') }
  }
  const addon = {
    fileName: `polykern-${built.hash.slice(0, 16)}.node`, path: built.path, cached: built.cached, sha256: built.sha256, identity: built.hash,
  }
  ctx.progress?.(progressLines.addon(addon.fileName, built.cached, built.ms))
  return { addon, addonDir: path.dirname(built.path), nativeReason: undefined, did: built.cached ? 'found in the cache' : `built in ${Math.round(built.ms)} ms` }
}

/** The `calibrate` option: the work below which each kernel's JS loops beat its native call, measured here. */
async function calibrateStep(s: ModuleState, { opts }: StepContext): Promise<StepResult> {
  if (!opts.calibrate || !s.addon) return { did: opts.calibrate ? 'off (no addon)' : 'off (no `calibrate` option)' }
  // Without a measurement every call goes native; one that fails (the addon does not load here) changes nothing.
  const measured: Calibration = await calibrate(s.addon.path, s.kernels, s.addon.identity, debugLog('calibrate')).catch(() => ({}))
  const kernels = s.kernels.map((k) => {
    const route = measured[k.abi.name]
    if (!route || (!route.jsBelow && route.jsFrom === undefined)) return k
    return { ...k, abi: { ...k.abi, ...(route.jsBelow ? { jsBelow: route.jsBelow } : {}), ...(route.jsFrom === undefined ? {} : { jsFrom: route.jsFrom }) } }
  })
  return { kernels, did: `${kernels.filter((k, n) => k !== s.kernels[n]).length} of ${kernels.length} kernels route small calls to JS` }
}

/** The file's functions rewritten to call the addon, with their JS loops as the fallback. */
async function rewriteStep(s: ModuleState, ctx: StepContext): Promise<StepResult> {
  const { addon } = s
  const output = rewriteModule({
    file: s.file,
    code: s.code,
    moduleId: s.moduleId,
    kernels: s.kernels,
    addon: addon
      ? { fileName: addon.fileName, cachePath: ctx.runsFrom === 'sources' ? addon.path : null, sha256: addon.sha256, identity: addon.identity }
      : null,
    nativeReason: s.nativeReason,
    // The addon picks its best ISA version itself; the JS side only checks that the lowest one can run.
    requires: addonIsas().at(-1)!.cpuFeatures,
  })
  return { output, did: `${s.kernels.length} functions call the ${addon ? 'addon' : 'JS loops'}` }
}

/** A source file after polykern, as the bundler adapters take it: the rewritten code, its map, the addon to emit. */
export interface CompiledModule {
  readonly code: string
  readonly map: import('magic-string').SourceMap
  readonly kernels: readonly CompiledKernel[]
  /** Present when the native build succeeded: emit the file at `path` as the asset `fileName`. */
  readonly addon?: ModuleAddon
  /** Non-fatal problems (statements doing cubic work as plain loops; a failed native build with `strict: false`), for `this.warn`. */
  readonly warnings: readonly KernelDiagnostic[]
}

/** Every module step on a file; undefined when it has no kernel. Throws KernelDiagnostic for the first spec error. */
export async function compileModule(
  file: string, code: string, opts: ResolvedOptions, progress?: Progress, memo?: KernelMemo, runsFrom: RunsFrom = 'output',
): Promise<CompiledModule | undefined> {
  const s = await compileFile(file, code, opts, { progress, memo, runsFrom })
  if (!s.output) return undefined
  return { ...s.output, kernels: s.kernels, addon: s.addon, warnings: s.warnings }
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
