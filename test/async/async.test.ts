// `kernel.async(...)`: the same results and errors as the sync form, on the native addon (a libuv worker) and on the
// JS fallback, through the real pipeline: compile, build, rewrite, import.
import { createRequire } from 'node:module'
import path from 'node:path'
import v8 from 'node:v8'
import vm from 'node:vm'
import { beforeAll, describe, expect, test } from 'vitest'
import { kernelAsync, kernels } from '../../runtime/index.ts'
import { importCompiled } from '../support/compiled-import.ts'
import { copyArgs } from '../support/kernel-args.ts'
import { randomArray, rng } from '../support/random.ts'
import { ASYNC_KERNELS, type AsyncKernels } from './fixture.ts'

const OUT = path.join(import.meta.dirname, '../.out/async', String(process.pid))
const CACHE = path.join(import.meta.dirname, '../../node_modules/.cache/polykern-test')

let native: AsyncKernels
let fallback: AsyncKernels
let addonPath: string

beforeAll(async () => {
  const built = await importCompiled(OUT, 'native-kernels.ts', ASYNC_KERNELS, { cacheDir: CACHE, calibrate: false })
  if (!built.compiled.addon) throw new Error(`native build failed: ${built.compiled.warnings.map((w) => w.notes[0]?.text).join('\n')}`)
  addonPath = built.compiled.addon.path
  native = built.module as unknown as AsyncKernels
  fallback = (await importCompiled(OUT, 'js-kernels.ts', ASYNC_KERNELS, { native: false })).module as unknown as AsyncKernels
}, 300_000)

const next = rng(0xa5e7)
const f32 = (n: number) => randomArray('f32', n, next) as Float32Array
const f64 = (n: number) => randomArray('f64', n, next) as Float64Array
const size = (most: number) => 1 + Math.floor(next() * most)

/** Fresh random arguments for each kernel: inputs random, outputs filled with NaN so an unwritten element shows. */
const argsOf = {
  matmul: (M = size(70), N = size(70), K = size(70)) => [f32(M * K), f32(K * N), new Float32Array(M * N).fill(NaN), M, N, K],
  softmax: (N = size(40), D = size(90)) => [f32(N * D), new Float32Array(N * D).fill(NaN), N, D],
  split: (N = size(500)) => [f64(N), new Float64Array(N).fill(NaN), new Float64Array(N).fill(NaN), N],
}
type Name = keyof typeof argsOf


for (const [path_, kernelsOf] of [['native', () => native], ['JS fallback', () => fallback]] as const) {
  describe(`.async on the ${path_} path`, () => {
    test('the rewritten functions have .async, and run where expected', () => {
      const module = path_ === 'native' ? 'native-kernels.ts' : 'js-kernels.ts'
      const entry = kernels().find((k) => k.name === 'matmul' && k.module === module)
      expect(entry?.native).toBe(path_ === 'native')
      expect(typeof kernelsOf().matmul.async).toBe('function')
      expect(kernelAsync(kernelsOf().softmax as never)).toBe(kernelsOf().softmax.async)
      expect(() => kernelAsync((() => 1) as never)).toThrow(expect.objectContaining({ code: 'runtime_not_kernel' }))
    })

    for (const name of Object.keys(argsOf) as Name[]) {
      test(`${name}: resolves with what the sync form returns, on random shapes`, async () => {
        for (let shape = 0; shape < 6; shape++) {
          const args = argsOf[name]()
          const again = copyArgs(args)
          const kernel = kernelsOf()[name]
          const want = kernel(...args)
          const got = await kernel.async(...again)
          // The same output argument comes back (or undefined for several outputs), holding the same numbers.
          expect(got === undefined ? undefined : (again as unknown[]).indexOf(got)).toBe(want === undefined ? undefined : (args as unknown[]).indexOf(want))
          again.forEach((a, i) => expect(a, `${name} argument ${i}`).toEqual(args[i]))
        }
      })
    }

    test('bad arguments reject with the error the sync form throws (class, code, kernel, argument, message)', async () => {
      const [A, B, C] = argsOf.matmul(3, 4, 5)
      const bad: unknown[][] = [
        [A, B, C, 3, 4],
        [A, new Float64Array(20), C, 3, 4, 5],
        [A, B, C, 3, 4, -5],
        [A, B, C, 3, 4, '5'],
        [A, B, C, 3, 4, 6],
        [A, B, (A as Float32Array).subarray(0, 12), 3, 4, 5],
        [A, B, C, 2 ** 20, 2 ** 20, 5],
      ]
      for (const args of bad) {
        let thrown: unknown
        try {
          kernelsOf().matmul(...args)
        } catch (e) {
          thrown = e
        }
        expect(thrown).toBeInstanceOf(Error)
        const promise = kernelsOf().matmul.async(...args)
        expect(promise).toBeInstanceOf(Promise)
        const rejected = await promise.then(() => undefined, (e: unknown) => e)
        const fields = (e: unknown) => {
          const { code, kernel, argument, message, constructor } = e as Record<string, unknown>
          return { code, kernel, argument, message, constructor }
        }
        expect(fields(rejected)).toEqual(fields(thrown))
        expect((rejected as { kernel: string }).kernel).toBe('matmul')
      }
    })

    test('concurrent calls on different outputs each get their own correct result', async () => {
      const calls = Array.from({ length: 8 }, (_, n) => (n % 2 ? argsOf.softmax(33, 100) : argsOf.matmul(97, 65, 129)))
      const expected = calls.map((args) => {
        const again = copyArgs(args)
        ;(args.length === 4 ? kernelsOf().softmax : kernelsOf().matmul)(...again)
        return again
      })
      await Promise.all(calls.map((args) => (args.length === 4 ? kernelsOf().softmax : kernelsOf().matmul).async(...args)))
      calls.forEach((args, n) => expect(args, `call ${n}`).toEqual(expected[n]))
    })
  })
}

