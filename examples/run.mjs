// `node examples/run.mjs NAME [args]` (after `npm run build`): bundles examples/NAME/main.ts with polykern's esbuild
// plugin (the built package in dist/), as an application would, then runs the bundle in a fresh node process.
// `npm run demo` runs every example; `npm run example -- NAME` one of them.
import { execFileSync } from 'node:child_process'
import { readdirSync, existsSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import polykern from '../dist/plugin/esbuild.js'

const root = path.resolve(fileURLToPath(import.meta.url), '../..')
const examples = readdirSync(path.join(root, 'examples'), { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(path.join(root, 'examples', d.name, 'main.ts')))
  .map((d) => d.name)
  .sort((a, b) => (a === 'demo' ? -1 : b === 'demo' ? 1 : a.localeCompare(b)))

const [name, ...rest] = process.argv.slice(2)
if (name !== undefined && name !== '--all' && !examples.includes(name)) {
  console.error(`examples/run.mjs: no example '${name}'; there are: ${examples.join(', ')}`)
  process.exit(2)
}
for (const example of name === undefined || name === '--all' ? examples : [name]) {
  const outdir = path.join(root, 'examples/dist', example)
  const t0 = performance.now()
  await build({
    absWorkingDir: root,
    entryPoints: [`examples/${example}/main.ts`],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outdir,
    outExtension: { '.js': '.mjs' },
    logLevel: 'warning',
    plugins: [polykern({ root })],
  })
  console.log(`== ${example}: bundled with polykern in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`)
  execFileSync(process.execPath, [path.join(outdir, 'main.mjs'), ...rest], { stdio: 'inherit' })
  console.log('')
}
