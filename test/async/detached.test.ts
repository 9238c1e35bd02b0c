/**
 * An argument's memory taken away while its `.async` call runs (the buffer transferred through structuredClone or a
 * MessagePort, or a resizable buffer shrunk), then garbage collected and allocated over: the promise rejects with
 * `runtime_arg_detached` naming the argument, nothing is written, no other memory is touched, and the process lives.
 * In a child process, so that a crash is a failed test rather than a dead vitest.
 */
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { beforeAll, describe, expect, test } from 'vitest'
import { nodeTs } from '../fuzz/node-ts.ts'
import { buildHostileAddon, hostileKernels, type Paths } from '../hostile/kernels.ts'
import { SANITIZER_FLAGS, runSanitized } from '../sanitize/sanitizers.ts'

const script = path.join(import.meta.dirname, 'detached-child.ts')
const lines = (stdout: string) => stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>)
const child = (what: string) => {
  const run = spawnSync(process.execPath, nodeTs(script, [what]), { encoding: 'utf8', timeout: 120_000 })
  return { ...run, lines: lines(run.stdout) }
}

beforeAll(async () => {
  await buildHostileAddon() // here, so the child only loads it
})

/** Each scenario's outcome: rejected with the argument's name, nothing written, no other memory touched. */
function expectRefused(outcomes: readonly Record<string, unknown>[]) {
  // 2 paths × 3 ways × 2 arguments
  expect(outcomes).toHaveLength(12)
  for (const outcome of outcomes) {
    const { path: via, target } = outcome as { path: string; target: string }
    expect(outcome, JSON.stringify(outcome)).toMatchObject({
      settled: 'rejected', code: 'runtime_arg_detached', typeError: true, canariesOverwritten: 0,
      outputUntouched: target === 'C' ? null : true,
    })
    const message = outcome.message as string
    if (via === 'native') {
      expect(outcome).toMatchObject({ name: 'KernelTypeError', kernelTypeError: true, kernel: 'matmul', argument: target })
      expect(message).toMatch(new RegExp(`^matmul\\(\\): argument '${target}' lost its memory during its async call .* \\(at .+\\)$`))
    } else {
      expect(outcome).toMatchObject({ argument: target })
      expect(message).toContain(`kernel 'matmul': argument '${target}'`)
    }
  }
}

describe('an argument detached while its .async call runs', () => {
  test('transferred (structuredClone, postMessage) or shrunk, input or output, through the runtime or the addon directly: rejected, nothing written, no memory touched', () => {
    const run = child('scenarios')
    expect([run.status, run.signal], run.stderr).toEqual([0, null])
    expectRefused(run.lines)
  }, 180_000)

  test('the same under AddressSanitizer: the kernels never touch memory that was handed away', async () => {
    await buildHostileAddon(SANITIZER_FLAGS)
    const run = runSanitized(script, ['scenarios', 'sanitized'])
    expect(run.reports, run.stderr).toEqual([])
    expect(run.status, run.stderr).toBe(0)
    expectRefused(lines(run.stdout))
  }, 300_000)

  test('a worker terminated while its async calls run (on copied arrays and on SharedArrayBuffers) ends cleanly', () => {
    const run = child('terminate')
    expect([run.status, run.signal], run.stderr).toEqual([0, null])
    expect(run.lines).toEqual([{ messages: ['started'], code: 1 }])
  }, 120_000)
})

test('arrays too large to copy: runtime_out_of_memory for the async call on ordinary ArrayBuffers, none on SharedArrayBuffers', () => {
  const limit = 3_000_000 // kB of address space, as out-of-memory.test.ts
  const run = spawnSync('bash', ['-c', `ulimit -v ${limit} && exec "$0" "$@"`, process.execPath, ...nodeTs(script, ['copies', String(limit)])], { encoding: 'utf8', timeout: 120_000 })
  expect(run.status, run.stderr).toBe(0)
  const [ordinary, shared] = lines(run.stdout)
  expect(ordinary).toMatchObject({ shared: false, settled: 'rejected', name: 'KernelRangeError', code: 'runtime_out_of_memory', kernel: 'matmul' })
  expect(ordinary.message).toMatch(/^matmul\(\): not enough memory to copy its arrays for the async call .*\(at .+\)$/)
  expect(shared).toMatchObject({ shared: true, settled: 'resolved', length: 1 })
  expect(shared.C).toBeGreaterThan(0)
}, 120_000)

describe('arrays on SharedArrayBuffers (which cannot be detached)', () => {
  let k: Record<string, Paths>
  beforeAll(async () => {
    k = await hostileKernels()
  })

  test('run in place and resolve with the sync result, also with an inout output', async () => {
    const shared = (a: Float32Array | Float64Array) => {
      const copy = new (a.constructor as Float32ArrayConstructor)(new SharedArrayBuffer(a.byteLength))
      copy.set(a)
      return copy
    }
    const [M, N, K] = [67, 45, 33]
    const A = Float32Array.from({ length: M * K }, (_, i) => (i % 13) - 6)
    const B = Float32Array.from({ length: K * N }, (_, i) => (i % 7) - 3)
    const want = k.matmul.js(A, B, new Float32Array(M * N), M, N, K)
    const C = shared(new Float32Array(M * N).fill(NaN))
    await expect(k.matmul.native.async(shared(A), shared(B), C, M, N, K)).resolves.toBe(C)
    expect(C).toEqual(want)
    const [x, y] = [Float64Array.from({ length: 100 }, (_, i) => i), Float64Array.from({ length: 100 }, (_, i) => -i)]
    const yShared = shared(y)
    await k.axpy.native.async(shared(x), yShared, 100)
    expect(Array.from(yShared)).toEqual(Array.from(y, (v, i) => v + 2 * x[i]))
  })

  test('ordinary arrays: an inout output keeps its old content as the kernel reads it', async () => {
    const [x, y] = [Float64Array.from({ length: 100 }, (_, i) => i), Float64Array.from({ length: 100 }, (_, i) => 1 - i)]
    const want = Array.from(y, (v, i) => v + 2 * x[i])
    await k.axpy.native.async(x, y, 100)
    expect(Array.from(y)).toEqual(want)
  })
})
