/**
 * `polykern explain`: every decision the compiler takes for the kernels of one file, as data (`--json`) and as text
 * (explain-text.ts). It runs the module steps of pipeline.ts through `build` (tuning included, as a build with the
 * same options does) and watches each kernel's pass sequence go by, so what it shows is what a build does: the spec
 * as checked, the IR after each step, the dependences, the contraction path with its cost, the microkernel match per
 * block and ISA with the GEMM schedules, what each module step did, and where the addon's C is.
 */
import { readdirSync } from 'node:fs'
import path from 'node:path'
import type { KernelFacts } from './analysis/deps.ts'
import { KernelDiagnostic, formatDiagnostic } from './diagnostics.ts'
import { convolutionReports, type ConvolutionReport } from './explain-convolution.ts'
import { jamPlan } from './emit/c-jam.ts'
import { longestRunPeriod, runForm } from './emit/c-vector.ts'
import type { KernelSite } from './find/site.ts'
import { format } from './ir/affine.ts'
import type { ContractionSchedule, Kernel, Loop } from './ir/nodes.ts'
import { printBound, printConstraint, printKernel, printRole } from './ir/print.ts'
import { perfectNest, walkStmts } from './ir/walk.ts'
import type { ResolvedOptions } from './options.ts'
import { planContractionPaths, type PathDecision } from './passes/contraction-path.ts'
import { describePanels } from './report/contraction-panels.ts'
import { contractionReport, contractionsOf, modelContextFor, type ModelContext } from './report/contraction-report.ts'
import type { ContractionReport } from './report/report-types.ts'
import type { CompiledKernel } from './compiled-kernel.ts'
import { ISAS } from './targets/index.ts'
import { checkedSpec, compileFile, kernelWarnings, type ModuleState, type ModuleStepRecord, type PipelineEvent } from './pipeline.ts'

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
  /** The module steps run, as a build runs them (tuning included), through `build`: what each did and its time. */
  readonly moduleSteps: readonly ModuleStepRecord[]
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
  /** Loops run several iterations side by side around a register nest (emit/c-jam.ts), one line each. */
  readonly jams: readonly string[]
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
  /** Its sliced form (ir/nodes.ts SlicedContraction), when it has one: its batch and n, whose calls, its schedules. */
  readonly sliced?: {
    readonly batch: readonly string[]
    readonly n: string
    readonly maxRowTiles: number
    readonly schedules: readonly ContractionSchedule[]
  }
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
  const found = await compileFile(file, code, opts, { errors: 'collect', through: 'find' })
  const { moduleId } = found
  const nothing = (reason: string) => ({ built: false, reason }) as const
  if (found.errors.length > 0) {
    const errors = found.errors.map((e) => errorReport(e, code, moduleId))
    return { file: moduleId, available: [], kernels: [], errors, addon: nothing('the file has an error'), moduleSteps: found.steps }
  }
  const available = found.sites.map((s) => s.name)
  if (found.sites.length === 0 || (options.kernel !== undefined && !available.includes(options.kernel))) {
    return { file: moduleId, available, kernels: [], errors: [], addon: nothing('no kernel to explain'), moduleSteps: found.steps }
  }
  // Every kernel compiles (the addon holds them all); the passes of those asked for are watched.
  const events = new Map<KernelSite, PipelineEvent[]>()
  const wanted = (site: KernelSite) => options.kernel === undefined || options.kernel === site.name
  const watch = (site: KernelSite) => (wanted(site) ? (e: PipelineEvent) => events.set(site, [...(events.get(site) ?? []), e]) : undefined)
  const built = await compileFile(file, code, opts, {
    from: found, errors: 'collect', observe: watch, through: 'build', addon: options.build ? 'build' : 'locate',
  })
  const model = modelContextFor(opts)
  const kernels = built.kernels.filter((k) => wanted(k.site)).map((k) => explainKernel(k.site, code, k, events.get(k.site) ?? [], model, moduleId))
  const failedBuild = built.warnings.filter((w) => w.code === 'native_build_failed')
  const errors = [...built.errors.filter((e) => options.kernel === undefined || e.kernel === options.kernel), ...failedBuild]
  return { file: moduleId, available, kernels, errors: errors.map((e) => errorReport(e, code, moduleId)), addon: addonReport(built), moduleSteps: built.steps }
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
  const messagesOf = (...named: (typeof steps[number] | undefined)[]) => named.flatMap((s) => s?.messages.map((m) => m.text) ?? [])
  const convMessages = messagesOf(convStep, stepNamed('fuse-epilogue'))
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
      ? matchReports(matchStep.before, matchStep.ir, messagesOf(matchStep, stepNamed('fuse-epilogue')))
      : [],
    convolutions: convStep?.before
      ? convolutionReports(convStep.before, convStep.ir, convMessages)
      : [],
    jams: jamReports(compiled.ir),
    models: contractionsOf(compiled.ir).map((c) => contractionReport(c, model)),
  }
}

