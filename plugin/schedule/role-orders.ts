/**
 * The order of a gathered contraction's role indices, chosen per call (GETT's loop-order choice, for offset tables).
 * A role's GEMM dimension is its points in some order; the packs walk it along panels and k, C's tiles along m and n.
 * A tensor read or written along a role is contiguous only where its stride-1 index is the role's innermost;
 * elsewhere each element is a line of its own, and the line comes back only after the indices inside it have gone
 * round. Candidates: each holder's stride-1 index moved innermost, or both, one just inside the other (the others
 * in C's order, or for n also in B's); and tiled, where two holders' stride-1 indices differ: one split into blocks
 * of a line, the other between its block and its position in the block (GETT's blocked macro-tiles), so one reads
 * whole lines and the other's lines come back within a line's worth of points; for n also pitched, C's second index
 * in blocks around B's stride-1 index (pitched); for k also B's own order, in which its pack steps through B as it
 * lies. The order of the points is free: A and B walk k in the same order, and C is stored through the same m and n
 * tables the packs use.
 *
 * The call prices each pair of n and k orders with its extents: per element, 1 when contiguous; else IN_CACHE when
 * the line comes back while still in cache (the points inside it span few enough lines of the rows walked
 * meanwhile: an output tile's MR rows; a pack walking k reads its panel's width of rows at each step, and walking
 * its panel role a panel's kb steps at each point), LINE_ELEMENTS when it has to come from memory again; times
 * how often the driver touches the tensor (C once per k block, B once, A once per n block); B's runs along n cost
 * PAGE_STEP more where each k step of its pack starts a page of its own. m has two candidates:
 * A's stride-1 index innermost, or C's own order, where a tile's rows run down C when C's second index plays m. That
 * matters when C's stride-1 index is short: runs of 16 floats on lines not 64-byte aligned share a line with the
 * next row's run, and a row written apart from that one writes each shared line twice (ccsd_t's degb forms: 80 ->
 * 100 GFLOP/s, AVX-512, 1 thread). C's element costs 16/extent more when its rows could run down and do not, or
 * its second index plays n and does not follow its runs (runBreaks).
 */
import { lastIndex } from '../ir/affine.ts'
import type { Access, Affine, ContractionRoles, IndexRange } from '../ir/nodes.ts'

/** One loop of a role's order: all of an index, its blocks, or the position within a block. */
export interface Piece {
  readonly ix: IndexRange
  readonly part: 'all' | 'blocks' | 'within'
  /**
   * A split index's block: LINE_ELEMENTS points ('line', the default), or the fewest (a power of two) whose runs of
   * C's stride-1 index make whole vectors ('lanes': pk_lane_block).
   */
  readonly block?: 'line' | 'lanes'
}

/** A role's order, outermost piece first. */
export type RoleOrder = readonly Piece[]

export interface RoleOrders {
  /** Candidates, the first A's own order. */
  readonly m: readonly RoleOrder[]
  /** Candidates, the first C's or B's order with C's stride-1 index innermost (preferredFirst). */
  readonly n: readonly RoleOrder[]
  /** Candidates, the first A's own order. */
  readonly k: readonly RoleOrder[]
}

/** Elements per cache line in the cost and per block of a tiled order (f32's 16; f64's 8 makes the same choices). */
export const LINE_ELEMENTS = 16
/** The longest run of C's stride-1 index B's gather transposes across panels (emit/c-pack.ts). */
export const TRANSPOSED_RUN = 2 * LINE_ELEMENTS
/** An element read alone from a line still in cache (a scalar load and its address), and one added to C. */
const IN_CACHE = { read: 2, update: 4 } as const
/** Lines that stay in cache between two uses of one: a quarter of the smaller L2 (AMD's 512 KiB). */
const CACHED_LINES = 2048
/** Rows of k this far apart or further are each on a page of their own (a TLB entry each; no prefetcher crosses). */
export const PAGE_BYTES = 4096
/**
 * What a gathered B element costs more when B's panels are runs along n but each k step of the pack starts a new
 * page: the runs come from memory one page and DRAM row at a time, which no prefetcher follows. Measured on ccsd
 * abc-adec-ebd (k = d·e, B's e a page apart and its d 224 bytes), its k walked along B's own order against A's:
 * 94-98 -> 107-110 GFLOP/s at 1 thread, 180-184 -> 208-212 at 2 (AMD Zen 5, AVX-512, one process per run, alternating).
 */
