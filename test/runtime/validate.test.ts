import path from 'node:path'
import vm from 'node:vm'
import { beforeAll, describe, expect, test } from 'vitest'
import { KernelRangeError, KernelTypeError, kernels, loadKernels } from '../../runtime/index.ts'
import type { KernelFn } from '../../runtime/index.ts'
import {
  descriptor, fakeMatmul, matmulAbi, matmulJs, matmulRef, mixedAbi, mixedJs, scratchDir, writeFakeAddon,
} from './fixtures.ts'

const f32 = (n: number) => Float32Array.from({ length: n }, (_, i) => ((i * 7) % 11) - 5)

let native: KernelFn
let js: KernelFn
let mixed: KernelFn
let fakeCalls: () => number

beforeAll(async () => {
  const dir = scratchDir('validate')
  const addon = writeFakeAddon(dir, 'fake-addon.cjs', { matmul: fakeMatmul })
  const base = path.join(dir, 'bundle.js')
  native = loadKernels(descriptor({ module: 'validate-native.ts', addon: 'fake-addon.cjs', base })).matmul
  js = loadKernels(descriptor({ module: 'validate-js.ts', reason: 'native: false' })).matmul
  mixed = loadKernels(descriptor({ module: 'validate-mixed.ts', kernels: { mixed: { abi: mixedAbi, js: mixedJs } } })).mixed
  fakeCalls = (await import(addon)).default.calls
  expect(kernels().find((k) => k.module === 'validate-native.ts')!.native).toBe(true)
  expect(kernels().find((k) => k.module === 'validate-js.ts')!.native).toBe(false)
})

/** Calls both paths with the same arguments: they must throw the same error, and the native function must not compute. */
function rejects(args: readonly unknown[]): KernelTypeError | KernelRangeError {
  const errors = [native, js].map((fn) => {
    try {
      fn(...args)
    } catch (e) {
      return e as KernelTypeError | KernelRangeError
    }
    throw new Error(`accepted ${String(args)}`)
  })
  const [a, b] = errors
  const facts = (e: KernelTypeError | KernelRangeError) => [e.constructor, e.code, e.argument, e.kernel, e.message]
  expect(facts(a)).toEqual(facts(b))
  return a
}

describe('valid calls', () => {
  test.each([[1, 1, 1], [3, 5, 7], [13, 1, 17], [9, 31, 33]])('M=%i N=%i K=%i: both paths compute the reference', (M, N, K) => {
    const A = f32(M * K)
    const B = f32(K * N)
    const expected = new Float32Array(M * N)
    matmulRef(A, B, expected, M, N, K)
    for (const fn of [native, js]) {
      const C = new Float32Array(M * N).fill(NaN)
      expect(fn(A, B, C, M, N, K)).toBe(C)
      expect([...C]).toEqual([...expected])
    }
  })

  test('inputs may share memory; disjoint views of one buffer and empty arrays are fine', () => {
    const buffer = new Float32Array(12)
    const A = buffer.subarray(0, 4)
    expect(() => js(A, A, buffer.subarray(4, 8), 2, 2, 2)).not.toThrow()
    expect(() => js(new Float32Array(0), new Float32Array(0), buffer.subarray(8, 8), 0, 0, 0)).not.toThrow()
  })

  test('fixed extents, scalars, inout tensors; no single output returns undefined', () => {
    const acc = new Float64Array(4)
    const idx = new Int32Array(1)
    expect(mixed(new Float64Array(18).fill(1), acc, idx, 2)).toBeUndefined()
    expect([...acc, idx[0]]).toEqual([1, 1, 1, 1, 2])
  })

  test('typed arrays from another realm are accepted', () => {
    const [A, B, C] = vm.runInNewContext('[new Float32Array(2), new Float32Array(2), new Float32Array(1)]')
    expect(js(A, B, C, 1, 1, 2)).toBe(C)
  })
})

