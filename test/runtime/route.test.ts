/**
 * Small problems at run time: the ABI's work formula (checked against the blocks' extents, multiplied out
 * directly), the dispatcher sending calls below `jsBelow` or from `jsFrom` on to the JS loops (observed through a fake addon's call
 * counter and the registry's `route`), and the runtime's setThreads over every loaded addon.
 */
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { afterEach, beforeAll, describe, expect, test, vi } from 'vitest'
import { workOf } from '../../plugin/abi.ts'
import { evaluate } from '../../plugin/ir/affine.ts'
import { buildKernel } from '../../plugin/spec/build-ir.ts'
import type { Kernel } from '../../plugin/ir/nodes.ts'
import { resolveOptions } from '../../plugin/options.ts'
import type { KernelAbi } from '../../runtime/abi.ts'
import { KernelRangeError, KernelTypeError, MAX_THREADS, kernels, loadKernels, setThreads } from '../../runtime/index.ts'
import { workOfCall } from '../../runtime/work.ts'
import { af } from '../emit/kernels.ts'
import { exampleSpecs } from '../support/examples.ts'
import { rng } from '../support/random.ts'
import { descriptor, fakeMatmul, matmulAbi, matmulRef, scratchDir, writeFakeAddon } from './fixtures.ts'

const require = createRequire(import.meta.url)

/** Σ over blocks of the product of their extents, each evaluated first: the reference for the expanded monomials. */
function blockPoints(kernel: Kernel, sizes: ReadonlyMap<string, number>): number {
  let total = 0
  for (const s of kernel.body) if (s.kind === 'block') total += s.indices.reduce((n, ix) => n * evaluate(ix.extent, sizes), 1)
  return total
}

/** An ABI taking `sizes` as its only parameters, with `kernel`'s work formula. */
const sizesAbi = (kernel: Kernel): KernelAbi => ({
  name: kernel.name, loc: 'x.ts:1:1', params: kernel.sizes.map((name) => ({ kind: 'size', name })), returns: -1, work: workOf(kernel),
})

describe('the work formula', () => {
  test('every example kernel: the monomials equal the product of its blocks’ extents on random sizes', () => {
    const next = rng(0x3011)
    for (const { name, spec } of exampleSpecs()) {
      const kernel = buildKernel(spec)
      const work = workOfCall(sizesAbi(kernel))!
      for (let trial = 0; trial < 20; trial++) {
        const sizes = new Map(kernel.sizes.map((s) => [s, Math.floor(next() * 40)]))
        expect(work(kernel.sizes.map((s) => sizes.get(s))), `${name} ${[...sizes]}`).toBe(blockPoints(kernel, sizes))
      }
    }
  })

  test('affine extents (offsets, coefficients, sums of sizes) multiply out into merged monomials', () => {
    const block = (id: string, extents: string[]) => ({
      kind: 'block' as const, id, indices: extents.map((e, n) => ({ name: `i${n}`, extent: af(e) })),
    constraints: [], body: [], tags: [],
    })
    const kernel: Kernel = {
      name: 'affine', params: [], tensors: [], sizes: ['N', 'P', 'R'],
      body: [block('s0', ['N - 2', '2*P + 1', 'R']), block('s1', ['N + R', 'N - R']), block('s2', ['3']), block('s3', ['N', 'P'])],
    }
    const work = workOfCall(sizesAbi(kernel))!
    const next = rng(5)
    for (let trial = 0; trial < 50; trial++) {
      const sizes = new Map(kernel.sizes.map((s) => [s, Math.floor(next() * 30)]))
      expect(work(kernel.sizes.map((s) => sizes.get(s)))).toBe(blockPoints(kernel, sizes))
    }
    // (N-2)(2P+1)R + (N+R)(N-R) + 3 + NP = 2NPR + NR - 4PR - 2R + N² - R² + 3 + NP: the NR terms of the second
    // block cancel, like terms merge.
    expect(workOf(kernel)).toHaveLength(8)
  })

  test('a formula naming a size the kernel does not take is refused when the module loads', () => {
    expect(() => workOfCall({ ...matmulAbi, work: [[1, 'M', 'Q']] })).toThrow(/does not take: M, Q/)
  })
})

