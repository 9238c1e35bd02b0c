// Builds a real addon with node-gyp (gcc + node-gyp are required, as in CI) from hand-built kernels and checks
// it against the plain-JS references, the cache, and every validation error the C side throws.
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildAddon, type AddonBuild } from '../../plugin/addon/build.ts'
import { emitAddonSource, type AddonFile } from '../../plugin/emit/napi.ts'
import { nativeBuildFailed } from '../../plugin/messages.ts'
import type { Kernel } from '../../plugin/ir/nodes.ts'
import { maxRelErr, randomArray, rng } from '../support/random.ts'
import * as K from '../emit/kernels.ts'

type Fn = (...args: unknown[]) => undefined
const KERNELS: Kernel[] = [
  K.matmul, K.conv1d, K.softmax, K.i32ops, K.bounds, K.pointwise('f32'), K.pointwise('f64'),
  K.constants('f32'), K.constants('f64'), K.scratch, K.clash, K.wide,
]
const sources = emitAddonSource(
  KERNELS.map((kernel, n) => ({ kernel, abi: K.abiOf(kernel), symbol: `kc_${n}_${kernel.name}` })),
  { moduleId: 'test/native/addon.test.ts' },
)

/** `files` with the text of the one named `name` changed. */
const withFile = (files: readonly AddonFile[], name: string, change: (text: string) => string): AddonFile[] =>
  files.map((f) => (f.name === name ? { ...f, text: change(f.text) } : f))

const next = rng(0xadd0)
const SPAN = { file: 'm.ts', start: 0, end: 1 }
const f32 = (n: number): Float32Array => randomArray('f32', n, next) as Float32Array
/** f32 tolerance: relative 1e-4, growing with the reduction length. */
const f32Tol = (reduction: number): number => 1e-4 * Math.max(1, reduction / 16)

let cacheDir: string
let build: AddonBuild
let addon: Record<string, Fn> & { __polykern: { napiVersion: number; isa: string; kernels: string[] } }

beforeAll(async () => {
  cacheDir = mkdtempSync(path.join(os.tmpdir(), 'polykern-addon-test-'))
  build = await buildAddon({ sources, cacheDir })
  if (!build.ok) throw new Error(`addon build failed:\n${build.error}`)
  addon = createRequire(import.meta.url)(build.path)
})

afterAll(() => rmSync(cacheDir, { recursive: true, force: true }))

/** Expects `f` to throw a TypeError or RangeError with `code`, naming the kernel and `mentions`. */
function expectThrow(f: () => unknown, type: typeof TypeError | typeof RangeError, code: string, mentions: string): void {
  let error: unknown
  try {
    f()
  } catch (e) {
    error = e
  }
  expect(error, code).toBeInstanceOf(type)
  expect((error as { code?: string }).code).toBe(code)
  expect((error as Error).message).toContain(mentions)
}

