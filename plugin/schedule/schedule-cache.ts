/**
 * Analytic schedules kept on disk beside the addon cache (`<cacheDir>/schedules/`), so a new build process does not
 * rank again what an earlier one ranked: the ranking of one contraction takes tens of milliseconds per shape class,
 * a cached addon build only a few. The key holds everything a schedule depends on, including the ranking's own
 * source, so a changed model never reads an old answer (bundled, without that source at hand, nothing is cached).
 * The pass only reads and adds to a ScheduleMemo in memory; compileModule loads it before the passes and saves it
 * after them, best-effort: any failure just ranks again.
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { ContractionSchedule } from '../ir/nodes.ts'

/** The ranking's source files, hashed once per process; null when they are not beside this file (a bundle). */
let modelHash: string | null | undefined

function rankingSource(): string | null {
  if (modelHash === undefined) {
    const dir = path.dirname(fileURLToPath(import.meta.url))
    const ext = path.extname(fileURLToPath(import.meta.url))
    try {
      const files = ['gemm-model', 'l1-sets', 'rank-gemm', 'select'].map((f) => readFileSync(path.join(dir, f + ext), 'utf8'))
      modelHash = createHash('sha256').update(files.join('\0')).digest('hex')
    } catch {
      modelHash = null
    }
  }
  return modelHash
}

/**
 * Schedules by key hash: those the cache held when the build began and those ranked since (`added`). The pass reads
 * and adds to it in memory; module steps load it from disk before the passes and save what was added after them.
 */
export interface ScheduleMemo {
  readonly known: Map<string, ContractionSchedule>
  readonly added: Set<string>
}

export const emptyScheduleMemo = (): ScheduleMemo => ({ known: new Map(), added: new Set() })

/** The schedule `memo` holds under `key`, or `make()`'s, added to it; without a memo, `make()`'s. */
export function memoSchedule(memo: ScheduleMemo | undefined, key: unknown, make: () => ContractionSchedule): ContractionSchedule {
  const source = rankingSource()
  if (memo === undefined || source === null) return make()
  const hash = createHash('sha256').update(JSON.stringify([source, key])).digest('hex').slice(0, 32)
  const known = memo.known.get(hash)
  if (known !== undefined) return known
  const schedule = make()
  memo.known.set(hash, schedule)
  memo.added.add(hash)
  return schedule
}

const folderOf = (cacheDir: string) => path.join(cacheDir, 'schedules')

const loaded = new Map<string, Promise<ScheduleMemo>>()

/**
 * The memo of `cacheDir`: read from disk at its first use in this process, then shared by every module compiled
 * with that cache (a watch session or a bundle of many modules reads the folder once).
 */
export const scheduleMemoFor = (cacheDir: string): Promise<ScheduleMemo> => {
  let memo = loaded.get(cacheDir)
  if (memo === undefined) loaded.set(cacheDir, (memo = loadScheduleMemo(cacheDir)))
  return memo
}

/** Every schedule kept under `cacheDir` (unreadable entries are left out: they are ranked again). */
async function loadScheduleMemo(cacheDir: string): Promise<ScheduleMemo> {
  const memo = emptyScheduleMemo()
  const files = await readdir(folderOf(cacheDir)).catch(() => [] as string[])
  await Promise.all(files.filter((f) => f.endsWith('.json')).map(async (f) => {
    try {
      memo.known.set(f.slice(0, -'.json'.length), JSON.parse(await readFile(path.join(folderOf(cacheDir), f), 'utf8')) as ContractionSchedule)
    } catch {
      // A torn or foreign file: ranked again, and written anew.
    }
  }))
  return memo
}

/** Writes the schedules added since loading (each through a rename, so a reader never sees half a file). */
export async function saveScheduleMemo(cacheDir: string, memo: ScheduleMemo): Promise<void> {
  if (memo.added.size === 0) return
  try {
    await mkdir(folderOf(cacheDir), { recursive: true })
    for (const hash of memo.added) {
      const file = path.join(folderOf(cacheDir), `${hash}.json`)
      const tmp = `${file}.${process.pid}.tmp`
      await writeFile(tmp, JSON.stringify(memo.known.get(hash)))
      await rename(tmp, file)
    }
    memo.added.clear()
  } catch {
    // A read-only cache only costs the next build the ranking.
  }
}
