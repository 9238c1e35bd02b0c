/**
 * The variant generator and ranking for the packed GEMM: every variant legal (whole register tiles, a permutation
 * of the block loops, threads only where every thread gets a tile or a GEMM, operands unpacked only where the
 * microkernel can read them), ranked cheapest first with no duplicates, in PolyDL's range of candidate counts; and
 * the top pick keeps the innermost reuses in L1/L2 and the A block in L2, as the paper's analysis asks.
 */
import { describe, expect, it } from 'vitest'
import type { GemmBlocking } from '../../plugin/ir/nodes.ts'
import { gemmCost, modelNest, type GemmProblem } from '../../plugin/schedule/gemm-model.ts'
import { L1_WAYS } from '../../plugin/schedule/l1-sets.ts'
import { rankGemm, type GemmSpace } from '../../plugin/schedule/rank-gemm.ts'
import { AVX2, AVX512 } from '../../plugin/targets/index.ts'
import type { Machine } from '../../plugin/targets/machine.ts'
import { TEST_MACHINE } from '../support/contractions.ts'
import { rng } from '../support/random.ts'

const TILES = [...AVX512.microkernels, ...AVX2.microkernels]
const EDGE_SIZES = [1, 2, 7, 17, 33, 129, 1000, 1009]

function problem(m: number, n: number, k: number, tile = TILES[0], batch = 1): GemmProblem {
  return { m, n, k, batch, mr: tile.mr, nr: tile.nr, lanes: tile.lanes, bytes: tile.dtype === 'f64' ? 8 : 4 }
}

function expectLegal(p: GemmProblem, space: GemmSpace, ranked: readonly { variant: GemmBlocking; cost: { cost: number } }[]) {
  expect(ranked.length).toBeGreaterThan(0)
  const keys = new Set<string>()
  ranked.forEach(({ variant: v, cost }, n) => {
    const what = JSON.stringify({ p, v })
    expect(v.mc % p.mr, what).toBe(0)
    expect(v.nc % p.nr, what).toBe(0)
    expect(v.mc).toBeGreaterThan(0)
    expect(v.nc).toBeGreaterThan(0)
    expect(Number.isInteger(v.kc) && v.kc >= 1 && v.kc <= Math.max(p.k, 512), what).toBe(true)
    expect([...v.order].sort()).toEqual(['k', 'm', 'n'])
    expect(['nm', 'mn']).toContain(v.inner)
    if (space.threads === 1) expect(v.parallel).toBe('none')
    if (v.parallel === 'm') expect(Math.ceil(p.m / p.mr), what).toBeGreaterThanOrEqual(space.threads)
    if (v.parallel === 'n') expect(Math.ceil(p.n / p.nr), what).toBeGreaterThanOrEqual(space.threads)
    if (v.parallel === 'batch') expect(p.batch, what).toBeGreaterThanOrEqual(space.threads)
    if (!v.packA) expect(space.unpacked?.a, what).toBe(true)
    if (!v.packB) expect(space.unpacked?.b, what).toBe(true)
    expect(Number.isFinite(cost.cost) && cost.cost > 0).toBe(true)
    // Cheapest first, up to the half-percent ties that Eq. 1 orders.
    if (n > 0) expect(cost.cost * 1.006).toBeGreaterThanOrEqual(ranked[n - 1].cost.cost)
    const key = JSON.stringify(v)
    expect(keys.has(key), `duplicate ${key}`).toBe(false)
    keys.add(key)
  })
}

