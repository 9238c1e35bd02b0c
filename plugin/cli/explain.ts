/** `polykern explain FILE[:KERNEL]`: the compiler's decisions for each kernel of a file (plugin/explain.ts). */
import { readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { explainFile } from '../explain.ts'
import { formatExplanation } from '../explain-text.ts'
import { resolveOptions } from '../options.ts'
import { EXIT, UsageError, type CliIo, type Command } from './command.ts'
import { paintFor } from './paint.ts'

const HELP = `Usage: polykern explain FILE[:KERNEL] [options]

Prints, for each @kernel function of FILE (or only KERNEL): the spec as checked (tensors with their roles, each
statement's domain and reduced indices), the IR after every pass ("(unchanged)" when a pass left it alone), the
dependences, the contraction path chosen with its multiply-adds before and after, each block's microkernel match
per ISA with its GEMM schedule (or why none matched), and where the addon's C source is. Nothing is built unless
--build is given.

Options:
  --json           the same, as JSON on stdout
  --build          build the addon if the cache has none for the current source (node-gyp: up to a minute)
  --root DIR       project root, as the bundler plugin's \`root\` (default: the current directory)
  --cache-dir DIR  addon cache, as the plugin's \`cacheDir\` (default: <root>/node_modules/.cache/polykern)
  -h, --help       this help

Exit codes: 0 ok; 1 an error in a kernel (printed as file:line:column with a code frame) or a failed --build;
2 a usage error (unknown option, file without kernels, unknown KERNEL); 3 a bug in polykern.
`

export const explainCommand: Command = {
  name: 'explain',
  summary: 'show the spec, the IR after each pass, the analysis, the contraction path and the schedule of kernels',
  help: HELP,
  async run(args: readonly string[], io: CliIo): Promise<number> {
    const { values, positionals } = parse(args)
    if (positionals.length !== 1) {
      const n = positionals.length
      throw new UsageError(n === 0 ? 'give a FILE or FILE:KERNEL' : `one FILE[:KERNEL] at a time, got ${n}`)
    }
    const { file, kernel } = targetOf(positionals[0], io.cwd)
    const code = readSource(file, positionals[0])
    const root = path.resolve(io.cwd, values.root ?? '.')
    const cacheDir = values['cache-dir'] === undefined ? undefined : path.resolve(io.cwd, values['cache-dir'])
    const opts = resolveOptions({ root, cacheDir, calibrate: false })
    const x = await explainFile(file, code, opts, { kernel, build: values.build })
    for (const e of x.errors) io.stderr.write(`${e.text}\n`)
    if (x.errors.length === 0 && x.kernels.length === 0) {
      throw new UsageError(
        x.available.length === 0
          ? `${x.file} has no @kernel function`
          : `${x.file} has no kernel '${kernel}'; its kernels: ${x.available.join(', ')}`,
      )
    }
    io.stdout.write(values.json ? `${JSON.stringify(x, null, 2)}\n` : formatExplanation(x, paintFor(io.stdout, io.env)))
    return x.errors.length > 0 ? EXIT.userError : EXIT.ok
  },
}

function parse(args: readonly string[]) {
  try {
    return parseArgs({
      args: [...args],
      allowPositionals: true,
      strict: true,
      options: {
        json: { type: 'boolean', default: false },
        build: { type: 'boolean', default: false },
        root: { type: 'string' },
        'cache-dir': { type: 'string' },
      },
    })
  } catch (e) {
    throw new UsageError((e as Error).message)
  }
}

/** `FILE:KERNEL` splits at the last colon when what follows is a name and FILE is not itself an existing path. */
function targetOf(arg: string, cwd: string): { file: string; kernel?: string } {
  const whole = path.resolve(cwd, arg)
  const m = /^(.+):([A-Za-z_$][\w$]*)$/.exec(arg)
  if (m === null || isFile(whole)) return { file: whole }
  return { file: path.resolve(cwd, m[1]), kernel: m[2] }
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile()
  } catch {
    return false
  }
}

function readSource(file: string, shown: string): string {
  try {
    return readFileSync(file, 'utf8')
  } catch (e) {
    throw new UsageError(`cannot read ${shown}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`)
  }
}
