/**
 * Polynomials in the size symbols, as lists of monomials (nodes.ts Monomial): the costs a SizeChoice compares at
 * call time. Built from products of affine extents; evaluated in doubles in one fixed order, which the C and JS
 * emitters print the same way, so every runner of a kernel picks the same candidate.
 */
import type { Affine, Monomial, SizeChoice } from './nodes.ts'

/** Π extents, expanded, like terms merged, zero terms dropped; `[]` is the zero polynomial. */
export function productOf(extents: readonly Affine[]): Monomial[] {
  // A monomial as its sorted size names joined by spaces ('' is the constant term), mapped to its coefficient.
  let product = new Map([['', 1]])
  for (const e of extents) {
    const factor = [...e.terms.map((t) => [[t.v], t.coeff] as const), [[], e.constant] as const]
    const next = new Map<string, number>()
    for (const [key, c] of product) {
      for (const [v, k] of factor) {
        if (k === 0) continue
        const merged = [...(key === '' ? [] : key.split(' ')), ...v].sort().join(' ')
        next.set(merged, (next.get(merged) ?? 0) + c * k)
      }
    }
    product = next
  }
  return monomials(product)
}

/** The sum, like terms merged, in the order the terms first appear. */
export function sumOf(polys: readonly (readonly Monomial[])[]): Monomial[] {
  const total = new Map<string, number>()
  for (const [c, ...vars] of polys.flat()) total.set(vars.join(' '), (total.get(vars.join(' ')) ?? 0) + c)
  return monomials(total)
}

const monomials = (byKey: ReadonlyMap<string, number>): Monomial[] =>
  [...byKey].filter(([, c]) => c !== 0).map(([key, c]): Monomial => [c, ...(key === '' ? [] : key.split(' '))])

/** The value in doubles: each monomial `c * v1 * v2 ...` left to right, summed left to right. */
export function valueOf(p: readonly Monomial[], sizeOf: (size: string) => number): number {
  let sum = 0
  for (const [c, ...vars] of p) {
    let term = c
    for (const v of vars) term *= sizeOf(v)
    sum += term
  }
  return sum
}

/** The candidate a call with these sizes runs: the first least cost. */
export function cheapest(choice: SizeChoice, sizeOf: (size: string) => number): number {
  const costs = choice.costs.map((p) => valueOf(p, sizeOf))
  return costs.reduce((best, c, k) => (c < costs[best] ? k : best), 0)
}

/** The values candidate `k` gives the choice's flags (nodes.ts SharedFlag): 1 for those that name it. */
export const flagValues = (choice: SizeChoice, k: number): [string, number][] =>
  (choice.shared ?? []).map((f) => [f.name, f.candidates.includes(k) ? 1 : 0])

/** `E·A·B + 2·E·F`, for logs and explain. */
export const printPolynomial = (p: readonly Monomial[]): string =>
  p.length === 0 ? '0' : p.map(([c, ...vars]) => [...(c === 1 && vars.length > 0 ? [] : [String(c)]), ...vars].join('·')).join(' + ')
