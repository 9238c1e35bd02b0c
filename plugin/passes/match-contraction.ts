/**
 * ISA Mapper's deterministic mapper for one needle shape, the contraction `C[m, n] += A[m, k] * B[k, n]`: does a
 * block compute it, up to index names, loop order, dimension order (transposed operands), operand order and batch
 * indices? Both sides are IR: the needle is a microkernel's loop-equivalent spec, parsed and built like any kernel.
 * Roles come from the access maps: an index in the output and one factor only is m or n, in both factors only k,
 * in all three a batch index; several indices may share a role, in any order (flattened or gathered, see
 * ContractionRoles); constant factors ride along (alpha). A mismatch returns the first reason found, for
 * POLYKERN_DEBUG=match.
 */
import { format, lastIndex } from '../ir/affine.ts'
import { buildKernel } from '../spec/build-ir.ts'
import type { Access, Block, ContractionRoles, DType, Expr, IndexRange, OperandScale, ValueType } from '../ir/nodes.ts'
import { printAccess, printConstraint, printExpr } from '../ir/print.ts'
import { walkExpr } from '../ir/walk.ts'
import { checkSpec } from '../spec/check.ts'
import { parseSpec } from '../spec/parser.ts'
import type { KernelSite } from '../find/site.ts'
import type { Microkernel } from '../targets/microkernel.ts'

export type ContractionMatch =
  | { readonly ok: true; readonly roles: ContractionRoles }
  | { readonly ok: false; readonly reason: string }

type Role = 'm' | 'n' | 'k' | 'batch'

/** A block's statement read as `out op= [c ·] P * Q` over plain indices, or why it cannot be. */
interface Product {
  readonly out: Access
  readonly factors: readonly [Access, Access]
  readonly dtype: DType
  /** The product of its factors that do not vary over the block, when it has any (packed into A, ContractionRoles.alpha). */
  readonly alpha?: Expr
  /** Per factor, the tensor factor over its indices only that scales it (packed with it), if any. */
  readonly scales: readonly [OperandScale | undefined, OperandScale | undefined]
}

const fail = (reason: string): ContractionMatch => ({ ok: false, reason })

/** Matches `block` against `needle`, a block of the same shape built from a microkernel's spec. */
export function matchContraction(block: Block, needle: Block): ContractionMatch {
  const hay = productOf(block)
  if (typeof hay === 'string') return fail(hay)
  const pattern = productOf(needle)
  if (typeof pattern === 'string') return fail(`the needle itself does not match: ${pattern}`)
  if (hay.dtype !== pattern.dtype) return fail(`element type is ${hay.dtype}, the needle's is ${pattern.dtype}`)
  const op = block.body[0].kind === 'store' ? block.body[0].op : ''
  const needleOp = needle.body[0].kind === 'store' ? needle.body[0].op : ''
  if (op !== needleOp) return fail(`op is ${op}, the needle needs ${needleOp}`)

  const hayRoles = rolesOf(hay, block.indices)
  if (typeof hayRoles === 'string') return fail(hayRoles)
  const needleRoles = rolesOf(pattern, needle.indices)
  if (typeof needleRoles === 'string') return fail(`the needle itself does not match: ${needleRoles}`)

  // Buffer map: the needle's factor holding m is A. Swapping the factors (Cᵀ = Bᵀ·Aᵀ) swaps m and n; choose the
  // assignment under which the output's last dimension plays the role the needle's last output dimension plays.
  const lastRole = (roles: Map<string, Role>, out: Access) => roles.get(lastIndex(out))
  const wantLast = lastRole(needleRoles, pattern.out)
  let roles = hayRoles
  let [a, b] = hay.factors
  if (!hasRole(a, roles, 'm')) [a, b] = [b, a]
  if (lastRole(roles, hay.out) !== wantLast) {
    roles = new Map([...roles].map(([v, r]) => [v, r === 'm' ? 'n' : r === 'n' ? 'm' : r]))
    ;[a, b] = [b, a]
  }
  if (lastRole(roles, hay.out) !== wantLast) {
    const last = lastIndex(hay.out)
    return fail(`the output's last dimension is ${roles.get(last)} index ${last}; the needle stores along ${wantLast}`)
  }
  const range = (role: Role): IndexRange[] => block.indices.filter((ix) => roles.get(ix.name) === role)
  // A role's indices in the order one tensor holds them: its GEMM dimension is their row-major product.
  const inOrder = (role: Role, of: Access): IndexRange[] =>
    of.index.map((ix) => block.indices.find((r) => r.name === ix.terms[0].v)!).filter((ix) => roles.get(ix.name) === role)
  const [m, n, k] = [inOrder('m', hay.out), inOrder('n', hay.out), inOrder('k', a)]
  const domainProblem = block.constraints.length > 0 ? triangleProblem(block, m, n) : undefined
  if (domainProblem !== undefined) return fail(domainProblem)
  const [scaleA, scaleB] = a === hay.factors[0] ? hay.scales : [hay.scales[1], hay.scales[0]]
  const batched = [scaleA, scaleB].find((x) => x !== undefined && [...indicesOf(x.by)].some((v) => roles.get(v) === 'batch'))
  if (batched !== undefined) return fail(`factor ${batched.by.tensor} is indexed by a batch index: a scale packed with an operand is the same in every batch`)
  // A tensor factor is read through the offset tables (a scaled pack exists only in the gathered form).
  const flat = scaleA === undefined && scaleB === undefined && flattens([[m, [hay.out, a]], [n, [hay.out, b]], [k, [a, b]]])
  return {
    ok: true,
    roles: {
      dtype: hay.dtype as ContractionRoles['dtype'], c: hay.out, a, b, m, n, k, batch: range('batch'),
      layout: flat ? 'flattened' : 'gathered',
      ...(hay.alpha !== undefined ? { alpha: hay.alpha } : {}),
      ...(scaleA !== undefined ? { scaleA } : {}),
      ...(scaleB !== undefined ? { scaleB } : {}),
      ...(block.constraints.length > 0 ? { domain: block.constraints } : {}),
    },
  }
}

