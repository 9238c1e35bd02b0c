// Running kernels without a bundler: `polykern build` output run by plain node, and `node --import polykern/register`
// on the TypeScript sources (Node 20 cannot strip types: the hook does). Both on test/project/fixture, whose kernel
// bodies are empty, so right results mean the kernels were compiled.
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { build } from 'esbuild'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ROOT } from '../support/examples.ts'
import { runCli } from '../cli/io.ts'

const OUT = path.join(ROOT, 'test/.out', `project-${process.pid}`)
const PROJECT = path.join(OUT, 'project')
const CACHE = path.join(ROOT, 'node_modules/.cache/polykern-test')
/** polykern as a project would have it installed: its register entry, hooks and runtime, compiled from this checkout. */
const INSTALLED = path.join(PROJECT, 'node_modules/polykern')

beforeAll(async () => {
  rmSync(OUT, { recursive: true, force: true })
  cpSync(path.join(ROOT, 'test/project/fixture'), PROJECT, { recursive: true })
  mkdirSync(INSTALLED, { recursive: true })
  writeFileSync(path.join(INSTALLED, 'package.json'), JSON.stringify({
    name: 'polykern', version: JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version, type: 'module',
    exports: { './runtime': './dist/runtime/index.js', './register': './dist/plugin/register.js' },
  }))
  // What the package ships for native builds (package.json `files`; prepack puts binding.gyp in dist/), and the
  // layout of tsc's dist/.
  cpSync(path.join(ROOT, 'native'), path.join(INSTALLED, 'native'), { recursive: true })
  cpSync(path.join(ROOT, 'binding.gyp'), path.join(INSTALLED, 'dist/binding.gyp'))
  await build({
    entryPoints: {
      'plugin/register': path.join(ROOT, 'plugin/register.ts'),
      'plugin/register-hooks': path.join(ROOT, 'plugin/register-hooks.ts'),
      'runtime/index': path.join(ROOT, 'runtime/index.ts'),
    },
    outdir: path.join(INSTALLED, 'dist'), bundle: true, platform: 'node', format: 'esm', packages: 'external', logLevel: 'silent',
  })
}, 120_000)
afterAll(() => rmSync(OUT, { recursive: true, force: true }))

/** What the fixture's main prints, checked against plain loops over the arrays it printed. */
function expectRightResults(stdout: string): void {
  const { A, B, C, later, y } = JSON.parse(stdout) as Record<string, number[]>
  const [M, N, K] = [3, 4, 5]
  const want = Array.from({ length: M * N }, (_, e) => {
    const [i, j] = [Math.floor(e / N), e % N]
    let s = 0
    for (let k = 0; k < K; k++) s += A[i * K + k] * B[k * N + j]
    return s
  })
  expect(want.some((v) => v !== 0)).toBe(true)
  expect(C).toEqual(want)
  expect(later).toEqual(want)
  expect(y).toEqual([3, 6, 10.5])
}

const node = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, args, { cwd: PROJECT, encoding: 'utf8', env: { ...process.env, NODE_ENV: 'test', ...env } })

describe('node --import polykern/register', () => {
  it('compiles the kernels on first import and strips types, with the native addon', () => {
    const run = node(['--import', 'polykern/register', 'src/main.ts'], { POLYKERN_CACHE_DIR: CACHE })
    expect(run.status, run.stderr).toBe(0)
    expectRightResults(run.stdout)
    expect(run.stderr).not.toContain('PolykernWarning')
  }, 300_000)

  it('works under tsx: `tsx --import polykern/register` compiles the kernels, natively', () => {
    const tsx = path.join(ROOT, 'node_modules/tsx/dist/cli.mjs')
    const run = node([tsx, '--import', 'polykern/register', 'src/main.ts'], { POLYKERN_CACHE_DIR: CACHE })
    expect(run.status, run.stderr).toBe(0)
    expectRightResults(run.stdout)
    expect(run.stderr).not.toContain('PolykernWarning')
  }, 300_000)

  it('runs the JS loops with POLYKERN_NATIVE=0, and reports a spec error with its location', () => {
    const js = node(['--import', 'polykern/register', 'src/main.ts'], { POLYKERN_NATIVE: '0', POLYKERN_CACHE_DIR: CACHE })
    expect(js.status, js.stderr).toBe(0)
    expectRightResults(js.stdout)
    writeFileSync(path.join(PROJECT, 'src/bad.ts'), '/* @kernel\n  x: f32[N]\n  y[i] = x[i]\n*/\nexport function f(x: Float32Array, N: number) {}\n')
    const bad = node(['--import', 'polykern/register', 'src/bad.ts'], { POLYKERN_NATIVE: '0' })
    expect(bad.status).not.toBe(0)
    expect(bad.stderr).toMatch(/src\/bad\.ts:3:\d+: .*\[spec_\w+\]/)
    rmSync(path.join(PROJECT, 'src/bad.ts'))
  }, 120_000)
})

describe('polykern build', () => {
  it('writes runnable JS and each addon beside its module', async () => {
    const r = await runCli(['build', 'src/**/*.ts', '--outDir', 'dist', '--cache-dir', CACHE], { cwd: PROJECT })
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toMatch(/src\/kernels\.ts → dist\/src\/kernels\.js: 2 kernels, addon polykern-[0-9a-f]{16}\.node/)
    expect(readdirSync(path.join(PROJECT, 'dist/src')).sort()).toEqual(
      expect.arrayContaining(['kernels.js', 'main.js', 'shapes.js', expect.stringMatching(/^polykern-[0-9a-f]{16}\.node$/)]),
    )
    // The build cache is moved away: the addon beside the module is what loads.
    const run = node(['dist/src/main.js'], { POLYKERN_CACHE_DIR: path.join(OUT, 'no-cache') })
    expect(run.status, run.stderr).toBe(0)
    expectRightResults(run.stdout)
    expect(run.stderr).not.toContain('PolykernWarning')
  }, 300_000)

  it('--no-native ships the JS loops; usage errors exit 2', async () => {
    const r = await runCli(['build', 'src/kernels.ts', 'src/main.ts', 'src/shapes.ts', '--outDir', 'js-only', '--no-native', '--quiet'], { cwd: PROJECT })
    expect(r).toMatchObject({ code: 0, stderr: '' })
    expect(readdirSync(path.join(PROJECT, 'js-only/src')).some((f) => f.endsWith('.node'))).toBe(false)
    expectRightResults(node(['js-only/src/main.js']).stdout)
    expect((await runCli(['build', 'src/**/*.ts'], { cwd: PROJECT })).code).toBe(2)
    const none = await runCli(['build', 'nothing/*.ts', '--outDir', 'x'], { cwd: PROJECT })
    expect(none.code).toBe(2)
    expect(none.stderr).toContain("no file matches 'nothing/*.ts'")
    expect(existsSync(path.join(PROJECT, 'x'))).toBe(false)
  })
})
