/**
 * The thread count of every loaded addon's pool. An addon reads POLYKERN_THREADS (or its baked default) when it
 * loads; `setThreads` changes it for every addon loaded so far and every one loaded later.
 */

/** What the runtime uses of an addon's `__polykern`. */
export interface AddonThreads {
  readonly threads?: unknown
  readonly setThreads?: unknown
}

/** The most threads an addon's pool runs (PK_MAX_THREADS in native/polykern_pool.h). */
export const MAX_THREADS = 256

const addons = new Set<AddonThreads>()
let requested: number | undefined

/** Sets the threads kernels' parallel loops use, from 1 to MAX_THREADS, for every addon of the process. */
export function setThreads(n: number): void {
  if (!Number.isInteger(n) || n < 1 || n > MAX_THREADS) {
    const message = `polykern: setThreads() takes an integer from 1 to ${MAX_THREADS}, got ${String(n)}`
    throw Object.assign(new RangeError(message), { code: 'runtime_threads_invalid' })
  }
  requested = n
  for (const addon of addons) apply(addon, n)
}

/** Called by the loader for each addon it loads: an earlier setThreads applies to it too. */
export function adoptAddon(addon: AddonThreads | undefined): void {
  if (addon === undefined || addons.has(addon)) return
  addons.add(addon)
  if (requested !== undefined) apply(addon, requested)
}

function apply(addon: AddonThreads, n: number): void {
  if (typeof addon.setThreads === 'function') (addon.setThreads as (n: number) => void)(n)
}
