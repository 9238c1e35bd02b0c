/**
 * Timing calls: the one loop behind calibration, tuning, the build report and the benchmarks. The functions being
 * compared are warmed up, then timed in rounds, each round one batch of calls per function in the order given, so
 * that a load spike on the machine hits all of them alike. Rounds go on while the budget lasts, at least `minRounds`
 * of them and at most `maxRounds`.
 *
 * The statistic: a function's time per call is that of its fastest round (`bestNs`). Noise on a shared machine only
 * ever adds time (another process on the core, its cache traffic, a frequency dip), so the fastest round is the
 * figure load disturbs least and the one that repeats best between runs. Every decision reads it (a tuning winner, a
 * calibration crossover, a benchmark's GFLOP/s); the median round comes with it for display only.
 */
import { systemClock, type Clock } from './clock.ts'

export interface TimingOptions {
  /** Wall time for the rounds, from the end of warm-up and batch sizing. */
  readonly budgetMs: number
  /** At least this many rounds whatever the budget says (default 1); more while it lasts, up to `maxRounds`. */
  readonly minRounds?: number
  readonly maxRounds?: number
  /**
   * Warm-up before anything is timed (V8 optimizes JS loops, a pool starts, caches fill): each function is called, in
   * turn, until it has made `warmCalls` calls and they took `warmMs`. Default: none.
   */
  readonly warmCalls?: number
  readonly warmMs?: number
  /**
   * For calls too short for one to be timed alone: each function's batch doubles from one call until it lasts
   * `batchMs`, and each round times that many calls in a row. Default 0: one call per batch.
   */
  readonly batchMs?: number
  readonly clock?: Clock
}

export interface CallTiming {
  /** ns per call in the fastest round: the statistic every decision reads. Infinity when no round ran. */
  readonly bestNs: number
  /** ns per call in the median round (the upper one of an even count): for display, never for a decision. */
  readonly medianNs: number
  /** The calls timed; warm-up and batch sizing are not counted. */
  readonly calls: number
}

/** Times `fns`, in the order given, each called as is. */
export function timeCalls(fns: readonly (() => unknown)[], options: TimingOptions): CallTiming[] {
  const clock = options.clock ?? systemClock
  const batches = schedule(fns.length, options, clock)
  let step = batches.next()
  while (!step.done) {
    const { fn, calls } = step.value
    const f = fns[fn]
    const start = clock()
    for (let i = 0; i < calls; i++) f()
    step = batches.next(clock() - start)
  }
  return step.value
}

/** `timeCalls` for calls that may return a promise (onnxruntime's `run`): such a call lasts until it settles. */
export async function timeCallsAsync(fns: readonly (() => unknown)[], options: TimingOptions): Promise<CallTiming[]> {
  const clock = options.clock ?? systemClock
  const batches = schedule(fns.length, options, clock)
  let step = batches.next()
  while (!step.done) {
    const { fn, calls } = step.value
    const f = fns[fn]
    const start = clock()
    for (let i = 0; i < calls; i++) {
      const out = f()
      // A sync call is not awaited: the microtask would be timed with it.
      if (out instanceof Promise) await out
    }
    step = batches.next(clock() - start)
  }
  return step.value
}

/** `calls` calls of function `fn` in a row; the driver answers with the ns they took. */
interface Batch {
  readonly fn: number
  readonly calls: number
}

/** What to call and how often, from warm-up to the last round, for `count` functions; the timings at the end. */
function* schedule(count: number, options: TimingOptions, clock: Clock): Generator<Batch, CallTiming[], number> {
  const { budgetMs, minRounds = 1, maxRounds = Infinity, warmCalls = 0, warmMs = 0, batchMs = 0 } = options
  const fns = Array.from({ length: count }, (_, fn) => fn)
  const made = fns.map(() => 0)
  const spent = fns.map(() => 0)
  const warming = (fn: number) => made[fn] < warmCalls || spent[fn] < warmMs * 1e6
  while (fns.some(warming)) {
    for (const fn of fns.filter(warming)) {
      spent[fn] += yield { fn, calls: 1 }
      made[fn]++
    }
  }
  const sizes = fns.map(() => 1)
  if (batchMs > 0) for (const fn of fns) while ((yield { fn, calls: sizes[fn] }) < batchMs * 1e6) sizes[fn] *= 2
  const perCall = fns.map((): number[] => [])
  const deadline = clock() + budgetMs * 1e6
  for (let round = 0; round < minRounds || (round < maxRounds && clock() < deadline); round++) {
    for (const fn of fns) perCall[fn].push((yield { fn, calls: sizes[fn] }) / sizes[fn])
  }
  return perCall.map((times, fn) => ({
    bestNs: times.reduce((a, b) => Math.min(a, b), Infinity),
    medianNs: [...times].sort((a, b) => a - b)[times.length >> 1] ?? NaN,
    calls: times.length * sizes[fn],
  }))
}
