/** The machine model: real sysfs here (checked against getconf and lscpu), a fake sysfs tree, defaults, overrides. */
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { KernelDiagnostic } from '../../plugin/diagnostics.ts'
import { LEVEL_COSTS, MEMORY_COST, readMachine } from '../../plugin/targets/machine.ts'

const tmp = mkdtempSync(path.join(os.tmpdir(), 'polykern-machine-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

/** Four CPUs online, two SMT siblings per core. */
function fakeSysfs(name: string, caches: Record<string, string>[]): string {
  const online = '0-3'
  const siblings = ['0-1', '0-1', '2-3', '2-3']
  const root = path.join(tmp, name)
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
  // lscpu, not getconf: glibc sizes AMD's L3 from CPUID, which under a hypervisor reported the whole socket's 256 MiB
  // where sysfs (and lscpu) give the 32 MiB one core complex shares.
  it('reads this machine\'s caches from sysfs: the sizes, lines and cores lscpu reports', () => {
    const table = execFileSync('lscpu', ['-C=LEVEL,TYPE,ONE-SIZE,COHERENCY-SIZE', '-B'], { encoding: 'utf8' })
    const data = table.split('\n').map((l) => l.trim().split(/\s+/)).filter((f) => /^\d+$/.test(f[0]) && f[1] !== 'Instruction')
    const m = readMachine()
    expect(m.source).toBe('sysfs')
    expect(m.caches.map((c) => c.level)).toEqual([1, 2, 3])
    expect(m.caches.map((c) => c.bytes)).toEqual(data.map((f) => Number(f[2])))
    expect(m.caches.map((c) => c.lineBytes)).toEqual(data.map((f) => Number(f[3])))
    const cores = execFileSync('lscpu', ['-p=CORE,SOCKET'], { encoding: 'utf8' }).split('\n').filter((l) => /^\d/.test(l))
    expect(m.cores).toBe(new Set(cores).size)
    expect(m.caches[0].sharedBy).toBe(1)
    expect(m.caches.map((c) => [c.latency, c.bandwidth])).toEqual(LEVEL_COSTS.map((c) => [c.latency, c.bandwidth]))
    const caches = m.caches.map((c) => `L${c.level} ${c.bytes / 1024} KiB shared by ${c.sharedBy}`)
    console.log(`this machine: ${caches.join(', ')}, ${m.cores} cores`)
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
      const m = readMachine({}, root)
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

  it('the cost table gets slower and narrower away from the core', () => {
    const rows = [...LEVEL_COSTS, MEMORY_COST]
    for (let n = 1; n < rows.length; n++) {
      expect(rows[n].latency).toBeGreaterThan(rows[n - 1].latency)
      expect(rows[n].bandwidth).toBeLessThan(rows[n - 1].bandwidth)
    }
  })
})