const PAGE_STEP = 1

const whole = (ixs: readonly IndexRange[]): RoleOrder => ixs.map((ix) => ({ ix, part: 'all' }))
const ofRole = (role: readonly IndexRange[], a: Access) => role.find((ix) => ix.name === lastIndex(a))

/** `role` with the stride-1 indices of `tensors` that are the role's moved innermost, the last tensor's last. */
function favouring(role: readonly IndexRange[], ...tensors: readonly Access[]): RoleOrder {
  const moved = tensors.map((a) => ofRole(role, a)).filter((ix) => ix !== undefined)
  return whole([...role.filter((ix) => !moved.includes(ix)), ...moved.filter((ix, i) => moved.indexOf(ix) === i)])
}

/** `whole`'s stride-1 index between the blocks of `lined`'s and the position within them, innermost; or nothing. */
function tiled(role: readonly IndexRange[], whole_: Access, lined: Access): readonly RoleOrder[] {
  const [w, l] = [ofRole(role, whole_), ofRole(role, lined)]
  if (w === undefined || l === undefined || w === l) return []
  const rest = role.filter((ix) => ix !== w && ix !== l)
  return [[...whole(rest), { ix: l, part: 'blocks' }, { ix: w, part: 'all' }, { ix: l, part: 'within' }]]
}

/** Where index `name` is in `a`'s subscripts (-1: not there). */
const positionIn = (a: Access, name: string) => a.index.findIndex((e) => e.terms[0]?.v === name)

/** `role` in the order of its indices in `a`. */
const inOrderOf = (role: readonly IndexRange[], a: Access): RoleOrder =>
  whole([...role].sort((x, y) => positionIn(a, x.name) - positionIn(a, y.name)))

const key = (o: RoleOrder) => o.map((p) => `${p.ix.name}:${p.part}`).join(' ')
const distinct = (xs: readonly RoleOrder[]) => xs.filter((x, i) => xs.findIndex((y) => key(y) === key(x)) === i)

/** n's indices in B's order: with C's stride-1 index innermost and B's next, the gather walks B as it lies. */
const inBsOrder = (r: ContractionRoles): IndexRange[] => inOrderOf(r.n, r.b).map((p) => p.ix)

/**
 * n's two orders with C's stride-1 index innermost, the one that wins where their costs tie first: C's own where C's
 * second index plays n (right outside the run, C's rows are whole runs: runBreaks); else B's, whose gather reads B's
 * lines in address order, which the prefetchers follow (the six ccsd_t contractions with C's second index in m,
 * every extent 16: 71-79 -> 80-111 GFLOP/s, AMD EPYC AVX-512, 1 thread). Either goes before C's other orders: B's
 * walks the lines a transposing gather shares in turn (intensli abcde-ecbfa-fd: 20 -> 22, Intel AVX-512).
 */
function preferredFirst(r: ContractionRoles, cs: RoleOrder, bs: RoleOrder): RoleOrder[] {
  return r.n.some((ix) => ix.name === secondOfC(r)) ? [cs, bs] : [bs, cs]
}

