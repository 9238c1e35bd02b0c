/**
 * The build-time measurement behind `jsBelow`, timing-free: what it returns and where, that it is cached with the
 * addon (and redone when the JS loops change), and that the pipeline bakes it into the rewritten module's ABI.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { beforeAll, describe, expect, test } from 'vitest'
import { buildAddon } from '../../plugin/addon/build.ts'
import { MEMORY_BOUND_WORK, NEVER, calibrate, ladderSizes, routingOf, type CalibrationKernel } from '../../plugin/addon/calibrate.ts'
import { emitJs } from '../../plugin/emit/js.ts'
import { emitAddonSource } from '../../plugin/emit/napi.ts'
import { resolveOptions } from '../../plugin/options.ts'
import { compileModule } from '../../plugin/pipeline.ts'
import * as K from '../emit/kernels.ts'
import { scratchDir } from './fixtures.ts'

const opts = resolveOptions({ cacheDir: 'node_modules/.cache/polykern-test' })
const KERNELS: readonly CalibrationKernel[] = [
  { abi: { ...K.abiOf(K.matmul), work: [[1, 'M', 'N', 'K']] }, js: emitJs(K.matmul) },
  { abi: { ...K.abiOf(K.softmax), work: [[4, 'N', 'D']] }, js: emitJs(K.softmax) },
  // No work formula: nothing to compare calls by, so never routed.
  { abi: K.abiOf(K.conv1d), js: emitJs(K.conv1d) },
]

let addonPath: string
/** The hash of the addon's sources, compiled into it: what calibrate checks before loading it. */
let identity: string
const cacheFile = () => path.join(path.dirname(addonPath), 'calibration.json')

beforeAll(async () => {
  const sources = emitAddonSource(
    KERNELS.map(({ abi }, n) => ({ kernel: [K.matmul, K.softmax, K.conv1d][n], abi, symbol: `kc_${n}_${abi.name}` })),
    { moduleId: 'calibrate.test.ts' },
  )
  const built = await buildAddon({ sources, cacheDir: scratchDir('calibrate') })
  if (!built.ok) throw new Error(`addon build failed:\n${built.error}`)
  addonPath = built.path
  identity = built.hash
})

describe('calibrate', () => {
  test('gives every kernel non-negative integer work thresholds, jsBelow 0 when it has no work formula', async () => {
    const measured = await calibrate(addonPath, KERNELS, identity)
    expect(Object.keys(measured)).toEqual(['matmul', 'softmax', 'conv1d'])
    for (const t of Object.values(measured)) {
      expect(Number.isInteger(t.jsBelow) && t.jsBelow >= 0).toBe(true)
      if (t.jsFrom !== undefined) expect(Number.isInteger(t.jsFrom) && t.jsFrom > t.jsBelow).toBe(true)
    }
    expect(measured.conv1d).toEqual({ jsBelow: 0 })
  })

  test('is cached beside the addon, keyed by the kernels: a change to the JS loops measures again', async () => {
    const first = await calibrate(addonPath, KERNELS, identity)
    const stored = JSON.parse(readFileSync(cacheFile(), 'utf8')) as { key: string; routes: Record<string, { jsBelow: number }> }
    expect(stored.routes).toEqual(first)
    // A planted value comes back: the second call read the file instead of measuring.
    writeFileSync(cacheFile(), JSON.stringify({ ...stored, routes: { ...first, matmul: { jsBelow: 123456789 } } }))
    expect((await calibrate(addonPath, KERNELS, identity)).matmul.jsBelow).toBe(123456789)
    const changed = KERNELS.map((k, n) => (n === 0 ? { ...k, js: `${k.js}\n// changed` } : k))
    expect((await calibrate(addonPath, changed, identity)).matmul.jsBelow).not.toBe(123456789)
  })

  test("never loads an addon built from other sources (another module's, exporting a matmul): its init does not run", async () => {
    const init = [
      '#include <node_api.h>',
      'static napi_value matmul(napi_env env, napi_callback_info info) { (void)info; napi_value g; napi_get_global(env, &g); return g; }',
      'NAPI_MODULE_INIT() {',
      '  napi_value global, flag, fn;',
      '  napi_get_global(env, &global);',
      '  napi_get_boolean(env, true, &flag);',
      '  napi_set_named_property(env, global, "__polykernForeignInitRan", flag);',
      '  napi_create_function(env, "matmul", NAPI_AUTO_LENGTH, matmul, NULL, &fn);',
      '  napi_set_named_property(env, exports, "matmul", fn);',
      '  return exports;',
      '}',
      '',
    ].join('\n')
    const foreign = await buildAddon({ sources: [{ name: 'polykern.c', text: init }], cacheDir: scratchDir('calibrate-foreign') })
    if (!foreign.ok) throw new Error(foreign.error)
    await expect(calibrate(foreign.path, KERNELS.slice(0, 1), identity)).rejects.toThrow('was not built from these kernels')
    expect((globalThis as { __polykernForeignInitRan?: boolean }).__polykernForeignInitRan).toBeUndefined()
  })
})

