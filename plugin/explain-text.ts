/** The text form of `polykern explain` (explain.ts builds the data): one section per decision, kernel by kernel. */
import { formatConvolutions } from './explain-convolution.ts'
import type { AddonReport, ErrorReport, FileExplanation, KernelExplanation, MatchReport } from './explain.ts'
import type { ContractionSchedule } from './ir/nodes.ts'
import type { ContractionReport } from './report/report-types.ts'
import { REPRESENTATIVE_SIZE, gainOf, type PathDecision } from './passes/contraction-path.ts'
import { describeBlocking, describeGuard } from './schedule/describe.ts'

/** How a role of text is shown: the CLI colours on a TTY, everything else prints plain. */
export type Paint = (role: 'title' | 'heading' | 'dim' | 'good' | 'bad', text: string) => string

const plain: Paint = (_, text) => text

export function formatExplanation(x: FileExplanation, paint: Paint = plain): string {
  const parts = x.kernels.map((k) => formatKernel(k, paint))
  parts.push(section(paint, `module steps of ${x.file} (as a build runs them)`, formatModuleSteps(x, paint)))
  parts.push(section(paint, `native code of ${x.file}`, formatAddon(x.addon, paint)))
  return parts.join('\n\n') + '\n'
}

/** Passes whose decisions the explanation prints in a section of their own. */
const OWN_SECTION = new Set(['contraction-path', 'substitute-convolution', 'substitute-microkernel', 'fuse-epilogue'])

/** A changed step's decisions, printed above its IR unless a section of their own prints them. */
const notes = (s: KernelExplanation['steps'][number]): readonly string[] => (OWN_SECTION.has(s.name) ? [] : s.messages)

function formatKernel(k: KernelExplanation, paint: Paint): string {
  return [
    paint('title', `kernel ${k.name}`) + paint('dim', `  ${k.location}`),
    ...(k.warnings.length ? [section(paint, 'warnings', k.warnings.flatMap((w) => formatWarning(w, paint)))] : []),
    section(paint, 'spec', formatSpec(k)),
    section(paint, 'passes', k.steps.flatMap((s) => s.changed
      ? [paint('heading', s.name), ...indent(notes(s).map((m) => paint('dim', `# ${m}`))), ...indent(s.ir.trimEnd().split('\n'))]
      : [`${paint('heading', s.name)} ${paint('dim', '(unchanged)')}`])),
    section(paint, 'analysis of the block form', [
      ...k.analysis.blocks.map((b) => `${b.id}: reduces [${b.reduction.join(', ')}], parallel [${b.parallel.join(', ')}]`),
      ...k.analysis.dependences.map((d) => `${d.kind} ${d.from} → ${d.to} on ${d.tensor}${d.pointwise ? ', pointwise' : ''}`),
    ]),
    section(paint, `contraction path (candidates chosen per call by cost; shown at sizes ${REPRESENTATIVE_SIZE}; factorized when fewer flops)`,
      k.paths.length ? k.paths.flatMap((p) => formatPath(p, paint)) : [paint('dim', 'no product of three or more factors')]),
    section(paint, 'microkernels', k.microkernels.flatMap((m) => formatMatch(m, paint, convolved(k)))),
    ...(k.convolutions.length ? [section(paint, 'convolutions', formatConvolutions(k.convolutions, paint))] : []),
    ...(k.jams.length ? [section(paint, 'loops run side by side (unroll-and-jam around a register nest)', k.jams)] : []),
    ...(k.models.length ? [section(paint, 'schedule model (working sets per cache level, predicted GFLOP/s)', k.models.flatMap((m) => formatModel(m, paint)))] : []),
  ].join('\n\n')
}

/** As the CLI prints a diagnostic (location, message, code frame, notes), its first line marked. */
const formatWarning = (w: ErrorReport, paint: Paint): string[] =>
  w.text.split('\n').map((line, n) => (n === 0 ? paint('bad', line) : line))

function formatSpec(k: KernelExplanation): string[] {
  const s = k.spec
  return [
    ...s.tensors.map((t) => `${t.name}: ${t.dtype}[${t.shape.join(', ')}]  ${t.role}`),
    `sizes: ${s.sizes.join(', ') || '(none)'}`,
    ...s.statements.flatMap((st) => [
      `${st.id}: ${st.text}`,
      `    domain [${st.domain.map((d) => `${d.index} < ${d.extent}`).join(', ')}], reduced [${st.reduced.join(', ')}]` +
        (st.where.length ? `, where ${st.where.join(', ')}` : ''),
    ]),
  ]
}

function formatPath(p: PathDecision, paint: Paint): string[] {
  const verdict = p.factorized ? paint('good', 'factorized') : paint('bad', 'kept')
  const lines = [`${p.block}: ${p.factors.join(' · ')}`, `    ${verdict}: ${p.reason}`]
  if (p.costBefore === undefined || p.costAfter === undefined) return lines
  const width = Math.max(...p.steps.map((s) => s.block.length))
  lines.push(`    before: ${count(p.costBefore)} multiply-adds (one block)`)
  for (const s of p.steps) {
    const sums = s.summed.length ? `sums ${s.summed.join(', ')}` : 'sums nothing'
    lines.push(`    ${s.block.padEnd(width)}  ${s.statement}  ${paint('dim', `${sums}, ${count(s.cost)}`)}`)
  }
  lines.push(`    after: ${count(p.costAfter)} multiply-adds, ${gainOf(p.costBefore, p.costAfter)} fewer`)
  if (p.candidates.length < 2) return lines
  const taken = p.candidates.flatMap((c) => c.steps.map((s) => s.block))
  const written = new Set(taken).size
  const shared = written < taken.length ? ` (their ${taken.length} steps are ${written} blocks: a step several take is written once)` : ''
  lines.push(`    ${p.candidates.length} candidates; a call runs the one costing least at its sizes (${p.choice})${shared}:`)
  for (const [k, c] of p.candidates.entries()) {
    lines.push(`    ${k}: ${c.cost} multiply-adds; ${c.steps.map((s) => s.statement).join('; ')}`)
  }
  return lines
}

