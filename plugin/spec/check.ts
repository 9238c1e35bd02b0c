/** SpecAst + the annotated function → KernelSpec: names bound to parameters, statements checked, roles inferred. */
import type { Span } from '../diagnostics.ts'
import type { KernelSite, SiteParam } from '../find/site.ts'
import { constant, variable } from '../ir/affine.ts'
import type { DType, Param, Tensor, TensorRole } from '../ir/nodes.ts'
import {
  specBadLiteral,
  specDuplicateDecl,
  specEmpty,
  specNameConflict,
  specParamMissing,
  specParamType,
  specParamUnknown,
  specUnusedTensor,
} from '../messages.ts'
import { ARRAY_TYPE } from '../../runtime/abi.ts'
import type { AstDim, AstExpr, SpecAst } from './ast.ts'
import type { CheckedStatement, KernelSpec } from './checked.ts'
import { bracketNames, checkStatement, children, namesIn } from './check-statement.ts'
import { nearMiss } from '../near-miss.ts'
import type { DeclaredTensor, SpecScope } from './scope.ts'

/** Throws the first KernelDiagnostic found, with `kernel: site.name`. */
export function checkSpec(ast: SpecAst, site: KernelSite): KernelSpec {
  const sizeUses = firstSizeUses(ast, site)
  const scope = declare(ast, sizeUses, site.name)
  if (ast.stmts.length === 0) throw specEmpty(ast.span, site.name)
  const params = bindParams(site, scope, sizeUses, ast)
  const facts = ast.stmts.map((stmt) => checkStatement(stmt, scope))
  const statements = facts.map((f) => f.statement)
  const tensors = [...scope.tensors.values()].map((t): Tensor => ({
    name: t.name,
    dtype: t.dtype,
    shape: t.shape,
    role: roleOf(t, statements, facts.map((f) => f.reads), site.name),
    span: t.span,
  }))
  return { name: site.name, params, tensors, sizes: [...scope.sizes], statements, span: ast.span }
}

function declare(ast: SpecAst, sizeUses: ReadonlyMap<string, Span>, kernel: string): SpecScope {
  const tensors = new Map<string, DeclaredTensor>()
  for (const decl of ast.decls) {
    const first = tensors.get(decl.name.name)
    if (first) throw specDuplicateDecl(decl.name.span, decl.name.name, first.span, kernel)
    const shape = decl.dims.map((dim) => (dim.kind === 'size' ? variable(dim.name) : constant(literalDim(dim, kernel))))
    tensors.set(decl.name.name, { name: decl.name.name, dtype: decl.dtype, shape, local: decl.local, span: decl.span })
  }
  const sizes = new Set<string>()
  for (const [name, span] of sizeUses) {
    const tensor = tensors.get(name)
    if (tensor) throw specNameConflict(span, name, tensor.span, kernel)
    sizes.add(name)
  }
  return { kernel, tensors, sizes }
}

function literalDim(dim: Extract<AstDim, { kind: 'lit' }>, kernel: string): number {
  if (!Number.isSafeInteger(dim.value) || dim.value < 1) {
    throw specBadLiteral(dim.span, String(dim.value), 'a dimension must be an integer >= 1', kernel)
  }
  return dim.value
}

/**
 * Size symbols in order of first declaration, each with the span of that first use: the dimensions' names, then the
 * function's parameters that index expressions or `where`s name inside a sum, never as a whole dimension, and no
 * declaration does: a call-time offset, e.g. a convolution's `pad` in `I[p + r - pad]`. A name alone in a dimension
 * (`A[i, k]`) stays an index, so a parameter `k` next to a size `K` is still the misspelling it likely is.
 */
