/**
 * measure/timing.ts on a clock that only the timed functions move: each call adds its own cost in ns and writes its
 * name in a log, so warm-up, batch sizing, rounds and the statistic are checked call by call, with no real time.
 */
import { describe, expect, it } from 'vitest'
import { systemClock, type Clock } from '../../plugin/measure/clock.ts'
import { timeCalls, timeCallsAsync } from '../../plugin/measure/timing.ts'

/**
 * A fake machine: `fn(name, costs)` is a function whose n-th call costs `costs[n]` ns (the last one from then on).
 * A timing that never stops throws instead of hanging the test.
 */
function machine() {
  let now = 0
  const log: string[] = []
  const clock: Clock = () => now
  const fn = (name: string, ...costs: number[]) => {
    let n = 0
    return () => {
      if (log.push(name) > 10_000) throw new Error('the timing does not stop')
      now += costs[Math.min(n++, costs.length - 1)]
    }
  }
  return { clock, log, fn, advance: (ns: number) => void (now += ns) }
}

describe('timeCalls', () => {
  it('times the functions in turn, one batch each per round, in the order given', () => {
    const m = machine()
    const [a, b] = timeCalls([m.fn('a', 100), m.fn('b', 300)], { budgetMs: 0, minRounds: 3, clock: m.clock })
    expect(m.log).toEqual(['a', 'b', 'a', 'b', 'a', 'b'])
    expect([a.bestNs, b.bestNs]).toEqual([100, 300])
    expect([a.calls, b.calls]).toEqual([3, 3])
  })

  it('warms each function up, in turn, until it has made warmCalls calls and they took warmMs, untimed', () => {
    const m = machine()
    // a is slow when cold: its first two calls must not count.
    const options = { warmMs: 0.001, warmCalls: 2, budgetMs: 0, clock: m.clock }
    const [a, b] = timeCalls([m.fn('a', 5000, 5000, 300), m.fn('b', 100)], options)
    // a: 10000 ns in its 2 warm calls; b: 10 calls to reach 1000 ns. Then one round.
    expect(m.log).toEqual(['a', 'b', 'a', 'b', ...Array(8).fill('b'), 'a', 'b'])
    expect([a.bestNs, a.medianNs, a.calls]).toEqual([300, 300, 1])
    expect([b.bestNs, b.calls]).toEqual([100, 1])
  })

  it('runs rounds while the budget lasts, counted from the end of warm-up, at most maxRounds', () => {
    const m = machine()
    // 200 ns a round: rounds start at 0, 200, 400, 600 and 800 ns of a 1000 ns budget.
    expect(timeCalls([m.fn('a', 100), m.fn('b', 100)], { budgetMs: 0.001, clock: m.clock }).map((t) => t.calls)).toEqual([5, 5])
    const warmed = machine()
    const [t] = timeCalls([warmed.fn('a', 5000, 100)], { warmCalls: 1, budgetMs: 0.001, clock: warmed.clock })
    expect(t.calls).toBe(10)
    const capped = machine()
    expect(timeCalls([capped.fn('a', 100)], { budgetMs: 1, maxRounds: 4, clock: capped.clock })[0].calls).toBe(4)
  })

  it('always runs minRounds, however long they take and whatever the budget or maxRounds', () => {
    const m = machine()
    const [t] = timeCalls([m.fn('a', 1e9)], { budgetMs: 0, minRounds: 4, maxRounds: 2, clock: m.clock })
    expect(t.calls).toBe(4)
    expect(timeCalls([m.fn('b', 100)], { budgetMs: 0, clock: m.clock })[0].calls).toBe(1)
  })

  it('batches short calls: each batch doubles until it lasts batchMs, and rounds time that many calls', () => {
    const m = machine()
    const [a, b] = timeCalls([m.fn('a', 100), m.fn('b', 400)], { batchMs: 0.001, budgetMs: 0, minRounds: 2, clock: m.clock })
    // Sizing: a in batches of 1, 2, 4, 8, 16 (1600 ns), b of 1, 2, 4 (1600 ns); then 16 a, 4 b per round.
    const sizing = [...Array(31).fill('a'), ...Array(7).fill('b')]
    const round = [...Array(16).fill('a'), ...Array(4).fill('b')]
    expect(m.log).toEqual([...sizing, ...round, ...round])
    expect([a.bestNs, a.calls, b.bestNs, b.calls]).toEqual([100, 32, 400, 8])
  })

  it("reports the fastest round's time per call, and the median round's beside it", () => {
    const m = machine()
    const [odd] = timeCalls([m.fn('a', 500, 200, 300, 400, 900)], { budgetMs: 0, minRounds: 5, clock: m.clock })
    expect([odd.bestNs, odd.medianNs]).toEqual([200, 400])
    const [even] = timeCalls([m.fn('b', 300, 100, 200, 400)], { budgetMs: 0, minRounds: 4, clock: m.clock })
    expect([even.bestNs, even.medianNs]).toEqual([100, 300])
    // Batched, a round's time is per call: 4 calls of 150 ns.
    const [batched] = timeCalls([m.fn('c', 150)], { batchMs: 0.0005, budgetMs: 0, clock: m.clock })
    expect([batched.bestNs, batched.calls]).toEqual([150, 4])
  })
})

describe('timeCallsAsync', () => {
  it('times a call until its promise settles, and a sync call as it is', async () => {
    const m = machine()
    const settling = () => Promise.resolve().then(() => m.advance(250))
    const [promised, sync] = await timeCallsAsync([settling, m.fn('b', 100)], { budgetMs: 0, minRounds: 2, clock: m.clock })
    expect([promised.bestNs, promised.calls]).toEqual([250, 2])
    expect(sync.bestNs).toBe(100)
  })

  it('follows the same schedule as timeCalls', async () => {
    const sync = machine()
    const promised = machine()
    const options = { warmCalls: 1, batchMs: 0.001, budgetMs: 0.005, clock: sync.clock }
    const want = timeCalls([sync.fn('a', 700, 100), sync.fn('b', 300)], options)
    const got = await timeCallsAsync([promised.fn('a', 700, 100), promised.fn('b', 300)], { ...options, clock: promised.clock })
    expect(got).toEqual(want)
    expect(promised.log).toEqual(sync.log)
  })
})

describe('systemClock', () => {
  it('counts nanoseconds', () => {
    const start = systemClock()
    const wall = performance.now()
    while (performance.now() - wall < 2);
    expect(systemClock() - start).toBeGreaterThanOrEqual(1.9e6)
  })
})
