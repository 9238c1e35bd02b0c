/**
 * The contraction-path pass against the interpreter: the IR before and after the pass must compute the same outputs
 * on random shapes (1, primes, sizes that are no multiple of 8), and the shape of what it builds is checked against
 * costs and paths worked out by hand here. Blocks it must leave alone come back identical.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { evaluate } from '../../plugin/ir/affine.ts'
import { buildKernel } from '../../plugin/spec/build-ir.ts'
import { interpret } from '../../plugin/ir/interp.ts'
import { cheapest, flagValues } from '../../plugin/ir/polynomial.ts'
import type { Block, Kernel, Stmt } from '../../plugin/ir/nodes.ts'
import { verifyKernel } from '../../plugin/ir/verify.ts'
import { walkStmts } from '../../plugin/ir/walk.ts'
import { findKernelSites } from '../../plugin/find/annotations.ts'
import { resolveOptions } from '../../plugin/options.ts'
import { contractionPath, planContractionPaths } from '../../plugin/passes/contraction-path.ts'
import { compileKernel } from '../../plugin/pipeline.ts'
import { paramsOf, randomEinsum } from '../support/contractions.ts'
import { EXAMPLE_FILES, ROOT, exampleSpecs, specOf } from '../support/examples.ts'
import { copyArgs, irArgs } from '../support/kernel-args.ts'
import { maxRelErr, rng, tolerance, type TensorArray } from '../support/random.ts'

const SIZES = [1, 2, 3, 5, 7, 13, 17]
const MAX_POINTS = 150_000
const S = 64 // every size symbol, when the pass compares costs

const kernel = (text: string, params: readonly string[]): Kernel => verifyKernel(buildKernel(specOf(text, params)), 'build')
const chain3 = (): Kernel => buildKernel(exampleSpecs().find((e) => e.name === 'chain3')!.spec)
/** The body, or with a size choice what its first candidate (the best at representative sizes) runs, in order. */
const firstPath = (k: Kernel): readonly Stmt[] => {
  const choice = k.choices?.[0]
  if (!choice) return k.body
  const values = new Map([[choice.name, 0], ...flagValues(choice, 0)])
  return k.body.flatMap((s) => (s.kind !== 'if' ? [s] : s.conds.every((c) => evaluate(c.expr, values) === 0) ? s.body : []))
}
/** The kernel with its size choice made for candidate `k` at every size: its costs 0 and the others' 1. */
const forcing = (kernel: Kernel, k: number): Kernel => {
  const [c] = kernel.choices!
  return { ...kernel, choices: [{ ...c, costs: c.costs.map((_, n) => (n === k ? [] : [[1]])) }] }
}
const blocks = (k: Kernel): Block[] => firstPath(k).filter((s): s is Block => s.kind === 'block')
/** The temporaries, or with a size choice those of its first candidate. */
const temps = (k: Kernel) => k.tensors.filter((t) => t.role === 'temp' && (k.choices?.[0].temps[0].includes(t.name) ?? true))

/** Points the kernel's blocks visit at these sizes: what the interpreter pays. */
const points = (k: Kernel, sizes: ReadonlyMap<string, number>): number =>
  blocks(k).reduce((n, b) => n + b.indices.reduce((p, ix) => p * evaluate(ix.extent, sizes), 1), 0)

/** Run 0 sets every size to 1; later runs draw from SIZES, the first size cycling through all of them. */
function shapes(k: Kernel, seed: number, runs: number): Map<string, number>[] {
  const next = rng(seed)
  const out = [new Map(k.sizes.map((s) => [s, 1]))]
  for (let run = 1; out.length < runs; run++) {
    const pick = (n: number) => (n === 0 ? SIZES[run % SIZES.length] : SIZES[Math.floor(next() * SIZES.length)])
    const sizes = new Map(k.sizes.map((s, n) => [s, pick(n)]))
    if (points(k, sizes) <= MAX_POINTS) out.push(sizes)
  }
  return out
}

/** Interprets both kernels on the same random inputs (outputs start random too: `+=` accumulates) and compares. */
function expectSameResults(before: Kernel, after: Kernel, seed: number, runs = 8): void {
  verifyKernel(after, 'contraction-path')
  const next = rng(seed * 31 + 7)
  for (const sizes of shapes(before, seed, runs)) {
    const args = irArgs(before, sizes, next)
    const copy = () => copyArgs(args)
    const [want, got] = [copy(), copy()]
    interpret(before, want)
    interpret(after, got)
    before.params.forEach((p, n) => {
      if (p.kind !== 'tensor') return
      const t = before.tensors.find((x) => x.name === p.name)!
      const reduction = Math.max(...before.sizes.map((s) => sizes.get(s)!)) ** 3
      const shown = [...sizes].map(([s, v]) => `${s}=${v}`).join(' ')
      const err = maxRelErr(want[n] as TensorArray, got[n] as TensorArray)
      expect(err, `${p.name} at ${shown}`).toBeLessThanOrEqual(tolerance(t.dtype, reduction))
    })
  }
}

