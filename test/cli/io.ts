/** Runs the CLI in-process with captured streams, as a script would see it. */
import { main } from '../../plugin/cli/main.ts'
import { ROOT } from '../support/examples.ts'

export interface CliRun {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

export async function runCli(
  argv: readonly string[], opts: { tty?: boolean; env?: Record<string, string>; cwd?: string } = {},
): Promise<CliRun> {
  let stdout = ''
  let stderr = ''
  const code = await main(argv, {
    stdout: { write: (s: string) => (stdout += s), isTTY: opts.tty ?? false },
    stderr: { write: (s: string) => (stderr += s), isTTY: opts.tty ?? false },
    cwd: opts.cwd ?? ROOT,
    env: opts.env ?? {},
  })
  return { code, stdout, stderr }
}
