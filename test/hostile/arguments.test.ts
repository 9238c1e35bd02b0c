/**
 * Hostile arguments at call time, one test each, against real compiled kernels: every one ends in a TypeError or
 * RangeError whose code names the kernel and the argument, identical on the native path and the JS fallback (and
 * the same kind and code from the addon called directly, whose C re-validates), or, where the arguments are in fact
 * valid (shared memory, unaligned views, views from another realm), in the same correct result everywhere.
 */
import vm from 'node:vm'
import { beforeAll, expect, test } from 'vitest'
import { MAX_ELEMENTS } from '../../runtime/index.ts'
import { expectRejected, expectSameResults } from './expect.ts'
import { hostileKernels, type Paths } from './kernels.ts'

let k: Record<string, Paths>
beforeAll(async () => {
  k = await hostileKernels()
})

/** matmul's arguments for M×K times K×N, small integers so every path sums exactly. */
const f32 = (n: number) => Float32Array.from({ length: n }, (_, i) => ((i * 7) % 11) - 5)
const mm = (M = 3, N = 5, K = 4): unknown[] => [f32(M * K), f32(K * N), new Float32Array(M * N), M, N, K]
const withArg = (i: number, v: unknown) => () => mm().map((a, n) => (n === i ? v : a))
const matmul = { kernel: 'matmul' } as const

test('a typed array of the wrong type', () => {
  for (const wrong of [new Float64Array(12), new Int32Array(12), new Uint8Array(48), new Float32Array(12).buffer]) {
    expectRejected(k.matmul, withArg(0, wrong), { ...matmul, type: TypeError, code: 'runtime_arg_type', argument: 'A' })
  }
})

test('something that is not a typed array at all: null, a plain Array, a DataView, a Proxy of a Float32Array', () => {
  const values = [null, undefined, Array(12).fill(1), new DataView(new ArrayBuffer(48)), new Proxy(new Float32Array(12), {}), { length: 12 }]
  for (const wrong of values) {
    expectRejected(k.matmul, withArg(1, wrong), { ...matmul, type: TypeError, code: 'runtime_arg_type', argument: 'B' })
  }
})

test('a typed array that lies about itself: a Float64Array tagged Float32Array, a length that is not its own', () => {
  const tagged = Object.defineProperty(new Float64Array(12), Symbol.toStringTag, { value: 'Float32Array' })
  expectRejected(k.matmul, withArg(0, tagged), { ...matmul, type: TypeError, code: 'runtime_arg_type', argument: 'A' })
  const long = Object.defineProperty(new Float32Array(3), 'length', { value: 12 })
  expectRejected(k.matmul, withArg(0, long), { ...matmul, type: RangeError, code: 'runtime_arg_length', argument: 'A' })
})

test('an array too short', () => {
  expectRejected(k.matmul, withArg(1, new Float32Array(19)), { ...matmul, type: RangeError, code: 'runtime_arg_length', argument: 'B' })
})

test('an array too long', () => {
  expectRejected(k.matmul, withArg(2, new Float32Array(16)), { ...matmul, type: RangeError, code: 'runtime_arg_length', argument: 'C' })
})

test('an array on a detached ArrayBuffer', () => {
  const A = f32(12)
  structuredClone(A.buffer, { transfer: [A.buffer] })
  expect([A.buffer.byteLength, A.length]).toEqual([0, 0])
  expectRejected(k.matmul, withArg(0, A), { ...matmul, type: RangeError, code: 'runtime_arg_length', argument: 'A' })
})

test('arrays on a SharedArrayBuffer compute the same result everywhere', () => {
  const shared = (src: Float32Array) => {
    const a = new Float32Array(new SharedArrayBuffer(src.byteLength))
    a.set(src)
    return a
  }
  expectSameResults(k.matmul, () => {
    const [A, B, C, ...sizes] = mm(7, 33, 9) as [Float32Array, Float32Array, Float32Array, ...number[]]
    return [shared(A), shared(B), shared(C), ...sizes]
  }, [2])
})

test('subarray views at offsets no vector width divides compute the same result everywhere', () => {
  // Every ISA's loads and stores must cope with addresses 4 bytes (f32) or 8 bytes (f64) off any alignment.
  expectSameResults(k.matmul, () => {
    const [M, N, K] = [9, 37, 17]
    const view = (n: number, at: number) => {
      const a = new Float32Array(n + at).subarray(at)
      a.set(f32(n))
      return a
    }
    return [view(M * K, 1), view(K * N, 3), view(M * N, 5), M, N, K]
  }, [2])
  expectSameResults(k.axpy, () => {
    const x = new Float64Array(68).subarray(1)
    x.set(Float64Array.from({ length: 67 }, (_, i) => i - 30))
    return [x, new Float64Array(70).subarray(3), 67]
  }, [1])
})

test('arrays from another realm (vm context, worker data) are accepted and computed', () => {
  const [A, B] = vm.runInNewContext('[new Float32Array(12).fill(1), new Float32Array(20).fill(2)]') as Float32Array[]
  expectSameResults(k.matmul, () => [A, B, new Float32Array(15), 3, 5, 4], [2])
})

