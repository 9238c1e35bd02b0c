/**
 * A tile of a transposing copy as one call of the ISA's `transpose` (targets/vector-ops.ts): the points nest
 * tile-transposes.ts leaves, `for o: for i: X[.., i] = Y[.., o]` with each loop at most a line of elements, reads the
 * tile's rows whole, transposes them in registers and writes its columns whole, where the scalar nest moves one
 * element per load and store. Against those scalar tiles (AMD EPYC Zen 5, AVX-512, one process alternating builds),
 * at 1 / 2 threads: `C[d, m, a] = T[a, m, d]` at 56 × 1248 × 56 f32 1.6-1.7× / 1.75×, an i32 1024² transpose
 * 1.8-2.1× / 3.2×, f64 1000² 1.4-1.8× / 1.85×. A copy either way: bit for bit.
 */
import { coeffOf, substitute } from '../ir/affine.ts'
import type { Access, Affine, Bound, DType, Loop } from '../ir/nodes.ts'
import { mostTrips } from '../analysis/bounds.ts'
import { copiedElement } from '../analysis/element-copy.ts'
import { DTYPE_BYTES } from '../analysis/loop-nest.ts'
import { boundVars } from '../ir/walk.ts'
import type { Isa } from '../targets/isa.ts'
import { instantiate, TRANSPOSE_TILE_BYTES } from '../targets/vector-ops.ts'
import { C_TYPE } from './c-expr.ts'
import type { Layout } from './layout.ts'
import type { Names } from './names.ts'
import { PREC, operand, type Code } from './syntax.ts'

export interface TransposeContext {
  readonly isa: Isa
  readonly names: Names
  readonly layout: Layout
  readonly bound: (b: Bound) => Code
}

/** `outer` as a call of the ISA's transpose function, or undefined where it is not a transposing tile it takes. */
export function emitTransposedTile(outer: Loop, depth: number, ctx: TransposeContext): string[] | undefined {
  const inner = outer.body.length === 1 && outer.body[0].kind === 'loop' ? outer.body[0] : undefined
  const store = inner?.body.length === 1 && inner.body[0].kind === 'store' ? inner.body[0] : undefined
  if (!inner || !store || outer.mode !== 'serial' || inner.mode !== 'serial') return undefined
  if ([inner.lo, inner.hi].some((b) => boundVars(b).includes(outer.v))) return undefined
  const dtypeOf = (tensor: string): DType => ctx.layout.tensor(tensor).dtype
  const from = copiedElement(store, dtypeOf)
  const dtype = dtypeOf(store.access.tensor)
  // i32 elements move as f32 lanes: the transpose's moves and shuffles never look at the bits.
  const lanes = dtype === 'i32' ? 'f32' : dtype
  const ops = ctx.isa.vectors?.[lanes]
  if (!from || !ops) return undefined
  const most = TRANSPOSE_TILE_BYTES / DTYPE_BYTES[dtype]
  if (![outer, inner].every((l) => (mostTrips(l) ?? Infinity) <= most)) return undefined
  // The loop along the store's stride-1 dimension walks the rows the tile reads, the other its columns.
  const other = (l: Loop): Loop => (l === outer ? inner : outer)
  const rows = [outer, inner].find((l) => alongLast(store.access, l.v, other(l).v))
  const cols = rows && other(rows)
  if (!rows || !cols || !alongLast(from, cols.v, rows.v)) return undefined
  const [srcRow, dstRow] = [ctx.layout.strideAlong(from, rows.v), ctx.layout.strideAlong(store.access, cols.v)]
  if (!srcRow || !dstRow) return undefined
  const start = (a: Access): Access => ({
    ...a,
    index: a.index.map((e) => substitute(substitute(e, outer.v, lowOf(outer)), inner.v, lowOf(inner))),
  })
  const cast = (a: Access) => (dtype === lanes ? '' : `(${a === from ? 'const ' : ''}${C_TYPE[lanes]} *)`)
  const at = (a: Access) => `${cast(a)}&${ctx.names.of(a.tensor)}[${ctx.layout.offset(start(a)).text}]`
  const count = (l: Loop) => `${operand(ctx.bound(l.hi), PREC.additive)} - ${operand(ctx.bound(l.lo), PREC.multiplicative)}`
  const stride = (c: Code) => `(int64_t)(${c.text})`
  const args = { p: at(from), s: stride(srcRow), q: at(store.access), t: stride(dstRow), r: count(rows), w: count(cols) }
  return [`${'  '.repeat(depth)}${instantiate(ops.transpose, args)};`]
}

/** Whether `v` moves `a` along its last dimension at unit stride and along no other, and `other` does not. */
function alongLast(a: Access, v: string, other: string): boolean {
  const last = a.index.length - 1
  return a.index.every((e, d) => coeffOf(e, v) === (d === last ? 1 : 0)) && coeffOf(a.index[last], other) === 0
}

function lowOf(l: Loop): Affine {
  return (l.lo as Extract<Bound, { kind: 'affine' }>).a
}