/**
 * The roles of a gathered contraction's sliced form (SlicedContraction), or undefined when it has none: the fewest of
 * C's leading n indices whose move to the batch leaves every role flattened, when B holds them ahead of its other
 * indices (each batch element's slice of B is then one block of it). A scaled or triangular product keeps its form.
 */
export function slicedRoles(r: ContractionRoles): ContractionRoles | undefined {
  if (r.layout !== 'gathered' || r.scaleA !== undefined || r.scaleB !== undefined || r.domain !== undefined) return undefined
  const isN = (v: string) => r.n.some((ix) => ix.name === v)
  const leading = r.c.index.map((ix) => ix.terms[0].v)
  const dimInB = (v: string) => r.b.index.findIndex((ix) => ix.terms[0].v === v)
  for (let j = 1; j < leading.length; j++) {
    if (!isN(leading[j - 1]) && !r.batch.some((ix) => ix.name === leading[j - 1])) return undefined
    const moved = r.n.filter((ix) => leading.slice(0, j).includes(ix.name))
    const rest = r.n.filter((ix) => !moved.includes(ix))
    if (moved.length === 0 || rest.length === 0) continue
    const ahead = Math.max(...moved.map((ix) => dimInB(ix.name))) < Math.min(...[...rest, ...r.k].map((ix) => dimInB(ix.name)))
    if (ahead && flattens([[r.m, [r.c, r.a]], [rest, [r.c, r.b]], [r.k, [r.a, r.b]]])) {
      return { ...r, n: rest, batch: [...r.batch, ...moved], layout: 'flattened' }
    }
  }
  return undefined
}

/**
 * Whether every role's indices are one GEMM dimension with one stride per tensor: adjacent dimensions of every tensor
 * holding them, in the order of the first. Then each has the extent of the dimension it indexes (infer-ranges: an
 * index alone in a dimension ranges over all of it), so in row-major order the outer ones' strides are the inner
 * one's times the inner extents: offset = (linear index) · (last index's stride).
 */
function flattens(roles: readonly (readonly [readonly IndexRange[], readonly Access[]])[]): boolean {
  return roles.every(([ixs, holders]) =>
    holders.every((t) => {
      const dims = ixs.map((ix) => t.index.findIndex((d) => d.terms[0].v === ix.name))
      return dims.every((d, i) => i === 0 || d === dims[i - 1] + 1)
    }),
  )
}