describe('routing by work', () => {
  let dir: string
  const fake = (name: string) => path.join(dir, name)
  beforeAll(() => {
    dir = scratchDir('route')
    writeFakeAddon(dir, 'native.cjs', { matmul: fakeMatmul })
  })
  const entry = (module: string) => kernels().find((k) => k.module === module)!
  const routed: KernelAbi = { ...matmulAbi, work: [[1, 'M', 'N', 'K']], jsBelow: 100 }
  const load = (module: string, abi: KernelAbi) => {
    const calls = () => (require(fake('native.cjs')) as { calls: () => number }).calls()
    const kernels = { matmul: { abi, js: matmulRef as never } }
    const m = loadKernels(descriptor({ module, addon: 'native.cjs', base: fake('x.mjs'), kernels }))
    return { matmul: m.matmul, calls }
  }
  const run = (f: (...a: unknown[]) => unknown, M: number, N: number, K: number) => {
    const next = rng(M * 1000 + N * 10 + K)
    const A = Float32Array.from({ length: M * K }, next)
    const B = Float32Array.from({ length: K * N }, next)
    const [C, want] = [new Float32Array(M * N).fill(NaN), new Float32Array(M * N)]
    matmulRef(A, B, want, M, N, K)
    expect(f(A, B, C, M, N, K)).toBe(C)
    expect(C).toEqual(want)
  }

  test('a call with less work than jsBelow runs the JS loops, one with as much or more runs native', () => {
    const { matmul, calls } = load('route.ts', routed)
    const before = calls()
    run(matmul, 2, 3, 4) // work 24
    run(matmul, 1, 1, 99) // work 99
    expect(calls()).toBe(before)
    run(matmul, 4, 5, 5) // work 100
    run(matmul, 7, 3, 11)
    expect(calls()).toBe(before + 2)
    const k = entry('route.ts')
    expect(k.native).toBe(true)
    expect([k.route([null, null, null, 2, 3, 4]), k.route([null, null, null, 4, 5, 5])]).toEqual(['js', 'native'])
  })

  test('a call with at least jsFrom work runs the JS loops again (and jsFrom alone routes)', () => {
    const { matmul, calls } = load('route-band.ts', { ...routed, jsFrom: 1000 })
    const before = calls()
    run(matmul, 2, 3, 4) // work 24: below jsBelow
    run(matmul, 10, 10, 10) // work 1000: from jsFrom on
    run(matmul, 9, 11, 13)
    expect(calls()).toBe(before)
    run(matmul, 9, 10, 11) // work 990: in the band
    expect(calls()).toBe(before + 1)
    const k = entry('route-band.ts')
    expect([24, 990, 1000].map((w) => k.route([null, null, null, 1, 1, w]))).toEqual(['js', 'native', 'js'])
    load('route-from.ts', { ...matmulAbi, work: [[1, 'M', 'N', 'K']], jsFrom: 50 })
    expect([49, 50].map((w) => entry('route-from.ts').route([null, null, null, 1, 1, w]))).toEqual(['native', 'js'])
  })

  test('the JS-routed call is validated exactly like the native one', () => {
    const { matmul } = load('route-validate.ts', routed)
    const small = () => matmul(new Float32Array(3), new Float32Array(2), new Float32Array(2), 1, 1, 2)
    expect(small).toThrow(KernelRangeError)
    expect(small).toThrow(expect.objectContaining({ code: 'runtime_arg_length' }))
  })

  test('sizes the work formula cannot multiply (a symbol, a bigint, a string) get the size error, routed or not', () => {
    const { matmul, calls } = load('route-sizes.ts', routed)
    const before = calls()
    const [A, B, C] = [new Float32Array(20), new Float32Array(20), new Float32Array(25)]
    for (const bad of [Symbol('M'), 5n, '5', undefined]) {
      expect(() => matmul(A, B, C, bad, 5, 4)).toThrow(expect.objectContaining({ code: 'runtime_size_invalid', argument: 'M' }))
      expect(() => matmul(A, B, C, bad, 5, 4)).toThrow(KernelTypeError)
    }
    expect(calls()).toBe(before)
  })

  test('without a measured threshold every call goes native (and the export is the native dispatcher)', () => {
    const { matmul, calls } = load('unrouted.ts', { ...matmulAbi, work: [[1, 'M', 'N', 'K']] })
    const before = calls()
    run(matmul, 1, 1, 1)
    expect(calls()).toBe(before + 1)
    const k = entry('unrouted.ts')
    expect(k.call).toBe(k.nativeFn)
    expect(k.route([null, null, null, 1, 1, 1])).toBe('native')
  })

  test('with no addon every call is JS, whatever the threshold', () => {
    const kernels = { matmul: { abi: routed, js: matmulRef as never } }
    loadKernels(descriptor({ module: 'no-addon.ts', reason: 'native: false', kernels }))
    const k = entry('no-addon.ts')
    expect(k.call).toBe(k.js)
    expect(k.route([null, null, null, 50, 50, 50])).toBe('js')
  })
})