function firstSizeUses(ast: SpecAst, site: KernelSite): ReadonlyMap<string, Span> {
  const uses = new Map<string, Span>()
  for (const dim of ast.decls.flatMap((d) => d.dims)) {
    if (dim.kind === 'size' && !uses.has(dim.name)) uses.set(dim.name, dim.span)
  }
  const params = new Set(site.params.map((p) => p.name))
  const declared = new Set(ast.decls.map((d) => d.name.name))
  // Names that are a whole dimension somewhere: `A[.., k, ..]`.
  const alone = (e: AstExpr): string[] => [
    ...(e.kind === 'access' ? e.indices.flatMap((ix) => (ix.kind === 'name' ? [ix.name] : [])) : []),
    ...children(e).flatMap(alone),
  ]
  const exprs = ast.stmts.flatMap((s) => [s.target, s.value])
  const wholeIndices = new Set(exprs.flatMap(alone))
  const inIndices = ast.stmts.flatMap((s) => [
    ...bracketNames(s.target), ...bracketNames(s.value), ...s.where.flatMap((w) => [...namesIn(w.left), ...namesIn(w.right)]),
  ])
  for (const { name, span } of inIndices) {
    if (params.has(name) && !declared.has(name) && !wholeIndices.has(name) && !uses.has(name)) uses.set(name, span)
  }
  return uses
}

/** The output dtype of the first statement whose value reads `name` alone (as a scalar, not inside brackets). */
function scalarReader(ast: SpecAst, scope: SpecScope, name: string): DType | undefined {
  const reads = (e: AstExpr): boolean => (e.kind === 'name' && e.name === name) || (e.kind !== 'access' && children(e).some(reads))
  const stmt = ast.stmts.find((s) => reads(s.value))
  return stmt && scope.tensors.get(stmt.target.tensor.name)?.dtype
}

/** Every function parameter is a declared tensor or a size symbol of the matching type, and vice versa. */
function bindParams(site: KernelSite, scope: SpecScope, sizeUses: ReadonlyMap<string, Span>, ast: SpecAst): Param[] {
  const { kernel } = scope
  const params = site.params.map((p): Param => {
    const tensor = scope.tensors.get(p.name)
    if (tensor && !tensor.local) {
      checkParamType(p, ARRAY_TYPE[tensor.dtype], kernel)
      return { kind: 'tensor', name: p.name }
    }
    if (!scope.sizes.has(p.name)) {
      const guess = nearMiss(p.name, [...scope.sizes, ...[...scope.tensors.values()].filter((t) => !t.local).map((t) => t.name)])
      const dtype = scalarReader(ast, scope, p.name)
      throw specParamUnknown(p.span, p.name, tensor?.local ?? false, kernel, guess, dtype && { dtype, array: ARRAY_TYPE[dtype] })
    }
    checkParamType(p, 'number', kernel)
    return { kind: 'size', name: p.name }
  })
  const bound = new Set(site.params.map((p) => p.name))
  for (const t of scope.tensors.values()) {
    if (!t.local && !bound.has(t.name)) throw specParamMissing(t.span, t.name, 'tensor', ARRAY_TYPE[t.dtype], kernel)
  }
  for (const [size, span] of sizeUses) {
    if (!bound.has(size)) throw specParamMissing(span, size, 'size', 'number', kernel)
  }
  return params
}

/** An annotation, when present, must name the expected type; `Float32Array<ArrayBuffer>` counts as `Float32Array`. */
function checkParamType(p: SiteParam, expected: string, kernel: string) {
  if (p.typeText === undefined) return
  const base = p.typeText.replace(/\s+/g, '').replace(/<.*>$/, '')
  if (base !== expected) throw specParamType(p.span, p.name, expected, p.typeText.trim(), kernel)
}

/**
 * 'inout' when the old content matters: some statement reduces into it without `!`, or reads it no later than the
 * first statement writing it. 'in' when never written, 'out' otherwise.
 */
function roleOf(
  t: DeclaredTensor,
  statements: readonly CheckedStatement[],
  reads: readonly ReadonlySet<string>[],
  kernel: string,
): TensorRole {
  if (t.local) return 'temp'
  const firstWrite = statements.findIndex((s) => s.target.tensor === t.name)
  const firstRead = reads.findIndex((r) => r.has(t.name))
  if (firstWrite < 0 && firstRead < 0) throw specUnusedTensor(t.span, t.name, kernel)
  if (firstWrite < 0) return 'in'
  const accumulates = statements.some((s) => s.target.tensor === t.name && s.op !== '=' && !s.init)
  return accumulates || (firstRead >= 0 && firstRead <= firstWrite) ? 'inout' : 'out'
}
