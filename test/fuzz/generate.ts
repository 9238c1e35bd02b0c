/**
 * Random well-formed kernels: index sets and ranks, affine offsets and strides, padding (reads that leave their
 * tensor), repeated indices, `where` windows and triangles, every reduction op with and without `!`, element-wise
 * expressions with every built-in, comparisons and selects, several statements chained through temporaries and
 * in-place updates, every dtype, and names that are keywords or library names in C or JavaScript.
 *
 * Float expressions stay well conditioned (a division's denominator is at least 1 in magnitude, `exp` only sees small
 * arguments, comparisons only compare exact values), so reassociated reductions and vector math agree with the
 * interpreter within a rounding tolerance and any larger difference is a bug; extreme values are extreme.ts's. i32
 * arithmetic is exact everywhere, so i32 kernels use every operator freely, including INT32_MIN, -1 divisors and
 * wrapping products.
 */
import type { AssignOp, BinaryOp, DType } from '../../plugin/spec/ast.ts'
import { rng } from '../support/random.ts'
import {
  affine,
  plain,
  readsOf,
  type GenAffine,
  type GenExpr,
  type GenKernel,
  type GenStmt,
  type GenTensor,
  type GenWhere,
} from './model.ts'

export interface Random {
  readonly next: () => number
  readonly int: (lo: number, hi: number) => number
  readonly pick: <T>(xs: readonly T[]) => T
  readonly chance: (p: number) => boolean
  /** An index drawn with the given relative weights. */
  readonly weighted: (weights: readonly number[]) => number
}

export function random(seed: number): Random {
  const next = rng(seed)
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1))
  return {
    next,
    int,
    pick: (xs) => xs[Math.floor(next() * xs.length)],
    chance: (p) => next() < p,
    weighted: (weights) => {
      let x = next() * weights.reduce((a, b) => a + b, 0)
      for (let i = 0; i < weights.length; i++) if ((x -= weights[i]) < 0) return i
      return weights.length - 1
    },
  }
}

// Names: mostly ordinary, sometimes a C or JavaScript keyword, a libc/libm/N-API name, or a name the emitters use
// for their own locals. Parameters must stay valid strict-mode JavaScript parameter names; temporaries and indices
// only need to be spec identifiers.
const TENSORS = ['A', 'B', 'C', 'X', 'Y', 'W', 'Z', 'G', 'H', 'out', 'acc', 'bias', 'img']
const HOSTILE_TENSORS = ['int', 'double', 'free', 'env', 'argv', 'info', 'Math', 'NaN', 'undefined', 'NULL', 'main',
  'Float32Array', 'restrict', 'INT32_MIN', 'pk_buf', 'napi_value', '_Bool', 'memcpy', 'sA0', 'Infinity']
const HOSTILE_TEMPS = ['for', 'while', 'return', 'class', 'new', 'this', 'function', 'var', 'switch', 'static', 'const']
const SIZES = ['M', 'N', 'K', 'P', 'Q', 'S', 'D', 'L', 'R']
const HOSTILE_SIZES = ['size_t', 'INFINITY', 'NAN', 'EOF', 'SIZE_MAX', 'calloc', 'sqrtf', 'int64_t', 'q', 'Int32Array']
const INDICES = ['i', 'j', 'k', 'l', 'm', 'n', 'p', 'r', 's', 't', 'u', 'v', 'w', 'x', 'y', 'z', 'b', 'c', 'e', 'h']
const HOSTILE_INDICES = ['for', 'if', 'int', 'float', 'q', 'q2', 's0', 'argv', 'Math', 'return', 'new', 'this', 'goto',
  'i_end', 'iEnd', 'signbit', 'errno', 'let_', 'delete', 'typeof']

const DTYPES: readonly DType[] = ['f32', 'f64', 'i32']

export interface GenerateOptions {
  /** Probability that a name is a hostile one. */
  readonly hostile?: number
  /** Most statements per kernel. */
  readonly maxStatements?: number
}

/** Magnitude bound of values, so float expressions stay well conditioned; Infinity: unknown, keep away from exp. */
type Mag = number

interface Node {
  readonly e: GenExpr
  readonly mag: Mag
  /** Exactly the same value in every implementation: a read, a literal, an index or size. */
  readonly exact: boolean
}

