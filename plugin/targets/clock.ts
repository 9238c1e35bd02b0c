/**
 * The core clock the cost model's cycles are turned into time with: the kernel's maximum frequency from cpufreq,
 * else the current MHz /proc/cpuinfo shows, else an assumption. Where it came from is kept with it, since it is one:
 * turbo and AVX-512 frequency licences move the real clock.
 */
import { readFileSync } from 'node:fs'

export interface CoreClock {
  readonly ghz: number
  readonly source: 'cpufreq' | 'cpuinfo' | 'assumed'
}

/** The clock targets/machine.ts prices its memory latency with ("about 80 ns at 2.5 GHz"). */
export const ASSUMED_GHZ = 2.5

/** `root`: the CPU tree to read; `cpuinfo`: /proc/cpuinfo's text (targets/machine.ts reads it once for all). */
export function readClock(root: string, cpuinfo: string | undefined): CoreClock {
  try {
    const khz = Number(readFileSync(`${root}/cpu0/cpufreq/cpuinfo_max_freq`, 'utf8').trim())
    if (khz > 0) return { ghz: khz / 1e6, source: 'cpufreq' }
  } catch {}
  const mhz = Number(/^cpu MHz\s*:\s*([\d.]+)/m.exec(cpuinfo ?? '')?.[1])
  if (mhz > 0) return { ghz: mhz / 1e3, source: 'cpuinfo' }
  return { ghz: ASSUMED_GHZ, source: 'assumed' }
}

/** /proc/cpuinfo's text, or undefined where there is none (not Linux). */
export function readCpuinfo(file = '/proc/cpuinfo'): string | undefined {
  try {
    return readFileSync(file, 'utf8')
  } catch {
    return undefined
  }
}
