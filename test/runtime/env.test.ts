/**
 * POLYKERN_ISA, POLYKERN_THREADS and POLYKERN_NATIVE at run time: a value that is not accepted was ignored (or, for
 * threads above 256, clamped) without a word. Now each is a `runtime_env_invalid` warning naming the variable, the
 * value and what is accepted (once per process for the two the addon reads, once per thread for POLYKERN_NATIVE),
 * and the kernels run on the default (or the clamped count) and stay right.
 * Each case is a child process with that environment, loading a real bundle in its main thread and a worker.
 */
import { spawnSync } from 'node:child_process'
import os from 'node:os'
import path from 'node:path'
import { beforeAll, expect, it } from 'vitest'
import { runnableIsas } from '../support/cpu.ts'
import { bundleForNode } from '../support/esbuild-bundle.ts'

const out = path.resolve(import.meta.dirname, '../.out/env')
const child = path.join(import.meta.dirname, 'env-child.mjs')
/** What the addon takes for "the CPUs this process may use" (its affinity mask), as Node counts it. */
const usable = os.availableParallelism()
const best = runnableIsas[0]

let bundle: string
beforeAll(async () => {
  bundle = await bundleForNode(path.resolve(import.meta.dirname, '../workers/kernels.ts'), out)
})

/** Runs the child with `env` (other POLYKERN_ variables cleared); what it reports and the warnings it printed. */
function load(env: Record<string, string>) {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('POLYKERN_')))
  const run = spawnSync(process.execPath, [child, bundle, 'worker'], { env: { ...base, ...env }, encoding: 'utf8', timeout: 60_000 })
  expect(run.status, run.stderr).toBe(0)
  const warnings = run.stderr.split('\n').filter((l) => l.includes('[runtime_env_invalid]'))
  return { ...(JSON.parse(run.stdout) as { native: boolean; isa?: string; threads?: number }), warnings }
}

it('accepted values: no warning, and they apply', () => {
  for (const isa of runnableIsas) expect(load({ POLYKERN_ISA: isa })).toMatchObject({ native: true, isa, warnings: [] })
  expect(load({ POLYKERN_THREADS: '1' })).toMatchObject({ native: true, threads: 1, warnings: [] })
  expect(load({ POLYKERN_THREADS: String(usable) })).toMatchObject({ threads: usable, warnings: [] })
  expect(load({ POLYKERN_NATIVE: '1' })).toMatchObject({ native: true, warnings: [] })
  expect(load({ POLYKERN_NATIVE: '0' })).toMatchObject({ native: false, warnings: [] })
})

it('POLYKERN_ISA not an ISA of the addon (wrong case, unknown): one warning listing the names, the best ISA', () => {
  for (const value of ['AVX2', 'garbage', ' avx2']) {
    const run = load({ POLYKERN_ISA: value })
    expect(run).toMatchObject({ native: true, isa: best })
    expect(run.warnings).toHaveLength(1)
    expect(run.warnings[0]).toContain(`POLYKERN_ISA='${value}' names no ISA of this addon; accepted: avx512, avx2, scalar`)
    expect(run.warnings[0]).toContain(`using ${best}`)
  }
})

it('POLYKERN_THREADS not a whole number from 1 up: one warning, the default thread count', () => {
  for (const value of ['0', '-1', '2abc', '1.5', ' 2', 'two']) {
    const run = load({ POLYKERN_THREADS: value })
    expect(run).toMatchObject({ native: true, threads: usable })
    expect(run.warnings).toHaveLength(1)
    expect(run.warnings[0]).toContain(`POLYKERN_THREADS='${value}' is not a number of threads; accepted: a whole number from 1 to ${usable}`)
  }
})

it('POLYKERN_THREADS beyond the CPUs the process may use: clamped to them, with one warning', () => {
  for (const value of [String(usable + 1), '1000', '99999999999999999999']) {
    const run = load({ POLYKERN_THREADS: value })
    expect(run).toMatchObject({ native: true, threads: usable })
    expect(run.warnings).toHaveLength(1)
    expect(run.warnings[0]).toContain(`POLYKERN_THREADS='${value}' is more than the ${usable} CPUs this process may use`)
  }
})

it('POLYKERN_NATIVE neither 0 nor 1: native kernels, one warning per thread that loads a bundle (read in JS)', () => {
  const run = load({ POLYKERN_NATIVE: 'false' })
  expect(run).toMatchObject({ native: true })
  const warning = expect.stringContaining("POLYKERN_NATIVE='false' is not accepted; accepted: 0 (the JS loops) or 1")
  expect(run.warnings).toEqual([warning, warning])
})

it('both addon variables wrong at once: one warning each', () => {
  const run = load({ POLYKERN_ISA: 'sse', POLYKERN_THREADS: '0' })
  expect(run.warnings).toHaveLength(2)
})