describe("the runtime's setThreads", () => {
  let dir: string
  afterEach(() => vi.unstubAllEnvs())
  beforeAll(() => {
    dir = scratchDir('threads')
    const addon = (name: string) =>
      fs.writeFileSync(path.join(dir, name), `const seen = []
module.exports = { __polykern: { kernels: ['matmul'], seen, setThreads: (n) => { seen.push(n) } }, matmul: () => {} }
`)
    for (const name of ['first.cjs', 'second.cjs', 'later.cjs']) addon(name)
    fs.writeFileSync(path.join(dir, 'old.cjs'), "module.exports = { __polykern: { kernels: ['matmul'] }, matmul: () => {} }\n")
  })
  const seen = (name: string) => (require(path.join(dir, name)) as { __polykern: { seen: number[] } }).__polykern.seen
  const load = (name: string) => loadKernels(descriptor({ module: `threads-${name}`, addon: name, base: path.join(dir, 'x.mjs') }))

  test('reaches every loaded addon, and each one loaded afterwards; an addon without the control is skipped', () => {
    load('first.cjs')
    load('second.cjs')
    load('old.cjs')
    setThreads(3)
    setThreads(1)
    expect([seen('first.cjs'), seen('second.cjs')]).toEqual([[3, 1], [3, 1]])
    load('later.cjs')
    expect(seen('later.cjs')).toEqual([1])
  })

  test(`accepts integers from 1 to ${MAX_THREADS} only`, () => {
    for (const bad of [0, -1, 2.5, MAX_THREADS + 1, NaN, Infinity]) {
      const error = expect.objectContaining({ name: 'RangeError', code: 'runtime_threads_invalid' })
      expect(() => setThreads(bad), String(bad)).toThrow(error)
    }
  })

  test('the plugin options: threads is checked the same way; calibration is off by default under NODE_ENV=test', () => {
    expect(resolveOptions({ threads: 4 }).threads).toBe(4)
    expect(resolveOptions({}).threads).toBeUndefined()
    for (const bad of [0, 1.5, MAX_THREADS + 1]) {
      expect(() => resolveOptions({ threads: bad }), String(bad)).toThrow(/'threads' option/)
    }
    vi.stubEnv('NODE_ENV', 'test')
    expect(resolveOptions({}).calibrate).toBe(false)
    expect(resolveOptions({ calibrate: true }).calibrate).toBe(true)
    vi.stubEnv('NODE_ENV', 'production')
    expect(resolveOptions({}).calibrate).toBe(true)
  })
})
