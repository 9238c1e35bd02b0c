/**
 * A temporary copy of test/watch/fixture for one watcher, the edits the tests make to it, and the waits they need:
 * every wait has a deadline, so a watcher that never rebuilds fails the test instead of hanging it.
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

/** What compute.ts returns and main.ts prints. */
export interface FixtureResults {
  readonly scaled: readonly number[]
  readonly sums: readonly number[]
  readonly ran: readonly { readonly name: string; readonly native: boolean; readonly addonPath: string | null }[]
}

export interface Project {
  readonly root: string
  readonly outDir: string
  /** src/kernels.ts in the copy. */
  readonly kernelsFile: string
  /** Scratch space for the project, removed by `remove`. */
  readonly remove: () => void
}

/** A text replacement in a project file; the text must occur once. */
export interface Edit {
  readonly file: string
  readonly from: string
  readonly to: string
}

const fixtureDir = path.join(import.meta.dirname, 'fixture')

export function copyFixture(name: string): Project {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), `polykern-watch-${name}-`))
  const root = path.join(scratch, 'project')
  fs.cpSync(fixtureDir, root, { recursive: true })
  const outDir = path.join(scratch, 'out')
  fs.mkdirSync(outDir)
  return {
    root,
    outDir,
    kernelsFile: path.join(root, 'src/kernels.ts'),
    remove: () => fs.rmSync(scratch, { recursive: true, force: true }),
  }
}

export function applyEdit({ file, from, to }: Edit): void {
  const text = fs.readFileSync(file, 'utf8')
  if (text.split(from).length !== 2) throw new Error(`the edit expects ${JSON.stringify(from)} once in ${file}`)
  fs.writeFileSync(file, text.replace(from, to))
}

/** Runs a bundle with node from the system's temp directory and parses its one JSON line. */
export function runBundle(bundle: string): FixtureResults {
  const env = { ...process.env }
  delete env.POLYKERN_NATIVE
  const child = spawnSync(process.execPath, [bundle], { cwd: os.tmpdir(), env, encoding: 'utf8' })
  if (child.status !== 0) throw new Error(`node ${bundle} exited with ${child.status}:\n${child.stderr}`)
  return JSON.parse(child.stdout) as FixtureResults
}

/** Rejects with `what` if `promise` has not settled within `ms`. */
export async function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms)
  })
  try {
    return await Promise.race([promise, deadline])
  } finally {
    clearTimeout(timer)
  }
}

/** Polls `probe` until it returns a value, for events nothing announces (a dev server's invalidation). */
export async function until<T>(ms: number, what: string, probe: () => T | undefined): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    const value = probe()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

/** Counts a watcher's finished builds, so a test can wait for the one after its edit and see its error. */
export function buildCounter() {
  let count = 0
  let lastError: unknown
  const waiting = new Set<() => void>()
  return {
    get count() {
      return count
    },
    finished(error?: unknown): void {
      count++
      lastError = error
      for (const wake of [...waiting]) wake()
    },
    /** Resolves when more than `seen` builds have finished; rejects with the last build's error. */
    async after(seen: number, ms: number, what: string): Promise<void> {
      await within(ms, what, new Promise<void>((resolve) => {
        const wake = (): void => {
          if (count <= seen) return
          waiting.delete(wake)
          resolve()
        }
        waiting.add(wake)
        wake()
      }))
      if (lastError) throw lastError
    },
  }
}
