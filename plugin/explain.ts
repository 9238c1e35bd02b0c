/**
 * `polykern explain`: every decision the compiler takes for the kernels of one file, as data (`--json`) and as text
 * (explain-text.ts). It compiles through compileKernel and watches the pass sequence of pipeline.ts go by, so what it
 * shows is what a build does: the spec as checked, the IR after each step, the dependences, the contraction path
 * with its cost, the microkernel match per block and ISA with the GEMM schedules, and where the addon's C is.
 */
import { readdirSync } from 'node:fs'
import path from 'node:path'
import { addonLocation, buildAddon } from './addon/build.ts'
import type { KernelFacts } from './analysis/deps.ts'
import { KernelDiagnostic, formatDiagnostic } from './diagnostics.ts'
import { convolutionReports, type ConvolutionReport } from './explain-convolution.ts'
import { findKernelSites } from './find/annotations.ts'
import type { KernelSite } from './find/site.ts'
import { format } from './ir/affine.ts'
import type { ContractionSchedule, Kernel } from './ir/nodes.ts'
import { printConstraint, printKernel, printRole } from './ir/print.ts'
import { walkStmts } from './ir/walk.ts'
import { nativeBuildFailed } from './messages.ts'
import type { ResolvedOptions } from './options.ts'
import { planContractionPaths, type PathDecision } from './passes/contraction-path.ts'
import { describePanels } from './report/contraction-panels.ts'
import { contractionReport, contractionsOf, modelContextFor, type ModelContext } from './report/contraction-report.ts'
import type { ContractionReport } from './report/report-types.ts'
import type { CompiledKernel } from './compiled-kernel.ts'
import { addonRequest, checkedSpec, compileKernel, moduleIdOf, kernelWarnings, type PipelineEvent } from './pipeline.ts'

export interface FileExplanation {
  /** The file, from the project root. */
  readonly file: string
  /** Every annotated function of the file, in order. */
  readonly available: readonly string[]
  readonly kernels: readonly KernelExplanation[]
  /** Kernels that did not compile, formatted with their code frame. */
  readonly errors: readonly ErrorReport[]
  /** The file's addon: all its kernels, one native library. */
  readonly addon: AddonReport
}

export interface ErrorReport {
  readonly code: string
  readonly kernel?: string
  /** `file:line:column: message [code]`, the code frame and the notes. */
  readonly text: string
}

export interface KernelExplanation {
  readonly name: string
  /** `file:line:column` of its `@kernel` comment. */
  readonly location: string
  /** What a build warns about it (`perf_plain_loops`: a statement doing cubic work as plain loops), formatted as errors are. */
  readonly warnings: readonly ErrorReport[]
  readonly spec: SpecReport
  /** `build`, then every pass in order, with the IR it left. */
  readonly steps: readonly StepReport[]
  /** Of the block form the lowering passes start from. */
  readonly analysis: AnalysisReport
  readonly paths: readonly PathDecision[]
  readonly microkernels: readonly MatchReport[]
  /** Per reduction: the convolution it became (roles, per-ISA tiling) or why not (explain-convolution.ts). */
  readonly convolutions: readonly ConvolutionReport[]
  /**
   * Per GEMM of the lowered kernel, what the schedule model says (the build report's data): per ISA and shape class the
   * blocking, its working sets per cache level and predicted GFLOP/s, and the default class's ranked variants.
   */
  readonly models: readonly ContractionReport[]
}

export interface SpecReport {
  readonly tensors: readonly {
    readonly name: string
    readonly dtype: string
    readonly shape: readonly string[]
    readonly role: string
  }[]
  readonly sizes: readonly string[]
  readonly statements: readonly {
    readonly id: string
    /** As written in the spec. */
    readonly text: string
    readonly domain: readonly { readonly index: string; readonly extent: string }[]
    readonly reduced: readonly string[]
    readonly where: readonly string[]
  }[]
}

export interface StepReport {
  readonly name: string
  /** False when the pass returned its input unchanged. */
  readonly changed: boolean
  readonly ir: string
  /** What it logged, `topic: text` (POLYKERN_DEBUG topics). */
  readonly messages: readonly string[]
}

export interface AnalysisReport {
  readonly blocks: readonly {
    readonly id: string
    readonly reduction: readonly string[]
    readonly parallel: readonly string[]
  }[]
  readonly dependences: readonly {
    readonly kind: string
    readonly from: string
    readonly to: string
    readonly tensor: string
    readonly pointwise: boolean
  }[]
}

