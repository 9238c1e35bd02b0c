/** The bench's results: the JSON document (issue 3's shape, plus extra fields) and the readable table. */
import { flopsOf, type GemmShape } from './cases.ts'

export type System = 'polykern' | 'polykern-bound' | 'polykern-js' | 'js-loops' | 'onnxruntime' | 'onednn'

export interface CaseResult {
  readonly name: string
  readonly kind: 'gemm'
  readonly shape: GemmShape
  readonly system: System
  readonly threads: 1 | 2
  /** From the best (fastest) call. */
  readonly gflops: number
  readonly maxRelErr: number
  readonly medianGflops: number
  readonly bestSeconds: number
  readonly medianSeconds: number
  readonly runs: number
  /** polykern only: false when the runtime has no setThreads yet, so this row ran with the default thread count. */
  readonly threadsSet?: boolean
}

/** A measurement that was not taken, and why. */
export interface Skipped {
  readonly name: string
  readonly system: System
  readonly reason: string
}

/** A result that disagreed with the reference: never timed. */
export interface Failure {
  readonly name: string
  readonly system: System
  readonly threads: 1 | 2
  readonly maxRelErr: number
}

export interface BenchReport {
  /** AVX-512 FMA peak of one core (the AVX2 one when the CPU has no AVX-512: `peakIsa` says which). */
  readonly peakGflops1T: number
  readonly peakIsa: 'avx512' | 'avx2'
  readonly peakGflops1T_avx2: number | null
  readonly machine: {
    readonly cpu: string
    readonly cores: number
    readonly node: string
    readonly onnxruntime: string
    /** oneDNN's version and threading runtime, e.g. `2.6.3 (OpenMP)`; null when the `onednn` system was skipped. */
    readonly onednn: string | null
    /** 1-minute load average before the bench started: above BUSY_LOAD, other processes were competing for cores. */
    readonly loadAverageAtStart: number
  }
  readonly date: string
  /** Results above this maxRelErr count as failures. */
  readonly tolerance: number
  readonly cases: readonly CaseResult[]
  readonly skipped: readonly Skipped[]
  readonly failures: readonly Failure[]
}

const BUSY_LOAD = 0.7

/** Cases at least this big (2·1024³ flops) get the 2T/1T scaling line: the issue's "1024³ and above". */
const SCALING_MIN_FLOPS = 2 * 1024 ** 3

export function formatTable(report: BenchReport): string {
  const names = [...new Set(report.cases.map((r) => r.name).concat(report.failures.map((f) => f.name)))]
  const cell = (name: string, system: System, threads: 1 | 2): string => {
    if (report.failures.some((f) => f.name === name && f.system === system && f.threads === threads)) return 'WRONG'
    const r = find(report, name, system, threads)
    if (r) return gflopsText(r.gflops)
    return report.skipped.some((s) => s.name === name && s.system === system) ? 'skip' : '-'
  }
  const ratio = (name: string, versus: System, threads: 1 | 2, system: System = 'polykern'): string => {
    const pk = find(report, name, system, threads)
    const other = find(report, name, versus, threads)
    return pk && other ? ratioText(pk.gflops / other.gflops) : '-'
  }
  const rows = names.map((name) => {
    const pk1 = find(report, name, 'polykern', 1)
    const shape = report.cases.find((r) => r.name === name)?.shape
    return [
      name,
      shape ? shapeText(shape) : '',
      cell(name, 'polykern', 1),
      cell(name, 'polykern', 2),
      cell(name, 'onnxruntime', 1),
      cell(name, 'onnxruntime', 2),
      cell(name, 'onednn', 1),
      cell(name, 'onednn', 2),
      cell(name, 'js-loops', 1),
      cell(name, 'polykern-js', 1),
      pk1 ? `${((100 * pk1.gflops) / report.peakGflops1T).toFixed(1)}%` : '-',
      ratio(name, 'onnxruntime', 1),
      ratio(name, 'onnxruntime', 2),
      ratio(name, 'onednn', 1),
      ratio(name, 'onednn', 2),
      ratio(name, 'onednn', 1, 'polykern-bound'),
      ratio(name, 'onednn', 2, 'polykern-bound'),
    ]
  })
  const head = ['case', 'M x N x K', 'pk 1T', 'pk 2T', 'ort 1T', 'ort 2T', 'dnnl 1T', 'dnnl 2T', 'js-loops', 'pk-js', 'pk1T %peak',
    'pk/ort 1T', 'pk/ort 2T', 'pk/dnnl 1T', 'pk/dnnl 2T', 'bound/dnnl 1T', 'bound/dnnl 2T']
  const lines = [
    `GFLOP/s (2*M*N*K*B / best call); pk = polykern native, ort = onnxruntime-node ${report.machine.onnxruntime} MatMul/Gemm, ` +
      `dnnl = oneDNN ${report.machine.onednn ?? '(skipped)'} matmul with its weights reordered once, bound = polykern with B ` +
      'bound once (packed on its first call), ' +
      `pk-js = polykern's JS fallback; ${report.machine.cpu}, ${report.machine.cores} cores, Node ${report.machine.node}`,
    '',
    ...alignColumns([head, ...rows]),
    '',
    `fp32 FMA peak, 1 core: ${report.peakGflops1T.toFixed(1)} GFLOP/s` +
      (report.peakIsa === 'avx2'
        ? ' (AVX2; this CPU has no AVX-512)'
        : report.peakGflops1T_avx2 === null ? ' (AVX-512)' : ` (AVX-512); AVX2 ${report.peakGflops1T_avx2.toFixed(1)} GFLOP/s`),
    `geometric mean polykern/onnxruntime: 1T ${geomeanRatio(report, 'onnxruntime', 1)}, 2T ${geomeanRatio(report, 'onnxruntime', 2)}`,
    `geometric mean polykern/onednn: 1T ${geomeanRatio(report, 'onednn', 1)}, 2T ${geomeanRatio(report, 'onednn', 2)}; ` +
      `with B bound (polykern-bound): 1T ${geomeanRatio(report, 'onednn', 1, 'polykern-bound')}, ` +
      `2T ${geomeanRatio(report, 'onednn', 2, 'polykern-bound')}`,
    `2T/1T at 1024^3 and above: polykern ${scaling(report, 'polykern')}; onnxruntime ${scaling(report, 'onnxruntime')}; ` +
      `onednn ${scaling(report, 'onednn')}`,
  ]
  if (report.machine.loadAverageAtStart > BUSY_LOAD) {
    lines.push(`warning: load average ${report.machine.loadAverageAtStart.toFixed(1)} before the bench: other processes ` +
      'competed for the cores, so 2-thread numbers (and the peak) are unreliable')
  }
  if (report.cases.some((r) => r.threadsSet === false)) {
    lines.push('pk 2T: threads: not supported yet (polykern/runtime has no setThreads): both pk columns ran with the default')
  }
  for (const s of groupSkips(report.skipped)) lines.push(`skipped: ${s}`)
  for (const f of report.failures) {
    lines.push(`WRONG: ${f.name} ${f.system} ${f.threads}T: maxRelErr ${f.maxRelErr} > ${report.tolerance} (not timed)`)
  }
  return lines.join('\n')
}

