// Run by detached.test.ts in a child process (a crash or a write into freed memory must not take vitest with it):
// starts long `.async` calls and, while each runs, takes the memory of one argument away (transferred by
// structuredClone or postMessage, or resized), collects garbage and allocates over the freed memory; prints one
// outcome per scenario as JSON lines. argv[2]: 'scenarios', 'terminate' or 'copies' (under a 3 GB address-space
// limit: arrays too large to copy); argv[3] 'sanitized': the addon built with the sanitizers (run under
// sanitizers.ts's runSanitized), where a use of freed memory is a report.
import fs from 'node:fs'
import v8 from 'node:v8'
import vm from 'node:vm'
import { Worker } from 'node:worker_threads'
import { KernelTypeError, kernels } from '../../runtime/index.ts'
import { hostileKernels } from '../hostile/kernels.ts'
import { SANITIZER_FLAGS } from '../sanitize/sanitizers.ts'

v8.setFlagsFromString('--expose-gc')
const gc = vm.runInNewContext('gc') as () => void
const sanitized = process.argv[3] === 'sanitized'
const k = await hostileKernels(sanitized ? SANITIZER_FLAGS : [])
const n = sanitized ? 512 : 1024

/** How the caller takes an argument's memory away while the call runs. */
const takeAway = {
  clone: (a: Float32Array) => void structuredClone(a.buffer, { transfer: [a.buffer] }),
  port: (a: Float32Array) => {
    const { port1, port2 } = new MessageChannel()
    port1.postMessage(a.buffer, [a.buffer])
    port1.close()
    port2.close()
  },
  resize: (a: Float32Array) => (a.buffer as ArrayBuffer & { resize(n: number): void }).resize(0),
}
type Way = keyof typeof takeAway

const filled = (length: number, value: number, resizable: boolean) => {
  const bytes = 4 * length
  const buffer = resizable ? new (ArrayBuffer as new (n: number, o: object) => ArrayBuffer)(bytes, { maxByteLength: bytes }) : new ArrayBuffer(bytes)
  return new Float32Array(buffer, 0, length).fill(value)
}

/** What a call's promise settled with, as plain data. */
const settle = (promise: Promise<unknown>) => promise.then(
  (value) => ({ settled: 'resolved', length: (value as Float32Array | undefined)?.length }),
  (e: Error & Record<string, unknown>) => ({
    settled: 'rejected', name: e.name, code: e.code, kernel: e.kernel, argument: e.argument, message: e.message,
    kernelTypeError: e instanceof KernelTypeError, typeError: e instanceof TypeError,
  }))

async function scenario(path: 'native' | 'raw', way: Way, target: 'A' | 'C') {
  const [A, B, C] = [filled(n * n, 1, way === 'resize'), filled(n * n, 1, way === 'resize'), filled(n * n, -1, way === 'resize')]
  const args = { A, B, C }
  let settled = false
  const async = (path === 'raw' ? k.matmul.raw : k.matmul.native) as unknown as { async: (...a: unknown[]) => Promise<unknown> }
  const outcome = settle(async.async(A, B, C, n, n, n)).finally(() => (settled = true))
  takeAway[way](args[target])
  // Garbage collection frees the memory taken away; new arrays are likely to land on it.
  const canaries: Float32Array[] = []
  while (!settled) {
    gc()
    canaries.push(new Float32Array(n * n).fill(7))
    await new Promise((resolve) => setTimeout(resolve, 2))
  }
  gc()
  const untouched = (a: Float32Array, v: number) => a.length === n * n && a.every((x) => x === v)
  return {
    path, way, target, ...(await outcome),
    canariesOverwritten: canaries.filter((c) => !untouched(c, 7)).length,
    // Nothing is written when the call is refused: the output keeps its old content (when it still has memory).
    outputUntouched: target === 'C' ? null : untouched(C, -1),
  }
}

if (process.argv[2] === 'scenarios') {
  for (const path of ['native', 'raw'] as const) {
    for (const way of Object.keys(takeAway) as Way[]) {
      for (const target of ['A', 'C'] as const) {
        process.stdout.write(`${JSON.stringify(await scenario(path, way, target))}\n`)
      }
    }
  }
}

// A worker (the addon already loaded here, so its end does not unload it) starts long async calls, one on ordinary
// arrays (copied) and one on SharedArrayBuffers (in place), then is terminated while they run: the calls complete
// while its environment is torn down. It keeps starting such pairs for seconds, so that the terminate lands while
// calls run even when this process is slow to hear 'started' (one pair alone once finished first on a busy host).
if (process.argv[2] === 'terminate') {
  const addon = kernels().find((e) => e.name === 'matmul' && e.addonPath !== null)!.addonPath
  const worker = new Worker(`
    const { parentPort, workerData } = require('node:worker_threads')
    const { matmul } = require(workerData.addon)
    const n = workerData.n
    const plain = () => new Float32Array(n * n).fill(1)
    const shared = () => new Float32Array(new SharedArrayBuffer(4 * n * n)).fill(1)
    const pair = () => Promise.all([matmul.async(plain(), plain(), plain(), n, n, n), matmul.async(shared(), shared(), shared(), n, n, n)])
    const calls = (async () => { for (let round = 0; round < 200; round++) await pair() })()
    parentPort.postMessage('started')
    calls.then(() => parentPort.postMessage('finished'))
  `, { eval: true, workerData: { addon, n } })
  const messages: string[] = []
  worker.on('message', (m: string) => {
    messages.push(m)
    if (m === 'started') void worker.terminate()
  })
  const code = await new Promise((resolve) => worker.on('exit', resolve))
  for (let i = 0; i < 3; i++) {
    gc()
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  process.stdout.write(`${JSON.stringify({ messages, code })}\n`)
}

// Under `ulimit -v <argv[3]>` (kB): a 1×K by K×1 matmul on two arrays that together take 70% of the address space
// left, so that an async call cannot copy them, on ordinary ArrayBuffers (refused: runtime_out_of_memory, before
// anything runs) and on SharedArrayBuffers (no copy: computed).
if (process.argv[2] === 'copies') {
  const used = Number(/VmSize:\s*(\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'))![1])
  const K = Math.floor(((Number(process.argv[3]) - used) * 1024 * 0.35) / 4)
  const run = async (shared: boolean) => {
    const array = () => new Float32Array(shared ? new SharedArrayBuffer(4 * K) : new ArrayBuffer(4 * K)).fill(1)
    const A = array()
    const B = array()
    const C = new Float32Array(1)
    const outcome = await settle((k.matmul.native as unknown as { async: (...a: unknown[]) => Promise<unknown> }).async(A, B, C, 1, 1, K))
    return { shared, ...outcome, C: outcome.settled === 'resolved' ? C[0] : undefined }
  }
  for (const shared of [false, true]) {
    process.stdout.write(`${JSON.stringify(await run(shared))}\n`)
    gc()
  }
}
