/**
 * The contraction matcher (ISA Mapper's access-map matching) on hand-written specs, positive and negative with the
 * reason it gives, and on random products checked two independent ways: the verdict against a role oracle written
 * here from the definition, and every accepted match's roles against the interpreter, by running the GEMM the roles
 * describe (gather A[batch][m][k], B[batch][k][n], multiply, scatter into C) on random data.
 */
import { describe, expect, it } from 'vitest'
import { evaluate } from '../../plugin/ir/affine.ts'
import { interpret } from '../../plugin/ir/interp.ts'
import type { Access, Block, IndexRange, Kernel } from '../../plugin/ir/nodes.ts'
import { matchContraction, needleOf } from '../../plugin/passes/match-contraction.ts'
import { AVX2, AVX512, SCALAR } from '../../plugin/targets/index.ts'
import type { Isa } from '../../plugin/targets/isa.ts'
import { cheapestMicrokernel } from '../../plugin/schedule/select.ts'
import { rebroadcasts, registersUsed } from '../../plugin/targets/microkernel.ts'
import { buildKernel } from '../../plugin/spec/build-ir.ts'
import { reorder } from '../../plugin/passes/reorder.ts'
import { substituteMicrokernels } from '../../plugin/passes/substitute-microkernel.ts'
import { printExpr, printKernel, printRole } from '../../plugin/ir/print.ts'
import { TEST_MACHINE, contractionKernel, lastBlock } from '../support/contractions.ts'
import { specOf } from '../support/examples.ts'
import { copyArgs, irArgs } from '../support/kernel-args.ts'
import { maxRelErr, rng, type TensorArray } from '../support/random.ts'

const NEEDLE = needleOf(AVX512.microkernels[0])
const NEEDLE_F64 = needleOf(AVX512.microkernels.find((m) => m.dtype === 'f64')!)

const match = (spec: string, needle = NEEDLE) => matchContraction(lastBlock(spec), needle)

/** `m n k | a b | batch`, the roles in one line. */
function rolesLine(spec: string, needle = NEEDLE): string {
  const r = match(spec, needle)
  if (!r.ok) return `no: ${r.reason}`
  const { m, n, k, a, b, batch } = r.roles
  return `${printRole(m)} ${printRole(n)} ${printRole(k)} | ${a.tensor} ${b.tensor} | ${batch.map((x) => x.name).join(' ')}`.trimEnd()
}

