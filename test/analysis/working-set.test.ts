/**
 * PolyDL Algorithm 1: the paper's matmul example, and the closed forms against exact enumeration and against
 * brute force written here (every iteration of the interval visited, index tuples compared as strings).
 */
import { describe, expect, it } from 'vitest'
import { evaluate, variable } from '../../plugin/ir/affine.ts'
import { buildKernel } from '../../plugin/spec/build-ir.ts'
import type { Affine, Block } from '../../plugin/ir/nodes.ts'
import { elementBytesOf, loopNestOfBlock, tiledNest } from '../../plugin/analysis/loop-nest.ts'
import type { LoopNest, NestAccess } from '../../plugin/analysis/loop-nest.ts'
import { footprint, intervalBoxes, reuseDependences, workingSets, type Point } from '../../plugin/analysis/working-set.ts'
import { specOf } from '../support/examples.ts'
import { rng } from '../support/random.ts'
import { bruteFootprint, iterationsBetween, lexLess } from './reference.ts'

const v = (name: string) => variable(name)
const read = (tensor: string, ...index: Affine[]): NestAccess => ({ tensor, kind: 'read', index })
const write = (tensor: string, ...index: Affine[]): NestAccess => ({ tensor, kind: 'write', index })

function matmulNest(M: number, N: number, K: number): LoopNest {
  return {
    loops: [{ name: 'i', extent: M }, { name: 'j', extent: N }, { name: 'k', extent: K }],
    accesses: [read('C', v('i'), v('j')), read('A', v('i'), v('k')), read('B', v('k'), v('j')), write('C', v('i'), v('j'))],
    elementBytes: new Map([['A', 4], ['B', 4], ['C', 4]]),
  }
}

function randomPoint(extents: readonly number[], next: () => number): number[] {
  return extents.map((e) => Math.floor(next() * e))
}

/** Random nest: depth 1..4, extents 1..9, 1..3 tensors each accessed through a random projection of the loops. */
function randomProjectionNest(next: () => number): LoopNest {
  const depth = 1 + Math.floor(next() * 4)
  const loops = Array.from({ length: depth }, (_, q) => ({ name: `x${q}`, extent: 1 + Math.floor(next() * 9) }))
  const accesses: NestAccess[] = []
  const tensors = 1 + Math.floor(next() * 3)
  for (let n = 0; n < tensors; n++) {
    const dims = loops.filter(() => next() < 0.6).sort(() => next() - 0.5)
    const index = dims.map((l) => v(l.name))
    accesses.push({ tensor: `T${n}`, kind: next() < 0.5 ? 'read' : 'write', index })
    if (next() < 0.3) accesses.push({ tensor: `T${n}`, kind: 'write', index })
  }
  return { loops, accesses, elementBytes: new Map(accesses.map((a) => [a.tensor, 4])) }
}

