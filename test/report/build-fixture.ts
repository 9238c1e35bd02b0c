/**
 * Builds test/report/fixture with polykern's `report` option through esbuild's JS API (output by `outdir`), as the
 * report tests need it. Their builds share the bundler tests' cache directory: the report tests also bundle the
 * bundler fixture, whose addon is then compiled once in a run.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import * as esbuild from 'esbuild'
import polykernEsbuild from '../../plugin/esbuild.ts'
import type { Options } from '../../plugin/index.ts'

export const fixtureRoot = path.join(import.meta.dirname, 'fixture')
export const cacheDir = path.join(import.meta.dirname, '../.out/bundlers/cache')
export const FIXTURE_KERNELS = ['matmul', 'batchedMatmul', 'softmax']

const scratch: string[] = []

/** A fresh temporary directory, removed by removeScratch. */
export function scratchDir(name: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `polykern-report-${name}-`))
  scratch.push(dir)
  return dir
}

/** For afterAll: every directory scratchDir made. */
export function removeScratch(): void {
  for (const dir of scratch.splice(0)) fs.rmSync(dir, { recursive: true, force: true })
}

/** A fresh output directory holding the bundle (and, with the option on, the report). */
export async function buildWithReport(extra: Options = { report: true }): Promise<string> {
  const outdir = scratchDir('esbuild')
  await esbuild.build({
    absWorkingDir: fixtureRoot,
    entryPoints: ['src/main.ts'],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outdir,
    outExtension: { '.js': '.mjs' },
    logLevel: 'silent',
    plugins: [polykernEsbuild({ root: fixtureRoot, cacheDir, quiet: true, ...extra })],
  })
  return outdir
}
