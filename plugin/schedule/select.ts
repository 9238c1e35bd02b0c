/**
 * Schedules for sizes known only at call time. The ranking (rank-gemm.ts) needs concrete sizes, so it runs at build
 * time once per shape class, on the class's representative sizes; the contraction's schedule for an ISA holds the
 * default class's pick in its own fields and every other class's pick as a `special` entry guarded by the class's
 * bounds. At call time the C code tests the guards in order (emit/c-gemm.ts: a few integer comparisons),
 * and the driver clamps the chosen blocks to the actual sizes. Classes at the end whose pick equals the default's are
 * left out.
 *
 * Classes, tried in order (MR × NR: the microkernel's register tile; T: threads); each representative falls in
 * its own class:
 * - small-batched: B ≥ T GEMMs of M·N·K ≤ 2^21 each (represented by 32 of 128 × 128 × 64)
 * - tiny-bound: a tiny call whose B is bound (`f.bind`), so that its packs are free after the first call (64³)
 * - tiny: M·N·K ≤ 2^20 (64³: packing does not pay; 96³ f32 on AVX-512 ran 163 GFLOP/s packed as the small class
 *   has it, 189 with both operands in place; too little work to wake the pool)
 * - small: M·N·K ≤ 2^21 (128³)
 * - matvec-bound: a matvec call whose B is bound: the ranking reads its B from the packed form, free of packs
 *   (GemmProblem.boundB), and picks one panel streamed whole (kc = K), where in place it reads B a few rows at a
 *   time (8 streams). 1 × 4096 × 4096, AMD EPYC Zen 5 AVX-512, B from memory, bound against oneDNN's prepacked
 *   weights: 0.63 -> 1.10x at 1 thread, 0.60 -> 1.06x at 2. A bound twin of every class did worse elsewhere: in the
 *   run with them, bound/oneDNN 35 × 8457 × 2560 fell 0.93 -> 0.84x (1T), 320 × 3072 × 4096 0.99 -> 0.83x and 512³
 *   0.99 -> 0.85x (2T) against the run before.
 * - matvec-spread, skinny-m-spread: a call of the next class whose B is not bound and whose rows spread over L1's
 *   sets (l1-sets.ts; represented with N = 4096 plus a line), as DeepBench's 35 × 8457 × 2560. Each B element serves
 *   a few row tiles only, so where the prefetchers follow as many rows as a k block has (Machine.prefetchStreams),
 *   B read in place along them beats packing it; rows a page apart evict each other's lines, and the next class
 *   keeps fewer rows or packs. Where the twin's pick packs B it is left out. AMD EPYC Zen 5 AVX-512, the spread
 *   class against the build before it (one process alternating builds, noisy host: ±10%), 1T / 2T: 24 × 40000 × 200
 *   1.13x / 1.66x, 35 × 8457 × 2560 1.09x / 1.17x, 27 × 4160 × 4096 1.27x / 1.05x, 48 × 20000 × 312 0.92x / 1.19x,
 *   3 × 4160 × 4096 1.36x / 1.38x, 1 × 8457 × 2560 1.43x / 1.47x; 27 × 4096 × 4096 and 1 × 4096 × 4096 (rows a page
 *   apart) unchanged.
 * - matvec: M ≤ MR, one row tile (M = 1, N = K = 4096)
 * - skinny-m: M ≤ 8·MR (M = 4·MR + 3, N = K = 4096: a few row tiles, the last partial, as DeepBench's 35)
 * - skinny-n: N ≤ 4·NR (M = K = 2048, N = 2·NR)
 * - small-k: K ≤ 64 (M = N = 2048, K = 32)
 * - short-m: M ≤ 48·MR (M = 16·MR, N = K = 4096: few row blocks per B panel, so sharing one panel between the
 *   threads costs more than each packing its own)
 * - large, the default: everything else (1024³)
 * With a batch and threads, each class but small-batched's and those it covers has a batched twin first, and that a
 * spread twin where the class has none and its representative's rows share L1's sets (batchedTwin).
 */
