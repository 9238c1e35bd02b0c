/**
 * Tiles a transposing nest: two loops, one directly inside the other, over independent points, where one access's
 * stride-1 dimension moves with the inner loop and another's with the outer loop only (`T[j, i] = A[i, j]`, an NCHW to
 * NHWC copy). Untiled, each inner iteration of the transposed access reads a line of its own, and the next outer
 * iteration comes back to those lines after the inner loop has pushed them out of L1: a 1024² transpose fetched every
 * line sixteen times. In square tiles of one cache line's elements, each line is used whole while it is in L1.
 *
 * Legal when every point is independent: plain stores (`=`), each store's index following both loops one to one, no
 * load of a tensor the nest stores, the inner loop's bounds free of the outer index. Needs: lowered loops. Leaves the
 * tile loops in the modes the two loops had, the loops inside a tile serial.
 */
import { add, coeffOf, constant, sub, variable } from '../ir/affine.ts'
import type { Access, Affine, Bound, Constraint, Kernel, Loop, Stmt, Store } from '../ir/nodes.ts'
import { copiedElement } from '../analysis/element-copy.ts'
import { DTYPE_BYTES } from '../analysis/loop-nest.ts'
import { freshName, takenNames } from '../ir/names.ts'
import { boundVars, loadsOf, mapStmts, withBody } from '../ir/walk.ts'

export function tileTransposes(kernel: Kernel, l1: { readonly bytes: number; readonly lineBytes: number }): Kernel {
  const taken = takenNames(kernel)
  const fresh = (want: string): string => freshName(want, taken)
  const dtypeOf = new Map(kernel.tensors.map((t) => [t.name, t.dtype]))
  const body = mapStmts(kernel.body, {
    loop: (l, recurse) => {
      const accesses = transposing(l)
      if (accesses === undefined) return withBody(l, recurse(l.body))
      const inner = l.body[0] as Loop
      // A line of the widest element along both loops.
      const size = Math.max(1, Math.floor(l1.lineBytes / Math.max(...accesses.map((a) => DTYPE_BYTES[dtypeOf.get(a.tensor)!]))))
      // A tile that only copies runs as register transposes on vector ISAs (emit/c-transpose.ts), faster than the
      // untiled nest at every extent measured, lines in L1 or not: 1.6-5.1× at 1 thread on eleven shapes (AMD EPYC
      // Zen 5, AVX-512; NCHW to NHWC 1×64×112×112 3.5-4.1×). The JS fallback, printed from the same IR, runs such
      // tiles 6-15% slower than its untiled loops where their lines fit in L1.
      const element = inner.body.length === 1 ? copiedElement(inner.body[0] as Store, (t) => dtypeOf.get(t)!) : undefined
      if (element) return tiled(l, inner, size, fresh)
      // Where the inner loop's lines of the transposed access fit in half of L1 the next outer iteration finds them
      // there, and the untiled nest (longer inner loops) is faster: the choice is made on the call's extents.
      const lines = Math.max(1, Math.floor(l1.bytes / 2 / l1.lineBytes))
      const extent = sub((inner.hi as AffineBound).a, (inner.lo as AffineBound).a)
      const many: Constraint = { expr: sub(extent, constant(lines + 1)), op: '>=' }
      const few: Constraint = { expr: sub(constant(lines), extent), op: '>=' }
      return [{ kind: 'if', conds: [many], body: [tiled(l, inner, size, fresh)] }, { kind: 'if', conds: [few], body: [l] }]
    },
  })
  return body === kernel.body ? kernel : { ...kernel, body }
}

/**
 * The stores' and loads' accesses of `outer`'s nest where it transposes one (its stride-1 dimension moves with the
 * outer loop) and may be tiled; else undefined.
 */
function transposing(outer: Loop): readonly Access[] | undefined {
  if (outer.mode === 'vector' || outer.body.length !== 1 || outer.body[0].kind !== 'loop') return undefined
  const inner = outer.body[0]
  if (inner.mode === 'vector' || !inner.body.every((s): s is Store => s.kind === 'store')) return undefined
  const bounds = [outer.lo, outer.hi, inner.lo, inner.hi]
  if (!bounds.every((b) => b.kind === 'affine') || [inner.lo, inner.hi].some((b) => boundVars(b).includes(outer.v))) return undefined
  const stores = inner.body as readonly Store[]
  const stored = new Set(stores.map((s) => s.access.tensor))
  const loads = stores.flatMap((s) => loadsOf(s.value).map((l) => l.access))
  const accesses = [...stores.map((s) => s.access), ...loads]
  const oneToOne = (a: Access) => [outer.v, inner.v].every((v) => a.index.some((e) => Math.abs(coeffOf(e, v)) === 1 && e.terms.every((t) => t.v === v || (t.v !== outer.v && t.v !== inner.v))))
  if (!stores.every((s) => s.op === '=' && oneToOne(s.access)) || loads.some((a) => stored.has(a.tensor))) return undefined
  const last = (a: Access): Affine | undefined => a.index[a.index.length - 1]
  const along = (a: Access, v: string): boolean => last(a) !== undefined && coeffOf(last(a)!, v) !== 0
  const across = accesses.some((a) => along(a, outer.v) && !along(a, inner.v) && a.index.some((e) => coeffOf(e, inner.v) !== 0))
  return across && accesses.some((a) => along(a, inner.v)) ? accesses : undefined
}

type AffineBound = Extract<Bound, { kind: 'affine' }>

/** `outer` and `inner` in square tiles of `size` points: tile loops outside, the points of a tile inside. */
function tiled(outer: Loop, inner: Loop, size: number, fresh: (want: string) => string): Loop {
  const within = (l: Loop, tile: string): { lo: Bound; hi: Bound; count: Bound } => {
    const [lo, hi] = [(l.lo as AffineBound).a, (l.hi as AffineBound).a]
    const start = add(lo, variable(tile, size))
    return {
      lo: { kind: 'affine', a: start },
      hi: { kind: 'min', args: [l.hi, { kind: 'affine', a: add(start, constant(size)) }] },
      count: { kind: 'ceildiv', arg: { kind: 'affine', a: sub(hi, lo) }, by: size },
    }
  }
  const [outerTile, innerTile] = [fresh(`${outer.v}_tile`), fresh(`${inner.v}_tile`)]
  const [o, i] = [within(outer, outerTile), within(inner, innerTile)]
  const points: Stmt = { kind: 'loop', v: outer.v, lo: o.lo, hi: o.hi, mode: 'serial', body: [{ ...inner, lo: i.lo, hi: i.hi, mode: 'serial' }] }
  const zero: Bound = { kind: 'affine', a: constant(0) }
  return {
    kind: 'loop', v: outerTile, lo: zero, hi: o.count, mode: outer.mode,
    body: [{ kind: 'loop', v: innerTile, lo: zero, hi: i.count, mode: inner.mode, body: [points] }],
  }
}
