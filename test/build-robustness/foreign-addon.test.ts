/**
 * A bundle shipped where its addon cannot run: an addon built for a newer Node-API (Node 20 crashes loading one,
 * so the loader must not try), for another CPU architecture, for CPU features this machine lacks, a damaged file,
 * or another module's addon exporting kernels of the same names. Each time the bundle runs on its JS loops,
 * correctly, with exactly one warning naming the reason. And another module's addon put in the build cache with its
 * checksum is rebuilt, not shipped.
 */
import { createHash } from 'node:crypto'
import { cpSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { buildAddon } from '../../plugin/addon/build.ts'
import { NAPI_VERSION } from '../../plugin/emit/napi.ts'
import { resolveOptions } from '../../plugin/options.ts'
import { compileModule } from '../../plugin/pipeline.ts'
import { carriesIdentity } from '../../runtime/identity.ts'
import { fixtureRoot } from '../bundlers/build.ts'
import { bundleFixture, cacheEntries, runBundle, scratch } from './fixture.ts'

const dir = scratch('foreign')
afterAll(() => rmSync(dir, { recursive: true, force: true }))

let built: string
/** Another module's addon: the fixture's kernels, but its matmul computes 2·A·B. */
let foreign: { path: string; sha256: string }
beforeAll(async () => {
  built = path.dirname(await bundleFixture(path.join(dir, 'built'), path.join(dir, 'cache')))
  // Shipped: the build machine's cache is not there.
  renameSync(path.join(dir, 'cache'), path.join(dir, 'cache-elsewhere'))

  const other = path.join(dir, 'other')
  mkdirSync(other)
  const code = readFileSync(path.join(fixtureRoot, 'src/kernels.ts'), 'utf8')
  const doubled = code.replace('C[i, j] +=! A[i, k] * B[k, j]', 'C[i, j] +=! 2 * A[i, k] * B[k, j]')
  expect(doubled).not.toBe(code)
  const compiled = await compileModule(path.join(other, 'kernels.ts'), doubled, resolveOptions({ root: other, cacheDir: path.join(other, 'cache') }))
  const addon = compiled?.addon
  if (!addon) throw new Error(`the other module's addon did not build: ${compiled?.warnings.map((w) => w.message).join('\n')}`)
  foreign = { path: addon.path, sha256: readFileSync(`${addon.path}.sha256`, 'utf8').trim() }
}, 300_000)

/** A copy of the shipped bundle with its addon and bundle text changed; runs it and returns its one warning. */
function shipped(name: string, change: (addon: string, bundle: string) => void): string {
  const to = path.join(dir, name)
  cpSync(built, to, { recursive: true })
  const addon = path.join(to, readdirSync(to).find((f) => f.endsWith('.node'))!)
  change(addon, path.join(to, 'main.mjs'))
  const { out, warnings, stderr } = runBundle(path.join(to, 'main.mjs'))
  expect(out.ran.every((k) => !k.native)).toBe(true)
  expect(warnings).toBe(1)
  return stderr
}

const edit = (file: string, from: string, to: string) => {
  const text = readFileSync(file, 'utf8')
  expect(text).toContain(from)
  writeFileSync(file, text.replace(from, to))
}

test('the shipped bundle runs natively as built', () => {
  const { out, warnings } = runBundle(path.join(built, 'main.mjs'))
  expect(out.ran.every((k) => k.native)).toBe(true)
  expect(warnings).toBe(0)
})

test('an addon built for a newer Node-API than this Node.js has', async () => {
  const newer = Number(process.versions.napi) + 1
  const source = `#undef NAPI_VERSION\n#define NAPI_VERSION ${newer}\n#include <node_api.h>\nNAPI_MODULE_INIT() { return exports; }\n`
  const addon = await buildAddon({ sources: [{ name: 'polykern.c', text: source }], cacheDir: path.join(dir, 'napi-cache') })
  if (!addon.ok) throw new Error(addon.error)
  const stderr = shipped('napi', (file, bundle) => {
    cpSync(addon.path, file)
    edit(bundle, `napiVersion: ${NAPI_VERSION}`, `napiVersion: ${newer}`)
  })
  expect(stderr).toContain(`It was built for Node-API ${newer}; this Node.js supports ${process.versions.napi}`)
}, 120_000)

test('an addon built for another CPU architecture', () => {
  const stderr = shipped('aarch64', (file) => {
    const bytes = readFileSync(file)
    bytes.writeUInt16LE(183, 18) // ELF e_machine: EM_AARCH64
    writeFileSync(file, bytes)
  })
  expect(stderr).toMatch(/could not load the native kernels.*Tried: .*\.node \(/s)
})

test('an addon whose lowest ISA needs a CPU feature this machine lacks', () => {
  const stderr = shipped('cpu', (_, bundle) => edit(bundle, 'requires: []', 'requires: ["polykern_missing_feature"]'))
  expect(stderr).toContain('This CPU lacks polykern_missing_feature')
})

test('a damaged addon file', () => {
  const stderr = shipped('damaged', (file) => writeFileSync(file, readFileSync(file).subarray(0, 4096)))
  expect(stderr).toContain('could not load the native kernels')
})

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')

test("another module's addon with the same kernels, beside the bundle with its sha256: refused before it loads", () => {
  const stderr = shipped('foreign', (file, bundle) => {
    edit(bundle, `sha256: "${sha256(readFileSync(file))}"`, `sha256: "${foreign.sha256}"`)
    cpSync(foreign.path, file)
  })
  expect(stderr).toMatch(/could not load the native kernels.*Tried: .*\.node \(not built from this bundle's kernels: it lacks their identity [0-9a-f]{16}\)/s)
})

test("the build cache's addon replaced, with its .sha256, by another module's: rebuilt, and the bundle ships its own", async () => {
  // The build machine's cache as the first build left it, then poisoned.
  const cacheDir = path.join(dir, 'poisoned-cache')
  cpSync(path.join(dir, 'cache-elsewhere'), cacheDir, { recursive: true })
  const [hash] = cacheEntries(cacheDir).addons
  const entry = path.join(cacheDir, hash, 'polykern.node')
  cpSync(foreign.path, entry)
  cpSync(`${foreign.path}.sha256`, `${entry}.sha256`)

  const second = await bundleFixture(path.join(dir, 'poison-second'), cacheDir)
  const shipped = readdirSync(path.dirname(second)).find((f) => f.endsWith('.node'))!
  const bytes = readFileSync(path.join(path.dirname(second), shipped))
  expect(bytes.equals(readFileSync(foreign.path))).toBe(false)
  expect(carriesIdentity(bytes, hash)).toBe(true)
  const { out, warnings } = runBundle(second) // the fixture's references: a doubled matmul fails them
  expect(out.ran.every((k) => k.native)).toBe(true)
  expect(warnings).toBe(0)
  // The entry was rebuilt in place: its own bytes, its own checksum, nothing left over.
  expect(carriesIdentity(readFileSync(entry), hash)).toBe(true)
  expect(sha256(readFileSync(entry))).toBe(readFileSync(`${entry}.sha256`, 'utf8').trim())
  expect(cacheEntries(cacheDir)).toEqual({ addons: [hash], leftovers: [] })
}, 300_000)
