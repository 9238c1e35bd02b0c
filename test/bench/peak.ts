/**
 * The machine's fp32 FMA peak on one core, from the probe addon built from peak.c (run.mjs builds it with polykern's
 * buildAddon): the best of many short timed calls (~30 ms of FMA chains each), so that on a busy 2-core machine some
 * calls still run without being preempted.
 */
import { createRequire } from 'node:module'
import { timeCalls } from '../../plugin/measure/timing.ts'

interface PeakProbe {
  /** Runs the chains `iterations` times; undefined when the CPU lacks the ISA. */
  readonly avx512: (iterations: number) => number | undefined
  readonly avx2: (iterations: number) => number | undefined
  readonly chains: number
}

export interface Peak {
  /** GFLOP/s of one core, null when the CPU lacks the ISA. */
  readonly avx512: number | null
  readonly avx2: number | null
}

const ITERATIONS = 20_000_000
const REPEATS = 20
const LANES = { avx512: 16, avx2: 8 } as const

export function measurePeak(addonPath: string): Peak {
  const probe = createRequire(import.meta.url)(addonPath) as PeakProbe
  const gflops = (isa: keyof typeof LANES): number | null => {
    if (probe[isa](0) === undefined) return null
    const [t] = timeCalls([() => probe[isa](ITERATIONS)], { budgetMs: 0, minRounds: REPEATS })
    // FLOPs per ns: GFLOP/s.
    return (probe.chains * LANES[isa] * 2 * ITERATIONS) / t.bestNs
  }
  return { avx512: gflops('avx512'), avx2: gflops('avx2') }
}
