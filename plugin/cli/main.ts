/**
 * `polykern <command>`: one file per command, listed in COMMANDS; exit codes in command.ts. Commands throw
 * UsageError for bad arguments; anything else that escapes is a bug in polykern.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { packageRoot } from '../addon/toolchain.ts'
import { EXIT, UsageError, type CliIo, type Command } from './command.ts'
import { benchCommand } from './bench.ts'
import { buildCommand } from './build.ts'
import { explainCommand } from './explain.ts'
import { verifyCommand } from './verify.ts'

const COMMANDS: readonly Command[] = [explainCommand, verifyCommand, buildCommand, benchCommand]

export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...args] = argv
  if (name === '--version' || name === '-v') {
    io.stdout.write(`${JSON.parse(readFileSync(path.join(packageRoot(), 'package.json'), 'utf8')).version}\n`)
    return EXIT.ok
  }
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    ;(name === undefined ? io.stderr : io.stdout).write(overview())
    return name === undefined ? EXIT.usage : EXIT.ok
  }
  const command = COMMANDS.find((c) => c.name === name)
  if (command === undefined) {
    io.stderr.write(`polykern: unknown command '${name}'\n\n${overview()}`)
    return EXIT.usage
  }
  if (args.includes('--help') || args.includes('-h')) {
    io.stdout.write(command.help)
    return EXIT.ok
  }
  try {
    return await command.run(args, io)
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr.write(`polykern ${name}: ${e.message}\n\n${command.help}`)
      return EXIT.usage
    }
    io.stderr.write(`polykern ${name}: internal error (a bug in polykern; please report it):\n${(e as Error).stack ?? e}\n`)
    return EXIT.internal
  }
}

function overview(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length))
  return [
    'Usage: polykern <command> [options]',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Run `polykern <command> --help` for its options. `polykern --version` prints the version.',
    'Exit codes: 0 ok, 1 an error in your code or build, 2 a usage error, 3 a bug in polykern.',
    '',
  ].join('\n')
}
