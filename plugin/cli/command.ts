/** What the commands of the `polykern` CLI share: their streams, the exit codes, and how misuse is reported. */

export interface Output {
  write(text: string): unknown
  readonly isTTY?: boolean
}

export interface CliIo {
  readonly stdout: Output
  readonly stderr: Output
  /** Relative paths in arguments resolve against it. */
  readonly cwd: string
  readonly env: Readonly<Record<string, string | undefined>>
}

/**
 * Exit codes scripts can rely on: 0 success; 1 a problem in the user's code or build (the diagnostic is printed with
 * its code frame); 2 a usage error (unknown command, option or kernel, unreadable file); 3 a bug in polykern.
 */
export const EXIT = { ok: 0, userError: 1, usage: 2, internal: 3 } as const

export interface Command {
  readonly name: string
  /** One line, for `polykern --help`. */
  readonly summary: string
  /** The command's `--help` text. */
  readonly help: string
  run(args: readonly string[], io: CliIo): Promise<number>
}

/** Bad arguments: the CLI prints the message and the command's help, and exits 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError'
}
