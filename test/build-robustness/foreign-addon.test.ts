/**
 * A bundle shipped where its addon cannot run: an addon built for a newer Node-API (Node 20 crashes loading one,
 * so the loader must not try), for another CPU architecture, for CPU features this machine lacks, or a damaged
 * file. Each time the bundle runs on its JS loops, correctly, with exactly one warning naming the reason.
 */
import { cpSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { buildAddon } from '../../plugin/addon/build.ts'
import { NAPI_VERSION } from '../../plugin/emit/napi.ts'
import { runBundle, scratch, startBundler } from './fixture.ts'

const dir = scratch('foreign')
afterAll(() => rmSync(dir, { recursive: true, force: true }))

let built: string
beforeAll(async () => {
  const run = await startBundler('esbuild', path.join(dir, 'built'), path.join(dir, 'cache')).done
  expect(run.status, run.stderr).toBe(0)
  built = path.dirname(JSON.parse(run.stdout).bundle)
  // Shipped: the build machine's cache is not there.
  renameSync(path.join(dir, 'cache'), path.join(dir, 'cache-elsewhere'))
}, 180_000)

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
