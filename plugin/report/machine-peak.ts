/**
 * The build machine's roofline: peak FLOP/s and memory bandwidth, from the machine model the schedule ranking uses
 * (targets/machine.ts: cores, per-core memory bandwidth in bytes per cycle; gemm-model.ts: FMA units per core) and
 * a clock. The model counts cycles, so every rate in the report needs the clock; where it comes from is recorded,
 * since it is an assumption (turbo and AVX-512 licences move the real one).
 */
import { readFileSync } from 'node:fs'
import { FMA_UNITS } from '../schedule/gemm-model.ts'
import type { Machine } from '../targets/machine.ts'

export interface Clock {
  readonly ghz: number
  /** `cpufreq`: the kernel's maximum frequency; `cpuinfo`: the current MHz /proc/cpuinfo shows; `assumed`: neither. */
  readonly source: 'cpufreq' | 'cpuinfo' | 'assumed'
}

/** The clock targets/machine.ts prices its memory latency with ("about 80 ns at 2.5 GHz"). */
export const ASSUMED_GHZ = 2.5

export function readClock(root = '/sys/devices/system/cpu', cpuinfo = '/proc/cpuinfo'): Clock {
  try {
    const khz = Number(readFileSync(`${root}/cpu0/cpufreq/cpuinfo_max_freq`, 'utf8').trim())
    if (khz > 0) return { ghz: khz / 1e6, source: 'cpufreq' }
  } catch {}
  try {
    const mhz = Number(/^cpu MHz\s*:\s*([\d.]+)/m.exec(readFileSync(cpuinfo, 'utf8'))?.[1])
    if (mhz > 0) return { ghz: mhz / 1e3, source: 'cpuinfo' }
  } catch {}
  return { ghz: ASSUMED_GHZ, source: 'assumed' }
}

export interface Roofline {
  readonly clock: Clock
  /** Threads the kernels run with: the `threads` option, else the machine's cores. */
  readonly threads: number
  /** Vector lanes of f32 FMAs on the ISA that runs here (1: scalar). */
  readonly lanes: number
  /** threads × FMA units × lanes × 2 FLOP × clock. */
  readonly peakGflops: number
  /** threads × the model's per-core memory bandwidth × clock. */
  readonly memoryGBs: number
}

export function rooflineOf(machine: Machine, threads: number, lanes: number, clock: Clock): Roofline {
  return {
    clock,
    threads,
    lanes,
    peakGflops: threads * FMA_UNITS * lanes * 2 * clock.ghz,
    memoryGBs: threads * machine.memory.bandwidth * clock.ghz,
  }
}

/** Predicted GFLOP/s of `flops` done in `cycles` of the busiest thread at the clock. */
export const gflopsAt = (flops: number, cycles: number, clock: Clock): number => (flops / cycles) * clock.ghz
