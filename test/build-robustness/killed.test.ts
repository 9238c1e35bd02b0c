/**
 * A bundler process killed (SIGKILL, with its node-gyp and compiler) while it compiles the addon: the cache keeps
 * no entry for it, and the next build builds it, cleans up the dead build's temp directory, and ships a working addon.
 */
import { existsSync, readdirSync, rmSync } from 'node:fs'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, expect, test } from 'vitest'
import { cacheEntries, runBundle, scratch, startBundler } from './fixture.ts'

const dir = scratch('killed')
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** The temp directory of a build whose compiler has started (node-gyp wrote its object directory). */
function compiling(cacheDir: string): string | undefined {
  if (!existsSync(cacheDir)) return undefined
  return readdirSync(cacheDir).find((n) => n.includes('.tmp-') && existsSync(path.join(cacheDir, n, 'build', 'Release', 'obj.target')))
}

test('a build killed while compiling is recovered by the next build', async () => {
  const cacheDir = path.join(dir, 'cache')
  const first = startBundler('esbuild', path.join(dir, 'first'), cacheDir)
  let tmp: string | undefined
  for (let waited = 0; !(tmp = compiling(cacheDir)) && waited < 60_000; waited += 20) await sleep(20)
  expect(tmp, 'the first build never reached the compiler').toBeDefined()
  process.kill(-first.process.pid!, 'SIGKILL')
  const killed = await first.done
  expect(killed.signal).toBe('SIGKILL')
  expect(cacheEntries(cacheDir)).toEqual({ addons: [], leftovers: [tmp] })

  const second = await startBundler('esbuild', path.join(dir, 'second'), cacheDir).done
  expect(second.status, second.stderr).toBe(0)
  const { warnings } = JSON.parse(second.stdout) as { warnings: string[] }
  expect(warnings).toEqual([])
  const { out } = runBundle(JSON.parse(second.stdout).bundle)
  expect(out.ran.every((k) => k.native)).toBe(true)
  const after = cacheEntries(cacheDir)
  expect(after.addons).toHaveLength(1)
  expect(after.leftovers).toEqual([])
}, 180_000)
