import fs from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterEach, beforeAll, describe, expect, test, vi } from 'vitest'
import { NATIVE_DISABLED, kernels, loadKernels } from '../../runtime/index.ts'
import { descriptor, fakeMatmul, matmulRef, scratchDir, writeFakeAddon } from './fixtures.ts'

let dir: string
let cacheDir: string
let bundle: string

beforeAll(() => {
  dir = scratchDir('load')
  cacheDir = path.join(dir, 'cache')
  fs.mkdirSync(cacheDir)
  bundle = path.join(dir, 'dist', 'bundle.mjs')
  fs.mkdirSync(path.dirname(bundle))
  writeFakeAddon(path.dirname(bundle), 'beside.cjs', { matmul: fakeMatmul })
  writeFakeAddon(cacheDir, 'cached.cjs', { matmul: fakeMatmul })
  writeFakeAddon(dir, 'incomplete.cjs', { matmul: fakeMatmul }, [])
})

/** Captures the runtime's warnings; each test uses its own module id, since warnings are once per module. */
function warnings() {
  const spy = vi.spyOn(process, 'emitWarning').mockImplementation(() => {})
  return () => spy.mock.calls.map(([message, options]) => ({ message: String(message), options }))
}

const entry = (module: string) => kernels().find((k) => k.module === module)!

afterEach(() => {
  vi.restoreAllMocks()
  vi.unstubAllEnvs()
})

describe('where the addon comes from', () => {
  test('beside the module first, from a file: URL or a plain path', () => {
    const seen = warnings()
    for (const [module, base] of [['url.ts', pathToFileURL(bundle).href], ['path.ts', bundle]]) {
      loadKernels(descriptor({ module, addon: 'beside.cjs', cachePath: path.join(cacheDir, 'cached.cjs'), base }))
      expect(entry(module)).toMatchObject({ native: true, addonPath: path.join(path.dirname(bundle), 'beside.cjs') })
    }
    expect(seen()).toEqual([])
  })

  test('then the build cache', () => {
    const seen = warnings()
    const cachePath = path.join(cacheDir, 'cached.cjs')
    loadKernels(descriptor({ module: 'cache.ts', addon: 'missing.node', cachePath, base: bundle }))
    expect(entry('cache.ts')).toMatchObject({ native: true, addonPath: path.join(cacheDir, 'cached.cjs') })
    expect(seen()).toEqual([])
  })

  test('registry entries expose both paths, computing the same thing', () => {
    loadKernels(descriptor({ module: 'registry.ts', addon: 'beside.cjs', base: bundle }))
    const k = entry('registry.ts')
    expect(k.name).toBe('matmul')
    expect(k.call).toBe(k.nativeFn)
    const [M, N, K] = [5, 3, 11]
    const A = Float32Array.from({ length: M * K }, (_, i) => i % 3)
    const B = Float32Array.from({ length: K * N }, (_, i) => i % 5)
    const expected = new Float32Array(M * N)
    matmulRef(A, B, expected, M, N, K)
    expect([...(k.js(A, B, new Float32Array(M * N), M, N, K) as Float32Array)]).toEqual([...expected])
    expect([...(k.nativeFn!(A, B, new Float32Array(M * N), M, N, K) as Float32Array)]).toEqual([...expected])
  })
})

