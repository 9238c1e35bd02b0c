/** Wall time of a kernel call: one warm-up call, then calls until a time budget is spent; the median is reported. */

export interface Timing {
  /** Median milliseconds per call. */
  readonly ms: number
  readonly calls: number
}

/** At least `minCalls` timed calls, and more until `budgetMs` is spent (at most `maxCalls`). */
export function timeCalls(run: () => unknown, budgetMs: number, minCalls = 3, maxCalls = 1000): Timing {
  run() // V8 optimizes the JS loops, the addon's pool starts, caches warm
  const times: number[] = []
  const start = performance.now()
  while (times.length < minCalls || (performance.now() - start < budgetMs && times.length < maxCalls)) {
    const t0 = performance.now()
    run()
    times.push(performance.now() - t0)
  }
  times.sort((a, b) => a - b)
  return { ms: times[Math.floor(times.length / 2)], calls: times.length }
}
