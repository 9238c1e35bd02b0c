/**
 * Real kernels for the hostile-argument tests, compiled by the pipeline into a real addon, and loaded three ways:
 * through the runtime with the addon (the native path), through the runtime without it (the JS fallback), and the
 * addon's raw export (its C re-validation, what a caller bypassing the runtime reaches).
 */
import path from 'node:path'
import { buildAddon } from '../../plugin/addon/build.ts'
import { packageRoot } from '../../plugin/addon/toolchain.ts'
import { emitAddonSource } from '../../plugin/emit/napi.ts'
import { findKernelSites } from '../../plugin/find/annotations.ts'
import { resolveOptions } from '../../plugin/options.ts'
import { compileKernel } from '../../plugin/pipeline.ts'
import { ISAS } from '../../plugin/targets/index.ts'
import type { Isa } from '../../plugin/targets/isa.ts'
import { NATIVE_DISABLED, kernels as loaded, loadKernels, type KernelAbi, type KernelFn } from '../../runtime/index.ts'
import { loadFuzzAddon, type FuzzAddon } from '../fuzz/differential.ts'

// packageRoot(), not this file's location: the same in vitest and in a child process.
const root = packageRoot()

const SOURCE = `
/* @kernel
   A: f32[M, K]
   B: f32[K, N]
   C: f32[M, N]
   C[i, j] +=! A[i, k] * B[k, j]
*/
export function matmul(A, B, C, M, N, K) {}

/* @kernel
   x: f64[N]
   y: f64[N]
   y[i] += 2 * x[i]
*/
export function axpy(x, y, N) {}

/* @kernel
   v: i32[3, N]
   s: i32[3]
   s[c] max=! v[c, j]
*/
export function rowMax(v, s, N) {}

/* @kernel
   x: f32[N]
   y: f32[N]
   let outer: f32[N, N]
   outer[i, j] = x[i] * x[j]
   y[i] +=! outer[j, i] * outer[i, j]
*/
export function viaTemp(x, y, N) {}
`

export interface Paths {
  /** Through the runtime, native. */
  readonly native: KernelFn
  /** Through the runtime, JS loops. */
  readonly js: KernelFn
  /** The addon's export, no runtime in front. */
  readonly raw: (...args: unknown[]) => unknown
  readonly addon: FuzzAddon
  readonly abi: KernelAbi
  /** The native path loaded with another ABI than the addon's: what the C re-validation alone catches. */
  readonly nativeWithAbi: (abi: KernelAbi) => KernelFn
}

/** Compiles SOURCE and builds its addon (with `cflags`: sanitizers), without loading it. */
export async function buildHostileAddon(cflags: readonly string[] = [], isas: readonly Isa[] = ISAS) {
  const file = path.join(root, 'test/.out/hostile/kernels.ts')
  const opts = resolveOptions({ root, cacheDir: 'node_modules/.cache/polykern-test' })
  const compiled = findKernelSites(file, SOURCE).map((site) => compileKernel(site, SOURCE, opts))
  const sources = emitAddonSource(compiled.map((k, n) => ({ kernel: k.ir, abi: k.abi, symbol: `kc_${n}` })), { moduleId: 'hostile.ts', isas, parallelMinWork: 1 })
  const built = await buildAddon({ sources, cacheDir: opts.cacheDir, cflags })
  if (!built.ok) throw new Error(built.error)
  return { compiled, built }
}

/** The kernels of SOURCE, each loaded both ways and raw. */
export async function hostileKernels(cflags: readonly string[] = [], isas: readonly Isa[] = ISAS): Promise<Record<string, Paths>> {
  const { compiled, built } = await buildHostileAddon(cflags, isas)
  const kernels = Object.fromEntries(compiled.map((k) => [k.abi.name, { abi: k.abi, js: new Function(`return ${k.js}`)() as (...a: never[]) => unknown }]))
  const base = { addon: 'not-beside.node', cachePath: built.path, requires: [], kernels }
  const module = `hostile-${built.hash.slice(0, 8)}`
  const native = loadKernels({ ...base, module: `${module}-native.ts` })
  const js = loadKernels({ ...base, module: `${module}-js.ts`, addon: null, cachePath: null, reason: NATIVE_DISABLED })
  if (!loaded().find((k) => k.module === `${module}-native.ts`)?.native) throw new Error('the hostile kernels addon did not load')
  const addon = loadFuzzAddon(built.path)
  const nativeWithAbi = (abi: KernelAbi) =>
    loadKernels({ ...base, kernels: { [abi.name]: { ...kernels[abi.name], abi } }, module: `${module}-${abi.name}-other-abi.ts` })[abi.name]
  return Object.fromEntries(compiled.map((k) => [k.abi.name, {
    native: native[k.abi.name], js: js[k.abi.name], raw: addon[k.abi.name], addon, abi: k.abi, nativeWithAbi,
  }]))
}

