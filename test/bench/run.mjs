// `npm run bench [-- --json FILE] [--quick] [--cases name,name]`: bundles test/bench/main.ts with polykern's esbuild
// plugin (the built package in dist/), builds the FMA peak probe with polykern's own addon builder and cache, then
// runs the bench in a fresh process, passing the arguments through.
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { buildAddon } from '../../dist/plugin/addon/build.js'
import polykern from '../../dist/plugin/esbuild.js'
import { resolveOptions } from '../../dist/plugin/options.js'

const root = path.resolve(fileURLToPath(import.meta.url), '../../..')
const outdir = path.join(root, 'test/.out/bench')
const t0 = performance.now()
await build({
  absWorkingDir: root,
  entryPoints: ['test/bench/main.ts'],
  bundle: true,
  platform: 'node',
  format: 'esm',
  outdir,
  outExtension: { '.js': '.mjs' },
  // A native addon with its own loader: loaded from node_modules at run time, never bundled.
  external: ['onnxruntime-node'],
  logLevel: 'warning',
  // strict: a kernel that fails to build natively fails the bench instead of timing the JS fallback as "native".
  plugins: [polykern({ root, strict: true })],
})
const probe = await buildAddon({
  source: readFileSync(path.join(root, 'test/bench/peak.c'), 'utf8'),
  cacheDir: resolveOptions({ root }).cacheDir,
})
if (!probe.ok) {
  console.error(`bench: the FMA peak probe did not build:\n${probe.error}`)
  process.exit(1)
}
console.error(`bundled test/bench with polykern and built the peak probe in ${((performance.now() - t0) / 1000).toFixed(1)} s`)

const bench = spawnSync(
  process.execPath,
  [path.join(outdir, 'main.mjs'), '--peak-addon', probe.path, ...process.argv.slice(2)],
  { stdio: 'inherit' },
)
process.exitCode = bench.status ?? 1
