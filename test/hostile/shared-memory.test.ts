/**
 * Two SharedArrayBuffer objects can be one memory: one posted through a MessagePort or structuredClone'd, a
 * WebAssembly shared memory's buffer before and after it grew, a growable buffer passed on. Both start at the same
 * address, so an output on one and another argument on the other overlap exactly when their byte ranges do, as two
 * views of one buffer: `runtime_alias`, the same KernelRangeError on the native path and the JS fallback. And an
 * error the addon's C re-validation still throws reaches the caller as the JS check's KernelTypeError/RangeError.
 */
import { MessageChannel } from 'node:worker_threads'
import { beforeAll, expect, test } from 'vitest'
import { KernelRangeError, KernelTypeError, type AbiParam, type KernelAbi } from '../../runtime/index.ts'
import { expectRejected, expectSameResults, thrown } from './expect.ts'
import { hostileKernels, type Paths } from './kernels.ts'

let k: Record<string, Paths>
beforeAll(async () => {
  k = await hostileKernels()
})

const f32 = (n: number) => Float32Array.from({ length: n }, (_, i) => ((i * 7) % 11) - 5)
const matmul = { kernel: 'matmul' } as const

/** Two distinct SharedArrayBuffer objects over one memory of at least 256 bytes, made each way there is. */
const sameMemory: Record<string, () => Promise<[SharedArrayBuffer, SharedArrayBuffer]>> = {
  'posted through a MessageChannel': async () => {
    const sab = new SharedArrayBuffer(256)
    const { port1, port2 } = new MessageChannel()
    const received = new Promise<SharedArrayBuffer>((resolve) => port2.once('message', resolve))
    port1.postMessage(sab)
    const other = await received
    port1.close()
    return [sab, other]
  },
  structuredClone: async () => {
    const sab = new SharedArrayBuffer(256)
    return [sab, structuredClone(sab)]
  },
  'a WebAssembly shared memory before and after growing': async () => {
    const memory = new WebAssembly.Memory({ initial: 1, maximum: 2, shared: true })
    const before = memory.buffer as unknown as SharedArrayBuffer
    memory.grow(1)
    return [before, memory.buffer as unknown as SharedArrayBuffer]
  },
  'a growable SharedArrayBuffer, cloned and grown': async () => {
    const sab = new (SharedArrayBuffer as new (n: number, o: object) => SharedArrayBuffer)(256, { maxByteLength: 1024 })
    const other = structuredClone(sab)
    ;(other as SharedArrayBuffer & { grow(n: number): void }).grow(512)
    return [sab, other]
  },
}

/** C (3×5) on `second` from byte 44 overlaps A (3×4, bytes 0–47) on `first` by one element. */
const overlapping = (first: ArrayBufferLike, second: ArrayBufferLike) => () =>
  [new Float32Array(first, 0, 12), f32(20), new Float32Array(second, 4 * 11, 15), 3, 5, 4]

test('an output and an input on two SharedArrayBuffers of one memory: runtime_alias, the same error on both paths', async () => {
  // The message two views of one buffer get, which these must get too.
  const buffer = new SharedArrayBuffer(256)
  const want = expectRejected(k.matmul, overlapping(buffer, buffer), { ...matmul, type: RangeError, code: 'runtime_alias', argument: 'C' })
  for (const [way, make] of Object.entries(sameMemory)) {
    const [first, second] = await make()
    expect(first, way).not.toBe(second)
    const message = expectRejected(k.matmul, overlapping(first, second), { ...matmul, type: RangeError, code: 'runtime_alias', argument: 'C' })
    expect(message, way).toBe(want)
    for (const path of [k.matmul.native, k.matmul.js]) expect(thrown(() => path(...overlapping(first, second)())), way).toBeInstanceOf(KernelRangeError)
    // Either object may hold the output.
    const swapped = () => [f32(12), new Float32Array(first, 4 * 14, 20), new Float32Array(second, 0, 15), 3, 5, 4]
    expectRejected(k.matmul, swapped, { ...matmul, type: RangeError, code: 'runtime_alias', argument: 'C' })
  }
})

