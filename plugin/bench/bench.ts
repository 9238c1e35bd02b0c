/**
 * `polykern bench`: each kernel of a file timed on the native addon and on its generated JS loops, on the same random
 * data at the sizes asked for. Reports milliseconds per call and the speed-up (JS time / native time).
 */
import { KernelDiagnostic, formatDiagnostic } from '../diagnostics.ts'
import { findKernelSites } from '../find/annotations.ts'
import type { ResolvedOptions } from '../options.ts'
import { compileKernel, moduleIdOf, type CompiledKernel } from '../pipeline.ts'
import { loadCompiled } from '../project/load-compiled.ts'
import { argsOf, elementsOf, seeded, type Shape } from '../verify/random-args.ts'
import { timeCalls, type Timing } from './time-calls.ts'

export interface BenchOptions {
  readonly kernel?: string
  /** Sizes by name; a size not given is `defaultSize`. */
  readonly sizes: Readonly<Record<string, number>>
  readonly defaultSize: number
  /** Time budget of each side of each kernel, in ms. */
  readonly budgetMs: number
}

export interface BenchRow {
  readonly kernel: string
  readonly shape: Shape
  readonly native: Timing | null
  readonly js: Timing
  /** js.ms / native.ms: how many times faster the native call is; null without native. */
  readonly speedup: number | null
}

export interface BenchReport {
  readonly file: string
  /** Why there is no native column, when there is none. */
  readonly nativeMissing?: string
  /** The addon's ISA version and pool threads, when it loaded. */
  readonly addon?: { readonly isa: string; readonly threads: number }
  readonly rows: readonly BenchRow[]
  readonly errors: readonly string[]
  readonly available: readonly string[]
}

/** Tensors larger than this are refused before anything is allocated. */
const MAX_ELEMENTS = 2 ** 28

export class BenchSizeError extends Error {}

export async function benchFile(file: string, code: string, opts: ResolvedOptions, options: BenchOptions): Promise<BenchReport> {
  const moduleId = moduleIdOf(file, opts)
  const sites = findKernelSites(file, code)
  const available = sites.map((s) => s.name)
  const errors: string[] = []
  const compiled: CompiledKernel[] = []
  for (const site of sites.filter((s) => options.kernel === undefined || s.name === options.kernel)) {
    try {
      compiled.push(compileKernel(site, code, opts))
    } catch (e) {
      if (!(e instanceof KernelDiagnostic)) throw e
      errors.push(formatDiagnostic(e, code))
    }
  }
  const known = new Set(compiled.flatMap((k) => k.abi.params.filter((p) => p.kind === 'size').map((p) => p.name)))
  const unknown = Object.keys(options.sizes).filter((s) => !known.has(s))
  if (unknown.length > 0 && compiled.length > 0) {
    throw new BenchSizeError(`no kernel here has a size ${unknown.join(', ')}; their sizes: ${[...known].join(', ') || 'none'}`)
  }
  const shapes = compiled.map((k) => shapeOf(k, options))
  if (compiled.length === 0) return { file: moduleId, rows: [], errors, available }

  const { entries, addonPath, nativeMissing } = await loadCompiled(compiled, moduleId, opts, 'polykern bench', true)
  const rows = compiled.map((k, n) => {
    const entry = entries[n]
    const args = argsOf(k.abi, shapes[n], seeded(n + 1))
    const native = entry.nativeFn ? timeCalls(() => entry.nativeFn!(...args), options.budgetMs) : null
    const js = timeCalls(() => entry.js(...args), options.budgetMs)
    return { kernel: k.abi.name, shape: shapes[n], native, js, speedup: native ? js.ms / native.ms : null }
  })
  const meta = addonPath ? addonMeta(addonPath) : undefined
  return { file: moduleId, nativeMissing, addon: meta, rows, errors, available }
}

/** The kernel's sizes from the options; refuses tensors too large to allocate. */
function shapeOf(k: CompiledKernel, options: BenchOptions): Shape {
  const shape: Record<string, number> = {}
  for (const p of k.abi.params) if (p.kind === 'size') shape[p.name] = options.sizes[p.name] ?? options.defaultSize
  for (const p of k.abi.params) {
    if (p.kind === 'tensor' && elementsOf(p, shape) > MAX_ELEMENTS) {
      throw new BenchSizeError(`${k.abi.name}: argument '${p.name}' would have ${elementsOf(p, shape)} elements at ` +
        `${Object.entries(shape).map(([s, v]) => `${s}=${v}`).join(' ')}; at most ${MAX_ELEMENTS}`)
    }
  }
  return shape
}

function addonMeta(file: string): { isa: string; threads: number } | undefined {
  const meta = (process.getBuiltinModule('node:module').createRequire(import.meta.url)(file) as { __polykern?: { isa?: unknown; threads?: unknown } }).__polykern
  return typeof meta?.isa === 'string' && typeof meta.threads === 'number' ? { isa: meta.isa, threads: meta.threads } : undefined
}
