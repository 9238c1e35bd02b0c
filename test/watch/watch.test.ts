/**
 * Watch mode and dev servers, per bundler, on a temporary copy of test/watch/fixture: the first output runs
 * natively; a spec edit recompiles that kernel only and the output loads a new addon; a body edit recompiles no
 * kernel and keeps the addon. Recompilation is counted by the plugin's kernel tallies, not timed.
 * One cache directory for the file, so each distinct addon is built by node-gyp once, whichever bundler comes first.
 */
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { kernelTally } from '../../plugin/kernel-memo.ts'
import { copyFixture } from './project.ts'
import type { FixtureResults, Project } from './project.ts'
import { WATCHERS } from './watchers.ts'
import type { Session, Watcher } from './watchers.ts'

const cacheDir = path.join(import.meta.dirname, '../.out/watch/cache')

const SPEC_EDIT = { from: 's[i] +=! X[i, j]', to: 's[i] +=! X[i, j] * X[i, j]' }
const BODY_EDIT = { from: 'unreachable after polykern: ${[x, y, N].length}', to: 'replaced by polykern: ${[x, y, N].length}' }

const LEAVES_ADDON_ALONE: readonly Watcher[] = ['vite', 'esbuild', 'esbuild-rebuild']

const fileIdentity = (file: string) => {
  const { ino, mtimeMs } = fs.statSync(file)
  return { ino, mtimeMs }
}

const addonOf = (out: FixtureResults) => {
  const paths = new Set(out.ran.map((k) => k.addonPath))
  expect(paths.size, JSON.stringify(out.ran)).toBe(1)
  return [...paths][0]!
}

describe.each(Object.keys(WATCHERS) as Watcher[])('%s', (watcher) => {
  let project: Project
  let session: Session
  /** The addon each step's output loaded. */
  const loaded: string[] = []
  const tallies = () => ({ scale: kernelTally(project.kernelsFile, 'scale'), rowSums: kernelTally(project.kernelsFile, 'rowSums') })
  const cacheEntries = () => fs.readdirSync(cacheDir).filter((f) => /^[0-9a-f]{64}$/.test(f)).sort()

  beforeAll(async () => {
    fs.mkdirSync(cacheDir, { recursive: true })
    project = copyFixture(watcher)
    session = await WATCHERS[watcher](project, { root: project.root, cacheDir, quiet: true, calibrate: false })
  })
  afterAll(async () => {
    await session?.close()
    project?.remove()
  })

  test('the first output runs both kernels natively', async () => {
    const out = await session.results()
    expect(out.scaled).toEqual([2, 4, 6])
    expect(out.sums).toEqual([6, 15])
    expect(out.ran.map((k) => [k.name, k.native])).toEqual([['scale', true], ['rowSums', true]])
    loaded.push(addonOf(out))
    // A bundle loads the copy beside it; the dev server, which writes nothing, the build cache's.
    if (session.bundle) expect(path.dirname(loaded[0])).toBe(project.outDir)
    else expect(path.dirname(path.dirname(loaded[0]))).toBe(cacheDir)
    expect(tallies()).toEqual({ scale: { compiled: 1, unchanged: 0 }, rowSums: { compiled: 1, unchanged: 0 } })
  })

  test('a spec edit recompiles that kernel only, and the output loads the new addon', async () => {
    const out = await session.rebuild({ file: project.kernelsFile, ...SPEC_EDIT })
    expect(out.sums).toEqual([1 + 4 + 9, 16 + 25 + 36])
    expect(out.scaled).toEqual([2, 4, 6])
    expect(out.ran.map((k) => k.native)).toEqual([true, true])
    loaded.push(addonOf(out))
    // A new file (beside the bundle: a new name; in the cache: a new hash directory), so no require cache hands back the old one.
    expect(loaded[1]).not.toBe(loaded[0])
    expect(tallies()).toEqual({ scale: { compiled: 1, unchanged: 1 }, rowSums: { compiled: 2, unchanged: 0 } })
    if (session.bundle) {
      // The old addon stays in the output directory (nothing deletes it); the bundle names only the new one.
      expect(fs.existsSync(loaded[0])).toBe(true)
      const text = fs.readFileSync(session.bundle, 'utf8')
      expect(text).toContain(path.basename(loaded[1]))
      expect(text).not.toContain(path.basename(loaded[0]))
    }
  })

  test('a body edit recompiles no kernel and builds no addon', async () => {
    const entries = cacheEntries()
    const written = fileIdentity(loaded[1])
    const out = await session.rebuild({ file: project.kernelsFile, ...BODY_EDIT })
    expect(out.sums).toEqual([14, 77])
    expect(out.scaled).toEqual([2, 4, 6])
    expect(addonOf(out)).toBe(loaded[1])
    expect(tallies()).toEqual({ scale: { compiled: 1, unchanged: 2 }, rowSums: { compiled: 2, unchanged: 1 } })
    expect(cacheEntries()).toEqual(entries)
    // An app still running on the addon can crash if its file is rewritten in place: polykern's own copies (esbuild)
    // and the build cache (Vite dev) are left alone. Rollup and webpack rewrite every emitted asset on every build.
    if (LEAVES_ADDON_ALONE.includes(watcher)) expect(fileIdentity(loaded[1])).toEqual(written)
  })
})
