/**
 * The thread count of every loaded addon's pool. An addon reads POLYKERN_THREADS (or its baked default) when it
 * loads; `setThreads` changes it for every addon loaded so far and every one loaded later, in this thread, whichever
 * copy of the runtime (each bundle inlines its own) loaded it or is called: they share one record on `globalThis`.
 */

/** What the runtime uses of an addon's `__polykern`. */
export interface AddonThreads {
  readonly threads?: unknown
  readonly setThreads?: unknown
}

/** The most threads an addon's pool runs (PK_MAX_THREADS in native/polykern_pool.h). */
export const MAX_THREADS = 256

/** The addons loaded in this thread and the last count asked for, shared by every copy of the runtime. */
interface ThreadsRecord {
  readonly addons: Set<AddonThreads>
  requested?: number
}
const record = ((globalThis as Record<symbol, unknown>)[Symbol.for('polykern.threads')] ??= { addons: new Set() }) as ThreadsRecord

/** Sets the threads kernels' parallel loops use, from 1 to MAX_THREADS, for every addon loaded in this thread. */
export function setThreads(n: number): void {
  if (!Number.isInteger(n) || n < 1 || n > MAX_THREADS) {
    const message = `polykern: setThreads() takes an integer from 1 to ${MAX_THREADS}, got ${String(n)}`
    throw Object.assign(new RangeError(message), { code: 'runtime_threads_invalid' })
  }
  record.requested = n
  for (const addon of record.addons) apply(addon, n)
}

/** Called by the loader for each addon it loads: an earlier setThreads applies to it too. */
export function adoptAddon(addon: AddonThreads | undefined): void {
  if (addon === undefined || record.addons.has(addon)) return
  record.addons.add(addon)
  if (record.requested !== undefined) apply(addon, record.requested)
}

function apply(addon: AddonThreads, n: number): void {
  if (typeof addon.setThreads === 'function') (addon.setThreads as (n: number) => void)(n)
}