export interface MatchReport {
  readonly block: string
  /** When the block became a contraction: which index and tensor plays which part of C[m, n] += A[m, k] · B[k, n]. */
  readonly roles?: {
    readonly m: string
    readonly n: string
    readonly k: string
    readonly batch: readonly string[]
    readonly a: string
    readonly b: string
    readonly c: string
    /** `flattened` (one stride per role and tensor) or `gathered` (through offset tables), and how each tensor is read. */
    readonly layout: string
    readonly panels: string
  }
  /** One per ISA that runs it as a blocked GEMM: every field of its schedule. */
  readonly schedules: readonly ContractionSchedule[]
  /** What substitute-microkernel said about the block: per ISA, the microkernel or why none matched. */
  readonly log: readonly string[]
}

export type AddonReport =
  | { readonly built: true; readonly dir: string; readonly files: readonly string[] }
  | { readonly built: false; readonly reason: string; readonly dir?: string }

export interface ExplainOptions {
  /** Explain only this kernel; the others still compile, since the addon holds them all. */
  readonly kernel?: string
  /** Build the addon when the cache has none for the current source. */
  readonly build?: boolean
}

/**
 * Explains the kernels of `file` (absolute; `code` is its text). A problem in the file's code is in `errors`; a
 * `kernel` the file does not have leaves `kernels` empty (`available` lists the file's).
 */
export async function explainFile(
  file: string, code: string, opts: ResolvedOptions, options: ExplainOptions = {},
): Promise<FileExplanation> {
  const moduleId = moduleIdOf(file, opts)
  const nothing = (reason: string) => ({ built: false, reason }) as const
  let sites: KernelSite[]
  try {
    sites = findKernelSites(file, code)
  } catch (e) {
    if (!(e instanceof KernelDiagnostic)) throw e
    const errors = [errorReport(e, code, moduleId)]
    return { file: moduleId, available: [], kernels: [], errors, addon: nothing('the file has an error') }
  }
  const available = sites.map((s) => s.name)
  if (sites.length === 0 || (options.kernel !== undefined && !available.includes(options.kernel))) {
    return { file: moduleId, available, kernels: [], errors: [], addon: nothing('no kernel to explain') }
  }
  const kernels: KernelExplanation[] = []
  const compiled: CompiledKernel[] = []
  let model: ModelContext | undefined
  const errors: ErrorReport[] = []
  for (const site of sites) {
    const events: PipelineEvent[] = []
    const wanted = options.kernel === undefined || options.kernel === site.name
    try {
      compiled.push(compileKernel(site, code, opts, wanted ? (e) => events.push(e) : undefined))
    } catch (e) {
      if (!(e instanceof KernelDiagnostic)) throw e
      if (wanted) errors.push(errorReport(e, code, moduleId))
      continue
    }
    if (wanted) kernels.push(explainKernel(site, code, compiled.at(-1)!, events, model ??= modelContextFor(opts), moduleId))
  }
  const addon: AddonReport =
    compiled.length < sites.length
      ? nothing('a kernel of the file has an error, so no addon is built')
      : await addonReport(compiled, moduleId, code, sites[0], opts, options.build ?? false, errors)
  return { file: moduleId, available, kernels, errors, addon }
}

/** The diagnostic as the CLI prints it, with the file named from the project root. */
function errorReport(d: KernelDiagnostic, code: string, moduleId: string): ErrorReport {
  const shown = d.span ? new KernelDiagnostic(d.code, d.message, { ...d.span, file: moduleId }, d.notes, d.kernel) : d
  return { code: d.code, kernel: d.kernel, text: formatDiagnostic(shown, code) }
}

