/**
 * The build machine's memory hierarchy, as the reuse analysis sees it: data caches read from Linux sysfs, each
 * level's latency and bandwidth from a documented table, anything overridable from options. Where the kernel
 * publishes no cache tree (some virtual machines: Firecracker guests have /sys/devices/system/cpu/cpu0 without
 * `cache/`), the sizes CPUID reports, as glibc reads them for `getconf`. Elsewhere, documented defaults.
 */
import { execFileSync } from 'node:child_process'
import { readFileSync, readdirSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { KernelDiagnostic } from '../diagnostics.ts'
import { readClock, readCpuinfo, type CoreClock } from './clock.ts'
import { prefetchStreamsOf } from './prefetch.ts'

export interface Cost {
  /** Load-to-use latency, cycles. */
  readonly latency: number
  /** Sustained bandwidth into one core, bytes per cycle. */
  readonly bandwidth: number
}

export interface CacheLevel extends Cost {
  readonly level: number
  readonly bytes: number
  readonly lineBytes: number
  /** Logical CPUs sharing this cache (1: private to a core). */
  readonly sharedBy: number
}

export interface Machine {
  /** The CPU's model name, as the OS gives it: part of the tuning cache's key, shown in the build report. */
  readonly model: string
  /** What the model's cycles are turned into time with (the build report's rates). */
  readonly clock: CoreClock
  /** Physical cores, as the build report shows them (the threads the ranking plans for are Target.threads). */
  readonly cores: number
  /** Data and unified caches, L1 first. */
  readonly caches: readonly CacheLevel[]
  readonly memory: Cost
  /** Streams the hardware prefetchers follow at once (prefetch.ts): rows of an operand read in place that stall nothing. */
  readonly prefetchStreams: number
  readonly source: 'sysfs' | 'cpuid' | 'default' | 'options'
}

export interface MachineOverrides {
  readonly cores?: number
  /** Each entry replaces fields of the level with the same number, or adds that level (then `bytes` is needed). */
  readonly caches?: readonly (Partial<CacheLevel> & { readonly level: number })[]
  readonly memory?: Partial<Cost>
  readonly prefetchStreams?: number
}

/**
 * Per-level costs (Intel server cores; the paper gives none). L1: 5 cycles, 64 B/cycle (half the peak of two
 * 64-byte loads per cycle, as a kernel that also stores sustains). L2: 14 cycles, 48 B/cycle (Skylake-SP: 64 B/cycle
 * peak, about 52 sustained). L3: 50 cycles, 16 B/cycle (Skylake-SP mesh: 50-70 cycles, about 15 B/cycle per core).
 * Sources: Intel 64 and IA-32 Architectures Optimization Reference Manual, Skylake Server cache tables; Golden
 * Cove cores (this machine's 48 KiB L1d, 2 MiB L2) are within a cycle or two. A deeper level reuses the L3 row.
 */
export const LEVEL_COSTS: readonly Cost[] = [
  { latency: 5, bandwidth: 64 },
  { latency: 14, bandwidth: 48 },
  { latency: 50, bandwidth: 16 },
]

/** DRAM: about 80 ns at 2.5 GHz, and one core streams about 20 GB/s. */
export const MEMORY_COST: Cost = { latency: 200, bandwidth: 8 }

const KIB = 1024
const MIB = 1024 * KIB

/**
 * Without sysfs: PolyDL's Xeon Platinum 8280 (32 KiB L1d and 1 MiB L2 per core, 38.5 MiB L3 for the socket),
 * with this process's CPUs sharing the L3.
 */
function defaultCaches(cpus: number): CacheLevel[] {
  return [
    { level: 1, bytes: 32 * KIB, lineBytes: 64, sharedBy: 1, ...costOf(1) },
    { level: 2, bytes: 1 * MIB, lineBytes: 64, sharedBy: 1, ...costOf(2) },
    { level: 3, bytes: 38.5 * MIB, lineBytes: 64, sharedBy: cpus, ...costOf(3) },
  ]
}

const costOf = (level: number): Cost => LEVEL_COSTS[Math.min(level, LEVEL_COSTS.length) - 1]

/**
 * `sysfs`: the CPU tree to read; `getconf`: `getconf -a`'s output, or undefined where it cannot run; `cpuinfo`:
 * /proc/cpuinfo's text, read once for the clock and the prefetchers (all replaceable for tests).
 */
export function readMachine(
  overrides: MachineOverrides = {},
  sysfs = '/sys/devices/system/cpu',
  getconf: () => string | undefined = getconfAll,
  cpuinfo: string | undefined = readCpuinfo(),
): Machine {
  const cpu = { model: os.cpus()[0]?.model ?? 'unknown', clock: readClock(sysfs, cpuinfo), prefetchStreams: prefetchStreamsOf(cpuinfo) }
  const read = process.platform === 'linux' ? (readSysfs(sysfs) ?? readCpuid(sysfs, getconf)) : undefined
  const base: Machine = read ? { ...cpu, ...read } : {
    ...cpu,
    // Logical CPUs: without sysfs there is no portable way to tell SMT siblings apart.
    cores: os.availableParallelism(),
    caches: defaultCaches(os.availableParallelism()),
    memory: MEMORY_COST,
    source: 'default',
  }
  const given = overrides.cores !== undefined || overrides.caches !== undefined || overrides.memory !== undefined ||
    overrides.prefetchStreams !== undefined
  return given ? applyOverrides(base, overrides) : base
}

function applyOverrides(base: Machine, o: MachineOverrides): Machine {
  const caches = new Map(base.caches.map((c) => [c.level, c]))
  for (const c of o.caches ?? []) {
    const old = caches.get(c.level)
    if (old === undefined && c.bytes === undefined) {
      const message = `machine option: cache level ${c.level} is new here, so it needs 'bytes'`
      throw new KernelDiagnostic('options_machine_cache', message)
    }
    caches.set(c.level, { lineBytes: 64, sharedBy: 1, ...costOf(c.level), ...old, ...c } as CacheLevel)
  }
  return {
    ...base,
    cores: o.cores ?? base.cores,
    caches: [...caches.values()].sort((x, y) => x.level - y.level),
    memory: { ...base.memory, ...o.memory },
    prefetchStreams: o.prefetchStreams ?? base.prefetchStreams,
    source: 'options',
  }
}

/** cpu0's data and unified caches, and the physical cores online; undefined when any of it cannot be read. */
function readSysfs(root: string): Omit<Machine, 'model' | 'clock' | 'prefetchStreams'> | undefined {
  try {
    const dir = path.join(root, 'cpu0', 'cache')
    const caches: CacheLevel[] = []
    for (const entry of readdirSync(dir).filter((e) => /^index\d+$/.test(e)).sort()) {
      const field = (name: string) => readFileSync(path.join(dir, entry, name), 'utf8').trim()
      if (field('type') === 'Instruction') continue
      const level = Number(field('level'))
      if (caches.some((c) => c.level === level)) continue
      caches.push({
        level,
        bytes: parseSize(field('size')),
        lineBytes: Number(field('coherency_line_size')),
        sharedBy: cpuList(field('shared_cpu_list')).length,
        ...costOf(level),
      })
    }
    if (caches.length === 0 || caches.some((c) => !(c.bytes > 0 && c.lineBytes > 0 && c.level > 0))) return undefined
    caches.sort((x, y) => x.level - y.level)
    return { cores: physicalCores(root, onlineCpus(root)), caches, memory: MEMORY_COST, source: 'sysfs' }
  } catch {
    return undefined
  }
}

/**
 * The data caches CPUID describes (Intel's leaf 4, AMD's 0x80000005/6 or 0x8000001D), through glibc's sysconf as
 * `getconf -a` prints it: sizes and lines, not sharing. L1 and L2 are each core's own; the last level is taken as
 * shared by every online CPU (under a hypervisor CPUID may give the whole socket's L3: this machine's Firecracker
 * guest reports 508 MiB). Undefined unless L1d and L2 are both there.
 */
function readCpuid(root: string, getconf: () => string | undefined): Omit<Machine, 'model' | 'clock' | 'prefetchStreams'> | undefined {
  const text = getconf()
  if (text === undefined) return undefined
  const value = (name: string): number => Number(new RegExp(`^${name}\\s+(\\d+)\\s*$`, 'm').exec(text)?.[1] ?? NaN)
  const found = [1, 2, 3, 4].flatMap((level) => {
    const name = level === 1 ? 'LEVEL1_DCACHE' : `LEVEL${level}_CACHE`
    const bytes = value(`${name}_SIZE`)
    const lineBytes = value(`${name}_LINESIZE`)
    return bytes > 0 && lineBytes > 0 ? [{ level, bytes, lineBytes }] : []
  })
  if (!found.some((c) => c.level === 1) || !found.some((c) => c.level === 2)) return undefined
  const last = Math.max(...found.map((c) => c.level))
  const online = onlineCpus(root)
  const caches = found.map((c) => ({ ...c, sharedBy: c.level === last && last > 2 ? online.length : 1, ...costOf(c.level) }))
  return { cores: physicalCores(root, online), caches, memory: MEMORY_COST, source: 'cpuid' }
}

function getconfAll(): string | undefined {
  try {
    return execFileSync('getconf', ['-a'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 5_000 })
  } catch {
    return undefined
  }
}

/** Online CPUs grouped by SMT siblings: hyperthreads share a core's FMA units, so they count once. */
function physicalCores(root: string, online: readonly number[]): number {
  const siblings = new Set(
    online.map((n) => {
      try {
        return readFileSync(path.join(root, `cpu${n}`, 'topology', 'thread_siblings_list'), 'utf8').trim()
      } catch {
        return String(n)
      }
    }),
  )
  return siblings.size
}

/** The online CPUs' numbers; this process's count of them where sysfs does not say. */
function onlineCpus(root: string): number[] {
  try {
    return cpuList(readFileSync(path.join(root, 'online'), 'utf8'))
  } catch {
    return [...Array(os.availableParallelism()).keys()]
  }
}

/** `48K`, `2048K`, `1M`, or plain bytes. */
function parseSize(text: string): number {
  const m = /^(\d+)\s*([KMG]?)$/i.exec(text)
  if (!m) return NaN
  return Number(m[1]) * ({ '': 1, K: KIB, M: MIB, G: 1024 * MIB } as Record<string, number>)[m[2].toUpperCase()]
}

/** `0-3,8,10-11` → [0, 1, 2, 3, 8, 10, 11]. */
function cpuList(text: string): number[] {
  return text
    .trim()
    .split(',')
    .filter((part) => part !== '')
    .flatMap((part) => {
      const [lo, hi = lo] = part.split('-').map(Number)
      return Array.from({ length: hi - lo + 1 }, (_, n) => lo + n)
    })
}