/** Each loop some vector ISA jams: how many iterations side by side, on which ISAs, and where (its interior). */
function jamReports(ir: Kernel): string[] {
  const lines: string[] = []
  walkStmts(ir.body, (s) => {
    if (s.kind !== 'loop') return
    const plans = ISAS.flatMap((isa) => {
      const plan = jamPlan(s, isa)
      return plan ? [{ isa: isa.name, plan }] : []
    })
    if (plans.length === 0) return
    const lanes = s.body[0] as Loop
    const byCount = new Map<number, string[]>()
    for (const { isa, plan } of plans) byCount.set(plan.count, [...(byCount.get(plan.count) ?? []), isa])
    const counts = [...byCount].map(([n, isas]) => `${n} at a time on ${isas.join(' and ')}`).join(', ')
    const split = plans[0].plan.split
    const where = split
      ? `; inside [${printBound(split.interior.lo)}, ${printBound(split.interior.hi)}), the window's edges one by one`
      : ''
    const interior = split?.interior ?? s
    const nest = perfectNest(interior.body[0] as Loop)
    const tensor = (name: string) => ir.tensors.find((t) => t.name === name)!
    const stored = new Set(nest?.stores.map((x) => x.access.tensor)).size
    const periods = plans.map(({ isa }, n) => {
      const longest = longestRunPeriod(ISAS.find((x) => x.name === isa)!, stored)
      const each = Array.from({ length: Math.log2(longest) + 1 }, (_, k) => 2 ** k)
      return `${each.slice(0, -1).join(', ')}${each.length > 1 ? ' or ' : ''}${longest}${n === 0 ? ' vectors' : ''} on ${isa}`
    })
    const run = nest && runForm(interior.body[0] as Loop, nest.stores, s.v, tensor)
      ? `; where a row of ${lanes.v} is ${periods.join(', ')}, the ${split ? 'interior' : 'loop'} runs along memory instead, in vectors aligned to ${nest.stores[0].access.tensor}'s cache lines`
      : ''
    lines.push(`${s.v}: ${counts}, around the register nest over ${lanes.v}${where}${run}`)
  })
  return lines
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
    const sliced = c.sliced && {
      batch: c.sliced.roles.batch.map((b) => b.name), n: printRole(c.sliced.roles.n), maxRowTiles: c.sliced.maxRowTiles,
      schedules: c.sliced.schedules.map((x) => ({ ...x })),
    }
    reports.push({ block: s.id, roles, schedules: c.schedules.map((x) => ({ ...x })), ...(sliced ? { sliced } : {}), log })
  })
  return reports
}

/** Where the addon of the current source is: what the `build` step found, built or failed to build. */
function addonReport(built: ModuleState): AddonReport {
  const files = (dir: string) => readdirSync(dir).sort()
  if (built.addon) return { built: true, dir: path.dirname(built.addon.path), files: files(path.dirname(built.addon.path)) }
  // Without an addon, the build step gives its directory only when it looked in the cache and found none there.
  if (built.addonDir) return { built: false, dir: built.addonDir, reason: 'none for the current source (explain --build builds it)' }
  return { built: false, reason: built.nativeReason ?? 'not built' }
}
