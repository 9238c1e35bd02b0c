/**
 * CPU dispatch: one addon holds every ISA's version of every kernel. Each example kernel is checked at every ISA
 * level and at 1 and 2 threads against the reference interpreter (on the IR straight from the spec), with every
 * parallel loop forced through the pool (parallelMinWork: 1). Child processes check that POLYKERN_ISA picks the
 * level at load, lower only, and an addon whose best ISA needs a feature this CPU lacks shows the fallback.
 */
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'
import { buildAddon } from '../../plugin/addon/build.ts'
import { addonIsas, emitAddonSource, MAIN_FILE, type AddonKernel } from '../../plugin/emit/napi.ts'
import { findKernelSites } from '../../plugin/find/annotations.ts'
import { buildKernel } from '../../plugin/spec/build-ir.ts'
import { interpret } from '../../plugin/ir/interp.ts'
import { resolveOptions } from '../../plugin/options.ts'
import { compileKernel, compileModule } from '../../plugin/pipeline.ts'
import { checkSpec } from '../../plugin/spec/check.ts'
import { parseSpec } from '../../plugin/spec/parser.ts'
import { AVX2, AVX512, ISAS, SCALAR } from '../../plugin/targets/index.ts'
import type { Isa } from '../../plugin/targets/isa.ts'
import type { KernelAbi } from '../../runtime/abi.ts'
import * as K from '../emit/kernels.ts'
import { cpuRuns } from '../support/cpu.ts'
import { copyArgs, makeArgs, points, reductionLength } from '../support/kernel-args.ts'
import { maxRelErr, randomArray, rng, tolerance, type TensorArray } from '../support/random.ts'

const root = path.resolve(fileURLToPath(import.meta.url), '../../..')
const require = createRequire(import.meta.url)
const opts = resolveOptions({ root, cacheDir: 'node_modules/.cache/polykern-test' })
const SIZES = [1, 2, 3, 5, 7, 8, 13, 16, 17, 31, 33]
const MAX_POINTS = 200_000
const SHAPES_PER_KERNEL = 3

interface Meta {
  readonly isa: string
  readonly isas: readonly string[]
  readonly threads: number
  readonly setIsa: (name: string) => string
  readonly setThreads: (n: number) => void
}
type Addon = Record<string, (...args: unknown[]) => unknown> & { readonly __polykern: Meta }

/** The level the addon should run for a request: the first at or below it whose features this CPU has. */
function expectedIsa(isas: readonly Isa[], requested?: string): string {
  const from = Math.max(0, isas.findIndex((isa) => isa.name === requested))
  return isas.slice(from).find(cpuRuns)!.name
}

/** `require(addon).__polykern.isa` in a fresh process with POLYKERN_ISA set (or not). */
function isaAtLoad(addonPath: string, requested?: string): string {
  const env = { ...process.env, POLYKERN_ISA: requested }
  if (requested === undefined) delete env.POLYKERN_ISA
  const code = `process.stdout.write(require(${JSON.stringify(addonPath)}).__polykern.isa)`
  return execFileSync(process.execPath, ['-e', code], { env, encoding: 'utf8' })
}

async function build(kernels: readonly AddonKernel[], isas: readonly Isa[], moduleId: string): Promise<{ path: string }> {
  const sources = emitAddonSource(kernels, { moduleId, isas, parallelMinWork: 1 })
  const built = await buildAddon({ sources, cacheDir: opts.cacheDir })
  if (!built.ok) throw new Error(`addon build failed:\n${built.error}`)
  return { path: built.path }
}

