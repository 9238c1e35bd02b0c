/**
 * Shrunk fuzz findings, each kept as a regression: compiled together into one addon and checked like the fuzzer
 * checks (interpreter, naive evaluator, passes, generated JS, every ISA at 1, 2 and 3 threads). `npm run fuzz` prints
 * new entries ready to paste into REGRESSIONS.
 */
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { resolveOptions } from '../../plugin/options.ts'
import { buildAll, checkCase, compileAll, describeError, loadFuzzAddon } from './differential.ts'
import { kernelSource } from './model.ts'
import { dedent, regressionText, type FuzzRegression } from './regression.ts'

const REGRESSIONS: readonly FuzzRegression[] = [
  {
    title: 'a tensor named with a reserved prefix (pk_, napi_, _X) hung the C and JS emitters (fixed in emit/names.ts)',
    spec: `
      pk_buf: f64[N]
      napi_value: f64[N]
      _Bool: f64[N]
      _Bool[i] = pk_buf[i] * napi_value[N - 1 - i]
    `,
    params: ['pk_buf', 'napi_value', '_Bool', 'N'],
    sizes: { N: 5 },
    dataSeed: 1,
  },
  {
    title: 'temporaries and indices named after the emitters own locals and prefixes (emit/names.ts)',
    spec: `
      x: f32[N]
      y: f32[N]
      let pk_t: f32[N]
      pk_t[pk_i] = x[pk_i] + 1
      y[_Q] +=! pk_t[_Q] * x[napi_k] where napi_k < 3
    `,
    params: ['x', 'y', 'N'],
    sizes: { N: 7 },
    dataSeed: 2,
  },
  {
    title: 'a vector loop run along its enclosing loop (the run form) over an index the C renames (`return`): its C did not compile (fixed in emit/c-vector.ts)',
    spec: `
      acc: f32[M, M, 2]
      C: f32[M, M]
      H: f32[M, M, 2]
      acc[t, w, return] +=! C[t, r] * H[r, w, return] where w <= t + 2
    `,
    params: ['C', 'acc', 'M', 'H'],
    sizes: { M: 9 },
    dataSeed: 3,
  },
  {
    title: 'the same in a depthwise convolution whose channels (16: one run at every ISA) run along its positions',
    spec: `
      I: f32[H, W, 16]
      F: f32[3, 3, 16]
      O: f32[P, Q, 16]
      O[p, q, return] +=! I[p + r, q + s, return] * F[r, s, return]
    `,
    params: ['I', 'F', 'O', 'H', 'W', 'P', 'Q'],
    sizes: { H: 9, W: 13, P: 7, Q: 11 },
    dataSeed: 4,
  },
  {
    title: 'a temporary that nothing reads, stored alone in its block: the block left empty crashed the lowering (fixed in passes/fuse.ts)',
    spec: `
      let acct: f32[2, Int32Array, 3, Int32Array]
      let for: f32[]
      A: f32[Int32Array, 3]
      Z: f32[Int32Array, Int32Array, Int32Array]
      for = (-1)
      acct[l, h, s, r] += ((1 > Z[2*r, 0, h]) ? 1 : A[r, s]) where l - 1 > 2
      acct[l, s, m, j] min= Z[x, -s, j] where l < 2, m < 3
    `,
    params: ['A', 'Z', 'Int32Array'],
    sizes: { Int32Array: 5 },
    dataSeed: 0,
  },
  {
    title: "a product of four factors whose candidate paths end in a GEMM (which overwrites the output) and in loops (which add to it): the output's reset, one node in both, was dropped from both, so the loops added to stale values (fixed in passes/contraction-path.ts; ir/verify.ts now refuses such a shared fill)",
    spec: `
      B: f32[2, SIZE_MAX, SIZE_MAX]
      G: f32[2, SIZE_MAX, SIZE_MAX]
      Math: f32[2, SIZE_MAX, 2]
      img: f32[SIZE_MAX, 2, 2]
      Z: f32[SIZE_MAX, 2, SIZE_MAX]
      B[new, w, p] +=! (Z[k, new, w] * ((G[new, k, m] * Math[new, m, h]) * img[p, h, new]))
    `,
    params: ['SIZE_MAX', 'B', 'Math', 'Z', 'G', 'img'],
    sizes: { SIZE_MAX: 1 },
    dataSeed: 75750887,
  },
  {
    title: 'a GEMM followed by a statement reading one element of its output into a scalar: the epilogue fusion compared indices of different ranks and crashed the compiler (fixed in passes/fuse-epilogue.ts)',
    spec: `
      C: f64[2, 4]
      A: f64[R, 4]
      H: f64[2, R]
      Y: f64[]
      C[n, v] +=! (H[n, w] * A[w, v])
      Y = C[0, 0]
    `,
    params: ['Y', 'R', 'C', 'H', 'A'],
    sizes: { R: 3 },
    dataSeed: 0,
  },
]

const root = path.resolve(fileURLToPath(import.meta.url), '../../..')
const opts = resolveOptions({ root, cacheDir: 'node_modules/.cache/polykern-test' })
const texts = REGRESSIONS.map((r, n) => regressionText({ ...r, spec: dedent(r.spec) }, `regression${n}`))
const compiled = compileAll(texts, path.join(root, 'test/.out/fuzz/regressions.ts'), opts)
const addon = loadFuzzAddon(await buildAll(compiled, 'regressions.ts', opts.cacheDir))

describe('shrunk fuzz findings', () => {
  REGRESSIONS.forEach((r, n) => {
    const run = r.openBug ? it.fails : it
    run(r.title, () => {
      const c = compiled[n]
      if (!c.ok) throw new Error(`${describeError(c.error)}\n${kernelSource(c.text)}`)
      expect(checkCase(c, new Map(Object.entries(r.sizes)), r.dataSeed, addon)).toEqual([])
    })
  })
})
