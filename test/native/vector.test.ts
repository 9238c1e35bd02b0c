/**
 * SIMD loops (emit/c-vector.ts) against the reference interpreter, at every ISA and at 1 and 2 threads (at 2, every
 * array a view at an odd element offset): every vector operation in f32 and f64, reductions of each kind, invariant
 * divisors whose reciprocal overflows or is denormal, and lengths around the lane counts, so the unrolled loop, the
 * one-vector loop and the masked tail all run; register nests (lanes around a short reduction) with and without the
 * zero fill before them. Inputs carry NaN, ±0, ±Inf, denormals and huge values where the result does not depend on
 * summation order; element-wise arithmetic, max/min, comparisons and selects must then agree bit for bit (±0 included).
 */
import { createRequire } from 'node:module'
import { beforeAll, describe, expect, it } from 'vitest'
import { buildAddon } from '../../plugin/addon/build.ts'
import { emitAddonSource } from '../../plugin/emit/napi.ts'
import { findKernelSites } from '../../plugin/find/annotations.ts'
import { buildKernel } from '../../plugin/spec/build-ir.ts'
import { interpret } from '../../plugin/ir/interp.ts'
import { resolveOptions } from '../../plugin/options.ts'
import { compileKernel } from '../../plugin/pipeline.ts'
import { checkSpec } from '../../plugin/spec/check.ts'
import { parseSpec } from '../../plugin/spec/parser.ts'
import { ISAS } from '../../plugin/targets/index.ts'
import type { KernelAbi } from '../../runtime/abi.ts'
import { copyArgs, copyArgsAtOddOffsets } from '../support/kernel-args.ts'
import { maxRelErr, rngOf, tolerance, type TensorArray } from '../support/random.ts'
import { ROOT } from '../support/examples.ts'

const require = createRequire(import.meta.url)
const opts = resolveOptions({ root: ROOT, cacheDir: 'node_modules/.cache/polykern-test' })

/** Lengths of the vector dimension: 1, primes, and one below, at and above 4, 8, 16 and 32 lanes. */
const LENGTHS = [1, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 47, 64, 65, 100]

interface Case {
  readonly name: string
  readonly spec: string
  readonly params: string
  /** Outputs whose every element must equal the interpreter's bit for bit. */
  readonly exact: readonly string[]
  /** Inputs filled with special values too (NaN, ±0, ±Inf, denormals, huge). */
  readonly special: readonly string[]
  /** Inputs filled with these values, in turn. */
  readonly cycle?: Readonly<Record<string, readonly number[]>>
}

