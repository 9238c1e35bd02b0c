/**
 * The variant generator and poly-ranking: every variant is a legal tiling of the block, the ranking prefers tiles
 * whose working sets sit in L1/L2 over the untiled loop for matmul 1024³, and the winner's working sets are the
 * brute-force counts on a small case. Runtime for 2048³ is printed, not asserted.
 */
import { describe, expect, it } from 'vitest'
import { variable } from '../../plugin/ir/affine.ts'
import { tileLoopName, type LoopNest } from '../../plugin/analysis/loop-nest.ts'
import { DEFAULT_MAX_VARIANTS, evaluateVariant, rankVariants } from '../../plugin/analysis/variants.ts'
import type { Variant, VariantSpace } from '../../plugin/analysis/variants.ts'
import { readMachine, type Machine } from '../../plugin/targets/machine.ts'
import { bruteFootprint } from './reference.ts'

const v = (name: string) => variable(name)

function matmul(M: number, N: number, K: number): LoopNest {
  return {
    loops: [{ name: 'i', extent: M }, { name: 'j', extent: N }, { name: 'k', extent: K }],
    accesses: [
      { tensor: 'A', kind: 'read', index: [v('i'), v('k')] },
      { tensor: 'B', kind: 'read', index: [v('k'), v('j')] },
      { tensor: 'C', kind: 'read', index: [v('i'), v('j')] },
      { tensor: 'C', kind: 'write', index: [v('i'), v('j')] },
    ],
    elementBytes: new Map([['A', 4], ['B', 4], ['C', 4]]),
  }
}

/** PolyDL's Xeon 8280 hierarchy with the default costs: the same numbers on every build machine. */
const XEON: Machine = readMachine({
  cores: 2,
  caches: [
    { level: 1, bytes: 32 * 1024 },
    { level: 2, bytes: 1 << 20 },
    { level: 3, bytes: 38.5 * (1 << 20), sharedBy: 28 },
  ],
})
const space = (machine: Machine): VariantSpace => ({
  machine,
  registerBlock: new Map([['i', 8], ['j', 32]]),
  parallelLoops: ['i', 'j'],
  threads: 2,
})

/** L1+L2 bytes, L3+memory bytes. */
function split(x: Variant): [number, number] {
  const near = x.assignment.levels.filter((l) => l.level <= 2).reduce((n, l) => n + l.bytes, 0)
  const far = x.assignment.levels.filter((l) => l.level > 2).reduce((n, l) => n + l.bytes, 0) + x.assignment.memory.bytes
  return [near, far]
}

function describeVariant(x: Variant): string {
  const sizes = [...x.tiling.sizes].map(([n, s]) => `${n}:[${s}]`).join(' ')
  const sets = x.analysis.workingSets.map((w) => `${w.kind}(${w.dependences[0].tensor})=${w.footprint.bytes}`).join(' ')
  const [near, far] = split(x)
  const head = `cost ${x.cost.toExponential(4)}  ${sizes}  order ${x.tiling.order.join(' ')}  parallel ${x.tiling.parallel ?? '-'}`
  return `${head}\n    ${sets}\n    L1+L2 ${near} B, L3+mem ${far} B`
}

function expectLegal(nest: LoopNest, s: VariantSpace, ranked: readonly Variant[]): void {
  const names = nest.loops.map((l) => l.name)
  expect(ranked.length).toBeGreaterThan(0)
  expect(ranked.length).toBeLessThanOrEqual(s.maxVariants ?? DEFAULT_MAX_VARIANTS)
  for (let n = 1; n < ranked.length; n++) expect(ranked[n].cost).toBeGreaterThanOrEqual(ranked[n - 1].cost)
  const keys = ranked.map((x) => `${[...x.tiling.sizes].join(';')}|${x.tiling.order.join(' ')}|${x.tiling.parallel}`)
  expect(new Set(keys).size).toBe(keys.length)
  for (const x of ranked) {
    // The point loops (the microkernel) stay innermost, in the block's order.
    expect(x.tiling.order.slice(-names.length)).toEqual(names)
    expect([...x.tiling.order].sort()).toEqual(names.flatMap((n) => [n, tileLoopName(n, 1), tileLoopName(n, 2)]).sort())
    for (const l of nest.loops) {
      const [t2, t1] = x.tiling.sizes.get(l.name)!
      const block = s.registerBlock?.get(l.name) ?? 1
      expect(t1 % block === 0 || t1 === l.extent).toBe(true)
      expect(t2 >= t1 && (t2 % t1 === 0 || t2 === l.extent)).toBe(true)
      expect(t2).toBeLessThanOrEqual(l.extent)
    }
    if (x.tiling.parallel !== undefined) {
      const loop = x.tiling.parallel.replace(/:2$/, '')
      expect(x.tiling.parallel).toBe(tileLoopName(loop, 2))
      expect(s.parallelLoops).toContain(loop)
      const extent = nest.loops.find((l) => l.name === loop)!.extent
      expect(Math.ceil(extent / x.tiling.sizes.get(loop)![0])).toBeGreaterThanOrEqual(s.threads!)
    }
  }
}