describe('Algorithm 1 on PolyDL matmul (loop order i, j, k)', () => {
  const cases = [[8, 8, 8], [5, 8, 8], [3, 2, 7], [1, 2, 1], [4, 13, 5], [2, 17, 31], [1, 64, 3]]
  for (const [M, N, K] of cases) {
    it(`M=${M} N=${N} K=${K}: the A[i][k] dependence (d2) has WS_min = 2K+3 and WS_max = N·K+N+1`, () => {
      for (const method of ['auto', 'enumerate'] as const) {
        const { workingSets: sets } = workingSets(matmulNest(M, N, K), method)
        const ofA = sets.filter((w) => w.dependences.some((d) => d.tensor === 'A' && d.kind === 'rar'))
        expect(ofA.map((w) => w.kind).sort()).toEqual(['max', 'min'])
        expect(ofA.find((w) => w.kind === 'min')!.footprint.elements).toBe(2 * K + 3)
        expect(ofA.find((w) => w.kind === 'max')!.footprint.elements).toBe(N * K + N + 1)
        expect(ofA.every((w) => w.footprint.exact)).toBe(true)
      }
    })
  }

  it('N = K = 8 gives 19 and 73, and the source and targets are the paper\'s', () => {
    const analysis = workingSets(matmulNest(8, 8, 8))
    const d2 = analysis.dependences.find((d) => d.tensor === 'A')!
    expect(d2).toMatchObject({ kind: 'rar', source: [0, 0, 0], firstTarget: [0, 1, 0], lastTarget: [0, 7, 0] })
    const sets = analysis.workingSets.filter((w) => w.dependences.includes(d2))
    expect(sets.map((w) => w.footprint.elements).sort((a, b) => a - b)).toEqual([19, 73])
    expect(sets.find((w) => w.kind === 'min')!.footprint.perTensor).toEqual(new Map([['C', 2], ['A', 8], ['B', 9]]))
  })

  it('C has all four kinds (d1), counted once; a parallel i makes B\'s reuse (d3) a whole-nest working set', () => {
    const [M, N, K] = [6, 5, 7]
    const deps = reuseDependences(matmulNest(M, N, K))
    expect(deps.filter((d) => d.tensor === 'C').map((d) => d.kind).sort()).toEqual(['rar', 'raw', 'war', 'waw'])
    const plain = workingSets(matmulNest(M, N, K)).workingSets
    expect(plain.filter((w) => w.dependences[0].tensor === 'C').map((w) => w.footprint.elements).sort((a, b) => a - b))
      .toEqual([5, 2 * K + 1])
    const nest = matmulNest(M, N, K)
    const parallel = { ...nest, loops: nest.loops.map((l) => (l.name === 'i' ? { ...l, parallel: true } : l)) }
    const par = workingSets(parallel).workingSets.filter((w) => w.kind === 'parallel')
    expect(par).toHaveLength(1)
    expect(par[0].dependences.map((d) => d.tensor)).toEqual(['B'])
    expect(par[0].footprint.elements).toBe(M * K + K * N + M * N)
  })

  it('the nest built from the matmul spec\'s block gives the same working sets', () => {
    const spec = 'A: f32[M, K]\nB: f32[K, N]\nC: f32[M, N]\nC[i, j] +=! A[i, k] * B[k, j]'
    const kernel = buildKernel(specOf(spec, ['A', 'B', 'C', 'M', 'N', 'K']))
    const block = kernel.body.find((s): s is Block => s.kind === 'block')!
    const nest = loopNestOfBlock(block, new Map([['M', 4], ['N', 9], ['K', 11]]), elementBytesOf(kernel.tensors))
    expect(nest.loops.map((l) => [l.name, l.extent])).toEqual([['i', 4], ['j', 9], ['k', 11]])
    expect(nest.accesses.map((a) => `${a.kind} ${a.tensor}`)).toEqual(['read A', 'read B', 'read C', 'write C'])
    const sizes = (n: LoopNest) => workingSets(n).workingSets.map((w) => w.footprint.bytes).sort((a, b) => a - b)
    expect(sizes(nest)).toEqual(sizes(matmulNest(4, 9, 11)))
  })

  it('sizes substitute into access maps (a reversed index)', () => {
    const kernel = buildKernel(specOf('x: f32[N]\ny: f32[N]\ny[i] = x[N - 1 - i]', ['x', 'y', 'N']))
    const block = kernel.body.find((s): s is Block => s.kind === 'block')!
    const nest = loopNestOfBlock(block, new Map([['N', 5]]), elementBytesOf(kernel.tensors))
    expect(nest.accesses[0].index[0]).toEqual({ terms: [{ v: 'i', coeff: -1 }], constant: 4 })
  })
})

