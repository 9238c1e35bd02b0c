/**
 * IR expressions as JavaScript. f64 computes in double. f32 computes in float as C does: each f32 operation that
 * rounds (+ - * / sqrt, the transcendental built-ins, an index converted to f32) is `Math.fround` of its double
 * result, which is exactly the float result for + - * / sqrt of float operands (a double holds more than twice a
 * float's bits, so rounding twice is rounding once); the others (neg, abs, max, min, %, comparisons, selects) give
 * a float from floats, exactly. i32 values are tracked as exact integers of at most `bits` bits that equal the i32
 * value modulo 2^32: `|0` is inserted only where the exact value is not enough (comparisons, division, max/min) or
 * could stop being exact (more than 2^52).
 */
import { KernelInternalError } from '../diagnostics.ts'
import type { BinOp, CallFn, Expr, ValueType } from '../ir/nodes.ts'
import type { Layout } from './layout.ts'
import type { Names } from './names.ts'
import { PREC, atom, code, infix, operand, selectCode, type Code } from './syntax.ts'

export interface JsCode extends Code {
  /** |value| ≤ 2^bits. */
  readonly bits: number
  /** The value is already the i32 result (not just congruent to it). */
  readonly wrapped: boolean
}

/**
 * Helpers the emitted function declares when it uses them, as in C's polykern_math.h: i32 division that is total,
 * and sigmoid from exp(-|x|), which cannot overflow (1 / (1 + exp(-x)) is 0 once exp(-x) overflows, where the
 * value is a denormal).
 */
export const JS_HELPERS = {
  pk_div_i32: 'function pk_div_i32(a, b) { return b === 0 ? 0 : (a / b) | 0; }',
  pk_mod_i32: 'function pk_mod_i32(a, b) { return b === 0 ? 0 : (a % b) | 0; }',
  pk_sigmoid: 'function pk_sigmoid(x) { const e = Math.exp(-Math.abs(x)); return (x < 0 ? e : 1) / (1 + e); }',
} as const
export type JsHelper = keyof typeof JS_HELPERS

const value = (c: Code, bits = 31, wrapped = true): JsCode => ({ ...c, bits, wrapped })

/** The f32 value nearest `c` when `type` is f32. */
const rounded = (c: JsCode, type: ValueType): JsCode => (type === 'f32' ? value(atom(`Math.fround(${c.text})`)) : c)

/** `x | 0` unless `x` already is the i32 value. */
export const wrap = (c: JsCode): JsCode => (c.wrapped ? c : value(code(`${operand(c, PREC.unary)} | 0`, PREC.bitOr)))

/** Makes an exact integer small enough that adding another one stays exact. */
const narrow = (c: JsCode, bits: number): JsCode => (c.bits <= bits ? c : wrap(c))

const COMPARE: Partial<Record<BinOp, readonly [string, number]>> = {
  lt: ['<', PREC.relational],
  le: ['<=', PREC.relational],
  gt: ['>', PREC.relational],
  ge: ['>=', PREC.relational],
  eq: ['===', PREC.equality],
  ne: ['!==', PREC.equality],
}

const MATH: Readonly<Record<CallFn, string>> = {
  exp: 'Math.exp',
  log: 'Math.log',
  sqrt: 'Math.sqrt',
  abs: 'Math.abs',
  tanh: 'Math.tanh',
  sigmoid: 'pk_sigmoid',
}

