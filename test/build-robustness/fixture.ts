/** Bundler processes over the bundler fixture, the bundles they make run in fresh processes, and the cache they share. */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readdirSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { expect } from 'vitest'
import { nodeTs } from '../fuzz/node-ts.ts'
import { expectFixtureResults, type FixtureOutput } from '../bundlers/reference.ts'

const child = path.join(import.meta.dirname, 'bundle-child.ts')

export const scratch = (name: string): string => mkdtempSync(path.join(os.tmpdir(), `polykern-${name}-`))

export interface BundlerRun {
  readonly process: ChildProcess
  readonly done: Promise<{ status: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>
}

/** Starts a bundler process (its own process group, so it can be killed with its compilers). */
export function startBundler(bundler: string, outDir: string, cacheDir: string, env: NodeJS.ProcessEnv = process.env): BundlerRun {
  const p = spawn(process.execPath, nodeTs(child, [bundler, outDir, cacheDir]), { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  p.stdout!.on('data', (d: Buffer) => (stdout += d))
  p.stderr!.on('data', (d: Buffer) => (stderr += d))
  const done = new Promise<{ status: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) =>
    p.on('close', (status, signal) => resolve({ status, signal, stdout, stderr })))
  return { process: p, done }
}

/** The fixture bundled by esbuild into `outDir` with `cacheDir`, in a process that must succeed; the bundle's path. */
export async function bundleFixture(outDir: string, cacheDir: string): Promise<string> {
  const run = await startBundler('esbuild', outDir, cacheDir).done
  expect(run.status, run.stderr).toBe(0)
  return JSON.parse(run.stdout).bundle as string
}

/** Runs a bundle in a fresh node, checks its results against the references, and returns how it ran. */
export function runBundle(bundle: string, env: NodeJS.ProcessEnv = process.env): { out: FixtureOutput; warnings: number; stderr: string } {
  const clean = { ...env }
  delete clean.POLYKERN_NATIVE
  const run = spawnSync(process.execPath, [bundle], { cwd: path.dirname(bundle), env: clean, encoding: 'utf8' })
  expect(run.status, run.stderr).toBe(0)
  const out = JSON.parse(run.stdout) as FixtureOutput
  expectFixtureResults(out)
  return { out, warnings: run.stderr.match(/PolykernWarning/g)?.length ?? 0, stderr: run.stderr }
}

/** The cache's addon entries by hash, and the leftovers of builds: temp and damaged directories. */
export function cacheEntries(cacheDir: string): { addons: string[]; leftovers: string[] } {
  const names = readdirSync(cacheDir)
  return { addons: names.filter((n) => /^[0-9a-f]{64}$/.test(n)), leftovers: names.filter((n) => /\.(tmp|damaged)-/.test(n)) }
}
