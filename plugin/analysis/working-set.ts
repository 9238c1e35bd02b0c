/**
 * PolyDL Algorithm 1 without ISL: the exact (not transitive) RAR/RAW/WAR/WAW dependences of a rectangular loop
 * nest, and per dependence the number of distinct elements touched between its representative source and its
 * first (WS_min) and last (WS_max) target, or by all iterations of the parallel loop it spans (WS_par).
 *
 * Two ways to count, kept side by side and tested against each other: a closed form when every access to a tensor
 * is one injective map (each dimension a mixed-radix sum of its own loops: plain indices, and the `T*it + ii` of a
 * tiled nest), and exact enumeration with a budget for everything else. Past the budget a footprint becomes an
 * upper bound (`exact: false`) and a dependence is left out, with a note.
 */
import { internalAssert, KernelInternalError } from '../diagnostics.ts'
import { equal } from '../ir/affine.ts'
import type { Affine } from '../ir/nodes.ts'
import type { DependenceKind } from './deps.ts'
import type { LoopNest, NestAccess } from './loop-nest.ts'

/** An iteration: one value per loop, outermost first. */
export type Point = readonly number[]

export type CountMethod = 'auto' | 'closed' | 'enumerate'

/** Element visits enumeration may spend on one footprint or one dependence. */
export const ENUMERATION_BUDGET = 4_000_000

export interface Footprint {
  /** Distinct elements per tensor. */
  readonly perTensor: ReadonlyMap<string, number>
  readonly elements: number
  readonly bytes: number
  /** False when some tensor's count is an upper bound (enumeration over budget). */
  readonly exact: boolean
}

export interface ReuseDependence {
  readonly kind: DependenceKind
  readonly tensor: string
  /** lexmin of the dependence's domain: PolyDL's representative source. */
  readonly source: Point
  /** lexmin and lexmax of the source's targets. */
  readonly firstTarget: Point
  readonly lastTarget: Point
  /** Some target runs in another iteration of the outermost parallel loop (outer loops equal). */
  readonly spansParallel: boolean
}

export interface WorkingSet {
  readonly kind: 'min' | 'max' | 'parallel'
  /** The lexicographic interval of iterations whose data must stay in cache. */
  readonly from: Point
  readonly to: Point
  readonly footprint: Footprint
  /** The dependences it serves (equal intervals are counted once: they are the same data). */
  readonly dependences: readonly ReuseDependence[]
}

export interface WorkingSetAnalysis {
  readonly dependences: readonly ReuseDependence[]
  readonly workingSets: readonly WorkingSet[]
  readonly notes: readonly string[]
}

/** Algorithm 1: every working set of the nest, in the order their dependences were found. */
export function workingSets(nest: LoopNest, method: CountMethod = 'auto'): WorkingSetAnalysis {
  if (nest.loops.some((l) => l.extent === 0)) {
    return { dependences: [], workingSets: [], notes: ['the nest runs no iteration'] }
  }
  const plan = planOf(nest)
  const notes: string[] = []
  const dependences = plan.tensors.flatMap((t) => dependencesOf(plan, t, method, notes))
  const p = nest.loops.findIndex((l) => l.parallel)
  const intervals: { kind: WorkingSet['kind']; from: Point; to: Point; deps: ReuseDependence[] }[] = []
  const add = (kind: WorkingSet['kind'], from: Point, to: Point, d: ReuseDependence) => {
    const same = intervals.find((w) => w.kind === kind && compareLex(w.from, from) === 0 && compareLex(w.to, to) === 0)
    if (same) same.deps.push(d)
    else intervals.push({ kind, from, to, deps: [d] })
  }
  for (const d of dependences) {
    if (d.spansParallel) {
      // PolyDL lines 6-9: loops outside the parallel one fixed (at the source), everything inside it counted.
      const head = d.source.slice(0, p)
      const tail = nest.loops.slice(p)
      add('parallel', [...head, ...tail.map(() => 0)], [...head, ...tail.map((l) => l.extent - 1)], d)
    } else {
      add('min', d.source, d.firstTarget, d)
      add('max', d.source, d.lastTarget, d)
    }
  }
  const sets = intervals.map((w) => ({
    kind: w.kind,
    from: w.from,
    to: w.to,
    footprint: countInterval(plan, w.from, w.to, method),
    dependences: w.deps,
  }))
  return { dependences, workingSets: sets, notes }
}

