/**
 * Call-time selection for symbolic sizes: the shape classes' guards, the blocking a call gets (checked against the
 * class thresholds written out here), and the schedule the analysis attaches per ISA: the default class's pick in
 * its fields, every other class's pick as a guarded special entry, none equal to the default, all legal.
 */
import { describe, expect, it } from 'vitest'
import type { Contraction, ContractionRoles, ContractionSchedule, SizeGuard } from '../../plugin/ir/nodes.ts'
import { reorder } from '../../plugin/passes/reorder.ts'
import { substituteMicrokernels } from '../../plugin/passes/substitute-microkernel.ts'
import { buildKernel } from '../../plugin/spec/build-ir.ts'
import { walkStmts } from '../../plugin/ir/walk.ts'
import {
  analyticSchedule, blockingFor, cheapestMicrokernel, cheapestSchedule, classProblem, rankClasses, shapeClasses, spaceOf,
  spanningBound,
  type CallSizes, type ShapeClass,
} from '../../plugin/schedule/select.ts'
import { rowsShareSets } from '../../plugin/schedule/l1-sets.ts'
import { rankGemm, sameVariant } from '../../plugin/schedule/rank-gemm.ts'
import { rebroadcasts } from '../../plugin/targets/microkernel.ts'
import { AVX2, AVX512 } from '../../plugin/targets/index.ts'
import { contractionKernel, paramsOf, TEST_MACHINE } from '../support/contractions.ts'
import { specOf } from '../support/examples.ts'
import { rng } from '../support/random.ts'

const MM = 'A: f32[M, K]\nB: f32[K, N]\nC: f32[M, N]\nC[i, j] +=! A[i, k] * B[k, j]'
const MM_T = 'A: f32[K, M]\nB: f32[N, K]\nC: f32[M, N]\nC[i, j] +=! A[k, i] * B[j, k]'
const BMM = 'A: f32[Bt, M, K]\nB: f32[Bt, K, N]\nC: f32[Bt, M, N]\nC[b, i, j] +=! A[b, i, k] * B[b, k, j]'
/** TCCG intensli abcd-dbea-ec: gathered (C's stride-1 index is A's slowest). */
const GATHERED = 'A: f32[Sa, Se, Sb, Sd]\nB: f32[Sc, Se]\nC: f32[Sd, Sc, Sb, Sa]\nC[d, c, b, a] +=! A[a, e, b, d] * B[c, e]'

function rolesOf(spec: string): ContractionRoles {
  let roles: ContractionRoles | undefined
  walkStmts(contractionKernel(spec, 'k').body, (s) => void (s.kind === 'contraction' && (roles = (s as Contraction).roles)))
  return roles!
}

/** The class a call falls in, from the thresholds as the README states them (MR × NR the register tile, T threads). */
/**
 * spreadKc: per class with a spread twin in the schedule, the k block its guard asks B's rows to spread along (a
 * class absent: no twin).
 */
function expectedClass(s: CallSizes, mr: number, nr: number, threads: number, batched: boolean, spreadKc: Readonly<Record<string, number>> = SPREAD_64) {
  const spreads = (twin: string) => {
    const kc = spreadKc[twin]
    return kc !== undefined && !s.boundB && !rowsShareSets(Math.min(s.k, kc), s.n * 4, Math.ceil((nr * 4) / 64))
  }
  if (batched && threads > 1 && s.batch >= threads && s.m * s.n * s.k <= 2 ** 21) return 'small-batched'
  if (s.m * s.n * s.k <= 2 ** 20) return s.boundB ? 'tiny-bound' : 'tiny'
  if (s.m * s.n * s.k <= 2 ** 21) return 'small'
  // A class's spread twin, then its batched twins (enough GEMMs to give each thread whole ones), spread first.
  const resolve = (name: string) => {
    if (spreads(`${name}-spread`)) return `${name}-spread`
    if (!batched || threads < 2 || s.batch < 4 * threads) return name
    return spreads(`${name}-batched-spread`) ? `${name}-batched-spread` : `${name}-batched`
  }
  if (s.m <= mr) return s.boundB ? 'matvec-bound' : resolve('matvec')
  if (s.m <= 8 * mr) return resolve('skinny-m')
  if (s.n <= 4 * nr) return resolve('skinny-n')
  if (s.k <= 64) return resolve('small-k')
  if (s.m <= 48 * mr) return resolve('short-m')
  return resolve('large')
}

/** Every spread twin, its guard before the picks (select.ts SPREAD_ROWS). */
const SPREAD_64 = Object.fromEntries(
  shapeClasses(AVX512.microkernels[0], 2, true).filter((c) => c.when?.spreadB !== undefined).map((c) => [c.name, 64]),
)