/** One kernel; `name` must be a valid JavaScript function name. */
export function generateKernel(r: Random, name: string, options: GenerateOptions = {}): GenKernel {
  const hostile = options.hostile ?? 0.08
  const dtype = DTYPES[r.weighted([0.45, 0.3, 0.25])]
  // Tensors and sizes never share a name with each other or with any index of the kernel.
  const names = new Set<string>()
  const indexUsed = new Set<string>()
  const fresh = (pool: readonly string[], hostilePool: readonly string[]): string => {
    for (let tries = 0; ; tries++) {
      const base = r.chance(hostile) ? r.pick(hostilePool) : r.pick(pool)
      const candidate = tries < 20 ? base : `${base}${tries}`
      if (!names.has(candidate) && !indexUsed.has(candidate)) {
        names.add(candidate)
        return candidate
      }
    }
  }
  const sizes = Array.from({ length: r.int(1, 4) }, () => fresh(SIZES, HOSTILE_SIZES))
  const tensors: GenTensor[] = []
  const mags = new Map<string, Mag>()
  const stmts: GenStmt[] = []
  const count = 1 + (r.chance(0.4) ? r.int(1, (options.maxStatements ?? 4) - 1) : 0)

  const extent = (): string | number => (r.chance(0.15) ? r.int(1, 4) : r.pick(sizes))
  const newTensor = (dims: readonly (string | number)[], local: boolean): GenTensor => {
    const t = { name: local ? fresh(TENSORS.map((n) => `${n}t`), HOSTILE_TEMPS) : fresh(TENSORS, HOSTILE_TENSORS), dtype, dims, local }
    tensors.push(t)
    return t
  }

  for (let n = 0; n < count; n++) {
    const last = n === count - 1
    const written = stmts.map((s) => s.target)
    const reusable = tensors.filter((t) => written.includes(t.name))
    // The target: a new temporary feeding later statements, a new output, or an in-place update of an earlier one.
    let target: GenTensor | undefined
    if (n > 0 && r.chance(0.2)) target = r.pick(reusable)
    const indexNames = new Set<string>()
    const index = () => {
      for (;;) {
        const v = r.chance(hostile) ? r.pick(HOSTILE_INDICES) : r.pick(INDICES)
        if (!names.has(v) && !indexNames.has(v)) {
          indexNames.add(v)
          indexUsed.add(v)
          return v
        }
      }
    }
    const template = target ? 2 : r.weighted([dtype === 'i32' ? 0.05 : 0.2, 0.12, 0.68])
    const stmt = template === 0
      ? contractionStatement(r, index, extent, newTensor, !last && r.chance(0.5), dtype === 'i32')
      : template === 1
      ? windowStatement(r, index, extent, newTensor, !last && r.chance(0.5), sizes)
      : randomStatement({ r, dtype, target, index, extent, newTensor, local: !last && r.chance(0.6), tensors, mags, written, sizes })
    stmts.push(stmt)
    mags.set(stmt.target, magAfter(stmt, mags))
  }
  const params = shuffle(r, [...tensors.filter((t) => !t.local).map((t) => t.name), ...usedSizes(tensors, sizes)])
  return repairSizes({ name, tensors, params, stmts }, sizes)
}

function shuffle<T>(r: Random, xs: T[]): T[] {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = r.int(0, i)
    ;[xs[i], xs[j]] = [xs[j], xs[i]]
  }
  return xs
}

const usedSizes = (tensors: readonly GenTensor[], sizes: readonly string[]) =>
  sizes.filter((s) => tensors.some((t) => t.dims.includes(s)))

/** A size symbol no tensor declares is not a size (it would read as an index): replace its uses by a literal. */
function repairSizes(k: GenKernel, sizes: readonly string[]): GenKernel {
  const declared = new Set(k.tensors.flatMap((t) => t.dims.filter((d) => typeof d === 'string')))
  const isUndeclared = (v: string) => sizes.includes(v) && !declared.has(v)
  const fixAffine = (a: GenAffine): GenAffine =>
    affine(a.terms.filter((t) => !isUndeclared(t.v)), a.k + a.terms.filter((t) => isUndeclared(t.v)).reduce((s, t) => s + 3 * t.c, 0))
  const fix = (e: GenExpr): GenExpr => {
    switch (e.kind) {
      case 'read':
        return { ...e, index: e.index.map(fixAffine) }
      case 'var':
        return isUndeclared(e.name) ? { kind: 'lit', value: 3, float: false } : e
      case 'lit':
        return e
      case 'unary':
        return { ...e, a: fix(e.a) }
      case 'bin':
        return { ...e, a: fix(e.a), b: fix(e.b) }
      case 'select':
        return { ...e, c: fix(e.c), a: fix(e.a), b: fix(e.b) }
      case 'call':
        return { ...e, args: e.args.map(fix) }
    }
  }
  const stmts = k.stmts.map((s) => ({
    ...s,
    value: fix(s.value),
    where: s.where.map((w) => ({ ...w, left: fixAffine(w.left), right: fixAffine(w.right) })),
  }))
  return { ...k, stmts }
}