describe('native addon', () => {
  it('builds, describes itself, and is cached on the second build', async () => {
    expect(build.ok && build.cached).toBe(false)
    expect({ ...addon.__polykern }).toEqual({
      napiVersion: 8,
      identity: build.hash,
      isa: expect.stringMatching(/^(avx512|avx2|scalar)$/),
      isas: ['avx512', 'avx2', 'scalar'],
      threads: expect.any(Number),
      boundForms: 0,
      setIsa: expect.any(Function),
      setThreads: expect.any(Function),
      takeEnvWarnings: expect.any(Function),
      bindConstant: expect.any(Function),
      unbindConstant: expect.any(Function),
      kernels: KERNELS.map((k) => k.name),
    })
    const built = statSync(build.ok ? build.path : '').mtimeMs
    const again = await buildAddon({ sources, cacheDir })
    expect(again).toMatchObject({ ok: true, cached: true, hash: build.hash, path: build.ok ? build.path : '' })
    // A hit builds nothing: the file in place is the first build's (no timing: the machine may be busy).
    expect(statSync(build.ok ? build.path : '').mtimeMs).toBe(built)
    expect(path.dirname(build.ok ? build.path : '')).toBe(path.join(cacheDir, build.hash))
  })

  it('matmul matches the reference', () => {
    for (const [M, N, Kd] of [[1, 1, 1], [7, 17, 33], [33, 1, 13], [13, 31, 2], [17, 16, 64]]) {
      const [A, B, C, want] = [f32(M * Kd), f32(Kd * N), new Float32Array(M * N).fill(NaN), new Float32Array(M * N)]
      addon.matmul(A, B, C, M, N, Kd)
      K.matmulRef(A, B, want, M, N, Kd)
      expect(maxRelErr(C, want), `${M}x${N}x${Kd}`).toBeLessThan(f32Tol(Kd))
    }
  })

  it('conv1d (If guards, zeroOutside, max/min bounds) matches the reference', () => {
    for (const N of [1, 2, 3, 7, 17, 33]) {
      const [x, w, want] = [f32(N), f32(3), new Float32Array(N)]
      const ys = [0, 1, 2].map(() => new Float32Array(N).fill(NaN))
      addon.conv1d(x, w, ...ys, N)
      K.conv1dRef(x, w, want, N)
      for (const y of ys) expect(maxRelErr(y, want), `N=${N}`).toBeLessThan(f32Tol(3))
    }
  })

  it('softmax (temporaries, fills) matches the reference', () => {
    for (const [N, D] of [[1, 1], [1, 33], [7, 17], [33, 3]]) {
      const X = f32(N * D).map((x) => x * 20)
      const [Y, want] = [new Float32Array(N * D), new Float32Array(N * D)]
      addon.softmax(X, Y, N, D)
      K.softmaxRef(X, want, N, D)
      expect(maxRelErr(Y, want), `${N}x${D}`).toBeLessThan(f32Tol(D))
    }
  })

  it('i32 arithmetic wraps and divides like the JS reference, never trapping', () => {
    const specials = [0, 1, -1, 2, -2, 3, -7, 2147483647, -2147483648, 2147483646, 46341]
    const pairs = specials.flatMap((a) => specials.map((b) => [a, b]))
    for (let n = 0; n < 100; n++) pairs.push([(next() * 2 ** 32) | 0, (next() * 2 ** 32) | 0])
    const N = pairs.length
    const [a, b] = [Int32Array.from(pairs, (p) => p[0]), Int32Array.from(pairs, (p) => p[1])]
    const got = K.i32Outputs(N)
    addon.i32ops(a, b, got.q, got.r, got.p, got.s, got.t, got.c, got.mx, N)
    const want = K.i32opsRef(a, b, N)
    for (const key of Object.keys(want) as (keyof typeof want)[]) expect([...got[key]], key).toEqual([...want[key]])
  })

  it('i32 conversion of sizes up to 2^53 wraps like JS', () => {
    for (const N of [2 ** 53 - 1, 2 ** 52 + 12345, 2 ** 31, 2 ** 32 + 7, 5]) {
      const out = new Int32Array(3).fill(-2147483000)
      addon.wide(out, N)
      expect([...out], `N=${N}`).toEqual([...K.wideRef(N, -2147483000)])
    }
  })

  it('floordiv/ceildiv/max/min loop bounds', () => {
    for (let N = 0; N <= 40; N++) {
      const out = new Int32Array(3).fill(99)
      addon.bounds(out, N)
      expect([...out], `N=${N}`).toEqual([...K.boundsRef(N)])
    }
  })

  for (const dtype of ['f32', 'f64'] as const) {
    it(`${dtype} builtins, NaN-propagating max/min with signed zeros`, () => {
      const Arr = dtype === 'f32' ? Float32Array : Float64Array
      const specials = [0, -0, 1, -1, 0.5, -2.5, NaN, Infinity, -Infinity, 3]
      const xs = new Arr([...specials.flatMap((s) => specials.map(() => s)), ...randomArray(dtype, 37, next)])
      const ys = new Arr([...specials.flatMap(() => specials), ...randomArray(dtype, 37, next)])
      const N = xs.length
      const outs = Array.from({ length: 5 }, () => new Arr(N).fill(7))
      const [tot, top] = [new Arr(1), new Arr(1)]
      addon[`pointwise_${dtype}`](xs, ys, ...outs, tot, top, N)
      const want = K.pointwiseRef(xs, ys, N)
      const tol = dtype === 'f32' ? 1e-5 : 1e-13
      for (const [n, key] of (['e', 'g', 'h', 'l', 'm'] as const).entries()) {
        expect(maxRelErr(outs[n], new Arr(want[key])), key).toBeLessThan(tol)
      }
      for (const [n, key] of [[2, 'h'], [3, 'l']] as const) {
        expect([...outs[n]].map((x) => Object.is(x, -0)), key).toEqual(want[key].map((x) => Object.is(x, -0)))
      }
      expect([Number.isNaN(tot[0]), Number.isNaN(top[0])]).toEqual([true, true])
    })
  }

  it('C reads back every float literal exactly', () => {
    const n = K.TRICKY_CONSTANTS.length
    const [o32, o64] = [new Float32Array(n), new Float64Array(n)]
    addon.constants_f32(o32)
    addon.constants_f64(o64)
    K.TRICKY_CONSTANTS.forEach((c, i) => {
      expect(Object.is(o32[i], Math.fround(c)), `f32 ${c}`).toBe(true)
      expect(Object.is(o64[i], c), `f64 ${c}`).toBe(true)
    })
  })

  it('renames C keywords and shadowed library names', () => {
    const x = randomArray('f64', 6, next)
    const [e, m] = [new Float64Array(6), new Int32Array(6)]
    addon.clash(x, e, m, 6)
    expect(maxRelErr(e, x.map(Math.exp))).toBeLessThan(1e-15)
    expect([...m]).toEqual([0, 6, 12, 18, 24, 30])
  })

  it('allocates temporaries, and reports an allocation that cannot succeed as runtime_out_of_memory', () => {
    const out = new Float64Array(1)
    addon.scratch(out, 7)
    expect(out[0]).toBe(49)
    addon.scratch(out, 0)
    expect(out[0]).toBe(0)
    expectThrow(() => addon.scratch(out, 2 ** 33), RangeError, 'runtime_out_of_memory', "'scratch'") // Z*Z overflows
  })

  describe('validation in C', () => {
    const [M, N, Kd] = [3, 4, 5]
    const args = (): unknown[] => [f32(M * Kd), f32(Kd * N), new Float32Array(M * N), M, N, Kd]
    const call = (change: (a: unknown[]) => void): (() => unknown) => () => {
      const a = args()
      change(a)
      return addon.matmul(...a)
    }

    it('argument count', () => {
      const message = "'matmul' expects 6 arguments but received 5"
      expectThrow(() => addon.matmul(...args().slice(0, 5)), TypeError, 'runtime_arg_count', message)
      expectThrow(() => addon.matmul(...args(), 1), TypeError, 'runtime_arg_count', 'received 7')
    })

    it('array types', () => {
      expectThrow(call((a) => (a[0] = new Float64Array(M * Kd))), TypeError, 'runtime_arg_type', "'A' must be a Float32Array")
      expectThrow(call((a) => (a[1] = Array.from({ length: Kd * N }, () => 0))), TypeError, 'runtime_arg_type', "'B'")
      expectThrow(call((a) => (a[2] = new Int32Array(M * N))), TypeError, 'runtime_arg_type', "'C'")
      const i32Args = [new Float32Array(1), ...Array.from({ length: 8 }, () => new Int32Array(1)), 1]
      expectThrow(() => addon.i32ops(...i32Args), TypeError, 'runtime_arg_type', "'a' must be a Int32Array")
    })

    it('sizes', () => {
      for (const bad of [-1, 2.5, NaN, Infinity, 2 ** 53, 2 ** 53 + 2]) {
        expectThrow(call((a) => (a[3] = bad)), RangeError, 'runtime_size_invalid', "size 'M'")
      }
      expectThrow(call((a) => (a[5] = '5')), TypeError, 'runtime_size_invalid', "size 'K' must be a number")
    })

    it('lengths', () => {
      const message = "'A' has length 14 but its shape [M, K] needs 15"
      expectThrow(call((a) => (a[0] = f32(M * Kd - 1))), RangeError, 'runtime_arg_length', message)
      expectThrow(call((a) => (a[2] = new Float32Array(M * N + 1))), RangeError, 'runtime_arg_length', "'C'")
      // A size big enough to overflow the product must not wrap around to the array's length.
      const empty = new Float32Array(0)
      const huge = (): unknown => addon.matmul(empty, empty, empty, 2 ** 40, 2 ** 40, 0)
      expectThrow(huge, RangeError, 'runtime_size_overflow', 'more than 2^32 elements')
    })

    it('outputs aliasing another argument', () => {
      const buffer = new ArrayBuffer(4 * (M * Kd + M * N))
      const A = new Float32Array(buffer, 0, M * Kd)
      const overlapsLastOfA = new Float32Array(buffer, 4 * (M * Kd - 1), M * N)
      const message = "output 'C' overlaps argument 'A'"
      expectThrow(call((a) => ((a[0] = A), (a[2] = overlapsLastOfA))), RangeError, 'runtime_alias', message)
      expectThrow(call((a) => ((a[2] = A.subarray(0, M * N)), (a[0] = A))), RangeError, 'runtime_alias', message)
      const B = f32(Kd * N)
      expectThrow(call((a) => ((a[1] = B), (a[2] = new Float32Array(B.buffer, 0, M * N)))), RangeError, 'runtime_alias', "'B'")
      // Adjacent views and inputs shared with each other are fine.
      const square = f32(M * M)
      expect(() => addon.matmul(A, f32(Kd * N), new Float32Array(buffer, 4 * M * Kd, M * N), M, N, Kd)).not.toThrow()
      expect(() => addon.matmul(square, square, new Float32Array(M * M), M, M, M)).not.toThrow()
    })
  })

  it('concurrent builds of the same source agree on one cache entry and leave no temp directories', async () => {
    const fresh = withFile(sources, 'polykern.c', (text) => `${text}\n/* concurrency */\n`)
    const [a, b] = await Promise.all([buildAddon({ sources: fresh, cacheDir }), buildAddon({ sources: fresh, cacheDir })])
    expect(a.ok && b.ok).toBe(true)
    expect(a).toMatchObject({ hash: b.hash, path: b.ok ? b.path : '' })
    expect(readdirSync(cacheDir).filter((f) => f.includes('.tmp-'))).toEqual([])
    expect(readdirSync(path.join(cacheDir, a.hash)).sort()).toEqual(
      ['polykern.c', 'polykern.node', 'polykern.node.sha256', 'polykern_avx2.c', 'polykern_avx512.c', 'polykern_identity.c'],
    )
  })

  it('a C syntax error gives ok:false with the compiler message, without throwing', async () => {
    const bad = withFile(sources, 'polykern_avx2.c', (text) => `${text}\nint broken(void) { return 1 +; }\n`)
    const failed = await buildAddon({ sources: bad, cacheDir })
    expect(failed.ok).toBe(false)
    if (failed.ok) return
    expect(failed.hash).toMatch(/^[0-9a-f]{64}$/)
    expect(failed.error).toMatch(/^polykern_avx2\.c:\d+:\d+: error: expected expression/m)
    expect(failed.error).not.toContain('gyp ERR!')
    expect(failed.error).not.toContain(cacheDir)
    expect(readdirSync(cacheDir).filter((f) => f.includes('.tmp-'))).toEqual([])
    // An error in the generated C is polykern's bug, not a missing toolchain: the warning says so.
    const hint = (error: string) => nativeBuildFailed(SPAN, 'm.ts', error).notes.at(-1)!.text
    expect(hint(failed.error)).toContain('a bug in polykern')
    expect(hint("'cc' was not found on PATH")).toContain('install a C compiler')
  })
})
