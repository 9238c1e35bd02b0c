/**
 * The packed GEMM as the reuse analysis sees it: Algorithm 1 on its loop nest against brute force, and the closed
 * forms the ranking uses (per-loop footprints, reuse working sets, bytes per level) against enumeration of the same
 * nest, on small random problems and blockings (sizes 1, primes, not multiples of the tile or the blocks).
 */
import { describe, expect, it } from 'vitest'
import { evaluate } from '../../plugin/ir/affine.ts'
import type { LoopNest } from '../../plugin/analysis/loop-nest.ts'
import { workingSets, type Point } from '../../plugin/analysis/working-set.ts'
import type { GemmBlocking } from '../../plugin/ir/nodes.ts'
import {
  footprint, gemmCost, modelNest, packedGemmNest, reuseWorkingSets, type GemmProblem,
} from '../../plugin/schedule/gemm-model.ts'
import { rng } from '../support/random.ts'
import { TEST_MACHINE } from '../support/contractions.ts'
import { bruteFootprint, iterationsBetween } from '../analysis/reference.ts'

const ORDERS: GemmBlocking['order'][] = [['n', 'k', 'm'], ['k', 'n', 'm'], ['n', 'm', 'k'], ['m', 'n', 'k'], ['m', 'k', 'n'], ['k', 'm', 'n']]
const SIZES = [1, 2, 3, 5, 7, 8, 11, 13]

/**
 * A small problem (register tile 2 × 4 or 3 × 4) and a random legal blocking of it. `wholeRows`: M at least MR (below
 * it the model counts the rows a masked tile touches, the nest the whole tile).
 */
function randomCase(next: () => number, packed?: boolean, wholeRows = false): { p: GemmProblem; v: GemmBlocking } {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]
  const mr = pick([2, 3])
  const m = pick(SIZES.filter((x) => !wholeRows || x >= mr))
  const p: GemmProblem = { m, n: pick(SIZES), k: pick(SIZES), batch: 1, mr, nr: 4, lanes: 4, bytes: 4 }
  const v: GemmBlocking = {
    mc: mr * pick([1, 2, 3]),
    nc: 4 * pick([1, 2]),
    kc: pick([1, 2, 3, 5]),
    order: pick(ORDERS),
    inner: pick(['nm', 'mn'] as const),
    parallel: 'none',
    packA: packed ?? next() < 0.5,
    packB: packed ?? next() < 0.5,
  }
  return { p, v }
}

const extentsOf = (nest: LoopNest) => nest.loops.map((l) => l.extent)
const total = (counts: ReadonlyMap<string, number>) => [...counts.values()].reduce((a, b) => a + b, 0)

/** Iteration `i` of loop `q` with all loops outside it at 0: its first and last points. */
function iterationBox(nest: LoopNest, q: number, i: number): [Point, Point] {
  const E = extentsOf(nest)
  return [E.map((_, d) => (d === q ? i : 0)), E.map((e, d) => (d < q ? 0 : d === q ? i : e - 1))]
}

describe('the packed GEMM nest under Algorithm 1', () => {
  it('has working sets equal to brute-force counts', () => {
    const next = rng(91)
    for (let trial = 0; trial < 40; trial++) {
      const { p, v } = randomCase(next)
      const nest = packedGemmNest(p, v)
      for (const w of workingSets(nest).workingSets) {
        expect(w.footprint.elements, JSON.stringify({ p, v, kind: w.kind })).toBe(total(bruteFootprint(nest, w.from, w.to)))
      }
    }
  })

  it('sees the microkernel as outer products: a row of packed B reused across MR rows, a column of A across NR', () => {
    const p: GemmProblem = { m: 13, n: 11, k: 7, batch: 1, mr: 2, nr: 4, lanes: 4, bytes: 4 }
    const v: GemmBlocking = { mc: 6, nc: 8, kc: 3, order: ['n', 'k', 'm'], inner: 'nm', parallel: 'none', packA: true, packB: true }
    const nest = packedGemmNest(p, v)
    const { dependences } = workingSets(nest)
    const carrier = (tensor: string) => {
      const d = dependences.find((x) => x.tensor === tensor && x.kind === 'rar')!
      return nest.loops[d.firstTarget.findIndex((x, q) => x !== d.source[q])].name
    }
    // The innermost loop not indexing each buffer carries its first reuse: the register tile's rows r, columns c.
    expect(carrier('Bp')).toBe('r')
    expect(carrier('Ap')).toBe('c')
  })
})

