/** A module bundled as an application ships it: esbuild, ESM for Node, with polykern; the addon lands beside it. */
import { rmSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import * as esbuild from 'esbuild'
import polykern from '../../plugin/esbuild.ts'

const root = path.resolve(import.meta.dirname, '../..')

/**
 * Bundles `entry` to `<outDir>/<its name>.mjs` (build cache: the tests' own), emptying `outDir` first so it holds
 * this build's addon alone; resolves to the bundle's file URL.
 */
export async function bundleForNode(entry: string, outDir: string): Promise<string> {
  rmSync(outDir, { recursive: true, force: true })
  const outfile = path.join(outDir, `${path.basename(entry, '.ts')}.mjs`)
  await esbuild.build({
    absWorkingDir: root,
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile,
    logLevel: 'silent',
    plugins: [polykern({ root, cacheDir: 'node_modules/.cache/polykern-test', calibrate: false, quiet: true })],
  })
  return pathToFileURL(outfile).href
}
