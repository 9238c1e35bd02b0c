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
 * - tiny: M·N·K ≤ 2^20 (64³: packing does not pay; 96³ f32 on AVX-512 ran 163 GFLOP/s packed as the small class
 *   has it, 189 with both operands in place; too little work to wake the pool)
 * - small: M·N·K ≤ 2^21 (128³)
 * - matvec: M ≤ MR, one row tile (M = 1, N = K = 4096)
 * - skinny-m: M ≤ 8·MR (M = 4·MR + 3, N = K = 4096: a few row tiles, the last partial, as DeepBench's 35)
 * - skinny-n: N ≤ 4·NR (M = K = 2048, N = 2·NR)
 * - small-k: K ≤ 64 (M = N = 2048, K = 32)
 * - short-m: M ≤ 48·MR (M = 16·MR, N = K = 4096: few row blocks per B panel, so sharing one panel between the
 *   threads costs more than each packing its own)
 * - large, the default: everything else (1024³)
 */
import { lastIndex } from '../ir/affine.ts'
import type { ContractionRoles, ContractionSchedule, GemmBlocking, SizeGuard } from '../ir/nodes.ts'
import type { Isa } from '../targets/isa.ts'
import type { Machine } from '../targets/machine.ts'
import type { Microkernel } from '../targets/microkernel.ts'
import type { GemmProblem } from './gemm-model.ts'
import { rankGemm, sameVariant, type GemmSpace, type RankedVariant } from './rank-gemm.ts'
import { memoSchedule, type ScheduleMemo } from './schedule-cache.ts'
import { cRowsRunDown, roleOrders } from './role-orders.ts'

export interface ShapeClass {
  readonly name: string
  /** Absent: the default class, for calls no other class takes. */
  readonly when?: SizeGuard
  /** Sizes the ranking runs on. */
  readonly representative: { readonly m: number; readonly n: number; readonly k: number; readonly batch: number }
}

const SMALL_WORK = 2 ** 21
const TINY_WORK = 2 ** 20

/** The classes for a microkernel, in the order calls are tested against them; the default last. */
export function shapeClasses(mk: Microkernel, threads: number, batched: boolean): readonly ShapeClass[] {
  const classes: ShapeClass[] = []
  if (batched && threads > 1) {
    classes.push({
      name: 'small-batched',
      when: { minBatch: threads, maxWork: SMALL_WORK },
      representative: { m: 128, n: 128, k: 64, batch: 32 },
    })
  }
  classes.push(
    { name: 'tiny', when: { maxWork: TINY_WORK }, representative: { m: 64, n: 64, k: 64, batch: 1 } },
    { name: 'small', when: { maxWork: SMALL_WORK }, representative: { m: 128, n: 128, k: 128, batch: 1 } },
    { name: 'matvec', when: { maxM: mk.mr }, representative: { m: 1, n: 4096, k: 4096, batch: 1 } },
    { name: 'skinny-m', when: { maxM: 8 * mk.mr }, representative: { m: 4 * mk.mr + 3, n: 4096, k: 4096, batch: 1 } },
    { name: 'skinny-n', when: { maxN: 4 * mk.nr }, representative: { m: 2048, n: 2 * mk.nr, k: 2048, batch: 1 } },
    { name: 'small-k', when: { maxK: 64 }, representative: { m: 2048, n: 2048, k: 32, batch: 1 } },
    { name: 'short-m', when: { maxM: 48 * mk.mr }, representative: { m: 16 * mk.mr, n: 4096, k: 4096, batch: 1 } },
    { name: 'large', representative: { m: 1024, n: 1024, k: 1024, batch: 1 } },
  )
  return classes
}

/** Whether a call with these sizes satisfies the guard (what the C selector computes). */
export function guardHolds(when: SizeGuard, s: { m: number; n: number; k: number; batch: number }): boolean {
  return (
    (when.maxM === undefined || s.m <= when.maxM) &&
    (when.maxN === undefined || s.n <= when.maxN) &&
    (when.maxK === undefined || s.k <= when.maxK) &&
    (when.maxWork === undefined || s.m * s.n * s.k <= when.maxWork) &&
    (when.minBatch === undefined || s.batch >= when.minBatch)
  )
}

/** The blocking a call runs with: the first special entry whose guard holds, else the schedule's own. */
export function blockingFor(x: ContractionSchedule, s: { m: number; n: number; k: number; batch: number }): GemmBlocking {
  return x.special?.find((c) => guardHolds(c.when, s))?.blocking ?? x
}

/** What the ranking needs to know about a contraction on one ISA. */
export interface RankingContext {
  readonly roles: ContractionRoles
  readonly mk: Microkernel
  readonly machine: Machine
  readonly threads: number
}

/** The problem a class stands for, on this contraction's microkernel. */
export function classProblem(c: ShapeClass, ctx: RankingContext): GemmProblem {
  const bytes = ctx.roles.dtype === 'f64' ? 8 : 4
  return { ...c.representative, mr: ctx.mk.mr, nr: ctx.mk.nr, lanes: ctx.mk.lanes, bytes }
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

/** Every class of the contraction with its ranked variants (memoized by rank-gemm.ts). */
export function rankClasses(ctx: RankingContext): { readonly shapeClass: ShapeClass; readonly ranked: readonly RankedVariant[] }[] {
  const space = spaceOf(ctx)
  return shapeClasses(ctx.mk, ctx.threads, ctx.roles.batch.length > 0).map((shapeClass) => ({
    shapeClass,
    ranked: rankGemm(classProblem(shapeClass, ctx), space),
  }))
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
  const guarded = picks.filter((p) => p.shapeClass.when !== undefined)
  // Left out, a class's calls fall through to the next entry whose guard holds: safe only where that is the default.
  let kept = guarded.length
  while (kept > 0 && sameVariant(guarded[kept - 1].blocking, fallback)) kept--
  const special = guarded.slice(0, kept).map((p) => ({ when: p.shapeClass.when!, blocking: blockingOnly(p.blocking) }))
  return { isa: isa.name, microkernel: mk.name, ...blockingOnly(fallback), ...(special.length > 0 ? { special } : {}) }
}

/** The analytic schedule: every class's top-ranked variant; taken from and added to `memo` when given (schedule-cache.ts). */
export function analyticSchedule(isa: Isa, ctx: RankingContext, memo?: ScheduleMemo): ContractionSchedule {
  const { machine, threads, mk, roles } = ctx
  const key = [isa.name, mk, roles.dtype, roles.batch.length > 0, spaceOf(ctx).unpacked, machine, threads]
  return memoSchedule(memo, key, () =>
    scheduleOf(isa, mk, rankClasses(ctx).map((c) => ({ shapeClass: c.shapeClass, blocking: c.ranked[0].variant }))),
  )
}

/** A blocking's own fields, nothing else an object may carry. */
function blockingOnly(b: GemmBlocking): GemmBlocking {
  const { mc, nc, kc, order, inner, parallel, packA, packB } = b
  return { mc, nc, kc, order, inner, parallel, packA, packB }
}