describe('each check names the argument, identically on the native and the JS path', () => {
  const ok = () => [f32(6), f32(12), new Float32Array(8), 2, 4, 3] as unknown[]
  const withArg = (i: number, v: unknown) => ok().map((a, n) => (n === i ? v : a))

  test('runtime_arg_count', () => {
    const callsBefore = fakeCalls()
    const e = rejects(ok().slice(0, 5))
    expect(e).toBeInstanceOf(KernelTypeError)
    expect(e).toBeInstanceOf(TypeError)
    expect(e.code).toBe('runtime_arg_count')
    expect(e.message).toBe('matmul(): expected 6 arguments (A, B, C, M, N, K) but got 5 (at src/linalg.ts:3:1)')
    expect(e.argument).toBeUndefined()
    expect(fakeCalls()).toBe(callsBefore)
  })

  test('runtime_arg_type', () => {
    const e = rejects(withArg(0, new Float64Array(6)))
    expect(e).toBeInstanceOf(TypeError)
    expect([e.code, e.argument, e.kernel]).toEqual(['runtime_arg_type', 'A', 'matmul'])
    expect(e.message).toBe(
      "matmul(): argument 'A' must be a Float32Array of 6 elements (f32[M, K] with M=2, K=3) but got a Float64Array (at src/linalg.ts:3:1)")
    const others: [unknown, string][] = [
      [[1, 2, 3], 'an Array of 3 elements'], [null, 'null'], [undefined, 'undefined'], [new DataView(new ArrayBuffer(8)), 'a DataView'],
      [new Uint8Array(48), 'a Uint8Array'], ['abc', 'the string "abc"'], [{}, 'an Object'],
    ]
    for (const [value, described] of others) {
      const err = rejects(withArg(1, value))
      expect([err.code, err.argument]).toEqual(['runtime_arg_type', 'B'])
      expect(err.message).toContain(`but got ${described} (at`)
    }
  })

  test('runtime_size_invalid: every non-size value, as a TypeError or a RangeError', () => {
    const cases: [number, unknown, typeof TypeError | typeof RangeError, string][] = [
      [3, -1, RangeError, '-1'], [3, 1.5, RangeError, '1.5'], [4, NaN, RangeError, 'NaN'], [4, Infinity, RangeError, 'Infinity'],
      [5, 2 ** 53, RangeError, String(2 ** 53)], [5, 2n, TypeError, 'the bigint 2n'], [3, '2', TypeError, 'the string "2"'],
      [4, undefined, TypeError, 'undefined'], [5, null, TypeError, 'null'],
    ]
    const names = ['A', 'B', 'C', 'M', 'N', 'K']
    for (const [i, value, kind, described] of cases) {
      const e = rejects(withArg(i, value))
      expect(e).toBeInstanceOf(kind)
      expect([e.code, e.argument]).toEqual(['runtime_size_invalid', names[i]])
      expect(e.message).toMatch(new RegExp(`^matmul\\(\\): argument '${names[i]}' must be a non-negative safe integer \\(a size of [A-C], [A-C]\\) but got `))
      expect(e.message).toContain(`but got ${described} (at src/linalg.ts:3:1)`)
    }
  })

  test('runtime_size_overflow: more than 2^32 elements in one tensor', () => {
    const e = rejects([f32(6), f32(12), new Float32Array(8), 2 ** 20, 4, 2 ** 13])
    expect(e).toBeInstanceOf(RangeError)
    expect([e.code, e.argument]).toEqual(['runtime_size_overflow', 'A'])
    expect(e.message).toContain(`would have ${2 ** 33} elements (f32[M, K] with M=${2 ** 20}, K=${2 ** 13})`)
    // Exactly 2^32 is allowed by the size check (it then fails on length, not overflow).
    expect(rejects([f32(6), f32(12), new Float32Array(8), 2 ** 16, 4, 2 ** 16]).code).toBe('runtime_arg_length')
  })

  test('runtime_arg_length', () => {
    const e = rejects(withArg(1, f32(11)))
    expect(e).toBeInstanceOf(KernelRangeError)
    expect([e.code, e.argument]).toEqual(['runtime_arg_length', 'B'])
    expect(e.message).toBe(
      "matmul(): argument 'B' must be a Float32Array of 12 elements (f32[K, N] with K=3, N=4) but got a Float32Array of 11 elements (at src/linalg.ts:3:1)")
    expect(rejects(withArg(2, new Float32Array(9))).argument).toBe('C')
  })

  test('runtime_alias: an output sharing any byte with another tensor', () => {
    const buffer = new Float32Array(24)
    const A = buffer.subarray(0, 6)
    const overlapping = buffer.subarray(5, 13)
    const e = rejects([A, f32(12), overlapping, 2, 4, 3])
    expect(e).toBeInstanceOf(RangeError)
    expect([e.code, e.argument]).toEqual(['runtime_alias', 'C'])
    expect(e.message).toBe("matmul(): output 'C' shares memory with argument 'A'; pass arrays that do not overlap (at src/linalg.ts:3:1)")
    const bytes = new Float32Array(new Float64Array(10).buffer, 4 * 10, 8)
    const B = new Float32Array(bytes.buffer, 4 * 2, 12)
    expect(rejects([f32(6), B, bytes, 2, 4, 3]).message).toContain("output 'C' shares memory with argument 'B'")
  })

  test('an inout tensor may not alias an input either', () => {
    const buffer = new Float64Array(40)
    expect(() => mixed(buffer.subarray(0, 18), buffer.subarray(17, 21), new Int32Array(1), 2)).toThrow(
      expect.objectContaining({ code: 'runtime_alias', argument: 'acc' }))
    expect(() => mixed(new Float64Array(18), new Float64Array(4), new Int32Array(2), 2)).toThrow(
      "mixed(): argument 'idx' must be an Int32Array of 1 element (i32[]) but got an Int32Array of 2 elements (at src/nn.ts:10:1)")
    expect(() => mixed(new Float64Array(17), new Float64Array(4), new Int32Array(1), 2)).toThrow(
      "argument 'F' must be a Float64Array of 18 elements (f64[3, 3, C] with C=2)")
  })
})

test('an ABI naming a size it lacks is refused when loaded, not at the first call', () => {
  const broken = { ...matmulAbi, params: matmulAbi.params.slice(0, 5) }
  const desc = descriptor({ module: 'broken.ts', kernels: { matmul: { abi: broken, js: matmulJs } } })
  expect(() => loadKernels(desc)).toThrow(/no such parameter/)
})