/** Whether the block's product is two factors a GEMM multiplies and tensor factors that scale them (packed). */
export const isScaledProduct = (block: Block): boolean => {
  const p = productOf(block)
  return typeof p !== 'string' && p.scales.some((x) => x !== undefined) && typeof rolesOf(p, block.indices) !== 'string'
}

function productOf(block: Block): Product | string {
  if (block.body.length !== 1) return `the block holds ${block.body.length} statements, the needle one`
  const s = block.body[0]
  if (s.kind !== 'store') return `the block holds a ${s.kind}, not a store`
  const indices = new Set(block.indices.map((ix) => ix.name))
  const leaves = factorsOf(s.value)
  // Factors that do not vary over the block (constants, size expressions) ride along: A is multiplied by their
  // product while it is packed.
  const invariant = leaves.filter((f) => !variesOver(f.e, indices))
  const factors = leaves.filter((f) => variesOver(f.e, indices))
  if (factors.length < 2) return `the value ${printExpr(s.value)} is not a product`
  // Each tensor factor as the scale it would be (OperandScale): read, and whether the product divides by it.
  const loads: OperandScale[] = []
  for (const f of factors) {
    if (f.e.kind !== 'load') return `factor ${printExpr(f.e)} is not a tensor element`
    if (f.e.zeroOutside) return `${f.e.access.tensor} is read with zero padding`
    loads.push({ by: f.e.access, divides: f.divides })
  }
  for (const a of [s.access, ...loads.map((x) => x.by)]) {
    const why = plainAccess(a)
    if (why !== undefined) return why
  }
  const split = operandsAndScales(s.access, loads, block.indices)
  if (typeof split === 'string') return split
  const alpha = invariant.length > 0 ? productExpr(invariant, s.value.type as DType) : undefined
  if (alpha?.kind === 'const' && !Number.isFinite(alpha.value)) return `its constant factor is ${alpha.value}`
  return { out: s.access, ...split, dtype: factors[0].e.type as DType, ...(alpha !== undefined ? { alpha } : {}) }
}

/** A factor of a product: an expression it multiplies by, or divides by. */
export interface Factor {
  readonly e: Expr
  readonly divides: boolean
}

/** The factors of a tree of multiplications and, in floats, divisions (a negation is a factor -1). */
export function factorsOf(e: Expr, divides = false): Factor[] {
  const float = e.type === 'f32' || e.type === 'f64'
  if (e.kind === 'binary' && e.op === 'mul') return [...factorsOf(e.a, divides), ...factorsOf(e.b, divides)]
  if (float && e.kind === 'binary' && e.op === 'div') return [...factorsOf(e.a, divides), ...factorsOf(e.b, !divides)]
  if (float && e.kind === 'unary' && e.op === 'neg') return [{ e: { kind: 'const', value: -1, type: e.type }, divides: false }, ...factorsOf(e.arg, divides)]
  return [{ e, divides }]
}

/** Whether `e` reads a tensor or one of `indices`: it may differ between the block's points. */
function variesOver(e: Expr, indices: ReadonlySet<string>): boolean {
  let varies = false
  walkExpr(e, (x) => void (varies ||= x.kind === 'load' || (x.kind === 'var' && indices.has(x.name))))
  return varies
}

/** The product of invariant factors as one expression: the constants folded, then the others. */
function productExpr(factors: readonly Factor[], type: DType): Expr {
  const constant = factors.reduce((x, f) => (f.e.kind !== 'const' ? x : f.divides ? x / f.e.value : x * f.e.value), 1)
  const others = factors.filter((f) => f.e.kind !== 'const')
  const lead: Factor[] = constant !== 1 || others.every((f) => f.divides) ? [{ e: { kind: 'const', value: constant, type }, divides: false }] : []
  return productOfFactors([...lead, ...others], type)
}

