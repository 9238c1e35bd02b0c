/**
 * The analytic schedules in a real addon: calls whose sizes fall in every shape class (so every guarded blocking of
 * the schedule runs, with its blocks clamped to the sizes) match plain JS loops written here, on every ISA version
 * and at 1 and 2 threads; sizes include 1, primes and sizes that are not multiples of the register tiles.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildAddon } from '../../plugin/addon/build.ts'
import { emitAddonSource } from '../../plugin/emit/napi.ts'
import type { Contraction, Kernel } from '../../plugin/ir/nodes.ts'
import { walkStmts } from '../../plugin/ir/walk.ts'
import { guardHolds } from '../../plugin/schedule/select.ts'
import { abiOf } from '../emit/kernels.ts'
import { contractionKernel } from '../support/contractions.ts'
import { maxRelErr, rng, tolerance } from '../support/random.ts'

interface Case {
  readonly name: string
  readonly spec: string
  /** Element (i, j, k, b) of A and B in their arrays, and C's. */
  readonly a: (i: number, k: number, s: Sizes) => number
  readonly b: (k: number, j: number, s: Sizes) => number
  readonly c: (i: number, j: number, s: Sizes) => number
}
type Sizes = { M: number; N: number; K: number; Bt: number; b: number }

const CASES: readonly Case[] = [
  {
    name: 'mm',
    spec: 'A: f32[M, K]\nB: f32[K, N]\nC: f32[M, N]\nC[i, j] +=! A[i, k] * B[k, j]',
    a: (i, k, s) => i * s.K + k,
    b: (k, j, s) => k * s.N + j,
    c: (i, j, s) => i * s.N + j,
  },
  {
    name: 'mm_t',
    spec: 'A: f32[K, M]\nB: f32[N, K]\nC: f32[M, N]\nC[i, j] += A[k, i] * B[j, k]',
    a: (i, k, s) => k * s.M + i,
    b: (k, j, s) => j * s.K + k,
    c: (i, j, s) => i * s.N + j,
  },
  {
    name: 'bmm',
    spec: 'A: f32[Bt, M, K]\nB: f32[Bt, K, N]\nC: f32[Bt, M, N]\nC[b, i, j] +=! A[b, i, k] * B[b, k, j]',
    a: (i, k, s) => (s.b * s.M + i) * s.K + k,
    b: (k, j, s) => (s.b * s.K + k) * s.N + j,
    c: (i, j, s) => (s.b * s.M + i) * s.N + j,
  },
]

/**
 * [M, N, K, Bt]: small, skinny M, skinny N, small K, large (for both register tiles), batched small GEMMs; then, for
 * bmm only, a batch of each class's size for its batched twin (select.ts batchedTwin).
 */
const SHAPES: readonly (readonly [number, number, number, number])[] = [
  [1, 1, 1, 1], [17, 33, 129, 1], [7, 1000, 401, 1], [1, 1009, 2111, 1], [300, 17, 503, 1], [257, 1009, 33, 1],
  [129, 257, 129, 1], [200, 211, 97, 1], [33, 17, 65, 5],
  [1, 1009, 2111, 9], [7, 1000, 401, 9], [300, 17, 503, 9], [257, 300, 33, 9], [100, 211, 101, 9], [290, 260, 66, 9],
]
/** Batches this large run for bmm only (the others would repeat a shape without its batch). */
const TWIN_BATCH = 8

type Fn = (...args: unknown[]) => unknown
interface Addon {
  readonly [kernel: string]: Fn | Addon['__polykern']
  readonly __polykern: { readonly isas: readonly string[]; setIsa(name: string): string; setThreads(n: number): void }
}

const kernels: readonly Kernel[] = CASES.map((c) => contractionKernel(c.spec, c.name))
let cacheDir: string
let addon: Addon

beforeAll(async () => {
  cacheDir = mkdtempSync(path.join(os.tmpdir(), 'polykern-analytic-test-'))
  const sources = emitAddonSource(
    kernels.map((kernel, n) => ({ kernel, abi: abiOf(kernel), symbol: `ka_${n}_${kernel.name}` })),
    { moduleId: 'test/schedule/analytic-native.test.ts' },
  )
  const built = await buildAddon({ sources, cacheDir })
  if (!built.ok) throw new Error(`addon build failed:\n${built.error}`)
  addon = createRequire(import.meta.url)(built.path)
})

afterAll(() => rmSync(cacheDir, { recursive: true, force: true }))

describe('analytic schedules', () => {
  it('reach every guarded blocking with these shapes', () => {
    for (const k of kernels) {
      let c: Contraction | undefined
      walkStmts(k.body, (s) => void (s.kind === 'contraction' && (c ??= s)))
      for (const x of c!.schedules) {
        for (const special of x.special ?? []) {
          // A bound B's entry as if B were bound (these calls bind nothing; gemm.test runs that entry bound).
          const call = (m: number, n: number, kk: number, bt: number) => ({ m, n, k: kk, batch: k.name === 'bmm' ? bt : 1, boundB: special.when.boundB })
          const hit = SHAPES.some(([m, n, kk, bt]) => guardHolds(special.when, call(m, n, kk, bt)))
          expect(hit, `${k.name} ${x.isa} ${JSON.stringify(special.when)}`).toBe(true)
        }
      }
    }
  })

  CASES.forEach((c, n) => {
    it(`${c.name} matches plain loops in every shape class, on every ISA, at 1 and 2 threads`, () => {
      const next = rng(4242 + n)
      for (const [M, N, K, Bt] of SHAPES) {
        if (Bt >= TWIN_BATCH && c.name !== 'bmm') continue
        const batches = c.name === 'bmm' ? Bt : 1
        const A = Float32Array.from({ length: batches * M * K }, () => next() * 2 - 1)
        const B = Float32Array.from({ length: batches * K * N }, () => next() * 2 - 1)
        const C0 = Float32Array.from({ length: batches * M * N }, () => next() * 2 - 1)
        const want = Float64Array.from(C0, (x) => (c.name === 'mm_t' ? x : 0))
        for (let b = 0; b < batches; b++) {
          const s = { M, N, K, Bt, b }
          for (let i = 0; i < M; i++) {
            for (let j = 0; j < N; j++) {
              let sum = 0
              for (let k = 0; k < K; k++) sum += A[c.a(i, k, s)] * B[c.b(k, j, s)]
              want[c.c(i, j, s)] += sum
            }
          }
        }
        const values: Record<string, number> = { M, N, K, Bt }
        const sizes = kernels[n].params.flatMap((p) => (p.kind === 'size' ? [values[p.name]] : []))
        for (const isa of addon.__polykern.isas) {
          const ran = addon.__polykern.setIsa(isa)
          for (const threads of [1, 2]) {
            addon.__polykern.setThreads(threads)
            const C = C0.slice()
            ;(addon[c.name] as Fn)(A, B, C, ...sizes)
            const what = `${c.name} ${[M, N, K, batches].join('x')} on ${ran}, ${threads} thread(s)`
            expect(maxRelErr(C, want), what).toBeLessThan(tolerance('f32', K))
          }
        }
      }
    })
  })
})
