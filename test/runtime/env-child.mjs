/**
 * Loads a bundle (argv[2]) in the main thread and, with argv[3] = 'worker', in a worker too; runs its matmul on each
 * and checks it against the JS loops; prints `{ native, isa, threads }` of the main thread's addon as JSON. The
 * environment under test is this process's; its warnings go to stderr as Node prints them.
 */
import { createRequire } from 'node:module'
import { Worker, isMainThread, workerData } from 'node:worker_threads'

const bundle = isMainThread ? process.argv[2] : workerData
const { kernels } = await import(bundle)
const entry = kernels().find((k) => k.name === 'matmul')
const n = 37
const args = () => [Float32Array.from({ length: n * n }, (_, i) => (i % 5) - 2), Float32Array.from({ length: n * n }, (_, i) => (i % 3) - 1), new Float32Array(n * n), n, n, n]
const got = entry.call(...args())
const expected = entry.js(...args())
if (got.some((v, i) => v !== expected[i])) throw new Error('matmul differs from the JS loops')

if (isMainThread) {
  if (process.argv[3] === 'worker') {
    await new Promise((resolve, reject) => {
      const w = new Worker(new URL(import.meta.url), { workerData: bundle })
      w.on('error', reject)
      w.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`worker exited with ${code}`))))
    })
  }
  const meta = entry.addonPath ? createRequire(import.meta.url)(entry.addonPath).__polykern : undefined
  console.log(JSON.stringify({ native: entry.native, isa: meta?.isa, threads: meta?.threads }))
}
