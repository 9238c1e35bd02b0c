/**
 * polykern as a user gets it: `npm pack` of this checkout, installed with npm into fresh apps.
 * - The installs print nothing about polykern: a binding.gyp at the package's root made npm take `node-gyp rebuild`
 *   for its install step, and an app's `npm ci` failed with gyp ERR!. The installed package builds its addon from
 *   what it ships (dist/binding.gyp, native/): `polykern build`, then the output run with node.
 * - Every bundler recipe of the README's "Install and use", exactly as written: its install command, its files, its
 *   build-and-run command, in a fresh app with `"type": "module"` and a src/main.ts holding a kernel. The bundlers come
 *   from the npm registry (as they do for a user; npm's cache makes a second run quick). The apps install at once.
 */
import { spawn, spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const ROOT = path.resolve(import.meta.dirname, '../..')
const tmp = mkdtempSync(path.join(os.tmpdir(), 'polykern-packed-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

/**
 * The environment a user's shell has: no CI quietness, no npm_* variables of the test run's own npm. Two npm settings
 * guard against the registry, which is not what this file tests: a package npm's cache holds is taken from it, and a
 * request that stalls is dropped and retried after a minute (npm's default waits five, this file's whole budget).
 */
const userEnv = {
  ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k) && k !== 'CI')),
  npm_config_prefer_offline: 'true',
  npm_config_fetch_timeout: '60000',
}
/** Longer than npm's retries of a stalled request take; a command still running then is killed and says so. */
const COMMAND_TIMEOUT_MS = 270_000

type Shell = { status: number | null; stdout: string; output: string }

/** A shell command in `cwd`, as a user types it; resolves with its status and output, never rejects. */
function sh(command: string, cwd: string): Promise<Shell> {
  return new Promise((resolve) => {
    // Its own process group, so that a timeout kills npm with whatever it started.
    const child = spawn('bash', ['-c', command], { cwd, env: userEnv, detached: true })
    let [stdout, output] = ['', '']
    const timer = setTimeout(() => {
      output += `\n[packed-install.test] \`${command}\` killed after ${COMMAND_TIMEOUT_MS / 1000} s: npm or the registry stalled`
      process.kill(-child.pid!, 'SIGKILL')
    }, COMMAND_TIMEOUT_MS)
    child.stdout.on('data', (d: Buffer) => ((stdout += d), (output += d)))
    child.stderr.on('data', (d: Buffer) => void (output += d))
    child.on('close', (status) => {
      clearTimeout(timer)
      resolve({ status, stdout, output })
    })
  })
}

/** The program every app runs: a kernel, its result and whether it ran natively, as JSON on the last line. */
const MAIN = `import { polykernInfo } from 'polykern/runtime'

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
`
// Rows of A: [0 1 2], [3 4 5]; B all ones.
const RESULT = { C: [3, 3, 12, 12], native: true }

/**
 * A fresh app in `tmp/name` with polykern installed from the tarball, then the leading `npm install` commands of
 * `steps` (a recipe's own installs); the last install's output, and how many steps ran.
 */
async function freshApp(name: string, tarball: string, steps: readonly Step[] = []) {
  const dir = path.join(tmp, name)
  mkdirSync(path.join(dir, 'src'), { recursive: true })
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', type: 'module', private: true }))
  writeFileSync(path.join(dir, 'src/main.ts'), MAIN)
  let install = await sh(`npm install --no-audit --no-fund ${JSON.stringify(tarball)}`, dir)
  let ran = 0
  for (const step of steps) {
    if (install.status !== 0 || !('command' in step) || !step.command.startsWith('npm install ')) break
    install = await sh(step.command, dir)
    ran++
  }
  return { dir, install, ran }
}

/** A recipe of the README: files to write (`// name` on their first line) and shell commands, in order. */
type Step = { readonly file: string; readonly text: string } | { readonly command: string }
interface Recipe {
  readonly bundler: string
  readonly steps: readonly Step[]
}