describe('falling back to JS', () => {
  test('a missing addon warns once per module, naming each path tried and its error', () => {
    const seen = warnings()
    const cachePath = path.join(dir, 'nope.node')
    const desc = descriptor({ module: 'src/missing.ts', addon: 'polykern-0123abcd.node', cachePath, base: bundle })
    const first = loadKernels(desc)
    loadKernels(desc)
    expect(entry('src/missing.ts')).toMatchObject({ native: false, nativeFn: null, addonPath: null })
    const C = new Float32Array(1)
    expect(first.matmul(Float32Array.of(2), Float32Array.of(3), C, 1, 1, 1)).toBe(C)
    expect(C[0]).toBe(6)
    const all = seen()
    expect(all).toHaveLength(1)
    expect(all[0].options).toEqual({ type: 'PolykernWarning', code: 'runtime_fallback' })
    const beside = path.join(path.dirname(bundle), 'polykern-0123abcd.node')
    expect(all[0].message).toBe(
      'polykern: could not load the native kernels for src/missing.ts (polykern-0123abcd.node); using the JS fallback. ' +
        `Tried: ${beside} (Cannot find module '${beside}'); ${cachePath} (Cannot find module '${cachePath}'). ` +
        'Set POLYKERN_NATIVE=0 to silence this.')
  })

  test('an addon lacking a kernel is not used', () => {
    const seen = warnings()
    loadKernels(descriptor({ module: 'incomplete.ts', addon: 'incomplete.cjs', base: path.join(dir, 'x.js') }))
    expect(entry('incomplete.ts').native).toBe(false)
    expect(seen()[0].message).toContain(`Tried: ${path.join(dir, 'incomplete.cjs')} (loaded, but it lacks matmul)`)
  })

  test("an addon not built from the bundle's kernels: refused by its bytes before it loads, or by its export", () => {
    const [own, other] = ['a'.repeat(64), 'b'.repeat(64)]
    // Fake addons whose bytes carry an identity marker (in a comment) and which export one, as polykern_cpu.h does.
    const fake = (name: string, marked: string, exported: string) => {
      const file = writeFakeAddon(dir, name, { matmul: fakeMatmul })
      const text = fs.readFileSync(file, 'utf8').replace("isa: 'fake',", `isa: 'fake', identity: '${exported}',`)
      fs.writeFileSync(file, `/* polykern-addon-identity:${marked}\0 */ globalThis.__polykernLoaded = '${name}'\n${text}`)
    }
    fake('foreign.cjs', other, other)
    fake('relabelled.cjs', own, other)
    fake('own.cjs', own, own)
    const seen = warnings()
    const load = (module: string, addon: string) => loadKernels(descriptor({ module, addon, base: path.join(dir, 'x.js'), identity: own }))
    load('foreign.ts', 'foreign.cjs')
    expect(entry('foreign.ts').native).toBe(false)
    expect((globalThis as { __polykernLoaded?: string }).__polykernLoaded).toBeUndefined()
    load('relabelled.ts', 'relabelled.cjs')
    expect(entry('relabelled.ts').native).toBe(false)
    load('own.ts', 'own.cjs')
    expect(entry('own.ts').native).toBe(true)
    expect(seen().map((w) => w.message.replace(/.*Tried: /, ''))).toEqual([
      `${path.join(dir, 'foreign.cjs')} (not built from this bundle's kernels: it lacks their identity ${own.slice(0, 16)}). ` +
        'Set POLYKERN_NATIVE=0 to silence this.',
      `${path.join(dir, 'relabelled.cjs')} (loaded, but not built from this bundle's kernels: its identity is not ${own.slice(0, 16)}). ` +
        'Set POLYKERN_NATIVE=0 to silence this.',
    ])
  })

  test('POLYKERN_NATIVE=0 uses JS without a warning even when the addon is there', () => {
    vi.stubEnv('POLYKERN_NATIVE', '0')
    const seen = warnings()
    loadKernels(descriptor({ module: 'env.ts', addon: 'beside.cjs', base: bundle, reason: null }))
    loadKernels(descriptor({ module: 'env-failed.ts', reason: 'native build failed: cc not found' }))
    expect([entry('env.ts').native, entry('env-failed.ts').native]).toEqual([false, false])
    expect(seen()).toEqual([])
  })

  test('a CPU flag this machine lacks means JS; flags it has are fine', () => {
    const seen = warnings()
    loadKernels(descriptor({ module: 'cpu-fake.ts', addon: 'beside.cjs', base: bundle, requires: ['sse2', 'fake_flag'] }))
    expect(entry('cpu-fake.ts').native).toBe(false)
    expect(seen()[0].message).toContain('This CPU lacks fake_flag, which the addon was compiled for.')
    const flags = /^(?:flags|Features)\s*:(.*)$/m.exec(fs.readFileSync('/proc/cpuinfo', 'utf8'))![1].trim().split(/\s+/)
    loadKernels(descriptor({ module: 'cpu-real.ts', addon: 'beside.cjs', base: bundle, requires: flags.slice(0, 3) }))
    expect(entry('cpu-real.ts').native).toBe(true)
  })

  test('no addon: a failed build warns with its reason, native: false stays silent', () => {
    const seen = warnings()
    loadKernels(descriptor({ module: 'off.ts', reason: NATIVE_DISABLED }))
    expect(seen()).toEqual([])
    loadKernels(descriptor({ module: 'failed.ts', reason: 'native build failed: cc: command not found' }))
    loadKernels(descriptor({ module: 'failed.ts', reason: 'native build failed: cc: command not found' }))
    expect(seen().map((w) => w.message)).toEqual([
      'polykern: no native kernels for failed.ts (native build failed: cc: command not found); using the JS fallback. ' +
        'Set POLYKERN_NATIVE=0 to silence this.',
    ])
  })
})
