/**
 * IR expressions as C. f32 stays in `float` (every literal and libm call is the float variant) and every float
 * operation rounds once to its type (binding.gyp's `-ffp-contract=off`: no FMA contraction), i32 arithmetic relies
 * on `-fwrapv`, and the operations C leaves undefined or defines otherwise than JavaScript go through
 * polykern_math.h.
 */
import { KernelInternalError } from '../diagnostics.ts'
import type { BinOp, CallFn, DType, Expr, ValueType } from '../ir/nodes.ts'
import type { Layout } from './layout.ts'
import type { Names } from './names.ts'
import { PREC, atom, code, infix, operand, selectCode, type Code } from './syntax.ts'

export const C_TYPE: Readonly<Record<DType, string>> = { f32: 'float', f64: 'double', i32: 'int32_t' }

const INFIX: Partial<Record<BinOp, readonly [string, number]>> = {
  add: ['+', PREC.additive],
  sub: ['-', PREC.additive],
  mul: ['*', PREC.multiplicative],
  lt: ['<', PREC.relational],
  le: ['<=', PREC.relational],
  gt: ['>', PREC.relational],
  ge: ['>=', PREC.relational],
  eq: ['==', PREC.equality],
  ne: ['!=', PREC.equality],
  and: ['&&', PREC.and],
  or: ['||', PREC.or],
}

/** Functions for what C has no suitable operator for, by operand type (float `/` is IEEE, i32 `/` may trap). */
const FUNCTION: Readonly<Record<DType, Partial<Record<BinOp | CallFn, string>>>> = {
  f32: {
    mod: 'fmodf', max: 'pk_max_f32', min: 'pk_min_f32', pow: 'pk_pow_f32',
    exp: 'expf', log: 'logf', sqrt: 'sqrtf', abs: 'fabsf', tanh: 'tanhf', sigmoid: 'pk_sigmoid_f32',
  },
  f64: {
    mod: 'fmod', max: 'pk_max_f64', min: 'pk_min_f64', pow: 'pk_pow_f64',
    exp: 'exp', log: 'log', sqrt: 'sqrt', abs: 'fabs', tanh: 'tanh', sigmoid: 'pk_sigmoid_f64',
  },
  i32: { div: 'pk_div_i32', mod: 'pk_mod_i32', max: 'pk_max_i32', min: 'pk_min_i32', abs: 'pk_abs_i32' },
}

export function cExpr(e: Expr, names: Names, layout: Layout): Code {
  const expr = (x: Expr): Code => cExpr(x, names, layout)
  switch (e.kind) {
    case 'const':
      return cConst(e.value, e.type)
    case 'load': {
      const element = atom(`${names.of(e.access.tensor)}[${layout.offset(e.access).text}]`)
      const conds = e.zeroOutside ? layout.inBounds(e.access) : []
      if (conds.length === 0) return element
      const test = conds.reduce((a, b) => infix(a, '&&', b, PREC.and))
      return selectCode(test, element, cConst(0, e.type))
    }
    case 'var':
      return code(`(${C_TYPE[e.type]})${names.of(e.name)}`, PREC.unary)
    case 'unary':
      return code(`${e.op === 'neg' ? '-' : '!'}${operand(expr(e.arg), PREC.unary + 1)}`, PREC.unary)
    case 'binary': {
      const [a, b] = [expr(e.a), expr(e.b)]
      const op = INFIX[e.op]
      if (op !== undefined) return infix(a, op[0], b, op[1])
      const type = operandType(e.a.type)
      if (e.op === 'div' && type !== 'i32') return infix(a, '/', b, PREC.multiplicative)
      const fn = FUNCTION[type][e.op]
      if (fn === undefined) throw unsupported(`'${e.op}' on ${e.a.type}`)
      return atom(`${fn}(${a.text}, ${b.text})`)
    }
    case 'call': {
      const fn = FUNCTION[e.type][e.fn]
      if (!fn) throw unsupported(`'${e.fn}' on ${e.type}`)
      return atom(`${fn}(${expr(e.arg).text})`)
    }
    case 'select':
      return selectCode(expr(e.cond), expr(e.a), expr(e.b))
  }
}

function operandType(t: ValueType): DType {
  if (t === 'bool') throw unsupported('arithmetic on bool')
  return t
}

const unsupported = (what: string): KernelInternalError =>
  new KernelInternalError('emit', `the C emitter has no ${what}`)

/** A literal of `type`; float literals read back as exactly the IR's value (f32: the value rounded to float). */
export function cConst(value: number, type: ValueType): Code {
  switch (type) {
    case 'bool':
      return atom(value ? '1' : '0')
    case 'i32':
      if (!Number.isInteger(value) || value < -2147483648 || value > 2147483647) {
        throw new KernelInternalError('emit', `i32 constant ${value} is out of range`)
      }
      return value === -2147483648 ? atom('INT32_MIN') : code(String(value), value < 0 ? PREC.unary : PREC.atom)
    case 'f64':
      return floatLiteral(value, String(value), '')
    case 'f32': {
      const f = Math.fround(value)
      return floatLiteral(f, shortestFloat(f), 'f')
    }
  }
}

function floatLiteral(value: number, digits: string, suffix: string): Code {
  if (Number.isNaN(value)) return atom('NAN')
  if (value === Infinity) return atom('INFINITY')
  if (value === -Infinity) return code('-INFINITY', PREC.unary)
  const text = Object.is(value, -0) ? '-0.0' : /[.e]/.test(digits) ? digits : `${digits}.0`
  return code(text + suffix, value < 0 || Object.is(value, -0) ? PREC.unary : PREC.atom)
}

/**
 * The shortest decimal that a C compiler rounds to the float `f`. A candidate is checked through double, which is
 * only wrong if the candidate's double is exactly halfway between two floats (double rounding): those are skipped.
 */
function shortestFloat(f: number): string {
  for (let digits = 1; digits <= 9; digits++) {
    const d = Number(f.toPrecision(digits))
    if (Math.fround(d) !== f) continue
    const mirror = 2 * d - f // the other float neighbour iff d is a midpoint (exact: d and f are one ulp apart)
    if (d === f || Math.fround(mirror) !== mirror) return String(d)
  }
  return String(f)
}