function find(report: BenchReport, name: string, system: System, threads: 1 | 2): CaseResult | undefined {
  return report.cases.find((r) => r.name === name && r.system === system && r.threads === threads)
}

const gflopsText = (g: number): string => (g >= 100 ? g.toFixed(0) : g >= 10 ? g.toFixed(1) : g.toFixed(2))
/** Two decimals, or two significant digits below 0.1 (today's polykern is that far behind on some cases). */
const ratioText = (r: number): string => `${r >= 0.1 ? r.toFixed(2) : r.toPrecision(2)}x`

function shapeText(s: GemmShape): string {
  return `${s.B === undefined ? '' : `${s.B} x `}${s.M} x ${s.N} x ${s.K}`
}

function geomeanRatio(report: BenchReport, versus: System, threads: 1 | 2, system: System = 'polykern'): string {
  const ratios = report.cases
    .filter((r) => r.system === system && r.threads === threads)
    .flatMap((pk) => {
      const other = find(report, pk.name, versus, threads)
      return other ? [pk.gflops / other.gflops] : []
    })
  if (ratios.length === 0) return '-'
  const mean = Math.exp(ratios.reduce((s, r) => s + Math.log(r), 0) / ratios.length)
  return `${ratioText(mean)} over ${ratios.length} cases`
}

function scaling(report: BenchReport, system: System): string {
  const parts = report.cases
    .filter((r) => r.system === system && r.threads === 1)
    .filter((r) => flopsOf(r.shape) >= SCALING_MIN_FLOPS)
    .flatMap((one) => {
      const two = find(report, one.name, system, 2)
      return two ? [`${one.name} ${ratioText(two.gflops / one.gflops)}`] : []
    })
  return parts.length > 0 ? parts.join(', ') : '-'
}

/** One line per (system, reason), listing its cases. */
export function groupSkips(skipped: readonly { name: string; system: string; reason: string }[]): string[] {
  const groups = new Map<string, string[]>()
  for (const s of skipped) {
    const key = `${s.system}: ${s.reason}`
    groups.set(key, [...(groups.get(key) ?? []), s.name])
  }
  return [...groups].map(([key, names]) => `${key}: ${names.join(', ')}`)
}

/** First two columns left-aligned, numbers right-aligned. */
function alignColumns(rows: readonly (readonly string[])[]): string[] {
  const widths = rows[0].map((_, n) => Math.max(...rows.map((r) => r[n].length)))
  const line = (r: readonly string[]): string =>
    r.map((s, n) => (n < 2 ? s.padEnd(widths[n]) : s.padStart(widths[n]))).join('  ').trimEnd()
  return [line(rows[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line)]
}
