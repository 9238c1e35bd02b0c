/**
 * The build report lists each kernel's `perf_plain_loops` warning (a statement doing cubic work as plain loops) with
 * its location, message and notes, in the JSON and on the HTML page; a silenced kernel and a GEMM have none. Built
 * through esbuild with `native: false`: the warning comes from the passes, no addon is timed.
 */
import fs from 'node:fs'
import path from 'node:path'
import * as esbuild from 'esbuild'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import polykernEsbuild from '../../plugin/esbuild.ts'
import type { BuildReport } from '../../plugin/report/report-types.ts'
import { fixtureRoot } from '../bundlers/build.ts'
import { removeScratch, scratchDir } from './build-fixture.ts'

const STATEMENT = 'C[i, j] +=! A[i, i, k] * B[k, j]'
const line = fs.readFileSync(path.join(fixtureRoot, 'slow/kernels.ts'), 'utf8').split('\n').findIndex((l) => l.includes(STATEMENT)) + 1

let dir: string
let report: BuildReport
beforeAll(async () => {
  dir = scratchDir('warnings')
  await esbuild.build({
    absWorkingDir: fixtureRoot, entryPoints: ['slow/main.ts'], bundle: true, platform: 'node', format: 'esm',
    outdir: dir, outExtension: { '.js': '.mjs' }, logLevel: 'silent',
    plugins: [polykernEsbuild({ root: fixtureRoot, native: false, quiet: true, report: true })],
  })
  report = JSON.parse(fs.readFileSync(path.join(dir, 'polykern-report.json'), 'utf8')) as BuildReport
}, 60_000)
afterAll(removeScratch)

describe('perf_plain_loops in the build report', () => {
  test('polykern-report.json: the warning on its kernel, with the statement\'s location', () => {
    expect(report.kernels.map((k) => [k.name, k.warnings.map((w) => w.code)])).toEqual([
      ['diagonalProduct', ['perf_plain_loops']], ['allowedDiagonal', []], ['matmul', []],
    ])
    const [w] = report.kernels[0].warnings
    expect(w.location).toBe(`slow/kernels.ts:${line}:4`)
    expect(w.message).toBe(`Statement s0 \`${STATEMENT}\` does cubic work (over i, j, k) but runs as plain loops: ` +
      'index i appears twice in A (a diagonal)')
    expect(w.notes[0]).toMatch(/^to make it fast: copy the diagonal/)
    expect(w.notes[1]).toContain('@allow-loops')
    // Without an addon the native status still names why, not the warning.
    expect(report.kernels[0].native).toEqual({ built: false, reason: 'native: false (JS loops only)' })
  })

  test('polykern-report.html: the warning in the kernel\'s section', () => {
    const html = fs.readFileSync(path.join(dir, 'polykern-report.html'), 'utf8')
    const section = html.slice(html.indexOf('id="kernel-diagonalProduct"'), html.indexOf('id="kernel-allowedDiagonal"'))
    expect(section).toContain(`<div class="warning"><b>perf_plain_loops</b> <span class="loc">slow/kernels.ts:${line}:4</span>`)
    expect(section).toContain('copy the diagonal into a `let` temporary first')
    expect(html.match(/class="warning"/g)).toHaveLength(1)
  })
})