describe('factorizes products of three or more factors', () => {
  it('chain3: (X·Y)·Z or X·(Y·Z), each two GEMM-shaped blocks through one temporary, chosen per call by cost', () => {
    const before = chain3()
    const after = contractionPath(before)
    expect(blocks(after).map((b) => b.id)).toEqual(['s0.1', 's0'])
    expect(temps(after)).toHaveLength(1)
    expect(blocks(after).map((b) => b.indices.map((ix) => ix.name).sort().join(''))).toEqual(['abe', 'bef'])
    const [d] = planContractionPaths(before)
    expect(d).toMatchObject({ factorized: true, costBefore: S ** 4, costAfter: 2 * S ** 3, choice: 's0_path' })
    expect(d.candidates.map((c) => c.cost)).toEqual(['A·B·E + B·E·F', 'A·B·F + A·E·F'])
    expect(after.choices).toEqual([{
      name: 's0_path',
      costs: [[[1, 'A', 'B', 'E'], [1, 'B', 'E', 'F']], [[1, 'A', 'B', 'F'], [1, 'A', 'E', 'F']]],
      temps: [['s0_t1'], ['s0_p1_t1']],
    }])
    // Each candidate resets its temporary before its first block, and the output (`+=!`) just before its last.
    const shown = (x: Stmt) => (x.kind === 'block' ? x.id : x.kind === 'fill' ? `fill ${x.tensor}` : x.kind)
    expect(after.body.map((s) => (s.kind === 'if' ? s.body.map(shown) : shown(s)))).toEqual([
      ['fill s0_t1', 's0.1', 'fill O', 's0'],
      ['fill s0_p1_t1', 's0.p1.1', 'fill O', 's0.p1'],
    ])
    expectSameResults(before, after, 1)
  })

  it('chain3 at sizes that favour either order: each call runs the cheaper one, E·A·B + E·B·F or A·B·F + A·E·F', () => {
    const after = contractionPath(chain3())
    const choice = after.choices![0]
    const at = (E: number, A: number, B: number, F: number) => cheapest(choice, (s) => ({ E, A, B, F })[s]!)
    expect(at(2048, 16, 16, 2048)).toBe(0) // both cost 16·16·2048 + 16·2048·2048: a tie goes to the first
    expect(at(2048, 16, 2048, 16)).toBe(1) // 16·2048·16 + 16·2048·16 against 16·2048·2048 + 2048·2048·16
    expect(at(16, 2048, 16, 2048)).toBe(0) // 2048·16·16 + 16·16·2048 against 2048·16·2048 + 2048·16·2048
  })

  const fiveOperands = `
    X: f32[E, A]
    Y: f32[F, B]
    Z: f32[A, B, C, D]
    U: f32[G, C]
    V: f32[H, D]
    O: f32[E, F, G, H]
    O[e, f, g, h] +=! X[e, a] * Y[f, b] * Z[a, b, c, d] * U[g, c] * V[h, d]`
  const fiveParams = ['X', 'Y', 'Z', 'U', 'V', 'O', 'E', 'F', 'G', 'H', 'A', 'B', 'C', 'D']

  it("issue 4's five operands: four pairwise blocks, each summing one index, 5 indices each", () => {
    const before = kernel(fiveOperands, fiveParams)
    const after = contractionPath(before)
    expect(blocks(after)).toHaveLength(4)
    expect(temps(after)).toHaveLength(3)
    const [d] = planContractionPaths(before)
    expect(d.steps.map((s) => s.summed.length)).toEqual([1, 1, 1, 1])
    expect(new Set(d.steps.flatMap((s) => s.summed))).toEqual(new Set(['a', 'b', 'c', 'd']))
    for (const b of blocks(after)) expect(b.indices).toHaveLength(5)
    expect(d).toMatchObject({ factorized: true, costBefore: S ** 8, costAfter: 4 * S ** 5 })
    expectSameResults(before, after, 2, 10)
  })

  it('five operands: a step several candidate paths take, and a product they share, are written once', () => {
    const before = kernel(fiveOperands, fiveParams)
    const after = contractionPath(before)
    const [d] = planContractionPaths(before)
    const taken = d.candidates.flatMap((c) => c.steps.map((s) => s.block))
    const written: string[] = []
    walkStmts(after.body, (s) => void (s.kind === 'block' && written.push(s.id)))
    expect(d.candidates.length).toBeGreaterThan(2)
    expect(written.sort()).toEqual([...new Set(taken)].sort())
    expect(written.length).toBeLessThan(taken.length / 2)
    // One temporary per product of the same factors, whichever candidate makes it.
    const temps = after.tensors.filter((t) => t.role === 'temp')
    expect(new Set(temps.map((t) => JSON.stringify(t.shape))).size).toBe(temps.length)
    const [choice] = after.choices!
    expect(choice.shared!.length).toBeGreaterThan(0)
    expect(choice.shared!.every((f) => f.candidates.length > 1)).toBe(true)
    // Every candidate, made to run at every size, computes what the one nest does: its steps come in an order it
    // can run (a product it reads written first), whichever candidate first wrote them.
    d.candidates.forEach((_, k) => expectSameResults(before, forcing(after, k), 40 + k, 2))
  })

  it('a four-operand chain (f64): three blocks', () => {
    const before = kernel(`
      A: f64[M, J]
      B: f64[J, K]
      C: f64[K, P]
      D: f64[P, L]
      O: f64[M, L]
      O[i, l] +=! A[i, j] * B[j, k] * C[k, p] * D[p, l]`, ['A', 'B', 'C', 'D', 'O', 'M', 'J', 'K', 'P', 'L'])
    const after = contractionPath(before)
    expect(blocks(after)).toHaveLength(3)
    expectSameResults(before, after, 3)
  })

  it('i32 sums of products reassociate exactly (wrapping arithmetic), also when accumulating without `!`', () => {
    const before = kernel(`
      A: i32[M, J]
      B: i32[J, K]
      C: i32[K, L]
      O: i32[M, L]
      O[i, l] += A[i, j] * B[j, k] * C[k, l]`, ['A', 'B', 'C', 'O', 'M', 'J', 'K', 'L'])
    const after = contractionPath(before)
    expect(blocks(after)).toHaveLength(2)
    const filled = firstPath(after).flatMap((s) => (s.kind === 'fill' ? [s.tensor] : []))
    expect(filled).toEqual([temps(after)[0].name])
    expectSameResults(before, after, 4)
  })

  it('constants, a size and a rank-0 tensor ride along with the last product', () => {
    const before = kernel(`
      A: f64[M, J]
      B: f64[J, K]
      C: f64[K, L]
      s: f64[]
      O: f64[M, L]
      O[i, l] +=! 0.5 * s * A[i, j] * B[j, k] * C[k, l] * K`, ['A', 'B', 'C', 's', 'O', 'M', 'J', 'K', 'L'])
    const after = contractionPath(before)
    expect(blocks(after)).toHaveLength(2)
    const final = blocks(after).at(-1)!
    const loads = JSON.stringify(final.body)
    expect(loads).toContain('"tensor":"s"')
    expect(loads).toContain('"value":0.5')
    expectSameResults(before, after, 5)
  })

  it('affine accesses that stay in range (a flipped filter index)', () => {
    const before = kernel(`
      A: f64[M, 3]
      B: f64[3, K]
      C: f64[K, L]
      O: f64[M, L]
      O[i, l] +=! A[i, 2 - r] * B[r, k] * C[k, l]`, ['A', 'B', 'C', 'O', 'M', 'K', 'L'])
    const after = contractionPath(before)
    expect(blocks(after)).toHaveLength(2)
    expectSameResults(before, after, 6)
  })
})

