/**
 * The machine's fp32 FMA peak on one core, from the probe addon built from peak.c (run.mjs builds it with polykern's
 * buildAddon): the best of many short timed calls (~30 ms of FMA chains each), so that on a busy 2-core machine some
 * calls still run without being preempted.
 */
import { createRequire } from 'node:module'
import { timeCall } from './measure.ts'

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

export async function measurePeak(addonPath: string): Promise<Peak> {
  const probe = createRequire(import.meta.url)(addonPath) as PeakProbe
  const gflops = async (isa: keyof typeof LANES): Promise<number | null> => {
    if (probe[isa](0) === undefined) return null
    let best = Infinity
    for (let r = 0; r < REPEATS; r++) best = Math.min(best, await timeCall(() => probe[isa](ITERATIONS)))
    return (probe.chains * LANES[isa] * 2 * ITERATIONS) / best / 1e9
  }
  return { avx512: await gflops('avx512'), avx2: await gflops('avx2') }
}
