// `polykern bench`: native vs JS loops at the sizes asked for. Nothing here asserts on timings: only that both sides
// ran at the right sizes and the reported ratio is the ratio of the reported times.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from './io.ts'

const FILE = 'test/cli/fixtures/verify-agree.ts'
const CACHE = ['--cache-dir', 'node_modules/.cache/polykern-test']

describe('polykern bench', () => {
  it('times one kernel natively and on its JS loops at the given sizes', async () => {
    const r = await runCli(['bench', `${FILE}:matmul`, '--sizes', 'M=48,N=40,K=33', '--budget', '20', '--json', ...CACHE])
    expect(r.code, r.stderr).toBe(0)
    const report = JSON.parse(r.stdout)
    expect(report.addon).toMatchObject({ isa: expect.any(String), threads: expect.any(Number) })
    expect(report.rows).toHaveLength(1)
    const [row] = report.rows
    expect(row).toMatchObject({ kernel: 'matmul', shape: { M: 48, N: 40, K: 33 } })
    expect(row.native.calls).toBeGreaterThanOrEqual(3)
    expect(row.js.calls).toBeGreaterThanOrEqual(3)
    expect(row.js.ms).toBeGreaterThan(0)
    expect(row.speedup).toBeCloseTo(row.js.ms / row.native.ms, 10)
    // The function's own body (this fixture's is a real triple loop) on the same arguments.
    expect(row.body.calls).toBeGreaterThanOrEqual(3)
    expect(row.body.ms).toBeGreaterThan(0)
  }, 300_000)

  it('prints a table with every kernel of the file; sizes not named take --size', async () => {
    const r = await runCli(['bench', FILE, '--sizes', 'M=8', '--size', '16', '--budget', '5', ...CACHE])
    expect(r.code, r.stderr).toBe(0)
    const lines = r.stdout.trim().split('\n')
    expect(lines[0]).toMatch(/^polykern bench test\/cli\/fixtures\/verify-agree\.ts \(native: \w+, \d+ threads\)$/)
    expect(lines[1]).toMatch(/kernel\s+sizes\s+native ms\s+JS ms\s+speed-up\s+own body ms/)
    expect(lines[2]).toMatch(/^ {2}matmul\s+M=8 N=16 K=16\s+[\d.]+\s+[\d.]+\s+[\d.]+×\s+[\d.]+$/)
    expect(lines[3]).toMatch(/^ {2}conv3\s+N=16\s+[\d.]+\s+[\d.]+\s+[\d.]+×\s+[\d.]+$/)
  }, 300_000)

  it('keeps to the budget: JS loops too slow for it are timed smaller and scaled up, marked; a line per kernel as it goes', async () => {
    // One JS call of a 384³ matmul is 5.7e7 multiply-adds: tens of milliseconds, past a 5 ms budget on any machine.
    const r = await runCli(['bench', FILE, '--sizes', 'M=384,N=384,K=384', '--size', '2048', '--budget', '5', '--json', ...CACHE])
    expect(r.code, r.stderr).toBe(0)
    const [matmul, conv3] = JSON.parse(r.stdout).rows
    expect(matmul.js).toMatchObject({ calls: 0, estimatedFrom: { M: 96, N: 96, K: 96 } })
    expect(matmul.js.ms).toBeGreaterThan(0)
    expect(matmul.native.calls).toBeGreaterThanOrEqual(3)
    expect(conv3.js.estimatedFrom).toBeUndefined()
    const progress = r.stderr.split('\n').filter((l) => /^(matmul|conv3): /.test(l))
    expect(progress).toEqual([
      expect.stringMatching(/^matmul: native [\d.]+ ms, JS [\d.]+ ms \(estimated from M=96 N=96 K=96\), own body [\d.]+ ms$/),
      expect.stringMatching(/^conv3: native [\d.]+ ms, JS [\d.]+ ms, own body [\d.]+ ms$/),
    ])
    const table = await runCli(['bench', `${FILE}:matmul`, '--sizes', 'M=384,N=384,K=384', '--budget', '5', ...CACHE])
    expect(table.stdout.split('\n')[2]).toMatch(/^ {2}matmul\s+M=384 N=384 K=384\s+[\d.]+\s+~[\d.]+\s+[\d.]+×\s+[\d.]+$/)
  }, 300_000)

  it("warns when --size makes one kernel's call far more work than the others", async () => {
    const r = await runCli(['bench', FILE, '--sizes', 'N=64', '--size', '512', '--budget', '1', ...CACHE])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toMatch(/^warning: matmul: --size 512 for M, K makes one call 1\.7e\+7 units of work, \d+× the other kernels' median: name its sizes with --sizes$/m)
  }, 300_000)

  it("a body that cannot run on its own is reported with its error, and the kernels still timed", async () => {
    const dir = path.join('test/.out', `bench-body-${process.pid}`)
    mkdirSync(dir, { recursive: true })
    const file = path.join(dir, 'helper.ts')
    writeFileSync(file, `const twice = (v: number) => 2 * v

/* @kernel
   x: f32[N]
   y: f32[N]
   y[i] = 2 * x[i]
*/
export function double(x: Float32Array, y: Float32Array, N: number): Float32Array {
  for (let i = 0; i < N; i++) y[i] = twice(x[i])
  return y
}
`)
    const r = await runCli(['bench', file, '--size', '64', '--budget', '1', '--json', ...CACHE])
    rmSync(dir, { recursive: true, force: true })
    expect(r.code, r.stderr).toBe(0)
    const [row] = JSON.parse(r.stdout).rows
    expect(row.body).toEqual({ error: 'twice is not defined' })
    expect(row.native.calls).toBeGreaterThanOrEqual(3)
    expect(r.stderr).toMatch(/^double: native [\d.]+ ms, JS [\d.]+ ms, own body - \(twice is not defined\)$/m)
  }, 300_000)

  it('usage errors exit 2 with the reason', async () => {
    const bad = await runCli(['bench', FILE, '--sizes', 'M=lots'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain("--sizes takes NAME=INTEGER items separated by commas, got 'M=lots'")
    const unknown = await runCli(['bench', FILE, '--sizes', 'Q=4', ...CACHE])
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain('no kernel here has a size Q; their sizes: M, N, K')
    const huge = await runCli(['bench', `${FILE}:matmul`, '--sizes', 'M=100000,N=100000', ...CACHE])
    expect(huge.code).toBe(2)
    expect(huge.stderr).toMatch(/matmul: argument 'C' would have 10000000000 elements/)
    const help = await runCli(['bench', '--help'])
    expect(help.stdout).toContain('Usage: polykern bench FILE[:KERNEL]')
  })
})
