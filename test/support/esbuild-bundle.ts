/** A module bundled as an application ships it: esbuild, ESM for Node, with polykern; the addon lands beside it. */
import { rmSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { BUNDLERS, fixtureRoot } from '../bundlers/build.ts'

/**
 * Bundles `entry` (an absolute path) to `<outDir>/main.mjs` with the tests' build cache, emptying `outDir` first so
 * it holds this build's addon alone; resolves to the bundle's file URL.
 */
export async function bundleForNode(entry: string, outDir: string): Promise<string> {
  rmSync(outDir, { recursive: true, force: true })
  const options = { root: path.resolve(import.meta.dirname, '../..'), cacheDir: 'node_modules/.cache/polykern-test', calibrate: false, quiet: true }
  return pathToFileURL(await BUNDLERS.esbuild({ entry: path.relative(fixtureRoot, entry), outDir, options })).href
}