describe('the ladder', () => {
  test('grows by 1.5x steps and also tries every power of two (where strided reads alias in the caches)', () => {
    const sizes = ladderSizes(5000)
    expect(sizes.slice(0, 8)).toEqual([1, 2, 3, 4, 5, 8, 12, 16])
    for (let p = 1; p <= 4096; p *= 2) expect(sizes).toContain(p)
    expect(sizes).toContain(1598)
    expect(sizes.every((s, i) => i === 0 || s > sizes[i - 1])).toBe(true)
    expect(Math.max(...sizes)).toBeLessThanOrEqual(5000)
  })
})

describe('routingOf: where calls run, from the timed ladder (native wins a rung when 1.1 x its time is no more than JS)', () => {
  // A rung whose largest tensor has as many elements as the call has work, unless given: memory-bound.
  const rung = (work: number, native: number, js: number, elements = work) => ({ work, elements, native, js })
  test('native from the crossover of the last rung JS won and the next', () => {
    // 1.1 x native against JS: JS ahead by 160 ns at work 10, native by 230 at work 50: 10 + 160/390·40 = 26.4.
    expect(routingOf([rung(1, 500, 100), rung(10, 600, 500), rung(50, 700, 1000), rung(100, 800, 2000)])).toEqual({ jsBelow: 27 })
  })
  test('a rung native wins by less than 10% counts as JS\'s', () => {
    expect(routingOf([rung(1, 100, 105), rung(10, 150, 400)])).toEqual({ jsBelow: 2 })
    expect(routingOf([rung(1, 100, 200), rung(2048, 4600, 4800)]).jsFrom).toBeDefined()
  })
  test('native everywhere when it won every rung; NEVER when it won none', () => {
    expect(routingOf([rung(1, 100, 200), rung(10, 150, 400)])).toEqual({ jsBelow: 0 })
    expect(routingOf([rung(1, 900, 100), rung(100, 1300, 1200)])).toEqual({ jsBelow: NEVER })
  })
  test('JS again above native\'s last win: a strided gather, memory-bound in C and in JS with the toll on top', () => {
    // 1.1 x native: ahead by 700 ns at work 1,000, behind by 1,120 at 2,000: JS from 1,000 + 700/1820·1000 = 1,384.6;
    // at work 100 native (1,210) is still behind JS (1,200): native from 100 + 10/710·900 = 112.7.
    const gather = [rung(1, 900, 100), rung(100, 1100, 1200), rung(1000, 3000, 4000), rung(2000, 5200, 4600)]
    expect(routingOf(gather)).toEqual({ jsBelow: 113, jsFrom: 1385 })
  })
  test("a kernel that reuses its data stays native above a JS win at the ladder's top", () => {
    // The bench's 7×7 stride-2 convolution (work = N·P·Q·K·C·49, every size equal, the filter the largest tensor)
    // in a build that measured its top rung, mostly padding, with native behind: every call from work 60,000 on,
    // a 224×224 image among them, then ran the JS loops.
    const conv = [rung(1568, 1815, 507, 196), rung(11907, 5866, 4998, 441), rung(50176, 14591, 24913, 784)]
    const top = rung(153125, 66000, 59000, 1225)
    expect(routingOf([...conv, top])).toEqual(routingOf(conv))
    expect(routingOf(conv)).toEqual({ jsBelow: 17303 })
    // The same ladder memory-bound (work per element within MEMORY_BOUND_WORK) goes back to JS.
    expect(routingOf([...conv, { ...top, elements: top.work / MEMORY_BOUND_WORK }]).jsFrom).toBeGreaterThan(50176)
  })
  test('a JS win in the middle moves the threshold past it', () => {
    // 1.1 x native: JS ahead by 80 ns at work 20, native by 270 at 40: 20 + 80/350·20 = 24.6, rounded up.
    expect(routingOf([rung(1, 300, 100), rung(10, 100, 200), rung(20, 300, 250), rung(40, 300, 600)])).toEqual({ jsBelow: 25 })
  })
})

describe('the pipeline with calibrate: true', () => {
  test("bakes each kernel's thresholds into its ABI and the rewritten module, and leaves 0 out", async () => {
    const file = path.join(scratchDir('calibrate-module'), 'kernels.ts')
    const code = `/* @kernel
   A: f32[M, K]
   B: f32[K, N]
   C: f32[M, N]
   C[i, j] +=! A[i, k] * B[k, j]
*/
export function mm(A: Float32Array, B: Float32Array, C: Float32Array, M: number, N: number, K: number) {}

/* @kernel
   x: f64[N]
   y: f64[N]
   y[i] = x[i] * 2.0
*/
export function twice(x: Float64Array, y: Float64Array, N: number) {}
`
    const compiled = (await compileModule(file, code, { ...opts, root: path.dirname(file), calibrate: true }))!
    expect(compiled.addon).toBeDefined()
    const stored = JSON.parse(readFileSync(path.join(path.dirname(compiled.addon!.path), 'calibration.json'), 'utf8'))
    for (const k of compiled.kernels) {
      const t = stored.routes[k.abi.name] as { jsBelow: number; jsFrom?: number }
      expect(k.abi.work).toEqual(k.abi.name === 'mm' ? [[1, 'K', 'M', 'N']] : [[1, 'N']])
      expect(k.abi.jsBelow).toBe(t.jsBelow > 0 ? t.jsBelow : undefined)
      expect(k.abi.jsFrom).toBe(t.jsFrom)
      expect(compiled.code.includes(`"name":"${k.abi.name}"`) && compiled.code.includes(JSON.stringify(k.abi))).toBe(true)
    }
  })
})
