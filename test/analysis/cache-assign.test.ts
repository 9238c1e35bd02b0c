/** PolyDL Algorithm 2 and Eq. 1 on a hand-worked example (the expected numbers are worked out in the comments). */
import { describe, expect, it } from 'vitest'
import { assignCaches } from '../../plugin/analysis/cache-assign.ts'
import type { Machine } from '../../plugin/targets/machine.ts'

const machine: Machine = {
  cores: 2,
  caches: [
    { level: 1, bytes: 100, lineBytes: 64, sharedBy: 1, latency: 4, bandwidth: 64 },
    { level: 2, bytes: 1000, lineBytes: 64, sharedBy: 1, latency: 12, bandwidth: 32 },
    { level: 3, bytes: 10_000, lineBytes: 64, sharedBy: 2, latency: 40, bandwidth: 16 },
  ],
  memory: { latency: 200, bandwidth: 8 },
  prefetchStreams: 8,
  source: 'options',
  model: 'test machine',
  clock: { ghz: 2.5, source: 'assumed' },
}

describe('Algorithm 2: smallest first, first level with room beside what it holds', () => {
  it('the hand example', () => {
    // Sorted: 30 (#3), 50 (#1) → L1 holds 80; 60 (#5) would make L1 140 > 100 → L2; 900 (#0): L1 980 > 100,
    // L2 960 <= 1000 → L2; 5000 (#4): L2 5960 > 1000 → L3; 20000 (#2) > L3's 10000 → memory.
    const a = assignCaches([900, 50, 20_000, 30, 5000, 60], machine)
    expect(a.levels.map((l) => [l.level, l.bytes, l.sets])).toEqual([
      [1, 80, [3, 1]],
      [2, 960, [5, 0]],
      [3, 5000, [4]],
    ])
    expect(a.memory).toEqual({ bytes: 20_000, sets: [2] })
    // Eq. 1: 80·4/64 + 960·12/32 + 5000·40/16 + 20000·200/8 = 5 + 360 + 12500 + 500000.
    expect(a.cost).toBe(512_865)
  })

  it('a set exactly the size of a level fits; an empty list costs nothing', () => {
    const a = assignCaches([100, 1000], machine)
    expect(a.levels.map((l) => l.bytes)).toEqual([100, 1000, 0])
    expect(a.cost).toBe((100 * 4) / 64 + (1000 * 12) / 32)
    expect(assignCaches([], machine).cost).toBe(0)
  })

  it('levels are exclusive: once L1 is full, even a small set goes on to L2', () => {
    const a = assignCaches([99, 2, 2], machine)
    // 2 + 2 = 4 in L1, then 99 would make 103 > 100.
    expect(a.levels.map((l) => l.sets)).toEqual([[1, 2], [0], []])
  })

  it('a larger working set never costs less', () => {
    const sizes = [10, 40, 300, 700, 4000, 9000, 30_000]
    const costs = sizes.map((s) => assignCaches([s, 50, 500], machine).cost)
    expect(costs).toEqual([...costs].sort((x, y) => x - y))
  })
})