describe('the closed-form model', () => {
  it('counts one iteration of every loop as brute force does', () => {
    const next = rng(92)
    for (let trial = 0; trial < 300; trial++) {
      const { p, v } = randomCase(next, undefined, true)
      const nest = packedGemmNest(p, v)
      const model = modelNest(p, v, 1)
      for (let q = 0; q < model.loops.length; q++) {
        expect(model.loops[q].extent).toBe(nest.loops[q].extent)
        const [from, to] = iterationBox(nest, q, 0)
        const brute = bruteFootprint(nest, from, to)
        for (const [tensor, count] of brute) {
          // The model keeps the C tile in registers over the microkernel's k loop: loaded before it, stored after.
          const inRegisters = tensor === 'C' && q === model.loops.length - 1
          expect(footprint(model, tensor, q), `${tensor} at ${q}`).toBe(inRegisters ? 0 : count)
        }
      }
      const E = extentsOf(nest)
      const whole = bruteFootprint(nest, E.map(() => 0), E.map((e) => e - 1))
      for (const [tensor, count] of whole) expect(footprint(model, tensor, -1)).toBe(count)
    }
  })

  it('bounds every reuse working set by exact enumeration from above, and by twice it plus one microkernel step', () => {
    const next = rng(93)
    let checked = 0
    for (let trial = 0; trial < 400; trial++) {
      // Unpacked operands: the model has no pack statements, so it is exactly the single-statement nest.
      const { p, v } = randomCase(next, false, true)
      const nest = packedGemmNest(p, v)
      const model = modelNest(p, v, 1)
      const step = p.mr + p.nr + p.mr * p.nr
      for (const w of reuseWorkingSets(model)) {
        const q = nest.loops.findIndex((l) => l.name === w.loop)
        const exact = exactReuseDistance(nest, w.tensor, q)
        expect(w.elements, JSON.stringify({ p, v, w })).toBeGreaterThanOrEqual(exact)
        expect(w.elements, JSON.stringify({ p, v, w, exact })).toBeLessThanOrEqual(2 * exact + step)
        checked++
      }
    }
    expect(checked).toBeGreaterThan(100)
  })

  it('serves every access from exactly one place: the levels and memory add up to all bytes touched', () => {
    const next = rng(94)
    for (let trial = 0; trial < 40; trial++) {
      const { p, v } = randomCase(next)
      const threads = 1 + Math.floor(next() * 2)
      const big = { ...p, m: p.m * 97, n: p.n * 89, k: p.k * 83 }
      const cost = gemmCost(big, { ...v, parallel: 'm' }, TEST_MACHINE, threads)
      const model = modelNest(big, { ...v, parallel: 'm' }, threads)
      const accesses = model.touches.reduce((n, t) => {
        const runs = model.loops.slice(0, t.depth + 1).reduce((x, l) => x * l.extent, 1)
        return n + t.unit * runs * (t.readWrite ? 2 : 1)
      }, 0)
      const served = cost.servedBytes.reduce((a, b) => a + b, 0)
      expect(served / (accesses * big.bytes * model.gemms)).toBeCloseTo(1, 9)
      expect(cost.cost).toBeGreaterThan(0)
    }
  })

  it('prices a pack by the rows it reads: short rows wait on their lines, long ones stream', () => {
    const p: GemmProblem = { m: 128, n: 2048, k: 4096, batch: 1, mr: 8, nr: 48, lanes: 16, bytes: 4 }
    const blocking = (nc: number): GemmBlocking =>
      ({ mc: 128, nc, kc: 512, order: ['k', 'n', 'm'], inner: 'nm', parallel: 'none', packA: false, packB: true })
    const packPerByte = (nc: number, layout = { a: true, b: true }) =>
      gemmCost(p, blocking(nc), TEST_MACHINE, 1, layout).cycles.pack / (p.k * p.n * p.bytes)
    // 96 columns of B are 384-byte rows, below a prefetched run; 768 columns are 3 KiB.
    expect(packPerByte(96)).toBeGreaterThan(1.5 * packPerByte(768))
    // B stored transposed: the pack reads kc = 512 elements along k per row, whatever the panel's width.
    expect(packPerByte(96, { a: true, b: false })).toBeCloseTo(packPerByte(768, { a: true, b: false }), 2)
  })
})

/**
 * Distinct elements of every tensor between the last use of `tensor`'s first element in iteration 0 of loop `q` and
 * its first use in iteration 1 (inclusive), by visiting the points; 0 when the loop has one iteration.
 */
function exactReuseDistance(nest: LoopNest, tensor: string, q: number): number {
  const E = extentsOf(nest)
  const access = nest.accesses.find((a) => a.tensor === tensor)!
  const key = (x: number[]) => access.index.map((e) => evaluate(e, new Map(nest.loops.map((l, d) => [l.name, x[d]])))).join()
  const element = key(E.map(() => 0))
  let last: number[] | undefined
  for (const x of iterationsBetween(E, ...iterationBox(nest, q, 0))) if (key(x) === element) last = x
  let first: number[] | undefined
  for (const x of iterationsBetween(E, ...iterationBox(nest, q, 1))) {
    if (key(x) === element) {
      first = x
      break
    }
  }
  return total(bruteFootprint(nest, last!, first!))
}
