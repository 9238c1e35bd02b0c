// `npm run bench [-- --json FILE] [--quick] [--cases name,name] [--variants]`: bundles test/bench/main.ts with polykern's
// esbuild plugin (the built package in dist/), builds the FMA peak probe with polykern's own addon builder and cache,
// then runs the bench in a fresh process, passing the arguments through. `--variants` first runs test/bench/variants.ts
// (analytic schedule pick vs the best of the top k, build times) in its own process and hands its report to the bench.
import { spawnSync } from 'node:child_process'
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
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
// The `polykern-im2col` system: the conv kernels again, built with `convolution: 'im2col'`, in a bundle main.mjs imports.
await build({
  absWorkingDir: root,
  entryPoints: ['test/bench/conv-im2col.ts'],
  bundle: true,
  platform: 'node',
  format: 'esm',
  outdir: path.join(outdir, 'im2col'),
  outExtension: { '.js': '.mjs' },
  logLevel: 'warning',
  plugins: [polykern({ root, strict: true, convolution: 'im2col' })],
})
// Issue 14's TCCG and einsum-path kernels, only when those cases run: each generated module in a bundle of its own
// (a compiler error in one spares the other), not strict (main.mjs skips a kernel without a native function, saying
// so). Their perf_plain_loops warnings (one per contraction that runs as loops today) are counted, not printed.
const cases = process.argv.slice(2).flatMap((a, n, all) =>
  all[n - 1] === '--cases' ? a.split(',') : a.startsWith('--cases=') ? a.slice('--cases='.length).split(',') : [])
if (cases.some((c) => c === 'tccg' || c === 'einsum-path' || c.startsWith('tccg-') || c.startsWith('path-'))) {
  const status = {}
  for (const [key, entry] of [['tccg', 'test/bench/tccg-kernels.ts'], ['paths', 'test/bench/path-kernels.ts']]) {
    rmSync(path.join(outdir, key), { recursive: true, force: true })
    try {
      const result = await build({
        absWorkingDir: root,
        entryPoints: [entry],
        bundle: true,
        platform: 'node',
        format: 'esm',
        outdir: path.join(outdir, key),
        outExtension: { '.js': '.mjs' },
        logLevel: 'silent',
        plugins: [polykern({ root, strict: false })],
      })
      const loops = result.warnings.filter((w) => w.text.includes('perf_plain_loops')).length
      console.error(`bundled ${entry}: ${result.warnings.length} warnings (${loops} statements run as plain loops)`)
      status[key] = null
    } catch (e) {
      status[key] = String(e.errors?.[0]?.text ?? e.message).split('\n')[0]
      console.error(`bench: ${entry} did not bundle: ${status[key]}`)
    }
  }
  writeFileSync(path.join(outdir, 'tccg-build.json'), JSON.stringify(status))
}
const probe = await buildAddon({
  sources: [{ name: 'polykern.c', text: readFileSync(path.join(root, 'test/bench/peak.c'), 'utf8') }],
  cacheDir: resolveOptions({ root }).cacheDir,
})
if (!probe.ok) {
  console.error(`bench: the FMA peak probe did not build:\n${probe.error}`)
  process.exit(1)
}
console.error(`bundled test/bench with polykern and built the peak probe in ${((performance.now() - t0) / 1000).toFixed(1)} s`)

const passed = process.argv.slice(2).filter((a) => a !== '--variants')
if (passed.length < process.argv.length - 2) {
  await build({
    absWorkingDir: root,
    entryPoints: ['test/bench/variants.ts'],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outdir,
    outExtension: { '.js': '.mjs' },
    // The compiler itself runs here (ts-morph, node-gyp): loaded from node_modules, never bundled.
    packages: 'external',
    logLevel: 'warning',
  })
  const report = path.join(outdir, 'variants.json')
  const variants = spawnSync(process.execPath, [path.join(outdir, 'variants.mjs'), '--out', report], { stdio: 'inherit' })
  if (variants.status !== 0) process.exit(variants.status ?? 1)
  passed.push('--variants-report', report)
}

const bench = spawnSync(
  process.execPath,
  [path.join(outdir, 'main.mjs'), '--peak-addon', probe.path, ...passed],
  { stdio: 'inherit' },
)
process.exitCode = bench.status ?? 1