/** Factors as one expression: those it multiplies by, in order, then a division by each divisor; at least one multiplies. */
export function productOfFactors(factors: readonly Factor[], type: ValueType): Expr {
  const binary = (op: 'mul' | 'div') => (a: Expr, b: Expr): Expr => ({ kind: 'binary', op, a, b, type })
  const times = factors.filter((f) => !f.divides).map((f) => f.e).reduce(binary('mul'))
  return factors.filter((f) => f.divides).map((f) => f.e).reduce(binary('div'), times)
}

/**
 * The two factors a GEMM multiplies and the others, each scaling one of them: a tensor factor over indices of one
 * operand only (a scale vector `d[k]`, a mask `M[k, j]`, a divisor `z[i]`) is packed with that operand, at most one
 * per operand. The pair tried first is the one with the most dimensions; every index must be in the output or one
 * of the pair.
 */
function operandsAndScales(
  out: Access,
  loads: readonly OperandScale[],
  indices: readonly IndexRange[],
): Pick<Product, 'factors' | 'scales'> | string {
  const multiplied = loads.filter((t) => !t.divides).map((t) => t.by)
  if (multiplied.length < 2) {
    return `the value is not a product of two tensor elements: it divides by ${loads.filter((t) => t.divides).map((t) => printAccess(t.by)).join(', ')}`
  }
  if (loads.length === 2) return { factors: [multiplied[0], multiplied[1]], scales: [undefined, undefined] }
  const listed = `the value multiplies ${loads.length} factors (${loads.map((t) => (t.divides ? `1/${printAccess(t.by)}` : printAccess(t.by))).join(', ')})`
  if (loads.length > 4) return `${listed}; a GEMM multiplies two, and one more scaling each`
  const pairs = multiplied.flatMap((x, i) => multiplied.slice(i + 1).map((y) => [x, y] as const))
  pairs.sort((p, q) => q[0].index.length + q[1].index.length - p[0].index.length - p[1].index.length)
  const within = (t: Access, of: Access) => [...indicesOf(t)].every((v) => indicesOf(of).has(v))
  for (const [x, y] of pairs) {
    const covered = new Set([...indicesOf(out), ...indicesOf(x), ...indicesOf(y)])
    if (!indices.every((ix) => covered.has(ix.name))) continue
    const rest = loads.filter((t) => t.by !== x && t.by !== y)
    const onX = rest.filter((t) => within(t.by, x))
    const onY = rest.filter((t) => !within(t.by, x) && within(t.by, y))
    if (onX.length + onY.length !== rest.length || onX.length > 1 || onY.length > 1) continue
    return { factors: [x, y], scales: [onX[0], onY[0]] }
  }
  return `${listed}; a GEMM multiplies two, and each other one must range over indices of one of them only, one per operand`
}

/** PK_MAX_DOMAIN in native/polykern_simd.h. */
const MAX_DOMAIN = 4

/**
 * Why the block's constraints do not cut a triangle (or band) out of C, or undefined when they do: each relates the
 * m and n indices (and sizes) only, with m and n one index each, so a C tile is inside, outside or on the edge of
 * the domain (`where j <= i`: causal attention scores, symmetric rank-k updates).
 */
function triangleProblem(block: Block, m: readonly IndexRange[], n: readonly IndexRange[]): string | undefined {
  const where = block.constraints.map(printConstraint).join(', ')
  if (block.constraints.length > MAX_DOMAIN) return `the domain has ${block.constraints.length} constraints (${where}); a GEMM masks at most ${MAX_DOMAIN}`
  const indices = new Set(block.indices.map((ix) => ix.name))
  const tile = new Set([...m, ...n].map((ix) => ix.name))
  for (const c of block.constraints) {
    const other = c.expr.terms.find((t) => indices.has(t.v) && !tile.has(t.v))
    if (other !== undefined) {
      return `the domain has constraints (${where}) on ${other.v}, which is not an index of C: only triangles of C (m and n) run as GEMMs`
    }
  }
  const related = block.constraints.some((c) => c.expr.terms.some((t) => tile.has(t.v)))
  if (related && (m.length > 1 || n.length > 1)) {
    return `the domain has constraints (${where}) and m (${m.map((ix) => ix.name).join('·')}) or n (${n.map((ix) => ix.name).join('·')}) holds several indices: a triangle needs one each`
  }
  return undefined
}

