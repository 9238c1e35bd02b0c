/**
 * The per-call choice of a gathered contraction's role orders (plugin/schedule/role-orders.ts): the C cost formulas the
 * driver evaluates (orderCostTerms), evaluated here in JS at given extents. The choices the TCCG bench measured
 * (intensli abc-bda-dc when m is 24: B's stride-1 index innermost 8.8 -> 51 GFLOP/s, tiled 73), C's own order when C is
 * the big tensor, C's own m order when short C runs would share lines between rows written apart (ccsd_t), and at the
 * mixed sizes test/native/tccg.test.ts runs, several cases on a candidate other than the first, so the differential
 * test there runs the other orders' offset tables too.
 */
import { describe, expect, it } from 'vitest'
import type { Contraction, IndexRange, Kernel } from '../../plugin/ir/nodes.ts'
import type { RoleOrder } from '../../plugin/schedule/role-orders.ts'
import { walkStmts } from '../../plugin/ir/walk.ts'
import { orderCostTerms, roleOrders } from '../../plugin/schedule/role-orders.ts'
import { contractionKernel } from '../support/contractions.ts'
import { TCCG, tccgSpec } from '../support/tccg.ts'
import { MIXED_SHAPES } from '../native/tccg-shapes.ts'

/** native pk_lane_block: the fewest points, a power of two, whose runs of `run` make whole vectors. */
function laneBlock(run: number, lanes: number): number {
  let b = 1
  while (b < lanes && (b * run) % lanes !== 0) b *= 2
  return b
}

const contractionOf = (k: Kernel): Contraction => {
  let found: Contraction | undefined
  walkStmts(k.body, (s) => {
    if (s.kind === 'contraction') found = s
  })
  return found!
}

/** The candidate indices (m, n, k) the generated C picks for `sizes` (letter -> extent): the first of least cost. */
function chosen(s: Contraction, sizes: Readonly<Record<string, number>>): { m: number; n: number; k: number; names: { m: string; n: string; k: string } } {
  const r = s.roles
  const orders = roleOrders(r)
  const extent = (ix: IndexRange) => String(sizes[ix.name])
  const volume = (role: readonly IndexRange[]) => role.reduce((v, ix) => v * sizes[ix.name], 1)
  const scope = { pk_m: volume(r.m), pk_n: volume(r.n), pk_k: volume(r.k) }
  const evaluate = (code: string): number =>
    new Function('pk_m', 'pk_n', 'pk_k', 'pk_min64', 'pk_round_up', 'pk_lane_block', `return ${code.replaceAll('(double)', '')}`)(
      scope.pk_m, scope.pk_n, scope.pk_k, Math.min, (x: number, b: number) => Math.ceil(x / b) * b, laneBlock,
    ) as number
  let best = { m: 0, n: 0, k: 0, cost: Infinity }
  orders.m.forEach((m, h) => orders.n.forEach((n, i) => orders.k.forEach((k, j) => {
    const terms = orderCostTerms(r, m, n, k, extent, { kc: 512, nc: 1056, mr: 8, nr: 48, bytes: 4, lanes: 16 })
    const cost = evaluate(`${terms.c} + ${terms.b} + ${terms.a}`)
    if (cost < best.cost) best = { m: h, n: i, k: j, cost }
  })))
  const print = (o: RoleOrder) => o.map((p) => `${p.ix.name}${{ all: '', blocks: '/', within: '%' }[p.part]}`).join('')
  return { ...best, names: { m: print(orders.m[best.m]), n: print(orders.n[best.n]), k: print(orders.k[best.k]) } }
}

const kernelOf = (tc: string) => contractionKernel(tccgSpec(tc, 'f32'), tc.replaceAll('-', '_'))

