/** One statement → CheckedStatement: output, indices with ranges, reductions, `where` constraints, typed value. */
import type { Span } from '../diagnostics.ts'
import { constant, sub } from '../ir/affine.ts'
import type { Access, Affine } from '../ir/nodes.ts'
import {
  specInitNeedsReduction,
  specRankMismatch,
  specReductionNeedsOp,
  specSelfRead,
  specTargetIndex,
  specTargetIndexUnused,
  specTargetIsSize,
  specUnknownTensor,
} from '../messages.ts'
import { affineOf } from './affine-of.ts'
import type { AstConstraint, AstExpr, AstStatement } from './ast.ts'
import type { CheckedConstraint, CheckedStatement } from './checked.ts'
import { inferRanges } from './infer-ranges.ts'
import type { AccessSite } from './infer-ranges.ts'
import { nearMiss } from '../near-miss.ts'
import type { DeclaredTensor, SpecScope } from './scope.ts'
import { typeValue } from './typecheck.ts'

type AstAccess = Extract<AstExpr, { kind: 'access' }>
type AstName = Extract<AstExpr, { kind: 'name' }>

export interface StatementFacts {
  readonly statement: CheckedStatement
  /** Tensors the value reads, the output included when it is updated in place. */
  readonly reads: ReadonlySet<string>
}

export function checkStatement(stmt: AstStatement, scope: SpecScope): StatementFacts {
  const kernel = scope.kernel
  const target = checkTarget(stmt.target, scope)
  if (stmt.init && stmt.op === '=') throw specInitNeedsReduction(stmt.opSpan, kernel)

  const isIndex = (name: string) => !scope.tensors.has(name) && !scope.sizes.has(name)
  const whereExprs = stmt.where.flatMap((c) => [c.left, c.right])
  const indexNames = new Set([
    ...target.indices,
    ...bracketNames(stmt.value).map((n) => n.name).filter(isIndex),
    ...whereExprs.flatMap(namesIn).map((n) => n.name).filter(isIndex),
  ])

  const reads = tensorReads(stmt.value, scope)
  const resolved = new Map(reads.map((read) => [read, resolveRead(read, scope)] as const))
  for (const read of reads) checkSelfRead(read, stmt, target.indices, kernel)
  const constraints = stmt.where.map((c) => normalise(c, scope))

  // Source-order uses decide the order of reduced indices and where an unbounded one is reported.
  const uses = [...namesIn(stmt.value), ...whereExprs.flatMap(namesIn)]
  const firstUse = new Map<string, Span>(stmt.target.indices.map((e, d) => [target.indices[d], e.span]))
  for (const use of uses) {
    if (indexNames.has(use.name) && !firstUse.has(use.name)) firstUse.set(use.name, use.span)
  }
  const used = new Set(uses.map((n) => n.name))
  stmt.target.indices.forEach((e, d) => {
    if (!used.has(target.indices[d])) throw specTargetIndexUnused(e.span, target.indices[d], target.tensor.name, kernel)
  })
  const reduced = [...firstUse.keys()].filter((name) => !target.indices.includes(name))
  if (reduced.length > 0 && stmt.op === '=') {
    throw specReductionNeedsOp(firstUse.get(reduced[0]) ?? stmt.span, reduced, kernel)
  }

  const value = typeValue(stmt.value, {
    scope, target: target.tensor.name, dtype: target.tensor.dtype, indices: indexNames, accesses: resolved,
  })
  const targetSite: AccessSite = {
    access: { tensor: target.tensor.name, index: target.affines },
    indexSpans: stmt.target.indices.map((e) => e.span),
  }
  const readSites = reads.map((read): AccessSite => ({
    access: resolved.get(read) as Access,
    indexSpans: read.kind === 'access' ? read.indices.map((e) => e.span) : [],
  }))
  const ranges = inferRanges(firstUse, [targetSite, ...readSites], constraints, scope)

  return {
    statement: {
      target: { tensor: target.tensor.name, indices: target.indices },
      op: stmt.op,
      init: stmt.init,
      value,
      indices: ranges.indices,
      reduced,
      where: ranges.where,
      dtype: target.tensor.dtype,
      span: stmt.span,
    },
    reads: new Set(reads.map(tensorOf)),
  }
}

interface CheckedTarget {
  readonly tensor: DeclaredTensor
  readonly indices: readonly string[]
  readonly affines: readonly Affine[]
}

