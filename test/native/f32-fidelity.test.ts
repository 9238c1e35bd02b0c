/**
 * Issue 13, finding 2: an f32 statement computes in f32 on every path. Each case is a kernel and inputs where
 * computing in double (or fusing, or overflowing an intermediate) gives another answer; the expected outputs are
 * the f32 ones, and they must come out bit for bit from the runtime's native path and its JS fallback, the addon at
 * every ISA level at 1 and 2 threads, and the reference interpreter. Inputs repeat over 37 elements, so the SIMD
 * loops run full vectors and a masked tail.
 */
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { buildAddon } from '../../plugin/addon/build.ts'
import { emitAddonSource } from '../../plugin/emit/napi.ts'
import { findKernelSites } from '../../plugin/find/annotations.ts'
import { interpret } from '../../plugin/ir/interp.ts'
import { resolveOptions } from '../../plugin/options.ts'
import { compileKernel } from '../../plugin/pipeline.ts'
import { ISAS } from '../../plugin/targets/index.ts'
import { NATIVE_DISABLED, loadKernels, type KernelFn } from '../../runtime/index.ts'
import { loadFuzzAddon, type FuzzAddon } from '../fuzz/differential.ts'
import { ROOT } from '../support/examples.ts'
import { firstDifference } from '../support/ulps.ts'

interface Case {
  readonly name: string
  readonly spec: string
  /** The inputs X and Z (Z defaults to X), repeated to the call's length. */
  readonly x: readonly number[]
  readonly z?: readonly number[]
  /** Y for each element of x: what f32 arithmetic gives. */
  readonly want: readonly number[]
  /** The size N, when the kernel reads it as a value. */
  readonly n?: number
}

const F32_MIN_DENORMAL = 2 ** -149

const CASES: readonly Case[] = [
  // X*X overflows f32: in double the square root brought it back to 1.414e20.
  { name: 'hypot', spec: 'Y[i] = sqrt(X[i] * X[i] + Z[i] * Z[i])', x: [1e20, -1e20, 3], z: [1e20, 1e20, 4], want: [Infinity, Infinity, 5] },
  // 1e8 + x rounds to a multiple of 8 in f32; in double it was exact and the difference gave x back.
  { name: 'cancel', spec: 'Y[i] = (X[i] + 100000000) - 100000000', x: [1, 3, 5, 7], want: [0, 0, 8, 8] },
  { name: 'squareOver', spec: 'Y[i] = X[i] * X[i] / X[i]', x: [1e20, -1e20, 1e-30], want: [Infinity, -Infinity, 0] },
  // exp(103) overflows f32, so 1 / (1 + exp(-x)) was 0 native; the value is the smallest denormal.
  { name: 'sigmoidTail', spec: 'Y[i] = sigmoid(X[i])', x: [-103, -200, 0, 200], want: [F32_MIN_DENORMAL, 0, 0.5, 1] },
  // A size converts to f32: 4097 * 4097 = 16785409 is not a float (above 2^24, odd), it rounds to 16785408.
  { name: 'sizeSquare', spec: 'Y[i] = N * N - 16785408 + X[i]', x: [0], want: [0], n: 4097 },
  // A literal is its f32 value: 0.1f · 2^24 = 1677721.625 exactly, where 0.1 · 2^24 is 1677721.6.
  { name: 'literal', spec: 'Y[i] = (X[i] + 0.1) * 16777216 - 1677721', x: [0], want: [0.625] },
  // pow(±1, NaN or ±Inf) is NaN as in Math.pow (C's powf says 1).
  { name: 'powOne', spec: 'Y[i] = pow(X[i], Z[i])', x: [1, -1, 1, 2], z: [NaN, Infinity, -Infinity, 0.5], want: [NaN, NaN, NaN, Math.fround(Math.SQRT2)] },
]

const LENGTH = 37
/** The kernel's tensors, in parameter order: Z only where the spec reads it. */
const tensorsOf = (c: Case): string[] => (c.z ? ['X', 'Z', 'Y'] : ['X', 'Y'])
const SOURCE = CASES.map((c) => {
  const tensors = tensorsOf(c)
  return `/* @kernel\n${tensors.map((t) => `${t}: f32[N]`).join('\n')}\n${c.spec}\n*/\nexport function ${c.name}(${tensors.join(', ')}, N) {}\n`
}).join('\n')
const opts = resolveOptions({ root: ROOT, cacheDir: 'node_modules/.cache/polykern-test' })
const compiled = findKernelSites(path.join(ROOT, 'test/.out/f32-fidelity.ts'), SOURCE).map((site) => compileKernel(site, SOURCE, opts))

describe('f32 statements compute in f32 on every path (issue 13, finding 2)', () => {
  let addon: FuzzAddon
  let native: Record<string, KernelFn>
  let fallback: Record<string, KernelFn>

  beforeAll(async () => {
    const sources = emitAddonSource(compiled.map((k, n) => ({ kernel: k.ir, abi: k.abi, symbol: `kc_${n}` })), { moduleId: 'f32-fidelity.ts', isas: ISAS, parallelMinWork: 1 })
    const built = await buildAddon({ sources, cacheDir: opts.cacheDir })
    if (!built.ok) throw new Error(built.error)
    addon = loadFuzzAddon(built.path)
    const kernels = Object.fromEntries(compiled.map((k) => [k.abi.name, { abi: k.abi, js: new Function(`return ${k.js}`)() as (...a: never[]) => unknown }]))
    const base = { addon: 'not-beside.node', cachePath: built.path, requires: [], kernels }
    native = loadKernels({ ...base, module: `f32-fidelity-${built.hash.slice(0, 8)}-native.ts` })
    fallback = loadKernels({ ...base, module: `f32-fidelity-${built.hash.slice(0, 8)}-js.ts`, addon: null, cachePath: null, reason: NATIVE_DISABLED })
  })

  for (const [n, c] of CASES.entries()) {
    it(`${c.name}: ${c.spec}`, () => {
      const N = c.n ?? LENGTH
      const repeat = (values: readonly number[]) => Float32Array.from({ length: N }, (_, k) => values[k % values.length])
      const [X, Z, want] = [repeat(c.x), repeat(c.z ?? c.x), repeat(c.want)]
      const results: [string, Float32Array][] = []
      const run = (label: string, f: (...args: never[]) => unknown) => {
        const Y = new Float32Array(N).fill(-1)
        f(...([X.slice(), ...(c.z ? [Z.slice()] : []), Y, N] as unknown as never[]))
        results.push([label, Y])
      }
      run('runtime, native', native[c.name])
      run('runtime, JS fallback', fallback[c.name])
      run('interpreter', (...args: never[]) => interpret(compiled[n].ir, args))
      for (const isa of addon.__polykern.isas) {
        if (addon.__polykern.setIsa(isa) !== isa) continue
        for (const threads of [1, 2]) {
          addon.__polykern.setThreads(threads)
          run(`addon ${isa}, ${threads} thread(s)`, addon[c.name])
        }
      }
      addon.__polykern.setThreads(1)
      for (const [label, got] of results) {
        const at = firstDifference(want, got)
        expect(at, `${label}: element ${at} is ${got[at]}, want ${want[at]}`).toBe(-1)
      }
    })
  }
})
