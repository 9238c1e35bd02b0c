/** What the timing reads, injectable so that a test can drive time itself. */

/** Nanoseconds since some fixed origin, as a number. */
export type Clock = () => number

/**
 * The monotonic clock, from this module's load: hrtime counts from boot, and past 2^53 ns (104 days of uptime) a
 * number no longer holds every nanosecond; a process's own age stays below that.
 */
const origin = process.hrtime.bigint()
export const systemClock: Clock = () => Number(process.hrtime.bigint() - origin)
