/** Constructors and arithmetic on affine forms; every Affine in the IR is built here, so it stays normalised. */
import type { Access, Affine, AffineTerm } from './nodes.ts'

export const constant = (c: number): Affine => ({ terms: [], constant: c })
export const variable = (v: string, coeff = 1): Affine => normalise([{ v, coeff }], 0)

function normalise(terms: readonly AffineTerm[], c: number): Affine {
  const byVar = new Map<string, number>()
  for (const t of terms) byVar.set(t.v, (byVar.get(t.v) ?? 0) + t.coeff)
  const out = [...byVar].filter(([, k]) => k !== 0).map(([v, coeff]) => ({ v, coeff }))
  out.sort((x, y) => (x.v < y.v ? -1 : x.v > y.v ? 1 : 0))
  return { terms: out, constant: c }
}

export function add(a: Affine, b: Affine): Affine {
  return normalise([...a.terms, ...b.terms], a.constant + b.constant)
}

export function scale(a: Affine, k: number): Affine {
  return normalise(a.terms.map((t) => ({ v: t.v, coeff: t.coeff * k })), a.constant * k)
}

export const sub = (a: Affine, b: Affine): Affine => add(a, scale(b, -1))

export const isConstant = (a: Affine): boolean => a.terms.length === 0

export const coeffOf = (a: Affine, v: string): number => a.terms.find((t) => t.v === v)?.coeff ?? 0

export const varsOf = (a: Affine): string[] => a.terms.map((t) => t.v)

/** The index of an access's last (stride-1) dimension, its first term's; '' when it has none. */
export const lastIndex = (a: Access): string => a.index[a.index.length - 1]?.terms[0]?.v ?? ''

export function equal(a: Affine, b: Affine): boolean {
  return (
    a.constant === b.constant &&
    a.terms.length === b.terms.length &&
    a.terms.every((t, i) => t.v === b.terms[i].v && t.coeff === b.terms[i].coeff)
  )
}

/** Replaces variable `v` by the affine form `by`. */
export function substitute(a: Affine, v: string, by: Affine): Affine {
  const k = coeffOf(a, v)
  if (k === 0) return a
  return add(normalise(a.terms.filter((t) => t.v !== v), a.constant), scale(by, k))
}

export function evaluate(a: Affine, env: ReadonlyMap<string, number>): number {
  let s = a.constant
  for (const t of a.terms) {
    const x = env.get(t.v)
    if (x === undefined) throw new Error(`affine variable '${t.v}' has no value`)
    s += t.coeff * x
  }
  return s
}

/** `2*h + r - 1`: the spec's own notation, used by the IR printer and the emitters. */
export function format(a: Affine): string {
  let s = ''
  for (const t of a.terms) {
    const mag = Math.abs(t.coeff)
    const term = mag === 1 ? t.v : `${mag}*${t.v}`
    s += s === '' ? (t.coeff < 0 ? `-${term}` : term) : t.coeff < 0 ? ` - ${term}` : ` + ${term}`
  }
  if (s === '') return String(a.constant)
  if (a.constant > 0) s += ` + ${a.constant}`
  if (a.constant < 0) s += ` - ${-a.constant}`
  return s
}
