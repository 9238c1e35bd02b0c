/**
 * Wall-clock timing of one system on one case, through polykern's own timing (plugin/measure/timing.ts): warm up,
 * then time single calls for at least MIN_SECONDS and MIN_RUNS; the fastest call counts. A call that returns a promise
 * (onnxruntime's `run`) is timed until it settles.
 */
import { timeCallsAsync } from '../../plugin/measure/timing.ts'

export const WARMUP_SECONDS = 0.1
export const MIN_SECONDS = 0.3
export const MIN_RUNS = 3
/**
 * Passes over a case's native and onnxruntime systems, in turn: this shared machine's speed drifts by 10-15% over
 * seconds, so a slow phase that one system's timing fell into alone skews the ratios; each pass times every system
 * again and each keeps its best call.
 */
export const PASSES = 2

export interface Timing {
  /** The fastest call, in seconds: what the GFLOP/s in the report are computed from. */
  readonly bestSeconds: number
  readonly medianSeconds: number
  readonly runs: number
}

/** Adds `r`, or replaces the result of the same case, system and threads when `r` ran faster (a later pass). */
export function keepFastest<R extends { name: string; system: string; threads: number; bestSeconds: number }>(results: R[], r: R): void {
  const at = results.findIndex((x) => x.name === r.name && x.system === r.system && x.threads === r.threads)
  if (at < 0) results.push(r)
  else if (r.bestSeconds < results[at].bestSeconds) results[at] = r
}

/** One call's duration in seconds. */
export async function timeCall(call: () => unknown): Promise<number> {
  const [once] = await timeCallsAsync([call], { budgetMs: 0 })
  return once.bestNs / 1e9
}

/** `warmedSeconds`: warm-up already spent on this exact call (the verification run), counted toward WARMUP_SECONDS. */
export async function measure(call: () => unknown, warmedSeconds = 0): Promise<Timing> {
  const warmMs = Math.max(0, WARMUP_SECONDS - warmedSeconds) * 1e3
  const [t] = await timeCallsAsync([call], { warmMs, budgetMs: MIN_SECONDS * 1e3, minRounds: MIN_RUNS })
  return { bestSeconds: t.bestNs / 1e9, medianSeconds: t.medianNs / 1e9, runs: t.calls }
}
