/**
 * Every run-time error code of the README's table ("What a kernel returns, and what it checks"), thrown by a bundled
 * function of each form (declaration, arrow, function expression), sync and `.async`, with each bundler: the same
 * code and message on the native path and on the JS fallback; `runtime_arg_detached`, which only a native `.async`
 * call can meet (the JS loops finish within the call), on the native path. The bundle runs under a 3 GB address-space limit
 * (`ulimit -v`), so a 4 GB temporary fails to allocate on any machine (runtime_out_of_memory).
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { BUNDLERS, fixtureRoot, type Bundler } from './build.ts'

const cacheDir = path.join(import.meta.dirname, '../.out/bundlers/cache')
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'polykern-errors-'))
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }))

interface Outcome {
  readonly threw?: string
  readonly code?: string
  readonly kernel?: string
  readonly argument?: string
  readonly message?: string
  readonly returned?: number[]
}

/** What each call must end in: its code and error class, or its result. */
const EXPECTED: Record<string, { threw: string; code: string; kernel: string; argument?: string } | { returned: number[] }> = {
  'matmul: a 7th argument': { threw: 'KernelTypeError', code: 'runtime_arg_count', kernel: 'matmul' },
  'matmul: 5 arguments': { threw: 'KernelTypeError', code: 'runtime_arg_count', kernel: 'matmul' },
  'twice (arrow): a 4th argument': { threw: 'KernelTypeError', code: 'runtime_arg_count', kernel: 'twice' },
  'twice (arrow): 2 arguments': { threw: 'KernelTypeError', code: 'runtime_arg_count', kernel: 'twice' },
  'viaTemp (function expression): a 4th argument': { threw: 'KernelTypeError', code: 'runtime_arg_count', kernel: 'viaTemp' },
  'viaTemp (function expression): no argument': { threw: 'KernelTypeError', code: 'runtime_arg_count', kernel: 'viaTemp' },
  'matmul: a Float64Array': { threw: 'KernelTypeError', code: 'runtime_arg_type', kernel: 'matmul', argument: 'A' },
  'matmul: a size of -1': { threw: 'KernelRangeError', code: 'runtime_size_invalid', kernel: 'matmul', argument: 'M' },
  'matmul: a size of 2.5': { threw: 'KernelRangeError', code: 'runtime_size_invalid', kernel: 'matmul', argument: 'M' },
  'matmul: a size given as a string': { threw: 'KernelTypeError', code: 'runtime_size_invalid', kernel: 'matmul', argument: 'M' },
  'twice (arrow): 2^33 elements': { threw: 'KernelRangeError', code: 'runtime_size_overflow', kernel: 'twice', argument: 'x' },
  'viaTemp (function expression): a temporary of 2^34 elements': { threw: 'KernelRangeError', code: 'runtime_size_overflow', kernel: 'viaTemp', argument: 'N' },
  'matmul: B too short': { threw: 'KernelRangeError', code: 'runtime_arg_length', kernel: 'matmul', argument: 'B' },
  'matmul: C overlaps A': { threw: 'KernelRangeError', code: 'runtime_alias', kernel: 'matmul', argument: 'C' },
  'viaTemp (function expression): a 4 GB temporary': { threw: 'KernelRangeError', code: 'runtime_out_of_memory', kernel: 'viaTemp' },
  // A·B for A = [-2 -1; 0 1; 2 -2], B = [-2 -1 0 1; 2 -2 -1 0].
  'matmul: valid': { returned: [2, 4, 1, -2, 2, -2, -1, 0, -8, 2, 2, 2] },
  'matmul bound to B: valid': { returned: [2, 4, 1, -2, 2, -2, -1, 0, -8, 2, 2, 2] },
  'matmul bound to B: called without A': { threw: 'KernelTypeError', code: 'runtime_arg_count', kernel: 'matmul' },
  'matmul bound to B: called after release()': { threw: 'KernelTypeError', code: 'runtime_bound_released', kernel: 'matmul' },
  'matmul: bind() given its output C': { threw: 'KernelTypeError', code: 'runtime_bind_invalid', kernel: 'matmul', argument: 'C' },
}

/** Runs the bundle (natively, or with POLYKERN_NATIVE=0) under the 3 GB limit; its results and how each kernel ran. */
function runBundle(bundle: string, native: boolean) {
  const env: NodeJS.ProcessEnv = { ...process.env, POLYKERN_NATIVE: native ? '1' : '0' }
  const child = spawnSync('bash', ['-c', 'ulimit -v 3000000 && exec "$0" "$@"', process.execPath, bundle], { cwd: scratch, env, encoding: 'utf8' })
  expect(child.status, child.stderr).toBe(0)
  expect(child.stderr).toBe('')
  return JSON.parse(child.stdout) as { results: Record<string, Outcome>; ran: { name: string; native: boolean }[] }
}

describe.each(Object.keys(BUNDLERS) as Bundler[])('%s', (bundler) => {
  test('every run-time error code, native and JS alike, sync and .async', async () => {
    const outDir = fs.mkdtempSync(path.join(scratch, `${bundler}-`))
    const bundle = await BUNDLERS[bundler]({ entry: 'errors/main.ts', outDir, options: { root: fixtureRoot, cacheDir } })
    const native = runBundle(bundle, true)
    const js = runBundle(bundle, false)
    expect(native.ran).toEqual(['matmul', 'twice', 'viaTemp'].map((name) => ({ name, native: true })))
    expect(js.ran).toEqual(['matmul', 'twice', 'viaTemp'].map((name) => ({ name, native: false })))
    for (const [what, want] of Object.entries(EXPECTED)) {
      for (const form of [what, `${what}, .async`]) {
        expect(native.results[form], `${form} (native)`).toMatchObject(want)
        expect(native.results[form], form).toEqual(js.results[form])
        if ('code' in want) expect(native.results[form].message, form).toContain(`${want.kernel}()`)
      }
    }
    const detached = 'matmul: A transferred during .async'
    expect(native.results[detached]).toMatchObject({ threw: 'KernelTypeError', code: 'runtime_arg_detached', kernel: 'matmul', argument: 'A' })
    expect(js.results[detached]).toEqual(EXPECTED['matmul: valid'])
    const counts = Object.keys(EXPECTED).filter((w) => / argument| arguments/.test(w)).map((w) => native.results[w].message)
    expect(counts).toEqual([
      'matmul(): expected 6 arguments (A, B, C, M, N, K) but got 7 (at errors/kernels.ts:3:1)',
      'matmul(): expected 6 arguments (A, B, C, M, N, K) but got 5 (at errors/kernels.ts:3:1)',
      'twice(): expected 3 arguments (x, y, N) but got 4 (at errors/kernels.ts:13:1)',
      'twice(): expected 3 arguments (x, y, N) but got 2 (at errors/kernels.ts:13:1)',
      'viaTemp(): expected 3 arguments (x, y, N) but got 4 (at errors/kernels.ts:22:1)',
      'viaTemp(): expected 3 arguments (x, y, N) but got 0 (at errors/kernels.ts:22:1)',
    ])
  }, 120_000)
})
