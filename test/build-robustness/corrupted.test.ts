/**
 * A damaged cache entry (bytes flipped, truncated, emptied, swapped for another addon, or its checksum gone) is
 * found by the checksum written with it, discarded and rebuilt; the bundle then runs natively and correctly.
 */
import { readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs'
import { createHash } from 'node:crypto'
import path from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { buildAddon } from '../../plugin/addon/build.ts'
import { bundleFixture, cacheEntries, runBundle, scratch } from './fixture.ts'

const dir = scratch('corrupted')
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')

test('each kind of damage is detected and the entry rebuilt', async () => {
  const cacheDir = path.join(dir, 'cache')
  const bundle = (name: string) => bundleFixture(path.join(dir, name), cacheDir)
  await bundle('clean')
  const [hash] = cacheEntries(cacheDir).addons
  const addon = path.join(cacheDir, hash, 'polykern.node')
  const good = readFileSync(addon)
  const other = await buildAddon({ sources: [{ name: 'polykern.c', text: '#include <node_api.h>\nNAPI_MODULE_INIT() { return exports; }\n' }], cacheDir: path.join(dir, 'other') })
  if (!other.ok) throw new Error(other.error)

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
    const { out } = runBundle(await bundle(what.replace(/ /g, '-')))
    expect(out.ran.every((k) => k.native), what).toBe(true)
    expect(sha256(readFileSync(addon)), what).toBe(readFileSync(`${addon}.sha256`, 'utf8').trim())
    expect(cacheEntries(cacheDir), what).toEqual({ addons: [hash], leftovers: [] })
  }
}, 300_000)
