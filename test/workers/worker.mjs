/**
 * A worker_threads worker that loads a polykern module by itself (argv: the module or addon to load), runs its GEMM
 * and convolution natively, checks them against the JS loops, and ends. workerData: { module, addon, async, size,
 * signal, stay }. `module`: a bundle, called through its exports; `addon`: a bare addon (the sanitized build), called
 * directly. `signal`: posts 'started' before a long GEMM, for terminate() during it. A bundle's worker also runs the
 * convolution with its filter bound and leaves it bound; `noForms`: it first checks that the addon holds no packed
 * filter of an earlier worker.
 */
import { createRequire } from 'node:module'
import { parentPort, workerData } from 'node:worker_threads'

const { module, addon, async, size, signal } = workerData
const fill = (n, seed) => Float32Array.from({ length: n }, (_, i) => ((i * seed) % 7) - 3)

async function kernelsOf() {
  if (addon) {
    const native = createRequire(import.meta.url)(addon)
    const wrap = (f) => Object.assign((...a) => (f(...a), a[2]), { async: async (...a) => (await f.async(...a), a[2]) })
    return { matmul: wrap(native.matmul), conv: wrap(native.conv), isNative: () => true }
  }
  const bundle = await import(module)
  const { kernels } = bundle
  return { matmul: bundle.matmul, conv: bundle.conv, isNative: () => kernels().every((k) => k.native), js: bundle }
}

const k = await kernelsOf()
if (!k.isNative()) throw new Error('the worker runs the JS fallback: the addon did not load')
const run = (f, args) => (async ? f.async(...args) : f(...args))

const n = size
const [A, B] = [fill(n * n, 3), fill(n * n, 5)]
if (signal) parentPort.postMessage('started')
// With `signal` the long GEMM repeats (seconds in all): terminate() lands during a call however late the parent sends
// it, where one GEMM (tens of milliseconds) could end first on a busy host and the worker exit 0.
let C
for (let round = 0; round < (signal ? 100 : 1); round++) C = await run(k.matmul, [A, B, new Float32Array(n * n), n, n, n])
// Small integers: every summation order gives the exact result.
let expected = 0
for (let kk = 0; kk < n; kk++) expected += (((kk * 3) % 7) - 3) * (((kk * n * 5) % 7) - 3)
if (C[0] !== expected) throw new Error(`matmul: C[0] = ${C[0]}, expected ${expected}`)

const [N, H, W, Ch, K] = [2, 13, 11, 5, 7]
const [P, Q] = [Math.floor((H + 1) / 2), Math.floor((W + 1) / 2)]
const convArgs = () => [fill(N * H * W * Ch, 3), fill(9 * Ch * K, 5), new Float32Array(N * P * Q * K), N, H, W, Ch, K, P, Q]
const O = await run(k.conv, convArgs())
if (k.js) {
  const entry = k.js.kernels().find((e) => e.name === 'conv')
  const reference = entry.js(...convArgs())
  const wrong = O.findIndex((v, i) => v !== reference[i])
  if (wrong >= 0) throw new Error(`conv: O[${wrong}] = ${O[wrong]}, the JS loops give ${reference[wrong]}`)
}
if (k.js) {
  // A bound filter, left bound: the worker's end must unbind it (the addon's handles are finalized with its
  // environment). `noForms`: no earlier worker's packed filter may still be held when this one starts.
  const meta = k.js.kernels().find((e) => e.name === 'conv').meta
  if (workerData.noForms && meta.boundForms !== 0) throw new Error(`${meta.boundForms} packed forms outlived their worker`)
  const F = fill(9 * Ch * K, 5)
  const layer = k.conv.bind({ F })
  for (let call = 0; call < 2; call++) {
    const args = convArgs()
    const got = await run(layer, [args[0], args[2], ...args.slice(3)])
    const wrong = got.findIndex((v, i) => v !== O[i])
    if (wrong >= 0) throw new Error(`bound conv: O[${wrong}] = ${got[wrong]}, unbound gives ${O[wrong]}`)
  }
  // Scalar builds run the convolution as its loop nest, which packs nothing.
  if (meta.isa !== 'scalar' && meta.boundForms < 1) throw new Error('the bound filter was not packed once and kept')
}
parentPort.postMessage('done')
// `stay`: the worker stays alive, listening, until terminate() ends it.
if (workerData.stay) parentPort.on('message', () => {})