import { lastIndex } from '../ir/affine.ts'
import type { ContractionRoles, ContractionSchedule, GemmBlocking, SizeGuard } from '../ir/nodes.ts'
import type { Isa } from '../targets/isa.ts'
import type { Machine } from '../targets/machine.ts'
import type { Microkernel } from '../targets/microkernel.ts'
import { gemmCost, roundUp, type GemmProblem } from './gemm-model.ts'
import { rankGemm, sameVariant, type GemmSpace, type RankedVariant } from './rank-gemm.ts'
import { L1_LINE_BYTES, L1_SET_SPAN, rowsShareSets } from './l1-sets.ts'
import { memoSchedule, type ScheduleMemo } from './schedule-cache.ts'
import { cRowsRunDown, roleOrders } from './role-orders.ts'

export interface ShapeClass {
  readonly name: string
  /** Absent: the default class, for calls no other class takes. */
  readonly when?: SizeGuard
  /** Sizes the ranking runs on. */
  readonly representative: { readonly m: number; readonly n: number; readonly k: number; readonly batch: number }
}

/**
 * The rows a spread twin's guard asks to spread over L1's sets before its pick is known (a subset of them spreads too);
 * the schedule's guard asks for the pick's k block (guardOf).
 */
const SPREAD_ROWS = 64

const SMALL_WORK = 2 ** 21
const TINY_WORK = 2 ** 20

/** The classes for a microkernel, in the order calls are tested against them; the default last. */
export function shapeClasses(mk: Microkernel, threads: number, batched: boolean): readonly ShapeClass[] {
  const bytes = mk.dtype === 'f64' ? 8 : 4
  // The lines a register tile's row of B spans: a spread twin's guard asks B's rows to spread that wide.
  const tileLines = Math.ceil((mk.nr * bytes) / L1_LINE_BYTES)
  // A class's twin for calls whose B is not bound and whose rows spread over L1, first: its representative's rows a
  // page and a line apart.
  const withSpreadTwin = (c: ShapeClass & { when: SizeGuard }): ShapeClass[] => [{
    name: `${c.name}-spread`,
    when: { ...c.when, boundB: false, spreadB: { rows: SPREAD_ROWS, lines: tileLines } },
    representative: { ...c.representative, n: c.representative.n + L1_LINE_BYTES / bytes },
  }, c]
  const classes: ShapeClass[] = []
  if (batched && threads > 1) {
    classes.push({
      name: 'small-batched',
      when: { minBatch: threads, maxWork: SMALL_WORK },
      representative: { m: 128, n: 128, k: 64, batch: 32 },
    })
  }
  classes.push(
    { name: 'tiny-bound', when: { maxWork: TINY_WORK, boundB: true }, representative: { m: 64, n: 64, k: 64, batch: 1 } },
    { name: 'tiny', when: { maxWork: TINY_WORK }, representative: { m: 64, n: 64, k: 64, batch: 1 } },
    { name: 'small', when: { maxWork: SMALL_WORK }, representative: { m: 128, n: 128, k: 128, batch: 1 } },
    { name: 'matvec-bound', when: { maxM: mk.mr, boundB: true }, representative: { m: 1, n: 4096, k: 4096, batch: 1 } },
    ...withSpreadTwin({ name: 'matvec', when: { maxM: mk.mr }, representative: { m: 1, n: 4096, k: 4096, batch: 1 } }),
    ...withSpreadTwin({ name: 'skinny-m', when: { maxM: 8 * mk.mr }, representative: { m: 4 * mk.mr + 3, n: 4096, k: 4096, batch: 1 } }),
    { name: 'skinny-n', when: { maxN: 4 * mk.nr }, representative: { m: 2048, n: 2 * mk.nr, k: 2048, batch: 1 } },
    { name: 'small-k', when: { maxK: 64 }, representative: { m: 2048, n: 2048, k: 32, batch: 1 } },
    { name: 'short-m', when: { maxM: 48 * mk.mr }, representative: { m: 16 * mk.mr, n: 4096, k: 4096, batch: 1 } },
    { name: 'large', representative: { m: 1024, n: 1024, k: 1024, batch: 1 } },
  )
  // Small-batched takes the batched calls of the tiny and small classes; a class narrowed to B's binding or spread
  // runs a batched call as its own, and a spread twin takes a spreading call before its class's batched twins would.
  const twinned = ({ when: w }: ShapeClass) =>
    w?.minBatch === undefined && w?.boundB === undefined && w?.spreadB === undefined && (w?.maxWork ?? Infinity) > SMALL_WORK
  // A spread twin where the class's own representative's rows share L1 sets (a power-of-two N), which packing avoids.
  const spreadTwinned = (c: ShapeClass) => classes.some((x) => x.name === `${c.name}-spread`)
  const shareSets = (c: ShapeClass) => rowsShareSets(SPREAD_ROWS, c.representative.n * bytes, tileLines)
  const twins = (c: ShapeClass) =>
    spreadTwinned(c) || !shareSets(c) ? [batchedTwin(c, threads)] : withSpreadTwin(batchedTwin(c, threads))
  return batched && threads > 1 ? classes.flatMap((c) => (twinned(c) ? [...twins(c), c] : [c])) : classes
}

