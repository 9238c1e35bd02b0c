/**
 * The `report` option's JSON: every kernel of the fixture module, with its location, spec, ISAs, per-class schedules
 * with working sets and predicted against measured GFLOP/s, the ranking, and only finite numbers; written beside the
 * bundle for esbuild (`outdir`) and Rollup (`output.dir`), or into `dir`; nothing without the option.
 */
import fs from 'node:fs'
import path from 'node:path'
import { rollup } from 'rollup'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import polykernRollup from '../../plugin/rollup.ts'
import { BUNDLERS, fixtureRoot as bundlersFixture, stripTypes } from '../bundlers/build.ts'
import type { BuildReport } from '../../plugin/report/report-types.ts'
import { ISAS } from '../../plugin/targets/index.ts'
import { FIXTURE_KERNELS, buildWithReport, cacheDir, fixtureRoot, removeScratch, scratchDir } from './build-fixture.ts'

const readReport = (dir: string): BuildReport => JSON.parse(fs.readFileSync(path.join(dir, 'polykern-report.json'), 'utf8'))

/** Every number anywhere in the value, with its path. */
function numbersIn(value: unknown, at = '$'): [string, number][] {
  if (typeof value === 'number') return [[at, value]]
  if (Array.isArray(value)) return value.flatMap((v, n) => numbersIn(v, `${at}[${n}]`))
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => numbersIn(v, `${at}.${k}`))
  return []
}

let outdir: string
let report: BuildReport
beforeAll(async () => {
  outdir = await buildWithReport()
  report = readReport(outdir)
}, 180_000)
afterAll(removeScratch)

describe('polykern-report.json', () => {
  test('lists every kernel of the module with its location, spec, tensors, ISAs and native status', () => {
    expect(report.version).toBe(1)
    expect(report.kernels.map((k) => k.name)).toEqual(FIXTURE_KERNELS)
    const source = fs.readFileSync(path.join(fixtureRoot, 'src/kernels.ts'), 'utf8').split('\n')
    for (const k of report.kernels) {
      expect(k.module).toBe('src/kernels.ts')
      const [, line, column] = /^src\/kernels\.ts:(\d+):(\d+)$/.exec(k.location)!.map(Number)
      // The location points at the kernel's `@kernel` comment, and its spec is the comment's text.
      expect(source[line - 1].slice(column - 1)).toMatch(/^\/\* @kernel/)
      expect(source.slice(line, line + 12).join('\n')).toContain(k.spec.split('\n')[0])
      expect(k.isas.at(-1)).toBe('scalar')
      expect(k.native).toMatchObject({ built: true, isa: report.machine.isa })
      expect(k.loops.length).toBeGreaterThan(0)
    }
    expect(report.kernels[0].spec).toContain('C[i, j] +=! A[i, k] * B[k, j]')
    expect(report.kernels[2].tensors.map((t) => `${t.name}:${t.role}`)).toEqual(['X:in', 'Y:out', 'm:temp', 'z:temp'])
  })

  test('a contraction has a schedule per ISA and shape class, working sets per level, and predictions', () => {
    for (const name of ['matmul', 'batchedMatmul']) {
      const k = report.kernels.find((x) => x.name === name)!
      expect(k.contractions).toHaveLength(1)
      const c = k.contractions[0]
      expect(c.roles).toMatchObject({ m: 'i', n: 'j', k: 'k', a: 'A', b: 'B', c: 'C' })
      expect(c.schedules.map((s) => s.isa)).toEqual(expect.arrayContaining(['avx512', 'avx2']))
      for (const s of c.schedules) {
        const classes = s.classes.map((x) => x.shapeClass)
        expect(classes.at(-1)).toBe('large')
        expect(classes).toEqual(expect.arrayContaining(['small', 'matvec', 'skinny-m', 'skinny-n', 'small-k', 'short-m']))
        expect(classes.includes('small-batched')).toBe(name === 'batchedMatmul' && report.roofline.threads > 1)
        for (const x of s.classes) {
          expect(x.blocking.mc).toBeGreaterThan(0)
          expect(x.blocking.order).toHaveLength(3)
          expect(['m', 'n', 'batch', 'none']).toContain(x.blocking.parallel)
          expect(x.description).toMatch(/^mc \d+ nc \d+ kc \d+, order [mnk]{3}, inner (mn|nm), parallel \w+, pack (AB|A|B|none)$/)
          expect(x.workingSets.length).toBeGreaterThan(0)
          for (const l of x.workingSets) expect(l.level).toMatch(/^(L\d|memory)$/)
          expect(x.workingSets.flatMap((l) => l.sets).every((w) => w.bytes > 0)).toBe(true)
          const { m, n, k: depth, batch } = x.representative
          expect(x.predicted.flops).toBe(2 * m * n * depth * batch)
          expect(x.predicted.gflops).toBeGreaterThan(0)
          // The model's rate never beats the machine's roof for its ISA's vectors (the report draws the roof of the
          // ISA this machine runs; a schedule for a wider one has a higher roof).
          const lanes = ISAS.find((i) => i.name === s.isa)!.microkernels.find((m) => m.name === s.microkernel)!.lanes
          expect(x.predicted.gflops).toBeLessThanOrEqual((report.roofline.peakGflops / report.roofline.lanes) * lanes * 1.0001)
        }
      }
      expect(c.ranking.length).toBeGreaterThan(1)
      expect(c.ranking.length).toBeLessThanOrEqual(8)
      expect(c.ranking.map((r) => r.rank)).toEqual(c.ranking.map((_, n) => n + 1))
      expect(c.ranking[0].cycles).toBeLessThanOrEqual(Math.min(...c.ranking.map((r) => r.cycles)) * 1.006)
    }
  })

  test('the native kernels were timed, within the budget, and each kernel is a point on the roofline', () => {
    const matmul = report.kernels[0]
    const timed = matmul.measurements.filter((m) => m.gflops !== undefined)
    expect(timed.map((m) => m.label)).toContain('small')
    for (const m of timed) {
      expect(m.seconds).toBeGreaterThan(0)
      expect(m.gflops).toBeCloseTo(m.flops / m.seconds! / 1e9, 6)
      expect(m.flops).toBe(2 * m.sizes.M * m.sizes.N * m.sizes.K)
    }
    for (const m of matmul.measurements.filter((x) => x.gflops === undefined)) expect(m.skipped).toMatch(/2\^22|budget|fit/)
    const softmax = report.kernels[2]
    expect(softmax.contractions).toEqual([])
    expect(softmax.measurements).toHaveLength(1)
    expect(softmax.measurements[0]).toMatchObject({ label: 'uniform' })
    expect(softmax.measurements[0].gflops).toBeGreaterThan(0)
    for (const k of report.kernels) {
      expect(k.point, k.name).toBeDefined()
      expect(k.point!.intensity).toBeGreaterThan(0)
      expect(k.point!.gflops).toBeGreaterThan(0)
    }
  })

  test('the machine, its roofline and the stated assumptions; every number is finite', () => {
    expect(report.roofline.peakGflops).toBeCloseTo(report.roofline.threads * 2 * report.roofline.lanes * 2 * report.roofline.clock.ghz, 6)
    expect(report.roofline.memoryGBs).toBeGreaterThan(0)
    expect(['cpufreq', 'cpuinfo', 'assumed']).toContain(report.roofline.clock.source)
    expect(report.assumptions.join('\n')).toContain(`${report.roofline.clock.ghz.toFixed(2)} GHz`)
    expect(report.machine.caches[0].level).toBe(1)
    const numbers = numbersIn(report)
    expect(numbers.length).toBeGreaterThan(100)
    expect(numbers.filter(([, v]) => !Number.isFinite(v))).toEqual([])
  })
})