/** Distinct elements all accesses touch over the iterations `from` to `to` (inclusive, lexicographic order). */
export function footprint(nest: LoopNest, from: Point, to: Point, method: CountMethod = 'auto'): Footprint {
  return countInterval(planOf(nest), from, to, method)
}

/** Exact dependences of the nest, one per ordered pair of accesses to a tensor (source access first). */
export function reuseDependences(nest: LoopNest, method: CountMethod = 'auto'): readonly ReuseDependence[] {
  if (nest.loops.some((l) => l.extent === 0)) return []
  const plan = planOf(nest)
  return plan.tensors.flatMap((t) => dependencesOf(plan, t, method, []))
}

// ---------------------------------------------------------------------------------------------------------------
// Per-nest preparation: accesses grouped by tensor, each distinct map with a linear element key.

interface Key {
  readonly base: number
  readonly coef: readonly number[]
}

interface Plan {
  readonly extents: readonly number[]
  readonly parallel: number
  readonly tensors: readonly TensorPlan[]
}

interface TensorPlan {
  readonly tensor: string
  readonly bytes: number
  readonly accesses: readonly NestAccess[]
  /** Distinct index maps, and each dimension of each as one coefficient per loop. */
  readonly maps: readonly (readonly Affine[])[]
  readonly dims: readonly (readonly (readonly number[])[])[]
  /** Per map, the loops it depends on when it is injective in them (the closed forms apply), else undefined. */
  readonly supports: readonly (readonly boolean[] | undefined)[]
}

function planOf(nest: LoopNest): Plan {
  const position = new Map(nest.loops.map((l, q) => [l.name, q]))
  const extents = nest.loops.map((l) => l.extent)
  if (!extents.every((e) => Number.isInteger(e) && e >= 1)) {
    throw new KernelInternalError('analysis', `loop extents ${extents}`)
  }
  const byTensor = new Map<string, NestAccess[]>()
  for (const a of nest.accesses) {
    const list = byTensor.get(a.tensor)
    if (list) list.push(a)
    else byTensor.set(a.tensor, [a])
  }
  const coefOf = (tensor: string, e: Affine) => {
    const coef = extents.map(() => 0)
    for (const t of e.terms) {
      const q = position.get(t.v)
      if (q === undefined) throw new KernelInternalError('analysis', `${tensor}: '${t.v}' is no loop`)
      coef[q] = t.coeff
    }
    return coef
  }
  const tensors = [...byTensor].map(([tensor, accesses]): TensorPlan => {
    const bytes = nest.elementBytes.get(tensor)
    internalAssert(bytes !== undefined, 'analysis', `no element size for tensor ${tensor}`)
    const maps: (readonly Affine[])[] = []
    for (const a of accesses) if (!maps.some((m) => sameMap(m, a.index))) maps.push(a.index)
    const dims = maps.map((m) => m.map((e) => coefOf(tensor, e)))
    return { tensor, bytes, accesses, maps, dims, supports: dims.map((m) => injectiveSupport(m, extents)) }
  })
  return { extents, parallel: nest.loops.findIndex((l) => l.parallel), tensors }
}

/** Per map of the tensor, an element key `base + Σ coef[q]·x[q]`: row-major over each dimension's whole range. */
function keysOf(t: TensorPlan, extents: readonly number[]): Key[] {
  const lo: number[] = []
  const span: number[] = []
  t.maps[0].forEach((_, d) => {
    const ranges = t.maps.map((m, n) => rangeOver(t.dims[n][d], m[d].constant, extents))
    lo.push(Math.min(...ranges.map((r) => r[0])))
    span.push(Math.max(...ranges.map((r) => r[1])) - lo[d] + 1)
  })
  const stride = span.map((_, d) => span.slice(d + 1).reduce((x, y) => x * y, 1))
  return t.maps.map((m, n) => {
    const coef = extents.map(() => 0)
    let base = 0
    m.forEach((e, d) => {
      t.dims[n][d].forEach((c, q) => (coef[q] += c * stride[d]))
      base += (e.constant - lo[d]) * stride[d]
    })
    return { base, coef }
  })
}