/** The blocks that run as convolutions on a microkernel (for some ISA): not "loops", though no GEMM matched them. */
const convolved = (k: KernelExplanation): ReadonlySet<string> =>
  new Set(k.convolutions.filter((c) => c.plans.length > 0).map((c) => c.block))

function formatMatch(m: MatchReport, paint: Paint, convolutions: ReadonlySet<string>): string[] {
  const lines: string[] = []
  if (convolutions.has(m.block)) {
    lines.push(`${m.block}: ${paint('good', 'convolution')}, run directly on a GEMM microkernel (see convolutions below); ` +
      'as a plain contraction it matches none:')
  } else if (m.roles) {
    const r = m.roles
    const batch = r.batch.length ? `, batch ${r.batch.join(', ')}` : ''
    const tensors = `C ${r.c}, A ${r.a}, B ${r.b}`
    lines.push(`${m.block}: ${paint('good', 'contraction')} m ${r.m}, n ${r.n}, k ${r.k}${batch}; ${tensors}; ${r.layout}`)
    lines.push(`    ${r.panels}`)
  } else {
    lines.push(`${m.block}: ${paint('bad', 'no microkernel')}; runs as loops`)
  }
  lines.push(...m.schedules.flatMap(formatSchedule))
  if (m.sliced) {
    lines.push(`    calls of at most ${m.sliced.maxRowTiles} register tiles' rows: sliced, batch ${m.sliced.batch.join(', ')} ` +
      `(A does not move along the ones it lacks), n ${m.sliced.n}; flattened`)
    lines.push(...m.sliced.schedules.flatMap(formatSchedule))
  }
  lines.push(...m.log.map((l) => paint('dim', `    ${l}`)))
  return lines
}

/** A schedule's default blocking and its guarded ones. */
const formatSchedule = (x: ContractionSchedule): string[] => [
  `    ${x.isa} ${x.microkernel}: ${describeBlocking(x)}`,
  ...(x.special ?? []).map((s) => `      when ${describeGuard(s.when)}: ${describeBlocking(s.blocking)}${s.microkernel ? `, on ${s.microkernel}` : ''}`),
]

/** Per ISA the default class's blocking with its working sets and prediction, then the ranking's runners-up. */
function formatModel(m: ContractionReport, paint: Paint): string[] {
  const kib = (bytes: number) => `${(bytes / 1024).toFixed(bytes < 10 * 1024 ? 1 : 0)} KiB`
  const lines = m.schedules.flatMap((x) => {
    const main = x.classes.at(-1)!
    const { m: M, n: N, k: K } = main.representative
    return [
      `${m.id} on ${x.isa} (${x.microkernel}), ${main.shapeClass} class at ${M}×${N}×${K}: ${main.description}, ` +
        `predicted ${main.predicted.gflops.toFixed(0)} GFLOP/s`,
      ...main.workingSets.map((w) =>
        `    ${w.level}${w.capacityBytes ? ` (${kib(w.capacityBytes)})` : ''}: ` +
          w.sets.map((s) => `${s.tensor} reused across ${s.loop} ${kib(s.bytes)}`).join(', ')),
    ]
  })
  const ranked = m.ranking.map((r) =>
    `    ${r.rank === 1 ? paint('good', '#1') : `#${r.rank}`} ${r.description}: ${r.cycles.toExponential(3)} cycles, ` +
      `${r.gflops.toFixed(0)} GFLOP/s`)
  return [...lines, ...(ranked.length ? [`  ranked variants of the default class, on the ISA this machine runs:`, ...ranked] : [])]
}

function formatModuleSteps(x: FileExplanation, paint: Paint): string[] {
  const width = Math.max(...x.moduleSteps.map((s) => s.name.length))
  return x.moduleSteps.map((s) => `${paint('heading', s.name.padEnd(width))}  ${s.did}  ${paint('dim', `${s.ms.toFixed(1)} ms`)}`)
}

function formatAddon(a: AddonReport, paint: Paint): string[] {
  if (a.built) return [`${paint('good', 'built')}: ${a.dir}`, ...indent(a.files)]
  return [`${paint('bad', 'not built')}: ${a.reason}`, ...(a.dir ? [paint('dim', `it would be in ${a.dir}`)] : [])]
}

const section = (paint: Paint, title: string, lines: readonly string[] | string): string =>
  [paint('heading', title), ...indent(typeof lines === 'string' ? [lines] : lines)].join('\n')

const indent = (lines: readonly string[]): string[] => lines.map((l) => `  ${l}`)

/** Exact below a billion, with thousands separators; a mantissa and exponent above. */
const count = (n: number): string => (n < 1e9 ? n.toLocaleString('en-US') : n.toExponential(2).replace('e+', 'e'))
