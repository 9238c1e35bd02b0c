/**
 * Builds a module's C translation unit into a Node-API addon with node-gyp, through a content-addressed cache:
 * `<cacheDir>/<hash>/polykern.node`. A hit runs nothing. A miss builds in a private temp directory and renames the
 * result into place, so concurrent builds of the same hash never see a half-written addon. Never throws: a failed
 * build is `ok: false` with the compiler's message, and the caller ships the JS fallback.
 */
import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { copyFile, mkdir, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { NAPI_VERSION } from '../emit/napi.ts'
import { addonHash, type AddonInputs } from './hash.ts'
import { compilerVersion, nodeGypScript, nodePrefix, packageRoot, run } from './toolchain.ts'

export interface AddonBuildRequest {
  /** The whole C translation unit (emitAddonSource). */
  readonly source: string
  readonly cacheDir: string
  /** Extra compiler flags for this addon (ISA flags), part of the cache key. */
  readonly cflags?: readonly string[]
  readonly log?: (msg: string) => void
}

export type AddonBuild =
  | { readonly ok: true; readonly path: string; readonly hash: string; readonly cached: boolean; readonly ms: number }
  | { readonly ok: false; readonly hash: string; readonly error: string }

export const ADDON_FILE = 'polykern.node'
const SOURCE_FILE = 'polykern.c'
const BUILD_TIMEOUT_MS = 10 * 60_000

export async function buildAddon(req: AddonBuildRequest): Promise<AddonBuild> {
  const started = performance.now()
  const elapsed = (): number => Math.round(performance.now() - started)
  const log = req.log ?? (() => {})
  const compiler = await compilerVersion()
  let inputs: AddonInputs
  try {
    inputs = await addonInputs(req, compiler.ok ? compiler.version : '')
  } catch (e) {
    return { ok: false, hash: '', error: `polykern cannot read its native templates: ${(e as Error).message}` }
  }
  const hash = addonHash(inputs)
  if (!compiler.ok) return { ok: false, hash, error: compiler.error }

  const finalDir = path.join(req.cacheDir, hash)
  const addon = path.join(finalDir, ADDON_FILE)
  if (existsSync(addon)) return { ok: true, path: addon, hash, cached: true, ms: elapsed() }

  log(`building native addon ${hash.slice(0, 12)} with node-gyp`)
  const tmp = path.join(req.cacheDir, `${hash}.tmp-${process.pid}-${randomBytes(6).toString('hex')}`)
  try {
    await writeSources(tmp, inputs)
    const gyp = await run(
      process.execPath,
      [nodeGypScript(), 'rebuild', `--nodedir=${nodePrefix()}`, '--directory', tmp, '--loglevel=error'],
      { cwd: tmp, timeout: BUILD_TIMEOUT_MS },
    )
    const built = path.join(tmp, 'build', 'Release', ADDON_FILE)
    if (gyp.code !== 0 || !existsSync(built)) {
      return { ok: false, hash, error: compilerMessage(gyp.stderr || gyp.stdout, tmp) }
    }
    // Stage the addon (with its source, for debugging) in one directory, then move it into place in one rename.
    const staged = path.join(tmp, 'out')
    await mkdir(staged)
    await copyFile(built, path.join(staged, ADDON_FILE))
    await copyFile(path.join(tmp, SOURCE_FILE), path.join(staged, SOURCE_FILE))
    await install(staged, finalDir)
    log(`built native addon ${hash.slice(0, 12)} in ${elapsed()} ms`)
    return { ok: true, path: addon, hash, cached: false, ms: elapsed() }
  } catch (e) {
    return { ok: false, hash, error: `building the native addon failed: ${(e as Error).message}` }
  } finally {
    await rm(tmp, { recursive: true, force: true }).catch(() => {})
  }
}

/** Where `buildAddon(req)` puts its addon, and whether it is there, without building: for `polykern explain`. */
export async function addonLocation(req: AddonBuildRequest): Promise<{ hash: string; dir: string; built: boolean }> {
  const compiler = await compilerVersion()
  const hash = addonHash(await addonInputs(req, compiler.ok ? compiler.version : ''))
  const dir = path.join(req.cacheDir, hash)
  return { hash, dir, built: compiler.ok && existsSync(path.join(dir, ADDON_FILE)) }
}

async function addonInputs(req: AddonBuildRequest, compiler: string): Promise<AddonInputs> {
  const root = packageRoot()
  const nativeDir = path.join(root, 'native')
  const headerNames = (await readdir(nativeDir)).filter((f) => f.endsWith('.h')).sort()
  const manifest = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as { version: string }
  return {
    source: req.source,
    headers: await Promise.all(
      headerNames.map(async (name) => ({ name, text: await readFile(path.join(nativeDir, name), 'utf8') })),
    ),
    bindingGyp: await readFile(path.join(root, 'binding.gyp'), 'utf8'),
    gypi: kernelsGypi(req.cflags ?? []),
    compiler,
    napiVersion: NAPI_VERSION,
    version: manifest.version,
    platform: process.platform,
    arch: process.arch,
  }
}

/** The generated part of the gyp project: what binding.gyp `includes`. */
function kernelsGypi(cflags: readonly string[]): string {
  const list = (items: readonly string[]): string => `[${items.map((s) => JSON.stringify(s)).join(', ')}]`
  return [
    '# Generated by polykern: do not edit.',
    '{',
    `  'sources': ${list([SOURCE_FILE])},`,
    `  'cflags': ${list(cflags)},`,
    '}',
    '',
  ].join('\n')
}

async function writeSources(dir: string, inputs: AddonInputs): Promise<void> {
  await mkdir(dir, { recursive: true })
  await writeFile(path.join(dir, SOURCE_FILE), inputs.source)
  await writeFile(path.join(dir, 'binding.gyp'), inputs.bindingGyp)
  await writeFile(path.join(dir, 'kernels.gypi'), inputs.gypi)
  for (const h of inputs.headers) await writeFile(path.join(dir, h.name), h.text)
}

/** Renames `staged` to `finalDir`; if another build got there first, theirs is kept (same hash, same content). */
async function install(staged: string, finalDir: string): Promise<void> {
  try {
    await rename(staged, finalDir)
  } catch (e) {
    if (existsSync(path.join(finalDir, ADDON_FILE))) return
    // A leftover directory without an addon (an interrupted manual copy): replace it once.
    if (!existsSync(finalDir)) throw e
    await rm(finalDir, { recursive: true, force: true })
    await rename(staged, finalDir)
  }
}

/** The compiler's diagnostics without node-gyp's and make's own noise; temp paths shortened to the file name. */
function compilerMessage(output: string, tmp: string): string {
  const lines = output.split('\n').map((l) => l.trimEnd())
  const useful = lines.filter((l) => l !== '' && !/^(gyp (ERR!|info|WARN|verb)|make(\[\d+\])?: )/.test(l))
  const chosen = useful.length > 0 ? useful : lines.filter((l) => l !== '').slice(-30)
  const text = chosen
    .slice(0, 60)
    .join('\n')
    .split(`${tmp}${path.sep}`)
    .join('')
    .replace(/\.\.\/polykern\.c/g, SOURCE_FILE)
  return text.length > 8000 ? `${text.slice(0, 8000)}\n...` : text || 'node-gyp failed without output'
}
