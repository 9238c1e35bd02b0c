/** What building an addon needs from the machine and from polykern's own package: found once per process. */
import { execFile } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

export interface RunResult {
  readonly code: number | string
  readonly stdout: string
  readonly stderr: string
}

/** Runs a program with an argument array (never a shell); resolves with its exit code or error code, never rejects. */
export function run(
  file: string,
  args: readonly string[],
  options: { cwd?: string; timeout?: number } = {},
): Promise<RunResult> {
  return new Promise((resolve) => {
    execFile(file, args, { ...options, maxBuffer: 64 * 1024 * 1024, windowsHide: true }, (error, stdout, stderr) => {
      const failure = error?.code
      const code = error === null ? 0 : typeof failure === 'number' || typeof failure === 'string' ? failure : 1
      resolve({ code, stdout: String(stdout), stderr: String(stderr) || (error?.message ?? '') })
    })
  })
}

export type Compiler = { readonly ok: true; readonly version: string } | { readonly ok: false; readonly error: string }

const compilers = new Map<string, Promise<Compiler>>()

/** The first line of `$CC --version` (`cc` by default, as node-gyp's Makefiles use), memoized per `$CC`. */
export function compilerVersion(): Promise<Compiler> {
  const command = process.env.CC?.trim() || 'cc'
  const known = compilers.get(command)
  if (known !== undefined) return known
  const found = (async (): Promise<Compiler> => {
    const [cc, ...ccArgs] = command.split(/\s+/)
    const result = await run(cc, [...ccArgs, '--version'], { timeout: 30_000 })
    if (result.code === 0) return { ok: true, version: result.stdout.split('\n')[0].trim() }
    const why = result.code === 'ENOENT' ? `'${cc}' was not found` : `'${cc} --version' failed: ${result.stderr.trim()}`
    return { ok: false, error: `no C compiler: ${why}. Install gcc or clang (e.g. build-essential) or set CC.` }
  })()
  compilers.set(command, found)
  return found
}

let root: string | undefined

/** polykern's package directory (holding native/ and binding.gyp), from this file in plugin/ or dist/plugin/. */
export function packageRoot(): string {
  if (root !== undefined) return root
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json')
    if (existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).name === 'polykern') return (root = dir)
    if (path.dirname(dir) === dir) throw new Error(`polykern: cannot find its package.json above ${import.meta.url}`)
  }
}

/** node-gyp's CLI script, resolved from polykern's own dependencies. */
export const nodeGypScript = (): string => createRequire(import.meta.url).resolve('node-gyp/bin/node-gyp.js')

let python: Promise<readonly string[]> | undefined

/** pythonFor(process.env), found once per process. */
export const pythonArgument = (): Promise<readonly string[]> => (python ??= pythonFor(process.env))

/**
 * node-gyp's `--python` argument: the interpreter `python3` resolves to, or nothing where the user chose one for
 * node-gyp (NODE_GYP_FORCE_PYTHON, npm_config_python, PYTHON) or python3 cannot run (node-gyp then searches and
 * explains). Without it node-gyp runs `python3` on every build to learn its path, and `python3` is often a version
 * manager's shim: pyenv's costs half a second of CPU per call on this machine, the real interpreter 0.05 s.
 */
export async function pythonFor(env: NodeJS.ProcessEnv): Promise<readonly string[]> {
  if (['NODE_GYP_FORCE_PYTHON', 'npm_config_python', 'PYTHON'].some((name) => env[name])) return []
  const found = await run('python3', ['-c', 'import sys; sys.stdout.write(sys.executable)'], { timeout: 30_000 })
  return found.code === 0 && path.isAbsolute(found.stdout) ? [`--python=${found.stdout}`] : []
}

/** The running Node's install prefix: its headers are in `<prefix>/include/node`, so node-gyp needs no download. */
export const nodePrefix = (): string => path.dirname(path.dirname(process.execPath))

/**
 * What `node-gyp configure`'s output depends on besides the project files (configured.ts): node-gyp itself, the
 * python it runs, this Node's version and headers, and the settings node-gyp and gyp read from the environment.
 */
export async function gypToolchain(python: readonly string[]): Promise<readonly string[]> {
  const script = nodeGypScript()
  const manifest = await readFile(path.join(path.dirname(script), '..', 'package.json'), 'utf8').catch(() => '')
  const settings = Object.entries(process.env)
    .filter(([name]) => /^(npm_config_|gyp_|node_gyp_)/i.test(name) || name === 'PYTHON')
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
  return [script, manifest, ...python, nodePrefix(), process.version, process.platform, process.arch, ...settings]
}