describe('random einsums of 3 to 6 factors', () => {
  it('every candidate, made to run, computes what the one nest does', () => {
    const next = rng(2718)
    let candidates = 0
    let shared = 0
    for (let trial = 0; trial < 16; trial++) {
      const text = randomEinsum(3 + (trial % 4), next)
      const before = buildKernel(specOf(text, paramsOf(text)))
      const after = contractionPath(before)
      if (after === before || !after.choices) continue
      after.choices[0].costs.forEach((_, k) => expectSameResults(before, forcing(after, k), 1000 * trial + k, 2))
      candidates += after.choices[0].costs.length
      shared += after.choices[0].shared?.length ?? 0
    }
    // Enough of them, and of the steps candidates share, to mean something.
    expect(candidates).toBeGreaterThan(40)
    expect(shared).toBeGreaterThan(10)
  })
})

describe('a reduced index shared by three factors', () => {
  const text = `
    X: f64[I, K]
    Y: f64[K]
    Z: f64[K, B]
    W: f64[B]
    O: f64[I]
    O[i] +=! X[i, k] * Y[k] * Z[k, b] * W[b]`
  const params = ['X', 'Y', 'Z', 'W', 'O', 'I', 'K', 'B']

  it('is summed only where no other factor needs it', () => {
    const before = kernel(text, params)
    const after = contractionPath(before)
    const [d] = planContractionPaths(before)
    expect(d.factorized).toBe(true)
    // Every candidate sums k once, in the step joining the last of X, Y and Z: a temporary without k holds all three.
    for (const c of d.candidates) expect(c.steps.filter((s) => s.summed.includes('k'))).toHaveLength(1)
    expectSameResults(before, after, 7)
  })

  it('summing it early instead (written by hand with a temporary) computes something else', () => {
    const before = kernel(text, params)
    const wrong = kernel(`
      X: f64[I, K]
      Y: f64[K]
      Z: f64[K, B]
      W: f64[B]
      O: f64[I]
      let t: f64[]
      t +=! Y[k] * Z[k, b] * W[b]
      O[i] +=! X[i, k] * t`, params)
    const sizes = new Map([['I', 3], ['K', 5], ['B', 7]])
    const next = rng(8)
    const args = irArgs(before, sizes, next)
    const copy = () => copyArgs(args)
    const [want, got] = [copy(), copy()]
    interpret(before, want)
    interpret(wrong, got)
    const o = params.indexOf('O')
    expect(maxRelErr(want[o] as TensorArray, got[o] as TensorArray)).toBeGreaterThan(1e-3)
  })
})

