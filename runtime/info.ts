/**
 * `polykernInfo(fn)`: whether a compiled kernel function runs natively, on which ISA and how many threads, from which
 * addon, why not, and where a given call would go. Everything is read when asked: `isa` and `threads` follow
 * `setThreads`, POLYKERN_ISA and POLYKERN_THREADS.
 */
import { notKernel } from './errors.ts'
import { kernels } from './registry.ts'

/** What `polykernInfo` tells about one kernel function. */
export interface KernelInfo {
  /** The annotated function's name and its module (relative to the project root). */
  readonly name: string
  readonly module: string
  /** Whether its addon loaded: calls run native code, except those `route` sends to the JS loops. */
  readonly native: boolean
  /** The ISA version the addon runs (`avx512`, `avx2`, `scalar`), or null on the JS loops. */
  readonly isa: string | null
  /** The threads of the addon's pool, or null on the JS loops. */
  readonly threads: number | null
  /** The addon file, or null. */
  readonly addon: string | null
  /** Why it runs the JS loops (POLYKERN_NATIVE=0, `native: false`, the files the loader tried and why), or null. */
  readonly reason: string | null
  /** Where a call with these arguments would run: calibrated small (or large) calls run the JS loops. */
  readonly route: (...args: unknown[]) => 'native' | 'js'
}

const KERNEL = Symbol.for('polykern.kernel')

/**
 * The info of `fn`, a function rewritten by polykern; a TypeError (`runtime_not_kernel`) for anything else, as when
 * its module was not compiled (not included in the bundler plugin, or not loaded through polykern/register).
 */
export function polykernInfo(fn: unknown): KernelInfo {
  const call = typeof fn === 'function' ? (fn as unknown as Record<symbol, unknown>)[KERNEL] : undefined
  const entry = call === undefined ? undefined : kernels().find((k) => k.call === call)
  if (entry === undefined) throw notKernel(fn)
  const { name, module, native, addonPath, meta, reason, route } = entry
  return {
    name,
    module,
    native,
    get isa() {
      return typeof meta?.isa === 'string' ? meta.isa : null
    },
    get threads() {
      return typeof meta?.threads === 'number' ? meta.threads : null
    },
    addon: addonPath,
    reason,
    route: (...args) => route(args),
  }
}
