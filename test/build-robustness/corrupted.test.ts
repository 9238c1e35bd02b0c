/**
 * A damaged cache entry (bytes flipped, truncated, emptied, swapped for another addon, or its checksum gone) is
 * found by the checksum written with it, discarded and rebuilt in place. The entry is a one-function addon's, so that
 * each of the five rebuilds takes a second: the check is the cache's, the same for every addon. That a bundler then
 * ships the rebuilt addon and the bundle runs natively is foreign-addon.test.ts's poisoned-cache case (a damaged entry
 * whose checksum still matches), on the bundler fixture.
 */
import { createHash } from 'node:crypto'
import { readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { buildAddon, type AddonBuildRequest } from '../../plugin/addon/build.ts'
import { carriesIdentity } from '../../runtime/identity.ts'
import { cacheEntries, scratch } from './fixture.ts'

const dir = scratch('corrupted')
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')
const addonSource = (value: number) => `#include <node_api.h>\nNAPI_MODULE_INIT() { napi_value v; napi_create_int32(env, ${value}, &v); return v; }\n`

/** A build that must succeed; its result. */
async function build(req: AddonBuildRequest) {
  const built = await buildAddon(req)
  if (!built.ok) throw new Error(built.error)
  return built
}

test('each kind of damage is detected and the entry rebuilt', async () => {
  const request = { sources: [{ name: 'polykern.c', text: addonSource(1) }], cacheDir: path.join(dir, 'cache') }
  const clean = await build(request)
  const addon = clean.path
  const good = readFileSync(addon)
  const other = await build({ sources: [{ name: 'polykern.c', text: addonSource(2) }], cacheDir: path.join(dir, 'other') })

  const damage: Record<string, () => void> = {
    'bytes flipped': () => {
      const bytes = Buffer.from(good)
      for (let i = bytes.length >> 1; i < (bytes.length >> 1) + 64; i++) bytes[i] ^= 0xff
      writeFileSync(addon, bytes)
    },
    truncated: () => writeFileSync(addon, good.subarray(0, good.length >> 1)),
    emptied: () => writeFileSync(addon, ''),
    'another addon': () => writeFileSync(addon, readFileSync(other.path)),
    'checksum gone': () => unlinkSync(`${addon}.sha256`),
  }
  for (const [what, harm] of Object.entries(damage)) {
    harm()
    const logged: string[] = []
    const rebuilt = await build({ ...request, log: (line) => logged.push(line) })
    expect(rebuilt, what).toMatchObject({ path: addon, hash: clean.hash, cached: false })
    expect(logged[0], what).toMatch(/^discarding the cache entry [0-9a-f]{12}: damaged/)
    const bytes = readFileSync(addon)
    expect(carriesIdentity(bytes, clean.hash), what).toBe(true)
    expect(sha256(bytes), what).toBe(readFileSync(`${addon}.sha256`, 'utf8').trim())
    expect(cacheEntries(request.cacheDir), what).toEqual({ addons: [clean.hash], leftovers: [] })
    // The rebuilt entry is whole again: the next build takes it from the cache.
    expect(await build(request), what).toMatchObject({ path: addon, cached: true })
  }
}, 120_000)
