/**
 * polykern as a user gets it: `npm pack` of this checkout, installed with npm into a fresh app (and again with
 * `npm ci`), then `polykern build` of a kernel and the output run with node. The installs must print nothing about
 * polykern (a binding.gyp at the package's root made npm take `node-gyp rebuild` for its install step: `npm ci`
 * failed with gyp ERR!), and the installed package must build its addon from what it ships (dist/binding.gyp,
 * native/).
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'

const ROOT = path.resolve(import.meta.dirname, '../..')
const tmp = mkdtempSync(path.join(os.tmpdir(), 'polykern-packed-'))
const app = path.join(tmp, 'app')
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

/** npm with the environment a user's shell has: no CI quietness, no npm_* variables of the test run's own npm. */
function npm(args: readonly string[], cwd: string) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k) && k !== 'CI'))
  const run = spawnSync('npm', [...args], { cwd, env, encoding: 'utf8', timeout: 300_000 })
  return { status: run.status, output: `${run.stdout}${run.stderr}` }
}

let packed: ReturnType<typeof npm>
let installed: ReturnType<typeof npm>
beforeAll(() => {
  packed = npm(['pack', '--pack-destination', tmp], ROOT)
  expect(packed.status, packed.output).toBe(0)
  const tarball = readdirSync(tmp).find((f) => f.endsWith('.tgz'))!
  mkdirSync(path.join(app, 'src'), { recursive: true })
  writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', type: 'module', private: true }))
  installed = npm(['install', '--no-audit', '--no-fund', path.join(tmp, tarball)], app)
  expect(installed.status, installed.output).toBe(0)
}, 600_000)

it('packs, installs and reinstalls from the lock file without a word about polykern: no install step, no unknown config', () => {
  expect(packed.output).not.toMatch(/Unknown (project|env) config/)
  expect(installed.output).not.toMatch(/polykern|node-gyp|install-scripts|allowScripts/)
  // npm ci ran `node-gyp rebuild` in the installed polykern when a binding.gyp sat at its root, and failed.
  rmSync(path.join(app, 'node_modules'), { recursive: true, force: true })
  const ci = npm(['ci', '--no-audit', '--no-fund'], app)
  expect(ci.status, ci.output).toBe(0)
  expect(ci.output).not.toMatch(/polykern|node-gyp|install-scripts|allowScripts/)
})

it('the installed package builds a kernel natively with `polykern build`, and the output runs', () => {
  writeFileSync(path.join(app, 'src/main.ts'), `import { polykernInfo } from 'polykern/runtime'

/* @kernel
   A: f32[M, K]
   B: f32[K, N]
   C: f32[M, N]
   C[i, j] +=! A[i, k] * B[k, j]
*/
export function matmul(A: Float32Array, B: Float32Array, C: Float32Array, M: number, N: number, K: number): Float32Array {
  return C
}

const C = matmul(Float32Array.from({ length: 6 }, (_, i) => i), Float32Array.from({ length: 6 }, () => 1), new Float32Array(4), 2, 2, 3)
console.log(JSON.stringify({ C: Array.from(C), native: polykernInfo(matmul).native }))
`)
  const build = npm(['exec', '--', 'polykern', 'build', '--outDir', 'out', '--strict'], app)
  expect(build.status, build.output).toBe(0)
  const run = spawnSync(process.execPath, ['out/src/main.js'], { cwd: app, encoding: 'utf8' })
  expect(run.status, run.stderr).toBe(0)
  expect(run.stderr).toBe('')
  // Rows of A: [0 1 2], [3 4 5]; B all ones.
  expect(JSON.parse(run.stdout)).toEqual({ C: [3, 3, 12, 12], native: true })
}, 300_000)