describe('matching contractions', () => {
  it('the ISA tables describe usable microkernels', () => {
    for (const isa of [AVX512, AVX2]) {
      // Names are unique; GEMMs run on the first of a type, convolutions may rank the others (conv-slicing.ts).
      expect(new Set(isa.microkernels.map((m) => m.name)).size).toBe(isa.microkernels.length)
      for (const mk of isa.microkernels) {
        expect(mk.nr % mk.lanes, mk.name).toBe(0)
        expect(mk.lanes * (mk.dtype === 'f64' ? 8 : 4), mk.name).toBe(isa.vectorBytes)
        expect(registersUsed(mk), mk.name).toBeLessThanOrEqual(isa.vectorRegisters)
        expect(matchContraction(needleOf(mk), needleOf(mk)).ok, mk.name).toBe(true)
      }
    }
  })

  it('matmul, identity map', () => {
    expect(rolesLine('A: f32[M, K]\nB: f32[K, N]\nC: f32[M, N]\nC[i, j] +=! A[i, k] * B[k, j]')).toBe('i j k | A B |')
  })

  it('constant factors ride along: their product scales A (packed with it)', () => {
    const r = match('A: f32[M, K]\nB: f32[K, N]\nC: f32[M, N]\nC[i, j] += 2 * A[i, k] * B[k, j] * 0.25')
    expect(r.ok && r.roles.alpha).toEqual({ kind: 'const', value: 0.5, type: 'f32' })
    const plain = match('A: f32[M, K]\nB: f32[K, N]\nC: f32[M, N]\nC[i, j] += A[i, k] * B[k, j]')
    expect(plain.ok && 'alpha' in plain.roles).toBe(false)
  })

  it('a tensor factor over one operand\'s indices scales that operand (gathered, packed with it)', () => {
    const r = match('A: f32[M, K]\nB: f32[K, N]\nd: f32[K]\nW: f32[K, N]\nC: f32[M, N]\nC[i, j] += A[i, k] * B[k, j] * d[k] * W[k, j]')
    expect(r.ok && [r.roles.a.tensor, r.roles.b.tensor, r.roles.scaleA?.by.tensor, r.roles.scaleB?.by.tensor, r.roles.layout])
      .toEqual(['A', 'B', 'd', 'W', 'gathered'])
    const twoOnA = match('A: f32[M, K]\nB: f32[K, N]\nd: f32[K]\ne: f32[M]\nC: f32[M, N]\nC[i, j] += e[i] * A[i, k] * d[k] * B[k, j]')
    expect(twoOnA.ok).toBe(false)
  })

  it('factors of sizes and divisions ride along: a divisor of sizes joins alpha, a tensor divisor divides its operand', () => {
    const attention = match('P: f32[S, T]\nV: f32[T, E]\nz: f32[S]\nO: f32[S, E]\nO[s, e] +=! P[s, t] * V[t, e] / z[s] / sqrt(E) * 2')
    expect(attention.ok && [printExpr(attention.roles.alpha!), attention.roles.scaleA?.by.tensor, attention.roles.scaleA?.divides])
      .toEqual(['(2 / sqrt(E))', 'z', true])
    const negated = match('A: f32[M, K]\nB: f32[K, N]\nC: f32[M, N]\nC[i, j] += -A[i, k] * B[k, j] / (M * 4)')
    expect(negated.ok && printExpr(negated.roles.alpha!)).toBe('(-0.25 / M)')
    // Neither a quotient of the two operands nor a factor varying with an index is a GEMM.
    const quotient = match('A: f32[M, K]\nB: f32[K, N]\nC: f32[M, N]\nC[i, j] += A[i, k] / B[k, j]')
    expect(!quotient.ok && quotient.reason).toBe('the value is not a product of two tensor elements: it divides by B[k, j]')
    expect(match('A: f32[M, K]\nB: f32[K, N]\nC: f32[M, N]\nC[i, j] += A[i, k] * B[k, j] / k').ok).toBe(false)
    expect(match('A: f32[M, K]\nB: f32[K, N]\nC: f32[M, N]\nC[i, j] += A[i, k] * B[k, j] / 0').ok).toBe(false)
  })

  it('transposed operands: dimension maps in any order', () => {
    expect(rolesLine('A: f32[K, M]\nB: f32[K, N]\nC: f32[M, N]\nC[i, j] += A[k, i] * B[k, j]')).toBe('i j k | A B |')
    expect(rolesLine('A: f32[M, K]\nB: f32[N, K]\nC: f32[M, N]\nC[i, j] += A[i, k] * B[j, k]')).toBe('i j k | A B |')
    expect(rolesLine('A: f32[K, M]\nB: f32[N, K]\nC: f32[M, N]\nC[i, j] += A[k, i] * B[j, k]')).toBe('i j k | A B |')
  })

  it('swapped factors, and a transposed output computed as Cᵀ = Bᵀ·Aᵀ (n stays contiguous in C)', () => {
    expect(rolesLine('A: f32[M, K]\nB: f32[K, N]\nC: f32[M, N]\nC[i, j] += B[k, j] * A[i, k]')).toBe('i j k | A B |')
    expect(rolesLine('A: f32[M, K]\nB: f32[K, N]\nC: f32[N, M]\nC[j, i] += A[i, k] * B[k, j]')).toBe('j i k | B A |')
  })

  it('batch indices anywhere, several of them', () => {
    const batched = 'A: f32[Bt, M, K]\nB: f32[Bt, K, N]\nC: f32[Bt, M, N]\nC[b, i, j] +=! A[b, i, k] * B[b, k, j]'
    expect(rolesLine(batched)).toBe('i j k | A B | b')
    const mixed = 'A: f32[M, G, K, H]\nB: f32[H, K, N, G]\nC: f32[G, M, H, N]\nC[g, i, h, j] += A[i, g, k, h] * B[h, k, j, g]'
    expect(rolesLine(mixed)).toBe('i j k | A B | g h')
  })

  it('several indices per role, adjacent in every tensor holding them and in one order: one GEMM dimension each', () => {
    const reshaped = 'X: f64[A, B, C, D]\nY: f64[C, D, E, F]\nZ: f64[A, B, E, F]\nZ[a, b, e, f] +=! X[a, b, c, d] * Y[c, d, e, f]'
    expect(rolesLine(reshaped, NEEDLE_F64)).toBe('a·b e·f c·d | X Y |')
    // k transposed as a whole (A's k run first), m after it; n and a batch index in the middle of C.
    const mixed = 'A: f32[K, L, M, G]\nB: f32[G, N, O, K, L]\nC: f32[M, G, N, O]\nC[i, g, j, o] += A[k, l, i, g] * B[g, j, o, k, l]'
    expect(rolesLine(mixed)).toBe('i j·o k·l | A B | g')
    // Swapped factors: the output's last dimension decides which run is n.
    const swapped = 'X: f32[P, Q, K]\nY: f32[K, R, S]\nO: f32[R, S, P, Q]\nO[r, s, p, q] += X[p, q, k] * Y[k, r, s]'
    expect(rolesLine(swapped)).toBe('r·s p·q k | Y X |')
  })

  it('roles whose indices are not one run of dimensions in one order are gathered; runs are flattened', () => {
    const layout = (spec: string) => {
      const r = match(spec)
      return r.ok ? `${rolesLine(spec)} ${r.roles.layout}` : r.reason
    }
    expect(layout('A: f32[M, K, L]\nB: f32[K, L, N]\nC: f32[M, N]\nC[i, j] += A[i, k, l] * B[k, l, j]')).toBe('i j k·l | A B | flattened')
    // k in two orders: A's order is the role's.
    expect(layout('A: f32[M, K, L]\nB: f32[L, K, N]\nC: f32[M, N]\nC[i, j] += A[i, k, l] * B[l, k, j]')).toBe('i j k·l | A B | gathered')
    // m apart in C (n between), and n apart in C.
    expect(layout('A: f32[M, P, K]\nB: f32[K, N, Q]\nC: f32[M, N, P, Q]\nC[i, j, p, q] += A[i, p, k] * B[k, j, q]'))
      .toBe('i·p j·q k | A B | gathered')
    // TCCG's abcd-aebf-dfce, row-major: every role split by another.
    expect(layout('X: f32[F, B, E, A]\nY: f32[E, C, F, D]\nZ: f32[D, C, B, A]\nZ[d, c, b, a] += X[f, b, e, a] * Y[e, c, f, d]'))
      .toBe('d·c b·a e·f | Y X | gathered')
  })

  it('f64 against the f64 needle, and not against the f32 one', () => {
    const spec = 'A: f64[M, K]\nB: f64[K, N]\nC: f64[M, N]\nC[i, j] += A[i, k] * B[k, j]'
    expect(rolesLine(spec, NEEDLE_F64)).toBe('i j k | A B |')
    expect(rolesLine(spec)).toBe('no: element type is f64, the needle\'s is f32')
  })

  // Each negative case: the spec, and words its reason must contain.
  const NEGATIVE: readonly [string, string, string][] = [
    ['matvec', 'A: f32[M, N]\nx: f32[N]\ny: f32[M]\ny[i] +=! A[i, j] * x[j]', 'matrix-vector'],
    ['dot', 'x: f32[N]\ny: f32[N]\nout: f32[]\nout +=! x[i] * y[i]', 'no m index'],
    ['outer product', 'x: f32[M]\ny: f32[N]\nP: f32[M, N]\nP[i, j] = x[i] * y[j]', 'op is =, the needle needs +='],
    ['three factors', 'A: f32[M, K]\nB: f32[K, L]\nD: f32[L, N]\nC: f32[M, N]\nC[i, j] += A[i, k] * B[k, l] * D[l, j]', '3 factors (A[i, k], B[k, l], D[l, j]); a GEMM multiplies two'],
    ['convolution', 'x: f32[N]\nw: f32[R]\ny: f32[N]\ny[i] +=! x[i + r] * w[r]', 'x\'s dimension 0 is i + r, not a single index'],
    ['strided access', 'A: f32[M, K]\nB: f32[K, N]\nC: f32[M, N]\nC[i, j] += A[i, 2*k] * B[k, j]', 'index k appears with coefficient 2 in A'],
    ['shifted access', 'A: f32[M, K]\nB: f32[K, N]\nC: f32[M, N]\nC[i, j] += A[i, k + 1] * B[k, j]', 'index k appears with offset 1 in A'],
    ['where clause', 'A: f32[M, K]\nB: f32[K, N]\nC: f32[M, N]\nC[i, j] += A[i, k] * B[k, j] where k < 4', 'the domain has constraints'],
    ['max reduction', 'A: f32[M, K]\nB: f32[K, N]\nC: f32[M, N]\nC[i, j] max=! A[i, k] * B[k, j]', 'op is max='],
    ['a third tensor factor', 'A: f32[M, K]\nB: f32[K, N]\nD: f32[M, N]\nC: f32[M, N]\nC[i, j] += D[i, j] * A[i, k] * B[k, j]', '3 factors (D[i, j], A[i, k], B[k, j]); a GEMM multiplies two'],
    ['function of a load', 'A: f32[M, K]\nB: f32[K, N]\nC: f32[M, N]\nC[i, j] += exp(A[i, k]) * B[k, j]', 'exp(A[i, k]) is not a tensor element'],
    ['sum, not a product', 'A: f32[M, K]\nB: f32[K, N]\nC: f32[M, N]\nC[i, j] += A[i, k] + B[k, j]', 'is not a product'],
    ['diagonal', 'A: f32[M, M]\nB: f32[M, N]\nC: f32[M, N]\nC[i, j] += A[i, i] * B[i, j]', 'appears twice in A'],
    ['index only in one factor', 'A: f32[M, K, L]\nB: f32[K, N]\nC: f32[M, N]\nC[i, j] += A[i, k, l] * B[k, j]', 'index l appears only in A'],
    ['i32', 'A: i32[M, K]\nB: i32[K, N]\nC: i32[M, N]\nC[i, j] += A[i, k] * B[k, j]', 'element type is i32'],
    ['batch index last in the output', 'A: f32[M, K, G]\nB: f32[K, N, G]\nC: f32[M, N, G]\nC[i, j, g] += A[i, k, g] * B[k, j, g]', "output's last dimension is batch"],
  ]
  for (const [name, spec, reason] of NEGATIVE) {
    it(`no match: ${name}`, () => {
      const r = match(spec)
      expect(r.ok, name).toBe(false)
      if (!r.ok) expect(r.reason).toContain(reason)
    })
  }
})

