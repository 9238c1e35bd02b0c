/**
 * Sums that split into a product of separate sums: the facts behind the `lint_split_sum` warning. In
 * `C[i, j] +=! A[i, k] * B[kk, j]` the reduced index `k` occurs only in A and `kk` only in B, so the statement
 * computes (Σ_k A[i, k]) · (Σ_kk B[kk, j]): almost always a typo for one shared index. A reduced index in one factor
 * alone is fine by itself (`y[i] +=! A[i, j] * b[i]` scales a row sum); two factors each with one of their own are
 * what gives the typo away.
 */
import type { Block, Kernel } from '../ir/nodes.ts'
import { walkStmts } from '../ir/walk.ts'
import { flattenProduct } from './match-contraction.ts'
import { nearMiss } from '../near-miss.ts'

/** One statement whose sum splits: two reduced indices, each with the only factor that holds it. */
export interface SplitSum {
  readonly block: string
  readonly first: { readonly index: string; readonly tensor: string }
  readonly second: { readonly index: string; readonly tensor: string }
  /** The index the second one most likely meant (near-miss.ts), if any resembles it. */
  readonly meant?: string
  /** The statement, as offsets from `origin` (into the spec text), when the block has a span. */
  readonly span?: { readonly start: number; readonly end: number }
}

/** The statements of `kernel` (as built from the spec, before any pass) whose sum splits. */
export function findSplitSums(kernel: Kernel, origin = 0): SplitSum[] {
  const found: SplitSum[] = []
  walkStmts(kernel.body, (s) => {
    if (s.kind !== 'block') return
    const split = splitOf(s)
    if (split === undefined) return
    const span = s.span ? { start: s.span.start - origin, end: s.span.end - origin } : undefined
    found.push({ ...split, ...(span ? { span } : {}) })
  })
  return found
}

function splitOf(block: Block): Omit<SplitSum, 'span'> | undefined {
  const store = block.body.length === 1 && block.body[0].kind === 'store' ? block.body[0] : undefined
  if (store === undefined || store.op === '=') return undefined
  const factors = flattenProduct(store.value).flatMap((f) => (f.kind === 'load' ? [f.access] : []))
  if (factors.length < 2) return undefined
  const written = new Set(store.access.index.flatMap((ix) => ix.terms.map((t) => t.v)))
  const reduced = block.indices.map((ix) => ix.name).filter((v) => !written.has(v))
  const holders = (v: string) => factors.filter((a) => a.index.some((ix) => ix.terms.some((t) => t.v === v)))
  // Each reduced index held by exactly one factor, with that factor: two different factors give the split away.
  const lonely = reduced.flatMap((index) => {
    const h = holders(index)
    return h.length === 1 ? [{ index, tensor: h[0].tensor }] : []
  })
  const first = lonely[0]
  const second = lonely.find((l) => first !== undefined && l.tensor !== first.tensor)
  if (first === undefined || second === undefined) return undefined
  const meant = nearMiss(second.index, [first.index, ...block.indices.map((ix) => ix.name)])
  return { block: block.id, first, second, ...(meant === undefined ? {} : { meant }) }
}