const sameMap = (x: readonly Affine[], y: readonly Affine[]): boolean =>
  x.length === y.length && x.every((e, d) => equal(e, y[d]))

function rangeOver(coef: readonly number[], c: number, extents: readonly number[]): [number, number] {
  let lo = c
  let hi = c
  coef.forEach((k, q) => (k < 0 ? (lo += k * (extents[q] - 1)) : (hi += k * (extents[q] - 1))))
  return [lo, hi]
}

/**
 * The loops an index map depends on, when it is injective in them: loops of extent 1 ignored, every other loop
 * in one dimension only, and each dimension a mixed-radix number (every |coefficient| beyond the reach of the
 * smaller ones). Otherwise undefined.
 */
function injectiveSupport(dims: readonly (readonly number[])[], extents: readonly number[]): boolean[] | undefined {
  const inS = extents.map(() => false)
  for (const coef of dims) {
    const terms = coef
      .map((c, q) => ({ q, c: Math.abs(c) }))
      .filter((t) => t.c !== 0 && extents[t.q] > 1)
      .sort((a, b) => a.c - b.c)
    let reach = 0
    for (const { q, c } of terms) {
      if (inS[q] || c <= reach) return undefined
      inS[q] = true
      reach += c * (extents[q] - 1)
    }
  }
  return inS
}

// ---------------------------------------------------------------------------------------------------------------
// Counting distinct elements over a lexicographic interval.

function countInterval(plan: Plan, from: Point, to: Point, method: CountMethod): Footprint {
  if (compareLex(from, to) > 0) throw new KernelInternalError('analysis', `empty interval [${from}] .. [${to}]`)
  const perTensor = new Map<string, number>()
  let exact = true
  let bytes = 0
  for (const t of plan.tensors) {
    let n: number
    const support = t.maps.length === 1 ? t.supports[0] : undefined
    if (method !== 'enumerate' && support) n = countProjection(support, plan.extents, from, to)
    else {
      internalAssert(method !== 'closed', 'analysis', `no closed form for the accesses of ${t.tensor}`)
      const counted = enumerateInterval(t, plan.extents, from, to)
      n = counted ?? estimateInterval(t, plan.extents, from, to)
      exact &&= counted !== undefined
    }
    perTensor.set(t.tensor, n)
    bytes += n * t.bytes
  }
  const elements = [...perTensor.values()].reduce((x, y) => x + y, 0)
  return { perTensor, elements, bytes, exact }
}

/**
 * |proj_S([s, t])|: the distinct values of the loops in S over the iterations s..t. Walks the loops outside in;
 * the interval splits into "the rest of s's subtree" (up), full middle subtrees, and "the start of t's" (down).
 * A loop outside S merges its values, so the up and down parts of adjacent values overlap (either).
 */
function countProjection(inS: readonly boolean[], E: readonly number[], s: Point, t: Point): number {
  const d = E.length
  const F: number[] = [] // F[q]: distinct values of the S loops among q.. over a full subtree
  F[d] = 1
  for (let q = d - 1; q >= 0; q--) F[q] = inS[q] ? F[q + 1] * E[q] : F[q + 1]
  const up = (q: number): number =>
    q === d ? 1 : inS[q] ? up(q + 1) + (E[q] - 1 - s[q]) * F[q + 1] : s[q] < E[q] - 1 ? F[q + 1] : up(q + 1)
  const down = (q: number): number =>
    q === d ? 1 : inS[q] ? down(q + 1) + t[q] * F[q + 1] : t[q] > 0 ? F[q + 1] : down(q + 1)
  const either = (q: number): number => {
    if (q === d) return 1
    if (!inS[q]) return s[q] < E[q] - 1 || t[q] > 0 ? F[q + 1] : either(q + 1)
    if (t[q] > s[q]) return F[q]
    const full = E[q] - 1 - s[q] + t[q]
    return full * F[q + 1] + (s[q] === t[q] ? either(q + 1) : up(q + 1) + down(q + 1))
  }
  const between = (q: number): number => {
    if (q === d) return 1
    if (s[q] === t[q]) return between(q + 1)
    if (inS[q]) return up(q + 1) + down(q + 1) + (t[q] - s[q] - 1) * F[q + 1]
    return t[q] - s[q] >= 2 ? F[q + 1] : either(q + 1)
  }
  return between(0)
}