describe('random products', () => {
  const LETTERS = ['i', 'j', 'k', 'l', 'p']

  /**
   * An independent statement of when `out += x * y` is a GEMM the microkernel runs, from index-set masks (each of the
   * three roles, out and x, out and y, x and y, has indices; the output's last is not a batch index), and whether it
   * is flattened: in both tensors holding a role its indices form one run of dimensions, in the same order.
   */
  function oracle(out: string[], x: string[], y: string[]): 'no' | 'flattened' | 'gathered' {
    const all = [...new Set([...out, ...x, ...y])]
    if ([out, x, y].some((a) => new Set(a).size !== a.length)) return 'no'
    const mask = (v: string) => (out.includes(v) ? 4 : 0) + (x.includes(v) ? 2 : 0) + (y.includes(v) ? 1 : 0)
    if (all.some((v) => ![6, 5, 3, 7].includes(mask(v)))) return 'no'
    const run = (t: string[], m: number) => t.filter((v) => mask(v) === m).join(' ')
    const isRun = (t: string[], m: number) => t.map((v) => (mask(v) === m ? v : '|')).join(' ').includes(run(t, m))
    const roles = [[6, [out, x]], [5, [out, y]], [3, [x, y]]] as const
    if (roles.some(([m, holders]) => run(holders[0], m) === '') || mask(out[out.length - 1]) === 7) return 'no'
    const flat = roles.every(([m, [t, u]]) => isRun(t, m) && isRun(u, m) && run(t, m) === run(u, m))
    return flat ? 'flattened' : 'gathered'
  }

  /** C += A·B computed from the roles alone, batch point by batch point, in plain loops. */
  function gemmFromRoles(block: Block, kernel: Kernel, args: unknown[], sizes: Map<string, number>): void {
    const r = matchContraction(block, NEEDLE)
    if (!r.ok) throw new Error(r.reason)
    const { roles } = r
    const array = (t: string) => args[kernel.params.findIndex((p) => p.name === t)] as TensorArray
    const shape = (t: string) => kernel.tensors.find((x) => x.name === t)!.shape.map((d) => evaluate(d, sizes))
    const at = (a: Access, env: Map<string, number>) =>
      a.index.reduce((off, ix, d) => off * shape(a.tensor)[d] + evaluate(ix, env), 0)
    const ext = (name: string) => evaluate(block.indices.find((ix) => ix.name === name)!.extent, sizes)
    const [M, N, K] = [roles.m, roles.n, roles.k].map((ixs) => ixs.reduce((n, x) => n * ext(x.name), 1))
    // A role's indices at linear position `at` of its GEMM dimension (row-major, the last index fastest).
    const place = (ixs: readonly IndexRange[], at: number): [string, number][] =>
      ixs.reduceRight((acc: [string, number][], ix) => {
        const rest = acc.length === 0 ? at : Math.floor(at / ixs.slice(ixs.length - acc.length).reduce((n, y) => n * ext(y.name), 1))
        return [[ix.name, rest % ext(ix.name)], ...acc]
      }, [])
    const batchPoints: Map<string, number>[] = [new Map()]
    for (const b of roles.batch) {
      const next = batchPoints.flatMap((env) => [...Array(ext(b.name)).keys()].map((v) => new Map([...env, [b.name, v]])))
      batchPoints.splice(0, batchPoints.length, ...next)
    }
    for (const env of batchPoints) {
      const A = new Float64Array(M * K)
      const B = new Float64Array(K * N)
      for (let i = 0; i < M; i++) for (let p = 0; p < K; p++) {
        A[i * K + p] = array(roles.a.tensor)[at(roles.a, new Map([...env, ...place(roles.m, i), ...place(roles.k, p)]))]
      }
      for (let p = 0; p < K; p++) for (let j = 0; j < N; j++) {
        B[p * N + j] = array(roles.b.tensor)[at(roles.b, new Map([...env, ...place(roles.k, p), ...place(roles.n, j)]))]
      }
      for (let i = 0; i < M; i++) for (let j = 0; j < N; j++) {
        let s = 0
        for (let p = 0; p < K; p++) s += A[i * K + p] * B[p * N + j]
        array(roles.c.tensor)[at(roles.c, new Map([...env, ...place(roles.m, i), ...place(roles.n, j)]))] += s
      }
    }
  }

  it('the verdict agrees with the oracle, and accepted roles compute what the block computes', () => {
    const next = rng(0x6e33)
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)]
    const shuffle = <T>(xs: readonly T[]) => [...xs].map((x) => [next(), x] as const).sort((a, b) => a[0] - b[0]).map((p) => p[1])
    let accepted = 0
    let severalPerRole = 0
    for (let trial = 0; trial < 300; trial++) {
      const used = LETTERS.slice(0, 3 + Math.floor(next() * 3))
      // Which of {out, x, y} each index is in: a GEMM's (an m, n and k, the rest batch or more of m, n, k), then maybe
      // one index moved to another subset. Never only the output: the checker rejects an output index the right-hand
      // side does not use.
      const masks = shuffle([6, 5, 3, ...used.slice(3).map(() => pick([7, 7, 6, 5, 3]))])
      if (next() < 0.5) masks[Math.floor(next() * masks.length)] = pick([1, 2, 3, 5, 6, 7])
      // Tensors keep the letters' order now and then, so roles of several indices are often adjacent runs.
      const [out, x, y] = [4, 2, 1].map((bit) => used.filter((_, n) => masks[n] & bit)).map((t) => (next() < 0.4 ? t : shuffle(t)))
      if (out.length === 0 || x.length === 0 || y.length === 0) continue
      if (next() < 0.1) x.push(x[0]) // a diagonal, now and then
      const dims = (ix: string[]) => ix.map((v) => v.toUpperCase()).join(', ')
      const spec = `X: f32[${dims(x)}]\nY: f32[${dims(y)}]\nO: f32[${dims(out)}]\nO[${out.join(', ')}] += X[${x.join(', ')}] * Y[${y.join(', ')}]`
      const block = lastBlock(spec)
      const verdict = matchContraction(block, NEEDLE)
      expect(verdict.ok ? verdict.roles.layout : 'no', `${spec}\n${verdict.ok ? '' : verdict.reason}`).toBe(oracle(out, x, y))
      if (!verdict.ok) continue
      accepted++
      if ([verdict.roles.m, verdict.roles.n, verdict.roles.k].some((ixs) => ixs.length > 1)) severalPerRole++
      const kernel = buildKernel(specOf(spec, ['X', 'Y', 'O', ...used.map((v) => v.toUpperCase())]))
      const sizes = new Map(used.map((v) => [v.toUpperCase(), 1 + Math.floor(next() * 4)]))
      const args = irArgs(kernel, sizes, next)
      const want = copyArgs(args)
      interpret(kernel, want)
      const got = copyArgs(args)
      gemmFromRoles(block, kernel, got, sizes)
      const o = kernel.params.findIndex((p) => p.name === 'O')
      expect(maxRelErr(got[o] as TensorArray, want[o] as TensorArray), spec).toBeLessThan(1e-5)
    }
    expect(accepted).toBeGreaterThan(30)
    expect(severalPerRole).toBeGreaterThan(10)
  })
})

