/**
 * worker_threads that load a polykern bundle on their own (the main thread never does), run a GEMM and a
 * convolution natively, and end. Node unloads an addon when the worker that loaded it ends, while the addon's pool
 * threads and the thread-exit destructors of its pack buffers live on: that killed the process (SIGSEGV) on the
 * way out. Each scenario runs in a child process, which must exit 0: at every ISA this CPU runs and 1 and 2 threads,
 * sync and `.async`; 50 cycles of 4 workers; terminate() during a long call; and the same (10 cycles) with the
 * addon built under AddressSanitizer and UndefinedBehaviorSanitizer.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { readFileSync, readdirSync } from 'node:fs'
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { findKernelSites } from '../../plugin/find/annotations.ts'
import { resolveOptions } from '../../plugin/options.ts'
import { runnableIsas } from '../support/cpu.ts'
import { bundleForNode } from '../support/esbuild-bundle.ts'
import { buildAll, compileAll } from '../fuzz/differential.ts'
import { SANITIZER_FLAGS, runSanitized } from '../sanitize/sanitizers.ts'

const root = path.resolve(import.meta.dirname, '../..')
const out = path.join(root, 'test/.out/workers')
const cacheDir = 'node_modules/.cache/polykern-test'
const kernelsFile = path.join(import.meta.dirname, 'kernels.ts')
const runner = path.join(import.meta.dirname, 'run-workers.mjs')

let bundle: string
beforeAll(async () => {
  bundle = await bundleForNode(kernelsFile, out)
})

/** `run-workers.mjs scenario target` in a child process; its exit status and what it printed. */
function scenario(name: string, target: string, env: NodeJS.ProcessEnv = {}) {
  const child = spawnSync(process.execPath, [runner, name, target], { env: { ...process.env, ...env }, encoding: 'utf8', timeout: 120_000 })
  return { status: child.status, signal: child.signal, output: `${child.stdout}${child.stderr}` }
}

describe('a worker that alone loads the bundle, runs sync then .async, and exits', () => {
  for (const isa of runnableIsas) {
    for (const threads of [1, 2]) {
      it(`${isa}, ${threads} thread${threads > 1 ? 's' : ''}`, () => {
        const run = scenario('alone', bundle, { POLYKERN_ISA: isa, POLYKERN_THREADS: String(threads) })
        expect(run, run.output).toMatchObject({ status: 0, signal: null })
      })
    }
  }
})

it('50 cycles of 4 workers created, run and exited', () => {
  const run = scenario('cycles', bundle, { POLYKERN_THREADS: '2' })
  expect(run, run.output).toMatchObject({ status: 0, signal: null })
})

it('terminate() of an idle worker, during a long sync call and during a long .async call', () => {
  const run = scenario('terminate', bundle, { POLYKERN_THREADS: '2' })
  expect(run, run.output).toMatchObject({ status: 0, signal: null })
})

it('the shipped addon is linked never to be unloaded (DF_1_NODELETE)', () => {
  const addons = readdirSync(out).filter((f) => f.endsWith('.node'))
  expect(addons).toHaveLength(1)
  expect(execFileSync('readelf', ['--dynamic', path.join(out, addons[0])], { encoding: 'utf8' })).toMatch(/FLAGS_1\)\s+Flags:.*\bNODELETE\b/)
})

/**
 * Sanitized, `cycles` runs 10 rounds: a worker takes about 3 times as long under the sanitizers, and a bad access is
 * reported the first time it happens. The 50 rounds above are the ones that look for a rare exit-order crash.
 */
const SANITIZED_CYCLES = '10'

describe('under AddressSanitizer and UndefinedBehaviorSanitizer', () => {
  let addon: string
  beforeAll(async () => {
    const code = readFileSync(kernelsFile, 'utf8')
    const texts = findKernelSites(kernelsFile, code).map((s) => ({ name: s.name, spec: s.specText, params: s.params.map((p) => p.name) }))
    const compiled = compileAll(texts, kernelsFile, resolveOptions({ root, cacheDir }))
    addon = await buildAll(compiled, 'test/workers/kernels.ts', path.join(root, cacheDir), SANITIZER_FLAGS)
  })
  for (const name of ['alone', 'cycles', 'terminate']) {
    it(name, () => {
      const run = runSanitized(runner, [name, `addon:${addon}`, ...(name === 'cycles' ? [SANITIZED_CYCLES] : [])], 300_000)
      expect(run.reports).toEqual([])
      expect(run, run.stderr).toMatchObject({ status: 0 })
    })
  }
})
