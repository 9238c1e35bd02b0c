/**
 * One-step simplifications of a failing kernel and its sizes, smallest change first: drop a statement, replace a
 * subexpression by one of its operands or a literal, drop a `where` clause or an `!`, simplify an index, rename a
 * tensor, size or index to a plain name, lower a size. `shrink` keeps the smallest candidate that still fails until
 * none does; candidates the checker rejects simply do not fail.
 */
import type { DType } from '../../plugin/spec/ast.ts'
import {
  affine,
  kernelSize,
  readsOf,
  sizesOf,
  type GenAffine,
  type GenExpr,
  type GenKernel,
  type GenStmt,
} from './model.ts'

export interface ShrinkState {
  readonly kernel: GenKernel
  readonly sizes: ReadonlyMap<string, number>
}

/** Evaluates a round of candidates at once (one addon build for all of them); returns the indices that still fail. */
export type FailingAmong = (candidates: readonly ShrinkState[]) => Promise<ReadonlySet<number>>

/** Greedy shrinking: at most `rounds` rounds, each keeping the smallest failing candidate. */
export async function shrink(start: ShrinkState, failing: FailingAmong, rounds = 40): Promise<ShrinkState> {
  let current = start
  for (let round = 0; round < rounds; round++) {
    const candidates = [...kernelCandidates(current), ...sizeCandidates(current)]
    const unique = dedupe(candidates)
    if (unique.length === 0) break
    const failed = await failing(unique)
    const best = [...failed].map((n) => unique[n]).sort((a, b) => weight(a) - weight(b))[0]
    if (best === undefined || weight(best) >= weight(current)) break
    current = best
  }
  return current
}

const weight = (s: ShrinkState) => kernelSize(s.kernel) * 1000 + [...s.sizes.values()].reduce((a, b) => a + b, 0)