describe('closed forms agree with enumeration and with brute force', () => {
  it('lexicographic intervals split into at most 2·depth − 1 disjoint boxes covering them exactly', () => {
    const next = rng(11)
    for (let n = 0; n < 300; n++) {
      const extents = Array.from({ length: 1 + Math.floor(next() * 4) }, () => 1 + Math.floor(next() * 5))
      let [s, t] = [randomPoint(extents, next), randomPoint(extents, next)]
      if (lexLess(t, s)) [s, t] = [t, s]
      const boxes = intervalBoxes(extents, s, t)
      expect(boxes.length).toBeLessThanOrEqual(Math.max(1, 2 * extents.length - 1))
      const inBoxes = (x: Point) => boxes.filter((b) => x.every((value, q) => b.lo[q] <= value && value <= b.hi[q])).length
      for (const x of iterationsBetween(extents, extents.map(() => 0), extents.map((e) => e - 1))) {
        const inside = !lexLess(x, s) && !lexLess(t, x)
        expect(inBoxes(x)).toBe(inside ? 1 : 0)
      }
    }
  })

  it('footprints of random projection nests over random intervals', () => {
    const next = rng(2024)
    for (let n = 0; n < 400; n++) {
      const nest = randomProjectionNest(next)
      const extents = nest.loops.map((l) => l.extent)
      let [s, t] = [randomPoint(extents, next), randomPoint(extents, next)]
      if (lexLess(t, s)) [s, t] = [t, s]
      const closed = footprint(nest, s, t, 'closed')
      const enumerated = footprint(nest, s, t, 'enumerate')
      const brute = bruteFootprint(nest, s, t)
      expect(closed.perTensor).toEqual(brute)
      expect(enumerated.perTensor).toEqual(brute)
      expect(enumerated.exact).toBe(true)
    }
  })

  it('footprints of random two-level tilings (the mixed-radix maps of tiled nests)', () => {
    const next = rng(77)
    for (let n = 0; n < 150; n++) {
      const nest = randomProjectionNest(next)
      const sizes = new Map<string, number[]>()
      for (const l of nest.loops) {
        const inner = 1 + Math.floor(next() * 3)
        if (next() < 0.7) sizes.set(l.name, next() < 0.5 ? [inner * (1 + Math.floor(next() * 3)), inner] : [inner])
      }
      const tiled = tiledNest(nest, { sizes })
      const extents = tiled.loops.map((l) => l.extent)
      if (extents.reduce((a, b) => a * b, 1) > 20_000) continue
      let [s, t] = [randomPoint(extents, next), randomPoint(extents, next)]
      if (lexLess(t, s)) [s, t] = [t, s]
      const brute = bruteFootprint(tiled, s, t)
      expect(footprint(tiled, s, t, 'closed').perTensor).toEqual(brute)
      expect(footprint(tiled, s, t, 'enumerate').perTensor).toEqual(brute)
    }
  })

  it('maps the closed form does not cover (offsets, transposes, sums of loops) are enumerated exactly', () => {
    const nest: LoopNest = {
      loops: [{ name: 'a', extent: 4 }, { name: 'b', extent: 3 }, { name: 'r', extent: 3 }],
      accesses: [
        read('X', v('a'), v('b')),
        read('X', v('b'), v('a')),
        read('I', { terms: [{ v: 'a', coeff: 1 }, { v: 'r', coeff: 1 }], constant: 0 }),
        write('Y', v('a'), { terms: [{ v: 'b', coeff: 2 }], constant: 1 }),
      ],
      elementBytes: new Map([['X', 8], ['I', 4], ['Y', 4]]),
    }
    const next = rng(5)
    for (let n = 0; n < 50; n++) {
      let [s, t] = [randomPoint([4, 3, 3], next), randomPoint([4, 3, 3], next)]
      if (lexLess(t, s)) [s, t] = [t, s]
      const got = footprint(nest, s, t)
      expect(got.perTensor).toEqual(bruteFootprint(nest, s, t))
      expect(got.bytes).toBe(got.perTensor.get('X')! * 8 + got.perTensor.get('I')! * 4 + got.perTensor.get('Y')! * 4)
    }
  })

  it('dependences of random nests: closed form, enumeration and brute force over all iteration pairs', () => {
    const next = rng(99)
    let checked = 0
    for (let n = 0; n < 200; n++) {
      const nest = randomProjectionNest(next)
      const extents = nest.loops.map((l) => l.extent)
      const points = [...iterationsBetween(extents, extents.map(() => 0), extents.map((e) => e - 1))]
      if (points.length > 400) continue
      const p = Math.floor(next() * extents.length)
      const withParallel = { ...nest, loops: nest.loops.map((l, q) => (q === p ? { ...l, parallel: true } : l)) }
      const closed = reuseDependences(withParallel, 'closed')
      expect(reuseDependences(withParallel, 'enumerate')).toEqual(closed)
      // Brute force: each ordered pair of accesses, every x ≺ y touching the same element.
      const expected: unknown[] = []
      for (const a of nest.accesses) {
        for (const b of nest.accesses) {
          if (a.tensor !== b.tensor) continue
          const at = (acc: NestAccess) =>
            points.map((x) => acc.index.map((e) => evaluate(e, new Map(nest.loops.map((l, q) => [l.name, x[q]])))).join(','))
          const [ea, eb] = [at(a), at(b)]
          const pairs = points.flatMap((x, n) => points.filter((y, m) => n < m && ea[n] === eb[m]).map((y) => [x, y]))
          if (pairs.length === 0) continue
          const source = pairs.map(([x]) => x).reduce((m, x) => (lexLess(x, m) ? x : m))
          const targets = pairs.filter(([x]) => x.join() === source.join()).map(([, y]) => y)
          const kind = { readread: 'rar', writeread: 'raw', readwrite: 'war', writewrite: 'waw' }[a.kind + b.kind]
          expected.push({
            kind,
            tensor: a.tensor,
            source,
            firstTarget: targets.reduce((m, y) => (lexLess(y, m) ? y : m)),
            lastTarget: targets.reduce((m, y) => (lexLess(m, y) ? y : m)),
            spansParallel: targets.some((y) => y.findIndex((value, q) => value !== source[q]) === p),
          })
          checked++
        }
      }
      expect(closed).toEqual(expected)
    }
    expect(checked).toBeGreaterThan(100)
  })

  it('tiles as large as the loops change no working set', () => {
    const nest = matmulNest(7, 5, 6)
    const tiled = tiledNest(nest, { sizes: new Map([['i', [7, 7]], ['j', [5, 5]], ['k', [6, 6]]]) })
    const sizes = (n: LoopNest) => workingSets(n).workingSets.map((w) => `${w.kind}:${w.footprint.elements}`).sort()
    expect(sizes(tiled)).toEqual(sizes(nest))
  })

  it('partial tiles round up and count the overhang as if the tile were full', () => {
    const nest = matmulNest(10, 4, 3)
    const tiled = tiledNest(nest, { sizes: new Map([['i', [4]]]) })
    expect(tiled.loops.map((l) => `${l.name}=${l.extent}`)).toEqual(['i:1=3', 'i=4', 'j=4', 'k=3'])
    const all = footprint(tiled, [0, 0, 0, 0], [2, 3, 3, 2])
    expect(all.perTensor.get('A')).toBe(12 * 3)
    expect(all.perTensor).toEqual(bruteFootprint(tiled, [0, 0, 0, 0], [2, 3, 3, 2]))
  })

  it('past the enumeration budget: an upper bound, flagged inexact; a dependence left out, with a note', () => {
    // I[a + r] over 3000 × 3000 iterations: 9M element visits, over the budget, and not injective.
    const E = 3000
    const nest: LoopNest = {
      loops: [{ name: 'a', extent: E }, { name: 'r', extent: E }],
      accesses: [read('I', { terms: [{ v: 'a', coeff: 1 }, { v: 'r', coeff: 1 }], constant: 0 }), write('O', v('a'))],
      elementBytes: new Map([['I', 4], ['O', 4]]),
    }
    const next = rng(3)
    for (let n = 0; n < 5; n++) {
      // Far enough apart to stay over the budget.
      const s = [Math.floor(next() * 500), Math.floor(next() * E)]
      const t = [E - 1 - Math.floor(next() * 500), Math.floor(next() * E)]
      const seen = new Set<number>()
      for (let a = s[0]; a <= t[0]; a++) {
        for (let r = a === s[0] ? s[1] : 0; r <= (a === t[0] ? t[1] : E - 1); r++) seen.add(a + r)
      }
      const got = footprint(nest, s, t)
      expect(got.exact).toBe(false)
      expect(got.perTensor.get('I')).toBeGreaterThanOrEqual(seen.size)
      expect(got.perTensor.get('O')).toBe(t[0] - s[0] + 1)
    }
    expect(footprint(nest, [0, 0], [E - 1, E - 1]).perTensor.get('I')).toBe(2 * E - 1)
    const transposed: LoopNest = {
      loops: [{ name: 'a', extent: 2000 }, { name: 'b', extent: 2000 }],
      accesses: [read('X', v('b'), v('a')), write('X', v('a'), v('b'))],
      elementBytes: new Map([['X', 4]]),
    }
    const analysis = workingSets(transposed)
    expect(analysis.notes.some((note) => note.includes('X') && note.includes('4000000 iterations'))).toBe(true)
    // What is left: each access's own reuse has no free loop, so nothing at all.
    expect(analysis.dependences).toEqual([])
  })

  it('a scalar accumulator (rank 0) is one element', () => {
    const nest: LoopNest = {
      loops: [{ name: 'i', extent: 9 }],
      accesses: [read('x', v('i')), read('out'), write('out')],
      elementBytes: new Map([['x', 4], ['out', 4]]),
    }
    expect(footprint(nest, [2], [6]).perTensor).toEqual(new Map([['x', 5], ['out', 1]]))
  })
})