function explainKernel(
  site: KernelSite, code: string, compiled: CompiledKernel, events: readonly PipelineEvent[], model: ModelContext,
  moduleId: string,
): KernelExplanation {
  const steps = events.flatMap((e) => (e.kind === 'step' ? [e] : []))
  const analysis = events.find((e) => e.kind === 'analysis')
  const stepNamed = (name: string) => steps.find((s) => s.name === name)
  const pathStep = stepNamed('contraction-path')
  const matchStep = stepNamed('substitute-microkernel')
  const convStep = stepNamed('substitute-convolution')
  return {
    name: site.name,
    location: compiled.abi.loc,
    warnings: kernelWarnings(compiled).map((d) => errorReport(d, code, moduleId)),
    spec: specReport(site, code),
    steps: steps.map((s) => ({
      name: s.name,
      changed: s.ir !== s.before,
      ir: printKernel(s.ir),
      messages: s.messages.map((m) => `${m.topic}: ${m.text}`),
    })),
    analysis: analysis ? analysisReport(analysis.facts) : { blocks: [], dependences: [] },
    paths: pathStep?.before ? planContractionPaths(pathStep.before) : [],
    microkernels: matchStep?.before
      ? matchReports(matchStep.before, matchStep.ir, matchStep.messages.map((m) => m.text))
      : [],
    convolutions: convStep?.before
      ? convolutionReports(convStep.before, convStep.ir, convStep.messages.map((m) => m.text))
      : [],
    models: contractionsOf(compiled.ir).map((c) => contractionReport(c, model)),
  }
}

function specReport(site: KernelSite, code: string): SpecReport {
  const spec = checkedSpec(site)
  return {
    tensors: spec.tensors.map((t) => ({ name: t.name, dtype: t.dtype, shape: t.shape.map(format), role: t.role })),
    sizes: spec.sizes,
    statements: spec.statements.map((s, n) => ({
      id: `s${n}`,
      text: code.slice(s.span.start, s.span.end).replace(/\s+/g, ' ').trim(),
      domain: s.indices.map((ix) => ({ index: ix.name, extent: format(ix.extent) })),
      reduced: s.reduced,
      where: s.where.map(printConstraint),
    })),
  }
}

function analysisReport(facts: KernelFacts): AnalysisReport {
  return {
    blocks: [...facts.blocks.values()].map((b) => ({
      id: b.id,
      reduction: b.reductionIndices,
      parallel: b.parallelIndices,
    })),
    dependences: facts.dependences.map(({ kind, from, to, tensor, pointwise }) => ({ kind, from, to, tensor, pointwise })),
  }
}

/** Per block entering substitute-microkernel: the contraction it became, if any, and the pass's messages on it. */
function matchReports(before: Kernel, after: Kernel, messages: readonly string[]): MatchReport[] {
  const contractions = new Map<string, Extract<Kernel['body'][number], { kind: 'contraction' }>>()
  walkStmts(after.body, (s) => {
    if (s.kind === 'contraction') contractions.set(s.id, s)
  })
  const reports: MatchReport[] = []
  walkStmts(before.body, (s) => {
    if (s.kind !== 'block') return
    const prefix = `${before.name} ${s.id}: `
    const log = messages.filter((m) => m.startsWith(prefix)).map((m) => m.slice(prefix.length))
    const c = contractions.get(s.id)
    if (!c) {
      reports.push({ block: s.id, schedules: [], log })
      return
    }
    const r = c.roles
    const roles = {
      m: printRole(r.m), n: printRole(r.n), k: printRole(r.k), batch: r.batch.map((b) => b.name),
      a: r.a.tensor, b: r.b.tensor, c: r.c.tensor, layout: r.layout, panels: describePanels(r, after.tensors),
    }
    reports.push({ block: s.id, roles, schedules: c.schedules.map((x) => ({ ...x })), log })
  })
  return reports
}

/** Where the addon of the current source is, building it first when asked; a failed build joins `errors`. */
async function addonReport(
  kernels: readonly CompiledKernel[], moduleId: string, code: string, first: KernelSite, opts: ResolvedOptions,
  build: boolean, errors: ErrorReport[],
): Promise<AddonReport> {
  const request = addonRequest(kernels, moduleId, opts)
  try {
    const where = await addonLocation(request)
    if (where.built) return { built: true, dir: where.dir, files: readdirSync(where.dir).sort() }
    const reason = 'none for the current source (explain --build builds it)'
    if (!build) return { built: false, dir: where.dir, reason }
  } catch (e) {
    return { built: false, reason: `cannot locate the addon: ${(e as Error).message}` }
  }
  const built = await buildAddon(request)
  if (built.ok) return { built: true, dir: path.dirname(built.path), files: readdirSync(path.dirname(built.path)).sort() }
  errors.push(errorReport(nativeBuildFailed(first.commentSpan, moduleId, built.error), code, moduleId))
  return { built: false, reason: `the native build failed: ${built.error.split('\n')[0]}` }
}
