/**
 * The GEMM that emit/c-gemm.ts really runs, as PolyDL's reuse analysis sees it: three cache-block loops in the
 * blocking's order (jc over nc columns, pc over kc, ic over mc rows), the two register-tile loops jr (NR columns) and
 * ir (MR rows) in its `inner` order, and the microkernel's k loop `p` reading packed panels; the packing of an
 * mc × kc block of A and a kc × nc panel of B as statements at the depth where c-gemm.ts packs them (inside the inner
 * of their two block loops). Unpacked operands are read in place by the microkernel.
 *
 * Two views of the same nest:
 * - `packedGemmNest`: the single-statement loop nest for plugin/analysis (Algorithm 1 on real access maps; packed
 *   buffers are addressed by position in the buffer, so a block packed again reuses the same memory).
 * - `gemmCost`: the same analysis in closed form, fast enough to rank hundreds of variants per shape. For each tensor
 *   and each loop that does not index it, the exact (most recent source, not transitive) reuse carried by that loop
 *   has a working set: the data touched between an element's last use in one iteration and its first use in the next
 *   (PolyDL Algorithm 1's WS_min for that dependence). Algorithm 2 places it in the first cache level that holds it
 *   (the working sets of one nest contain each other, so each is compared with a level's capacity rather than
 *   summed); a level too small for it still serves the share it holds, the rest reloads from farther out. That gives
 *   the bytes each level serves, priced by a cycle estimate (ranked: see gemmCost) and by Eq. 1 (ties).
 * Per thread: the split range's share (the busiest thread's), shared caches divided between the threads.
 */
import { internalAssert } from '../diagnostics.ts'
import { add, constant, variable } from '../ir/affine.ts'
import type { Affine, GemmBlocking } from '../ir/nodes.ts'
import type { LoopNest, NestAccess } from '../analysis/loop-nest.ts'
import type { Machine } from '../targets/machine.ts'
import { FEWEST_PREFETCH_STREAMS } from '../targets/prefetch.ts'
import { L1_LINE_BYTES, L1_SET_SPAN, L1_WAYS, rowsShareSets } from './l1-sets.ts'

export type BlockLoop = GemmBlocking['order'][number]

/** A GEMM call's sizes and its microkernel's register tile. */
export interface GemmProblem {
  readonly m: number
  readonly n: number
  readonly k: number
  /** Independent GEMMs in the call (1: not batched). */
  readonly batch: number
  readonly mr: number
  readonly nr: number
  /** Elements per vector register (the microkernel's lanes). */
  readonly lanes: number
  /** Bytes of one element. */
  readonly bytes: number
  /**
   * B lies in a bound array (`f.bind`): packed once, by the first call, so a packed B costs no pack per call and its
   * panels come from that packed form, each block its own, as one contiguous stream.
   */
  readonly boundB?: boolean
}

/** The block loops' names in c-gemm.ts. */
export const BLOCK_LOOP_NAME: Readonly<Record<BlockLoop, string>> = { n: 'jc', k: 'pc', m: 'ic' }

/** Work below which a call runs on one thread: PK_GEMM_PARALLEL_MIN_WORK of native/polykern_simd.h. */
export const PARALLEL_MIN_WORK = 2 ** 20

export const roundUp = (x: number, unit: number): number => Math.ceil(x / unit) * unit

/** Whether the call's threads split one GEMM's `m` or `n` range (c-gemm.ts), or run whole GEMMs of the batch. */
export function threading(p: GemmProblem, v: GemmBlocking, threads: number): 'range' | 'batch' | 'none' {
  const big = threads > 1 && p.batch * p.m * p.n * p.k >= PARALLEL_MIN_WORK
  if (v.parallel === 'batch') return big && p.batch > 1 ? 'batch' : 'none'
  return big && v.parallel !== 'none' ? 'range' : 'none'
}

/**
 * What the busiest thread runs of one GEMM: its share of the split range (whole register tiles, as even as they
 * allow: pk_share) and the block sizes the driver uses, clamped to the whole GEMM's sizes (not to the share).
 */
