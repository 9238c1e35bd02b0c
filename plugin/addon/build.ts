/**
 * Builds a module's C files into a Node-API addon with node-gyp (make compiling them in parallel), through a
 * content-addressed cache: `<cacheDir>/<hash>/polykern.node`, with the sha256 of its bytes beside it. A hit whose bytes still match runs
 * nothing; a damaged entry is discarded and rebuilt. A miss builds in a private temp directory and renames the
 * result into place, so concurrent builds of the same hash never see a half-written addon, and the temp directories
 * of builds that were killed are removed by the next build of that hash. Never throws: a failed build is
 * `ok: false` with the compiler's message, and the caller ships the JS fallback.
 */
import { createHash, randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { copyFile, mkdir, mkdtemp, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { MAIN_FILE, NAPI_VERSION, type AddonFile } from '../emit/napi.ts'
import { addonHash, type AddonInputs } from './hash.ts'
import { compilerVersion, nodeGypScript, nodePrefix, packageRoot, run } from './toolchain.ts'

export interface AddonBuildRequest {
  /** The addon's C files (emitAddonSource). */
  readonly sources: readonly AddonFile[]
  readonly cacheDir: string
  /** Extra compiler flags for this addon (ISA flags), part of the cache key. */
  readonly cflags?: readonly string[]
  readonly log?: (msg: string) => void
}

export type AddonBuild =
  | {
      readonly ok: true
      readonly path: string
      readonly hash: string
      readonly cached: boolean
      readonly ms: number
      /** sha256 of the addon's bytes: the runtime checks it before loading a copy. */
      readonly sha256: string
    }
  | { readonly ok: false; readonly hash: string; readonly error: string }

export const ADDON_FILE = 'polykern.node'
const CHECKSUM_FILE = 'polykern.node.sha256'
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
  const cached = await intact(finalDir)
  if (cached !== undefined) return { ok: true, path: addon, hash, cached: true, ms: elapsed(), sha256: cached }
  if (existsSync(finalDir)) {
    log(`discarding the damaged cache entry ${hash.slice(0, 12)}`)
    await discard(finalDir)
  }

  log(`building native addon ${hash.slice(0, 12)} with node-gyp`)
  await removeAbandoned(req.cacheDir, hash)
  const tmp = path.join(req.cacheDir, `${hash}.tmp-${process.pid}-${randomBytes(6).toString('hex')}`)
  // make cannot build under a path with a line break (node-gyp quotes every other character): build elsewhere then.
  const work = /[\n\r]/.test(tmp) ? await mkdtemp(path.join(os.tmpdir(), 'polykern-build-')) : tmp
  try {
    await writeSources(work, inputs)
    const gyp = await run(
      process.execPath,
      [nodeGypScript(), 'rebuild', `--nodedir=${nodePrefix()}`, '--jobs=max', '--directory', work, '--loglevel=error'],
      { cwd: work, timeout: BUILD_TIMEOUT_MS },
    )
    const built = path.join(work, 'build', 'Release', ADDON_FILE)
    if (gyp.code !== 0 || !existsSync(built)) {
      return { ok: false, hash, error: compilerMessage(gyp.stderr || gyp.stdout, work) }
    }
    // Stage the addon (with its sources, for debugging) in one directory, then move it into place in one rename.
    const staged = path.join(tmp, 'out')
    await mkdir(staged, { recursive: true })
    await copyFile(built, path.join(staged, ADDON_FILE))
    await writeFile(path.join(staged, CHECKSUM_FILE), sha256(await readFile(built)))
    for (const f of inputs.sources) await copyFile(path.join(work, f.name), path.join(staged, f.name))
    await install(staged, finalDir)
    // Another build may have installed first: report the bytes that are in place.
    const installed = await intact(finalDir)
    if (installed === undefined) throw new Error(`the cache entry ${finalDir} was damaged as it was installed`)
    log(`built native addon ${hash.slice(0, 12)} in ${elapsed()} ms`)
    return { ok: true, path: addon, hash, cached: false, ms: elapsed(), sha256: installed }
  } catch (e) {
    return { ok: false, hash, error: `building the native addon failed: ${(e as Error).message}` }
  } finally {
    for (const dir of new Set([tmp, work])) await rm(dir, { recursive: true, force: true }).catch(() => {})
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
    sources: req.sources,
    headers: await Promise.all(
      headerNames.map(async (name) => ({ name, text: await readFile(path.join(nativeDir, name), 'utf8') })),
    ),
    bindingGyp: await readFile(path.join(root, 'binding.gyp'), 'utf8'),
    gypi: kernelsGypi(req.sources, req.cflags ?? []),
    compiler,
    napiVersion: NAPI_VERSION,
    version: manifest.version,
    platform: process.platform,
    arch: process.arch,
  }
}

/**
 * The generated part of the gyp project: what binding.gyp `includes`. The per-ISA files first, so that make -j starts
 * the longest compiles first.
 */
function kernelsGypi(sources: readonly AddonFile[], cflags: readonly string[]): string {
  const names = sources.map((f) => f.name)
  const list = (items: readonly string[]): string => `[${items.map((s) => JSON.stringify(s)).join(', ')}]`
  return [
    '# Generated by polykern: do not edit.',
    '{',
    `  'sources': ${list([...names.filter((n) => n !== MAIN_FILE), ...names.filter((n) => n === MAIN_FILE)])},`,
    `  'cflags': ${list(cflags)},`,
    '}',
    '',
  ].join('\n')
}

async function writeSources(dir: string, inputs: AddonInputs): Promise<void> {
  await mkdir(dir, { recursive: true })
  for (const f of inputs.sources) await writeFile(path.join(dir, f.name), f.text)
  await writeFile(path.join(dir, 'binding.gyp'), inputs.bindingGyp)
  await writeFile(path.join(dir, 'kernels.gypi'), inputs.gypi)
  for (const h of inputs.headers) await writeFile(path.join(dir, h.name), h.text)
}

/** Renames `staged` to `finalDir`; if another build got there first, theirs is kept (same hash, same content). */
async function install(staged: string, finalDir: string): Promise<void> {
  try {
    await rename(staged, finalDir)
  } catch (e) {
    if ((await intact(finalDir)) !== undefined) return
    // A leftover directory without a sound addon (an interrupted manual copy): replace it once.
    if (!existsSync(finalDir)) throw e
    await discard(finalDir)
    await rename(staged, finalDir)
  }
}

const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex')

/** The sha256 of the entry's addon when it is there and its bytes hash to the checksum written with it. */
async function intact(dir: string): Promise<string | undefined> {
  try {
    const [bytes, checksum] = await Promise.all([readFile(path.join(dir, ADDON_FILE)), readFile(path.join(dir, CHECKSUM_FILE), 'utf8')])
    const actual = sha256(bytes)
    return actual === checksum.trim() ? actual : undefined
  } catch {
    return undefined
  }
}

/** Moves a damaged entry out of the way in one rename (nobody loads half of it), then deletes it. */
async function discard(dir: string): Promise<void> {
  const aside = `${dir}.damaged-${process.pid}-${randomBytes(6).toString('hex')}`
  await rename(dir, aside).catch(() => {})
  await rm(aside, { recursive: true, force: true }).catch(() => {})
}

/** Temp directories of this hash's builds whose process is gone (killed midway); running builds' are kept. */
async function removeAbandoned(cacheDir: string, hash: string): Promise<void> {
  const entries = await readdir(cacheDir).catch(() => [] as string[])
  for (const name of entries) {
    const pid = new RegExp(`^${hash}\\.(?:tmp|damaged)-(\\d+)-`).exec(name)?.[1]
    if (pid !== undefined && !alive(Number(pid))) await rm(path.join(cacheDir, name), { recursive: true, force: true }).catch(() => {})
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'
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
    .replace(/\.\.\/(polykern\w*\.c)/g, '$1')
  return text.length > 8000 ? `${text.slice(0, 8000)}\n...` : text || 'node-gyp failed without output'
}
