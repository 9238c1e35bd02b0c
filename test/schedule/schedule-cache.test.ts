/**
 * The schedule cache (plugin/schedule/schedule-cache.ts): the pass ranks into a memo in memory, and compileModule
 * reads the memo from `<cacheDir>/schedules/` before the passes and writes what they added after them.
 */
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { ContractionSchedule } from '../../plugin/ir/nodes.ts'
import { resolveOptions } from '../../plugin/options.ts'
import { compileModule } from '../../plugin/pipeline.ts'
import { emptyScheduleMemo, memoSchedule, saveScheduleMemo, scheduleMemoFor } from '../../plugin/schedule/schedule-cache.ts'

const tmp = mkdtempSync(path.join(os.tmpdir(), 'polykern-schedule-cache-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

const schedule = (mc: number): ContractionSchedule =>
  ({ isa: 'avx2', microkernel: 'm', mc, nc: 16, kc: 16, order: ['n', 'k', 'm'], inner: 'nm', parallel: 'm', packA: true, packB: true }) as ContractionSchedule

describe('the schedule cache', () => {
  it('ranks a key once per memo, and remembers which schedules are new', () => {
    const memo = emptyScheduleMemo()
    let made = 0
    const make = () => (made++, schedule(8))
    expect(memoSchedule(memo, ['a', 1], make)).toEqual(schedule(8))
    expect(memoSchedule(memo, ['a', 1], make)).toEqual(schedule(8))
    expect(made).toBe(1)
    expect(memo.added.size).toBe(1)
    expect(memoSchedule(undefined, ['a', 1], make)).toEqual(schedule(8))
    expect(made).toBe(2)
  })

  it('saves what a build added, and a later build reads it instead of ranking', async () => {
    const first = path.join(tmp, 'first')
    const memo = await scheduleMemoFor(first)
    memoSchedule(memo, ['b', 2], () => schedule(24))
    await saveScheduleMemo(first, memo)
    expect(memo.added.size).toBe(0)
    expect(readdirSync(path.join(first, 'schedules')).filter((f) => f.endsWith('.json'))).toHaveLength(1)
    // Another process's view: the same files under another cache path, read from disk.
    const later = path.join(tmp, 'later')
    cpSync(first, later, { recursive: true })
    const read = await scheduleMemoFor(later)
    expect(memoSchedule(read, ['b', 2], () => { throw new Error('ranked again') })).toEqual(schedule(24))
  })

  it('compileModule writes the schedules its passes ranked', async () => {
    const cacheDir = path.join(tmp, 'module')
    const code = `/* @kernel
   A: f32[M, K]
   B: f32[K, N]
   C: f32[M, N]
   C[i, j] +=! A[i, k] * B[k, j]
*/
export function mm(A: Float32Array, B: Float32Array, C: Float32Array, M: number, N: number, K: number) {
  return C
}
`
    const opts = resolveOptions({ root: tmp, cacheDir, native: false, quiet: true })
    await compileModule(path.join(tmp, 'mm.ts'), code, opts)
    expect(readdirSync(path.join(cacheDir, 'schedules')).filter((f) => f.endsWith('.json')).length).toBeGreaterThan(0)
  })
})
