/** Index expressions and `where` sides → Affine, refusing anything that is not affine with integer coefficients. */
import { add, constant, isConstant, scale, sub, variable } from '../ir/affine.ts'
import type { Affine } from '../ir/nodes.ts'
import { specNonAffine } from '../messages.ts'
import type { AstExpr } from './ast.ts'
import type { SpecScope } from './scope.ts'

/** Names that are not tensors are indices or size symbols: both are affine variables. */
export function affineOf(e: AstExpr, scope: SpecScope): Affine {
  const refuse = (reason: string, gather = false): never => {
    throw specNonAffine(e.span, reason, scope.kernel, gather)
  }
  switch (e.kind) {
    case 'num':
      if (e.isFloat) return refuse(`'${e.value}' is not an integer`)
      if (!Number.isSafeInteger(e.value)) return refuse(`'${e.value}' is too large`)
      return constant(e.value)
    case 'name':
      if (scope.tensors.has(e.name)) return refuse(`it reads tensor '${e.name}'`, true)
      return variable(e.name)
    case 'unary':
      if (e.op === '!') return refuse("'!' is a logical operator")
      return scale(affineOf(e.operand, scope), -1)
    case 'binary': {
      if (e.op !== '+' && e.op !== '-' && e.op !== '*') return refuse(`'${e.op}' is not allowed in an index`)
      const a = affineOf(e.left, scope)
      const b = affineOf(e.right, scope)
      if (e.op === '+') return add(a, b)
      if (e.op === '-') return sub(a, b)
      if (!isConstant(a) && !isConstant(b)) return refuse('a product of two variables')
      const product = isConstant(a) ? scale(b, a.constant) : scale(a, b.constant)
      const coeffs = [product.constant, ...product.terms.map((t) => t.coeff)]
      return coeffs.every(Number.isSafeInteger) ? product : refuse('a coefficient is too large')
    }
    case 'access':
      return refuse(`it reads tensor '${e.tensor.name}'`, true)
    case 'call':
      return refuse(`it calls '${e.fn.name}'`)
    case 'select':
      return refuse('it is a conditional')
  }
}
