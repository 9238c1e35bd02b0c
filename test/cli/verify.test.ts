// `polykern verify`: each body against its compiled spec. Fixtures in test/cli/fixtures/verify-*.ts: one whose bodies
// agree with their specs, one whose rowSum stops a column early.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runCli } from './io.ts'

const AGREE = 'test/cli/fixtures/verify-agree.ts'
const OFF_BY_ONE = 'test/cli/fixtures/verify-off-by-one.ts'
const scratch = mkdtempSync(path.join(os.tmpdir(), 'polykern-verify-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

describe('polykern verify', () => {
  it('exits 0 when every body agrees with its spec (generated JS loops)', async () => {
    const r = await runCli(['verify', AGREE, '--js'])
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('each body against the generated JS loops (--js)')
    expect(r.stdout).toMatch(/✓ matmul agrees on 5 shapes: M=\d+ N=\d+ K=\d+;/)
    expect(r.stdout).toMatch(/✓ conv3 agrees on \d shapes?: N=\d+/)
  })

  it('exits 0 against the native addon too', async () => {
    const r = await runCli(['verify', AGREE, '--shapes', '3', '--cache-dir', 'node_modules/.cache/polykern-test'])
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('each body against the native addon')
    expect(r.stdout).toMatch(/✓ matmul agrees on 3 shapes/)
  }, 300_000)

  it('exits 1 on a disagreement, naming kernel, shape, element, expected and got', async () => {
    const r = await runCli(['verify', OFF_BY_ONE, '--js', '--json'])
    expect(r.code).toBe(1)
    const report = JSON.parse(r.stdout)
    const rowSum = report.verdicts.find((v: { kernel: string }) => v.kernel === 'rowSum')
    expect(rowSum).toMatchObject({ agrees: false, difference: { argument: 's' } })
    const { shape, difference } = rowSum
    // s is one-dimensional: its position is its index; the body leaves out X[i, C-1], far more than rounding.
    expect(difference.position).toEqual([difference.index])
    expect(Math.abs(difference.expected - difference.got)).toBeGreaterThan(1e-3)
    expect(shape.C).toBeGreaterThanOrEqual(1)
    expect(report.verdicts.find((v: { kernel: string }) => v.kernel === 'double')).toMatchObject({ agrees: true })
  })

  it('prints the disagreement in one line of text (against the native addon)', async () => {
    const r = await runCli(['verify', `${OFF_BY_ONE}:rowSum`, '--shapes', '2', '--cache-dir', 'node_modules/.cache/polykern-test'])
    expect(r.code).toBe(1)
    expect(r.stdout).toContain('each body against the native addon')
    expect(r.stdout).toMatch(/✗ rowSum disagrees at R=\d+ C=\d+: s\[\d+\] \(index \d+\): expected -?[\d.e-]+ \(the spec, compiled\), got -?[\d.e-]+ \(the function body\)/)
    expect(r.stdout).not.toContain('double')
  }, 300_000)

  it('the same seed gives the same report; another seed other shapes', async () => {
    const run = (seed: string) => runCli(['verify', AGREE, '--js', '--json', '--seed', seed]).then((r) => JSON.parse(r.stdout))
    const [a, b, c] = await Promise.all([run('7'), run('7'), run('8')])
    expect(a).toEqual(b)
    expect(a.verdicts[0].shapes).not.toEqual(c.verdicts[0].shapes)
  })

  it('a body that throws is a disagreement naming the body', async () => {
    const file = path.join(scratch, 'throws.ts')
    writeFileSync(file, `const helper = (v: number) => v
/* @kernel
   x: f32[N]
   y: f32[N]
   y[i] = x[i]
*/
export function copy(x: Float32Array, y: Float32Array, N: number) {
  for (let i = 0; i < N; i++) y[i] = helper(x[i])
}
`)
    const r = await runCli(['verify', file, '--js'])
    expect(r.code).toBe(1)
    expect(r.stdout).toMatch(/✗ copy disagrees at N=\d+: the function body threw: helper is not defined/)
  })

  it('exits 3 for a spec that does not compile, 2 for usage errors', async () => {
    const file = path.join(scratch, 'bad-spec.ts')
    writeFileSync(file, `/* @kernel
   x: f32[N]
   y: f32[N]
   y[i] = x[j]
*/
export function bad(x: Float32Array, y: Float32Array, N: number) {}
`)
    const spec = await runCli(['verify', file, '--js'])
    expect(spec.code).toBe(3)
    expect(spec.stderr).toMatch(/bad-spec\.ts:\d+:\d+/)
    expect((await runCli(['verify'])).code).toBe(2)
    expect((await runCli(['verify', AGREE, '--shapes', '0'])).code).toBe(2)
    expect((await runCli(['verify', `${AGREE}:nope`, '--js'])).stderr).toContain("has no kernel 'nope'; its kernels: matmul, conv3")
    expect((await runCli(['verify', 'test/cli/fixtures/missing.ts'])).code).toBe(2)
    const help = await runCli(['verify', '--help'])
    expect(help.code).toBe(0)
    expect(help.stdout).toContain('Usage: polykern verify FILE[:KERNEL]')
  })
})
