/** `polykern explain FILE[:KERNEL]`: the compiler's decisions for each kernel of a file (plugin/explain.ts). */
import { explainFile } from '../explain.ts'
import { formatExplanation } from '../explain-text.ts'
import { EXIT, type CliIo, type Command } from './command.ts'
import { paintFor } from './paint.ts'
import { PROJECT_HELP, PROJECT_OPTIONS, fileTarget, noKernel, parseCommand, projectOptions } from './arguments.ts'

const HELP = `Usage: polykern explain FILE[:KERNEL] [options]

Prints, for each @kernel function of FILE (or only KERNEL): what a build warns about it (a statement doing cubic
work as plain loops: why no microkernel runs it, the rewrite that would), the spec as checked (tensors with their roles, each
statement's domain and reduced indices), the IR after every pass ("(unchanged)" when a pass left it alone), the
dependences, the contraction path chosen with its multiply-adds before and after, each block's microkernel match
per ISA with its GEMM schedule (or why none matched), what each module step did (find, compile, tune, build: as a
build with the same options runs them), and where the addon's C source is. Nothing is built unless --build is given.

Options:
  --json           the same, as JSON on stdout
  --build          build the addon if the cache has none for the current source (node-gyp: up to a minute)
  --root DIR       project root, as the bundler plugin's \`root\` (default: the current directory)
${PROJECT_HELP}
  -h, --help       this help

Exit codes: 0 ok; 1 an error in a kernel (printed as file:line:column with a code frame) or a failed --build;
2 a usage error (unknown option, file without kernels, unknown KERNEL); 3 a bug in polykern.
`

export const explainCommand: Command = {
  name: 'explain',
  summary: 'show the spec, the IR after each pass, the analysis, the contraction path and the schedule of kernels',
  help: HELP,
  async run(args: readonly string[], io: CliIo): Promise<number> {
    const { values, positionals } = parseCommand(args, {
      json: { type: 'boolean', default: false },
      build: { type: 'boolean', default: false },
      ...PROJECT_OPTIONS,
    })
    const { file, kernel, code } = fileTarget(positionals, io.cwd)
    const opts = projectOptions(values, io, { calibrate: false })
    const x = await explainFile(file, code, opts, { kernel, build: values.build })
    for (const e of x.errors) io.stderr.write(`${e.text}\n`)
    if (x.errors.length === 0 && x.kernels.length === 0) throw noKernel(x.file, x.available, kernel)
    io.stdout.write(values.json ? `${JSON.stringify(x, null, 2)}\n` : formatExplanation(x, paintFor(io.stdout, io.env)))
    return x.errors.length > 0 ? EXIT.userError : EXIT.ok
  },
}
