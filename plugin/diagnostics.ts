/** A range of the ORIGINAL source file, as UTF-16 offsets (what ts-morph and magic-string use). */
export interface Span {
  readonly file: string
  readonly start: number
  readonly end: number
}

/** Extra context for a diagnostic: a hint, or a second location. */
export interface Note {
  readonly text: string
  readonly span?: Span
}

/** 1-based line, 0-based column (esbuild's and Rollup's convention). */
export interface LineColumn {
  readonly line: number
  readonly column: number
}

/**
 * A problem in the user's code or build: it has a stable snake_case `code` (see messages.ts and the README table)
 * and, where it comes from a spec or a function, the span it points at.
 */
export class KernelDiagnostic extends Error {
  override readonly name = 'KernelDiagnostic'
  constructor(
    readonly code: string,
    message: string,
    readonly span?: Span,
    readonly notes: readonly Note[] = [],
    /** The annotated function the diagnostic belongs to, when known. */
    readonly kernel?: string,
  ) {
    super(message)
  }
}

/** A broken invariant inside polykern: never the user's fault. */
export class KernelInternalError extends Error {
  override readonly name = 'KernelInternalError'
  constructor(
    readonly pass: string,
    message: string,
  ) {
    super(`internal error in pass '${pass}': ${message}. This is a bug in polykern; please report it with the kernel spec.`)
  }
}

/** `message` may be a function, built only on failure: for checks on hot paths (a ranking's every variant). */
export function internalAssert(condition: unknown, pass: string, message: string | (() => string)): asserts condition {
  if (!condition) throw new KernelInternalError(pass, typeof message === 'string' ? message : message())
}

export function lineColumn(source: string, offset: number): LineColumn {
  let line = 1
  let lineStart = 0
  const end = Math.min(offset, source.length)
  for (let i = 0; i < end; i++) {
    if (source.charCodeAt(i) === 10) {
      line++
      lineStart = i + 1
    }
  }
  return { line, column: end - lineStart }
}

/** Two lines of context before the span's line, the line itself, and a `^^^` marker under the span. */
export function codeFrame(source: string, span: Span): string {
  const { line, column } = lineColumn(source, span.start)
  const lines = source.split('\n')
  const first = Math.max(1, line - 2)
  const width = String(line).length
  const out: string[] = []
  for (let n = first; n <= line; n++) {
    out.push(`${n === line ? '>' : ' '} ${String(n).padStart(width)} | ${lines[n - 1] ?? ''}`)
  }
  const lineText = lines[line - 1] ?? ''
  const length = Math.max(1, Math.min(span.end, span.start + lineText.length - column) - span.start)
  out.push(`  ${' '.repeat(width)} | ${' '.repeat(column)}${'^'.repeat(length)}`)
  return out.join('\n')
}

/** `file:line:column: message [code]`, then notes and a code frame: what the CLI and tests print. */
export function formatDiagnostic(d: KernelDiagnostic, source?: string): string {
  const head = d.kernel ? `${d.message} (kernel '${d.kernel}')` : d.message
  if (!d.span) return `${head} [${d.code}]`
  const where = source === undefined ? `${d.span.file}` : `${d.span.file}:${formatLoc(lineColumn(source, d.span.start))}`
  const parts = [`${where}: ${head} [${d.code}]`]
  if (source !== undefined) parts.push(codeFrame(source, d.span))
  for (const note of d.notes) parts.push(`note: ${note.text}`)
  return parts.join('\n')
}

function formatLoc(lc: LineColumn): string {
  return `${lc.line}:${lc.column + 1}`
}

/** The shape unplugin's `this.error` / `this.warn` accept (`UnpluginMessage`). */
export interface PluginMessage {
  message: string
  code: string
  id?: string
  loc?: { file?: string; line: number; column: number }
  frame?: string
  meta?: Record<string, unknown>
}

export function toPluginMessage(d: KernelDiagnostic, source?: string): PluginMessage {
  const kernel = d.kernel ? ` (kernel '${d.kernel}')` : ''
  const notes = d.notes.map((n) => `\n  note: ${n.text}`).join('')
  const message = `[polykern] ${d.message}${kernel} [${d.code}]${notes}`
  if (!d.span || source === undefined) return { message, code: d.code }
  const loc = lineColumn(source, d.span.start)
  return {
    message,
    code: d.code,
    id: d.span.file,
    loc: { file: d.span.file, line: loc.line, column: loc.column },
    frame: codeFrame(source, d.span),
  }
}
