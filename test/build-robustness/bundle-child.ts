// A bundler process, as a user's build runs one: bundles the bundler fixture with polykern into argv[3], with the
// build cache argv[4], and prints the bundle's path and the warnings the bundler reported, as JSON.
import path from 'node:path'
import * as esbuild from 'esbuild'
import polykern from '../../plugin/esbuild.ts'
import { BUNDLERS, fixtureRoot, type Bundler } from '../bundlers/build.ts'

const [bundler, outDir, cacheDir] = process.argv.slice(2) as [Bundler, string, string]
const options = { root: fixtureRoot, cacheDir }
if (bundler === 'esbuild') {
  // esbuild directly, to see its warnings.
  const outfile = path.join(outDir, 'main.mjs')
  const result = await esbuild.build({
    absWorkingDir: fixtureRoot,
    entryPoints: ['src/main.ts'],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile,
    logLevel: 'silent',
    plugins: [polykern(options)],
  })
  process.stdout.write(JSON.stringify({ bundle: outfile, warnings: result.warnings.map((w) => w.text) }))
} else {
  const bundle = await BUNDLERS[bundler]({ entry: 'src/main.ts', outDir, options })
  process.stdout.write(JSON.stringify({ bundle, warnings: [] }))
}