test('a negative size', () => {
  expectRejected(k.matmul, withArg(3, -1), { ...matmul, type: RangeError, code: 'runtime_size_invalid', argument: 'M' })
})

test('a NaN size', () => {
  expectRejected(k.matmul, withArg(4, NaN), { ...matmul, type: RangeError, code: 'runtime_size_invalid', argument: 'N' })
})

test('a non-integer size', () => {
  expectRejected(k.matmul, withArg(5, 2.5), { ...matmul, type: RangeError, code: 'runtime_size_invalid', argument: 'K' })
})

test('an infinite size', () => {
  for (const v of [Infinity, -Infinity]) {
    expectRejected(k.matmul, withArg(3, v), { ...matmul, type: RangeError, code: 'runtime_size_invalid', argument: 'M' })
  }
})

test('a size that is not a number: a string, a Number object, a boolean', () => {
  for (const v of ['3', new Number(3), true]) {
    expectRejected(k.matmul, withArg(3, v), { ...matmul, type: TypeError, code: 'runtime_size_invalid', argument: 'M' })
  }
})

test('a BigInt size', () => {
  expectRejected(k.matmul, withArg(4, 5n), { ...matmul, type: TypeError, code: 'runtime_size_invalid', argument: 'N' })
})

test('sizes whose product overflows 2^31 (and 2^32): the arrays cannot be that long', () => {
  for (const [M, N] of [[65536, 32768], [65536, 65536], [2 ** 31, 1]]) {
    const args = () => [new Float32Array(0), new Float32Array(0), new Float32Array(0), M, N, 0]
    expectRejected(k.matmul, args, { ...matmul, type: RangeError, code: 'runtime_arg_length', argument: 'C' })
  }
})

test('sizes whose product overflows 2^53 (and 2^64)', () => {
  for (const [M, N] of [[2 ** 27, 2 ** 27], [2 ** 40, 2 ** 30], [2 ** 53 - 1, 3]]) {
    const args = () => [new Float32Array(0), new Float32Array(0), new Float32Array(0), M, N, 0]
    const message = expectRejected(k.matmul, args, { ...matmul, type: RangeError, code: 'runtime_size_overflow', argument: 'C' })
    expect(message).toContain(`more than the ${MAX_ELEMENTS}`)
  }
})

test('a size beyond 2^53 (not a safe integer)', () => {
  expectRejected(k.matmul, withArg(3, 2 ** 53), { ...matmul, type: RangeError, code: 'runtime_size_invalid', argument: 'M' })
})

test('a temporary whose element count overflows, with every argument the right length', () => {
  // viaTemp's `outer` is N×N: fine for its arguments of N elements, 2^36 elements for N = 2^18. The addon's own C
  // fails to allocate it instead.
  const N = 2 ** 18
  const args = () => [new Float32Array(N), new Float32Array(N), N]
  const message = expectRejected(k.viaTemp, args, {
    kernel: 'viaTemp', type: RangeError, code: 'runtime_size_overflow', argument: 'N', rawCode: 'runtime_out_of_memory',
  })
  expect(message).toContain(`its temporary 'outer' would have ${2 ** 36} elements`)
})

test('an output that is also an input', () => {
  const A = f32(12) // 3×4, and C is 3×4 too
  expectRejected(k.matmul, () => [A, f32(16), A, 3, 4, 4], { ...matmul, type: RangeError, code: 'runtime_alias', argument: 'C' })
})

test('an output overlapping an input through two views of one buffer', () => {
  const buffer = new ArrayBuffer(4 * 40)
  const args = () => [new Float32Array(buffer, 0, 12), f32(20), new Float32Array(buffer, 4 * 11, 15), 3, 5, 4]
  expectRejected(k.matmul, args, { ...matmul, type: RangeError, code: 'runtime_alias', argument: 'C' })
  // An inout tensor aliasing an input is refused the same way.
  const x = new Float64Array(8)
  expectRejected(k.axpy, () => [x, x, 8], { kernel: 'axpy', type: RangeError, code: 'runtime_alias', argument: 'y' })
})

test('inputs sharing memory with each other are fine', () => {
  const A = f32(16)
  expectSameResults(k.matmul, () => [A, A, new Float32Array(16), 4, 4, 4], [2])
})

test('missing arguments', () => {
  expectRejected(k.matmul, () => mm().slice(0, 5), { ...matmul, type: TypeError, code: 'runtime_arg_count' })
  expectRejected(k.matmul, () => [], { ...matmul, type: TypeError, code: 'runtime_arg_count' })
})

test('extra arguments', () => {
  expectRejected(k.matmul, () => [...mm(), 1], { ...matmul, type: TypeError, code: 'runtime_arg_count' })
})

test('an i32 kernel with a fixed dimension: wrong row count and a negative zero size', () => {
  const rowMax = { kernel: 'rowMax' } as const
  expectRejected(k.rowMax, () => [new Int32Array(8), new Int32Array(3), 4], { ...rowMax, type: RangeError, code: 'runtime_arg_length', argument: 'v' })
  expectSameResults(k.rowMax, () => [new Int32Array(0), new Int32Array([5, 5, 5]), -0], [1])
})
