/**
 * Compiled kernels kept across rebuilds in one process (watch mode, dev servers): when a module is transformed again,
 * each kernel whose spec text, parameters and options are the same as in the module's previous version comes back
 * without running the passes. Editing a JS body or moving a kernel only changes offsets, which the caller refreshes;
 * the emitted C is then the same, so the addon's content hash is too and no native build runs.
 * Only each module's latest version is kept: a long dev session holds one entry per live kernel.
 */
import type { KernelSite } from './find/site.ts'
import type { CompiledKernel } from './compiled-kernel.ts'
import type { ResolvedOptions } from './options.ts'

/** One rebuild of one module: look kernels up in its previous version, keep those of this one. */
export interface ModuleMemo {
  /** The kernel compiled from an identical spec in the module's previous version, at its old offsets. */
  find(site: KernelSite): CompiledKernel | undefined
  /** Records `kernel` for the next version; `reused`: it came from `find`. */
  keep(site: KernelSite, kernel: CompiledKernel, reused: boolean): void
  /** The module compiled without error: its kept kernels replace the previous version's. */
  commit(): void
}

export interface KernelMemo {
  module(file: string, opts: ResolvedOptions): ModuleMemo
}

export function createKernelMemo(): KernelMemo {
  const versions = new Map<string, ReadonlyMap<string, CompiledKernel>>()
  return {
    module(file, opts) {
      const previous = versions.get(file)
      const next = new Map<string, CompiledKernel>()
      // Options are fixed per plugin instance, but a key that includes them cannot go stale if that ever changes.
      const optionsKey = JSON.stringify(opts)
      const keyOf = (site: KernelSite) =>
        JSON.stringify([optionsKey, site.name, site.form, site.specText, site.params.map((p) => [p.name, p.typeText])])
      return {
        find: (site) => previous?.get(keyOf(site)),
        keep(site, kernel, reused) {
          next.set(keyOf(site), kernel)
          tally(file, site.name, reused)
        },
        // After a spec error the previous version stays: fixing the error finds its unchanged kernels again.
        commit: () => void versions.set(file, next),
      }
    },
  }
}

/** How often a kernel went through the passes or came from a memo in this process. */
export interface KernelTally {
  readonly compiled: number
  readonly unchanged: number
}

/** By `file#name`: bounded by the number of distinct kernels. Watch-mode tests count these instead of timings. */
const tallies = new Map<string, KernelTally>()

function tally(file: string, name: string, reused: boolean): void {
  const { compiled, unchanged } = kernelTally(file, name)
  tallies.set(`${file}#${name}`, reused ? { compiled, unchanged: unchanged + 1 } : { compiled: compiled + 1, unchanged })
}

/** How often the plugin compiled, or reused, kernel `name` of `file` (an absolute path) so far in this process. */
export function kernelTally(file: string, name: string): KernelTally {
  return tallies.get(`${file}#${name}`) ?? { compiled: 0, unchanged: 0 }
}