export function roleOrders(r: ContractionRoles): RoleOrders {
  return {
    m: distinct([favouring(r.m, r.a), inOrderOf(r.m, r.c)]),
    n: distinct([
      ...preferredFirst(r, favouring(r.n, r.c), favouring(inBsOrder(r), r.b, r.c)),
      favouring(r.n, r.b), favouring(r.n, r.b, r.c), favouring(r.n, r.c, r.b),
      ...tiled(r.n, r.b, r.c), ...tiled(r.n, r.c, r.b), ...pitched(r),
    ]),
    k: distinct([
      favouring(r.k, r.a), favouring(r.k, r.b), favouring(r.k, r.b, r.a), favouring(r.k, r.a, r.b),
      ...tiled(r.k, r.a, r.b), ...tiled(r.k, r.b, r.a), inOrderOf(r.k, r.b),
    ]),
  }
}

/**
 * Where B's and C's stride-1 indices are different n indices and C's second index plays n too: that second index's
 * blocks outermost, the other n indices in B's order, B's stride-1 index, the position in the block, C's stride-1
 * index. The block is the fewest points whose runs of C's stride-1 index make whole vectors, so B's gather transposes
 * its lines across panels a block of runs apart (emit/c-pack.ts), and C's rows are runs of a block's points, not of
 * one; an n block takes the whole slab inside one block (slabCode), so that at each k step B's pack reads runs over
 * the block and every index inside it in B, not one line per row. The bench's intensli cases that take it, GFLOP/s at
 * 1 / 2 threads, before and after (AMD Zen 5, AVX-512, one run each in turn): abcde-ecbfa-fd 37 / 61 -> 54 / 89,
 * abcd-dbea-ec 47 / 88 -> 61 / 117, abcde-efbad-cf 49 / 88 -> 54 / 90.
 */
function pitched(r: ContractionRoles): readonly RoleOrder[] {
  const [run, own, second] = [ofRole(r.n, r.c), ofRole(r.n, r.b), r.n.find((ix) => ix.name === secondOfC(r))]
  if (run === undefined || own === undefined || second === undefined || new Set([run, own, second]).size < 3) return []
  const rest = inOrderOf(r.n.filter((ix) => ix !== run && ix !== own && ix !== second), r.b)
  return [[
    { ix: second, part: 'blocks', block: 'lanes' }, ...rest, { ix: own, part: 'all' },
    { ix: second, part: 'within', block: 'lanes' }, { ix: run, part: 'all' },
  ]]
}

/** Whether an order is pitched (its C rows and B gather as pitched() says). */
const isPitched = (o: RoleOrder): boolean => o[0]?.part === 'blocks' && o[0].block === 'lanes'

/** A split piece's block as a C expression (pk_lane_block of C's stride-1 index for 'lanes'). */
export function blockCode(r: ContractionRoles, p: Piece, extent: (ix: IndexRange) => string, lanes: number): string {
  if (p.block !== 'lanes') return String(LINE_ELEMENTS)
  return `pk_lane_block(${extent(ofRole(r.n, r.c)!)}, ${lanes})`
}

/**
 * A pitched order's slab (every point inside one block of C's second index), as a C expression; undefined for any
 * other order. Its n block takes the whole slab where that fits (pk_slab_nc).
 */
export function slabCode(r: ContractionRoles, o: RoleOrder, extent: (ix: IndexRange) => string, lanes: number): string | undefined {
  if (!isPitched(o)) return undefined
  return o.slice(1).map((p) => (p.part === 'within' ? blockCode(r, p, extent, lanes) : `(${extent(p.ix)})`)).join('*')
}

/** Whether an order needs pk_offsets_tiled (it splits an index) rather than pk_offsets. */
export const isTiled = (o: RoleOrder): boolean => o.some((p) => p.part !== 'all')

/** C's index right outside its stride-1 index, whose rows a tile walks down when it is m's innermost. */
const secondOfC = (r: ContractionRoles): string | undefined => r.c.index.at(-2)?.terms[0]?.v

/** C's rows run down C under m order `m`: its innermost index is C's second, right outside C's stride-1 index. */
export const cRowsRunDown = (r: ContractionRoles, m: RoleOrder): boolean => secondOfC(r) === m.at(-1)!.ix.name