interface Box {
  readonly lo: Point
  readonly hi: Point
}

/** The interval [s, t] as at most 2·depth − 1 disjoint boxes. */
export function intervalBoxes(E: readonly number[], s: Point, t: Point): Box[] {
  const d = E.length
  let p = 0
  while (p < d && s[p] === t[p]) p++
  if (p === d) return [{ lo: s, hi: s }]
  const out: Box[] = []
  const box = (prefix: Point, q: number, lo: number, hi: number) => {
    if (lo > hi) return
    const rest = E.slice(q + 1)
    const head = prefix.slice(0, q)
    out.push({ lo: [...head, lo, ...rest.map(() => 0)], hi: [...head, hi, ...rest.map((e) => e - 1)] })
  }
  // The rest of s's subtree and the start of t's join the middle when they are whole subtrees.
  const sWhole = s.every((x, q) => q <= p || x === 0)
  const tWhole = t.every((x, q) => q <= p || x === E[q] - 1)
  if (!sWhole) for (let q = d - 1; q > p; q--) box(s, q, q === d - 1 ? s[q] : s[q] + 1, E[q] - 1)
  box(s, p, sWhole ? s[p] : s[p] + 1, tWhole ? t[p] : t[p] - 1)
  if (!tWhole) for (let q = p + 1; q < d; q++) box(t, q, 0, q === d - 1 ? t[q] : t[q] - 1)
  return out
}

/** Exact count by visiting the image of every box under every map; undefined past the budget. */
function enumerateInterval(t: TensorPlan, E: readonly number[], s: Point, e: Point): number | undefined {
  const boxes = intervalBoxes(E, s, e)
  const keys = keysOf(t, E)
  const work = boxes.reduce((n, b) => n + keys.reduce((m, k) => m + imageVisits(k.coef, b), 0), 0)
  if (work > ENUMERATION_BUDGET) return undefined
  const seen = new Set<number>()
  for (const b of boxes) for (const k of keys) visitImage(k, b, (key) => seen.add(key))
  return seen.size
}

/** Points to visit for the image of a box: only the loops a key depends on vary. */
const imageVisits = (coef: readonly number[], b: Box): number =>
  coef.reduce((n, c, q) => (c === 0 ? n : n * (b.hi[q] - b.lo[q] + 1)), 1)

function visitImage(k: Key, b: Box, visit: (key: number) => void): void {
  const qs = k.coef.flatMap((c, q) => (c !== 0 && b.hi[q] > b.lo[q] ? [q] : []))
  let key = k.base + k.coef.reduce((x, c, q) => x + c * b.lo[q], 0)
  const x = qs.map((q) => b.lo[q])
  for (;;) {
    visit(key)
    let n = qs.length - 1
    while (n >= 0 && x[n] === b.hi[qs[n]]) {
      key -= k.coef[qs[n]] * (x[n] - b.lo[qs[n]])
      x[n] = b.lo[qs[n]]
      n--
    }
    if (n < 0) return
    x[n]++
    key += k.coef[qs[n]]
  }
}

/** Upper bound past the budget: per box and map, each dimension's range capped by the points that reach it. */
function estimateInterval(t: TensorPlan, E: readonly number[], s: Point, e: Point): number {
  let n = 0
  for (const b of intervalBoxes(E, s, e)) {
    for (const dims of t.dims) {
      n += dims.reduce((prod, coef) => {
        let span = 1
        let points = 1
        coef.forEach((c, q) => {
          if (c === 0) return
          span += Math.abs(c) * (b.hi[q] - b.lo[q])
          points *= b.hi[q] - b.lo[q] + 1
        })
        return prod * Math.min(span, points)
      }, 1)
    }
  }
  return n
}

// ---------------------------------------------------------------------------------------------------------------
// Dependences.

const KIND: Readonly<Record<string, DependenceKind>> = {
  'read>read': 'rar',
  'write>read': 'raw',
  'read>write': 'war',
  'write>write': 'waw',
}

type Relation = Omit<ReuseDependence, 'kind' | 'tensor'>

