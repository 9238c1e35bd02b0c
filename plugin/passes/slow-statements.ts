/**
 * Statements that do at least cubic work but run as plain loops: the facts behind the `perf_plain_loops` warning.
 *
 * A block of the block form (what the lowering passes start from, so after contraction-path) does *cubic work* when
 *  1. it reduces: an index of its domain is not in the written access;
 *  2. at least three of its indices are *large*: their extent mentions a size symbol (its value is unknown at build
 *     time, so it may be large) or is a literal of at least LARGE_EXTENT; and
 *  3. it reuses every tensor it touches: each access's index map, restricted to the large indices, has a rank below
 *     their number, so the multiply-adds grow faster than any tensor (a GEMM does n³ on n² elements each).
 * That is the work blocking and a microkernel speed up. A statement that reads some tensor once per point
 * (`s[i] +=! X[i, j, k]`, a batched matrix-vector product `y[b, i] +=! A[b, i, j] * x[b, j]`) is bound by memory,
 * where loops do as well; an element-wise statement does not reduce; a filter of literal size 3 is not large.
 *
 * Such a block is fast when substitute-microkernel or substitute-convolution wrapped it (a Contraction or Convolution
 * node with its id is in the lowered kernel). Otherwise the reason is what POLYKERN_DEBUG=match prints for it:
 * match-convolution's when an input dimension slides a window (`p + r`), else match-contraction's against the first
 * ISA's microkernel of the block's element type (its first one when none has that type).
 */
import type { Access, Affine, Block, Kernel, Tensor } from '../ir/nodes.ts'
import { loadsOf, walkStmts } from '../ir/walk.ts'
import { convolutionLayout, matchConvolution } from './match-convolution.ts'
import { matchContraction, needleOf } from './match-contraction.ts'
import { ISAS } from '../targets/index.ts'
import type { Microkernel } from '../targets/microkernel.ts'

/** A literal extent at least this big counts as large (contraction-path's REPRESENTATIVE_SIZE for size symbols). */
export const LARGE_EXTENT = 64

/** One statement doing cubic work as plain loops. */
export interface SlowStatement {
  /** The block's id: the statement's (`s1`), or a pairwise block the contraction path made of it (`s1.1`). */
  readonly block: string
  /** Its large indices, in domain order. */
  readonly large: readonly string[]
  /** Why no microkernel runs it (the matcher's text). */
  readonly reason: string
  /** The statement, as offsets from `origin` (compileKernel: into the spec text), when the block has a span. */
  readonly span?: { readonly start: number; readonly end: number }
}

/** The blocks of `blockForm` that do cubic work and are still plain loops in `lowered`. */
export function findSlowStatements(blockForm: Kernel, lowered: Kernel, origin = 0): SlowStatement[] {
  const fast = new Set<string>()
  walkStmts(lowered.body, (s) => {
    if (s.kind === 'contraction' || s.kind === 'convolution') fast.add(s.id)
  })
  const tensors = new Map(blockForm.tensors.map((t) => [t.name, t]))
  const slow: SlowStatement[] = []
  walkStmts(blockForm.body, (s) => {
    if (s.kind !== 'block' || fast.has(s.id)) return
    const large = cubicIndices(s)
    if (large === undefined) return
    const span = s.span ? { start: s.span.start - origin, end: s.span.end - origin } : undefined
    slow.push({ block: s.id, large, reason: whyLoops(s, tensors), ...(span ? { span } : {}) })
  })
  return slow
}

/** The block's large indices when it does cubic work (the rule above), else undefined. */
export function cubicIndices(block: Block): string[] | undefined {
  if (block.body.length !== 1 || block.body[0].kind !== 'store') return undefined
  const store = block.body[0]
  const large = block.indices.filter((ix) => isLarge(ix.extent)).map((ix) => ix.name)
  if (large.length < 3) return undefined
  const written = new Set(store.access.index.flatMap((ix) => ix.terms.map((t) => t.v)))
  if (block.indices.every((ix) => written.has(ix.name))) return undefined
  const accesses = [store.access, ...loadsOf(store.value).map((l) => l.access)]
  return accesses.every((a) => rankOver(a, large) < large.length) ? large : undefined
}

const isLarge = (extent: Affine): boolean => extent.terms.length > 0 || extent.constant >= LARGE_EXTENT

/** The rank of the access's index map restricted to `indices` (Gaussian elimination on the coefficients). */
function rankOver(a: Access, indices: readonly string[]): number {
  const rows = a.index.map((ix) => indices.map((v) => ix.terms.find((t) => t.v === v)?.coeff ?? 0))
  let rank = 0
  for (let col = 0; col < indices.length && rank < rows.length; col++) {
    const pivot = rows.findIndex((r, n) => n >= rank && r[col] !== 0)
    if (pivot < 0) continue
    ;[rows[rank], rows[pivot]] = [rows[pivot], rows[rank]]
    for (let n = rank + 1; n < rows.length; n++) {
      const f = rows[n][col] / rows[rank][col]
      rows[n] = rows[n].map((x, c) => x - f * rows[rank][c])
    }
    rank++
  }
  return rank
}

/** The matcher's reason, as POLYKERN_DEBUG=match words it. */
function whyLoops(block: Block, tensors: ReadonlyMap<string, Tensor>): string {
  const store = block.body[0]
  if (store.kind !== 'store') return `the block holds a ${store.kind}, not a store`
  const windowed = loadsOf(store.value).some((l) => l.access.index.some((ix) => ix.terms.length > 1))
  if (windowed) {
    const conv = matchConvolution(block, tensors)
    if (!conv.ok) return `not a convolution: ${conv.reason}`
    const layout = convolutionLayout(conv.roles)
    return 'reason' in layout ? `a convolution, run as loops: ${layout.reason}` : 'a convolution, run as loops (POLYKERN_DEBUG=match says why)'
  }
  const dtype = tensors.get(store.access.tensor)?.dtype
  const mks = ISAS.flatMap((isa) => isa.microkernels)
  const mk = mks.find((m) => m.dtype === dtype) ?? mks[0]
  if (mk === undefined) return 'no ISA has a microkernel'
  const match = matchContraction(block, needle(mk))
  return match.ok ? 'it matches a microkernel, but no ISA scheduled it' : match.reason
}

const needles = new Map<Microkernel, Block>()
const needle = (mk: Microkernel): Block => {
  let b = needles.get(mk)
  if (b === undefined) needles.set(mk, (b = needleOf(mk)))
  return b
}