/** The bundler recipes of the README's "Install and use": each `<details>` block's code, in order. */
function readmeRecipes(): Recipe[] {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8')
  const section = readme.slice(readme.indexOf('## Install and use'), readme.indexOf('### Options'))
  return [...section.matchAll(/<details><summary>(\w+)[^<]*(?:<code>[^<]*<\/code>[^<]*)?<\/summary>([^]*?)<\/details>/g)].map(([, bundler, body]) => ({
    bundler,
    steps: [...body.matchAll(/```(\w+)\n([^]*?)```/g)].map(([, lang, text]): Step => {
      if (lang === 'sh') return { command: text.trim() }
      const file = /^\/\/ ([\w.-]+\.\w+)/.exec(text)?.[1]
      if (file === undefined) throw new Error(`a ${bundler} ${lang} block does not start with // <file name>:\n${text}`)
      return { file, text }
    }),
  }))
}

const recipes = readmeRecipes()
let tarball: string
let packed: Shell
let plain: Awaited<ReturnType<typeof freshApp>>
const apps = new Map<string, Awaited<ReturnType<typeof freshApp>>>()
beforeAll(async () => {
  packed = await sh(`npm pack --pack-destination ${JSON.stringify(tmp)}`, ROOT)
  expect(packed.status, packed.output).toBe(0)
  tarball = path.join(tmp, readdirSync(tmp).find((f) => f.endsWith('.tgz'))!)
  // The apps install at once: it is mostly waiting on the registry and the disk.
  const made = await Promise.all([freshApp('plain', tarball), ...recipes.map((r) => freshApp(r.bundler, tarball, r.steps))])
  plain = made[0]
  recipes.forEach((r, n) => apps.set(r.bundler, made[n + 1]))
}, 600_000)

describe('the packed package', () => {
  it('packs, installs and reinstalls from the lock file without a word about polykern: no install step, no unknown config', async () => {
    expect(packed.output).not.toMatch(/Unknown (project|env) config/)
    expect(plain.install.status, plain.install.output).toBe(0)
    expect(plain.install.output).not.toMatch(/polykern|node-gyp|install-scripts|allowScripts/)
    // npm ci ran `node-gyp rebuild` in the installed polykern when a binding.gyp sat at its root, and failed.
    rmSync(path.join(plain.dir, 'node_modules'), { recursive: true, force: true })
    const ci = await sh('npm ci --no-audit --no-fund', plain.dir)
    expect(ci.status, ci.output).toBe(0)
    expect(ci.output).not.toMatch(/polykern|node-gyp|install-scripts|allowScripts/)
  }, 300_000)

  it('builds a kernel natively with `polykern build`, and the output runs', async () => {
    const build = await sh('npx polykern build --outDir out --strict', plain.dir)
    expect(build.status, build.output).toBe(0)
    const run = spawnSync(process.execPath, ['out/src/main.js'], { cwd: plain.dir, encoding: 'utf8' })
    expect(run.status, run.stderr).toBe(0)
    expect(run.stderr).toBe('')
    expect(JSON.parse(run.stdout)).toEqual(RESULT)
  }, 300_000)
})

describe("the README's bundler recipes, as written", () => {
  it('are the five bundlers', () => {
    expect(recipes.map((r) => r.bundler)).toEqual(['Vite', 'Rollup', 'esbuild', 'webpack', 'Rspack'])
  })

  for (const recipe of recipes) {
    it(`${recipe.bundler}: installs, builds, and the bundle runs the kernel natively`, async () => {
      const { dir, install, ran } = apps.get(recipe.bundler)!
      expect(install.status, install.output).toBe(0)
      // The addon polykern build made for the same kernel, so that each bundle does not build it again (a cache
      // hit checks the addon's bytes and identity, as for any user).
      const cache = path.join(plain.dir, 'node_modules/.cache/polykern')
      if (existsSync(cache)) cpSync(cache, path.join(dir, 'node_modules/.cache/polykern'), { recursive: true })
      let last: Shell | undefined
      for (const step of recipe.steps.slice(ran)) {
        if ('file' in step) {
          writeFileSync(path.join(dir, step.file), step.text)
          continue
        }
        last = await sh(step.command, dir)
        expect(last.status, `${step.command}\n${last.output}`).toBe(0)
      }
      // The last command builds and runs the bundle: the program's line is the last it prints.
      const lines = last!.stdout.trim().split('\n')
      expect(JSON.parse(lines.at(-1)!), last!.output).toEqual(RESULT)
    }, 300_000)
  }
})