describe('rankGemm', () => {
  it('generates only legal, distinct variants, cheapest first, on random shapes', () => {
    const next = rng(101)
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]
    for (let trial = 0; trial < 24; trial++) {
      const tile = pick(TILES)
      const p = problem(pick(EDGE_SIZES), pick(EDGE_SIZES), pick(EDGE_SIZES), tile, pick([1, 1, 3, 32]))
      const space: GemmSpace = { machine: TEST_MACHINE, threads: pick([1, 2, 3]), unpacked: { a: next() < 0.5, b: next() < 0.5 } }
      expectLegal(p, space, rankGemm(p, space))
    }
  })

  it('splits a range across threads only when every thread gets a tile, else runs serially', () => {
    const space: GemmSpace = { machine: TEST_MACHINE, threads: 2 }
    const tiny = rankGemm(problem(1, 1, 64), space)
    expect(new Set(tiny.map((r) => r.variant.parallel))).toEqual(new Set(['none']))
    const skinny = rankGemm(problem(1, 4096, 4096), space)
    expect(new Set(skinny.map((r) => r.variant.parallel))).toEqual(new Set(['n']))
  })

  it('evaluates tens to under two thousand variants, as PolyDL (4 to 1228 per GEMM)', () => {
    for (const [m, n, k] of [[1024, 1024, 1024], [2048, 4096, 32], [35, 8457, 2560], [1, 1, 1]]) {
      const count = rankGemm(problem(m, n, k), { machine: TEST_MACHINE, threads: 2, unpacked: { a: true, b: true } }).length
      expect(count).toBeGreaterThanOrEqual(m === 1 ? 1 : 50)
      expect(count).toBeLessThan(2000)
    }
  })

  it('returns the same ranking for the same inputs, and another for another machine', () => {
    const p = problem(512, 512, 512)
    const space: GemmSpace = { machine: TEST_MACHINE, threads: 2 }
    expect(rankGemm(p, space)).toBe(rankGemm(p, { ...space }))
    const tinyL2: Machine = { ...TEST_MACHINE, caches: TEST_MACHINE.caches.map((c) => (c.level === 2 ? { ...c, bytes: 64 * 1024 } : c)) }
    expect(rankGemm(p, { ...space, machine: tinyL2 })).not.toBe(rankGemm(p, space))
  })

  it('picks blockings whose innermost reuses live in L1 or L2 and whose A block stays in L2, on large shapes', () => {
    for (const tile of [AVX512.microkernels[0], AVX2.microkernels[0]]) {
      for (const [m, n, k] of [[512, 512, 512], [1000, 1000, 1000], [2048, 2048, 2048], [320, 3072, 4096]]) {
        const p = problem(m, n, k, tile)
        const best = rankGemm(p, { machine: TEST_MACHINE, threads: 2 })[0].variant
        const sets = gemmCost(p, best, TEST_MACHINE, 2).workingSets
        const level = (tensor: string, loop: string) => sets.find((w) => w.tensor === tensor && w.loop === loop)?.level
        const what = JSON.stringify({ m, n, k, tile: tile.name, best })
        // The B micro-panel across the MR-row tiles, the A micro-panel across the NR-column tiles: whichever is the
        // inner register-tile loop carries the innermost reuse.
        const inner = best.inner === 'nm' ? level('Bp', 'ir') : level('Ap', 'jr')
        expect([1, 2], what).toContain(inner)
        if (best.inner === 'nm') expect([1, 2], what).toContain(level('Ap', 'jr'))
      }
    }
  })

  it('packs B for tall problems and leaves it in place for a matrix-vector product when it may', () => {
    const space: GemmSpace = { machine: TEST_MACHINE, threads: 2, unpacked: { a: true, b: true } }
    expect(rankGemm(problem(1024, 1024, 1024), space)[0].variant.packB).toBe(true)
    expect(rankGemm(problem(1, 4096, 4096), space)[0].variant.packB).toBe(false)
    expect(rankGemm(problem(1, 4096, 4096), { ...space, unpacked: { a: true, b: false } })[0].variant.packB).toBe(true)
  })

  it('reads B in place along no more rows than the prefetchers follow as streams', () => {
    const space: GemmSpace = { machine: TEST_MACHINE, threads: 1, unpacked: { a: true, b: true } }
    const best = rankGemm(problem(1, 4096, 4096), space)[0].variant
    expect(best.packB).toBe(false)
    const streams = TEST_MACHINE.prefetchStreams
    expect(best.kc).toBeLessThanOrEqual(streams)
    // Past that, every row beyond the followed ones waits for its lines: deeper blocks cost more, not less.
    const cost = (kc: number) => gemmCost(problem(1, 4096, 4096), { ...best, kc }, TEST_MACHINE, 1).cost
    expect(cost(2 * streams)).toBeGreaterThan(cost(streams))
    expect(cost(64)).toBeGreaterThan(2 * cost(streams))
  })

  it('reads the B of a few row tiles in place where the prefetchers follow its rows and they spread over L1', () => {
    // 27 rows: B's elements serve 4 row tiles, too few to pay a pack. In place, a k block's rows are streams the
    // prefetchers must follow (Machine.prefetchStreams), and rows a page apart (N = 4096) share L1 sets, so the
    // next tile misses them: packed then; a line further apart (N = 4112) they spread.
    const rank = (n: number, prefetchStreams: number) =>
      rankGemm(problem(27, n, 4096), { machine: { ...TEST_MACHINE, prefetchStreams }, threads: 2, unpacked: { a: true, b: true } })[0].variant
    expect(rank(4112, 8).packB).toBe(true)
    expect(rank(4096, 32).packB).toBe(true)
    const spread = rank(4112, 32)
    expect(spread.packB).toBe(false)
    expect(spread.kc).toBeGreaterThan(8)
    expect(spread.kc).toBeLessThanOrEqual(32)
    // A matrix-vector product, B in place whatever its rows: a page apart, they evict each other's lines fetched ahead,
    // and no more of them are followed than L1 has ways; a line further apart, as many as the prefetchers follow.
    const matvec = (n: number) =>
      rankGemm(problem(1, n, 4096), { machine: { ...TEST_MACHINE, prefetchStreams: 32 }, threads: 2, unpacked: { a: true, b: true } })[0].variant
    expect(matvec(4096)).toMatchObject({ packB: false })
    expect(matvec(4096).kc).toBeLessThanOrEqual(L1_WAYS)
    expect(matvec(4112)).toMatchObject({ packB: false })
    expect(matvec(4112).kc).toBeGreaterThan(L1_WAYS)
    // A prefetcher's stream keeps to a page: 64 rows of 128 floats lie on 8 pages, 8 streams; 64 rows of 4160 on 64.
    const followed = (n: number) => {
      const v = { mc: 6, nc: 128, kc: 64, order: ['n', 'k', 'm'], inner: 'nm', parallel: 'none', packA: false, packB: false } as const
      return modelNest(problem(6, n, 64), v, 1, undefined, 8).touches.find((t) => t.tensor === 'B')!.strided!.followed
    }
    expect(followed(128)).toBe(1)
    expect(followed(4160)).toBe(8 / 64)
    // Even rows that spread keep no panel of more rows than L1 has ways there across the register tiles.
    const inPlace = { mc: 136, nc: 144, kc: 64, order: ['n', 'k', 'm'], inner: 'nm', parallel: 'none', packA: false, packB: false } as const
    const across = gemmCost(problem(128, 128, 64), inPlace, TEST_MACHINE, 1).workingSets.find((w) => w.tensor === 'B' && w.loop === 'ir')!
    expect(across.level).not.toBe(1)
    // Many row tiles still pack: each packed element serves them all.
    const tall = rankGemm(problem(1024, 1040, 1024), { machine: { ...TEST_MACHINE, prefetchStreams: 32 }, threads: 2, unpacked: { a: true, b: true } })
    expect(tall[0].variant.packB).toBe(true)
  })
})