/** The leaves of a tree of multiplications. */
export const flattenProduct = (e: Expr): Expr[] =>
  e.kind === 'binary' && e.op === 'mul' ? [...flattenProduct(e.a), ...flattenProduct(e.b)] : [e]

/** Undefined when every dimension is one index with coefficient 1 and no offset, each index at most once. */
function plainAccess(a: Access): string | undefined {
  const seen = new Set<string>()
  for (const [d, ix] of a.index.entries()) {
    const dim = `${a.tensor}'s dimension ${d}`
    if (ix.terms.length === 0) return `${dim} is the constant ${ix.constant}, not an index`
    if (ix.terms.length > 1) return `${dim} is ${format(ix)}, not a single index (affine, as in a convolution)`
    const { v, coeff } = ix.terms[0]
    if (coeff !== 1) return `index ${v} appears with coefficient ${coeff} in ${a.tensor}`
    if (ix.constant !== 0) return `index ${v} appears with offset ${ix.constant} in ${a.tensor}`
    if (seen.has(v)) return `index ${v} appears twice in ${a.tensor} (a diagonal)`
    seen.add(v)
  }
  return undefined
}

// Only for accesses plainAccess accepted: every dimension is one index.
const indicesOf = (a: Access): Set<string> => new Set(a.index.map((ix) => ix.terms[0].v))
const hasRole = (a: Access, roles: Map<string, Role>, role: Role): boolean =>
  [...indicesOf(a)].some((v) => roles.get(v) === role)

const ROLE_OF_PLACES: Readonly<Record<string, Role>> = { OX: 'm', OY: 'n', XY: 'k', OXY: 'batch' }

/** Each index's role from where it occurs; at least one m, n and k. */
function rolesOf(p: Product, indices: readonly IndexRange[]): Map<string, Role> | string {
  const [out, x, y] = [indicesOf(p.out), indicesOf(p.factors[0]), indicesOf(p.factors[1])]
  const roles = new Map<string, Role>()
  for (const { name } of indices) {
    const where = `${out.has(name) ? 'O' : ''}${x.has(name) ? 'X' : ''}${y.has(name) ? 'Y' : ''}`
    const role = ROLE_OF_PLACES[where] as Role | undefined
    if (role === undefined) {
      const only = { O: 'the output', X: p.factors[0].tensor, Y: p.factors[1].tensor }[where] ?? 'no access'
      return `index ${name} appears only in ${only}, so it is no GEMM role (m, n, k or batch)`
    }
    roles.set(name, role)
  }
  for (const role of ['m', 'n', 'k'] as const) {
    const count = [...roles.values()].filter((r) => r === role).length
    if (count === 0 && role === 'k') return 'no index is summed over by both factors (no k): not a GEMM'
    if (count === 0) {
      return `no ${role} index (a factor shares all its indices with the output): a matrix-vector product, not a GEMM`
    }
  }
  return roles
}

/** A microkernel's spec as a block: tensors declared from its statement (`C[m, n]` → `C: f32[M, N]`). */
export function needleOf(mk: Microkernel): Block {
  const tensors = new Map<string, string[]>()
  for (const m of mk.spec.matchAll(/([A-Za-z_]\w*)\s*\[([^\]]*)\]/g)) {
    tensors.set(m[1], m[2].split(',').map((s) => s.trim()))
  }
  const sizes = [...new Set([...tensors.values()].flat().map((ix) => ix.toUpperCase()))]
  const decls = [...tensors].map(([name, ix]) => `${name}: ${mk.dtype}[${ix.map((i) => i.toUpperCase()).join(', ')}]`)
  const text = [...decls, mk.spec].join('\n')
  const file = `<microkernel ${mk.name}>`
  const span = { file, start: 0, end: text.length }
  const site: KernelSite = {
    file,
    name: mk.name,
    specText: text,
    specStart: 0,
    params: [...tensors.keys(), ...sizes].map((name) => ({ name, span })),
    commentSpan: span,
    nameSpan: span,
    bodySpan: span,
    form: 'function',
  }
  const block = buildKernel(checkSpec(parseSpec(text, 0, file), site)).body.find((s) => s.kind === 'block')
  if (block === undefined) throw new Error(`microkernel ${mk.name}: its spec builds no block`)
  return block
}