/**
 * A class's twin for calls with enough GEMMs to give each thread whole ones (a ceiling of the batch over the threads
 * leaves them at most 1/8 apart), ranked on 32 of its representative: the ranking then weighs running whole GEMMs on
 * the threads against splitting each. TCCG's abcd-ec-abed sliced (52 GEMMs of 52 × 2912 × 56) ran 0.71× of the
 * gathered form at 2 threads on small-k's pick, which splits each; 1.19× on its twin's, which runs them whole. Where
 * the representative's rows share L1's sets (a power-of-two N) the twin has a spread twin of its own, as matvec does:
 * small-k's batched twin packs B against those conflicts, which the 2912 columns above do not have; on its spread
 * twin's pick (B in place) abcd-ec-abed ran 1.08× / 1.06× faster again at 1 / 2 threads.
 */
const batchedTwin = (c: ShapeClass, threads: number): ShapeClass & { when: SizeGuard } => ({
  name: `${c.name}-batched`,
  when: { ...c.when, minBatch: 4 * threads },
  representative: { ...c.representative, batch: 32 },
})

/** A call's sizes, whether its B lies in a bound array, and its elements' bytes (absent: 4); B's rows are n apart. */
export interface CallSizes {
  readonly m: number
  readonly n: number
  readonly k: number
  readonly batch: number
  readonly boundB?: boolean
  readonly bytes?: number
}

/** Whether a call satisfies the guard (what the C selector computes). */
export function guardHolds(when: SizeGuard, s: CallSizes): boolean {
  return (
    (when.boundB === undefined || (s.boundB === true) === when.boundB) &&
    (when.spreadB === undefined ||
      !rowsShareSets(Math.min(s.k, when.spreadB.rows), s.n * (s.bytes ?? 4), when.spreadB.lines)) &&
    (when.minM === undefined || s.m >= when.minM) &&
    (when.maxM === undefined || s.m <= when.maxM) &&
    (when.maxN === undefined || s.n <= when.maxN) &&
    (when.maxK === undefined || s.k <= when.maxK) &&
    (when.maxWork === undefined || s.m * s.n * s.k <= when.maxWork) &&
    (when.minBatch === undefined || s.batch >= when.minBatch)
  )
}

/** The blocking a call runs with, and its microkernel: the first special entry whose guard holds, else the schedule's own. */
export function entryFor(x: ContractionSchedule, s: CallSizes): { readonly blocking: GemmBlocking; readonly microkernel: string } {
  const hit = x.special?.find((c) => guardHolds(c.when, s))
  return hit === undefined ? { blocking: x, microkernel: x.microkernel } : { blocking: hit.blocking, microkernel: hit.microkernel ?? x.microkernel }
}

/** The blocking a call runs with (entryFor). */
export const blockingFor = (x: ContractionSchedule, s: CallSizes): GemmBlocking => entryFor(x, s).blocking

/** What the ranking needs to know about a contraction on one ISA. */
export interface RankingContext {
  readonly roles: ContractionRoles
  readonly mk: Microkernel
  readonly machine: Machine
  readonly threads: number
  /** The most rows a call has (a sliced form's, SlicedContraction); absent: any. */
  readonly maxM?: number
}

/** The problem a class stands for, on this contraction's microkernel, with no more rows than its calls have. */
export function classProblem(c: ShapeClass, ctx: RankingContext): GemmProblem {
  const bytes = ctx.roles.dtype === 'f64' ? 8 : 4
  const m = Math.min(c.representative.m, ctx.maxM ?? Infinity)
  return { ...c.representative, m, mr: ctx.mk.mr, nr: ctx.mk.nr, lanes: ctx.mk.lanes, bytes, ...(c.when?.boundB ? { boundB: true } : {}) }
}

/**
 * The ranking's search space for a contraction: unpacked operands only where the microkernel can read them, and
 * whether its packs gather (the cost model prices them apart).
 */
