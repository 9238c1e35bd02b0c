/**
 * The build machine's roofline: peak FLOP/s and memory bandwidth, from the machine model the schedule ranking uses
 * (targets/machine.ts: cores, per-core memory bandwidth in bytes per cycle; gemm-model.ts: FMA units per core) and
 * its clock (targets/clock.ts). The model counts cycles, so every rate in the report needs the clock.
 */
import { FMA_UNITS } from '../schedule/gemm-model.ts'
import type { CoreClock } from '../targets/clock.ts'
import type { Machine } from '../targets/machine.ts'

export interface Roofline {
  readonly clock: CoreClock
  /** Threads the kernels run with: the `threads` option, else the machine's cores. */
  readonly threads: number
  /** Vector lanes of f32 FMAs on the ISA that runs here (1: scalar). */
  readonly lanes: number
  /** threads × FMA units × lanes × 2 FLOP × clock. */
  readonly peakGflops: number
  /** threads × the model's per-core memory bandwidth × clock. */
  readonly memoryGBs: number
}

export function rooflineOf(machine: Machine, threads: number, lanes: number): Roofline {
  const { clock } = machine
  return {
    clock,
    threads,
    lanes,
    peakGflops: threads * FMA_UNITS * lanes * 2 * clock.ghz,
    memoryGBs: threads * machine.memory.bandwidth * clock.ghz,
  }
}

/** Predicted GFLOP/s of `flops` done in `cycles` of the busiest thread at the clock. */
export const gflopsAt = (flops: number, cycles: number, clock: CoreClock): number => (flops / cycles) * clock.ghz
