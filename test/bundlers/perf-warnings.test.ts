/**
 * `perf_plain_loops` through the bundlers' real APIs: a statement doing cubic work as plain loops is a build warning
 * in esbuild's, Rollup's and webpack's logs, with its code, kernel, location and hint; `@allow-loops` silences it and a
 * GEMM never has one. `native: false`: the warning comes from the passes, no addon is needed.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import * as esbuild from 'esbuild'
import { rollup, type RollupLog } from 'rollup'
import webpack from 'webpack'
import { afterAll, describe, expect, test } from 'vitest'
import polykernEsbuild from '../../plugin/esbuild.ts'
import polykernRollup from '../../plugin/rollup.ts'
import { fixtureRoot, stripTypes, webpackConfig } from './build.ts'

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'polykern-perf-'))
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }))
const options = { root: fixtureRoot, native: false, quiet: true }
const entry = 'slow/main.ts'
const source = fs.readFileSync(path.join(fixtureRoot, 'slow/kernels.ts'), 'utf8').split('\n')
/** 1-based line of the warned statement: the first diagonal product, in diagonalProduct. */
const line = source.findIndex((l) => l.includes('C[i, j] +=! A[i, i, k] * B[k, j]')) + 1

function expectOneWarning(texts: readonly string[]): string {
  const perf = texts.filter((t) => t.includes('perf_plain_loops'))
  expect(perf, texts.join('\n---\n')).toHaveLength(1)
  const [w] = perf
  expect(w).toContain("(kernel 'diagonalProduct')")
  expect(w).toContain('Statement s0 `C[i, j] +=! A[i, i, k] * B[k, j]` does cubic work (over i, j, k) but runs as plain loops: ' +
    'index i appears twice in A (a diagonal)')
  expect(w).toContain('note: to make it fast: copy the diagonal into a `let` temporary first')
  expect(w).toContain('@allow-loops')
  return w
}

describe('perf_plain_loops in the bundler logs', () => {
  test('esbuild: one warning, at the statement', async () => {
    const result = await esbuild.build({
      absWorkingDir: fixtureRoot, entryPoints: [entry], bundle: true, platform: 'node', format: 'esm',
      outfile: path.join(scratch, 'esbuild/main.mjs'), logLevel: 'silent', plugins: [polykernEsbuild(options)],
    })
    expectOneWarning(result.warnings.map((w) => w.text))
    // unplugin hands esbuild no line text, so esbuild would draw an empty frame: the location (1-based column) and
    // the frame are in the text.
    const [w] = result.warnings
    expect(w.text).toContain(`kernels.ts:${line}:4: [polykern] Statement s0`)
    expect(w.text).toMatch(new RegExp(`> ${line} \\|\\s+C\\[i, j\\] \\+=! A\\[i, i, k\\]`))
  })

  test('Rollup: one warning with its code and location', async () => {
    const logs: RollupLog[] = []
    const bundle = await rollup({
      input: path.join(fixtureRoot, entry),
      plugins: [polykernRollup(options), stripTypes()],
      onLog: (level, log) => void (level === 'warn' && logs.push(log)),
    })
    await bundle.close()
    expectOneWarning(logs.map((l) => l.message))
    const perf = logs.find((l) => l.message.includes('perf_plain_loops'))!
    expect(perf.loc).toMatchObject({ line, column: 4 }) // 1-based, as every bundler shows it
    expect(perf.plugin).toBe('polykern')
  })

  test('webpack: one warning, its text carrying file:line:column', async () => {
    const config = webpackConfig(fixtureRoot, { entry, outDir: path.join(scratch, 'webpack'), options })
    const warnings = await new Promise<string[]>((resolve, reject) =>
      webpack(config, (err, stats) => (err ? reject(err) : resolve((stats!.toJson({ warnings: true }).warnings ?? []).map((w) => w.message)))))
    const w = expectOneWarning(warnings)
    expect(w).toContain(`kernels.ts:${line}:4`)
  }, 60_000)
})