/** The spread twins a schedule holds, by name: the k block each one's guard asks B's rows to spread along. */
function spreadTwinsOf(schedule: ContractionSchedule, classes: readonly ShapeClass[]): Record<string, number> {
  const apartFromRows = (w: SizeGuard) => JSON.stringify({ ...w, spreadB: { ...w.spreadB, rows: 0 } })
  return Object.fromEntries((schedule.special ?? []).flatMap((x) => {
    if (x.when.spreadB === undefined) return []
    const twin = classes.find((c) => c.when?.spreadB !== undefined && apartFromRows(c.when) === apartFromRows(x.when))
    return twin === undefined ? [] : [[twin.name, x.when.spreadB.rows]]
  }))
}

describe('shape classes', () => {
  it('send every call to the blocking of its class', () => {
    const next = rng(111)
    const sizes = [1, 7, 17, 33, 48, 64, 65, 97, 129, 193, 1000, 4096]
    // Where the prefetchers follow 32 streams, skinny-m-spread reads B in place and is in the schedule; 8, it packs
    // and is left out. N = 4112 spreads B's rows over L1.
    for (const machine of [TEST_MACHINE, { ...TEST_MACHINE, prefetchStreams: 32 }]) {
      for (const [spec, batched] of [[MM, false], [BMM, true]] as const) {
        for (const isa of [AVX512, AVX2]) {
          const mk = isa.microkernels[0]
          const ctx = { roles: rolesOf(spec), mk, machine, threads: 2 }
          const schedule = analyticSchedule(isa, ctx)
          const picks = new Map(rankClasses(ctx).map((c) => [c.shapeClass.name, c.ranked[0].variant]))
          // The spread twins in the schedule.
          const special = schedule.special ?? []
          const spreadKc = spreadTwinsOf(schedule, shapeClasses(mk, 2, batched))
          if (machine.prefetchStreams === 32 && !batched && isa === AVX512) expect(spreadKc['skinny-m-spread']).toBeGreaterThan(0)
          // A twin's guard asks its rows to spread along its pick's k block, no more.
          for (const e of special) if (e.when.spreadB !== undefined) expect(e.when.spreadB.rows).toBe(e.blocking.kc)
          for (let trial = 0; trial < 200; trial++) {
            const pick = () => [...sizes, 4112][Math.floor(next() * (sizes.length + 1))]
            const call = { m: pick(), n: pick(), k: pick(), batch: batched ? pick() : 1, boundB: next() < 0.5 }
            const name = expectedClass(call, mk.mr, mk.nr, 2, batched, spreadKc)
            expect(sameVariant(blockingFor(schedule, call), picks.get(name)!), JSON.stringify({ call, name })).toBe(true)
          }
        }
      }
    }
  })

  it('are tried in order, the default last, and offer small-batched and the batched twins only to batched contractions on threads', () => {
    const names = (batched: boolean, threads: number) => shapeClasses(AVX512.microkernels[0], threads, batched).map((c) => c.name)
    expect(names(false, 2)).toEqual([
      'tiny-bound', 'tiny', 'small', 'matvec-bound', 'matvec-spread', 'matvec', 'skinny-m-spread', 'skinny-m', 'skinny-n',
      'small-k', 'short-m', 'large',
    ])
    const twins = (name: string) => [`${name}-batched-spread`, `${name}-batched`, name]
    expect(names(true, 2)).toEqual([
      'small-batched', 'tiny-bound', 'tiny', 'small', 'matvec-bound', 'matvec-spread', 'matvec-batched', 'matvec',
      'skinny-m-spread', 'skinny-m-batched', 'skinny-m', 'skinny-n-batched', 'skinny-n', ...twins('small-k'),
      ...twins('short-m'), ...twins('large'),
    ])
    expect(names(true, 1)).toEqual(names(false, 1))
    for (const c of shapeClasses(AVX2.microkernels[0], 2, true).slice(0, -1)) expect(c.when).toBeDefined()
  })

  it('read a bound B of a matvec call from its packed form in long panel runs, where in place they read a few rows at a time', () => {
    for (const isa of [AVX512, AVX2]) {
      const ctx = { roles: rolesOf(MM), mk: isa.microkernels[0], machine: TEST_MACHINE, threads: 2 }
      const picks = new Map(rankClasses(ctx).map((c) => [c.shapeClass.name, c.ranked[0].variant]))
      expect(picks.get('matvec-bound'), isa.name).toMatchObject({ packB: true })
      expect(picks.get('matvec-bound')!.kc, isa.name).toBeGreaterThanOrEqual(1024)
      expect(picks.get('matvec'), isa.name).toMatchObject({ packB: false })
      expect(picks.get('matvec')!.kc, isa.name).toBeLessThanOrEqual(16)
    }
  })

  it('bounded in M or K run every call up to the bound in one block along it where their representative runs in one', () => {
    // Skinny-m's representative (4·MR + 3 rows) fits in one m block of 5·MR; a gathered call of 52 rows split in two
    // would gather B twice. A variant of smaller blocks is left alone.
    for (const isa of [AVX512, AVX2]) {
      const mk = isa.microkernels[0]
      const ctx = { roles: rolesOf(GATHERED), mk, machine: TEST_MACHINE, threads: 1 }
      const skinny = shapeClasses(mk, 1, false).find((c) => c.name === 'skinny-m')!
      const variant = { mc: 5 * mk.mr, nc: 4 * mk.nr, kc: 256, order: ['m', 'k', 'n'], inner: 'nm', parallel: 'none', packA: true, packB: true } as const
      expect(spanningBound(skinny, ctx, spaceOf(ctx), variant).mc, isa.name).toBe(8 * mk.mr)
      expect(spanningBound(skinny, ctx, spaceOf(ctx), { ...variant, mc: 2 * mk.mr }).mc, isa.name).toBe(2 * mk.mr)
      // small-k's representative has k 32: a kc of 32 widens to the bound, 64 (one k block, each C tile stored once).
      const smallK = shapeClasses(mk, 1, false).find((c) => c.name === 'small-k')!
      expect(spanningBound(smallK, ctx, spaceOf(ctx), { ...variant, kc: 32 }).kc, isa.name).toBe(64)
      expect(spanningBound(smallK, ctx, spaceOf(ctx), { ...variant, kc: 16 }).kc, isa.name).toBe(16)
      const large = shapeClasses(mk, 1, false).find((c) => c.name === 'large')!
      expect(spanningBound(large, ctx, spaceOf(ctx), variant)).toBe(variant)
    }
  })

  it('each hold their own representative sizes', () => {
    for (const isa of [AVX512, AVX2]) {
      const mk = isa.microkernels[0]
      for (const c of shapeClasses(mk, 2, true)) {
        expect(expectedClass({ ...c.representative, boundB: c.when?.boundB }, mk.mr, mk.nr, 2, true)).toBe(c.name)
      }
    }
  })
})

