/** Text form of the IR, in the spec's own notation: for debug logs, `explain`, and pass tests. */
import { format } from './affine.ts'
import type { Access, BinOp, Bound, Constraint, Expr, Kernel, OperandScale, Stmt } from './nodes.ts'

const BIN: Record<BinOp, string> = {
  add: '+', sub: '-', mul: '*', div: '/', mod: '%',
  lt: '<', le: '<=', gt: '>', ge: '>=', eq: '==', ne: '!=', and: '&&', or: '||',
  max: 'max', min: 'min', pow: 'pow',
}

/** A role's indices as the one GEMM dimension they form: `i`, or `a·b` (their row-major product). */
export const printRole = (ixs: readonly { readonly name: string }[]): string => ixs.map((ix) => ix.name).join('·')

export function printKernel(k: Kernel): string {
  const params = k.params.map((p) => {
    if (p.kind === 'size') return p.name
    const t = k.tensors.find((x) => x.name === p.name)!
    return `${t.name}: ${t.dtype}[${t.shape.map(format).join(', ')}]`
  })
  const temps = k.tensors.filter((t) => t.role === 'temp').map((t) => `  let ${t.name}: ${t.dtype}[${t.shape.map(format).join(', ')}]\n`)
  return `kernel ${k.name}(${params.join(', ')}) {\n${temps.join('')}${printStmts(k.body, '  ')}}\n`
}

export function printStmts(stmts: readonly Stmt[], indent = ''): string {
  return stmts.map((s) => printStmt(s, indent)).join('')
}

function printStmt(s: Stmt, ind: string): string {
  switch (s.kind) {
    case 'fill':
      return `${ind}${s.tensor}[*] = ${printExpr(s.value)}\n`
    case 'store':
      return `${ind}${s.access.tensor}[${s.access.index.map(format).join(', ')}] ${s.op} ${printExpr(s.value)}\n`
    case 'if':
      return `${ind}if ${s.conds.map(printConstraint).join(' && ')} {\n${printStmts(s.body, ind + '  ')}${ind}}\n`
    case 'loop':
      return `${ind}for ${s.v} in [${printBound(s.lo)}, ${printBound(s.hi)})${s.mode === 'serial' ? '' : ` ${s.mode}`} {\n${printStmts(s.body, ind + '  ')}${ind}}\n`
    case 'block': {
      const domain = s.indices.map((ix) => `${ix.name} < ${format(ix.extent)}`).join(', ')
      const where = s.constraints.length ? ` where ${s.constraints.map(printConstraint).join(', ')}` : ''
      const tags = s.tags.length ? ` #${s.tags.join(' #')}` : ''
      return `${ind}block ${s.id} [${domain}]${where}${tags} {\n${printStmts(s.body, ind + '  ')}${ind}}\n`
    }
    case 'contraction': {
      const r = s.roles
      const roles = [
        `m: ${printRole(r.m)}`, `n: ${printRole(r.n)}`, `k: ${printRole(r.k)}`, ...r.batch.map((b) => `batch: ${b.name}`),
        ...(r.alpha !== undefined ? [`A × ${printExpr(r.alpha)} while packed`] : []),
        ...(r.scaleA !== undefined ? [`A ${printScale(r.scaleA)} while packed`] : []),
        ...(r.scaleB !== undefined ? [`B ${printScale(r.scaleB)} while packed`] : []),
        ...(r.domain !== undefined ? [`C where ${r.domain.map(printConstraint).join(', ')}`] : []),
      ]
      const schedules = s.schedules.map((x) => {
        const blocks = `mc=${x.mc} nc=${x.nc} kc=${x.kc} order=${x.order.join('')} parallel=${x.parallel}`
        return `${ind}  # ${x.isa} ${x.microkernel} ${blocks}\n`
      })
      const epilogue = s.epilogue ? `${ind}  # epilogue: the last ${s.epilogue} on each register tile of the last k block\n` : ''
      const sliced = s.sliced
        ? `${ind}  # sliced (calls of at most ${s.sliced.maxRowTiles} row tiles): batch ${printRole(s.sliced.roles.batch)}, n ${printRole(s.sliced.roles.n)}\n`
        : ''
      const body = printStmts(s.body, ind + '  ')
      return `${ind}contraction ${s.id} [${roles.join(', ')}] {\n${schedules.join('')}${sliced}${epilogue}${body}${ind}}\n`
    }
    case 'convolution': {
      const r = s.roles
      const axes = r.spatial.map((a) => `${a.out.name}*${a.stride} + ${a.tap.name}*${a.dilation} + ${format(a.offset)}`)
      const roles = [...r.batch.map((b) => `batch: ${b.name}`), ...axes, `k: ${r.outChannels.name}`, `c: ${r.inChannels.name}`]
      const plans = s.plans.map((p) =>
        `${ind}  # ${p.isa} ${p.microkernel} ${p.lowering} mc=${p.mc} nc=${p.nc} kc=${p.kc} ${p.stationary}-stationary\n`)
      const epilogue = s.epilogue ? `${ind}  # epilogue: the last ${s.epilogue} on each finished output block\n` : ''
      return `${ind}convolution ${s.id} [${roles.join(', ')}] {\n${plans.join('')}${epilogue}${printStmts(s.body, ind + '  ')}${ind}}\n`
    }
  }
}

export const printConstraint = (c: Constraint): string => `${format(c.expr)} ${c.op} 0`

export const printAccess = (a: Access): string => `${a.tensor}[${a.index.map(format).join(', ')}]`

/** An operand's tensor factor as applied: `× d[k]` or `÷ z[i]`. */
export const printScale = (s: OperandScale): string => `${s.divides ? '÷' : '×'} ${printAccess(s.by)}`

export function printBound(b: Bound): string {
  switch (b.kind) {
    case 'affine':
      return format(b.a)
    case 'max':
    case 'min':
      return `${b.kind}(${b.args.map(printBound).join(', ')})`
    case 'ceildiv':
    case 'floordiv':
      return `${b.kind}(${printBound(b.arg)}, ${b.by})`
  }
}

export function printExpr(e: Expr): string {
  switch (e.kind) {
    case 'const':
      return String(e.value)
    case 'var':
      return e.name
    case 'load':
      return `${printAccess(e.access)}${e.zeroOutside ? '?' : ''}`
    case 'unary':
      return e.op === 'neg' ? `-${printExpr(e.arg)}` : `!${printExpr(e.arg)}`
    case 'call':
      return `${e.fn}(${printExpr(e.arg)})`
    case 'select':
      return `(${printExpr(e.cond)} ? ${printExpr(e.a)} : ${printExpr(e.b)})`
    case 'binary':
      return e.op === 'max' || e.op === 'min' || e.op === 'pow'
        ? `${e.op}(${printExpr(e.a)}, ${printExpr(e.b)})`
        : `(${printExpr(e.a)} ${BIN[e.op]} ${printExpr(e.b)})`
  }
}