export function jsExpr(e: Expr, names: Names, layout: Layout, helpers: Set<JsHelper>): JsCode {
  const expr = (x: Expr): JsCode => jsExpr(x, names, layout, helpers)
  switch (e.kind) {
    case 'const':
      return jsConst(e.value, e.type)
    case 'load': {
      const element = atom(`${names.of(e.access.tensor)}[${layout.offset(e.access).text}]`)
      const conds = e.zeroOutside ? layout.inBounds(e.access) : []
      if (conds.length === 0) return value(element)
      const test = conds.reduce((a, b) => infix(a, '&&', b, PREC.and))
      return value(selectCode(test, element, atom('0')))
    }
    case 'var':
      // Loop indices and sizes are integers below 2^53; in f32 they round as C's (float) conversion does.
      return rounded(value(atom(names.of(e.name)), 53, e.type !== 'i32'), e.type)
    case 'unary': {
      const arg = expr(e.arg)
      const text = `${e.op === 'neg' ? '-' : '!'}${operand(arg, PREC.unary + 1)}`
      return value(code(text, PREC.unary), arg.bits, e.type !== 'i32')
    }
    case 'binary': {
      if (e.type === 'i32') return i32Binary(e.op, expr(e.a), expr(e.b), helpers)
      const result = binary(e.op, e.a.type, expr(e.a), expr(e.b))
      return ROUNDING_OPS.has(e.op) ? rounded(result, e.type) : result
    }
    case 'call': {
      if (e.type === 'i32') {
        if (e.fn !== 'abs') throw unsupported(`'${e.fn}' on i32`)
        return value(atom(`Math.abs(${wrap(expr(e.arg)).text})`), 31, false) // abs(INT32_MIN) is 2^31 until wrapped
      }
      if (e.fn === 'sigmoid') helpers.add('pk_sigmoid')
      const result = value(atom(`${MATH[e.fn]}(${expr(e.arg).text})`))
      return e.fn === 'abs' ? result : rounded(result, e.type)
    }
    case 'select': {
      const [a, b] = [expr(e.a), expr(e.b)]
      return value(selectCode(expr(e.cond), a, b), Math.max(a.bits, b.bits), a.wrapped && b.wrapped)
    }
  }
}

function i32Binary(op: BinOp, a: JsCode, b: JsCode, helpers: Set<JsHelper>): JsCode {
  switch (op) {
    case 'add':
    case 'sub': {
      const [x, y] = [narrow(a, 51), narrow(b, 51)]
      return value(infix(x, op === 'add' ? '+' : '-', y, PREC.additive), Math.max(x.bits, y.bits) + 1, false)
    }
    case 'mul':
      return value(atom(`Math.imul(${a.text}, ${b.text})`)) // imul wraps its exact integer arguments itself
    case 'div':
    case 'mod': {
      const helper = op === 'div' ? 'pk_div_i32' : 'pk_mod_i32'
      helpers.add(helper)
      return value(atom(`${helper}(${wrap(a).text}, ${wrap(b).text})`))
    }
    case 'max':
    case 'min':
      return value(atom(`Math.${op}(${wrap(a).text}, ${wrap(b).text})`))
    default:
      throw unsupported(`'${op}' on i32`)
  }
}

/** Float arithmetic, comparisons (on wrapped i32 operands) and logic. */
function binary(op: BinOp, operandType: ValueType, a: JsCode, b: JsCode): JsCode {
  const compare = COMPARE[op]
  if (compare !== undefined) {
    const [x, y] = operandType === 'i32' ? [wrap(a), wrap(b)] : [a, b]
    return value(infix(x, compare[0], y, compare[1]))
  }
  switch (op) {
    case 'and':
      return value(infix(a, '&&', b, PREC.and))
    case 'or':
      return value(infix(a, '||', b, PREC.or))
    case 'add':
      return value(infix(a, '+', b, PREC.additive))
    case 'sub':
      return value(infix(a, '-', b, PREC.additive))
    case 'mul':
      return value(infix(a, '*', b, PREC.multiplicative))
    case 'div':
      return value(infix(a, '/', b, PREC.multiplicative))
    case 'mod':
      return value(infix(a, '%', b, PREC.multiplicative))
    case 'max':
    case 'min':
    case 'pow':
      return value(atom(`Math.${op}(${a.text}, ${b.text})`))
    default:
      throw unsupported(`'${op}' on ${operandType}`)
  }
}

/** Float operations whose result may need more bits than their operands have. */
const ROUNDING_OPS: ReadonlySet<BinOp> = new Set(['add', 'sub', 'mul', 'div', 'pow'])

const unsupported = (what: string): KernelInternalError =>
  new KernelInternalError('emit', `the JS emitter has no ${what}`)

export function jsConst(v: number, type: ValueType): JsCode {
  if (type === 'bool') return value(atom(v ? 'true' : 'false'))
  if (type === 'i32' && (!Number.isInteger(v) || v < -2147483648 || v > 2147483647)) {
    throw new KernelInternalError('emit', `i32 constant ${v} is out of range`)
  }
  const f = type === 'f32' ? Math.fround(v) : v
  const text = Object.is(f, -0) ? '-0' : String(f)
  return value(code(text, text.startsWith('-') ? PREC.unary : PREC.atom))
}