export function threadShare(p: GemmProblem, v: GemmBlocking, threads: number): {
  m: number; n: number; mc: number; nc: number; kc: number
} {
  const split = threading(p, v, threads) === 'range'
  const share = (total: number, unit: number) => Math.min(total, Math.ceil(Math.ceil(total / unit) / threads) * unit)
  return {
    m: split && v.parallel === 'm' ? share(p.m, p.mr) : p.m,
    n: split && v.parallel === 'n' ? share(p.n, p.nr) : p.n,
    mc: Math.min(v.mc, roundUp(p.m, p.mr)),
    nc: Math.min(v.nc, roundUp(p.n, p.nr)),
    kc: Math.min(v.kc, p.k),
  }
}

/**
 * The busiest thread's block loops: their block counts, and blocks of the average size (the driver's last block is
 * partial), so that counts × blocks cover its share of the sizes and barely more.
 */
export function blockLoops(p: GemmProblem, v: GemmBlocking, threads: number): {
  blocks: Record<BlockLoop, number>; mc: number; nc: number; kc: number
} {
  const s = threadShare(p, v, threads)
  const even = (total: number, block: number, unit: number) => {
    const count = Math.ceil(total / block)
    return [count, roundUp(Math.ceil(total / count), unit)]
  }
  const [m, mc] = even(s.m, s.mc, p.mr)
  const [n, nc] = even(s.n, s.nc, p.nr)
  const [k, kc] = even(p.k, s.kc, 1)
  return { blocks: { m, n, k }, mc, nc, kc }
}

// ---------------------------------------------------------------------------------------------------------------
// The loop nest for plugin/analysis.

/**
 * The packed nest as a LoopNest: block loops `jc pc ic` in the variant's order, then the register-tile loops `jr ir`
 * (or `ir jr`: `inner`), then `p r c` (r < MR, c < NR: the microkernel's tile). Packed operands are the buffers
 * `Ap[ir][p][r]` and `Bp[jr][p][c]`; unpacked ones are A[m][k] and B[k][n] at their global indices. One GEMM of the
 * batch, on one thread, with blockLoops' blocks: edges are counted as if full, as analysis/loop-nest.ts does.
 */
