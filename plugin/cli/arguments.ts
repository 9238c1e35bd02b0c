/** What the commands' arguments share: option parsing, the `FILE[:KERNEL]` target, numbers, and their usage errors. */
import { readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { parseArgs, type ParseArgsConfig } from 'node:util'
import { resolveOptions, type ResolvedOptions } from '../options.ts'
import { UsageError, type CliIo } from './command.ts'

type Options = NonNullable<ParseArgsConfig['options']>
type ParsedCommand<O extends Options> = ReturnType<typeof parseArgs<{ args: string[]; allowPositionals: true; strict: true; options: O }>>

/** The options every command on a project takes, and their help lines but --root's (each command says what it is to it). */
export const PROJECT_OPTIONS = {
  root: { type: 'string' }, 'cache-dir': { type: 'string' }, tune: { type: 'boolean', default: false },
} as const satisfies Options
export const PROJECT_HELP = `  --cache-dir DIR  addon cache, as the plugin's \`cacheDir\` (default: <root>/node_modules/.cache/polykern)
  --tune           time the ranking's best schedules on this machine and keep the fastest, as the plugin's \`tune: true\``

/** node:util's parseArgs, strict, with positionals; a bad option is a UsageError. */
export function parseCommand<O extends Options>(args: readonly string[], options: O): ParsedCommand<O> {
  try {
    return parseArgs({ args: [...args], allowPositionals: true, strict: true, options })
  } catch (e) {
    throw new UsageError((e as Error).message)
  }
}

/** The single `FILE[:KERNEL]` positional, its file read. */
export function fileTarget(positionals: readonly string[], cwd: string): { file: string; kernel?: string; code: string } {
  if (positionals.length !== 1) {
    const n = positionals.length
    throw new UsageError(n === 0 ? 'give a FILE or FILE:KERNEL' : `one FILE[:KERNEL] at a time, got ${n}`)
  }
  const { file, kernel } = targetOf(positionals[0], cwd)
  return { file, kernel, code: readSource(file, positionals[0]) }
}

/** The plugin's options from --root, --cache-dir (relative to the current directory) and --tune. */
export function projectOptions(
  values: { readonly root?: string; readonly 'cache-dir'?: string; readonly tune?: boolean }, io: CliIo,
  extra: Parameters<typeof resolveOptions>[0] = {},
): ResolvedOptions {
  const root = path.resolve(io.cwd, values.root ?? '.')
  const cacheDir = values['cache-dir'] === undefined ? undefined : path.resolve(io.cwd, values['cache-dir'])
  return resolveOptions({ root, cacheDir, tune: values.tune, ...extra })
}

/** A file with no kernel at all, or none named `kernel`. */
export function noKernel(file: string, available: readonly string[], kernel: string | undefined): UsageError {
  return new UsageError(
    available.length === 0 ? `${file} has no @kernel function` : `${file} has no kernel '${kernel}'; its kernels: ${available.join(', ')}`,
  )
}

export function integerOption(text: string, option: string, least: number): number {
  const n = Number(text)
  if (!Number.isSafeInteger(n) || n < least) throw new UsageError(`${option} takes an integer >= ${least}, got '${text}'`)
  return n
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
