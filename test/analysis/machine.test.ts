/**
 * The machine model: this machine's (checked against lscpu or getconf), a fake sysfs tree, CPUID's sizes, defaults,
 * overrides, the prefetchers' streams.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { KernelDiagnostic } from '../../plugin/diagnostics.ts'
import { LEVEL_COSTS, MEMORY_COST, readMachine } from '../../plugin/targets/machine.ts'
import { FEWEST_PREFETCH_STREAMS } from '../../plugin/targets/prefetch.ts'

const tmp = mkdtempSync(path.join(os.tmpdir(), 'polykern-machine-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

/** Four CPUs online, two SMT siblings per core. */
function fakeSysfs(name: string, caches: Record<string, string>[]): string {
  const online = '0-3'
  const siblings = ['0-1', '0-1', '2-3', '2-3']
  const root = path.join(tmp, name)
  mkdirSync(root, { recursive: true })
  caches.forEach((fields, n) => {
    const dir = path.join(root, 'cpu0', 'cache', `index${n}`)
    mkdirSync(dir, { recursive: true })
    for (const [f, v] of Object.entries(fields)) writeFileSync(path.join(dir, f), `${v}\n`)
  })
  writeFileSync(path.join(root, 'online'), `${online}\n`)
  siblings.forEach((s, n) => {
    mkdirSync(path.join(root, `cpu${n}`, 'topology'), { recursive: true })
    writeFileSync(path.join(root, `cpu${n}`, 'topology', 'thread_siblings_list'), `${s}\n`)
  })
  return root
}

const level = (l: number, type: string, size: string, shared: string) => ({
  level: String(l),
  type,
  size,
  coherency_line_size: '64',
  shared_cpu_list: shared,
})

