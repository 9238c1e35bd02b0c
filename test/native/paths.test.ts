/**
 * Issue 14, differentially: kernels whose contraction path is chosen per call (a SizeChoice between candidate paths),
 * built by the whole pipeline into a real addon, against the interpreter running the block form before the path
 * pass and against the emitted JS, on every ISA this CPU runs, at 1 and 2 threads. Sizes: the bench's three cases
 * shrunk to small odd sizes with the same shape (so the same candidate wins), sizes of 0, then random sizes in
 * [1, 40]; more than one candidate of each kernel must run. Results agree up to the tolerance of reordered sums.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { abiOf } from '../../plugin/abi.ts'
import { buildAddon } from '../../plugin/addon/build.ts'
import { emitJs } from '../../plugin/emit/js.ts'
import { emitAddonSource } from '../../plugin/emit/napi.ts'
import { evaluate } from '../../plugin/ir/affine.ts'
import { buildKernel } from '../../plugin/ir/build.ts'
import { interpret } from '../../plugin/ir/interp.ts'
import type { Kernel } from '../../plugin/ir/nodes.ts'
import { cheapest } from '../../plugin/ir/polynomial.ts'
import { lowerSpec } from '../../plugin/pipeline.ts'
import { runnableIsas } from '../support/cpu.ts'
import { specOf } from '../support/examples.ts'
import { paramsOf } from '../support/contractions.ts'
import { maxRelErr, randomArray, rng, tolerance, type TensorArray } from '../support/random.ts'
import type { KernelCall as Fn, TestAddon as Addon } from '../support/test-addon.ts'

const CASES: readonly { readonly name: string; readonly text: string; readonly fixed: readonly Record<string, number>[] }[] = [
  {
    name: 'chain3',
    text: 'A: f32[Si, Sj]\nB: f32[Sj, Sk]\nC: f32[Sk, Sl]\nD: f32[Si, Sl]\nD[i, l] +=! A[i, j] * B[j, k] * C[k, l]',
    // The bench's 2048x16x16x2048 and 2048x16x2048x16, shrunk; then empty sums and an empty temporary.
    fixed: [
      { Si: 67, Sj: 3, Sk: 3, Sl: 61 }, { Si: 67, Sj: 3, Sk: 61, Sl: 3 }, { Si: 3, Sj: 61, Sk: 3, Sl: 67 },
      { Si: 5, Sj: 0, Sk: 3, Sl: 4 }, { Si: 5, Sj: 3, Sk: 0, Sl: 4 }, { Si: 0, Sj: 3, Sk: 2, Sl: 4 },
    ],
  },
  {
    name: 'chain4',
    text: 'A: f64[Si, Sj]\nB: f64[Sj, Sk]\nC: f64[Sk, Sl]\nD: f64[Sl, Sm]\nE: f64[Si, Sm]\nE[i, m] +=! A[i, j] * B[j, k] * C[k, l] * D[l, m]',
    fixed: [{ Si: 53, Sj: 3, Sk: 53, Sl: 3, Sm: 53 }],
  },
  {
    // The issue's `dba,ead,cad->bce`, accumulating into the output's old content.
    name: 'dba_ead_cad',
    text: 'X: f32[Sd, Sb, Sa]\nY: f32[Se, Sa, Sd]\nZ: f32[Sc, Sa, Sd]\nO: f32[Sb, Sc, Se]\nO[b, c, e] += X[d, b, a] * Y[e, a, d] * Z[c, a, d]',
    fixed: [{ Sa: 5, Sb: 9, Sc: 7, Sd: 3, Se: 11 }],
  },
  {
    name: 'five',
    text: 'X: f32[E, A]\nY: f32[F, B]\nZ: f32[A, B, C, D]\nU: f32[G, C]\nV: f32[H, D]\nO: f32[E, F, G, H]\n' +
      'O[e, f, g, h] +=! X[e, a] * Y[f, b] * Z[a, b, c, d] * U[g, c] * V[h, d]',
    fixed: [{ E: 7, F: 5, G: 3, H: 2, A: 3, B: 5, C: 7, D: 2 }],
  },
  {
    // Two choices, the second reading the first's output: both candidates' temporaries share one arena.
    name: 'two_chains',
    text: 'A: f64[M, K]\nB: f64[K, N]\nC: f64[N, P]\nD: f64[M, P]\nE: f64[P, Q]\nF: f64[Q, R]\nG: f64[M, R]\n' +
      'D[m, p] +=! A[m, k] * B[k, n] * C[n, p]\nG[m, r] +=! D[m, p] * E[p, q] * F[q, r]',
    fixed: [{ M: 37, K: 3, N: 29, P: 3, Q: 31, R: 2 }, { M: 2, K: 31, N: 3, P: 29, Q: 2, R: 37 }],
  },
]
const RANDOM_RUNS = 12
const MAX_POINTS = 400_000

interface Built {
  readonly name: string
  readonly before: Kernel
  readonly ir: Kernel
  readonly js: (...args: unknown[]) => unknown
}

const KERNELS: readonly Built[] = CASES.map((c) => {
  const spec = specOf(c.text, paramsOf(c.text))
  const { ir } = lowerSpec(spec)
  const js = new Function(`'use strict'; return ${emitJs(ir)}`)() as Built['js']
  return { name: c.name, before: buildKernel(spec), ir: { ...ir, name: c.name }, js }
})


let cacheDir: string
let addon: Addon

beforeAll(async () => {
  const sources = emitAddonSource(
    KERNELS.map((k, n) => {
      const spec = specOf(CASES[n].text, paramsOf(CASES[n].text))
      return { kernel: k.ir, abi: { ...abiOf(spec, 'test'), name: k.name }, symbol: `kc_${n}_${k.name}` }
    }),
    { moduleId: 'test/native/paths.test.ts', parallelMinWork: 1 },
  )
  cacheDir = mkdtempSync(path.join(os.tmpdir(), 'polykern-paths-test-'))
  const built = await buildAddon({ sources, cacheDir })
  if (!built.ok) throw new Error(`addon build failed:\n${built.error}`)
  addon = createRequire(import.meta.url)(built.path)
}, 600_000)

afterAll(() => rmSync(cacheDir, { recursive: true, force: true }))

const points = (k: Kernel, sizes: ReadonlyMap<string, number>) =>
  k.body.reduce((n, s) => n + (s.kind === 'block' ? s.indices.reduce((p, ix) => p * evaluate(ix.extent, sizes), 1) : 0), 0)

const copy = (args: readonly unknown[]) => args.map((a) => (ArrayBuffer.isView(a) ? (a as TensorArray).slice() : a))

describe('contraction paths chosen per call', () => {
  for (const [n, k] of KERNELS.entries()) {
    it(`${k.name}: interpreter, JS and native at every ISA and 1 and 2 threads agree, several candidates run`, () => {
      expect(k.ir.choices?.length, 'the kernel chooses its paths per call').toBe(k.before.body.filter((s) => s.kind === 'block').length)
      const choice = k.ir.choices![0]
      const next = rng(1400 + n)
      const shapes = CASES[n].fixed.map((f) => new Map(Object.entries(f)))
      while (shapes.length < CASES[n].fixed.length + RANDOM_RUNS) {
        const sizes = new Map(k.before.sizes.map((s) => [s, 1 + Math.floor(40 ** next())]))
        if (points(k.before, sizes) <= MAX_POINTS) shapes.push(sizes)
      }
      const ran = new Set<number>()
      const out = k.before.params.findLastIndex((p) => p.kind === 'tensor' && k.before.tensors.find((t) => t.name === p.name)!.role !== 'in')
      const dtype = k.before.tensors[0].dtype
      for (const sizes of shapes) {
        ran.add(cheapest(choice, (s) => sizes.get(s)!))
        const args = k.before.params.map((p) => {
          if (p.kind === 'size') return sizes.get(p.name)!
          const t = k.before.tensors.find((x) => x.name === p.name)!
          return randomArray(t.dtype, t.shape.reduce((m, d) => m * evaluate(d, sizes), 1), next)
        })
        const want = copy(args)
        interpret(k.before, want)
        const reduction = Math.max(...sizes.values()) ** 3
        const shown = [...sizes].map(([s, v]) => `${s}=${v}`).join(' ')
        const check = (got: unknown[], where: string) =>
          expect(maxRelErr(got[out] as TensorArray, want[out] as TensorArray), `${k.name} ${shown} ${where}`)
            .toBeLessThanOrEqual(tolerance(dtype, reduction))
        const viaIr = copy(args)
        interpret(k.ir, viaIr)
        check(viaIr, 'interpreter, lowered')
        const viaJs = copy(args)
        k.js(...viaJs)
        check(viaJs, 'JS')
        for (const isa of runnableIsas) {
          const running = addon.__polykern.setIsa(isa)
          for (const threads of [1, 2]) {
            addon.__polykern.setThreads(threads)
            const got = copy(args)
            ;(addon[k.name] as Fn)(...got)
            check(got, `${running}, ${threads} thread(s)`)
          }
        }
      }
      addon.__polykern.setThreads(1)
      expect(ran.size, `candidates run of ${choice.costs.length}`).toBeGreaterThanOrEqual(Math.min(2, choice.costs.length))
    }, 600_000)
  }
})