describe('role orders of gathered contractions, chosen per call', () => {
  it('intensli abj-bka-kj: tiled in n when m is small (B transposed across panels), C\'s own order when m is large', () => {
    const s = contractionOf(kernelOf('abj-bka-kj'))
    expect(s.roles.layout).toBe('gathered')
    // C[j,b,a] (a stride 1) += A[a,k,b] (b stride 1) * B[j,k]: n holds a and b.
    // C's own, B's stride-1 index innermost, and the two tiled orders (x/: blocks of a line, x%: within one).
    expect(roleOrders(s.roles).n.map((o) => o.map((p) => `${p.ix.name}${{ all: '', blocks: '/', within: '%' }[p.part]}`).join('')))
      .toEqual(['ba', 'ab', 'a/ba%', 'b/ab%'])
    // Blocks of 16 a, each at every b: B's lines (along b) are read whole and transposed, C's written in lines.
    expect(chosen(s, { a: 200, b: 200, j: 24, k: 200 }).names.n).toBe('a/ba%')
    expect(chosen(s, { a: 200, b: 200, j: 2000, k: 8 }).names.n).toBe('ba')
  })

  it('candidates walk each role\'s indices (permuted, or one split into blocks)', () => {
    for (const tc of TCCG) {
      const s = contractionOf(kernelOf(tc))
      if (s.roles.layout !== 'gathered') continue
      const orders = roleOrders(s.roles)
      const sorted = (o: readonly { readonly ix: IndexRange }[] | readonly IndexRange[]) =>
        [...new Set(o.map((x) => ('ix' in x ? x.ix : x).name))].sort().join('')
      for (const o of orders.m) expect(sorted(o), tc).toBe(sorted(s.roles.m))
      for (const o of orders.n) expect(sorted(o), tc).toBe(sorted(s.roles.n))
      for (const o of orders.k) expect(sorted(o), tc).toBe(sorted(s.roles.k))
    }
  })

  it('intensli abcde-ecbfa-fd: pitched (C\'s second index in blocks of whole vectors of its runs) when m and k are short', () => {
    const s = contractionOf(kernelOf('abcde-ecbfa-fd'))
    expect(s.roles.layout).toBe('gathered')
    // Column-major C[a..e] (a stride 1, b next) += A[e,c,b,f,a] (e stride 1) * B[f,d]: n holds a, b, c and e.
    const print = (o: RoleOrder) => o.map((p) => `${p.ix.name}${{ all: '', blocks: '/', within: '%' }[p.part]}`).join('')
    expect(roleOrders(s.roles).n.map(print)).toContain('b/ceb%a')
    // The bench's extents (every one 24), and the mixed shape tccg.test runs natively: blocks of two b.
    const all24 = Object.fromEntries([...'abcdef'].map((l) => [l, 24]))
    expect(chosen(s, all24).names.n).toBe('b/ceb%a')
    expect(chosen(s, { a: 40, b: 4, c: 3, d: 3, e: 20, f: 3 }).names.n).toBe('b/ceb%a')
    // Where m is long, C's cost outweighs B's: C's own order, its rows whole runs of c·b·a.
    expect(chosen(s, { ...all24, d: 2000 }).names.n).toBe('ecba')
  })

  it('ccsd_t abcdef-degb-gfac: C\'s own m order where C\'s runs are a line long, A\'s where they are long', () => {
    const s = contractionOf(kernelOf('abcdef-degb-gfac'))
    expect(s.roles.layout).toBe('gathered')
    // Column-major C[a..f] (a stride 1, b next) += A[d,e,g,b] (d stride 1) * B[g,f,a,c]: m holds b, d and e.
    expect(roleOrders(s.roles).m.map((o) => o.map((p) => p.ix.name).join(''))).toEqual(['ebd', 'edb'])
    const sixteens = Object.fromEntries([...'abcdefg'].map((l) => [l, 16]))
    expect(chosen(s, sixteens).names.m).toBe('edb')
    expect(chosen(s, { ...sixteens, a: 1152, g: 512 }).names.m).toBe('ebd')
  })

  it('ccsd_t: B\'s n order where C\'s second index plays m, C\'s own where it plays n (ties between the two)', () => {
    const sixteens = Object.fromEntries([...'abcdefg'].map((l) => [l, 16]))
    // Column-major C[a..f] (b second) += A[g,d,a,c] (g stride 1) * B[e,f,g,b]: b plays m. n's d, c, a in the order
    // of the factor holding them (c outermost) are c, d, a, in C's d, c, a: both keep C's runs of a innermost and
    // cost the same.
    const m = contractionOf(kernelOf('abcdef-gdac-efgb'))
    expect(roleOrders(m.roles).n.slice(0, 2).map((o) => o.map((p) => p.ix.name).join(''))).toEqual(['cda', 'dca'])
    expect(chosen(m, sixteens).names.n).toBe('cda')
    // C += A[g,d,a,b] * B[e,f,g,c]: b plays n, and C's own order (d, b, a) keeps each tile row one run of C.
    const n = contractionOf(kernelOf('abcdef-gdab-efgc'))
    expect(roleOrders(n.roles).n.slice(0, 2).map((o) => o.map((p) => p.ix.name).join(''))).toEqual(['dba', 'bda'])
    expect(chosen(n, sixteens).names.n).toBe('dba')
  })

  it('ccsd ijk-ilmk-mjl: k in B\'s own order where the other steps B a page at a time', () => {
    const s = contractionOf(kernelOf('ijk-ilmk-mjl'))
    expect(s.roles.layout).toBe('gathered')
    // Column-major C[i,j,k] += A[i,l,m,k] (i stride 1) * B[m,j,l] (m stride 1); the microkernel's B is A: n holds k
    // and i, k holds l and m. A's stride-1 order for k (l, m) steps A by L·I elements, its own (m, l) by I.
    const bench = { i: 56, j: 52, k: 52, l: 52, m: 56 }
    expect(chosen(s, bench).names.k).toBe('ml')
    // Steps under a page (I·L < 1024): B's lines come in order either way, and A's packs read along its stride 1.
    expect(chosen(s, { ...bench, i: 8, l: 8 }).names.k).toBe('lm')
    expect(chosen(s, Object.fromEntries([...'ijklm'].map((l) => [l, 'il'.includes(l) ? 50 : 3]))).names.k).toBe('ml')
  })

  it('at the mixed shapes of the differential test, some calls run other m, n and k orders, tiled ones among them', () => {
    const gathered = TCCG.map((tc) => contractionOf(kernelOf(tc))).filter((s) => s.roles.layout === 'gathered')
    const picks = MIXED_SHAPES.flatMap((shape) => gathered.map((s) => {
      const letters = [...s.roles.m, ...s.roles.n, ...s.roles.k, ...s.roles.batch].map((ix) => ix.name)
      return chosen(s, Object.fromEntries(letters.map((l) => [l, shape(l.toUpperCase())])))
    }))
    expect(picks.filter((p) => p.m > 0).length).toBeGreaterThan(0)
    expect(picks.filter((p) => p.n > 0).length).toBeGreaterThan(0)
    expect(picks.filter((p) => p.k > 0).length).toBeGreaterThan(0)
    // pk_offsets_tiled: an index split into blocks of a line, the last block ragged (50 = 3·16 + 2).
    expect(picks.filter((p) => /\//.test(p.names.n + p.names.k)).length).toBeGreaterThan(0)
  })

})
