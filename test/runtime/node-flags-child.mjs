/**
 * Imports the bundle named in argv (a file URL; test/workers/kernels.ts bundled) and prints, as JSON, whether its
 * matmul runs natively, how far its result (sync and .async) is from the bundle's own JS loops, and the warnings the
 * process emitted.
 */
const warnings = []
process.on('warning', (w) => warnings.push({ name: w.name, code: w.code, message: String(w.message) }))
const bundle = await import(process.argv[2])
const [M, N, K] = [37, 29, 41]
const A = Float32Array.from({ length: M * K }, (_, i) => ((i * 7) % 13) - 6)
const B = Float32Array.from({ length: K * N }, (_, i) => ((i * 5) % 11) - 5)
const entry = bundle.kernels().find((k) => k.name === 'matmul')
const want = entry.js(A, B, new Float32Array(M * N), M, N, K)
const distance = (got) => got.reduce((worst, v, i) => Math.max(worst, Math.abs(v - want[i])), 0)
const sync = distance(bundle.matmul(A, B, new Float32Array(M * N), M, N, K))
const async = distance(await bundle.matmul.async(A, B, new Float32Array(M * N), M, N, K))
await new Promise((resolve) => setImmediate(resolve))
console.log(JSON.stringify({ native: entry.native, sync, async, warnings }))