describe('substitution', () => {
  it('wraps exactly the matching blocks; the fill of `+=!` stays a fill', () => {
    const k = contractionKernel('A: f32[M, K]\nB: f32[K, N]\nC: f32[M, N]\nC[i, j] +=! A[i, k] * B[k, j]', 'mm')
    expect(k.body.map((s) => s.kind)).toEqual(['fill', 'contraction'])
    const c = k.body[1]
    if (c.kind !== 'contraction') throw new Error('not a contraction')
    // Of each ISA's f32 tiles with a register for the broadcast, the one the ranking prices least.
    const pick = (isa: Isa) => cheapestMicrokernel(
      isa.microkernels.filter((m) => m.dtype === 'f32' && !rebroadcasts(m)),
      { roles: c.roles, machine: TEST_MACHINE, threads: TEST_MACHINE.cores },
    ).name
    expect(c.schedules.map((x) => [x.isa, x.microkernel])).toEqual([['avx512', pick(AVX512)], ['avx2', pick(AVX2)]])
    for (const x of c.schedules) {
      const mk = [...AVX512.microkernels, ...AVX2.microkernels].find((m) => m.name === x.microkernel)!
      expect([x.mc % mk.mr, x.nc % mk.nr]).toEqual([0, 0])
    }
    const other = contractionKernel('A: f32[M, N]\nx: f32[N]\ny: f32[M]\ny[i] +=! A[i, j] * x[j]', 'mv')
    expect(other.body.map((s) => s.kind)).toEqual(['fill', 'loop'])
  })

  it('logs, per block and ISA, the microkernel chosen or why none matched (POLYKERN_DEBUG=match)', () => {
    const spec = 'A: f32[M, K]\nB: f32[K, N]\nC: f32[M, N]\nx: f32[N]\ny: f32[M]\nC[i, j] += A[i, k] * B[k, j]\ny[i] += C[i, j] * x[j]'
    const messages: string[] = []
    substituteMicrokernels(reorder(buildKernel(specOf(spec, ['A', 'B', 'C', 'x', 'y', 'M', 'K', 'N']))), {
      isas: [AVX512, AVX2, SCALAR],
      machine: TEST_MACHINE,
      threads: TEST_MACHINE.cores,
      log: (m) => messages.push(m),
    })
    expect(messages).toEqual([
      expect.stringMatching(/^k s0: avx512 runs gemm_f32_avx512_\w+ \(m i, n j, k k\)$/),
      `k s0: avx2 runs ${AVX2.microkernels[0].name} (m i, n j, k k)`,
      'k s0: no scalar microkernel',
      expect.stringMatching(/^k s1: no avx512 microkernel: gemm_f32_avx512_\w+: no n index .*matrix-vector.*; gemm_f64_\w+: element type is f32/),
      expect.stringMatching(/^k s1: no avx2 microkernel: gemm_f32_avx2_\w+: no n index/),
      'k s1: no scalar microkernel',
    ])
  })

  it('the IR printer shows roles and schedules', () => {
    const k = contractionKernel('A: f64[Bt, M, K]\nB: f64[Bt, K, N]\nC: f64[Bt, M, N]\nC[b, i, j] += A[b, i, k] * B[b, k, j]', 'bmm')
    const c = k.body[0]
    if (c.kind !== 'contraction') throw new Error('not a contraction')
    expect(c.roles.batch.map((x) => x.name)).toEqual(['b'])
    const text = printKernel(k)
    expect(text).toContain('contraction s0 [m: i, n: j, k: k, batch: b] {')
    for (const x of c.schedules) {
      expect(text).toContain(`# ${x.isa} ${x.microkernel} mc=${x.mc} nc=${x.nc} kc=${x.kc} order=${x.order.join('')} parallel=${x.parallel}`)
    }
    expect(text).toContain('C[b, i, j] += (A[b, i, k] * B[b, k, j])')
  })
})
