// `npm run demo`: bundle examples/demo with polykern's esbuild plugin (the built package in dist/), then run it.
import { execFileSync } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import polykern from '../../dist/plugin/esbuild.js'

const root = path.resolve(fileURLToPath(import.meta.url), '../../..')
const outdir = path.join(root, 'examples/dist')
const t0 = performance.now()
await build({
  absWorkingDir: root,
  entryPoints: ['examples/demo/main.ts'],
  bundle: true,
  platform: 'node',
  format: 'esm',
  outdir,
  outExtension: { '.js': '.mjs' },
  logLevel: 'warning',
  plugins: [polykern({ root })],
})
console.log(`bundled examples/demo with polykern in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`)
execFileSync(process.execPath, [path.join(outdir, 'main.mjs')], { stdio: 'inherit' })