describe('.async of the native addon', () => {
  test('the event loop keeps running during a 1024^3 matmul', async () => {
    const n = 1024
    const args = argsOf.matmul(n, n, n)
    let ticks = 0
    let ticking = true
    const tick = () => {
      ticks++
      if (ticking) setImmediate(tick)
    }
    setImmediate(tick)
    const result = await native.matmul.async(...args)
    ticking = false
    expect(result).toBe(args[2])
    expect(ticks).toBeGreaterThan(0)
    // Spot-check a few elements against a plain dot product (a full reference would take seconds in JS).
    const [A, B, C] = args as Float32Array[]
    for (const [i, j] of [[0, 0], [1023, 1023], [517, 3]]) {
      let s = 0
      for (let k = 0; k < n; k++) s += A[i * n + k] * B[k * n + j]
      expect(Math.abs(C[i * n + j] - s)).toBeLessThan(1e-3)
    }
  })

  test('the addon checks arguments itself when called directly, and throws before queuing anything', () => {
    const addon = createRequire(import.meta.url)(addonPath) as Record<string, AsyncKernels['matmul']>
    const [A, B, C] = argsOf.matmul(2, 2, 2)
    const attempts: [unknown[], string][] = [
      [[A, B, C, 2, 2], 'runtime_arg_count'],
      [[A, new Float64Array(4), C, 2, 2, 2], 'runtime_arg_type'],
      [[A, B, C, 2, 2, 3], 'runtime_arg_length'],
      [[A, B, A, 2, 2, 2], 'runtime_alias'],
      [[A, B, C, 2, 2, NaN], 'runtime_size_invalid'],
    ]
    for (const [args, code] of attempts) {
      expect(() => addon.matmul.async(...args)).toThrow(expect.objectContaining({ code, message: expect.stringContaining("'matmul'") }))
    }
  })

  test('the addon releases the arrays it holds once a call settles (its references do not leak)', async () => {
    // Called directly, without the runtime's wrapper (whose closure also holds the arguments until it settles).
    const addon = createRequire(import.meta.url)(addonPath) as Record<string, AsyncKernels['matmul']>
    const gc = collector()
    let refs: WeakRef<object>[] = []
    const start = () => {
      const args = argsOf.matmul(300, 300, 300)
      refs = args.slice(0, 3).map((a) => new WeakRef(a as object))
      return addon.matmul.async(...args)
    }
    let settled = false
    const promise = start().finally(() => (settled = true))
    const collected = () => refs.filter((r) => r.deref() === undefined).length
    while (!settled) {
      gc()
      await new Promise((resolve) => setImmediate(resolve))
      if (!settled) expect(collected(), 'collected while the kernel runs').toBe(0)
    }
    await promise
    for (let turn = 0; turn < 50 && collected() < 3; turn++) {
      // A WeakRef target read in a job stays alive until the job ends: collect in the next one.
      await new Promise((resolve) => setTimeout(resolve, 1))
      gc()
    }
    expect(collected()).toBe(3)
  })
})

/** V8's gc(), without starting the test process with --expose-gc. */
function collector(): () => void {
  v8.setFlagsFromString('--expose-gc')
  return vm.runInNewContext('gc') as () => void
}
