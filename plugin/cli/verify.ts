/** `polykern verify FILE[:KERNEL]`: each annotated function's own body against its compiled kernel (plugin/verify/). */
import { verifyFile, type Verdict, type VerifyReport } from '../verify/verify.ts'
import { EXIT, UsageError, type CliIo, type Command } from './command.ts'
import { paintFor } from './paint.ts'
import { PROJECT_HELP, PROJECT_OPTIONS, fileTarget, integerOption, noKernel, parseCommand, projectOptions } from './arguments.ts'
import type { Paint } from '../explain-text.ts'

/** verify's own meaning of exit code 3: a kernel whose spec does not compile could not be compared at all. */
const SPEC_ERROR = 3

const HELP = `Usage: polykern verify FILE[:KERNEL] [options]

Runs each @kernel function of FILE (or only KERNEL) twice on the same random inputs, for a few random shapes: once
as its own body (the code you wrote, types stripped) and once as the compiled kernel (the native addon when it
builds, else the generated JS loops). Every tensor argument is compared afterwards; the first element that differs
is reported with the kernel, the shape, its index, the value the spec gives (expected) and the body's (got).
The body runs on its own: a body calling another function of its module fails and is reported as such.

Options:
  --shapes N       random shapes per kernel (default 5)
  --seed N         seed of the random shapes and values (default 1): the same seed gives the same run
  --tolerance X    relative tolerance for floats (default 1e-3 for f32, 1e-9 for f64; i32 is exact)
  --js             compare with the generated JS loops, without building the native addon
  --json           the report as JSON on stdout
  --root DIR       project root, as the bundler plugin's \`root\` (default: the current directory)
${PROJECT_HELP}
  -h, --help       this help

Exit codes: 0 every kernel agrees with its body; 1 a disagreement (or a side threw); 2 a usage error (unknown
option, file without kernels, unknown KERNEL); 3 a kernel's spec does not compile (printed as file:line:column with
a code frame), or a bug in polykern.
`

export const verifyCommand: Command = {
  name: 'verify',
  summary: "check each kernel's own JS body against its compiled spec on random shapes",
  help: HELP,
  async run(args: readonly string[], io: CliIo): Promise<number> {
    const { values, positionals } = parseCommand(args, {
      shapes: { type: 'string', default: '5' },
      seed: { type: 'string', default: '1' },
      tolerance: { type: 'string' },
      js: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      ...PROJECT_OPTIONS,
    })
    const { file, kernel, code } = fileTarget(positionals, io.cwd)
    const opts = projectOptions(values, io, { calibrate: false })
    const report = await verifyFile(file, code, opts, {
      kernel,
      shapes: integerOption(values.shapes, '--shapes', 1),
      seed: integerOption(values.seed, '--seed', 0),
      jsOnly: values.js,
      tolerance: values.tolerance === undefined ? undefined : tolerance(values.tolerance),
    })
    for (const e of report.errors) io.stderr.write(`${e}\n`)
    if (report.errors.length === 0 && report.verdicts.length === 0) throw noKernel(report.file, report.available, kernel)
    io.stdout.write(values.json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report, paintFor(io.stdout, io.env)))
    if (report.errors.length > 0) return SPEC_ERROR
    return report.verdicts.every((v) => v.agrees) ? EXIT.ok : EXIT.userError
  },
}

function formatReport(report: VerifyReport, paint: Paint): string {
  const { implementation, reason } = report.against
  const against = implementation === 'native' ? 'the native addon' : `the generated JS loops${reason ? ` (${reason})` : ''}`
  const lines = [paint('title', `polykern verify ${report.file}`) + paint('dim', `: each body against ${against}`)]
  for (const v of report.verdicts) lines.push(verdictLine(v, paint))
  return `${lines.join('\n')}\n`
}

function verdictLine(v: Verdict, paint: Paint): string {
  if (v.agrees) {
    return `  ${paint('good', '✓')} ${v.kernel} agrees on ${v.shapes.length} shape${v.shapes.length === 1 ? '' : 's'}: ` +
      v.shapes.map(shapeText).join('; ')
  }
  const at = `  ${paint('bad', '✗')} ${v.kernel} disagrees at ${shapeText(v.shape)}: `
  if ('threw' in v) return `${at}${v.threw === 'body' ? 'the function body' : 'the compiled kernel'} threw: ${v.error}`
  const d = v.difference
  return `${at}${d.argument}[${d.position.join(', ')}] (index ${d.index}): expected ${d.expected} (the spec, compiled), ` +
    `got ${d.got} (the function body)`
}

const shapeText = (shape: Readonly<Record<string, number>>) =>
  Object.entries(shape).map(([k, v]) => `${k}=${v}`).join(' ') || '(no sizes)'

function tolerance(text: string): number {
  const x = Number(text)
  if (!(x >= 0) || !Number.isFinite(x)) throw new UsageError(`--tolerance takes a number >= 0, got '${text}'`)
  return x
}
