/**
 * Expression text with its precedence, shared by the C and JS printers (the two agree on every operator polykern
 * prints), so parentheses appear only where the IR tree needs them.
 */
import { add, constant, format, variable } from '../ir/affine.ts'
import type { Affine, Constraint } from '../ir/nodes.ts'

export interface Code {
  readonly text: string
  readonly prec: number
}

/** Binding strength, higher is tighter (C and JS order these operators the same way). */
export const PREC = {
  select: 3,
  or: 4,
  and: 5,
  bitOr: 6,
  equality: 9,
  relational: 10,
  additive: 12,
  multiplicative: 13,
  unary: 14,
  atom: 17,
} as const

export const code = (text: string, prec: number): Code => ({ text, prec })
export const atom = (text: string): Code => ({ text, prec: PREC.atom })

/** `c` as an operand that needs at least precedence `min`. */
export const operand = (c: Code, min: number): string => (c.prec >= min ? c.text : `(${c.text})`)

/**
 * Left-associative infix: the right operand is parenthesised at equal precedence, keeping the IR's grouping, and
 * when it is negative (`a - (-b)`, not `a - -b`).
 */
export const infix = (a: Code, op: string, b: Code, prec: number): Code =>
  code(`${operand(a, prec)} ${op} ${b.text.startsWith('-') ? `(${b.text})` : operand(b, prec + 1)}`, prec)

/** `cond ? a : b`; a conditional in the middle arm is parenthesised for the reader, not the parser. */
export const selectCode = (cond: Code, a: Code, b: Code): Code =>
  code(`${operand(cond, PREC.select + 1)} ? ${operand(a, PREC.select + 1)} : ${operand(b, PREC.select)}`, PREC.select)

/** A signed integer literal. */
export const intLiteral = (n: number): Code => code(String(n), n < 0 ? PREC.unary : PREC.atom)

/** `2*h + r - 1` with target names; both languages print it the same way. */
export function affineCode(a: Affine, of: (name: string) => string): Code {
  const renamed = a.terms.reduce((acc, t) => add(acc, variable(of(t.v), t.coeff)), constant(a.constant))
  const text = format(renamed)
  if (a.terms.length === 0) return intLiteral(a.constant)
  if (a.terms.length > 1 || a.constant !== 0) return code(text, PREC.additive)
  const k = a.terms[0].coeff
  return code(text, k === 1 ? PREC.atom : k === -1 ? PREC.unary : PREC.multiplicative)
}

/** `expr >= 0` printed with positive terms on the left (`2*p + r >= 1`, `N >= i + 1`). */
export function constraintCode(c: Constraint, of: (name: string) => string, equals: string): Code {
  const side = (sign: number): Affine =>
    c.expr.terms
      .filter((t) => Math.sign(t.coeff) === sign)
      .reduce((acc, t) => add(acc, variable(t.v, sign * t.coeff)), constant(Math.max(0, sign * c.expr.constant)))
  const [op, prec] = c.op === '==' ? [equals, PREC.equality] : ['>=', PREC.relational]
  return infix(affineCode(side(1), of), op, affineCode(side(-1), of), prec)
}