/**
 * `C[b.., m.., n..] +=! A[..] * B[..]` with operands in any dimension order: what microkernel substitution looks
 * for. Now and then one role has a second index, of a small literal extent (so tensors stay as large as the size
 * picks of the tests expect), and the output's indices are shuffled too: roles flattened or gathered (some with a
 * sliced form); a constant factor (packed into A), a division by a size expression (packed into A too) or by a vector
 * over the output's rows (split off a fresh sum into the tiles, or divided into A while it is gathered), and a
 * triangle of the output (a masked GEMM). Now and then B is itself a chain over new summed indices, `B[k, j] *
 * B2[j, n]` or `B[k, j] * B2[j, i] * B3[i, n]`: three or four factors, run as pairwise contractions along the
 * path each call's sizes favour (candidates that share steps, with four).
 */
function contractionStatement(
  r: Random,
  index: () => string,
  extent: () => string | number,
  newTensor: (dims: readonly (string | number)[], local: boolean) => GenTensor,
  local: boolean,
  integral: boolean,
): GenStmt {
  const batch = r.chance(0.25) ? [index()] : []
  const [m, n, k] = [[index()], [index()], [index()]]
  const ext = new Map<string, string | number>([...batch, ...m, ...n, ...k].map((v) => [v, extent()]))
  const perm = (xs: readonly string[]) => shuffle(r, [...xs])
  const several = r.chance(0.35)
  if (several) {
    const extra = index()
    r.pick([m, n, k]).push(extra)
    ext.set(extra, r.int(2, 3))
  }
  // Now and then n's second index leads C and B and its first ends C: gathered, with a sliced form (ir/nodes.ts).
  const sliceable = n.length === 2 && r.chance(0.5)
  const indices = sliceable
    ? [n[1], ...batch, ...m, n[0]]
    : several && r.chance(0.5) ? perm([...batch, ...m, ...n]) : r.chance(0.15) ? [...batch, ...n, ...m] : [...batch, ...m, ...n]
  const target = newTensor(indices.map((v) => ext.get(v)!), local)
  const aIx = perm([...batch, ...m, ...k])
  const bIx = sliceable ? [n[1], ...perm([...batch, ...k, n[0]])] : perm([...batch, ...k, ...n])
  const read = (ix: readonly string[]): GenExpr => {
    const t = newTensor(ix.map((v) => ext.get(v)!), false)
    return { kind: 'read', tensor: t.name, index: ix.map(plain) }
  }
  // The chain's summed indices, from k to n: B[k, j1] * B2[j1, j2] * ... * Bn[jn, n].
  const chain = !sliceable && r.chance(0.15) ? Array.from({ length: r.chance(0.4) ? 2 : 1 }, index) : []
  for (const j of chain) ext.set(j, extent())
  const links = [k, ...chain.map((j) => [j]), n]
  const bRead = chain.length > 0
    ? links.slice(1).map((to, l) => read(perm([...batch, ...links[l], ...to]))).reduce((x, y) => bin('*', x, y))
    : read(bIx)
  let value: GenExpr = bin('*', read(aIx), bRead)
  if (r.chance(0.2)) value = bin('*', value, lit(r.pick(integral ? [2, -1] : [2, 0.5, -1])))
  if (!integral && r.chance(0.15)) {
    const size = ext.get(k[0])!
    value = bin('/', value, typeof size === 'string' ? { kind: 'call', fn: 'sqrt', args: [{ kind: 'var', name: size }] } : lit(size))
  }
  if (!integral && r.chance(0.15)) value = bin('/', value, read([...m]))
  // Now and then a triangle or band of the output (a masked GEMM when m and n are one index each).
  const where: GenWhere[] = r.chance(0.2)
    ? [{ left: plain(n[0]), op: r.pick(['<=', '<', '>='] as const), right: affine([{ v: m[0], c: 1 }], r.int(-1, 2)) }]
    : []
  return { target: target.name, indices, op: '+=', init: r.chance(0.85), value, where }
}