function dedupe(candidates: readonly ShrinkState[]): ShrinkState[] {
  const seen = new Set<string>()
  return candidates.filter((c) => {
    const key = JSON.stringify([c.kernel, [...c.sizes]])
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

function sizeCandidates(s: ShrinkState): ShrinkState[] {
  return [...s.sizes].flatMap(([name, v]) =>
    [...new Set([1, Math.floor(v / 2), v - 1])].filter((x) => x >= 1 && x < v).map((x) => ({ kernel: s.kernel, sizes: new Map([...s.sizes, [name, x]]) })))
}

/** Every one-step simplification of the kernel, cleaned of tensors and sizes nothing uses any more. */
export function kernelCandidates({ kernel: k, sizes }: ShrinkState): ShrinkState[] {
  const out: GenKernel[] = []
  const withStmt = (n: number, s: GenStmt): GenKernel => ({ ...k, stmts: k.stmts.map((x, m) => (m === n ? s : x)) })
  if (k.stmts.length > 1) k.stmts.forEach((_, n) => out.push({ ...k, stmts: k.stmts.filter((__, m) => m !== n) }))
  k.stmts.forEach((s, n) => {
    const dtype = k.tensors.find((t) => t.name === s.target)?.dtype ?? 'f32'
    for (const value of exprCandidates(s.value, dtype)) out.push(withStmt(n, { ...s, value }))
    s.where.forEach((_, w) => out.push(withStmt(n, { ...s, where: s.where.filter((__, x) => x !== w) })))
    if (s.init) out.push(withStmt(n, { ...s, init: false }))
    if (s.op !== '=' && s.op !== '+=') out.push(withStmt(n, { ...s, op: '+=' }))
  })
  const same = out.map((kernel) => ({ kernel: cleanup(kernel), sizes }))
  const renamed = renames(k).map(([from, to]) => ({
    kernel: cleanup(rename(k, from, to)),
    sizes: new Map([...sizes].map(([s, v]) => [s === from ? to : s, v])),
  }))
  return [...same, ...renamed]
}

/** Plain names for hostile or long ones, so the regression test reads easily (and shows whether the name mattered). */
function renames(k: GenKernel): [string, string][] {
  const taken = new Set([...k.tensors.map((t) => t.name), ...sizesOf(k), ...k.stmts.flatMap(indicesOf)])
  const plainName = (base: string) => {
    for (let n = 0; ; n++) if (!taken.has(`${base}${n}`)) return `${base}${n}`
  }
  const isPlain = (name: string, base: RegExp) => base.test(name)
  return [
    ...k.tensors.filter((t) => !isPlain(t.name, /^T\d+$/)).map((t) => [t.name, plainName('T')] as [string, string]),
    ...sizesOf(k).filter((s) => !isPlain(s, /^N\d+$/)).map((s) => [s, plainName('N')] as [string, string]),
    ...[...new Set(k.stmts.flatMap(indicesOf))].filter((v) => !isPlain(v, /^i\d+$/)).map((v) => [v, plainName('i')] as [string, string]),
  ]
}

function indicesOf(s: GenStmt): string[] {
  const vars = (a: GenAffine) => a.terms.map((t) => t.v)
  return [...s.indices, ...readsOf(s.value).flatMap((r) => r.index.flatMap(vars)), ...s.where.flatMap((w) => [...vars(w.left), ...vars(w.right)])]
}

function rename(k: GenKernel, from: string, to: string): GenKernel {
  const n = (x: string) => (x === from ? to : x)
  const a = (x: GenAffine): GenAffine => ({ ...x, terms: x.terms.map((t) => ({ ...t, v: n(t.v) })) })
  const e = (x: GenExpr): GenExpr => {
    switch (x.kind) {
      case 'read': return { ...x, tensor: n(x.tensor), index: x.index.map(a) }
      case 'lit': return x
      case 'var': return { ...x, name: n(x.name) }
      case 'unary': return { ...x, a: e(x.a) }
      case 'bin': return { ...x, a: e(x.a), b: e(x.b) }
      case 'select': return { ...x, c: e(x.c), a: e(x.a), b: e(x.b) }
      case 'call': return { ...x, args: x.args.map(e) }
    }
  }
  return {
    ...k,
    tensors: k.tensors.map((t) => ({ ...t, name: n(t.name), dims: t.dims.map((d) => (typeof d === 'string' ? n(d) : d)) })),
    params: k.params.map(n),
    stmts: k.stmts.map((s) => ({
      ...s,
      target: n(s.target),
      indices: s.indices.map(n),
      value: e(s.value),
      where: s.where.map((w) => ({ ...w, left: a(w.left), right: a(w.right) })),
    })),
  }
}

/** Replacements of one node of `e`: by an operand, by a literal, or an index made simpler. */
function exprCandidates(e: GenExpr, dtype: DType): GenExpr[] {
  const literals: GenExpr[] = [{ kind: 'lit', value: 1, float: false }, { kind: 'lit', value: 0, float: false }]
  const here: GenExpr[] = e.kind === 'lit' ? [] : e.kind === 'var' ? literals : [...childrenOf(e), ...literals]
  if (e.kind === 'read') here.push(...readCandidates(e))
  const deeper = (() => {
    switch (e.kind) {
      case 'read':
      case 'lit':
      case 'var':
        return []
      case 'unary':
        return exprCandidates(e.a, dtype).map((a) => ({ ...e, a }))
      case 'bin':
        return [...exprCandidates(e.a, dtype).map((a) => ({ ...e, a })), ...exprCandidates(e.b, dtype).map((b) => ({ ...e, b }))]
      case 'select':
        return [
          ...exprCandidates(e.c, dtype).map((c) => ({ ...e, c })),
          ...exprCandidates(e.a, dtype).map((a) => ({ ...e, a })),
          ...exprCandidates(e.b, dtype).map((b) => ({ ...e, b })),
        ]
      case 'call':
        return e.args.flatMap((arg, n) => exprCandidates(arg, dtype).map((x) => ({ ...e, args: e.args.map((y, m) => (m === n ? x : y)) })))
    }
  })()
  return [...here, ...deeper]
}

function readCandidates(e: Extract<GenExpr, { kind: 'read' }>): GenExpr[] {
  return e.index.flatMap((ix, d) => {
    const options: GenAffine[] = []
    if (ix.k !== 0) options.push({ ...ix, k: 0 })
    if (ix.terms.length > 1) ix.terms.forEach((_, t) => options.push(affine(ix.terms.filter((__, u) => u !== t), ix.k)))
    if (ix.terms.some((t) => t.c !== 1)) options.push(affine(ix.terms.map((t) => ({ ...t, c: 1 })), ix.k))
    return options.map((o) => ({ ...e, index: e.index.map((x, m) => (m === d ? o : x)) }))
  })
}

function childrenOf(e: GenExpr): GenExpr[] {
  switch (e.kind) {
    case 'unary': return [e.a]
    case 'bin': return [e.a, e.b]
    case 'select': return [e.a, e.b]
    case 'call': return [...e.args]
    default: return []
  }
}

/** Drops tensors no statement mentions any more, and the parameters of tensors and sizes that are gone. */
export function cleanup(k: GenKernel): GenKernel {
  const used = new Set(k.stmts.flatMap((s) => [s.target, ...readsOf(s.value).map((r) => r.tensor)]))
  const tensors = k.tensors.filter((t) => used.has(t.name))
  const kept = { ...k, tensors }
  const names = new Set([...tensors.filter((t) => !t.local).map((t) => t.name), ...sizesOf(kept)])
  return { ...kept, params: k.params.filter((p) => names.has(p)) }
}
