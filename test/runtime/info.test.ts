/**
 * polykernInfo(fn), the public way to see whether a kernel function runs natively, on which ISA and threads, from
 * which addon, why not, and where a call goes; and setThreads from one bundle's copy of the runtime reaching the
 * addon another bundle loaded. Two bundles of the same kernel, each with its own runtime, in a child process.
 */
import { cpSync, mkdirSync, readdirSync, rmSync } from 'node:fs'
import { spawnSync } from 'node:child_process'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { beforeAll, expect, it } from 'vitest'
import { runnableIsas } from '../support/cpu.ts'
import { bundleForNode } from '../support/esbuild-bundle.ts'

const out = path.resolve(import.meta.dirname, '../.out/info')
const entry = path.join(import.meta.dirname, 'info-entry.ts')
const child = path.join(import.meta.dirname, 'info-child.mjs')
let first: string
let second: string
beforeAll(async () => {
  first = await bundleForNode(entry, path.join(out, 'first'))
  second = await bundleForNode(entry, path.join(out, 'second'))
})

function info(bundles: readonly string[], env: NodeJS.ProcessEnv = {}) {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('POLYKERN_')))
  const run = spawnSync(process.execPath, [child, ...bundles], { env: { ...base, ...env }, encoding: 'utf8' })
  expect(run.status, run.stderr).toBe(0)
  return { ...(JSON.parse(run.stdout) as Record<'before' | 'after', Record<string, unknown>[]> & { refused: Record<string, string> }), stderr: run.stderr }
}

it('native: the ISA, the threads, the addon; setThreads from one runtime copy reaches the other bundle', () => {
  const { before, after, refused } = info([first, second])
  const addonOf = (bundle: string) => path.join(path.dirname(fileURLToPath(bundle)), readdirSync(path.dirname(fileURLToPath(bundle))).find((f) => f.endsWith('.node'))!)
  expect(before).toEqual([first, second].map((b) => ({
    native: true, isa: runnableIsas[0], threads: os.availableParallelism(), addon: addonOf(b), reason: null, route: 'native',
  })))
  expect(after.map((i) => i.threads)).toEqual([1, 1])
  expect(refused).toMatchObject({ name: 'TypeError', code: 'runtime_not_kernel' })
  expect(refused.message).toContain("'plain' is not a /* @kernel */ function compiled by polykern")
})

it('the JS loops: why, and no ISA or threads', () => {
  const chosen = info([first], { POLYKERN_NATIVE: '0' })
  expect(chosen.before).toEqual([{ native: false, isa: null, threads: null, addon: null, reason: 'POLYKERN_NATIVE=0', route: 'js' }])
  const alone = path.join(out, 'alone')
  rmSync(alone, { recursive: true, force: true })
  mkdirSync(alone)
  cpSync(fileURLToPath(first), path.join(alone, 'main.mjs'))
  const missing = info([pathToFileURL(path.join(alone, 'main.mjs')).href])
  expect(missing.before[0]).toMatchObject({ native: false, isa: null, addon: null, route: 'js' })
  expect(missing.before[0].reason).toMatch(/^could not load the native kernels for .*: Tried: .*alone\/polykern-[0-9a-f]+\.node \(/)
  expect(missing.stderr).toContain('PolykernWarning')
})