describe('readMachine', () => {
  // Where the kernel publishes cache trees (lscpu reads them), sysfs; lscpu, not getconf, as glibc sizes AMD's L3 from
  // CPUID, which under a hypervisor reported the whole socket's 256 MiB where sysfs (and lscpu) give the 32 MiB one
  // core complex shares. Without them (Firecracker guests), CPUID's sizes as getconf prints them.
  const hasCacheTree = existsSync('/sys/devices/system/cpu/cpu0/cache')
  it(`reads this machine's caches: ${hasCacheTree ? 'sysfs, the sizes, lines and cores lscpu reports' : 'no sysfs cache tree here, so CPUID\'s, as getconf reports them'}`, () => {
    const m = readMachine()
    if (hasCacheTree) {
      const table = execFileSync('lscpu', ['-C=LEVEL,TYPE,ONE-SIZE,COHERENCY-SIZE', '-B'], { encoding: 'utf8' })
      const data = table.split('\n').map((l) => l.trim().split(/\s+/)).filter((f) => /^\d+$/.test(f[0]) && f[1] !== 'Instruction')
      expect(m.source).toBe('sysfs')
      expect(m.caches.map((c) => c.level)).toEqual([1, 2, 3])
      expect(m.caches.map((c) => c.bytes)).toEqual(data.map((f) => Number(f[2])))
      expect(m.caches.map((c) => c.lineBytes)).toEqual(data.map((f) => Number(f[3])))
    } else {
      const conf = (name: string) => Number(execFileSync('getconf', [name], { encoding: 'utf8' }).trim())
      expect(m.source).toBe('cpuid')
      expect(m.caches.slice(0, 2).map((c) => [c.level, c.bytes, c.lineBytes])).toEqual([
        [1, conf('LEVEL1_DCACHE_SIZE'), conf('LEVEL1_DCACHE_LINESIZE')],
        [2, conf('LEVEL2_CACHE_SIZE'), conf('LEVEL2_CACHE_LINESIZE')],
      ])
    }
    const cores = execFileSync('lscpu', ['-p=CORE,SOCKET'], { encoding: 'utf8' }).split('\n').filter((l) => /^\d/.test(l))
    expect(m.cores).toBe(new Set(cores).size)
    expect(m.caches[0].sharedBy).toBe(1)
    expect(m.caches.map((c) => [c.latency, c.bandwidth])).toEqual(LEVEL_COSTS.slice(0, m.caches.length).map((c) => [c.latency, c.bandwidth]))
    const caches = m.caches.map((c) => `L${c.level} ${c.bytes / 1024} KiB shared by ${c.sharedBy}`)
    console.log(`this machine (${m.source}): ${caches.join(', ')}, ${m.cores} cores`)
  })

  it('without a cache tree: the sizes getconf prints from CPUID, the last level shared by the online CPUs', () => {
    const root = fakeSysfs('no-caches', [])
    const getconf = [
      'LEVEL1_ICACHE_SIZE                 32768',
      'LEVEL1_DCACHE_SIZE                 49152',
      'LEVEL1_DCACHE_LINESIZE             64',
      'LEVEL2_CACHE_SIZE                  1048576',
      'LEVEL2_CACHE_LINESIZE              64',
      'LEVEL3_CACHE_SIZE                  532676608',
      'LEVEL3_CACHE_LINESIZE              64',
      'LEVEL4_CACHE_SIZE                  ',
      'LEVEL4_CACHE_LINESIZE              ',
    ].join('\n')
    const m = readMachine({}, root, () => getconf)
    expect(m).toMatchObject({ source: 'cpuid', cores: 2, memory: MEMORY_COST })
    expect(m.caches.map((c) => [c.level, c.bytes, c.lineBytes, c.sharedBy])).toEqual([
      [1, 49152, 64, 1],
      [2, 1048576, 64, 1],
      [3, 532676608, 64, 4],
    ])
    // Without an L2 (or with getconf missing), the defaults.
    expect(readMachine({}, root, () => getconf.replace(/LEVEL2_CACHE_SIZE\s+\d+/, 'LEVEL2_CACHE_SIZE 0')).source).toBe('default')
    expect(readMachine({}, root, () => undefined).source).toBe('default')
  })

  it('a fake tree: instruction caches skipped, K/M sizes, CPU lists, SMT siblings counted once', () => {
    const root = fakeSysfs('fake', [
      level(1, 'Data', '32K', '0'),
      level(1, 'Instruction', '32K', '0'),
      level(2, 'Unified', '1M', '0-1'),
      level(3, 'Unified', '36608K', '0-3,8,10-11'),
    ])
    const m = readMachine({}, root)
    expect(m).toMatchObject({ source: 'sysfs', cores: 2, memory: MEMORY_COST })
    expect(m.caches.map((c) => [c.level, c.bytes, c.sharedBy])).toEqual([
      [1, 32 * 1024, 1],
      [2, 1024 * 1024, 2],
      [3, 36608 * 1024, 7],
    ])
  })

  it('the CPU model from the OS and the clock from cpufreq, kept through overrides', () => {
    const root = fakeSysfs('clocked', [level(1, 'Data', '48K', '0')])
    mkdirSync(path.join(root, 'cpu0', 'cpufreq'), { recursive: true })
    writeFileSync(path.join(root, 'cpu0', 'cpufreq', 'cpuinfo_max_freq'), '3100000\n')
    const m = readMachine({}, root)
    expect(m.model).toBe(os.cpus()[0].model)
    expect(m.clock).toEqual({ ghz: 3.1, source: 'cpufreq' })
    expect(readMachine({ cores: 7 }, root)).toMatchObject({ cores: 7, model: m.model, clock: m.clock })
    // Without cpufreq, /proc/cpuinfo's MHz (this machine's tree may lack cpufreq too).
    expect(readMachine({}, path.join(tmp, 'missing')).clock.source).toMatch(/^(cpufreq|cpuinfo|assumed)$/)
  })

  it('falls back to the documented defaults when sysfs is unreadable or nonsense', () => {
    for (const root of [path.join(tmp, 'missing'), fakeSysfs('bad', [level(1, 'Data', 'lots', '0')])]) {
      const m = readMachine({}, root, () => undefined)
      expect(m.source).toBe('default')
      expect(m.caches.map((c) => c.bytes)).toEqual([32 * 1024, 1024 * 1024, 38.5 * 1024 * 1024])
      expect(m.cores).toBe(os.availableParallelism())
    }
  })

  it('overrides win field by field, add levels, and mark the source', () => {
    const base = readMachine()
    const m = readMachine({
      cores: 7,
      caches: [{ level: 2, bytes: 123_456 }, { level: 4, bytes: 1 << 30, latency: 90 }],
      memory: { latency: 999 },
    })
    expect(m.source).toBe('options')
    expect(m.cores).toBe(7)
    expect(m.caches.map((c) => c.level)).toEqual([1, 2, 3, 4])
    expect(m.caches[1]).toEqual({ ...base.caches[1], bytes: 123_456 })
    expect(m.caches[0]).toEqual(base.caches[0])
    expect(m.caches[3]).toMatchObject({ bytes: 1 << 30, latency: 90, bandwidth: LEVEL_COSTS[2].bandwidth })
    expect(m.memory).toEqual({ latency: 999, bandwidth: base.memory.bandwidth })
    expect(m.prefetchStreams).toBe(base.prefetchStreams)
    expect(readMachine({ prefetchStreams: 5 })).toMatchObject({ prefetchStreams: 5, source: 'options' })
    const err = (() => {
      try {
        readMachine({ caches: [{ level: 5, latency: 1 }] })
      } catch (e) {
        return e
      }
    })()
    expect(err).toBeInstanceOf(KernelDiagnostic)
    expect((err as KernelDiagnostic).code).toBe('options_machine_cache')
  })

  it('the prefetchers\' streams by the core /proc/cpuinfo names: a measured core its own, any other the fewest', () => {
    const cpuinfo = (vendor: string, family: number) => `processor\t: 0\nvendor_id\t: ${vendor}\ncpu family\t: ${family}\nmodel\t\t: 2\n`
    const root = fakeSysfs('streams', [level(1, 'Data', '48K', '0'), level(2, 'Unified', '1M', '0')])
    const streams = (text: string | undefined) => readMachine({}, root, () => undefined, text).prefetchStreams
    expect(streams(cpuinfo('AuthenticAMD', 26))).toBe(32)
    expect(streams(cpuinfo('AuthenticAMD', 25))).toBe(FEWEST_PREFETCH_STREAMS)
    expect(streams(cpuinfo('GenuineIntel', 6))).toBe(FEWEST_PREFETCH_STREAMS)
    expect(streams('')).toBe(FEWEST_PREFETCH_STREAMS)
    expect(streams('nonsense')).toBe(FEWEST_PREFETCH_STREAMS)
    // Without sysfs too (the defaults): the streams come from the core, not the cache tree.
    expect(readMachine({}, path.join(tmp, 'missing'), () => undefined, cpuinfo('AuthenticAMD', 26)).prefetchStreams).toBe(32)
  })

  it('the cost table gets slower and narrower away from the core', () => {
    const rows = [...LEVEL_COSTS, MEMORY_COST]
    for (let n = 1; n < rows.length; n++) {
      expect(rows[n].latency).toBeGreaterThan(rows[n - 1].latency)
      expect(rows[n].bandwidth).toBeLessThan(rows[n - 1].bandwidth)
    }
  })
})
