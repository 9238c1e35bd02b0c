/**
 * Call-time selection for symbolic sizes: the shape classes' guards, the blocking a call gets (checked against the
 * class thresholds written out here), and the schedule the analysis attaches per ISA: the default class's pick in
 * its fields, every other class's pick as a guarded special entry, none equal to the default, all legal.
 */
import { describe, expect, it } from 'vitest'
import type { Contraction, ContractionRoles } from '../../plugin/ir/nodes.ts'
import { walkStmts } from '../../plugin/ir/walk.ts'
import { analyticSchedule, blockingFor, rankClasses, shapeClasses, spaceOf } from '../../plugin/schedule/select.ts'
import { sameVariant } from '../../plugin/schedule/rank-gemm.ts'
import { AVX2, AVX512 } from '../../plugin/targets/index.ts'
import { contractionKernel, TEST_MACHINE } from '../support/contractions.ts'
import { rng } from '../support/random.ts'

const MM = 'A: f32[M, K]\nB: f32[K, N]\nC: f32[M, N]\nC[i, j] +=! A[i, k] * B[k, j]'
const MM_T = 'A: f32[K, M]\nB: f32[N, K]\nC: f32[M, N]\nC[i, j] +=! A[k, i] * B[j, k]'
const BMM = 'A: f32[Bt, M, K]\nB: f32[Bt, K, N]\nC: f32[Bt, M, N]\nC[b, i, j] +=! A[b, i, k] * B[b, k, j]'

function rolesOf(spec: string): ContractionRoles {
  let roles: ContractionRoles | undefined
  walkStmts(contractionKernel(spec, 'k').body, (s) => void (s.kind === 'contraction' && (roles = (s as Contraction).roles)))
  return roles!
}

/** The class a call falls in, from the thresholds as the README states them (MR × NR the register tile, T threads). */
function expectedClass(s: { m: number; n: number; k: number; batch: number }, mr: number, nr: number, threads: number, batched: boolean) {
  if (batched && threads > 1 && s.batch >= threads && s.m * s.n * s.k <= 2 ** 21) return 'small-batched'
  if (s.m * s.n * s.k <= 2 ** 20) return 'tiny'
  if (s.m * s.n * s.k <= 2 ** 21) return 'small'
  if (s.m <= mr) return 'matvec'
  if (s.m <= 8 * mr) return 'skinny-m'
  if (s.n <= 4 * nr) return 'skinny-n'
  if (s.k <= 64) return 'small-k'
  if (s.m <= 48 * mr) return 'short-m'
  return 'large'
}

describe('shape classes', () => {
  it('send every call to the blocking of its class', () => {
    const next = rng(111)
    const sizes = [1, 7, 17, 33, 48, 64, 65, 97, 129, 193, 1000, 4096]
    for (const [spec, batched] of [[MM, false], [BMM, true]] as const) {
      for (const isa of [AVX512, AVX2]) {
        const mk = isa.microkernels[0]
        const ctx = { roles: rolesOf(spec), mk, machine: TEST_MACHINE, threads: 2 }
        const schedule = analyticSchedule(isa, ctx)
        const picks = new Map(rankClasses(ctx).map((c) => [c.shapeClass.name, c.ranked[0].variant]))
        for (let trial = 0; trial < 200; trial++) {
          const pick = () => sizes[Math.floor(next() * sizes.length)]
          const call = { m: pick(), n: pick(), k: pick(), batch: batched ? pick() : 1 }
          const name = expectedClass(call, mk.mr, mk.nr, 2, batched)
          expect(sameVariant(blockingFor(schedule, call), picks.get(name)!), JSON.stringify({ call, name })).toBe(true)
        }
      }
    }
  })

  it('are tried in order, the default last, and offer small-batched only to batched contractions on threads', () => {
    const names = (batched: boolean, threads: number) => shapeClasses(AVX512.microkernels[0], threads, batched).map((c) => c.name)
    expect(names(false, 2)).toEqual(['tiny', 'small', 'matvec', 'skinny-m', 'skinny-n', 'small-k', 'short-m', 'large'])
    expect(names(true, 2)[0]).toBe('small-batched')
    expect(names(true, 1)).toEqual(names(false, 1))
    for (const c of shapeClasses(AVX2.microkernels[0], 2, true).slice(0, -1)) expect(c.when).toBeDefined()
  })

  it('each hold their own representative sizes', () => {
    for (const isa of [AVX512, AVX2]) {
      const mk = isa.microkernels[0]
      for (const c of shapeClasses(mk, 2, true)) {
        expect(expectedClass(c.representative, mk.mr, mk.nr, 2, true)).toBe(c.name)
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
          const at = guards.findIndex((g) => JSON.stringify(g) === JSON.stringify(s.when))
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