function dependencesOf(plan: Plan, t: TensorPlan, method: CountMethod, notes: string[]): ReuseDependence[] {
  const out: ReuseDependence[] = []
  const solved = new Map<string, Relation | undefined>()
  const mapOf = t.accesses.map((a) => t.maps.findIndex((m) => sameMap(m, a.index)))
  for (const [n, a] of t.accesses.entries()) {
    for (const [m, b] of t.accesses.entries()) {
      const [ma, mb] = [mapOf[n], mapOf[m]]
      const key = `${ma}>${mb}`
      if (!solved.has(key)) solved.set(key, solvePair(plan, t, ma, mb, method, notes))
      const rel = solved.get(key)
      if (rel) out.push({ kind: KIND[`${a.kind}>${b.kind}`], tensor: t.tensor, ...rel })
    }
  }
  return out
}

function solvePair(
  plan: Plan,
  t: TensorPlan,
  ma: number,
  mb: number,
  method: CountMethod,
  notes: string[],
): Relation | undefined {
  const E = plan.extents
  const support = t.supports[ma]
  if (method !== 'enumerate' && ma === mb && support) {
    // x and y touch the same element exactly when they agree on the map's loops: the source is the origin, the
    // targets vary the other loops, the first one by 1 in the innermost of them, the last one to their ends.
    const free = E.map((e, q) => !support[q] && e > 1)
    const inner = free.lastIndexOf(true)
    if (inner < 0) return undefined
    const source = E.map(() => 0)
    const firstTarget = E.map((_, q) => (q === inner ? 1 : 0))
    const lastTarget = E.map((e, q) => (free[q] ? e - 1 : 0))
    return { source, firstTarget, lastTarget, spansParallel: plan.parallel >= 0 && free[plan.parallel] }
  }
  internalAssert(method !== 'closed', 'analysis', `no closed form for the dependences of ${t.tensor}`)
  const total = E.reduce((x, y) => x * y, 1)
  if (total * 3 > ENUMERATION_BUDGET) {
    notes.push(`dependence between two accesses of ${t.tensor} left out: ${total} iterations are too many to enumerate`)
    return undefined
  }
  const keys = keysOf(t, E)
  return enumeratePair(E, plan.parallel, keys[ma], keys[mb])
}

/** Exact relation {x → y : x ≺ y, a(x) = b(y)} by visiting every iteration in lexicographic order. */
function enumeratePair(E: readonly number[], parallel: number, a: Key, b: Key): Relation | undefined {
  const total = E.reduce((x, y) => x * y, 1)
  const keyA = new Float64Array(total)
  const keyB = new Float64Array(total)
  for (let n = 0; n < total; n++) {
    const x = pointOf(n, E)
    keyA[n] = a.base + x.reduce((s, v, q) => s + a.coef[q] * v, 0)
    keyB[n] = b.base + x.reduce((s, v, q) => s + b.coef[q] * v, 0)
  }
  const firstA = new Map<number, number>()
  for (let n = 0; n < total; n++) if (!firstA.has(keyA[n])) firstA.set(keyA[n], n)
  let source = total
  for (let n = 0; n < total; n++) {
    const m = firstA.get(keyB[n])
    if (m !== undefined && m < n && m < source) source = m
  }
  if (source === total) return undefined
  let first = -1
  let last = -1
  let spansParallel = false
  const src = pointOf(source, E)
  for (let n = source + 1; n < total; n++) {
    if (keyB[n] !== keyA[source]) continue
    if (first < 0) first = n
    last = n
    spansParallel ||= parallel >= 0 && firstDifference(src, pointOf(n, E)) === parallel
  }
  return { source: src, firstTarget: pointOf(first, E), lastTarget: pointOf(last, E), spansParallel }
}

function pointOf(n: number, E: readonly number[]): number[] {
  const x = E.map(() => 0)
  for (let q = E.length - 1; q >= 0; q--) {
    x[q] = n % E[q]
    n = Math.floor(n / E[q])
  }
  return x
}

const firstDifference = (x: Point, y: Point): number => x.findIndex((v, q) => v !== y[q])

export function compareLex(x: Point, y: Point): number {
  const q = firstDifference(x, y)
  return q < 0 ? 0 : x[q] - y[q]
}