/**
 * A convolution or pooling window: `O[b, p, q] op I[b, s*p + r - pad, s*q + t - pad] * F[r, t]` with strides,
 * padding (reads before and after the input), filters of literal or symbolic size, or `where r < 2` windows.
 */
function windowStatement(
  r: Random,
  index: () => string,
  extent: () => string | number,
  newTensor: (dims: readonly (string | number)[], local: boolean) => GenTensor,
  local: boolean,
  sizes: readonly string[],
): GenStmt {
  const spatial = r.int(1, 2)
  const batch = r.chance(0.5) ? [index()] : []
  const outs = Array.from({ length: spatial }, index)
  const taps = Array.from({ length: spatial }, index)
  const ext = new Map<string, string | number>([...batch, ...outs].map((v) => [v, extent()]))
  const stride = r.pick([1, 1, 2, 3])
  const pad = r.pick([0, 1, 1, 2])
  const window = r.pick([2, 3, 3, 5])
  const pooling = r.chance(0.35)
  const target = newTensor([...batch, ...outs].map((v) => ext.get(v)!), local)
  const input = newTensor([...batch.map((v) => ext.get(v)!), ...outs.map(() => r.pick(sizes))], false)
  const read: GenExpr = {
    kind: 'read',
    tensor: input.name,
    index: [...batch.map(plain), ...outs.map((p, d) => affine([{ v: p, c: stride }, { v: taps[d], c: 1 }], -pad))],
  }
  const where: GenWhere[] = []
  let value: GenExpr = read
  if (pooling) {
    for (const t of taps) where.push({ left: plain(t), op: '<', right: affine([], window) })
  } else {
    const filter = newTensor(taps.map(() => (r.chance(0.7) ? window : r.pick(sizes))), false)
    value = bin('*', read, { kind: 'read', tensor: filter.name, index: taps.map(plain) })
  }
  const op: AssignOp = pooling ? r.pick(['max=', 'min=', '+='] as const) : r.pick(['+=', '+=', 'max='] as const)
  return { target: target.name, indices: [...batch, ...outs], op, init: true, value, where }
}

interface StatementContext {
  readonly r: Random
  readonly dtype: DType
  readonly target: GenTensor | undefined
  readonly index: () => string
  readonly extent: () => string | number
  readonly newTensor: (dims: readonly (string | number)[], local: boolean) => GenTensor
  readonly local: boolean
  readonly tensors: readonly GenTensor[]
  readonly mags: ReadonlyMap<string, Mag>
  readonly written: readonly string[]
  readonly sizes: readonly string[]
}