describe('analyticSchedule', () => {
  it('holds the default pick and the other classes but trailing ones equal to it, each legal for the microkernel', () => {
    for (const spec of [MM, MM_T, BMM]) {
      for (const isa of [AVX512, AVX2]) {
        const mk = isa.microkernels[0]
        const ctx = { roles: rolesOf(spec), mk, machine: TEST_MACHINE, threads: 2 }
        const x = analyticSchedule(isa, ctx)
        expect(x.isa).toBe(isa.name)
        expect(x.microkernel).toBe(mk.name)
        const classes = rankClasses(ctx)
        expect(sameVariant(x, classes[classes.length - 1].ranked[0].variant)).toBe(true)
        const guards = classes.slice(0, -1).map((c) => c.shapeClass.when)
        let last = -1
        const special = x.special ?? []
        if (special.length > 0) expect(sameVariant(special[special.length - 1].blocking, x)).toBe(false)
        for (const s of special) {
          // A spread twin's guard asks for its pick's k block (select.ts guardOf).
          const unpicked = (g: SizeGuard | undefined) => JSON.stringify(g?.spreadB ? { ...g, spreadB: { ...g.spreadB, rows: 0 } } : g)
          const at = guards.findIndex((g) => unpicked(g) === unpicked(s.when))
          expect(at).toBeGreaterThan(last)
          last = at
          expect(s.blocking.mc % mk.mr).toBe(0)
          expect(s.blocking.nc % mk.nr).toBe(0)
        }
      }
    }
  })

  it('leaves operands unpacked only where the microkernel can read them in place', () => {
    expect(spaceOf({ roles: rolesOf(MM), mk: AVX512.microkernels[0], machine: TEST_MACHINE, threads: 2 }).unpacked)
      .toEqual({ a: true, b: true })
    expect(spaceOf({ roles: rolesOf(MM_T), mk: AVX512.microkernels[0], machine: TEST_MACHINE, threads: 2 }).unpacked)
      .toEqual({ a: false, b: false })
    const x = analyticSchedule(AVX512, { roles: rolesOf(MM_T), mk: AVX512.microkernels[0], machine: TEST_MACHINE, threads: 2 })
    for (const b of [x, ...(x.special ?? []).map((s) => s.blocking)]) expect([b.packA, b.packB]).toEqual([true, true])
  })
})