export function packedGemmNest(p: GemmProblem, v: GemmBlocking): LoopNest {
  const { blocks, mc, nc, kc } = blockLoops(p, v, 1)
  const extents: Record<string, number> = {
    jc: blocks.n, pc: blocks.k, ic: blocks.m, jr: nc / p.nr, ir: mc / p.mr, p: kc, r: p.mr, c: p.nr,
  }
  const names = [...v.order.map((l) => BLOCK_LOOP_NAME[l]), ...(v.inner === 'nm' ? ['jr', 'ir'] : ['ir', 'jr']), 'p', 'r', 'c']
  const sum = (...terms: [string, number][]): Affine => terms.reduce<Affine>((e, [n, c]) => add(e, variable(n, c)), constant(0))
  const row = sum(['ic', mc], ['ir', p.mr], ['r', 1])
  const col = sum(['jc', nc], ['jr', p.nr], ['c', 1])
  const depth = sum(['pc', kc], ['p', 1])
  const a = v.packA ? { tensor: 'Ap', index: [variable('ir'), variable('p'), variable('r')] } : { tensor: 'A', index: [row, depth] }
  const b = v.packB ? { tensor: 'Bp', index: [variable('jr'), variable('p'), variable('c')] } : { tensor: 'B', index: [depth, col] }
  const accesses: NestAccess[] = [
    { ...a, kind: 'read' },
    { ...b, kind: 'read' },
    { tensor: 'C', kind: 'read', index: [row, col] },
    { tensor: 'C', kind: 'write', index: [row, col] },
  ]
  return {
    loops: names.map((name) => ({ name, extent: extents[name] })),
    accesses,
    elementBytes: new Map([a.tensor, b.tensor, 'C'].map((t) => [t, p.bytes])),
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The closed-form model.

/**
 * One statement's use of a tensor: it runs in every iteration of the loop at `depth` and touches `unit` elements
 * there, different ones for every value of its `support` loops (all at or outside `depth`) and the same ones for
 * every value of the others.
 */
export interface Touch {
  readonly tensor: string
  readonly depth: number
  readonly support: readonly number[]
  readonly unit: number
  /** A load and a store per element (C): twice the bytes. */
  readonly readWrite?: boolean
  /**
   * An operand the microkernel reads in place: the rows of its panel one call reads, the share of its misses the
   * prefetchers follow (the rest wait on latency), and whether the rows share L1 sets beyond its ways (l1-sets.ts):
   * then no tile finds them in L1, and the next tile's reads of them wait on L2 (packing avoids both).
   */
  readonly strided?: { readonly rows: number; readonly followed: number; readonly sharedSets: boolean }
  /** A pack the threads share: each copies its part of the panel, then all wait at a barrier. */
  readonly shared?: boolean
  /** A pack's copy into its buffer, which the microkernel then reads. */
  readonly copy?: boolean
  /** A pack's read of its source: elements contiguous in memory per row of the block (its stride-1 side). */
  readonly run?: number
}

/**
 * Which side of each operand is contiguous: `a`, A along k (else along m); `b`, B along n (else along k). The
 * microkernel reads an operand in place only this way round (select.ts's `unpacked`), and a pack reads rows this long.
 */
export interface OperandLayout {
  readonly a: boolean
  readonly b: boolean
  /** Both operands packed through offset tables, C tiles stored through them (a `gathered` contraction). */
  readonly gathered?: boolean
  /**
   * Gathered only: C's innermost m index is the dimension just outside its last (n) one, so the rows of a tile
   * continue each other in memory and tiles walked down the columns (inner `nm`) continue C's runs.
   */
  readonly cRunsDown?: boolean
}

/**
 * A gathered pack reads its source element by element through the offset tables: a scalar copy, and runs of
 * contiguous elements only as long as the tensor's stride-1 index, which the build does not know (TCCG's are 24 to
 * 72 elements; transposed ones 1). Priced as source rows of GATHERED_RUN elements (short enough that the prefetchers
 * miss them, so each line from beyond L1 is waited for) and GATHER_CYCLES per element copied.
 */
export const GATHERED_RUN = 8
export const GATHER_CYCLES = 1

/**
 * A gathered C tile whose rows or columns are not one stride apart goes through a local tile: per element a load,
 * an add and a store through the tables, after each k block. Priced as if every tile did.
 */
export const SCATTER_CYCLES = 1

export const ROW_MAJOR: OperandLayout = { a: true, b: true }

/** The nest one thread runs for one GEMM of the call: loops outermost first, every touch, and GEMMs per thread. */
export interface ModelNest {
  readonly loops: readonly { readonly name: string; readonly extent: number }[]
  readonly touches: readonly Touch[]
  readonly gemms: number
  /** The width of an n block, in elements. */
  readonly nc: number
}

/**
 * The nest the busiest thread runs for one GEMM: block loops over its share of the split range. When the split
 * loop is the innermost block loop, the threads pack the other operand's panel together and share it: each packs its
 * part of every panel and reads all of it.
 */
export function modelNest(
  p: GemmProblem, v: GemmBlocking, threads: number, layout: OperandLayout = ROW_MAJOR, streams = FEWEST_PREFETCH_STREAMS,
): ModelNest {
  const { blocks, mc, nc, kc } = blockLoops(p, v, threads)
  const mode = threading(p, v, threads)
  const gemms = mode === 'batch' ? Math.ceil(p.batch / threads) : p.batch
  const at = (l: BlockLoop): number => v.order.indexOf(l)
  const sharedBy = (operand: 'a' | 'b') =>
    mode === 'range' && at(v.parallel as BlockLoop) === 2 && (operand === 'a') === (v.parallel === 'n') ? threads : 1
  const [jr, ir] = v.inner === 'nm' ? [3, 4] : [4, 3]
  // Rows of C and of an unpacked A a tile really touches: fewer than MR when M is (the microkernel masks the rest).
  const rows = Math.min(p.mr, p.m)
  const P = 5
  const tiles = [
    { name: 'jr', extent: Math.ceil(nc / p.nr) },
    { name: 'ir', extent: Math.ceil(mc / p.mr) },
  ]
  const loops = [
    ...v.order.map((l) => ({ name: BLOCK_LOOP_NAME[l], extent: blocks[l] })),
    ...(v.inner === 'nm' ? tiles : [tiles[1], tiles[0]]),
    { name: 'p', extent: kc },
  ]
  const touches: Touch[] = [
    { tensor: 'C', depth: Math.max(jr, ir), support: [at('m'), at('n'), jr, ir], unit: rows * p.nr, readWrite: true },
  ]
  if (v.packA) {
    const depth = Math.max(at('m'), at('k'))
    const unit = Math.ceil((mc * kc) / sharedBy('a'))
    touches.push(
      { tensor: 'A', depth, support: [at('m'), at('k')], unit, shared: sharedBy('a') > 1, run: layout.gathered ? GATHERED_RUN : layout.a ? kc : mc },
      { tensor: 'Ap', depth, support: [], unit, copy: true },
      { tensor: 'Ap', depth: P, support: [ir, P], unit: p.mr },
    )
  } else {
    touches.push({ tensor: 'A', depth: P, support: [at('m'), at('k'), ir, P], unit: rows, strided: {
      rows, followed: kc * p.bytes >= PREFETCH_RUN_BYTES ? 1 : 0, sharedSets: rowsShareSets(rows, p.k * p.bytes, Math.ceil((kc * p.bytes) / L1_LINE_BYTES)),
    } })
  }
  if (v.packB && p.boundB) {
    touches.push({ tensor: 'Bp', depth: P, support: [at('k'), at('n'), jr, P], unit: p.nr })
  } else if (v.packB) {
    const depth = Math.max(at('n'), at('k'))
    const unit = Math.ceil((kc * nc) / sharedBy('b'))
    touches.push(
      { tensor: 'B', depth, support: [at('k'), at('n')], unit, shared: sharedBy('b') > 1, run: layout.gathered ? GATHERED_RUN : layout.b ? nc : kc },
      { tensor: 'Bp', depth, support: [], unit, copy: true },
      { tensor: 'Bp', depth: P, support: [jr, P], unit: p.nr },
    )
  } else {
    // Each row of a B read in place is a stream the next tile continues, nc elements long: the prefetchers follow
    // `streams` such streams at once (Machine.prefetchStreams: 8 to 32 on the cores measured), and none shorter than
    // a prefetched run. Rows that share L1 sets (l1-sets.ts) evict each other's lines fetched ahead, so no more of
    // them are followed than a set has ways (1 × 4096 × 4096, rows a page apart, AMD EPYC Zen 5: kc 32 ran 0.71x of
    // kc 8; 3 × 4160 × 4096, a line further apart, 1.35x). Its rows are n apart as the ranking sees it (row-major);
    // a call's own stride picks between such classes (select.ts, spreadB). Measured, 128 × 2048 × 4096 ran 138
    // GFLOP/s with B in place (kc 64) against 173 packed, 2048 × 2048 × 32 135 against 173 (Intel, AVX-512).
    const sharedSets = rowsShareSets(kc, p.n * p.bytes, Math.ceil((p.nr * p.bytes) / L1_LINE_BYTES))
    const followedRows = sharedSets ? Math.min(streams, L1_WAYS) : streams
    // A prefetcher's stream stays within a page: rows closer together share one (32 × 128 × 128 × 64 batched, B's 64
    // rows on 8 pages, ran in place within 1-2% of packed, AMD EPYC Zen 5).
    const pages = Math.min(kc, Math.ceil((kc * p.n * p.bytes) / L1_SET_SPAN))
    const followed = nc * p.bytes >= PREFETCH_RUN_BYTES ? Math.min(1, followedRows / pages) : 0
    touches.push({ tensor: 'B', depth: P, support: [at('k'), at('n'), jr, P], unit: p.nr, strided: { rows: kc, followed, sharedSets } })
  }
  return { loops, touches, gemms, nc }
}

/** The reuse of `tensor` carried by loop `loop` and its working set (elements, all tensors). */
export interface ReuseWorkingSet {
  readonly tensor: string
  readonly loop: string
  readonly elements: number
  /** Algorithm 2: the first cache level holding it (1-based), or 0 for memory. */
  readonly level: number
  /** How many element loads the reuse serves (per thread and GEMM). */
  readonly reuses: number
}

export interface GemmCost {
  /** Estimated cycles of the busiest thread (see gemmCost): lower is better. */
  readonly cost: number
  /** PolyDL's Eq. 1 over the same bytes: Σ bytes served by a level × its latency / bandwidth. */
  readonly eq1: number
  /** Bytes served per level (L1 first), then memory, for the busiest thread's GEMMs. */
  readonly servedBytes: readonly number[]
  /** The estimate's parts: FMAs, the slowest level's streaming, packing, microkernel calls, blocks, stalls, TLB. */
  readonly cycles: {
    readonly compute: number
    readonly transfer: number
    readonly pack: number
    readonly calls: number
    readonly blocks: number
    readonly stalls: number
    readonly tlb: number
  }
  readonly workingSets: readonly ReuseWorkingSet[]
}

/**
 * Fraction of each cache level (L1, L2, L3 and beyond) a working set may fill and still be reused there: L1 as the
 * paper's fully associative ideal; half of L2 and L3, the other half holding what streams past the reused data (and,
 * in L3, other cores' data). Measured on this machine, a packed B panel over half of L2 slows 1024³ down.
 */
export const CAPACITY_SHARE: readonly number[] = [1, 0.5, 0.5]

/** FMA units per core (every x86 core with AVX2 or AVX-512 here has two), for the microkernel's compute time. */
export const FMA_UNITS = 2

/**
 * Cycles a microkernel call spends outside its k loop, per accumulator register: loading the C tile, adding,
 * storing (PolyDL's LIBXSMM microkernel does the same around its outer products), plus the call's own setup.
 */
export const CALL_CYCLES_PER_ACCUMULATOR = 2
export const CALL_CYCLES = 16

/**
 * Share of the time to move the microkernel's operands from L2 that the core waits for while the hardware
 * prefetchers keep up (measured: kc past the L1 size of a B micro-panel, kc·NR elements, costs little); from farther
 * levels, in proportion to their latency.
 */
export const STALL_SHARE = 0.1

/** The most a prefetched stream leaves waiting, even from memory: it is bandwidth-bound there, not latency-bound. */
export const FOLLOWED_MAX = 0.5

/**
 * What the hardware prefetchers follow of an A read in place: MR rows (a stream each; Intel's L2 streamer tracks 32)
 * read for at least this many contiguous bytes per microkernel call (a few lines are over before a stream is seen).
 */
export const PREFETCH_RUN_BYTES = 512

/**
 * L1 misses a core keeps in flight for loads the prefetchers do not follow: the copy loop of a pack whose source rows
 * are short. Fitted here on 128 × 2048 × 4096, where packing 512 × 96 blocks of B (then read 48 columns at a time)
 * took about twice the time their bytes take to stream: 172 GFLOP/s against 183 with 256 × 768 blocks.
 */
export const OUTSTANDING_MISSES = 6

/**
 * Share of the C tile's misses a microkernel call waits for. Walking the tiles down C's columns (inner `nm`), all of
 * them; walking along its rows (`mn`), the next tile continues this one's rows, which the prefetchers follow once a
 * row runs long enough: by the block's width in bytes, all for 1 KiB or less, a quarter from 4 KiB.
 */
function cTileExposure(p: GemmProblem, v: GemmBlocking, nc: number, kc: number, layout: OperandLayout, latency: number): number {
  if (!layout.gathered) return v.inner === 'nm' ? 1 : Math.min(1, Math.max(0.25, C_RUN_BYTES / (nc * p.bytes)))
  // A gathered tile's columns run only as long as C's last extent, so along the rows each tile starts new runs;
  // down the columns they continue when cRunsDown, and the prefetchers follow them. That matters when the tile's k
  // loop is shorter than a memory latency, so the prefetch before it (c-gemm.ts) cannot hide the misses (tccg
  // abcdef-dega-gfbc, k = 16: nm 55, mn 39 GFLOP/s); after a longer loop the lines have left L1 again whichever
  // way the tiles walk (abc-adec-ebd, k = 2912: mn 1.5x nm).
  const loop = (p.mr * p.nr * Math.min(p.k, kc)) / (p.lanes * FMA_UNITS)
  return v.inner === 'nm' && layout.cRunsDown && loop < latency ? GATHERED_C_DOWN_EXPOSURE : 1
}

const GATHERED_C_DOWN_EXPOSURE = 0.25

/** The k block length of a model nest (its microkernel loop). */
const kcOf = (nest: ModelNest): number => nest.loops.find((l) => l.name === 'p')!.extent

const C_RUN_BYTES = 1024

/**
 * The first-level data TLB (64 entries on these cores) and the cost of a miss there that the second level serves.
 * A microkernel call reading B in place touches kc rows, each on its own page when rows are 4 KiB or more apart.
 */
export const TLB_ENTRIES = 64
export const TLB_MISS_CYCLES = 7

/**
 * Cycles of one iteration of the innermost block loop outside the microkernel calls: block bounds, pack calls,
 * pointer set-up, the macro-kernel's loop heads. They make blocks of a few tiles lose to larger ones.
 */
export const BLOCK_CYCLES = 200

/** A team barrier around a panel the threads pack together. */
export const BARRIER_CYCLES = 400

/**
 * Working sets (Algorithm 1), their cache levels (Algorithm 2), the bytes each level serves, and the busiest thread's
 * cycles. Eq. 1 prices every byte as exposed latency; on these cores the prefetchers stream packed panels, so such a
 * byte costs its transfer time at the level serving it, overlapped with the FMAs (a roofline: the slowest of them
 * bounds the run). Added on top, as they do not overlap: packing (a copy before its panel is used), each microkernel
 * call's fixed cost, and the loads that stall it (its C tile's and an unpacked operand's beyond L1, a tenth of a
 * packed panel's).
 */
export function gemmCost(p: GemmProblem, v: GemmBlocking, machine: Machine, threads: number, layout: OperandLayout = ROW_MAJOR): GemmCost {
  internalAssert(v.mc % p.mr === 0 && v.nc % p.nr === 0, 'schedule', () => `blocks ${v.mc} x ${v.nc} are not whole tiles`)
  const nest = modelNest(p, v, threads, layout, machine.prefetchStreams)
  const line = machine.caches[0]?.lineBytes ?? 64
  const facts = tensorFacts(nest)
  // The C tile's exposure is the same for every level: computed once, outside the loops below.
  const cExposure = cTileExposure(p, v, nest.nc, kcOf(nest), layout, machine.memory.latency)
  const capacities = machine.caches.map(
    (c) => (c.bytes * CAPACITY_SHARE[Math.min(c.level, CAPACITY_SHARE.length) - 1]) / (c.sharedBy > 1 ? Math.min(c.sharedBy, threads) : 1),
  )
  const levels = capacities.length
  const costs = [...machine.caches, machine.memory]
  const sets: ReuseWorkingSet[] = []
  const served = costs.map(() => 0)
  const streamed = costs.map(() => 0)
  let pack = 0
  let stalls = 0
  // A packed operand's source is read by its pack only: those bytes are the copy's, before the panel is used.
  const isPacked = (t: string) => (t === 'A' && v.packA) || (t === 'B' && v.packB)
  // A line from beyond L1 no prefetcher fetched ahead: the core waits for it, a few misses at a time.
  const waitedLine = (i: number): number => Math.max(line / costs[i].bandwidth, costs[i].latency / OUTSTANDING_MISSES)
  // A pack reading rows shorter than a prefetched run waits for each line like that.
  const lineCycles = (i: number, run: number | undefined): number =>
    i > 0 && run !== undefined && run * p.bytes < PREFETCH_RUN_BYTES ? waitedLine(i) : line / costs[i].bandwidth
  for (const f of facts) {
    // misses[i]: element loads that reach past level i (i = 0: the registers, so every access).
    const misses = [f.accesses]
    for (let i = 1; i <= levels; i++) misses.push(f.footprint[0])
    for (const w of reusesOf(nest, facts, f)) {
      // An operand read in place along more rows than L1 has ways keeps no micro-panel there for the next tile: where
      // its rows share sets (l1-sets.ts) for no loop at all; where they spread, still not across the tile loops (with
      // the set test alone, the batched 32 × 128 × 128 × 64 went in place and ran 0.90-0.93x, AMD EPYC Zen 5).
      const noL1 = f.strided?.sharedSets === true ||
        ((f.strided?.rows ?? 0) > L1_WAYS && (w.loop === 'jr' || w.loop === 'ir'))
      const bytes = w.elements * p.bytes
      let level = 0
      while (level < levels && (bytes > capacities[level] || (level === 0 && noL1))) level++
      // Spelled out: an object spread here was the ranking's largest cost.
      sets.push({ tensor: w.tensor, loop: w.loop, elements: w.elements, reuses: w.reuses, level: level === levels ? 0 : level + 1 })
      // A working set larger than a level still finds the part of it the level holds there.
      for (let i = 1; i <= levels; i++) {
        const held = i === 1 && noL1 ? 0 : Math.min(1, capacities[i - 1] / bytes)
        misses[i] += w.reuses * (1 - held)
      }
    }
    const bytes = (f.readWrite ? 2 : 1) * p.bytes * nest.gemms
    const packed = isPacked(f.tensor)
    // Loads that miss L1 stall the microkernel: all of its C tile's (loaded and stored around its k loop) and, of an
    // operand read in place, those the prefetchers do not follow, each line waited for; of the rest, what the
    // prefetchers do not hide.
    // Rows that share L1 sets evict each other: the next tile's reads of them miss on lines no prefetcher brings back.
    const followedFrom = (i: number) => (i === 1 && f.strided?.sharedSets ? 0 : (f.strided?.followed ?? 1))
    // The share of a prefetched stream's misses left waiting grows with the latency of the level serving it.
    const exposed = (i: number) =>
      f.readWrite ? cExposure : Math.min(FOLLOWED_MAX, (STALL_SHARE * costs[i].latency) / costs[1].latency)
    for (let i = 0; i <= levels; i++) {
      const b = (i < levels ? Math.max(0, misses[i] - misses[i + 1]) : misses[levels]) * bytes
      served[i] += b
      if (packed) pack += (b / line) * lineCycles(i, f.run)
      else if (i === 0) streamed[i] += b
      else {
        const ahead = followedFrom(i) * b
        stalls += (exposed(i) * ahead) / costs[i].bandwidth + ((b - ahead) / line) * waitedLine(i)
        streamed[i] += (1 - exposed(i)) * ahead
      }
    }
  }
  const eq1 = served.reduce((sum, bytes, i) => sum + (bytes * costs[i].latency) / costs[i].bandwidth, 0)
  for (const t of nest.touches) {
    if (!isPacked(t.tensor)) continue
    const runs = iterations(nest, t.depth) * nest.gemms
    pack += (t.unit * p.bytes * runs) / costs[0].bandwidth + (t.shared ? BARRIER_CYCLES * runs : 0)
    if (layout.gathered) pack += t.unit * runs * GATHER_CYCLES
    // The other threads' parts of a shared panel are in their cores' caches: the first read of each comes from the
    // last level the cores share, and the barrier before it leaves nothing to overlap that with.
    if (t.shared) pack += (t.unit * (threads - 1) * p.bytes * runs) / costs[levels - 1].bandwidth
  }
  const transfer = Math.max(...streamed.map((b, i) => b / costs[i].bandwidth))
  // Whole register tiles over the thread's share, every k.
  const share = threadShare(p, v, threads)
  const tiles = Math.ceil(share.m / p.mr) * Math.ceil(share.n / p.nr) * nest.gemms
  const compute = (tiles * p.mr * p.nr * p.k) / (p.lanes * FMA_UNITS)
  const scatter = layout.gathered ? SCATTER_CYCLES * p.mr * p.nr : 0
  const calls = tiles * Math.ceil(p.k / share.kc) * (CALL_CYCLES + (CALL_CYCLES_PER_ACCUMULATOR * p.mr * p.nr) / p.lanes + scatter)
  const blocks = iterations(nest, 2) * nest.gemms * BLOCK_CYCLES
  // Each row of an operand read in place is on a page of its own: past the first-level TLB, a lookup per row per call.
  const pages = nest.touches.reduce((n, t) => (t.strided && t.strided.rows > TLB_ENTRIES ? n + t.strided.rows : n), 0)
  const tlb = tiles * Math.ceil(p.k / share.kc) * pages * TLB_MISS_CYCLES
  const cost = Math.max(compute, transfer) + pack + calls + blocks + stalls + tlb
  return { cost, eq1, servedBytes: served, cycles: { compute, transfer, pack, calls, blocks, stalls, tlb }, workingSets: sets }
}

/** Iterations of the loops down to `depth`, inclusive. */
const iterations = (nest: ModelNest, depth: number): number => {
  let n = 1
  for (let q = 0; q <= depth; q++) n *= nest.loops[q].extent
  return n
}

/** What the model needs of one tensor, computed once per nest. */
interface TensorFacts {
  readonly tensor: string
  /** footprint[q + 1]: distinct elements in one iteration of loop q (q = -1: the whole nest). */
  readonly footprint: readonly number[]
  readonly indexed: readonly boolean[]
  readonly deepest: number
  readonly accesses: number
  readonly readWrite: boolean
  readonly strided: Touch['strided']
  readonly run: number | undefined
}

// Plain loops rather than array methods here and in reusesOf: a ranking runs this for every one of its variants.
function tensorFacts(nest: ModelNest): TensorFacts[] {
  const facts: TensorFacts[] = []
  const loops = nest.loops.length
  for (const first of nest.touches) {
    const tensor = first.tensor
    if (facts.some((f) => f.tensor === tensor)) continue
    const footprints = [footprint(nest, tensor, -1)]
    const indexed: boolean[] = []
    for (let q = 0; q < loops; q++) {
      footprints.push(footprint(nest, tensor, q))
      indexed.push(false)
    }
    let deepest = -1
    let accesses = 0
    let readWrite = false
    let strided: Touch['strided']
    let run: number | undefined
    for (const t of nest.touches) {
      if (t.tensor !== tensor) continue
      for (const q of t.support) if (q < loops) indexed[q] = true
      deepest = Math.max(deepest, t.depth)
      accesses += t.unit * iterations(nest, t.depth)
      readWrite ||= t.readWrite === true
      strided ??= t.strided
      run ??= t.run
    }
    facts.push({ tensor, footprint: footprints, indexed, deepest, accesses, readWrite, strided, run })
  }
  return facts
}

/** Distinct elements of `tensor` that one iteration of loop `q` touches (q = -1: the whole nest). */
export function footprint(nest: ModelNest, tensor: string, q: number): number {
  let most = 0
  for (const t of nest.touches) {
    if (t.tensor !== tensor || t.depth < q) continue
    let n = t.unit
    for (const s of t.support) if (s > q) n *= nest.loops[s].extent
    most = Math.max(most, n)
  }
  return most
}

/**
 * Per tensor and per loop that does not index it (and runs more than once), the working set of the reuse that loop
 * carries, and how many loads it serves: (iterations outside it) × (extent − 1) × (its elements per iteration).
 *
 * The working set runs from an element's last use in iteration i to its first use in iteration i + 1. When the next
 * inner loop that runs more than once does not index the tensor either, the element is reused in every one of its
 * iterations, so its last use lies in the final one: the working set is at most one iteration of that inner loop.
 * Otherwise it is one iteration of the carrying loop. Either way plus what iteration i + 1 touches up to the element:
 * every other statement inside the carrying loop once (a pack's block, one microkernel step's operands).
 */
export function reuseWorkingSets(nest: ModelNest): Omit<ReuseWorkingSet, 'level'>[] {
  const facts = tensorFacts(nest)
  return facts.flatMap((f) => reusesOf(nest, facts, f))
}

function reusesOf(nest: ModelNest, facts: readonly TensorFacts[], f: TensorFacts): Omit<ReuseWorkingSet, 'level'>[] {
  const out: Omit<ReuseWorkingSet, 'level'>[] = []
  const body = (q: number) => {
    let n = 0
    for (const g of facts) n += g.footprint[q + 1]
    return n
  }
  // A packed buffer's first reads reuse its pack's writes: in between, the rest of the block and any pack after it.
  const pack = nest.touches.find((t) => t.tensor === f.tensor && t.copy)
  if (pack !== undefined) {
    const block = f.footprint[0]
    let after = 0
    for (const t of nest.touches) if (t.copy && t.tensor !== f.tensor && t.depth >= pack.depth) after += t.unit
    out.push({ tensor: f.tensor, loop: 'pack', elements: block + after, reuses: iterations(nest, pack.depth) * block })
  }
  let outside = 1
  for (let q = 0; q <= f.deepest; outside *= nest.loops[q].extent, q++) {
    const extent = nest.loops[q].extent
    if (extent < 2 || f.indexed[q]) continue
    let inner = q + 1
    while (inner <= f.deepest && nest.loops[inner].extent < 2) inner++
    const free = inner <= f.deepest && !f.indexed[inner]
    let head = 0
    for (const t of nest.touches) if (t.tensor !== f.tensor && t.depth >= q) head += t.unit
    out.push({
      tensor: f.tensor,
      loop: nest.loops[q].name,
      elements: body(free ? inner : q) + head,
      reuses: outside * (extent - 1) * f.footprint[q + 1],
    })
  }
  return out
}