/**
 * C's added cost per element where its runs along n (its stride-1 index, n's innermost) end short: C's second index
 * follows the run neither down the tile's rows (m's innermost, where it plays m) nor along them (right outside a
 * whole run, where it plays n), so each run is a stream of its own, and one shorter than a line shares it with a run
 * written at another time: LINE_ELEMENTS/length more (in n, a tiled order's runs count as a line, a pitched one's
 * as its block's points' runs). Measured (AVX-512, 1 thread): ccsd_t's degb forms, C's own m order against A's, 80 -> 100 GFLOP/s (Intel Xeon);
 * abcdef-gdab-efgc, C's own n order against B's, 29 -> 59 (AMD EPYC).
 */
function runBreaks(r: ContractionRoles, m: RoleOrder, n: RoleOrder, extent: (ix: IndexRange) => string, lanes: number): string {
  const run = n.at(-1)!
  const second = secondOfC(r)
  if (run.ix.name !== lastIndex(r.c) || second === undefined) return ''
  const outside = n.at(-2)
  if (isPitched(n)) return ` + ${LINE_ELEMENTS}.0/(${blockCode(r, outside!, extent, lanes)}*(${extent(run.ix)}))`
  const breaks = r.m.some((ix) => ix.name === second)
    ? run.part === 'all' && !cRowsRunDown(r, m)
    : r.n.some((ix) => ix.name === second) &&
      !(run.part === 'all' && outside !== undefined && outside.ix.name === second && outside.part === 'all')
  return breaks ? ` + ${LINE_ELEMENTS}.0/(${run.part === 'all' ? extent(run.ix) : LINE_ELEMENTS})` : ''
}

/**
 * When B's gather transposes across panels (emit/c-pack.ts), as a C condition: n's innermost piece a run of C's
 * stride-1 index at most TRANSPOSED_RUN long (a tiled order's block within a line, or the whole index when that
 * short) and B's stride-1 index whole right outside it. The gather then loads each of B's lines whole as a vector and
 * transposes them in registers, so B's elements cost as contiguous ones: intensli abc-bda-dc (m 24, k 200) ran 50 ->
 * 73 GFLOP/s tiled against B's stride-1 index innermost, which the per-element price had ranked first (AMD EPYC
 * AVX-512, 1 thread). In a pitched order, where B's stride-1 index is outside a block of C's runs: when the runs the
 * block makes are whole vectors.
 */
function acrossPanels(r: ContractionRoles, n: RoleOrder, extent: (ix: IndexRange) => string, lanes: number): string | undefined {
  const [outside, run] = [n.at(-2), n.at(-1)!]
  if (isPitched(n)) return `(pk_min64(${blockCode(r, outside!, extent, lanes)}, ${extent(outside!.ix)})*(${extent(run.ix)})) % ${lanes} == 0`
  if (outside === undefined || outside.ix.name !== lastIndex(r.b) || outside.part !== 'all' || run.ix.name !== lastIndex(r.c)) return undefined
  if (run.part === 'within') return '1'
  return run.part === 'all' ? `(${extent(run.ix)}) <= ${TRANSPOSED_RUN}` : undefined
}

/**
 * The stride of index `name` in `a` as a C expression of the extents, or undefined unless `name` and every subscript
 * after it are plain role indices (their extents are the dimensions').
 */
function strideIn(r: ContractionRoles, a: Access, name: string, extent: (ix: IndexRange) => string): string | undefined {
  const plain = (e: Affine) => (e.terms.length === 1 && e.terms[0].coeff === 1 ? e.terms[0].v : undefined)
  const at = a.index.findIndex((e) => plain(e) === name)
  if (at < 0) return undefined
  const roles = [...r.batch, ...r.m, ...r.n, ...r.k]
  const later = a.index.slice(at + 1).map((e) => roles.find((ix) => ix.name === plain(e)))
  if (later.some((ix) => ix === undefined)) return undefined
  return later.length === 0 ? '1' : later.map((ix) => `(${extent(ix!)})`).join('*')
}

