/**
 * PolyDL Algorithm 2 and Eq. 1. Working sets, smallest first, go to the first cache level where they fit beside
 * what that level already holds (the paper's fully associative, exclusive caches); the rest go to memory. The cost
 * is Σ bytes_L · latency_L / bandwidth_L over the levels and memory: lower is better.
 */
import type { Machine } from '../targets/machine.ts'

export interface LevelShare {
  readonly level: number
  readonly capacity: number
  readonly bytes: number
  /** Indices into the input of the working sets assigned here. */
  readonly sets: readonly number[]
}

export interface CacheAssignment {
  readonly levels: readonly LevelShare[]
  readonly memory: { readonly bytes: number; readonly sets: readonly number[] }
  readonly cost: number
}

export function assignCaches(workingSetBytes: readonly number[], machine: Machine): CacheAssignment {
  const levels = machine.caches.map((c) => ({ level: c.level, capacity: c.bytes, bytes: 0, sets: [] as number[] }))
  const memory = { bytes: 0, sets: [] as number[] }
  const order = workingSetBytes.map((_, n) => n).sort((x, y) => workingSetBytes[x] - workingSetBytes[y] || x - y)
  for (const n of order) {
    const size = workingSetBytes[n]
    const home = levels.find((l) => l.bytes + size <= l.capacity) ?? memory
    home.bytes += size
    home.sets.push(n)
  }
  const cost =
    levels.reduce((sum, l, n) => sum + (l.bytes * machine.caches[n].latency) / machine.caches[n].bandwidth, 0) +
    (memory.bytes * machine.memory.latency) / machine.memory.bandwidth
  return { levels, memory, cost }
}
