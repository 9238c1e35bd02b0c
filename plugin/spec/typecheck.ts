/** A statement's right-hand side → typed IR Expr: one numeric type (the output's dtype), 'bool' for conditions. */
import { internalAssert } from '../diagnostics.ts'
import type { Span } from '../diagnostics.ts'
import type { Access, BinOp, CallFn, DType, Expr } from '../ir/nodes.ts'
import {
  specArity,
  specBadLiteral,
  specDtypeMismatch,
  specTypeError,
  specUnknownFunction,
  specUnknownName,
} from '../messages.ts'
import { BUILTINS } from './ast.ts'
import type { AstExpr, BinaryOp, Builtin } from './ast.ts'
import { nearMiss } from '../near-miss.ts'
import type { SpecScope } from './scope.ts'

export interface ValueContext {
  readonly scope: SpecScope
  /** The output tensor and its element type, which every value of the statement has. */
  readonly target: string
  readonly dtype: DType
  readonly indices: ReadonlySet<string>
  /** Every tensor read of the value (accesses and bare rank-0 names), already resolved to affine accesses. */
  readonly accesses: ReadonlyMap<AstExpr, Access>
}

const BIN_OPS: Readonly<Record<BinaryOp, BinOp>> = {
  '+': 'add', '-': 'sub', '*': 'mul', '/': 'div', '%': 'mod',
  '<': 'lt', '<=': 'le', '>': 'gt', '>=': 'ge', '==': 'eq', '!=': 'ne',
  '&&': 'and', '||': 'or',
}
const ARITHMETIC: readonly BinaryOp[] = ['+', '-', '*', '/', '%']
const LOGICAL: readonly BinaryOp[] = ['&&', '||']
const FLOAT_ONLY: readonly Builtin[] = ['exp', 'log', 'sqrt', 'tanh', 'sigmoid', 'pow']
const INT32_MIN = -(2 ** 31)
const INT32_MAX = 2 ** 31 - 1

export function typeValue(value: AstExpr, ctx: ValueContext): Expr {
  const kernel = ctx.scope.kernel

  function numeric(e: AstExpr, role: string): Expr {
    const x = typed(e)
    if (x.type === 'bool') {
      throw specTypeError(e.span, `${role} must be a number, but this is a condition (bool)`, kernel)
    }
    return x
  }

  function condition(e: AstExpr, role: string): Expr {
    const x = typed(e)
    if (x.type !== 'bool') {
      throw specTypeError(e.span, `${role} must be a condition (a comparison, &&, ||, !), but this is a number`, kernel)
    }
    return x
  }

  /** `span` covers the minus sign of a negated literal too. */
  function literal(e: Extract<AstExpr, { kind: 'num' }>, negated: boolean, span: Span): Expr {
    const text = (negated ? '-' : '') + (e.isFloat ? String(e.value) : e.value.toFixed(0))
    const value = negated ? -e.value : e.value
    const refuse = (reason: string): never => {
      throw specBadLiteral(span, text, reason, kernel)
    }
    if (ctx.dtype === 'i32') {
      if (e.isFloat) refuse(`'${ctx.target}' holds i32: the statement has no fractions`)
      if (value < INT32_MIN || value > INT32_MAX) refuse('it does not fit in i32')
    } else if (!Number.isFinite(ctx.dtype === 'f32' ? Math.fround(value) : value)) {
      refuse(`it does not fit in ${ctx.dtype}`)
    }
    return { kind: 'const', value, type: ctx.dtype }
  }

  function load(e: AstExpr, tensor: string): Expr {
    const access = ctx.accesses.get(e)
    const declared = ctx.scope.tensors.get(tensor)
    internalAssert(access && declared, 'check', `tensor read '${tensor}' was not resolved before typing`)
    if (declared.dtype !== ctx.dtype) {
      throw specDtypeMismatch(e.span, tensor, declared.dtype, ctx.target, ctx.dtype, kernel)
    }
    return { kind: 'load', access, type: declared.dtype, zeroOutside: false }
  }

  function typed(e: AstExpr): Expr {
    switch (e.kind) {
      case 'num':
        return literal(e, false, e.span)
      case 'name':
        if (ctx.scope.tensors.has(e.name)) return load(e, e.name)
        if (ctx.scope.sizes.has(e.name) || ctx.indices.has(e.name)) {
          return { kind: 'var', name: e.name, type: ctx.dtype }
        }
        throw specUnknownName(e.span, e.name, kernel, nearMiss(e.name, [...ctx.indices, ...ctx.scope.sizes, ...ctx.scope.tensors.keys()]))
      case 'access':
        return load(e, e.tensor.name)
      case 'unary':
        if (e.op === '!') {
          return { kind: 'unary', op: 'not', arg: condition(e.operand, "The operand of '!'"), type: 'bool' }
        }
        // `-2147483648` is one literal, not the negation of a number that does not fit in i32.
        if (e.operand.kind === 'num') return literal(e.operand, true, e.span)
        return { kind: 'unary', op: 'neg', arg: numeric(e.operand, "The operand of '-'"), type: ctx.dtype }
      case 'binary': {
        const op = BIN_OPS[e.op]
        if (LOGICAL.includes(e.op)) {
          const a = condition(e.left, `The left side of '${e.op}'`)
          return { kind: 'binary', op, a, b: condition(e.right, `The right side of '${e.op}'`), type: 'bool' }
        }
        const a = numeric(e.left, `The left side of '${e.op}'`)
        const b = numeric(e.right, `The right side of '${e.op}'`)
        return { kind: 'binary', op, a, b, type: ARITHMETIC.includes(e.op) ? ctx.dtype : 'bool' }
      }
      case 'select': {
        const cond = condition(e.cond, "The condition of '?'")
        const a = numeric(e.then, "The first arm of '?:'")
        return { kind: 'select', cond, a, b: numeric(e.otherwise, "The second arm of '?:'"), type: ctx.dtype }
      }
      case 'call':
        return call(e)
    }
  }

  function call(e: Extract<AstExpr, { kind: 'call' }>): Expr {
    const fn = e.fn.name
    if (!Object.hasOwn(BUILTINS, fn)) throw specUnknownFunction(e.fn.span, fn, kernel, nearMiss(fn, Object.keys(BUILTINS)))
    const builtin = fn as Builtin
    if (e.args.length !== BUILTINS[builtin]) throw specArity(e.span, fn, BUILTINS[builtin], e.args.length, kernel)
    if (ctx.dtype === 'i32' && FLOAT_ONLY.includes(builtin)) {
      throw specTypeError(e.fn.span, `'${fn}' needs f32 or f64, but this statement computes in i32 ('${ctx.target}')`,
        kernel)
    }
    const args = e.args.map((arg, n) => numeric(arg, `Argument ${n + 1} of '${fn}'`))
    if (builtin === 'max' || builtin === 'min' || builtin === 'pow') {
      return { kind: 'binary', op: builtin, a: args[0], b: args[1], type: ctx.dtype }
    }
    return { kind: 'call', fn: builtin as CallFn, arg: args[0], type: ctx.dtype }
  }

  const result = typed(value)
  if (result.type === 'bool') {
    throw specTypeError(value.span,
      `The value stored in '${ctx.target}' is a condition (bool), not a number: write \`cond ? 1 : 0\``, kernel)
  }
  return result
}
