/**
 * Every example under examples/ (but the demo, whose kernels the differential tests cover) bundled with polykern's
 * esbuild plugin as examples/run.mjs does, then run in a child node: it must run natively and exit 0, which each
 * example does only when its native result agrees with its JS fallback.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, rmSync } from 'node:fs'
import path from 'node:path'
import { build } from 'esbuild'
import { afterAll, describe, expect, it } from 'vitest'
import polykern from '../../plugin/esbuild.ts'
import { ROOT } from '../support/examples.ts'

const OUT = path.join(ROOT, 'test/.out', `examples-${process.pid}`)
const EXAMPLES = readdirSync(path.join(ROOT, 'examples'), { withFileTypes: true })
  .filter((d) => d.isDirectory() && d.name !== 'demo' && existsSync(path.join(ROOT, 'examples', d.name, 'main.ts')))
  .map((d) => d.name)

afterAll(() => rmSync(OUT, { recursive: true, force: true }))

describe('examples', () => {
  it('are the four of the README', () => {
    expect(EXAMPLES.sort()).toEqual(['attention', 'image-filter', 'kmeans', 'mlp'])
  })

  it.each(EXAMPLES)('%s runs natively and agrees with its JS fallback', async (name) => {
    const outdir = path.join(OUT, name)
    await build({
      absWorkingDir: ROOT,
      entryPoints: [`examples/${name}/main.ts`],
      bundle: true,
      platform: 'node',
      format: 'esm',
      outdir,
      outExtension: { '.js': '.mjs' },
      logLevel: 'silent',
      // The runtime from this checkout's sources (a clean clone has no dist/).
      alias: { 'polykern/runtime': path.join(ROOT, 'runtime/index.ts') },
      plugins: [polykern({ root: ROOT, strict: true, cacheDir: path.join(ROOT, 'node_modules/.cache/polykern-test') })],
    })
    // Each timing one call: the check is the agreement, not the speed.
    const run = spawnSync(process.execPath, [path.join(outdir, 'main.mjs')], { encoding: 'utf8', env: { ...process.env, EXAMPLES_CALL_ONCE: '1' } })
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0)
    expect(run.stdout).toMatch(/ native /)
    expect(run.stdout).not.toContain('fallback!')
  })
})
