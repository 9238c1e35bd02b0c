/** `polykern bench FILE[:KERNEL] --sizes M=512,N=512,K=512`: native vs JS loops, per kernel (plugin/bench/). */
import { BenchSizeError, benchFile, type BenchReport, type BenchRow } from '../bench/bench.ts'
import type { Paint } from '../explain-text.ts'
import { EXIT, UsageError, type CliIo, type Command } from './command.ts'
import { paintFor } from './paint.ts'
import { PROJECT_HELP, PROJECT_OPTIONS, fileTarget, integerOption, noKernel, parseCommand, projectOptions } from './arguments.ts'

const HELP = `Usage: polykern bench FILE[:KERNEL] [--sizes M=512,N=512,K=512] [options]

Builds the addon of FILE (or reuses the cached one), then times each @kernel function of FILE (or only KERNEL) on
the same random data: through the native addon and through its generated JS loops, each validated as a user's call
is, and the function's own body as written (what the kernel replaces: a hand-written scan may beat a quadratic
spec; an empty body proves nothing). Prints milliseconds per call (the fastest timed call) and the speed-up,
JS time / native time.

Options:
  --sizes LIST     size parameters by name, e.g. M=512,N=512,K=512; sizes not named take --size
  --size N         every other size parameter (default 256)
  --budget MS      time spent timing each side of each kernel, after a warm-up call (default 500; at least 3 calls).
                   When one JS call would not fit, the JS loops are timed at smaller sizes and their time scaled up
                   by the work: marked ~ in the table, \`estimatedFrom\` in the JSON
  --json           the report as JSON on stdout
  --root DIR       project root, as the bundler plugin's \`root\` (default: the current directory)
${PROJECT_HELP}
  -h, --help       this help

Exit codes: 0 ok; 1 an error in a kernel (printed as file:line:column with a code frame) or no native addon to
time (the JS loops are still reported); 2 a usage error (bad --sizes, file without kernels, unknown KERNEL,
tensors too large); 3 a bug in polykern.
`

export const benchCommand: Command = {
  name: 'bench',
  summary: 'time each kernel natively and on its JS loops at given sizes: ms per call and the speed-up',
  help: HELP,
  async run(args: readonly string[], io: CliIo): Promise<number> {
    const { values, positionals } = parseCommand(args, {
      sizes: { type: 'string' },
      size: { type: 'string', default: '256' },
      budget: { type: 'string', default: '500' },
      json: { type: 'boolean', default: false },
      ...PROJECT_OPTIONS,
    })
    const { file, kernel, code } = fileTarget(positionals, io.cwd)
    const opts = projectOptions(values, io, { calibrate: false })
    let report: BenchReport
    try {
      report = await benchFile(file, code, opts, {
        kernel,
        sizes: sizesOf(values.sizes ?? ''),
        defaultSize: integerOption(values.size, '--size', 1),
        budgetMs: integerOption(values.budget, '--budget', 0),
        // As it goes, on stderr (stdout holds the table or the JSON): a run of several kernels shows it is alive.
        onRow: (row) => io.stderr.write(`${rowLine(row)}\n`),
        onWarning: (message) => io.stderr.write(`warning: ${message}\n`),
      })
    } catch (e) {
      if (e instanceof BenchSizeError) throw new UsageError(e.message)
      throw e
    }
    for (const e of report.errors) io.stderr.write(`${e}\n`)
    if (report.errors.length === 0 && report.rows.length === 0) throw noKernel(report.file, report.available, kernel)
    io.stdout.write(values.json ? `${JSON.stringify(report, null, 2)}\n` : formatBench(report, paintFor(io.stdout, io.env)))
    return report.errors.length > 0 || report.nativeMissing ? EXIT.userError : EXIT.ok
  },
}

/** `matmul: native 1.23 ms, JS 45.6 ms (estimated from M=64 N=64 K=64)`. */
function rowLine(row: BenchRow): string {
  const from = row.js.estimatedFrom
  const estimated = from ? ` (estimated from ${Object.entries(from).map(([s, v]) => `${s}=${v}`).join(' ')})` : ''
  const body = 'ms' in row.body ? `${ms(row.body.ms)} ms` : `- (${row.body.error})`
  return `${row.kernel}: native ${row.native ? `${ms(row.native.ms)} ms` : '-'}, JS ${ms(row.js.ms)} ms${estimated}, own body ${body}`
}

function formatBench(report: BenchReport, paint: Paint): string {
  const where = report.addon ? `native: ${report.addon.isa}, ${report.addon.threads} threads` : `no native: ${report.nativeMissing}`
  const rows = report.rows.map((r) => [
    r.kernel,
    Object.entries(r.shape).map(([s, v]) => `${s}=${v}`).join(' '),
    r.native ? ms(r.native.ms) : '-',
    `${r.js.estimatedFrom ? '~' : ''}${ms(r.js.ms)}`,
    r.speedup === null ? '-' : `${r.speedup >= 10 ? r.speedup.toFixed(0) : r.speedup.toFixed(1)}×`,
    'ms' in r.body ? ms(r.body.ms) : '-',
  ])
  const table = [['kernel', 'sizes', 'native ms', 'JS ms', 'speed-up', 'own body ms'], ...rows]
  const widths = table[0].map((_, c) => Math.max(...table.map((row) => row[c].length)))
  const line = (row: string[]) => `  ${row.map((cell, c) => (c < 2 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  ')}`
  return [
    paint('title', `polykern bench ${report.file}`) + paint('dim', ` (${where})`),
    paint('heading', line(table[0])),
    ...rows.map(line),
    '',
  ].join('\n')
}

/** Three significant digits, at most three decimals: 297, 12.4, 3.07, 0.881. */
const ms = (x: number) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x >= 1 ? x.toFixed(2) : x.toFixed(3))

/** `M=512,N=512,K=512` → { M: 512, N: 512, K: 512 }. */
function sizesOf(text: string): Record<string, number> {
  const sizes: Record<string, number> = {}
  for (const item of text.split(',').filter((s) => s.trim() !== '')) {
    const m = /^\s*([A-Za-z_$][\w$]*)\s*=\s*(\d+)\s*$/.exec(item)
    if (m === null) throw new UsageError(`--sizes takes NAME=INTEGER items separated by commas, got '${item}'`)
    sizes[m[1]] = Number(m[2])
  }
  return sizes
}