const CASES: readonly Case[] = [
  {
    name: 'arith32',
    params: 'X, Y, b, r, A, B, D, N, M',
    spec: `X: f32[N, M]; Y: f32[N, M]; b: f32[M]; r: f32[N]; A: f32[N, M]; B: f32[N, M]; D: f32[N, M]
      A[i, j] = (X[i, j] - Y[i, j] * 2.5) / (abs(Y[i, j]) + 1) + -X[i, j] / r[i] + sqrt(abs(X[i, j]) + b[j])
      B[i, j] = X[i, j] / b[j] * r[i]
      D[i, j] += X[i, j] * Y[i, j]
      D[i, j] *= Y[i, j] * 0.5`,
    exact: ['A', 'B', 'D'],
    special: ['r'],
  },
  {
    // 1/r overflows for r = 1e-40 and is denormal for r = 3e38: those rows must divide.
    name: 'divide32',
    params: 'X, r, Q, N, M',
    spec: `X: f32[N, M]; r: f32[N]; Q: f32[N, M]
      Q[i, j] = X[i, j] * 0.001 / r[i]`,
    exact: ['Q'],
    special: [],
    cycle: { r: [1e-40, 2, 3e38, -1e-40, 0, NaN, Infinity, -0.75] },
  },
  {
    name: 'select32',
    params: 'X, Y, b, P, Q, S, N, M',
    spec: `X: f32[N, M]; Y: f32[N, M]; b: f32[M]; P: f32[N, M]; Q: f32[N, M]; S: f32[N, M]
      P[i, j] = max(X[i, j], Y[i, j])
      Q[i, j] = min(X[i, j], b[j])
      Q[i, j] max= Y[i, j]
      S[i, j] = X[i, j] > Y[i, j] && !(X[i, j] == b[j]) || X[i, j] != X[i, j] ? -X[i, j] : (Y[i, j] <= b[j] ? Y[i, j] : b[j])`,
    exact: ['P', 'Q', 'S'],
    special: ['X', 'Y', 'b'],
  },
  {
    // A constant side runs as the instruction itself (emit/c-vector.ts constantSided): NaN, ±0 and ±Inf on the other.
    name: 'constant32',
    params: 'X, P, Q, S, N, M',
    spec: `X: f32[N, M]; P: f32[N, M]; Q: f32[N, M]; S: f32[N, M]
      P[i, j] = max(X[i, j], 0)
      Q[i, j] = min(max(-1.5, X[i, j]), 0) + max(min(X[i, j], 3e38), -0)
      S[i, j] = min(0, X[i, j]) - min(X[i, j], -0) + max(X[i, j], -3e38)`,
    exact: ['P', 'Q', 'S'],
    special: ['X'],
  },
  {
    name: 'constant64',
    params: 'X, P, Q, N, M',
    spec: `X: f64[N, M]; P: f64[N, M]; Q: f64[N, M]
      P[i, j] = max(0, X[i, j])
      Q[i, j] = min(X[i, j], 0) + max(X[i, j], 2.5)`,
    exact: ['P', 'Q'],
    special: ['X'],
  },
  {
    name: 'math32',
    params: 'X, E, L, T, G, N, M',
    spec: `X: f32[N, M]; E: f32[N, M]; L: f32[N, M]; T: f32[N, M]; G: f32[N, M]
      E[i, j] = exp(X[i, j] * 4)
      L[i, j] = log(X[i, j])
      T[i, j] = tanh(X[i, j] * 3)
      G[i, j] = sigmoid(X[i, j] * 8)`,
    exact: [],
    special: ['X'],
  },
  {
    name: 'reduce32',
    params: 'X, s, p, hi, lo, N, M',
    spec: `X: f32[N, M]; s: f32[N]; p: f32[N]; hi: f32[N]; lo: f32[N]
      s[i] +=! X[i, j] * 0.5
      p[i] *=! 1 + X[i, j] / 64
      hi[i] max=! X[i, j]
      lo[i] min=! -X[i, j]`,
    exact: [],
    special: [],
  },
  {
    name: 'extremes32',
    params: 'X, hi, lo, N, M',
    spec: `X: f32[N, M]; hi: f32[N]; lo: f32[N]
      hi[i] max=! X[i, j]
      lo[i] min=! X[i, j]`,
    exact: ['hi', 'lo'],
    special: ['X'],
  },
  {
    name: 'all64',
    params: 'X, Y, r, A, E, P, s, hi, N, M',
    spec: `X: f64[N, M]; Y: f64[N, M]; r: f64[N]; A: f64[N, M]; E: f64[N, M]; P: f64[N, M]; s: f64[N]; hi: f64[N]
      A[i, j] = (X[i, j] * Y[i, j] - 1) / r[i] + sqrt(abs(Y[i, j]))
      E[i, j] = exp(X[i, j] * 20) + log(abs(Y[i, j])) + tanh(X[i, j]) + sigmoid(Y[i, j] * 5)
      P[i, j] = X[i, j] >= Y[i, j] ? max(X[i, j], Y[i, j]) : min(-X[i, j], Y[i, j])
      s[i] +=! X[i, j] * Y[i, j]
      hi[i] max=! X[i, j]`,
    exact: ['A', 'P'],
    special: ['r'],
  },
  {
    // A register nest (lanes of j around the taps r) after a zero fill it makes redundant: the sums start at zero.
    name: 'taps32',
    params: 'X, F, O, N, M',
    spec: `X: f32[N, M]; F: f32[3, M]; O: f32[N, M]
      O[i, j] +=! X[i + r - 1, j] * F[r, j]`,
    exact: ['O'],
    special: [],
  },
  {
    // The same nest leaving row 0 out: the fill stays, and row 0 must come out zero.
    name: 'tapsFromRow1',
    params: 'X, F, O, N, M',
    spec: `X: f32[N, M]; F: f32[3, M]; O: f32[N, M]
      O[i, j] +=! X[i + r - 1, j] * F[r, j] where i >= 1`,
    exact: ['O'],
    special: [],
  },
  {
    name: 'softmaxRows',
    params: 'X, Y, N, M',
    spec: `X: f32[N, M]; Y: f32[N, M]; let m: f32[N]; let z: f32[N]
      m[i] max=! X[i, j]
      Y[i, j] = exp(X[i, j] - m[i])
      z[i] +=! Y[i, j]
      Y[i, j] = Y[i, j] / z[i]`,
    exact: [],
    special: [],
  },
]

const code = CASES.map((c) => `/* @kernel\n${c.spec.split(';').join('\n')}\n*/\nexport function ${c.name}(${c.params}) {}\n`).join('\n')
const file = `${ROOT}/test/native/vector-kernels.ts`

/** Special values, in f32 range where the array is f32. */
const SPECIALS = [NaN, 0, -0, Infinity, -Infinity, 1e-40, -3e-39, 3e38, -2e38, 1, -1, 88.5, -104, 0.5]

function fill(dtype: string, length: number, next: () => number, special: boolean): TensorArray {
  const a = dtype === 'f32' ? new Float32Array(length) : new Float64Array(length)
  for (let i = 0; i < length; i++) {
    a[i] = special && next() < 0.3 ? SPECIALS[Math.floor(next() * SPECIALS.length)] : (next() * 2 - 1) * 4
  }
  return a
}

