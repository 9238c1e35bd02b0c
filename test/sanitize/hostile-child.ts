// Run under ASan/UBSan by sanitize.test.ts: the hostile-argument calls against the sanitized addon, called directly
// (its C validation is all that stands between them and memory) and through the runtime, plus the valid-but-unusual
// ones (unaligned views, shared memory). Prints how many calls ran; any sanitizer report ends the process.
import { hostileKernels } from '../hostile/kernels.ts'
import { SANITIZED_ISAS, SANITIZER_FLAGS } from './sanitizers.ts'

const k = await hostileKernels(SANITIZER_FLAGS, SANITIZED_ISAS)
const f32 = (n: number) => Float32Array.from({ length: n }, (_, i) => (i % 5) - 2)
const detached = f32(12)
structuredClone(detached.buffer, { transfer: [detached.buffer] })
const shared = new Float32Array(new SharedArrayBuffer(4 * 20))
const big = new Float32Array(40)
const calls: unknown[][] = [
  [f32(12), f32(20), new Float32Array(15), 3, 5, 4],
  [new Float64Array(12), f32(20), new Float32Array(15), 3, 5, 4],
  [f32(11), f32(20), new Float32Array(15), 3, 5, 4],
  [f32(12), f32(21), new Float32Array(15), 3, 5, 4],
  [detached, f32(20), new Float32Array(15), 3, 5, 4],
  [f32(12), shared, new Float32Array(15), 3, 5, 4],
  [f32(13).subarray(1), f32(23).subarray(3), new Float32Array(20).subarray(5), 3, 5, 4],
  [f32(12), f32(20), new Float32Array(15), -1, 5, 4],
  [f32(12), f32(20), new Float32Array(15), NaN, 5, 4],
  [f32(12), f32(20), new Float32Array(15), 3.5, 5, 4],
  [f32(12), f32(20), new Float32Array(15), Infinity, 5, 4],
  [f32(12), f32(20), new Float32Array(15), 3n, 5, 4],
  [new Float32Array(0), new Float32Array(0), new Float32Array(0), 65536, 65536, 0],
  [new Float32Array(0), new Float32Array(0), new Float32Array(0), 2 ** 27, 2 ** 27, 0],
  [new Float32Array(0), new Float32Array(0), new Float32Array(0), 2 ** 53 - 1, 3, 0],
  [new Float32Array(0), new Float32Array(0), new Float32Array(0), 2 ** 53, 3, 0],
  [big.subarray(0, 12), f32(20), big.subarray(11, 26), 3, 5, 4],
  [f32(12), f32(20), new Float32Array(15), 3, 5],
  [],
]
let ran = 0
for (const args of calls) {
  for (const fn of [k.matmul.raw, k.matmul.native, k.matmul.js]) {
    try {
      fn(...args)
    } catch {
      // Rejections are expected; the sanitizers watch for anything worse.
    }
    ran++
  }
}
for (const fn of [k.viaTemp.raw, k.viaTemp.native]) {
  try {
    fn(new Float32Array(2 ** 18), new Float32Array(2 ** 18), 2 ** 18)
  } catch {
    // runtime_size_overflow or runtime_out_of_memory
  }
  ran++
}
// The same calls through `.async`: the addon's own (validated in C, then queued on a libuv worker) and the runtime's.
// Every promise is awaited, so any write by a worker happens while the sanitizers watch.
type WithAsync = { async: (...args: unknown[]) => Promise<unknown> }
const pending: Promise<unknown>[] = []
for (const args of calls) {
  for (const fn of [k.matmul.raw, k.matmul.native, k.matmul.js] as unknown as WithAsync[]) {
    try {
      pending.push(fn.async(...args).catch(() => undefined))
    } catch (e) {
      // The addon's .async throws its runtime_* error before queuing anything; the runtime's rejects instead.
      if (!String((e as { code?: unknown }).code).startsWith('runtime_')) throw e
    }
    ran++
  }
}
for (const fn of [k.viaTemp.raw, k.viaTemp.native] as unknown as WithAsync[]) {
  try {
    pending.push(fn.async(new Float32Array(2 ** 18), new Float32Array(2 ** 18), 2 ** 18).catch(() => undefined))
  } catch (e) {
    // runtime_size_overflow, before queuing
    if (!String((e as { code?: unknown }).code).startsWith('runtime_')) throw e
  }
  ran++
}
await Promise.all(pending)
const x = new Float64Array(70).subarray(3)
k.axpy.raw(new Float64Array(68).subarray(1), x, 67)
ran++
process.stdout.write(JSON.stringify({ ran }))
