/**
 * Builds running at once compile a shared object file once (addon/claims.ts): the second waits for the first's
 * claim and links the object it left. A claim whose process is gone, one older than a build may take, and one left
 * half-written are taken over; a claim is never left behind. The addons here are two-line C files, one of them
 * shared, so each build costs node-gyp's configure and a link.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { spawnSync } from 'node:child_process'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeEach, expect, it, vi } from 'vitest'
import { buildAddon } from '../../plugin/addon/build.ts'
import type { AddonFile } from '../../plugin/emit/napi.ts'

const root = mkdtempSync(path.join(os.tmpdir(), 'polykern-claims-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

const SHARED: AddonFile = { name: 'pk_ukr_probe.c', text: 'int pk_probe(int x) { return x + 1; }\n', shared: true }
const sources = (main: string): AddonFile[] => [{ name: 'polykern.c', text: `int pk_probe(int); int ${main}(void) { return pk_probe(1); }\n` }, SHARED]

let cacheDir: string
let objects: string
beforeEach(({ task }) => {
  // The suite points every build at one objects folder (vitest.config.ts); each test here watches its own.
  vi.stubEnv('POLYKERN_OBJECT_CACHE', '')
  cacheDir = path.join(root, task.id)
  objects = path.join(cacheDir, 'objects')
  mkdirSync(objects, { recursive: true })
})

async function build(main: string, onLog: (line: string) => void = () => {}, cache = cacheDir) {
  const log: string[] = []
  const built = await buildAddon({ sources: sources(main), cacheDir: cache, log: (line) => (log.push(line), onLog(line)) })
  if (!built.ok) throw new Error(built.error)
  return log.join('\n')
}

const claimsLeft = (): string[] => readdirSync(objects).filter((f) => f.endsWith('.claim'))
const objectFiles = (): string[] => readdirSync(objects).filter((f) => f.endsWith('.o'))

/** The scratch cache a build of SHARED compiled into once: where the name of its object (and claim) is found. */
const scratch = path.join(root, 'scratch')

/** The claim a build of SHARED creates in this test's cache. */
async function claimPath(): Promise<string> {
  await build('scratch', undefined, scratch)
  const [object] = readdirSync(path.join(scratch, 'objects')).filter((f) => f.endsWith('.o'))
  return path.join(objects, `${object}.claim`)
}

it('two builds at once: one compiles the shared object, the other waits for it and links it', async () => {
  const logs = await Promise.all([build('first'), build('second')])
  const compiled = logs.filter((l) => l.includes("0 of 1 tile families' object files reused"))
  const linked = logs.filter((l) => l.includes("1 of 1 tile families' object files reused"))
  expect(compiled, logs.join('\n---\n')).toHaveLength(1)
  expect(linked, logs.join('\n---\n')).toHaveLength(1)
  expect(linked[0]).toContain('waiting for another build compiling the same tile families')
  expect(linked[0]).toMatch(/waited \d+ ms for tile families other builds were compiling/)
  expect(objectFiles()).toHaveLength(1)
  expect(claimsLeft()).toEqual([])
}, 120_000)

it('a build waits while a live build holds the claim, and links the object that build leaves', async () => {
  const claim = await claimPath()
  const object = claim.replace(/\.claim$/, '')
  writeFileSync(claim, JSON.stringify({ pid: process.pid, host: os.hostname(), since: Date.now() }))
  let released = false
  const log = build('waiting', (line) => {
    // The claims are read right after this line; the holder "finishes" a while later.
    if (!line.startsWith('building native addon')) return
    setTimeout(() => {
      rmSync(claim)
      released = true
    }, 1_500).unref()
  })
  // What the holder would have compiled: the scratch build's object.
  const scratchObject = path.join(scratch, 'objects', path.basename(object))
  setTimeout(() => writeFileSync(object, readFileSync(scratchObject)), 1_000).unref()
  const text = await log
  expect(released).toBe(true)
  const waited = Number(/waited (\d+) ms/.exec(text)?.[1])
  expect(waited, text).toBeGreaterThanOrEqual(1_000)
  expect(text).toContain("1 of 1 tile families' object files reused")
  expect(claimsLeft()).toEqual([])
}, 120_000)

it("a claim whose process is gone, one held longer than a build may take, and a half-written one are taken over", async () => {
  const claim = await claimPath()
  const gone = spawnSync(process.execPath, ['-e', '0']).pid!
  const stale = [
    JSON.stringify({ pid: gone, host: os.hostname(), since: Date.now() }),
    JSON.stringify({ pid: process.pid, host: os.hostname(), since: Date.now() - 11 * 60_000 }),
    '{"pid": 1',
  ]
  for (const [n, text] of stale.entries()) {
    rmSync(objects, { recursive: true, force: true })
    mkdirSync(objects)
    writeFileSync(claim, text)
    if (n === 2) utimesSync(claim, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000))
    const log = await build(`stale${n}`)
    expect(log, text).not.toContain('waited')
    expect(log, text).toContain("0 of 1 tile families' object files reused")
    expect(existsSync(claim), text).toBe(false)
    expect(objectFiles()).toHaveLength(1)
  }
}, 120_000)