export function spaceOf(ctx: RankingContext): GemmSpace {
  const { roles } = ctx
  return {
    machine: ctx.machine,
    threads: ctx.threads,
    // A gathered contraction packs both operands, through its offset tables.
    unpacked: roles.layout === 'gathered'
      ? { a: false, b: false, gathered: true, cRunsDown: roleOrders(roles).m.some((m) => cRowsRunDown(roles, m)) }
      // A scaled A (a constant factor) is always packed: the pack multiplies it.
      : { a: roles.alpha === undefined && lastIndex(roles.a) === roles.k.at(-1)!.name, b: lastIndex(roles.b) === roles.n.at(-1)!.name },
  }
}

/**
 * A tiny call's variants that pack nothing first, where it has any: the model runs it on one thread
 * (PARALLEL_MIN_WORK), but in a run of calls it takes the warm team (native/polykern_simd.h, pk_gemm_team_pays),
 * whose threads each pack the whole panel when they have few tiles. 64³ on 6 × 64, AVX-512: its model's pick (B
 * packed, 2% cheaper) ran 1T / 2T 127 / 135 GFLOP/s, nothing packed 129 / 157; 8 × 48 packs nothing either way. With
 * B bound its packs cost nothing after the first call, and tiny-bound keeps the model's pick: bound, 64³ 1.08× /
 * 1.03×, 80³ 1.14×, 100³ 1.11× (1T) over nothing packed.
 */
function inPlaceFirst(c: ShapeClass, ranked: readonly RankedVariant[]): readonly RankedVariant[] {
  if (c.name !== 'tiny') return ranked
  const inPlace = ranked.filter((x) => !x.variant.packA && !x.variant.packB)
  return inPlace.length > 0 ? [...inPlace, ...ranked.filter((x) => x.variant.packA || x.variant.packB)] : ranked
}

/** The ranked variants spanningBound looks at: as many as explain prints, more than tune times by default (5). */
const SPANNED_VARIANTS = 8

/**
 * A class bounded in M, N or K is ranked at its representative, and its block sizes stop at the representative's
 * extent (the model clamps a block to the call). Where a variant runs the representative in one block along that
 * dimension, calls up to the bound get one block too when the model prices that no dearer at the bound: split in M
 * or N, every block packs the other operand again; split in K, every C tile is loaded and stored once per block.
 * Skinny-m's 35 rows give mc 40, which split 52 rows in two: TCCG ccsd abc-adec-ebd (52 × 2912 × 2912, B gathered)
 * ran 64 -> 94 GFLOP/s with one block; small-k's 32 give kc 32, which split transC's k of 64 in two (AMD EPYC
 * AVX-512, 1 thread).
 */
export function spanningBound(c: ShapeClass, ctx: RankingContext, space: GemmSpace, v: GemmBlocking): GemmBlocking {
  const p = classProblem(c, ctx)
  const { maxN, maxK } = c.when ?? {}
  const bounds = [c.when?.maxM, ctx.maxM].filter((x) => x !== undefined)
  const maxM = bounds.length > 0 ? Math.min(...bounds) : undefined
  const mc = maxM !== undefined && v.mc >= roundUp(p.m, p.mr) ? Math.max(v.mc, roundUp(maxM, p.mr)) : v.mc
  const nc = maxN !== undefined && v.nc >= roundUp(p.n, p.nr) ? Math.max(v.nc, roundUp(maxN, p.nr)) : v.nc
  const kc = maxK !== undefined && v.kc >= p.k ? Math.max(v.kc, maxK) : v.kc
  if (mc === v.mc && nc === v.nc && kc === v.kc) return v
  const atBound = { ...p, m: maxM ?? p.m, n: maxN ?? p.n, k: maxK ?? p.k }
  const cost = (x: GemmBlocking) => gemmCost(atBound, x, space.machine, space.threads, space.unpacked).cost
  const spanning = { ...v, mc, nc, kc }
  return cost(spanning) <= cost(v) ? spanning : v
}

/** Every class of the contraction with its ranked variants (memoized by rank-gemm.ts), the first spanning its bounds. */
export function rankClasses(ctx: RankingContext): { readonly shapeClass: ShapeClass; readonly ranked: readonly RankedVariant[] }[] {
  const space = spaceOf(ctx)
  return shapeClasses(ctx.mk, ctx.threads, ctx.roles.batch.length > 0).map((shapeClass) => {
    const ranked = inPlaceFirst(shapeClass, rankGemm(classProblem(shapeClass, ctx), space))
    const spanned = ranked.slice(0, SPANNED_VARIANTS).map((r) => ({ ...r, variant: spanningBound(shapeClass, ctx, space, r.variant) }))
    return { shapeClass, ranked: [...spanned, ...ranked.slice(SPANNED_VARIANTS)] }
  })
}