/** B's page steps (PAGE_STEP) as a C term added to its element cost: n's innermost B's stride-1 index, k's a page on. */
function pageSteps(r: ContractionRoles, n: RoleOrder, k: RoleOrder, extent: (ix: IndexRange) => string, bytes: number): string {
  if (n.at(-1)!.ix.name !== lastIndex(r.b)) return ''
  const stride = strideIn(r, r.b, k.at(-1)!.ix.name, extent)
  if (stride === undefined) return ''
  return ` + ((double)${stride}*${bytes} >= ${PAGE_BYTES} ? ${PAGE_STEP}.0 : 0.0)`
}

/** What orderCostTerms prices a call's orders with: the blocking's k and n blocks, its tile, an element's bytes, a vector's elements. */
export interface CostBlocks {
  readonly kc: number
  readonly nc: number
  readonly mr: number
  readonly nr: number
  readonly bytes: number
  readonly lanes: number
}

/**
 * The cost of m order `m`, n order `n` and k order `k` for the call, as C expressions of the extents (`extent` prints
 * one) and of `pk_m`, `pk_n`, `pk_k`, one per tensor: C's depends on the m and n orders only, B's on n and k, A's on
 * m and k (so the generated C prices each pair once, not each triple).
 */
export function orderCostTerms(
  r: ContractionRoles,
  m: RoleOrder,
  n: RoleOrder,
  k: RoleOrder,
  extent: (ix: IndexRange) => string,
  blocks: CostBlocks,
): { readonly c: string; readonly b: string; readonly a: string } {
  const pieceExtent = (p: Piece) => {
    const block = blockCode(r, p, extent, blocks.lanes)
    return p.part === 'all' ? `(${extent(p.ix)})` : p.part === 'within' ? block : `((${extent(p.ix)} + ${block} - 1)/${block})`
  }
  // Per element of tensor `a`, walked along the orders of `walked`, each with the lines touched per point meanwhile:
  // a pack reads a panel's rows at each k step (its width), and a panel's points at each of its kb steps.
  const perElement = (a: Access, walked: readonly (readonly [RoleOrder, string])[], inCache: number): string => {
    const s = lastIndex(a)
    for (const [order, rows] of walked) {
      const at = order.map((p) => p.ix.name).lastIndexOf(s)
      if (at === -1) continue
      const inside = order.slice(at + 1)
      if (inside.length === 0) return '1.0'
      const apart = inside.map(pieceExtent).join('*')
      return `(${apart} == 1 ? 1.0 : (double)${apart}*${rows} <= ${CACHED_LINES} ? ${inCache}.0 : ${LINE_ELEMENTS}.0)`
    }
    return `${LINE_ELEMENTS}.0`
  }
  const kb = `pk_min64(pk_k, ${blocks.kc})`
  const [mr, nr] = [String(blocks.mr), String(blocks.nr)]
  const c = `(double)pk_m*pk_n*(pk_round_up(pk_k, ${blocks.kc})/${blocks.kc})*(${perElement(r.c, [[n, mr], [m, nr]], IN_CACHE.update)}${runBreaks(r, m, n, extent, blocks.lanes)})`
  const across = acrossPanels(r, n, extent, blocks.lanes)
  const bElement = `(${perElement(r.b, [[n, kb], [k, nr]], IN_CACHE.read)}${pageSteps(r, n, k, extent, blocks.bytes)})`
  const b = `(double)pk_n*pk_k*${across === undefined ? bElement : `(${across} ? 1.0 : ${bElement})`}`
  const a = `(double)pk_m*pk_k*(pk_round_up(pk_n, ${blocks.nc})/${blocks.nc})*${perElement(r.a, [[m, kb], [k, mr]], IN_CACHE.read)}`
  return { c, b, a }
}
