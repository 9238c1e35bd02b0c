/**
 * What the schedule model says about each contraction of a lowered kernel: per ISA and shape class, the blocking a
 * call of the class's representative sizes runs with (select.ts blockingFor, exactly as the generated C picks it),
 * its working sets per cache level and predicted cycles (gemm-model.ts), and the top of the default class's ranking.
 */
import { missingCpuFlags } from '../../runtime/load-addon.ts'
import { addonIsas } from '../emit/napi.ts'
import type { Contraction, Kernel } from '../ir/nodes.ts'
import type { ResolvedOptions } from '../options.ts'
import { printRole } from '../ir/print.ts'
import { walkStmts } from '../ir/walk.ts'
import { describeBlocking, describeGuard } from '../schedule/describe.ts'
import { gemmCost } from '../schedule/gemm-model.ts'
import { rankGemm } from '../schedule/rank-gemm.ts'
import { classProblem, entryFor, shapeClasses, SHORT_K_CLASS, spaceOf, type RankingContext, type ShapeClass } from '../schedule/select.ts'
import { ISAS, microkernelNamed } from '../targets/index.ts'
import type { Machine } from '../targets/machine.ts'
import { gflopsAt } from './machine-peak.ts'
import type { ClassSchedule, ContractionReport, IsaSchedule, LevelWorkingSets, RankedEntry } from './report-types.ts'

/** Variants the ranking chart shows. */
export const RANKING_SHOWN = 8

export interface ModelContext {
  readonly machine: Machine
  readonly threads: number
  /** The ISA the addon runs here: its ranking is the one shown. */
  readonly isa: string
}

/**
 * The model's view of this build machine: its caches and clock, the addon's threads, and `isa` (default: the best
 * version of the addon this CPU runs; the last needs no CPU flag, emitAddonSource asserts it).
 */
export function modelContextFor(opts: Pick<ResolvedOptions, 'target'>, isa?: string): ModelContext {
  const here = isa ?? addonIsas().find((i) => missingCpuFlags(i.cpuFeatures).length === 0)!.name
  return { machine: opts.target.machine, threads: opts.target.threads, isa: here }
}

export function contractionsOf(kernel: Kernel): Contraction[] {
  const found: Contraction[] = []
  walkStmts(kernel.body, (s) => void (s.kind === 'contraction' && found.push(s)))
  return found
}

export function contractionReport(c: Contraction, ctx: ModelContext): ContractionReport {
  const r = c.roles
  const schedules = c.schedules.flatMap((x): IsaSchedule[] => {
    const mk = ISAS.find((i) => i.name === x.isa)?.microkernels.find((m) => m.name === x.microkernel)
    if (mk === undefined) return []
    const ranking: RankingContext = { roles: r, mk, machine: ctx.machine, threads: ctx.threads }
    // The short-k class of a gathered contraction is a guard of its schedule's, not one of its microkernel's classes.
    const shortK = x.special?.some((s) => s.microkernel !== undefined) ? [SHORT_K_CLASS] : []
    const classes = [...shortK, ...shapeClasses(mk, ctx.threads, r.batch.length > 0)].map((sc) => classSchedule(sc, ranking, x, ctx))
    return [{ isa: x.isa, microkernel: x.microkernel, classes }]
  })
  return {
    id: c.id,
    dtype: r.dtype,
    roles: { m: printRole(r.m), n: printRole(r.n), k: printRole(r.k), batch: r.batch.map((b) => b.name), a: r.a.tensor, b: r.b.tensor, c: r.c.tensor },
    schedules,
    ranking: rankingHere(c, ctx),
  }
}

function classSchedule(
  sc: ShapeClass, ranking: RankingContext, schedule: Contraction['schedules'][number], ctx: ModelContext,
): ClassSchedule {
  const { blocking, microkernel } = entryFor(schedule, classProblem(sc, ranking))
  // Priced on the microkernel the class's calls run on.
  const on = { ...ranking, mk: microkernelNamed(microkernel) ?? ranking.mk }
  const p = classProblem(sc, on)
  const cost = gemmCost(p, blocking, ctx.machine, ctx.threads, spaceOf(on).unpacked)
  const flops = 2 * p.m * p.n * p.k * p.batch
  const levelName = (level: number) => (level === 0 ? 'memory' : `L${level}`)
  const byLevel = new Map<number, LevelWorkingSets['sets'][number][]>()
  for (const w of cost.workingSets) {
    const sets = byLevel.get(w.level) ?? []
    sets.push({ tensor: w.tensor, loop: w.loop, bytes: w.elements * p.bytes })
    byLevel.set(w.level, sets)
  }
  const order = [...byLevel.keys()].sort((x, y) => (x || Infinity) - (y || Infinity))
  return {
    shapeClass: sc.name,
    guard: sc.when ? describeGuard(sc.when) : 'always',
    representative: sc.representative,
    blocking: { ...blocking },
    description: describeBlocking(blocking) + (microkernel === schedule.microkernel ? '' : `, on ${microkernel}`),
    workingSets: order.map((level) => ({
      level: levelName(level),
      capacityBytes: ctx.machine.caches.find((c) => c.level === level)?.bytes,
      sets: byLevel.get(level)!,
    })),
    predicted: { flops, cycles: cost.cost, gflops: gflopsAt(flops, cost.cost, ctx.machine.clock) },
    intensity: flops / (p.bytes * p.batch * (p.m * p.k + p.k * p.n + p.m * p.n)),
  }
}

/** The default class's ranking on the ISA that runs here (the last class: select.ts puts the default last). */
function rankingHere(c: Contraction, ctx: ModelContext): RankedEntry[] {
  const x = c.schedules.find((s) => s.isa === ctx.isa)
  const mk = ISAS.find((i) => i.name === ctx.isa)?.microkernels.find((m) => m.name === x?.microkernel)
  if (mk === undefined) return []
  const ranking: RankingContext = { roles: c.roles, mk, machine: ctx.machine, threads: ctx.threads }
  const sc = shapeClasses(mk, ctx.threads, c.roles.batch.length > 0).at(-1)!
  const p = classProblem(sc, ranking)
  const flops = 2 * p.m * p.n * p.k * p.batch
  return rankGemm(p, spaceOf(ranking)).slice(0, RANKING_SHOWN).map((v, n) => ({
    rank: n + 1,
    description: describeBlocking(v.variant),
    cycles: v.cost.cost,
    gflops: gflopsAt(flops, v.cost.cost, ctx.machine.clock),
  }))
}