/**
 * The ISA's schedule from one blocking per class (default class last): its fields are the default's blocking, and
 * every other class becomes a special entry, in class order, but for the last ones whose blocking is the default's.
 */
export function scheduleOf(
  isa: Isa,
  mk: Microkernel,
  picks: readonly { readonly shapeClass: ShapeClass; readonly blocking: GemmBlocking }[],
): ContractionSchedule {
  const fallback = picks[picks.length - 1].blocking
  // A class narrowed to B bound (or not), to B's rows spread or to a batch, whose pick the same guard without that has
  // too, adds nothing: its calls fall through. Nor does a spread twin whose pick packs B, where the rows' spread is moot, or
  // reads it along rows that spread even a page apart, which tells no call apart from the next class's.
  const widened = (w: SizeGuard | undefined) => JSON.stringify({ ...w, boundB: undefined, spreadB: undefined, minBatch: undefined })
  const narrowed = (w: SizeGuard) => w.boundB !== undefined || w.spreadB !== undefined || w.minBatch !== undefined
  const moot = (w: SizeGuard, pick: GemmBlocking) =>
    w.spreadB !== undefined && (pick.packB || !rowsShareSets(pick.kc, L1_SET_SPAN, w.spreadB.lines))
  const guarded = picks.filter((p, i) => p.shapeClass.when !== undefined && !moot(p.shapeClass.when, p.blocking) &&
    !(narrowed(p.shapeClass.when) && i + 1 < picks.length &&
      widened(p.shapeClass.when) === widened(picks[i + 1].shapeClass.when) && sameVariant(p.blocking, picks[i + 1].blocking)))
  // Left out, a class's calls fall through to the next entry whose guard holds: safe only where that is the default.
  let kept = guarded.length
  while (kept > 0 && sameVariant(guarded[kept - 1].blocking, fallback)) kept--
  const special = guarded.slice(0, kept).map((p) => ({ when: guardOf(p.shapeClass.when!, p.blocking), blocking: blockingOnly(p.blocking) }))
  return { isa: isa.name, microkernel: mk.name, ...blockingOnly(fallback), ...(special.length > 0 ? { special } : {}) }
}

/** The analytic schedule: every class's top-ranked variant; taken from and added to `memo` when given (schedule-cache.ts). */
export function analyticSchedule(isa: Isa, ctx: RankingContext, memo?: ScheduleMemo): ContractionSchedule {
  const { machine, threads, mk, roles } = ctx
  const rows = ctx.maxM !== undefined ? [ctx.maxM] : []
  const key = [isa.name, mk, roles.dtype, roles.batch.length > 0, spaceOf(ctx).unpacked, machine, threads, ...rows]
  return memoSchedule(memo, key, () =>
    scheduleOf(isa, mk, rankClasses(ctx).map((c) => ({ shapeClass: c.shapeClass, blocking: c.ranked[0].variant }))),
  )
}

/**
 * The microkernel of `mks` (an ISA's that match the contraction, in its order) its GEMMs run on: the one whose
 * classes cost least, as the geometric mean over the first's classes of each one's top variant against the cheapest
 * microkernel's there; the first on ties. The model counts whole register tiles, so it sees the edges a tile width
 * leaves: N = 64 is two 48-wide tiles, the second a third full, and one 64-wide tile. Measured against 8 × 48 with
 * one process alternating the builds (bound, Intel AVX-512, 1T / 2T), 6 × 64, which it picks for a row-major GEMM,
 * ran 64³ 1.12× / 1.01×, 256³ 1.00× / 1.15× (n split in whole tiles: 3 + 3 of 48 against 2 + 2 of 64), 512³ 1.00× /
 * 1.09×, 1024³ 1.04× / 1.09×, DeepBench 2048 × 64 × 2048 1.06× / 1.07×; the rest of the GEMM set 0.98-1.02×.
 * A gathered contraction stays on the first: the model prices its packs per element, blind to the transposes a
 * tile's width shapes (TCCG at 1T on 6 × 64: ccsd_t 1.00-1.10×, but intensli abcde-ecbfa-fd 0.55×, abc-ad-bdc 0.80×);
 * only its calls of SHORT_K_CLASS run on another (cheapestSchedule).
 */
