/**
 * The `tune` option's machinery, with a real addon (node-gyp) and no assertion on time: every class's blocking in
 * the tuned schedule is one of that class's top k, only the ISA the machine runs is touched, winners are cached and
 * read back without building again, and classes a kernel's sizes cannot represent keep the analytic pick. The
 * candidates' outputs are compared with each other before they are timed (measure.ts), and `timeVariants` refuses
 * a variant that disagrees.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Contraction, ContractionSchedule, Kernel } from '../../plugin/ir/nodes.ts'
import { walkStmts } from '../../plugin/ir/walk.ts'
import { loadVariants, timeVariants } from '../../plugin/tune/measure.ts'
import { sameVariant } from '../../plugin/schedule/rank-gemm.ts'
import { blockingFor, rankClasses, shapeClasses } from '../../plugin/schedule/select.ts'
import { tuneKernel, type TuneRequest } from '../../plugin/tune/tune.ts'
import { ISAS } from '../../plugin/targets/index.ts'
import { abiOf } from '../emit/kernels.ts'
import { contractionKernel, TEST_MACHINE } from '../support/contractions.ts'

const MM = 'A: f32[M, K]\nB: f32[K, N]\nC: f32[M, N]\nC[i, j] +=! A[i, k] * B[k, j]'
const SQUARE = 'A: f32[N, N]\nB: f32[N, N]\nC: f32[N, N]\nC[i, j] +=! A[i, k] * B[k, j]'
const TOP_K = 2

let cacheDir: string
beforeAll(() => void (cacheDir = mkdtempSync(path.join(os.tmpdir(), 'polykern-tune-test-'))))
afterAll(() => rmSync(cacheDir, { recursive: true, force: true }))

const request = (): TuneRequest => ({ cacheDir, machine: TEST_MACHINE, threads: 2, settings: { budgetMs: 0, topK: TOP_K } })

function contractionOf(k: Kernel): Contraction {
  let found: Contraction | undefined
  walkStmts(k.body, (s) => void (s.kind === 'contraction' && (found ??= s)))
  return found!
}

/** The schedules that changed, by ISA. */
const changed = (before: Kernel, after: Kernel): ContractionSchedule[] =>
  contractionOf(after).schedules.filter((x, n) => JSON.stringify(x) !== JSON.stringify(contractionOf(before).schedules[n]))

describe('tuneKernel', () => {
  const mm = contractionKernel(MM, 'mm_tune')
  let tuned: Kernel

  it('gives every class one of its top k, on the ISA the machine runs only', async () => {
    tuned = await tuneKernel(mm, abiOf(mm), request())
    const schedules = contractionOf(tuned).schedules
    const touched = changed(mm, tuned).map((x) => x.isa)
    expect(touched.length).toBeLessThanOrEqual(1)
    // The machine's ISA: the first whose schedule differs, or (a tuned schedule equal to the analytic one) any.
    for (const x of schedules) {
      const isa = ISAS.find((i) => i.name === x.isa)!
      const mk = isa.microkernels.find((m) => m.name === x.microkernel)!
      const classes = rankClasses({ roles: contractionOf(mm).roles, mk, machine: TEST_MACHINE, threads: 2 })
      const allowedOf = (ranked: (typeof classes)[number]['ranked']) => {
        const top = ranked.map((r) => r.variant).filter((v, n, all) => all.findIndex((w) => sameVariant(v, w)) === n)
        return touched.includes(x.isa) ? top.slice(0, TOP_K) : top.slice(0, 1)
      }
      classes.forEach(({ shapeClass, ranked }, n) => {
        // A spread twin the schedule leaves out (its pick packs B, or reads it along rows that always spread) sends
        // its calls to the class it narrows, the next.
        const left = shapeClass.when?.spreadB !== undefined && !(x.special ?? []).some((e) => e.when.spreadB !== undefined &&
          e.when.maxM === shapeClass.when?.maxM)
        const allowed = allowedOf(left ? classes[n + 1].ranked : ranked)
        const got = blockingFor(x, { ...shapeClass.representative, boundB: shapeClass.when?.boundB, bytes: 4 })
        expect(allowed.some((v) => sameVariant(v, got)), `${x.isa} ${shapeClass.name}`).toBe(true)
      })
    }
  })

  it('reads the winners back from the cache without building or timing again', async () => {
    const addons = readdirSync(cacheDir).filter((d) => d !== 'tune').length
    const again = await tuneKernel(mm, abiOf(mm), request())
    expect(contractionOf(again).schedules).toEqual(contractionOf(tuned).schedules)
    expect(readdirSync(cacheDir).filter((d) => d !== 'tune').length).toBe(addons)
    expect(readdirSync(path.join(cacheDir, 'tune')).filter((f) => f.endsWith('.json')).length).toBe(1)
  })

  it('keeps the analytic pick for classes whose sizes one shared size parameter cannot take', async () => {
    const square = contractionKernel(SQUARE, 'square_tune')
    const after = await tuneKernel(square, abiOf(square), request())
    for (const x of changed(square, after)) {
      const before = contractionOf(square).schedules.find((s) => s.isa === x.isa)!
      const mk = ISAS.find((i) => i.name === x.isa)!.microkernels.find((m) => m.name === x.microkernel)!
      // The classes' own representatives (their guards differ per microkernel), where m, n and k are not one size.
      const shapes = shapeClasses(mk, 2, false).map((c) => c.representative).filter(({ m, n, k }) => m !== n || n !== k)
      expect(shapes.length).toBeGreaterThanOrEqual(4)
      for (const shape of shapes) {
        expect(sameVariant(blockingFor(x, shape), blockingFor(before, shape)), JSON.stringify(shape)).toBe(true)
      }
    }
  })
})

describe('timeVariants', () => {
  it('refuses a variant whose output disagrees with the first', async () => {
    const mm = contractionKernel(MM, 'mm_check')
    const c = contractionOf(mm)
    const isa = ISAS.find((i) => c.schedules.some((x) => x.isa === i.name))!
    const blocking = c.schedules.find((x) => x.isa === isa.name)!
    const loaded = await loadVariants({ kernel: mm, abi: abiOf(mm), contraction: c.id, isa, blockings: [blocking, blocking], cacheDir })
    expect(loaded.ok).toBe(true)
    if (!loaded.ok) return
    const wrong = { ...loaded.variants, calls: [loaded.variants.calls[0], (...args: unknown[]) => void (args[2] as Float32Array).fill(7)] }
    const seconds = timeVariants(wrong, [0, 1], new Map([['M', 17], ['N', 33], ['K', 9]]), 0)
    expect(Number.isFinite(seconds[0])).toBe(true)
    expect(seconds[1]).toBe(Number.POSITIVE_INFINITY)
  })
})
