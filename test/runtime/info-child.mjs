/**
 * Imports the bundles named in argv (file URLs) and prints, as JSON, what polykernInfo says of each one's matmul:
 * before and after the first bundle's setThreads(1), the route of a call, and what it throws for a plain function.
 */
const bundles = await Promise.all(process.argv.slice(2).map((url) => import(url)))
const n = 5
const args = [new Float32Array(n * n), new Float32Array(n * n), new Float32Array(n * n), n, n, n]
const describe = (b) => {
  const { native, isa, threads, addon, reason } = b.polykernInfo(b.matmul)
  return { native, isa, threads, addon, reason, route: b.polykernInfo(b.matmul).route(...args) }
}
const before = bundles.map(describe)
bundles[0].setThreads(1)
const after = bundles.map(describe)
let refused
try {
  bundles[0].polykernInfo(function plain() {})
} catch (e) {
  refused = { name: e.name, code: e.code, message: e.message }
}
console.log(JSON.stringify({ before, after, refused }))
