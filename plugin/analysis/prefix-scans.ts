/**
 * Prefix sums written as reductions: the facts behind the `lint_quadratic_scan` warning. `cs[i] +=! v[j] where
 * j <= i` sums, for every i, all of v up to i: N²/2 additions where a running sum (a scan) needs N. The spec
 * language has no scan, so the statement is quadratic however it is scheduled (31 ms at N = 20,000 against 0.09 ms
 * for a plain loop keeping the sum). It is one when a `where` clause bounds a reduced index by an output index, and
 * the summed value does not read that output index otherwise: the partial sums are shared between outputs, which only
 * a scan uses. Triangular products that read both (`S[i, j] +=! Q[i, d] * K[j, d] where j <= i`, a triangular
 * matrix-vector product) are not scans.
 */
import type { Block, Kernel } from '../ir/nodes.ts'
import { walkExpr, walkStmts } from '../ir/walk.ts'

/** One statement summing a prefix per output element. */
export interface PrefixScan {
  readonly block: string
  /** The output index bounding the reduction, and the reduced index it bounds. */
  readonly output: string
  readonly reduced: string
  /** The statement, as offsets from `origin` (into the spec text), when the block has a span. */
  readonly span?: { readonly start: number; readonly end: number }
}

/** The statements of `kernel` (as built from the spec, before any pass) that sum a prefix per output element. */
export function findPrefixScans(kernel: Kernel, origin = 0): PrefixScan[] {
  const found: PrefixScan[] = []
  walkStmts(kernel.body, (s) => {
    if (s.kind !== 'block') return
    const scan = scanOf(s)
    if (scan === undefined) return
    const span = s.span ? { start: s.span.start - origin, end: s.span.end - origin } : undefined
    found.push({ block: s.id, ...scan, ...(span ? { span } : {}) })
  })
  return found
}

function scanOf(block: Block): { output: string; reduced: string } | undefined {
  const store = block.body.length === 1 && block.body[0].kind === 'store' ? block.body[0] : undefined
  if (store === undefined || store.op === '=') return undefined
  const written = new Set(store.access.index.flatMap((ix) => ix.terms.map((t) => t.v)))
  const read = new Set<string>()
  walkExpr(store.value, (e) => {
    if (e.kind === 'load') for (const ix of e.access.index) for (const t of ix.terms) read.add(t.v)
    if (e.kind === 'var') read.add(e.name)
  })
  for (const c of block.constraints) {
    // A bound between one output index and one reduced index, with opposite signs: `i - j >= 0` is j <= i.
    const vars = c.expr.terms.filter((t) => t.coeff !== 0)
    if (c.op !== '>=' || vars.length !== 2 || vars[0].coeff !== -vars[1].coeff) continue
    const output = vars.find((t) => written.has(t.v))?.v
    const reduced = vars.find((t) => !written.has(t.v) && block.indices.some((ix) => ix.name === t.v))?.v
    if (output !== undefined && reduced !== undefined && !read.has(output) && read.has(reduced)) return { output, reduced }
  }
  return undefined
}
