/**
 * No C compiler on the build machine: the bundle still builds, with a `native_build_failed` warning through the
 * bundler carrying the compiler's complaint, and runs correctly on the JS loops, saying why once at run time.
 * `strict: true` turns the warning into a failed build. Simulated with CC pointing at a file that does not exist.
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import * as esbuild from 'esbuild'
import { afterAll, afterEach, beforeEach, expect, test } from 'vitest'
import polykern from '../../plugin/esbuild.ts'
import { fixtureRoot } from './build.ts'
import { expectFixtureResults, type FixtureOutput } from './reference.ts'

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'polykern-nocc-'))
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }))
const savedCC = process.env.CC
beforeEach(() => {
  process.env.CC = path.join(scratch, 'no-such-cc')
})
afterEach(() => {
  if (savedCC === undefined) delete process.env.CC
  else process.env.CC = savedCC
})

function bundle(strict: boolean) {
  const outfile = path.join(scratch, strict ? 'strict' : 'lenient', 'main.mjs')
  return esbuild.build({
    absWorkingDir: fixtureRoot,
    entryPoints: ['src/main.ts'],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile,
    logLevel: 'silent',
    // A cache of its own: an addon cached by another test must not hide the missing compiler.
    plugins: [polykern({ root: fixtureRoot, cacheDir: path.join(scratch, 'cache'), strict })],
  }).then((result) => ({ result, outfile }))
}

test('a missing compiler is a warning; the bundle runs on its JS loops with one run-time warning', async () => {
  const { result, outfile } = await bundle(false)
  const warnings = result.warnings.map((w) => w.text)
  expect(warnings).toHaveLength(1)
  expect(warnings[0]).toContain('[native_build_failed]')
  expect(warnings[0]).toContain('no-such-cc')
  expect(fs.readdirSync(path.dirname(outfile)).filter((f) => f.endsWith('.node'))).toEqual([])

  const env = { ...process.env }
  delete env.POLYKERN_NATIVE
  const child = spawnSync(process.execPath, [outfile], { cwd: scratch, env, encoding: 'utf8' })
  expect(child.status, child.stderr).toBe(0)
  const out = JSON.parse(child.stdout) as FixtureOutput
  expect(out.ran.every((k) => !k.native)).toBe(true)
  expectFixtureResults(out)
  expect(child.stderr.match(/PolykernWarning/g)).toHaveLength(1)
  expect(child.stderr).toContain('native build failed')
}, 60_000)

test('strict: true fails the build with native_build_failed', async () => {
  const error = await bundle(true).then(() => undefined, (e: unknown) => e as Error)
  expect(error).toBeInstanceOf(Error)
  expect(String(error!.message)).toContain('[native_build_failed]')
}, 60_000)