describe('the emitted translation unit', () => {
  const kernels = [K.matmul, K.softmax].map((kernel, n) => ({ kernel, abi: K.abiOf(kernel), symbol: `kc_${n}_${kernel.name}` }))
  const sources = emitAddonSource(kernels, { moduleId: 'test.ts', isas: ISAS })
  const main = sources.find((f) => f.name === MAIN_FILE)!.text
  const defined = (text: string) => [...text.matchAll(/^PK_SHARED int (\w+)\(/gm)].map((m) => m[1]).sort()

  it('compiles each ISA version in a file of its own, inside its target region, and nothing else there', () => {
    const targeted = ISAS.filter((i) => i.gccTarget !== '')
    expect(sources.map((f) => f.name)).toEqual([MAIN_FILE, ...targeted.map((i) => `polykern_${i.name}.c`)])
    for (const isa of targeted) {
      const text = sources.find((f) => f.name === `polykern_${isa.name}.c`)!.text
      const regions = [...text.matchAll(/#pragma GCC target\("([^"]*)"\)([\s\S]*?)#pragma GCC pop_options/g)]
      expect(regions.map((r) => r[1])).toEqual([isa.gccTarget])
      expect(defined(regions[0][2])).toEqual(kernels.map((k) => `${k.symbol}_${isa.name}`).sort())
      expect(text).toMatch(/^#define PK_RUNTIME_EXTERN$/m)
      expect(text).not.toMatch(/napi_value|pk_init|__attribute__\(\(constructor/)
    }
    expect(main).not.toMatch(/#pragma GCC target|PK_RUNTIME_EXTERN/)
    expect(defined(main)).toEqual(kernels.map((k) => `${k.symbol}_scalar`).sort())
    for (const k of kernels) {
      expect(main).toContain(`PK_SHARED __typeof__(${k.symbol}_scalar) ${targeted.map((i) => `${k.symbol}_${i.name}`).join(', ')};`)
    }
    expect(main).toMatch(/static napi_value pk_init/)
  })

  it('points every kernel at one version per level, chosen by __builtin_cpu_supports of the ISA table', () => {
    for (const [level, isa] of ISAS.entries()) {
      const use = new RegExp(`case ${level}:\\n((?:\\s+\\w+ = \\w+;\\n)+)\\s+break;`).exec(main)?.[1] ?? ''
      expect(use.trim().split(/\s*\n\s*/)).toEqual(kernels.map((k) => `${k.symbol} = ${k.symbol}_${isa.name};`))
      if (isa.cpuFeatures.length > 0) {
        const tests = isa.cpuFeatures.map((f) => `__builtin_cpu_supports("${f}")`).join(' && ')
        expect(main).toContain(`case ${level}: return ${tests};`)
      }
    }
  })

  it('holds every ISA on x86 and only the feature-free one elsewhere', () => {
    expect(addonIsas('x64')).toEqual(ISAS)
    expect(addonIsas('arm64')).toEqual([SCALAR])
  })

  it("the rewritten module's CPU check asks for what the lowest ISA needs (scalar: nothing)", async () => {
    const file = path.join(root, 'examples/kernels/linalg.ts')
    const compiled = await compileModule(file, readFileSync(file, 'utf8'), { ...opts, native: false })
    expect(compiled!.code).toContain(`requires: ${JSON.stringify(ISAS.at(-1)!.cpuFeatures)}`)
  })
})

describe('a CPU without the best ISA', () => {
  // The top level needs avx5124fmaps (Xeon Phi only), so this CPU must fall back to the next one.
  const isas: readonly Isa[] = [{ ...AVX512, cpuFeatures: ['avx512f', 'avx5124fmaps'] }, AVX2, SCALAR]
  let addon: { path: string }

  beforeAll(async () => {
    addon = await build([{ kernel: K.matmul, abi: K.abiOf(K.matmul), symbol: 'kc_0_matmul' }], isas, 'fallback.ts')
  })

  it('loads the best level it supports, and a request for a missing one falls back too', () => {
    expect(expectedIsa(isas)).not.toBe('avx512')
    for (const requested of [undefined, 'avx512', 'avx2', 'scalar']) {
      expect(isaAtLoad(addon.path, requested), `POLYKERN_ISA=${requested}`).toBe(expectedIsa(isas, requested))
    }
  })

  it('setIsa never picks a level the CPU lacks, and the kernel still computes the right thing', () => {
    const a = require(addon.path) as Addon
    expect(a.__polykern.isas).toEqual(['avx512', 'avx2', 'scalar'])
    expect(a.__polykern.setIsa('avx512')).toBe(expectedIsa([AVX2, SCALAR]))
    expect(a.__polykern.isa).toBe(expectedIsa([AVX2, SCALAR]))
    const next = rng(17)
    const [M, N, Kd] = [13, 33, 7]
    const [A, B] = [randomArray('f32', M * Kd, next), randomArray('f32', Kd * N, next)] as Float32Array[]
    const [C, want] = [new Float32Array(M * N).fill(NaN), new Float32Array(M * N)]
    a.matmul(A, B, C, M, N, Kd)
    K.matmulRef(A, B, want, M, N, Kd)
    expect(maxRelErr(C, want)).toBeLessThan(1e-5)
    expect(() => a.__polykern.setIsa('neon')).toThrow(expect.objectContaining({ code: 'runtime_isa_invalid' }))
  })
})

for (const file of ['examples/kernels/linalg.ts', 'examples/kernels/nn.ts']) {
  describe(`${file} at every ISA level and thread count`, async () => {
    const abs = path.join(root, file)
    const code = readFileSync(abs, 'utf8')
    const sites = findKernelSites(abs, code)
    const compiled = sites.map((site) => compileKernel(site, code, opts))
    const kernels = compiled.map((k, n) => ({ kernel: k.ir, abi: k.abi, symbol: `kc_${n}_${k.abi.name}` }))
    const built = await build(kernels, ISAS, file)
    const addon = require(built.path) as Addon
    const meta = addon.__polykern

    it('__polykern names the compiled ISAs, and POLYKERN_ISA picks the level at load', () => {
      expect(meta.isas).toEqual(ISAS.map((i) => i.name))
      expect(meta.isa).toBe(expectedIsa(ISAS, process.env.POLYKERN_ISA))
      for (const requested of [undefined, 'avx512', 'avx2', 'scalar', 'sse9']) {
        expect(isaAtLoad(built.path, requested), `POLYKERN_ISA=${requested}`).toBe(expectedIsa(ISAS, requested))
      }
    })

    for (const [n, k] of compiled.entries()) {
      const reference = buildKernel(checkSpec(parseSpec(sites[n].specText, sites[n].specStart, abs), sites[n]))
      it(`${k.abi.name}: every ISA, at 1 and 2 threads, equals the interpreter`, () => {
        const next = rng(hash(k.abi.name))
        for (let shape = 0, tried = 0; shape < SHAPES_PER_KERNEL; tried++) {
          expect(tried).toBeLessThan(1000)
          const pick = () => SIZES[Math.floor(next() * SIZES.length)]
          const sizes = new Map(k.abi.params.filter((p) => p.kind === 'size').map((p) => [p.name, pick()]))
          if (points(reference, sizes) > MAX_POINTS) continue
          shape++
          const args = makeArgs(k.abi, sizes, next)
          const run = (f: (...a: unknown[]) => unknown) => {
            const copy = copyArgs(args)
            f(...copy)
            return copy
          }
          const want = run((...a) => interpret(reference, a))
          const tol = tolerance(dtypeOf(k.abi), reductionLength(reference, sizes))
          for (const isa of ISAS) {
            expect(meta.setIsa(isa.name)).toBe(expectedIsa(ISAS, isa.name))
            for (const threads of [1, 2]) {
              meta.setThreads(threads)
              const got = run(addon[k.abi.name])
              const label = `${isa.name}, ${threads} threads, ${[...sizes].map(([s, v]) => `${s}=${v}`).join(' ')}`
              k.abi.params.forEach((p, i) => {
                if (p.kind !== 'tensor' || p.role === 'in') return
                expect(maxRelErr(want[i] as TensorArray, got[i] as TensorArray), `${label}: ${p.name}`).toBeLessThanOrEqual(tol)
              })
            }
          }
        }
      })
    }
  })
}


function dtypeOf(abi: KernelAbi) {
  for (const p of abi.params) if (p.kind === 'tensor' && p.role !== 'in') return p.dtype
  throw new Error(`${abi.name} has no output`)
}

const hash = (s: string) => [...s].reduce((h, c) => (Math.imul(h, 31) + c.charCodeAt(0)) | 0, 11)