function randomStatement(ctx: StatementContext): GenStmt {
  const { r, dtype, index, extent } = ctx
  const existing = ctx.target
  const rank = existing ? existing.dims.length : r.weighted([0.15, 0.35, 0.35, 0.15])
  const outIx = Array.from({ length: rank }, index)
  const ext = new Map<string, string | number>(outIx.map((v, d) => [v, existing ? existing.dims[d] : extent()]))
  const op: AssignOp = r.pick(['=', '=', '=', '+=', '+=', '+=', 'max=', 'min=', '*='] as const)
  const reduced = op === '=' ? [] : Array.from({ length: r.weighted([0.2, 0.55, 0.25]) }, index)
  // A float product over a long reduction overflows in one order and underflows in another, Infinity · 0 = NaN on one
  // path and ±Infinity on the other (docs/language.md allows it): its reduced indices run over 3 points, drawn as
  // before so that the rest of a seed's corpus stays as it was.
  for (const v of reduced) {
    const drawn = extent()
    ext.set(v, op === '*=' && dtype !== 'i32' && typeof drawn !== 'number' ? 3 : drawn)
  }
  const domain = [...outIx, ...reduced]
  const target = existing ?? ctx.newTensor(outIx.map((v) => ext.get(v)!), ctx.local)

  const ranged = new Set<string>(outIx)
  const leaves: Node[] = []
  const readable = ctx.tensors.filter((t) => t !== target && !(t.local && !ctx.written.includes(t.name)))
  const readCount = r.weighted([0.35, 0.4, 0.25]) + 1
  for (let n = 0; n < readCount; n++) {
    const reuse = readable.length > 0 && r.chance(ctx.written.length > 0 && n === 0 ? 0.8 : 0.3)
    const t = reuse ? r.pick(readable) : undefined
    const read = readOf(r, t, domain, ext, ranged, extent, ctx.sizes)
    const tensor = t ?? ctx.newTensor(read.dims, false)
    const e: GenExpr = { kind: 'read', tensor: tensor.name, index: read.index }
    leaves.push({ e, mag: ctx.mags.get(tensor.name) ?? (dtype === 'i32' ? 100 : 1), exact: true })
  }
  // An in-place update may read its own output, at exactly its own indices.
  if (op === '=' && existing && r.chance(0.6)) {
    leaves.push({ e: { kind: 'read', tensor: target.name, index: outIx.map(plain) }, mag: ctx.mags.get(target.name) ?? 1, exact: true })
  }
  const where: GenWhere[] = []
  const boundOf = (v: string): GenAffine => {
    const x = ext.get(v)!
    return typeof x === 'number' ? affine([], x) : plain(x)
  }
  const used = new Set(leaves.flatMap((l) => readsOf(l.e).flatMap((x) => x.index.flatMap((a) => a.terms.map((t) => t.v)))))
  for (const v of reduced) {
    if (!ranged.has(v)) where.push({ left: plain(v), op: r.chance(0.8) ? '<' : '<=', right: r.chance(0.8) ? boundOf(v) : { ...boundOf(v), k: boundOf(v).k - 1 } })
  }
  for (const v of outIx) {
    if (used.has(v)) continue
    if (r.chance(0.5)) leaves.push({ e: { kind: 'var', name: v }, mag: 40, exact: true })
    else where.push({ left: plain(v), op: '<', right: boundOf(v) })
  }
  if (domain.length >= 2 && r.chance(0.2)) {
    const [a, b] = [r.pick(domain), r.pick(domain)]
    const op = r.pick(['<', '<=', '>', '>=', '=='] as const)
    where.push({ left: affine([{ v: a, c: r.pick([1, 1, 2]) }], r.int(-1, 1)), op, right: a === b ? boundOf(a) : plain(b) })
  }
  // Extra leaves: literals, indices and sizes as values.
  const extras = r.weighted([0.5, 0.35, 0.15])
  for (let n = 0; n < extras; n++) leaves.push(r.chance(0.5) || domain.length === 0 ? literal(r, dtype) : varLeaf(r, domain, ctx.sizes))
  const value = combine(r, dtype, leaves)
  return { target: target.name, indices: outIx, op, init: op !== '=' && r.chance(existing ? 0.5 : 0.8), value: value.e, where }
}

/** How a read indexes each dimension: an index alone (giving it a range), an affine form, or a constant. */
function readOf(
  r: Random,
  t: GenTensor | undefined,
  domain: readonly string[],
  ext: ReadonlyMap<string, string | number>,
  ranged: Set<string>,
  extent: () => string | number,
  sizes: readonly string[],
): { index: GenAffine[]; dims: (string | number)[] } {
  const rank = t ? t.dims.length : r.weighted([0.1, 0.35, 0.4, 0.15])
  const index: GenAffine[] = []
  const dims: (string | number)[] = []
  for (let d = 0; d < rank; d++) {
    const want = t?.dims[d]
    const fits = domain.filter((v) => want === undefined || ext.get(v) === want)
    const unranged = fits.filter((v) => !ranged.has(v))
    const mode = r.weighted([0.6, 0.25, 0.15])
    if (fits.length > 0 && (mode === 0 || (unranged.length > 0 && r.chance(0.5)))) {
      const v = unranged.length > 0 && r.chance(0.7) ? r.pick(unranged) : r.pick(fits)
      ranged.add(v)
      index.push(plain(v))
      dims.push(ext.get(v)!)
    } else if (mode === 1 && domain.length > 0) {
      const a = r.pick(domain)
      const b = r.pick(domain)
      const terms = [{ v: a, c: r.pick([1, 1, 2, -1]) }]
      if (b !== a && r.chance(0.5)) terms.push({ v: b, c: r.pick([1, 1, 2]) })
      const dim = want ?? extent()
      // `N - 1 - i`: a reversed read, in range exactly when i is.
      if (typeof dim === 'string' && terms.length === 1 && r.chance(0.3) && sizes.includes(dim) && ext.get(a) === dim) {
        index.push(affine([{ v: dim, c: 1 }, { v: a, c: -1 }], -1))
      } else {
        // Never the index alone: that would propose this dimension as its range.
        const k = r.int(-2, 2)
        index.push(affine(terms, terms.length === 1 && terms[0].c === 1 && k === 0 ? 1 : k))
      }
      dims.push(dim)
    } else {
      const dim = want ?? extent()
      index.push(affine([], r.int(0, 2)))
      dims.push(dim)
    }
  }
  return { index, dims }
}

