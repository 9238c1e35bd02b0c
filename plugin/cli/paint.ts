/** ANSI colours for explain's text, only when the stream is a TTY and NO_COLOR is unset (https://no-color.org). */
import type { Paint } from '../explain-text.ts'
import type { CliIo, Output } from './command.ts'

const CODES: Readonly<Record<Parameters<Paint>[0], string>> = {
  title: '1;36',
  heading: '1',
  dim: '2',
  good: '32',
  bad: '33',
}

export function paintFor(out: Output, env: CliIo['env']): Paint {
  if (!out.isTTY || env.NO_COLOR) return (_, text) => text
  return (role, text) => `\x1b[${CODES[role]}m${text}\x1b[0m`
}
