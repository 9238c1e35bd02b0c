/**
 * KernelSpec → block-form IR: one `Fill` per `!` initialisation and one parallel polyhedral `Block` per statement.
 * This is where the out-of-range rule is decided: a reduction skips the points where any read falls outside its
 * tensor (the read contributes the identity, which is how padding is written), and `=` reads 0 there.
 */
import { implied, inRangeConstraints, type Ranges } from '../analysis/bounds.ts'
import type { CheckedStatement, KernelSpec } from './checked.ts'
import { internalAssert } from '../diagnostics.ts'
import { equal, variable } from '../ir/affine.ts'
import type { AssignOp, Block, Constraint, DType, Expr, Kernel, Stmt, Tensor } from '../ir/nodes.ts'
import { loadsOf, mapExpr } from '../ir/walk.ts'

const I32_MIN = -2147483648
const I32_MAX = 2147483647

/** The value a reduction starts from, which also makes an excluded point contribute nothing. */
export function identityOf(op: AssignOp, dtype: DType): Expr {
  const value =
    op === '*=' ? 1
    : op === 'max=' ? (dtype === 'i32' ? I32_MIN : -Infinity)
    : op === 'min=' ? (dtype === 'i32' ? I32_MAX : Infinity)
    : 0
  return { kind: 'const', value, type: dtype }
}

export function buildKernel(spec: KernelSpec): Kernel {
  const tensors = new Map(spec.tensors.map((t) => [t.name, t]))
  const body: Stmt[] = []
  spec.statements.forEach((s, n) => {
    if (s.init) body.push({ kind: 'fill', tensor: s.target.tensor, value: identityOf(s.op, s.dtype) })
    body.push(buildBlock(s, `s${n}`, tensors))
  })
  return { name: spec.name, params: spec.params, tensors: spec.tensors, sizes: spec.sizes, body, span: spec.span }
}

function buildBlock(s: CheckedStatement, id: string, tensors: ReadonlyMap<string, Tensor>): Block {
  const ranges: Ranges = new Map(s.indices.map((ix) => [ix.name, ix.extent]))
  const where: Constraint[] = s.where.map((w) => ({ expr: w.expr, op: w.op }))
  const guards: Constraint[] = []
  const outOfRange = (c: Constraint) => !implied(c, ranges)

  let value = s.value
  if (s.op === '=') {
    value = mapExpr(value, (e) => {
      if (e.kind !== 'load') return e
      const zeroOutside = e.access.index.some((ix, d) =>
        inRangeConstraints(ix, shapeOf(tensors, e.access.tensor)[d]).some(outOfRange),
      )
      return zeroOutside ? { ...e, zeroOutside } : e
    })
  } else {
    for (const load of loadsOf(value)) {
      load.access.index.forEach((ix, d) => {
        for (const c of inRangeConstraints(ix, shapeOf(tensors, load.access.tensor)[d])) {
          if (outOfRange(c) && !guards.some((g) => sameConstraint(g, c))) guards.push(c)
        }
      })
    }
  }

  return {
    kind: 'block',
    id,
    indices: s.indices.map((ix) => ({ name: ix.name, extent: ix.extent })),
    constraints: [...where.filter(outOfRange), ...guards],
    body: [
      {
        kind: 'store',
        access: { tensor: s.target.tensor, index: s.target.indices.map((v) => variable(v)) },
        op: s.op,
        value,
        span: s.span,
      },
    ],
    tags: s.reduced.length > 0 ? ['reduction'] : [],
    span: s.span,
  }
}

function shapeOf(tensors: ReadonlyMap<string, Tensor>, name: string) {
  const t = tensors.get(name)
  internalAssert(t, 'build', `tensor '${name}' was not declared; the checker should have rejected it`)
  return t.shape
}

const sameConstraint = (a: Constraint, b: Constraint) => a.op === b.op && equal(a.expr, b.expr)
