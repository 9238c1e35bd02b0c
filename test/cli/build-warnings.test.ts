/** `polykern build` prints a kernel's `perf_plain_loops` warning with its location and code frame, and still succeeds. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { ROOT } from '../support/examples.ts'
import { runCli } from './io.ts'

// The bundler tests' fixture: diagonalProduct warns, allowedDiagonal is silenced, matmul runs on a microkernel.
const FILE = 'test/bundlers/fixture/slow/kernels.ts'
const STATEMENT = 'C[i, j] +=! A[i, i, k] * B[k, j]'
const line = readFileSync(path.join(ROOT, FILE), 'utf8').split('\n').findIndex((l) => l.includes(STATEMENT)) + 1
const outDir = mkdtempSync(path.join(os.tmpdir(), 'polykern-build-warnings-'))
afterAll(() => rmSync(outDir, { recursive: true, force: true }))

it('polykern build: one perf_plain_loops warning, at the statement, exit 0', async () => {
  const run = await runCli(['build', FILE, '--outDir', outDir, '--no-native', '--quiet'])
  expect(run.code, run.stderr).toBe(0)
  const warnings = run.stderr.split('\n').filter((l) => l.startsWith('warning: '))
  expect(warnings).toHaveLength(1)
  expect(warnings[0]).toMatch(new RegExp(`^warning: .*${FILE.replace(/\./g, '\\.')}:${line}:4: Statement s0 .* \\(kernel 'diagonalProduct'\\) \\[perf_plain_loops\\]$`))
  expect(run.stderr).toContain(`> ${line} |    ${STATEMENT}`)
  expect(run.stderr).toContain('note: to make it fast: copy the diagonal')
})