/** Every element the same number, or both NaN (Object.is tells +0 from -0). */
const sameBits = (a: TensorArray, b: TensorArray): number => a.findIndex((x, n) => !Object.is(x, b[n]) && !(Number.isNaN(x) && Number.isNaN(b[n])))

describe('SIMD loops at every ISA equal the interpreter', () => {
  const sites = findKernelSites(file, code)
  const compiled = sites.map((site) => compileKernel(site, code, opts))
  const sources = emitAddonSource(
    compiled.map((k, n) => ({ kernel: k.ir, abi: k.abi, symbol: `kc_${n}_${k.abi.name}` })),
    { moduleId: 'vector.test.ts', isas: ISAS, parallelMinWork: 1 },
  )
  type Addon = Record<string, (...args: unknown[]) => void> & {
    __polykern: { setIsa: (name: string) => string; setThreads: (n: number) => void }
  }
  let addon: Addon

  beforeAll(async () => {
    const built = await buildAddon({ sources, cacheDir: opts.cacheDir })
    if (!built.ok) throw new Error(`addon build failed:\n${built.error}`)
    addon = require(built.path) as Addon
  })

  it('emits explicit vector code for every kernel at both vector ISAs, and none at scalar', () => {
    const text = (isa: string) => sources.find((f) => f.name === (isa === 'scalar' ? 'polykern.c' : `polykern_${isa}.c`))!.text
    for (const [n, c] of CASES.entries()) {
      const version = (isa: string) => text(isa).match(new RegExp(`PK_SHARED int kc_${n}_${c.name}_${isa}\\([\\s\\S]*?\\n}\\n`))?.[0] ?? ''
      const outlined = (isa: string) => [...text(isa).matchAll(new RegExp(`static void kc_${n}_${c.name}_${isa}_p\\d+\\([\\s\\S]*?\\n}\\n`, 'g'))].join('')
      const all = (isa: string) => version(isa) + outlined(isa)
      expect(all('avx512'), c.name).toMatch(/_mm512_(mask_)?storeu_p|pk_vacc/)
      expect(all('avx512'), c.name).toMatch(/_mm512_mask(z_loadu|_storeu|_blend)_p/)
      expect(all('avx2'), c.name).toMatch(/_mm256_mask(load|store)_p/)
      expect(all('scalar'), c.name).not.toMatch(/_mm\d*_|pk_v/)
    }
    // Each ISA's file includes its own header, no other's (the scalar one none).
    for (const isa of ISAS) {
      for (const other of ISAS.filter((o) => o.vectors)) {
        expect(text(isa.name).includes(`#include "${other.vectors!.header}"`), `${isa.name} ${other.name}`).toBe(isa === other)
      }
    }
  })

  for (const [n, c] of CASES.entries()) {
    const site = sites[n]
    const spec = checkSpec(parseSpec(site.specText, site.specStart, file), site)
    const reference = buildKernel(spec)
    const abi: KernelAbi = compiled[n].abi
    it(`${c.name}: every length around the lane counts, every ISA, 1 and 2 threads`, () => {
      const next = rngOf(c.name)
      for (const M of LENGTHS) {
        const sizes = new Map([['N', 1 + Math.floor(next() * 5)], ['M', M]])
        const args = abi.params.map((p) => {
          if (p.kind === 'size') return sizes.get(p.name)!
          const length = p.shape.reduce<number>((k, d) => k * (typeof d === 'number' ? d : sizes.get(d)!), 1)
          const values = c.cycle?.[p.name]
          if (values) return Float32Array.from({ length }, (_, k) => values[k % values.length])
          return fill(p.dtype, length, next, c.special.includes(p.name))
        })
        const run = (f: (...a: unknown[]) => unknown, copyOf = copyArgs) => {
          const copy = copyOf(args)
          f(...copy)
          return copy
        }
        const want = run((...a) => interpret(reference, a))
        const longest = Math.max(M, reference.body.length)
        for (const isa of ISAS) {
          addon.__polykern.setIsa(isa.name)
          for (const threads of [1, 2]) {
            addon.__polykern.setThreads(threads)
            // At 2 threads every array is a view at an odd element offset, which no fresh (16-byte aligned) array is.
            const got = run(addon[c.name], threads === 2 ? copyArgsAtOddOffsets : copyArgs)
            abi.params.forEach((p, k) => {
              if (p.kind !== 'tensor' || p.role === 'in') return
              const label = `${isa.name}, ${threads}T${threads === 2 ? ' (views at odd offsets)' : ''}, N=${sizes.get('N')} M=${M}: ${p.name}`
              const [w, g] = [want[k] as TensorArray, got[k] as TensorArray]
              if (c.exact.includes(p.name)) expect(sameBits(w, g), `${label} (first differing element)`).toBe(-1)
              else expect(maxRelErr(w, g), label).toBeLessThanOrEqual(tolerance(p.dtype, longest))
            })
          }
        }
      }
    })
  }

})
