/**
 * node-gyp's configuration of a build (the Makefiles gyp writes into `build/`), kept beside the shared object files
 * and copied into later builds of the same project files. `node-gyp configure` runs gyp in python: about 1 s of
 * every build, most of a small addon's 1.4 s. What gyp writes depends only on binding.gyp, kernels.gypi, the
 * Node.js headers and node-gyp (the key, with python's path and this Node's version); two of its strings are a
 * build's own, its directory and its addon's identity, and are kept as placeholders. An entry is one JSON file
 * with its own checksum, written whole in one rename; a damaged one is dropped and gyp runs. Nothing here is
 * needed: where a step fails, node-gyp configures as before.
 */
import { createHash } from 'node:crypto'
import { mkdir, readFile, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises'
import path from 'node:path'
import type { RunResult } from './toolchain.ts'
import { placeWhole } from './whole-file.ts'

/** What a build's configuration is made from; `identity` and `work` are the strings that differ between builds. */
export interface ConfigureInputs {
  readonly bindingGyp: string
  /** kernels.gypi as written for this build (with the identity). */
  readonly gypi: string
  readonly identity: string
  /** The build directory: node-gyp configures `work/build`. */
  readonly work: string
  /** Whatever else gyp's output depends on: node-gyp's script and version, python, the Node.js headers. */
  readonly toolchain: readonly string[]
}

interface Entry {
  readonly files: Readonly<Record<string, string>>
  readonly sha256: string
}

const WORK = '@@POLYKERN_BUILD_DIR@@'
const IDENTITY = '@@POLYKERN_IDENTITY@@'

/**
 * Puts `inputs.work`'s configuration in place: a cached one when `cacheDir` holds it (`reused`), else runs
 * `configure` and keeps what it wrote. Resolves with `configure`'s failure if it fails; never rejects.
 */
export async function configureBuild(
  inputs: ConfigureInputs, cacheDir: string, configure: () => Promise<RunResult>,
): Promise<{ readonly result: RunResult; readonly reused: boolean; readonly entry: string }> {
  const entry = path.join(cacheDir, `${configurationKey(inputs)}.configured.json`)
  const cached = await readEntry(entry)
  if (cached !== undefined) {
    try {
      const build = path.join(inputs.work, 'build')
      await mkdir(build, { recursive: true })
      for (const [name, text] of Object.entries(cached.files)) await writeFile(path.join(build, name), fill(text, inputs))
      // One time for all, after the sources': make remakes its Makefile (runs gyp, and prints) when any file it was
      // generated from is newer, and build/config.gypi is one of them.
      const now = new Date()
      for (const name of Object.keys(cached.files)) await utimes(path.join(build, name), now, now)
      return { result: { code: 0, stdout: '', stderr: '' }, reused: true, entry }
    } catch {
      await rm(path.join(inputs.work, 'build'), { recursive: true, force: true }).catch(() => {})
    }
  }
  const result = await configure()
  if (result.code === 0) await keep(entry, inputs).catch(() => {})
  return { result, reused: false, entry }
}

/** Drops an entry (a build it configured failed in make itself). */
export const discardConfiguration = (entry: string): Promise<void> => rm(entry, { force: true }).catch(() => {})

function configurationKey(inputs: ConfigureInputs): string {
  const hash = createHash('sha256')
  for (const part of ['binding.gyp', inputs.bindingGyp, 'kernels.gypi', inputs.gypi.split(inputs.identity).join(IDENTITY), ...inputs.toolchain]) {
    hash.update(`${Buffer.byteLength(part)}:`).update(part)
  }
  return hash.digest('hex')
}

/** The entry's files when it is whole and its checksum holds. */
async function readEntry(entry: string): Promise<Entry | undefined> {
  try {
    const parsed = JSON.parse(await readFile(entry, 'utf8')) as Entry
    if (typeof parsed.files !== 'object' || parsed.files === null || parsed.sha256 !== checksum(parsed.files)) throw new Error('damaged')
    if (Object.keys(parsed.files).some((name) => path.basename(name) !== name || name.startsWith('.'))) throw new Error('damaged')
    return parsed
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') await discardConfiguration(entry)
    return undefined
  }
}

/** The regular files gyp wrote into `build/`, with the build's own strings as placeholders, stored whole. */
async function keep(entry: string, inputs: ConfigureInputs): Promise<void> {
  const build = path.join(inputs.work, 'build')
  const files: Record<string, string> = {}
  for (const name of await readdir(build)) {
    if ((await stat(path.join(build, name))).isFile()) files[name] = placeholders(await readFile(path.join(build, name), 'utf8'), inputs)
  }
  await mkdir(path.dirname(entry), { recursive: true })
  await placeWhole(entry, (tmp) => writeFile(tmp, JSON.stringify({ files, sha256: checksum(files) })))
}

const checksum = (files: Readonly<Record<string, string>>): string => createHash('sha256').update(JSON.stringify(files)).digest('hex')
const placeholders = (text: string, inputs: ConfigureInputs): string => text.split(inputs.work).join(WORK).split(inputs.identity).join(IDENTITY)
const fill = (text: string, inputs: ConfigureInputs): string => text.split(WORK).join(inputs.work).split(IDENTITY).join(inputs.identity)
