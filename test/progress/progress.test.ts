// Build progress in the bundler's log (kernel n of m, compile time, addon cache hit or miss, what a long native build
// is compiling), quiet by option and on CI, and POLYKERN_DEBUG=1's per-pass IR and timings.
import fs from 'node:fs'
import path from 'node:path'
import { rollup } from 'rollup'
import { build } from 'vite'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { polykern } from '../../plugin/index.ts'
import { resolveOptions } from '../../plugin/options.ts'
import { MODULE_STEPS, compileModule } from '../../plugin/pipeline.ts'
import { isBuildingLine, progressFor } from '../../plugin/progress.ts'

const OUT = path.join(import.meta.dirname, '../.out/progress', String(process.pid))
const CACHE = path.join(import.meta.dirname, '../../node_modules/.cache/polykern-test')
const SOURCE = `/* @kernel
   x: f32[N]
   y: f32[N]
   y[i] = x[i] * 2
*/
export function double(x, y, N) {}

/* @kernel
   A: f32[M, K]
   B: f32[K, N]
   C: f32[M, N]
   C[i, j] +=! A[i, k] * B[k, j]
*/
export function matmul(A, B, C, M, N, K) {}
`

function writeSource(name: string): string {
  fs.mkdirSync(OUT, { recursive: true })
  const file = path.join(OUT, name)
  fs.writeFileSync(file, SOURCE)
  return file
}

afterEach(() => {
  vi.restoreAllMocks()
  vi.unstubAllEnvs()
})