describe('variant ranking', () => {
  // First, so the time includes warming up the JIT, as in a build that ranks one kernel.
  it('2048³ runs in well under a second (printed, not asserted)', () => {
    const start = performance.now()
    const ranked = rankVariants(matmul(2048, 2048, 2048), space(readMachine()))
    const ms = performance.now() - start
    console.log(`2048³: ${ranked.length} variants ranked in ${ms.toFixed(0)} ms\n  best ${describeVariant(ranked[0])}`)
    expect(ranked.length).toBeGreaterThan(100)
  })
  it('matmul 1024³: the best tiling beats the untiled loop by moving working sets into L1/L2', () => {
    for (const machine of [XEON, readMachine()]) {
      const nest = matmul(1024, 1024, 1024)
      const ranked = rankVariants(nest, space(machine))
      expectLegal(nest, space(machine), ranked)
      const best = ranked[0]
      const untiled = ['i', 'j'].map((p) => evaluateVariant(nest, { sizes: new Map(), parallel: p }, machine))
      const bestUntiled = untiled.reduce((a, b) => (b.cost < a.cost ? b : a))
      const name = machine === XEON ? 'Xeon 8280 model' : 'this machine'
      console.log(`${name}: ${ranked.length} variants\n  best     ${describeVariant(best)}\n  untiled  ${describeVariant(bestUntiled)}`)
      expect(best.cost).toBeLessThan(bestUntiled.cost)
      expect(nest.loops.some((l) => best.tiling.sizes.get(l.name)![1] < l.extent)).toBe(true)
      expect(split(best)[0]).toBeGreaterThan(split(bestUntiled)[0])
      expect(split(best)[1]).toBeLessThan(split(bestUntiled)[1])
      // The untiled loop is in the space too (tiles as large as the loops), and ranks below the best.
      expect(ranked.findIndex((x) => x.cost >= bestUntiled.cost)).toBeGreaterThan(0)
    }
  })

  it('the top variant\'s working sets are the brute-force counts (small matmul, primes and an odd size)', () => {
    const nest = matmul(13, 10, 7)
    const s = { ...space(XEON), registerBlock: new Map([['i', 2], ['j', 4]]), maxVariants: 200 }
    const ranked = rankVariants(nest, s)
    expectLegal(nest, s, ranked)
    for (const x of ranked.slice(0, 3)) {
      // Rebuild the tiled nest independently of tiledNest: i = T2*i:2 + T1*i:1 + i.
      const extents = new Map<string, number>()
      const index = new Map<string, ReturnType<typeof variable>>()
      for (const l of nest.loops) {
        const [t2, t1] = x.tiling.sizes.get(l.name)!
        const [outer, inner] = [tileLoopName(l.name, 2), tileLoopName(l.name, 1)]
        extents.set(outer, Math.ceil(l.extent / t2)).set(inner, Math.ceil(t2 / t1)).set(l.name, t1)
        index.set(l.name, {
          terms: [{ v: l.name, coeff: 1 }, { v: inner, coeff: t1 }, { v: outer, coeff: t2 }],
          constant: 0,
        })
      }
      const rebuilt: LoopNest = {
        loops: x.tiling.order.map((name) => ({ name, extent: extents.get(name)! })),
        accesses: nest.accesses.map((a) => ({ ...a, index: a.index.map((e) => index.get(e.terms[0].v)!) })),
        elementBytes: nest.elementBytes,
      }
      for (const w of x.analysis.workingSets) {
        const brute = bruteFootprint(rebuilt, w.from, w.to)
        expect(w.footprint.perTensor).toEqual(brute)
        expect(w.footprint.bytes).toBe([...brute.values()].reduce((a, b) => a + b, 0) * 4)
      }
    }
  })

  it('one thread: no parallel loop; no parallel candidate: none either', () => {
    const nest = matmul(64, 48, 40)
    for (const s of [{ ...space(XEON), threads: 1 }, { ...space(XEON), parallelLoops: [] }]) {
      const ranked = rankVariants(nest, s)
      expectLegal(nest, s, ranked)
      expect(ranked.every((x) => x.tiling.parallel === undefined)).toBe(true)
    }
  })

  it('sizes 1, 7, 17, 33, 129 and a batched block stay legal', () => {
    for (const [M, N, K] of [[1, 1, 1], [7, 17, 33], [129, 1, 7], [33, 129, 17]]) {
      const nest = matmul(M, N, K)
      const s = { ...space(readMachine()), maxVariants: 300 }
      expectLegal(nest, s, rankVariants(nest, s))
    }
    const batched: LoopNest = {
      loops: [{ name: 'b', extent: 32 }, { name: 'i', extent: 128 }, { name: 'j', extent: 128 }, { name: 'k', extent: 64 }],
      accesses: [
        { tensor: 'A', kind: 'read', index: [v('b'), v('i'), v('k')] },
        { tensor: 'B', kind: 'read', index: [v('b'), v('k'), v('j')] },
        { tensor: 'C', kind: 'read', index: [v('b'), v('i'), v('j')] },
        { tensor: 'C', kind: 'write', index: [v('b'), v('i'), v('j')] },
      ],
      elementBytes: new Map([['A', 4], ['B', 4], ['C', 4]]),
    }
    const s = { ...space(readMachine()), parallelLoops: ['b', 'i', 'j'] }
    const ranked = rankVariants(batched, s)
    expectLegal(batched, s, ranked)
  })
})
