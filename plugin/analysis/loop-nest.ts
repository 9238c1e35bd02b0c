/**
 * The input of the reuse analysis (PolyDL §4.1): a perfect, rectangular loop nest with concrete extents and the
 * accesses of its innermost statement, as plain data. Built from a block-form IR Block, or by tiling another nest.
 */
import { internalAssert, KernelInternalError } from '../diagnostics.ts'
import { add, constant, evaluate, substitute, variable } from '../ir/affine.ts'
import type { Affine, Block, DType, Tensor } from '../ir/nodes.ts'
import { loadsOf } from '../ir/walk.ts'

export interface NestLoop {
  readonly name: string
  /** The loop runs over [0, extent). */
  readonly extent: number
  /** Its iterations run concurrently: Algorithm 1 then takes the working set of all of them together. */
  readonly parallel?: boolean
}

export interface NestAccess {
  readonly tensor: string
  readonly kind: 'read' | 'write'
  /** One affine form per dimension, over loop names only, with integer coefficients. */
  readonly index: readonly Affine[]
}

export interface LoopNest {
  /** Outermost first. */
  readonly loops: readonly NestLoop[]
  /** Everything one iteration touches, reads of a statement before its write. */
  readonly accesses: readonly NestAccess[]
  /** Bytes of one element, per tensor. */
  readonly elementBytes: ReadonlyMap<string, number>
}

export const DTYPE_BYTES: Readonly<Record<DType, number>> = { f32: 4, f64: 8, i32: 4 }

export const elementBytesOf = (tensors: readonly Tensor[]): ReadonlyMap<string, number> =>
  new Map(tensors.map((t) => [t.name, DTYPE_BYTES[t.dtype]]))

/**
 * The loop nest of a block in its `indices` order, sizes substituted. The block's constraints are dropped: the
 * analysis counts the whole box, an over-approximation only at padded edges. A reduction store (`+=`, ...) reads
 * the element before writing it, as PolyDL's `C[i][j] +=` does.
 */
export function loopNestOfBlock(
  block: Block,
  sizes: ReadonlyMap<string, number>,
  elementBytes: ReadonlyMap<string, number>,
): LoopNest {
  const concrete = (a: Affine) => [...sizes].reduce((x, [s, n]) => substitute(x, s, constant(n)), a)
  const accesses: NestAccess[] = []
  for (const s of block.body) {
    internalAssert(s.kind === 'store', 'analysis', `block ${block.id} is not a perfect nest: it holds a ${s.kind}`)
    const at = (tensor: string, index: readonly Affine[], kind: NestAccess['kind']) =>
      accesses.push({ tensor, kind, index: index.map(concrete) })
    for (const l of loadsOf(s.value)) at(l.access.tensor, l.access.index, 'read')
    if (s.op !== '=') at(s.access.tensor, s.access.index, 'read')
    at(s.access.tensor, s.access.index, 'write')
  }
  const loops = block.indices.map((ix) => ({ name: ix.name, extent: evaluate(ix.extent, sizes) }))
  return { loops, accesses, elementBytes }
}

/** A multi-level tiling: per original loop, tile sizes outermost first (`i: [M2, M1]`), and the resulting order. */
export interface Tiling {
  readonly sizes: ReadonlyMap<string, readonly number[]>
  /** Loop names of the tiled nest, outermost first; default: every level's tile loops, then the point loops. */
  readonly order?: readonly string[]
  /** The one loop of the tiled nest that runs in parallel, if any. */
  readonly parallel?: string
}

/** The tile loop of `loop` at `level` (1 = innermost tile loop); the point loop keeps the original name. */
export const tileLoopName = (loop: string, level: number): string => `${loop}:${level}`

/**
 * The nest of a tiled variant. Sizes `[T2, T1]` split `i` into `i:2` (ceil(E / T2) tiles), `i:1` (ceil(T2 / T1))
 * and the point loop `i` (T1), with `i = T2*i:2 + T1*i:1 + i` in every access. Partial tiles are counted as if
 * full: extents round up and footprints include the overhang, which keeps every variant's nest rectangular.
 */
export function tiledNest(nest: LoopNest, tiling: Tiling): LoopNest {
  const split: NestLoop[] = []
  const point = new Map<string, Affine>()
  for (const loop of nest.loops) {
    const sizes = tiling.sizes.get(loop.name) ?? []
    let by: Affine = variable(loop.name)
    let outer = loop.extent
    sizes.forEach((size, n) => {
      internalAssert(Number.isInteger(size) && size >= 1, 'analysis', 'tile sizes are positive integers')
      const name = tileLoopName(loop.name, sizes.length - n)
      split.push({ name, extent: Math.ceil(outer / size) })
      by = add(by, variable(name, size))
      outer = size
    })
    split.push({ name: loop.name, extent: outer })
    if (sizes.length > 0) point.set(loop.name, by)
  }
  const rewrite = (e: Affine): Affine => {
    // A plain index is by far the most common: its rewrite is the split form itself.
    if (e.terms.length === 1 && e.terms[0].coeff === 1 && e.constant === 0) return point.get(e.terms[0].v) ?? e
    return e.terms.reduce((x, t) => (point.has(t.v) ? substitute(x, t.v, point.get(t.v)!) : x), e)
  }
  const accesses = nest.accesses.map((a) => ({ ...a, index: a.index.map(rewrite) }))
  const byName = new Map(split.map((l) => [l.name, l]))
  const order = tiling.order ?? [...byName.keys()].sort((x, y) => depthOf(x) - depthOf(y))
  if (order.length !== byName.size || !order.every((n) => byName.has(n))) {
    const loops = [...byName.keys()].join(', ')
    throw new KernelInternalError('analysis', `tiling order [${order.join(', ')}] is not a permutation of [${loops}]`)
  }
  internalAssert(tiling.parallel === undefined || byName.has(tiling.parallel), 'analysis', `no loop ${tiling.parallel}`)
  const loops = order.map((n) => (n === tiling.parallel ? { ...byName.get(n)!, parallel: true } : byName.get(n)!))
  return { loops, accesses, elementBytes: nest.elementBytes }
}

/** Outer tile levels first: `i:2` before `i:1` before `i`. */
const depthOf = (name: string): number => {
  const m = /:(\d+)$/.exec(name)
  return m ? -Number(m[1]) : 0
}
