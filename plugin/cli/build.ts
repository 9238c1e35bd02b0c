/** `polykern build [FILES or GLOBS]`: the project's kernels compiled without a bundler (plugin/project/). */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { KernelDiagnostic, formatDiagnostic } from '../diagnostics.ts'
import { buildProject, type BuiltFile } from '../project/build-project.ts'
import { expandFiles } from '../project/expand-files.ts'
import { PROJECT_HELP, PROJECT_OPTIONS, parseCommand, projectOptions } from './arguments.ts'
import { EXIT, UsageError, type CliIo, type Command } from './command.ts'

const HELP = `Usage: polykern build [FILES or GLOBS...] --outDir DIR [options]

For projects without a bundler. Writes every given file to DIR as JavaScript (types stripped, same layout under the
root, relative ./x.ts imports renamed ./x.js); files with @kernel functions are rewritten as the bundler plugin does,
and their native addon (polykern-<hash>.node) is written beside them. Run the output with node; it loads
'polykern/runtime' from your dependencies. Without FILES: 'src/**/*.{ts,mts,js,mjs}'. Quote globs so the shell
does not expand them.

Options:
  --outDir DIR     where the output goes (required)
  --root DIR       project root: output paths mirror the sources' paths from it (default: the current directory)
${PROJECT_HELP}
  --no-native      skip the native build: every kernel runs as generated JS loops
  --strict         a failed native build is an error (exit 1) instead of a warning and the JS loops
  --quiet          print nothing but errors and warnings (the default when CI is 'true' or '1')
  -h, --help       this help

Exit codes: 0 ok; 1 an error in a kernel (printed as file:line:column with a code frame), or a failed native build
with --strict; 2 a usage error (no --outDir, a FILE that matches nothing); 3 a bug in polykern.
`

const DEFAULT_FILES = ['src/**/*.{ts,mts,js,mjs}']

export const buildCommand: Command = {
  name: 'build',
  summary: 'compile the kernels of a project without a bundler: rewritten JS modules and their addons in --outDir',
  help: HELP,
  async run(args: readonly string[], io: CliIo): Promise<number> {
    const { values, positionals } = parseCommand(args, {
      outDir: { type: 'string' },
      'no-native': { type: 'boolean', default: false },
      strict: { type: 'boolean', default: false },
      quiet: { type: 'boolean', default: false },
      ...PROJECT_OPTIONS,
    })
    if (values.outDir === undefined) throw new UsageError('give the output directory: --outDir DIR')
    const outDir = path.resolve(io.cwd, values.outDir)
    // As the plugin's `quiet`, from the command's own environment.
    const quiet = values.quiet || io.env.CI === 'true' || io.env.CI === '1'
    const opts = projectOptions(values, io, { native: !values['no-native'], strict: values.strict, quiet })
    const patterns = positionals.length > 0 ? positionals : DEFAULT_FILES
    const { files, unmatched } = expandFiles(patterns, io.cwd)
    if (unmatched.length > 0) throw new UsageError(`no file matches ${unmatched.map((p) => `'${p}'`).join(', ')}`)
    const inOutput = files.filter((f) => !path.relative(outDir, f).startsWith('..'))
    const sources = files.filter((f) => !inOutput.includes(f))
    const outside = sources.filter((f) => path.relative(opts.root, f).startsWith('..'))
    if (outside.length > 0) {
      throw new UsageError(`${path.relative(io.cwd, outside[0])} is outside the project root ${opts.root}: pass --root`)
    }
    try {
      const result = await buildProject(
        sources, outDir, opts,
        (file) => (quiet || file.kernels === 0 ? undefined : io.stderr.write(`${describe(file)}\n`)),
        quiet ? undefined : (source, message) => io.stderr.write(`  ${source}: ${message}\n`),
      )
      for (const w of result.warnings) io.stderr.write(`warning: ${withFrame(w)}\n`)
      if (!quiet) {
        const kernels = result.files.reduce((n, f) => n + f.kernels, 0)
        const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`
        io.stderr.write(`polykern build: ${count(result.files.length, 'file')} written to ${path.relative(io.cwd, outDir) || '.'}, ` +
          `${count(kernels, 'kernel')}\n`)
      }
      return EXIT.ok
    } catch (e) {
      if (!(e instanceof KernelDiagnostic)) throw e
      io.stderr.write(`${withFrame(e)}\n`)
      return EXIT.userError
    }
  },
}

/** The diagnostic with its file:line:column and code frame, read from the file its span points into. */
function withFrame(d: KernelDiagnostic): string {
  let source: string | undefined
  try {
    source = d.span ? readFileSync(d.span.file, 'utf8') : undefined
  } catch {
    source = undefined
  }
  return formatDiagnostic(d, source)
}

function describe(file: BuiltFile): string {
  const addon = file.addon ? `, addon ${path.basename(file.addon)}${file.addonCached ? ' (cache hit)' : ' (built)'}` : ', JS loops only'
  return `  ${file.source} → ${file.output}: ${file.kernels} kernel${file.kernels === 1 ? '' : 's'}${addon}`
}