function literal(r: Random, dtype: DType): Node {
  if (dtype === 'i32') {
    const value = r.chance(0.1) ? r.pick([-2147483648, 2147483647, -1, 0, 65536]) : r.int(-9, 9)
    return { e: { kind: 'lit', value, float: false }, mag: Math.abs(value), exact: true }
  }
  const value = r.pick([0.5, 2, 3, -1, 0.25, 1.5, -0.75, 1e-3])
  return { e: { kind: 'lit', value, float: r.chance(0.5) || !Number.isInteger(value) }, mag: Math.abs(value), exact: true }
}

function varLeaf(r: Random, domain: readonly string[], sizes: readonly string[]): Node {
  const name = r.chance(0.7) || sizes.length === 0 ? r.pick(domain) : r.pick(sizes)
  return { e: { kind: 'var', name }, mag: 40, exact: true }
}

const lit = (value: number): GenExpr => ({ kind: 'lit', value, float: !Number.isInteger(value) })
const call = (fn: Extract<GenExpr, { kind: 'call' }>['fn'], ...args: GenExpr[]): GenExpr => ({ kind: 'call', fn, args })
const bin = (op: BinaryOp, a: GenExpr, b: GenExpr): GenExpr => ({ kind: 'bin', op, a, b })
/** `abs(x) + 1`: at least 1, so dividing by it or taking its log or root is well conditioned. */
const atLeastOne = (x: GenExpr) => bin('+', call('abs', x), lit(1))

/** Folds the leaves into one value with random operators, every leaf used at least once. */
function combine(r: Random, dtype: DType, leaves: readonly Node[]): Node {
  const exacts = leaves.filter((l) => l.exact)
  const pool = [...leaves]
  if (pool.length === 0) pool.push(literal(r, dtype))
  while (pool.length > 1) {
    const a = pool.splice(r.int(0, pool.length - 1), 1)[0]
    const b = pool.splice(r.int(0, pool.length - 1), 1)[0]
    pool.push(maybeWrap(r, dtype, dtype === 'i32' ? intBinary(r, a, b, exacts) : floatBinary(r, a, b, exacts), exacts))
  }
  return maybeWrap(r, dtype, pool[0], exacts)
}

/** A condition over exact values only: a comparison, sometimes negated or joined with another. */
function condition(r: Random, exacts: readonly Node[], dtype: DType): GenExpr {
  const compare = (): GenExpr => {
    const [a, b] = [r.pick(exacts).e, r.chance(0.3) ? lit(r.pick(dtype === 'i32' ? [0, 1, -1] : [0, 1, 0.5])) : r.pick(exacts).e]
    return bin(r.pick(['<', '<=', '>', '>=', '==', '!='] as const), a, b)
  }
  let c = compare()
  if (r.chance(0.25)) c = bin(r.pick(['&&', '||'] as const), c, compare())
  if (r.chance(0.15)) c = { kind: 'unary', op: '!', a: c }
  return c
}

