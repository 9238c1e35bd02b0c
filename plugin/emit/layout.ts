/**
 * Row-major addressing, identical in C and JS: `T[e0, e1, e2]` is element `e0*s0 + e1*s1 + e2` where `sk` is the
 * product of the dimensions after k. Strides that are products of sizes are hoisted into named constants computed
 * once per call; single-size strides are used directly (`A[i*K + k]`).
 */
import { coeffOf, isConstant } from '../ir/affine.ts'
import { KernelInternalError } from '../diagnostics.ts'
import type { Access, Affine, Expr, Kernel, Stmt, Tensor } from '../ir/nodes.ts'
import type { Names } from './names.ts'
import { PREC, affineCode, atom, code, infix, intLiteral, operand, type Code } from './syntax.ts'

export interface Layout {
  readonly tensor: (name: string) => Tensor
  /** Element offset of an access, e.g. `i*K + k`. */
  readonly offset: (access: Access) => Code
  /** The conditions under which every index of `access` is within its dimension (for `zeroOutside` loads). */
  readonly inBounds: (access: Access) => readonly Code[]
  /** Elements between neighbours along dimension `dim` of a loaded or stored tensor: `K` in `A[i*K + k]`. */
  readonly stride: (tensor: string, dim: number) => Code
  /** Elements between neighbours along index `v` in `access` (each dimension's coefficient of `v` times its stride); undefined where `v` is not in it. */
  readonly strideAlong: (access: Access, v: string) => Code | undefined
  /** Number of elements of a tensor: the product of its dimensions. */
  readonly count: (tensor: string) => Code
  /** Stride constants to declare at the top of the function, in order. */
  readonly hoisted: readonly { readonly name: string; readonly value: Code }[]
}

export function tensorLayout(kernel: Kernel, names: Names): Layout {
  const byName = new Map(kernel.tensors.map((t) => [t.name, t]))
  const tensor = (name: string): Tensor => {
    const t = byName.get(name)
    if (t === undefined) throw new KernelInternalError('emit', `unknown tensor '${name}'`)
    return t
  }
  const dim = (d: Affine): Code => affineCode(d, names.of)

  const hoisted: { name: string; value: Code }[] = []
  const strides = new Map<string, readonly Code[]>()
  for (const name of accessedTensors(kernel.body)) {
    const shape = tensor(name).shape
    strides.set(
      name,
      shape.map((_, k) => {
        const value = product(shape.slice(k + 1), dim)
        if (value.prec !== PREC.multiplicative) return value
        const hoistedName = names.fresh(`s${names.of(name)}${k}`)
        hoisted.push({ name: hoistedName, value })
        return atom(hoistedName)
      }),
    )
  }

  const offset = (access: Access): Code => {
    const s = strides.get(access.tensor)
    if (s === undefined || s.length !== access.index.length) {
      throw new KernelInternalError('emit', `access to '${access.tensor}' has the wrong number of indices`)
    }
    const terms = access.index.flatMap((e, k): Code[] => {
      if (isConstant(e) && e.constant === 0) return []
      if (s[k].text === '1') return [dim(e)]
      return [code(`${operand(dim(e), PREC.multiplicative)}*${operand(s[k], PREC.unary)}`, PREC.multiplicative)]
    })
    // int64 / exact-integer addition is associative, so the terms need no parentheses of their own.
    if (terms.length === 0) return atom('0')
    return terms.length === 1 ? terms[0] : code(terms.map((t) => t.text).join(' + '), PREC.additive)
  }

  const inBounds = (access: Access): Code[] =>
    access.index.flatMap((e, k) => {
      const d = tensor(access.tensor).shape[k]
      if (isConstant(e) && isConstant(d) && e.constant >= 0 && e.constant < d.constant) return []
      return [infix(dim(e), '>=', atom('0'), PREC.relational), infix(dim(e), '<', dim(d), PREC.relational)]
    })

  const count = (name: string): Code => product(tensor(name).shape, dim)

  const stride = (name: string, d: number): Code => {
    const s = strides.get(name)?.[d]
    if (s === undefined) throw new KernelInternalError('emit', `'${name}' has no dimension ${d} in a load or store`)
    return s
  }

  const strideAlong = (access: Access, v: string): Code | undefined => {
    const terms = access.index.flatMap((e, d) => {
      const k = coeffOf(e, v)
      if (k === 0) return []
      return [k === 1 ? stride(access.tensor, d) : code(`${k}*${operand(stride(access.tensor, d), PREC.unary)}`, PREC.multiplicative)]
    })
    if (terms.length <= 1) return terms[0]
    return code(terms.map((t) => operand(t, PREC.additive)).join(' + '), PREC.additive)
  }

  return { tensor, offset, inBounds, stride, strideAlong, count, hoisted }
}

/** `H*W*C`, with literal dimensions folded into one leading factor (`9*C`); the empty product is 1. */
function product(dims: readonly Affine[], dim: (d: Affine) => Code): Code {
  const literal = dims.filter(isConstant).reduce((acc, d) => acc * d.constant, 1)
  const symbolic = dims.filter((d) => !isConstant(d)).map(dim)
  if (symbolic.length === 0 || literal === 0) return intLiteral(literal)
  if (symbolic.length === 1 && literal === 1) return symbolic[0]
  const factors = [...(literal === 1 ? [] : [String(literal)]), ...symbolic.map((f) => operand(f, PREC.unary))]
  return code(factors.join('*'), PREC.multiplicative)
}

/** Tensors indexed by a load or store (filled tensors are addressed linearly and need no strides). */
function accessedTensors(body: readonly Stmt[]): Set<string> {
  const found = new Set<string>()
  const visitExpr = (e: Expr): void => {
    switch (e.kind) {
      case 'load':
        found.add(e.access.tensor)
        return
      case 'unary':
      case 'call':
        return visitExpr(e.arg)
      case 'binary':
        visitExpr(e.a)
        return visitExpr(e.b)
      case 'select':
        visitExpr(e.cond)
        visitExpr(e.a)
        return visitExpr(e.b)
      default:
        return
    }
  }
  const visit = (stmts: readonly Stmt[]): void => {
    for (const s of stmts) {
      if (s.kind === 'store') {
        found.add(s.access.tensor)
        visitExpr(s.value)
      } else if (s.kind === 'fill') visitExpr(s.value)
      else visit(s.body)
    }
  }
  visit(body)
  return found
}
