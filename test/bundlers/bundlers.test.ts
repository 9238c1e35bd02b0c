/**
 * Real builds of test/bundlers/fixture with each bundler's JS API, then `node <bundle>` from another directory:
 * results against plain-loop references, the addon beside the bundle and actually used, no fallback warning.
 * One cache directory for all builds, so the addon is compiled once.
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { BUNDLERS, fixtureRoot } from './build.ts'
import type { Bundler } from './build.ts'
import { expectFixtureResults } from './reference.ts'
import type { FixtureOutput } from './reference.ts'

const cacheDir = path.join(import.meta.dirname, '../.out/bundlers/cache')
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'polykern-bundlers-'))
const runDir = fs.mkdtempSync(path.join(scratch, 'cwd-'))
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }))

const KERNELS = ['matmul', 'softmax', 'depthwise3x3']
const options = (extra = {}) => ({ root: fixtureRoot, cacheDir, ...extra })
const outDir = (name: string) => fs.mkdtempSync(path.join(scratch, `${name}-`))
const addonsIn = (dir: string) => fs.readdirSync(dir).filter((f) => f.endsWith('.node'))

/** Runs a bundle with node from an unrelated working directory. */
function runBundle(bundle: string): { out: FixtureOutput; stderr: string } {
  const env = { ...process.env }
  delete env.POLYKERN_NATIVE
  const child = spawnSync(process.execPath, [bundle], { cwd: runDir, env, encoding: 'utf8' })
  expect(child.status, child.stderr).toBe(0)
  return { out: JSON.parse(child.stdout) as FixtureOutput, stderr: child.stderr }
}

describe.each(Object.keys(BUNDLERS) as Bundler[])('%s', (bundler) => {
  test('the bundle runs from its own directory on the native addon beside it', async () => {
    const dir = outDir(bundler)
    const bundle = await BUNDLERS[bundler]({ entry: 'src/main.ts', outDir: dir, options: options() })
    const addons = addonsIn(dir)
    expect(addons).toHaveLength(1)
    const { out, stderr } = runBundle(bundle)
    expect(stderr).toBe('')
    expect(out.ran).toEqual(KERNELS.map((name) => ({ name, native: true, addonPath: path.join(dir, addons[0]) })))
    expectFixtureResults(out)
  }, 60_000)

  test('the bundle names only the addon beside it: copied without it, it warns and runs its JS loops', async () => {
    const dir = outDir(`${bundler}-portable`)
    const bundle = await BUNDLERS[bundler]({ entry: 'src/main.ts', outDir: dir, options: options() })
    const [addon] = addonsIn(dir)
    // No path of the build machine (the project, the build cache, polykern itself) and no file:// URL in the output.
    const text = fs.readFileSync(bundle, 'utf8')
    for (const local of [fixtureRoot, cacheDir, path.resolve(import.meta.dirname, '../..'), 'file://']) expect(text).not.toContain(local)
    const alone = fs.mkdtempSync(path.join(scratch, `${bundler}-alone-`))
    const copy = path.join(alone, path.basename(bundle))
    fs.copyFileSync(bundle, copy)
    const without = runBundle(copy)
    expect(without.stderr.match(/PolykernWarning/g)).toHaveLength(1)
    expect(without.stderr).toContain(`could not load the native kernels for src/kernels.ts (${addon}); using the JS fallback. Tried: ${path.join(alone, addon)} (Cannot find module`)
    expect(without.out.ran).toEqual(KERNELS.map((name) => ({ name, native: false, addonPath: null })))
    expectFixtureResults(without.out)
    fs.copyFileSync(path.join(dir, addon), path.join(alone, addon))
    const beside = runBundle(copy)
    expect(beside.stderr).toBe('')
    expect(beside.out.ran).toEqual(KERNELS.map((name) => ({ name, native: true, addonPath: path.join(alone, addon) })))
    expectFixtureResults(beside.out)
  }, 60_000)

  test('a spec error fails the build with its code and file:line:column', async () => {
    const build = BUNDLERS[bundler]({ entry: 'broken/main.ts', outDir: outDir(`${bundler}-broken`), options: options() })
    const error = await build.then(() => undefined, (e: unknown) => e as Error)
    expect(error).toBeInstanceOf(Error)
    const message = String(error!.message)
    expect(message).toContain('[spec_unknown_tensor]')
    expect(message).toContain("Unknown tensor 'w'")
    // Line 6, column 18 (1-based) with every bundler: Rollup and Vite print the loc they are given, webpack, Rspack
    // and esbuild (which drew an empty frame) the message polykern writes with the location and code frame.
    expect(message).toMatch(/broken\/kernels\.ts(?::| \()6:18\b/)
    if (bundler !== 'rollup' && bundler !== 'vite') expect(message).toMatch(/> 6 \|.*\bw\[/)
  }, 60_000)
})

describe('without the native path', () => {
  test('native: false ships JS loops only, silently, with the same results', async () => {
    const dir = outDir('no-native')
    const bundle = await BUNDLERS.esbuild({ entry: 'src/main.ts', outDir: dir, options: options({ native: false }) })
    expect(addonsIn(dir)).toEqual([])
    const { out, stderr } = runBundle(bundle)
    expect(stderr).toBe('')
    expect(out.ran).toEqual(KERNELS.map((name) => ({ name, native: false, addonPath: null })))
    expectFixtureResults(out)
  }, 60_000)
})
