/** Spec text → tokens with absolute spans; newlines that cannot end an item never reach the parser. */
import type { Span } from '../diagnostics.ts'
import { DIRECTIVES, specBadLiteral, specSyntax } from '../messages.ts'
import type { AssignOp } from './ast.ts'

export type Punct =
  | '(' | ')' | '[' | ']' | ',' | ':' | '?' | '!'
  | '+' | '-' | '*' | '/' | '%'
  | '<' | '<=' | '>' | '>=' | '==' | '!=' | '&&' | '||'

export type Token =
  | { readonly kind: 'ident'; readonly text: string; readonly span: Span }
  | {
      readonly kind: 'number'
      readonly text: string
      readonly value: number
      readonly isFloat: boolean
      readonly span: Span
    }
  | { readonly kind: 'punct'; readonly text: Punct; readonly span: Span }
  /** `+=!` and `max=` are single tokens: `init` is the trailing `!`. */
  | {
      readonly kind: 'assign'
      readonly text: string
      readonly op: AssignOp
      readonly init: boolean
      readonly span: Span
    }
  /** Ends an item: `;`, or a newline that survived `joinLines`. */
  | { readonly kind: 'sep'; readonly text: string; readonly span: Span }
  | { readonly kind: 'eof'; readonly text: ''; readonly span: Span }

// Longest first, so `<=` wins over `<`.
const PUNCTS: readonly Punct[] = [
  '<=', '>=', '==', '!=', '&&', '||',
  '(', ')', '[', ']', ',', ':', '?', '!', '+', '-', '*', '/', '%', '<', '>',
]
const ASSIGNS: readonly AssignOp[] = ['+=', '*=', '=']
const NOT_ASSIGNS = ['-=', '/=', '%=']

const isDigit = (c: string) => c >= '0' && c <= '9'
const isIdentStart = (c: string) => (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_'
const isIdentPart = (c: string) => isIdentStart(c) || isDigit(c)

export function lexSpec(text: string, start: number, file: string): Token[] {
  const span = (from: number, to: number): Span => ({ file, start: start + from, end: start + to })
  const tokens: Token[] = []
  let i = 0
  while (i < text.length) {
    const c = text[i]
    if (c === '\n' || c === ';') {
      tokens.push({ kind: 'sep', text: c, span: span(i, i + 1) })
      i++
    } else if (c === ' ' || c === '\t' || c === '\r') {
      i++
    } else if (text.startsWith('//', i) || isDirectiveLine(text, i)) {
      while (i < text.length && text[i] !== '\n') i++
    } else if (isDigit(c)) {
      const token = lexNumber(text, i, span)
      tokens.push(token)
      i += token.text.length
    } else if (isIdentStart(c)) {
      let j = i + 1
      while (j < text.length && isIdentPart(text[j])) j++
      const word = text.slice(i, j)
      // `max=` / `min=` are reduction operators, but `max == x` is a comparison.
      if ((word === 'max' || word === 'min') && text[j] === '=' && text[j + 1] !== '=') {
        const init = text[j + 1] === '!'
        const end = j + 1 + (init ? 1 : 0)
        tokens.push({ kind: 'assign', text: text.slice(i, end), op: `${word}=`, init, span: span(i, end) })
        i = end
      } else {
        tokens.push({ kind: 'ident', text: word, span: span(i, j) })
        i = j
      }
    } else {
      i = lexOperator(text, i, span, tokens)
    }
  }
  tokens.push({ kind: 'eof', text: '', span: span(text.length, text.length) })
  return joinLines(tokens)
}

function lexNumber(text: string, i: number, span: (from: number, to: number) => Span): Token {
  let j = i
  while (isDigit(text[j] ?? '')) j++
  let isFloat = false
  if (text[j] === '.') {
    isFloat = true
    j++
    while (isDigit(text[j] ?? '')) j++
  }
  const exponent = /^[eE][+-]?[0-9]+/.exec(text.slice(j))
  if (exponent) {
    isFloat = true
    j += exponent[0].length
  }
  const written = text.slice(i, j)
  if (isIdentPart(text[j] ?? '') || text[j] === '.') {
    let k = j
    while (isIdentPart(text[k] ?? '') || text[k] === '.') k++
    throw specBadLiteral(span(i, k), text.slice(i, k), 'a number must not run into letters or another `.`')
  }
  return { kind: 'number', text: written, value: Number(written), isFloat, span: span(i, j) }
}

function lexOperator(text: string, i: number, span: (from: number, to: number) => Span, tokens: Token[]): number {
  const bad = NOT_ASSIGNS.find((op) => text.startsWith(op, i))
  if (bad) {
    throw specSyntax(span(i, i + 2), `'${bad}' is not an assignment operator`,
      [{ text: 'assignments are `=`, `+=`, `*=`, `max=`, `min=`; write e.g. `y[i] = y[i] - x[i]`' }])
  }
  const assign = text.startsWith('==', i) ? undefined : ASSIGNS.find((op) => text.startsWith(op, i))
  if (assign) {
    const init = text[i + assign.length] === '!' && text[i + assign.length + 1] !== '='
    const end = i + assign.length + (init ? 1 : 0)
    tokens.push({ kind: 'assign', text: text.slice(i, end), op: assign, init, span: span(i, end) })
    return end
  }
  const punct = PUNCTS.find((p) => text.startsWith(p, i))
  if (punct) {
    tokens.push({ kind: 'punct', text: punct, span: span(i, i + punct.length) })
    return i + punct.length
  }
  const c = text[i]
  const hint =
    c === '&' || c === '|' ? [{ text: `write '${c}${c}'` }]
    : c === '.' ? [{ text: 'numbers start with a digit: write 0.5, not .5' }]
    : c === '@' ? [{ text: `the directives are ${DIRECTIVES.map((d) => `\`${d}\``).join(' and ')}, each alone at the start of a line after the one of @kernel` }]
    : []
  throw specSyntax(span(i, i + 1), `Unexpected character '${c}'`, hint)
}

/**
 * A directive line such as `@allow-loops` (find/annotations.ts reads it for the kernel; here it is a comment): the
 * directive first on a line after the first, as a word of its own.
 */
function isDirectiveLine(text: string, i: number): boolean {
  const directive = DIRECTIVES.find((d) => text.startsWith(d, i) && !/[\w-]/.test(text[i + d.length] ?? ''))
  if (directive === undefined) return false
  const lineStart = text.lastIndexOf('\n', i - 1)
  return lineStart >= 0 && text.slice(lineStart + 1, i).trim() === ''
}

/** Tokens after which a line is incomplete: binary and prefix operators, `?`, `:`, `,` and assignments. */
function continuesLine(t: Token): boolean {
  return t.kind === 'assign' || (t.kind === 'punct' && !['(', ')', '[', ']'].includes(t.text))
}

/** Drops newlines inside brackets, after an operator, and before a line starting with `where`. */
function joinLines(tokens: readonly Token[]): Token[] {
  const out: Token[] = []
  let depth = 0
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k]
    if (t.kind === 'punct' && (t.text === '(' || t.text === '[')) depth++
    if (t.kind === 'punct' && (t.text === ')' || t.text === ']')) depth = Math.max(0, depth - 1)
    if (t.kind === 'sep' && t.text === '\n') {
      const prev = out[out.length - 1]
      const next = tokens.slice(k + 1).find((n) => n.kind !== 'sep' || n.text !== '\n')
      const beforeWhere = next?.kind === 'ident' && next.text === 'where'
      if (depth > 0 || (prev !== undefined && continuesLine(prev)) || beforeWhere) continue
    }
    out.push(t)
  }
  return out
}
