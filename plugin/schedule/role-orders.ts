/**
 * The order of a gathered contraction's role indices, chosen per call (GETT's loop-order choice, for offset tables).
 * A role's GEMM dimension is its indices in some row-major order; the packs walk it along panels and k, C's tiles
 * along m and n. A tensor read or written along a role is contiguous only where its stride-1 index is the role's
 * innermost; elsewhere each element is a line of its own, and the line comes back only after the indices inside it
 * have gone round. So the candidates move each holder's stride-1 index innermost (or both, one just inside the other), and the call prices each pair of
 * n and k orders with its extents: per element, 1 when contiguous; else IN_CACHE when the line comes back while
 * still in cache (the indices inside it span few enough lines of the rows walked meanwhile: an output tile's MR
 * rows, a pack's k rows), LINE_ELEMENTS when it has to come from memory again; times how often the driver touches the
 * tensor (C once per k block, B once, A once per n block). m follows A: C's rows are apart in memory whatever the
 * order (its stride-1 index plays n).
 */
import type { Access, ContractionRoles, IndexRange } from '../ir/nodes.ts'

export interface RoleOrders {
  readonly m: readonly IndexRange[]
  /** Candidates, the first C's own order. */
  readonly n: readonly (readonly IndexRange[])[]
  /** Candidates, the first A's own order. */
  readonly k: readonly (readonly IndexRange[])[]
}

/** Elements per cache line in the cost (f32's 16; f64's 8 makes the same choices). */
const LINE_ELEMENTS = 16
/** An element read alone from a line still in cache (a scalar load and its address), and one added to C. */
const IN_CACHE = { read: 2, update: 4 } as const
/** Lines that stay in cache between two uses of one: a quarter of the smaller L2 (AMD's 512 KiB). */
const CACHED_LINES = 2048

const strideOne = (a: Access): string => a.index[a.index.length - 1].terms[0]?.v ?? ''

/** `role` with the stride-1 indices of `tensors` that are the role's moved innermost, the last tensor's last. */
function favouring(role: readonly IndexRange[], ...tensors: readonly Access[]): readonly IndexRange[] {
  const moved = tensors.map((a) => role.find((ix) => ix.name === strideOne(a))).filter((ix) => ix !== undefined)
  return [...role.filter((ix) => !moved.includes(ix)), ...moved.filter((ix, i) => moved.indexOf(ix) === i)]
}

const sameOrder = (x: readonly IndexRange[], y: readonly IndexRange[]) => x.every((ix, i) => ix.name === y[i].name)

export function roleOrders(r: ContractionRoles): RoleOrders {
  const distinct = (xs: readonly (readonly IndexRange[])[]) => xs.filter((x, i) => xs.findIndex((y) => sameOrder(x, y)) === i)
  return {
    m: favouring(r.m, r.a),
    n: distinct([favouring(r.n, r.c), favouring(r.n, r.b), favouring(r.n, r.b, r.c), favouring(r.n, r.c, r.b)]),
    k: distinct([favouring(r.k, r.a), favouring(r.k, r.b), favouring(r.k, r.b, r.a), favouring(r.k, r.a, r.b)]),
  }
}

/**
 * The cost of n order `n` and k order `k` for the call, as a C expression of the extents (`extent` prints one) and
 * of `pk_m`, `pk_n`, `pk_k`; `kc` and `nc` are the blocking's k and n block sizes.
 */
export function orderCostCode(
  r: ContractionRoles,
  orders: RoleOrders,
  n: readonly IndexRange[],
  k: readonly IndexRange[],
  extent: (ix: IndexRange) => string,
  blocks: { readonly kc: number; readonly nc: number; readonly mr: number },
): string {
  // Per element of tensor `a`, walked along `walked` (its panel role, then k) with `rows` rows in flight.
  const perElement = (a: Access, walked: readonly (readonly IndexRange[])[], rows: string, inCache: number): string => {
    const s = strideOne(a)
    for (const order of walked) {
      const at = order.findIndex((ix) => ix.name === s)
      if (at === -1) continue
      const inside = order.slice(at + 1)
      if (inside.length === 0) return '1.0'
      const apart = inside.map((ix) => `(${extent(ix)})`).join('*')
      return `(${apart} == 1 ? 1.0 : (double)${apart}*${rows} <= ${CACHED_LINES} ? ${inCache}.0 : ${LINE_ELEMENTS}.0)`
    }
    return `${LINE_ELEMENTS}.0`
  }
  const kb = `pk_min64(pk_k, ${blocks.kc})`
  const c = `(double)pk_m*pk_n*(pk_round_up(pk_k, ${blocks.kc})/${blocks.kc})*${perElement(r.c, [n, orders.m], String(blocks.mr), IN_CACHE.update)}`
  const b = `(double)pk_n*pk_k*${perElement(r.b, [n, k], kb, IN_CACHE.read)}`
  const a = `(double)pk_m*pk_k*(pk_round_up(pk_n, ${blocks.nc})/${blocks.nc})*${perElement(r.a, [orders.m, k], kb, IN_CACHE.read)}`
  return `${c} + ${b} + ${a}`
}
