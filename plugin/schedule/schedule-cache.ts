/**
 * Analytic schedules kept on disk beside the addon cache (`<cacheDir>/schedules/`), so a new build process does not
 * rank again what an earlier one ranked: the ranking of one contraction takes tens of milliseconds per shape class,
 * a cached addon build only a few. The key holds everything a schedule depends on, including the ranking's own
 * source, so a changed model never reads an old answer (bundled, without that source at hand, nothing is cached).
 * Reads and writes are synchronous (the passes are) and best-effort: any failure just ranks again.
 */
import { createHash } from 'node:crypto'
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
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
      const files = ['gemm-model', 'rank-gemm', 'select'].map((f) => readFileSync(path.join(dir, f + ext), 'utf8'))
      modelHash = createHash('sha256').update(files.join('\0')).digest('hex')
    } catch {
      modelHash = null
    }
  }
  return modelHash
}

/** The schedule stored under `key`, or `make()`'s, stored for next time. */
export function cachedSchedule(cacheDir: string | undefined, key: unknown, make: () => ContractionSchedule): ContractionSchedule {
  const source = rankingSource()
  if (cacheDir === undefined || source === null) return make()
  const hash = createHash('sha256').update(JSON.stringify([source, key])).digest('hex').slice(0, 32)
  const file = path.join(cacheDir, 'schedules', `${hash}.json`)
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as ContractionSchedule
  } catch {
    const schedule = make()
    try {
      mkdirSync(path.dirname(file), { recursive: true })
      const tmp = `${file}.${process.pid}.tmp`
      writeFileSync(tmp, JSON.stringify(schedule))
      renameSync(tmp, file)
    } catch {
      // A read-only cache only costs the next build the ranking.
    }
    return schedule
  }
}