function floatBinary(r: Random, a: Node, b: Node, exacts: readonly Node[]): Node {
  const choice = r.weighted([3, 2, 3, 1.5, 1, 1, 1, 0.7])
  switch (choice) {
    case 0:
      return { e: bin('+', a.e, b.e), mag: a.mag + b.mag, exact: false }
    case 1:
      return { e: bin('-', a.e, b.e), mag: a.mag + b.mag, exact: false }
    case 2:
      return { e: bin('*', a.e, b.e), mag: a.mag * b.mag, exact: false }
    case 3:
      return { e: bin('/', a.e, atLeastOne(b.e)), mag: a.mag, exact: false }
    case 4:
      return { e: call(r.chance(0.5) ? 'max' : 'min', a.e, b.e), mag: Math.max(a.mag, b.mag), exact: false }
    case 5:
      return { e: { kind: 'select', c: condition(r, exacts, 'f32'), a: a.e, b: b.e }, mag: Math.max(a.mag, b.mag), exact: false }
    case 6:
      // fmod of exact operands is exact; of anything else it is discontinuous, so fall back to a sum. So is fmod of a
      // read without a bound (a product's result, reassociated natively: a rounding of 1e11 moves its remainder).
      // A divisor that is an index is 0 at the first point: `x % (i + 1)` keeps NaN out of most outputs.
      if (a.exact && b.exact && Number.isFinite(a.mag)) return { e: bin('%', a.e, b.e.kind === 'var' ? bin('+', b.e, lit(1)) : b.e), mag: a.mag, exact: false }
      return { e: bin('+', a.e, b.e), mag: a.mag + b.mag, exact: false }
    default:
      return { e: bin('-', a.e, { kind: 'unary', op: '-', a: b.e }), mag: a.mag + b.mag, exact: false }
  }
}

function intBinary(r: Random, a: Node, b: Node, exacts: readonly Node[]): Node {
  const ops = ['+', '-', '*', '/', '%', 'max', 'min', '?'] as const
  const op = ops[r.weighted([3, 2, 3, 1.5, 1.5, 1, 1, 1])]
  const e: GenExpr =
    op === 'max' || op === 'min' ? call(op, a.e, b.e)
    : op === '?' ? { kind: 'select', c: condition(r, exacts, 'i32'), a: a.e, b: b.e }
    : bin(op, a.e, b.e)
  return { e, mag: Infinity, exact: false }
}

/** Sometimes wraps a value in a unary operator or a built-in that keeps it well conditioned. */
function maybeWrap(r: Random, dtype: DType, x: Node, exacts: readonly Node[]): Node {
  if (!r.chance(0.3)) return x
  if (dtype === 'i32') {
    const e = r.chance(0.5) ? call('abs', x.e) : r.chance(0.5) ? { kind: 'unary' as const, op: '-' as const, a: x.e }
      : { kind: 'select' as const, c: condition(r, exacts, 'i32'), a: x.e, b: lit(r.int(-3, 3)) }
    return { e, mag: Infinity, exact: false }
  }
  const small = x.mag <= 4
  switch (r.int(0, 7)) {
    case 0:
      return { e: { kind: 'unary', op: '-', a: x.e }, mag: x.mag, exact: x.exact }
    case 1:
      return { e: call('abs', x.e), mag: x.mag, exact: x.exact }
    case 2:
      return small ? { e: call('exp', x.e), mag: Math.exp(x.mag), exact: false } : { e: call('tanh', x.e), mag: 1, exact: false }
    case 3:
      return { e: call('log', atLeastOne(x.e)), mag: Math.log(x.mag + 1), exact: false }
    case 4:
      return { e: call('sqrt', atLeastOne(x.e)), mag: Math.sqrt(x.mag + 1), exact: false }
    case 5:
      return { e: call('tanh', x.e), mag: 1, exact: false }
    case 6:
      return { e: call('sigmoid', x.e), mag: 1, exact: false }
    default: {
      const p = r.pick([0.5, 2, -1, 1.5])
      if (x.mag > 8 && p > 1) return { e: call('sigmoid', x.e), mag: 1, exact: false }
      return { e: call('pow', atLeastOne(x.e), lit(p)), mag: Math.pow(x.mag + 1, Math.max(p, 0)), exact: false }
    }
  }
}

/** A bound on the target's values after the statement: reductions grow sums and products. */
function magAfter(s: GenStmt, mags: ReadonlyMap<string, Mag>): Mag {
  const reads = readsOf(s.value).map((x) => mags.get(x.tensor) ?? 1)
  const value = Math.max(1, ...reads) * 4
  const old = mags.get(s.target) ?? 1
  switch (s.op) {
    case '=':
      return value
    case '+=':
      return value * 40 * 40 + (s.init ? 0 : old)
    case '*=':
      return value <= 1 ? 1 : Infinity
    default:
      return Math.max(value, old)
  }
}

/** `count` kernels named `${prefix}${n}`, from one seed. */
export function generateKernels(seed: number, count: number, prefix = 'fz', options: GenerateOptions = {}): GenKernel[] {
  const r = random(seed)
  return Array.from({ length: count }, (_, n) => generateKernel(r, `${prefix}${n}`, options))
}