test('an inout output on one SharedArrayBuffer over an input on another of the same memory', async () => {
  const [first, second] = await sameMemory.structuredClone()
  const args = () => [new Float64Array(first, 8, 8), new Float64Array(second, 8, 8), 8]
  expectRejected(k.axpy, args, { kernel: 'axpy', type: RangeError, code: 'runtime_alias', argument: 'y' })
})

test('telling one memory from two leaves both as they were', async () => {
  const [first, second] = await sameMemory['posted through a MessageChannel']()
  const bytes = new Uint8Array(first)
  bytes.forEach((_, i) => (bytes[i] = (i * 37) & 0xff))
  const before = bytes.slice()
  for (const path of [k.matmul.native, k.matmul.js]) expect(() => path(...overlapping(first, second)())).toThrow(KernelRangeError)
  const other = new SharedArrayBuffer(256)
  const otherBytes = new Uint8Array(other)
  otherBytes.set(before)
  expectSameResults(k.matmul, () => [new Float32Array(other, 0, 12), f32(20), new Float32Array(first, 4 * 11, 15), 3, 5, 4], [2])
  expect(otherBytes).toEqual(before)
  // The output's own bytes are the kernel's result; every other byte of its buffer is untouched.
  expect(bytes.subarray(0, 44)).toEqual(before.subarray(0, 44))
  expect(bytes.subarray(104)).toEqual(before.subarray(104))
})

test('arrays on two SharedArrayBuffers of one memory that do not overlap compute the same result everywhere', async () => {
  for (const [way, make] of Object.entries(sameMemory)) {
    const [first, second] = await make()
    // C starts right after A ends, in the other object.
    const args = () => [new Float32Array(first, 0, 12), f32(20), new Float32Array(second, 4 * 12, 15), 3, 5, 4]
    expect(() => expectSameResults(k.matmul, args, [2]), way).not.toThrow()
  }
})

test('arrays on two different SharedArrayBuffers at the same offsets (and the same bytes) are not aliases', () => {
  const args = () => [new Float32Array(new SharedArrayBuffer(48)), f32(20), new Float32Array(new SharedArrayBuffer(60)), 3, 5, 4]
  expectSameResults(k.matmul, args, [2])
})

/** k.matmul's ABI with one parameter changed: the runtime then checks less than the addon's C does. */
const withParam = (abi: KernelAbi, name: string, change: Partial<AbiParam>): KernelAbi =>
  ({ ...abi, params: abi.params.map((p) => (p.name === name ? ({ ...p, ...change } as AbiParam) : p)) })

const fields = (e: Error & { code?: unknown; kernel?: unknown; argument?: unknown }) =>
  ({ constructor: e.constructor, code: e.code, kernel: e.kernel, argument: e.argument, message: e.message })

test('a runtime_alias from the C re-validation reaches the caller as the JS check\'s KernelRangeError', async () => {
  // An ABI calling C an input: the runtime lets C alias A through, the addon's C refuses it.
  const native = k.matmul.nativeWithAbi(withParam(k.matmul.abi, 'C', { role: 'in' }))
  const A = f32(12)
  const args = [A, f32(16), A, 3, 4, 4]
  const want = fields(thrown(() => k.matmul.js(...args)))
  expect(want.constructor).toBe(KernelRangeError)
  expect(fields(thrown(() => native(...args)))).toEqual(want)
  expect(fields(await native.async(...args).then(() => new Error('accepted'), (e: Error) => e))).toEqual(want)
})

test('any other runtime_* error from the C is a KernelTypeError/KernelRangeError in the JS shape, naming kernel and argument', () => {
  // An ABI taking B as f64: the runtime passes a Float64Array, the addon's C wants a Float32Array.
  const native = k.matmul.nativeWithAbi(withParam(k.matmul.abi, 'B', { dtype: 'f64' }))
  const e = thrown(() => native(f32(12), new Float64Array(16), new Float32Array(12), 3, 4, 4))
  expect(e).toBeInstanceOf(KernelTypeError)
  expect(e).toMatchObject({ code: 'runtime_arg_type', kernel: 'matmul', argument: 'B' })
  expect(e.message).toMatch(/^matmul\(\): argument 'B' must be a Float32Array \(at .+:\d+:\d+\)$/)
})