export function cheapestMicrokernel(mks: readonly Microkernel[], ctx: Omit<RankingContext, 'mk'>): Microkernel {
  if (mks.length === 1 || ctx.roles.layout === 'gathered') return mks[0]
  const classes = shapeClasses(mks[0], ctx.threads, ctx.roles.batch.length > 0)
  const costs = mks.map((mk) => {
    const space = spaceOf({ ...ctx, mk })
    return classes.map((c) => rankGemm(classProblem(c, { ...ctx, mk }), space)[0].cost.cost)
  })
  const least = classes.map((_, i) => Math.min(...costs.map((row) => row[i])))
  const means = costs.map((row) => row.reduce((sum, cost, i) => sum + Math.log(cost / least[i]), 0) / row.length)
  return mks[means.indexOf(Math.min(...means))]
}

/** analyticSchedule on cheapestMicrokernel's pick of `mks`, the pick memoized with it; gathered, with SHORT_K_CLASS's entry. */
export function cheapestSchedule(
  isa: Isa, mks: readonly Microkernel[], ctx: Omit<RankingContext, 'mk'>, memo?: ScheduleMemo,
): ContractionSchedule {
  const { machine, threads, roles } = ctx
  const rows = ctx.maxM !== undefined ? [ctx.maxM] : []
  const unpacked = spaceOf({ ...ctx, mk: mks[0] }).unpacked
  const key = ['cheapest', isa.name, mks, roles.dtype, roles.batch.length > 0, unpacked, machine, threads, ...rows]
  return memoSchedule(memo, key, () => {
    const schedule = analyticSchedule(isa, { ...ctx, mk: cheapestMicrokernel(mks, ctx) }, memo)
    return roles.layout === 'gathered' ? withShortK(schedule, mks, ctx) : schedule
  })
}

/**
 * Gathered calls of many rows over a short k loop (TCCG's ccsd_t: M = 6144, K = 16 or 24), on the widest of `mks`:
 * their time is the C tiles' gathers and scattered stores more than the FMAs, and there the 64-wide tile beat the
 * first one (cheapestMicrokernel's pick for a gathered contraction, 8 × 48) in the ccsd_t cases, while it lost up to
 * half where M is a few rows (intensli's M = 24) or K is long. Ranked on small-k's sizes: ranked on 4096 × 4096 × 16,
 * its mc of 1536 ran 2.5% slower than small-k's 384. Measured in one process alternating the two builds, AMD EPYC
 * Zen 5, AVX-512: the 18 ccsd_t cases 1.06-1.22× at 1 thread (geomean 1.11×), 1.00-1.25× at 2 (1.12×).
 */
export const SHORT_K_CLASS: ShapeClass = {
  name: 'gathered-short-k', when: { minM: 2048, maxK: 32 }, representative: { m: 2048, n: 2048, k: 32, batch: 1 },
}

/** The schedule with SHORT_K_CLASS's pick on the widest of `mks` as its first special entry, when that is another. */
function withShortK(schedule: ContractionSchedule, mks: readonly Microkernel[], ctx: Omit<RankingContext, 'mk'>): ContractionSchedule {
  const wide = mks.reduce((w, mk) => (mk.nr > w.nr ? mk : w), mks[0])
  if (wide.name === schedule.microkernel) return schedule
  const on = { ...ctx, mk: wide }
  const space = spaceOf(on)
  const blocking = blockingOnly(spanningBound(SHORT_K_CLASS, on, space, rankGemm(classProblem(SHORT_K_CLASS, on), space)[0].variant))
  return { ...schedule, special: [{ when: SHORT_K_CLASS.when!, blocking, microkernel: wide.name }, ...(schedule.special ?? [])] }
}

/** A class's guard for its pick: a spread class's rows are those of the pick's k block. */
const guardOf = (w: SizeGuard, pick: GemmBlocking): SizeGuard =>
  w.spreadB === undefined ? w : { ...w, spreadB: { ...w.spreadB, rows: pick.kc } }

/** A blocking's own fields, nothing else an object may carry. */
function blockingOnly(b: GemmBlocking): GemmBlocking {
  const { mc, nc, kc, order, inner, parallel, packA, packB } = b
  return { mc, nc, kc, order, inner, parallel, packA, packB }
}