describe('progress lines', () => {
  it('one per kernel with its compile time, then the addon: a miss when built, a hit from the cache', async () => {
    const file = writeSource('kernels.js')
    // A fresh cache directory: the first build is a miss whatever other tests built before.
    const cacheDir = path.join(OUT, 'cache')
    fs.rmSync(cacheDir, { recursive: true, force: true })
    const opts = resolveOptions({ root: OUT, cacheDir, calibrate: false })
    for (const expected of ['cache miss, built in', 'cache hit (']) {
      const all: string[] = []
      await compileModule(file, SOURCE, opts, (m) => all.push(m))
      // A build past PROGRESS_EVERY_MS (a busy machine) also says what it is compiling: tested below.
      const lines = all.filter((line) => !isBuildingLine(line))
      expect(lines).toHaveLength(3)
      expect(lines[0]).toMatch(/^kernel 1 of 2 \(double\) compiled in (\d+ ms|\d+\.\d s)$/)
      expect(lines[1]).toMatch(/^kernel 2 of 2 \(matmul\) compiled in (\d+ ms|\d+\.\d s)$/)
      expect(lines[2]).toMatch(/^native addon polykern-[0-9a-f]{16}\.node: /)
      expect(lines[2]).toContain(expected)
    }
  }, 300_000)

  it("reach Rollup's log as info, unless quiet", async () => {
    const input = writeSource('entry.js')
    for (const quiet of [false, true]) {
      const infos: string[] = []
      const bundle = await rollup({
        input,
        plugins: [polykern.rollup({ root: OUT, cacheDir: CACHE, native: false, quiet })],
        external: [/^polykern\//],
        onLog: (level, log) => {
          if (level === 'info' && log.plugin === 'polykern') infos.push(log.message)
        },
      })
      await bundle.close()
      const shown = infos.map((m) => m.replace(/(\d+ ms|\d+\.\d s)$/, 'T'))
      const at = `[plugin polykern] ${path.relative(process.cwd(), input).split(path.sep).join('/')}: `
      expect(shown).toEqual(quiet ? [] : [`${at}kernel 1 of 2 (double) compiled in T`, `${at}kernel 2 of 2 (matmul) compiled in T`])
    }
  })

  it("reach Vite's log as info, each line naming its module as the other bundlers' do", async () => {
    const input = writeSource('vite-entry.js')
    const infos: string[] = []
    const logger = { info: (m: string) => void infos.push(m), warn: () => {}, warnOnce: () => {}, error: () => {}, clearScreen: () => {}, hasErrorLogged: () => false, hasWarned: false }
    await build({
      root: OUT, configFile: false, logLevel: 'info', customLogger: logger,
      plugins: [polykern.vite({ root: OUT, cacheDir: CACHE, native: false, quiet: false })],
      build: { ssr: input, outDir: path.join(OUT, 'vite-out'), emptyOutDir: true, minify: false, rolldownOptions: { external: [/^polykern\//] } },
    })
    const ours = infos.filter((m) => m.includes('kernel 1 of 2'))
    expect(ours).toEqual([expect.stringMatching(/vite-entry\.js: kernel 1 of 2 \(double\) compiled in /)])
  })

  it('quiet by default when CI is set; webpack-like builds log through their infrastructure logger', () => {
    vi.stubEnv('CI', 'true')
    expect(resolveOptions({}).quiet).toBe(true)
    expect(resolveOptions({ quiet: false }).quiet).toBe(false)
    vi.stubEnv('CI', '')
    expect(resolveOptions({}).quiet).toBe(false)
    const logged: string[] = []
    const loaderContext = { getLogger: (name: string) => ({ info: (m: string) => logged.push(`${name}: ${m}`) }) }
    const ctx = { getNativeBuildContext: () => ({ framework: 'webpack', loaderContext }) } as never
    progressFor(ctx, resolveOptions({ quiet: false }), 'src/mm.ts')!('hello')
    expect(logged).toEqual(['polykern: src/mm.ts: hello'])
    expect(progressFor(ctx, resolveOptions({ quiet: true }), 'src/mm.ts')).toBeUndefined()
  })
})

describe('POLYKERN_DEBUG=1', () => {
  it('prints the IR after every pass and every pass time', async () => {
    vi.stubEnv('POLYKERN_DEBUG', '1')
    const printed: string[] = []
    vi.spyOn(console, 'error').mockImplementation((m: unknown) => void printed.push(String(m)))
    await compileModule(writeSource('debug.js'), SOURCE, resolveOptions({ root: OUT, native: false }))
    const after = printed.filter((m) => m.startsWith('[polykern] after '))
    const timings = printed.filter((m) => /^\[polykern\] [\w-]+: \d+\.\d\d ms$/.test(m))
    expect(after.some((m) => m.startsWith('[polykern] after build:\n'))).toBe(true)
    expect(after.some((m) => m.startsWith('[polykern] after reorder'))).toBe(true)
    // Each kernel runs the same steps: every step printed its IR and its time.
    expect(timings.length).toBe(after.length)
    expect(timings.length).toBeGreaterThanOrEqual(2 * 4)
    // And each module step, with what it did.
    const steps = printed.flatMap((m) => /^\[polykern\] time: debug\.js (\w+): \d+\.\d\d ms \(.+\)$/.exec(m)?.[1] ?? [])
    expect(steps).toEqual(MODULE_STEPS.map((s) => s.name))
  })
})

describe('a long native build says what it is doing', () => {
  it('every interval while the compiler runs: the C files not compiled yet, then linking', async () => {
    const { buildAddon } = await import('../../plugin/addon/build.ts')
    const { addonRequest } = await import('../../plugin/pipeline.ts')
    const file = writeSource('building.ts')
    const opts = resolveOptions({ root: OUT, cacheDir: fs.mkdtempSync(path.join(OUT, 'cache-')), calibrate: false })
    const compiled = await compileModule(file, fs.readFileSync(file, 'utf8'), { ...opts, native: false })
    const lines: string[] = []
    const built = await buildAddon({ ...addonRequest(compiled!.kernels, 'building.ts', opts), progress: (m) => lines.push(m), progressEveryMs: 200 })
    expect(built.ok).toBe(true)
    expect(lines.length).toBeGreaterThan(0)
    for (const line of lines) {
      expect(line).toMatch(/^building the native addon: (compiling (polykern\w*\.c)(, polykern\w*\.c)*|linking) \(\d+ ms so far\)$|^building the native addon: .* \(\d+\.\d s so far\)$/)
    }
    // The first tick comes while gcc still compiles the per-ISA files, which take longest.
    expect(lines[0]).toContain('polykern_avx2.c')
    // A cache hit builds nothing and says nothing.
    const again: string[] = []
    await buildAddon({ ...addonRequest(compiled!.kernels, 'building.ts', opts), progress: (m) => again.push(m), progressEveryMs: 200 })
    expect(again).toEqual([])
  })
})