function checkTarget(target: AstAccess, scope: SpecScope): CheckedTarget {
  const { kernel } = scope
  const name = target.tensor.name
  if (scope.sizes.has(name)) throw specTargetIsSize(target.tensor.span, name, kernel)
  const tensor = scope.tensors.get(name)
  if (!tensor) throw specUnknownTensor(target.tensor.span, name, false, kernel, nearMiss(name, scope.tensors.keys()))
  if (target.indices.length !== tensor.shape.length) {
    throw specRankMismatch(target.span, name, tensor.shape.length, target.indices.length, kernel)
  }
  const indices: string[] = []
  for (const e of target.indices) {
    const refuse = (reason: string): never => {
      throw specTargetIndex(e.span, name, reason, kernel)
    }
    if (e.kind !== 'name') refuse(e.kind === 'num' ? 'a literal is not an index' : 'an expression is not an index')
    const index = (e as AstName).name
    if (scope.sizes.has(index)) refuse(`'${index}' is a size symbol, not an index`)
    if (scope.tensors.has(index)) refuse(`'${index}' is a tensor, not an index`)
    if (indices.includes(index)) refuse(`'${index}' appears twice`)
    indices.push(index)
  }
  return { tensor, indices, affines: target.indices.map((e) => affineOf(e, scope)) }
}

/** Tensor reads of a value in source order: accesses, and bare names of tensors (rank-0 reads). */
function tensorReads(value: AstExpr, scope: SpecScope): (AstAccess | AstName)[] {
  if (value.kind === 'access') return [value]
  if (value.kind === 'name') return scope.tensors.has(value.name) ? [value] : []
  return children(value).flatMap((child) => tensorReads(child, scope))
}

function resolveRead(read: AstAccess | AstName, scope: SpecScope): Access {
  const { kernel } = scope
  const name = tensorOf(read)
  const tensor = scope.tensors.get(name)
  const nameSpan = read.kind === 'access' ? read.tensor.span : read.span
  if (!tensor) throw specUnknownTensor(nameSpan, name, scope.sizes.has(name), kernel, nearMiss(name, scope.tensors.keys()))
  const indices = read.kind === 'access' ? read.indices : []
  if (indices.length !== tensor.shape.length) {
    throw specRankMismatch(read.span, name, tensor.shape.length, indices.length, kernel)
  }
  return { tensor: name, index: indices.map((e) => affineOf(e, scope)) }
}

/** The output may be read only element-wise, at its own indices, by a plain `=`: any other read depends on order. */
function checkSelfRead(
  read: AstAccess | AstName,
  stmt: AstStatement,
  targetIndices: readonly string[],
  kernel: string,
) {
  if (tensorOf(read) !== stmt.target.tensor.name) return
  const indices = read.kind === 'access' ? read.indices : []
  const sameIndices = indices.every((e, d) => e.kind === 'name' && e.name === targetIndices[d])
  if (stmt.op !== '=' || !sameIndices) throw specSelfRead(read.span, tensorOf(read), kernel)
}

/** `a op b` → `expr >= 0` or `expr == 0`. */
function normalise(c: AstConstraint, scope: SpecScope): CheckedConstraint {
  const a = affineOf(c.left, scope)
  const b = affineOf(c.right, scope)
  const one = constant(1)
  switch (c.op) {
    case '<': return { expr: sub(sub(b, a), one), op: '>=', span: c.span }
    case '<=': return { expr: sub(b, a), op: '>=', span: c.span }
    case '>': return { expr: sub(sub(a, b), one), op: '>=', span: c.span }
    case '>=': return { expr: sub(a, b), op: '>=', span: c.span }
    case '==': return { expr: sub(a, b), op: '==', span: c.span }
  }
}

const tensorOf = (read: AstAccess | AstName) => (read.kind === 'access' ? read.tensor.name : read.name)

export function children(e: AstExpr): readonly AstExpr[] {
  switch (e.kind) {
    case 'num':
    case 'name':
      return []
    case 'access':
      return e.indices
    case 'unary':
      return [e.operand]
    case 'binary':
      return [e.left, e.right]
    case 'select':
      return [e.cond, e.then, e.otherwise]
    case 'call':
      return e.args
  }
}

/** Every bare name in `e`, in source order, inside brackets or not. */
export function namesIn(e: AstExpr): AstName[] {
  return e.kind === 'name' ? [e] : children(e).flatMap(namesIn)
}

/** Names used inside `[...]` anywhere in `e`: index candidates. */
export function bracketNames(e: AstExpr): AstName[] {
  return e.kind === 'access' ? e.indices.flatMap(namesIn) : children(e).flatMap(bracketNames)
}