test('native: false still reports every kernel, with predictions only and the reason nothing was timed', async () => {
  const js = readReport(await buildWithReport({ report: true, native: false }))
  expect(js.kernels.map((k) => k.name)).toEqual(FIXTURE_KERNELS)
  for (const k of js.kernels) {
    expect(k.native).toEqual({ built: false, reason: 'native: false (JS loops only)' })
    expect(k.measurements).toEqual([])
  }
  expect(js.kernels[0].point).toMatchObject({ source: 'predicted', label: 'large' })
  expect(js.kernels[2].point).toBeUndefined()
})

describe('where the report goes', () => {
  test('Rollup: beside the bundle in output.dir', async () => {
    const dir = scratchDir('rollup')
    const bundle = await rollup({
      input: path.join(fixtureRoot, 'src/main.ts'),
      plugins: [polykernRollup({ root: fixtureRoot, cacheDir, quiet: true, report: true }), stripTypes()],
      logLevel: 'silent',
    })
    await bundle.write({ dir, format: 'es' })
    await bundle.close()
    expect(readReport(dir).kernels.map((k) => k.name)).toEqual(FIXTURE_KERNELS)
    expect(fs.readFileSync(path.join(dir, 'polykern-report.html'), 'utf8')).toContain('<svg')
  })

  // The bundlers' shared fixture (another module): Vite, webpack and Rspack say where the bundle goes in other ways.
  test.each(['vite', 'webpack', 'rspack'] as const)('%s: beside the bundle', async (bundler) => {
    const dir = scratchDir(bundler)
    await BUNDLERS[bundler]({ entry: 'src/main.ts', outDir: dir, options: { root: bundlersFixture, cacheDir, quiet: true, report: true } })
    expect(readReport(dir).kernels.map((k) => `${k.module}:${k.name}`)).toEqual(
      ['matmul', 'softmax', 'depthwise3x3'].map((name) => `src/kernels.ts:${name}`),
    )
  })

  test('`dir` puts both files there; without the option there is no report', async () => {
    const elsewhere = scratchDir('dir')
    const out = await buildWithReport({ report: { dir: elsewhere } })
    expect(fs.readdirSync(elsewhere).sort()).toEqual(['polykern-report.html', 'polykern-report.json'])
    expect(fs.readdirSync(out).filter((f) => f.startsWith('polykern-report'))).toEqual([])
    const plain = await buildWithReport({})
    expect(fs.readdirSync(plain).filter((f) => f.startsWith('polykern-report'))).toEqual([])
  })
})

