/**
 * `polykern explain` shows a kernel's `perf_plain_loops` warning (a statement doing cubic work as plain loops) in a
 * `warnings` section and in its JSON, as a build would report it; `@allow-loops` and a GEMM have none.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { FileExplanation } from '../../plugin/explain.ts'
import { ROOT } from '../support/examples.ts'
import { runCli } from './io.ts'

// The bundler tests' fixture: diagonalProduct warns, allowedDiagonal is silenced, matmul runs on a microkernel.
const FILE = 'test/bundlers/fixture/slow/kernels.ts'
const STATEMENT = 'C[i, j] +=! A[i, i, k] * B[k, j]'
const line = readFileSync(path.join(ROOT, FILE), 'utf8').split('\n').findIndex((l) => l.includes(STATEMENT)) + 1

describe('explain: perf_plain_loops', () => {
  it('prints the warning first in the kernel\'s section, with its location, reason, hint and how to silence it', async () => {
    const run = await runCli(['explain', FILE])
    expect(run.code, run.stderr).toBe(0)
    const sections = new Map(run.stdout.split(/^kernel /m).slice(1).map((s) => [s.split(' ')[0], s]))
    const slow = sections.get('diagonalProduct')!
    expect(slow.split('\n').slice(1, 3)).toEqual(['', 'warnings'])
    expect(slow).toContain(`\n  ${FILE}:${line}:4: Statement s0 \`${STATEMENT}\` does cubic work (over i, j, k) but runs as plain ` +
      `loops: index i appears twice in A (a diagonal) (kernel 'diagonalProduct') [perf_plain_loops]\n`)
    expect(slow).toContain('  note: to make it fast: copy the diagonal into a `let` temporary first')
    expect(slow).toContain('  note: silence it with a line `@allow-loops <why>`')
    expect(sections.get('allowedDiagonal')).not.toMatch(/^warnings$/m)
    expect(sections.get('matmul')).not.toMatch(/^warnings$/m)
  })

  it('--json: the warning per kernel, as errors are', async () => {
    const run = await runCli(['explain', FILE, '--json'])
    const x = JSON.parse(run.stdout) as FileExplanation
    expect(x.kernels.map((k) => [k.name, k.warnings.map((w) => w.code)])).toEqual([
      ['diagonalProduct', ['perf_plain_loops']], ['allowedDiagonal', []], ['matmul', []],
    ])
    expect(x.kernels[0].warnings[0]).toMatchObject({ kernel: 'diagonalProduct', text: expect.stringContaining(`${FILE}:${line}:4`) })
  })
})