describe('cheapestMicrokernel', () => {
  const f32 = AVX512.microkernels.filter((mk) => mk.dtype === 'f32' && !rebroadcasts(mk))
  /** Each candidate's mean log cost over the first's classes, against the cheapest candidate's per class. */
  function meanLogRatios(spec: string, threads: number): number[] {
    const ctx = { roles: rolesOf(spec), machine: TEST_MACHINE, threads }
    const classes = shapeClasses(f32[0], threads, ctx.roles.batch.length > 0)
    const costs = f32.map((mk) => classes.map((c) =>
      rankGemm(classProblem(c, { ...ctx, mk }), spaceOf({ ...ctx, mk }))[0].cost.cost))
    return costs.map((row) => row.reduce((sum, x, i) => sum + Math.log(x / Math.min(...costs.map((r) => r[i]))), 0) / row.length)
  }

  it('picks the microkernel whose classes cost least, and not always the first', () => {
    const picks: string[] = []
    for (const spec of [MM, MM_T, BMM]) {
      for (const threads of [1, 2]) {
        const means = meanLogRatios(spec, threads)
        const pick = cheapestMicrokernel(f32, { roles: rolesOf(spec), machine: TEST_MACHINE, threads })
        expect(means[f32.indexOf(pick)], spec).toBe(Math.min(...means))
        picks.push(pick.name)
      }
    }
    expect(picks.some((name) => name !== f32[0].name)).toBe(true)
  })

  it('keeps a gathered contraction on the first microkernel, whose packs its gathers were measured on', () => {
    const ctx = { roles: rolesOf(GATHERED), machine: TEST_MACHINE, threads: 2 }
    expect(ctx.roles.layout).toBe('gathered')
    expect(cheapestMicrokernel(f32, ctx)).toBe(f32[0])
    expect(cheapestMicrokernel([...f32].reverse(), ctx)).toBe(f32.at(-1))
  })

  it('is never offered a tile with no register for the broadcast (7 × 64, for im2col only) by the pass', () => {
    // Without 6 × 64, the ranking prices 7 × 64's tiles below 8 × 48's for these (fewer edge tiles).
    const isa = { ...AVX512, microkernels: AVX512.microkernels.filter((m) => m.name !== 'gemm_f32_avx512_6x64') }
    const rebroadcasting = isa.microkernels.find((m) => m.dtype === 'f32' && rebroadcasts(m))!
    for (const spec of [MM, BMM]) {
      const ctx = { roles: rolesOf(spec), machine: TEST_MACHINE, threads: 2 }
      expect(cheapestMicrokernel(isa.microkernels.filter((m) => m.dtype === 'f32'), ctx), spec).toBe(rebroadcasting)
      const kernel = substituteMicrokernels(reorder(buildKernel(specOf(spec, paramsOf(spec)))), { isas: [isa], machine: TEST_MACHINE, threads: 2 })
      let schedules: readonly ContractionSchedule[] = []
      walkStmts(kernel.body, (s) => void (s.kind === 'contraction' && (schedules = (s as Contraction).schedules)))
      expect(schedules.map((x) => x.microkernel), spec).toEqual([isa.microkernels[0].name])
    }
  })

  it('gives the schedule of its pick', () => {
    const ctx = { roles: rolesOf(MM), machine: TEST_MACHINE, threads: 2 }
    const mk = cheapestMicrokernel(f32, ctx)
    expect(cheapestSchedule(AVX512, f32, ctx)).toEqual(analyticSchedule(AVX512, { ...ctx, mk }))
  })
})

describe('the tiny class', () => {
  it("keeps, for a bound B, the model's own pick, as an entry only where that packs and differs", () => {
    for (const isa of [AVX512, AVX2]) {
      for (const mk of isa.microkernels.filter((m) => m.dtype === 'f32')) {
        const ctx = { roles: rolesOf(MM), mk, machine: TEST_MACHINE, threads: 2 }
        const x = analyticSchedule(isa, ctx)
        const own = rankGemm(classProblem(shapeClasses(mk, 2, false)[0], ctx), spaceOf(ctx))[0].variant
        const tiny = { m: 64, n: 64, k: 64, batch: 1 }
        expect(sameVariant(blockingFor(x, { ...tiny, boundB: true }), own), mk.name).toBe(true)
        const entry = x.special?.find((s) => s.when.boundB)
        expect(entry !== undefined, mk.name).toBe(!sameVariant(own, blockingFor(x, tiny)))
      }
    }
  })

  it('packs nothing where the microkernel can read both operands in place', () => {
    for (const isa of [AVX512, AVX2]) {
      for (const mk of isa.microkernels.filter((m) => m.dtype === 'f32')) {
        for (const threads of [1, 2]) {
          const x = analyticSchedule(isa, { roles: rolesOf(MM), mk, machine: TEST_MACHINE, threads })
          const tiny = blockingFor(x, { m: 64, n: 64, k: 64, batch: 1 })
          expect([tiny.packA, tiny.packB], `${mk.name} ${threads}T`).toEqual([false, false])
        }
      }
    }
  })
})