describe('leaves alone', () => {
  const unchanged = (k: Kernel, reason: RegExp) => {
    expect(contractionPath(k)).toBe(k)
    const decisions = planContractionPaths(k)
    expect(decisions).toHaveLength(1)
    expect(decisions[0].factorized).toBe(false)
    expect(decisions[0].reason).toMatch(reason)
  }

  it('a padded read: the guard would not hold inside a temporary', () => {
    unchanged(kernel(`
      I: f64[H]
      F: f64[3, C]
      G: f64[C]
      O: f64[H]
      O[h] +=! I[h + r - 1] * F[r, c] * G[c]`, ['I', 'F', 'G', 'O', 'H', 'C']), /constraints|padding/)
  })

  it('a where clause', () => {
    unchanged(kernel(`
      X: f64[N, K]
      Y: f64[K, J]
      Z: f64[J]
      O: f64[N]
      O[i] +=! X[i, k] * Y[k, j] * Z[j] where k <= j`, ['X', 'Y', 'Z', 'O', 'N', 'K', 'J']), /constraints/)
  })

  it('max= of a product', () => {
    unchanged(kernel(`
      X: f64[N, K]
      Y: f64[K, J]
      Z: f64[J]
      O: f64[N]
      O[i] max=! X[i, k] * Y[k, j] * Z[j]`, ['X', 'Y', 'Z', 'O', 'N', 'K', 'J']), /max=/)
  })

  it('two tensor factors (and a constant): already one contraction', () => {
    unchanged(kernel(`
      A: f32[M, K]
      B: f32[K, N]
      C: f32[M, N]
      C[i, j] +=! 2 * A[i, k] * B[k, j]`, ['A', 'B', 'C', 'M', 'N', 'K']), /only 2 factors/)
    const matmul = buildKernel(exampleSpecs().find((e) => e.name === 'matmul')!.spec)
    expect(contractionPath(matmul)).toBe(matmul)
    expect(planContractionPaths(matmul)).toEqual([])
  })

  it('a product whose extra factor scales one operand (packed with it by the GEMM)', () => {
    unchanged(kernel(`
      X: f64[N, K]
      Y: f64[K, J]
      Z: f64[K]
      O: f64[N, J]
      O[i, j] +=! X[i, k] * Y[k, j] * Z[k]`, ['X', 'Y', 'Z', 'O', 'N', 'K', 'J']), /scale one of them/)
  })

  it('a product no path makes cheaper (an element-wise triple product)', () => {
    unchanged(kernel(`
      X: f64[N]
      Y: f64[N]
      Z: f64[N]
      o: f64[]
      o +=! X[i] * Y[i] * Z[i]`, ['X', 'Y', 'Z', 'o', 'N']), /no fewer flops: 256 flops against 192/)
  })
})

describe('in the pipeline', () => {
  const file = EXAMPLE_FILES.find((f) => f.endsWith('linalg.ts'))!
  const code = readFileSync(file, 'utf8')
  const site = findKernelSites(file, code).find((s) => s.name === 'chain3')!

  it("both pairwise blocks of both of chain3's candidates are matched as GEMMs afterwards", () => {
    const compiled = compileKernel(site, code, resolveOptions({ root: ROOT }))
    const ids: string[] = []
    walkStmts(compiled.ir.body, (s) => {
      if (s.kind === 'contraction' && s.schedules.length > 0) ids.push(s.id)
    })
    expect(ids).toEqual(['s0.1', 's0', 's0.p1.1', 's0.p1'])
  })

  it('logs each decision with its costs', () => {
    const log: string[] = []
    contractionPath(chain3(), { log: (m) => log.push(m) })
    expect(log).toHaveLength(1)
    expect(log[0]).toContain(`${S ** 4} → ${2 * S ** 3}`)
    expect(log[0]).toMatch(/^chain3 s0: factorized/)
  })
})
