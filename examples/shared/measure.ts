// What every example needs: seeded random data, timing, and the registry's two paths of a kernel.
import { kernels, type KernelEntry } from 'polykern/runtime'

let seed = 42
/** Uniform in [-1, 1), the same sequence on every run. */
export const random = (): number => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32) * 2 - 1
export const f32 = (n: number): Float32Array => Float32Array.from({ length: n }, random)
export const f64 = (n: number): Float64Array => Float64Array.from({ length: n }, random)
export const i32 = (n: number): Int32Array => Int32Array.from({ length: n }, () => Math.round(random() * 1000))

/**
 * The test suite runs every example to check that its native path agrees with its JS one, not to time it: there
 * `EXAMPLES_CALL_ONCE=1` makes each timing one call.
 */
const callOnce = process.env.EXAMPLES_CALL_ONCE === '1'

/** Best of several runs, each run at least ~50 ms of calls, so timer noise stays small. */
export function bestMs(fn: () => void): number {
  if (callOnce) {
    const t0 = performance.now()
    fn()
    return performance.now() - t0
  }
  fn()
  let best = Infinity
  const start = performance.now()
  for (let run = 0; run < 5 || performance.now() - start < 300; run++) {
    let calls = 0
    const t0 = performance.now()
    do {
      fn()
      calls++
    } while (performance.now() - t0 < 50)
    best = Math.min(best, (performance.now() - t0) / calls)
    if (run > 20) break
  }
  return best
}

/** The registry entry of a compiled kernel: `call` (native where it pays) and `js` (the fallback loops). */
export function entryOf(name: string): KernelEntry {
  const entry = kernels().find((k) => k.name === name)
  if (entry === undefined) throw new Error(`example: kernel ${name} was not compiled`)
  return entry
}

/** Largest |a - b| / max(1, |a|) over the elements. */
export function maxRelErr(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let worst = 0
  for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i] - b[i]) / Math.max(1, Math.abs(a[i])))
  return worst
}

/** Prints a table with left-aligned text columns (the first `textColumns`) and right-aligned numbers. */
export function printTable(head: readonly string[], rows: readonly string[][], textColumns = 1): void {
  const widths = head.map((h, n) => Math.max(h.length, ...rows.map((r) => r[n].length)))
  const line = (r: readonly string[]) => r.map((s, n) => (n < textColumns ? s.padEnd(widths[n]) : s.padStart(widths[n]))).join('  ')
  console.log(line(head))
  console.log(widths.map((w) => '-'.repeat(w)).join('  '))
  for (const r of rows) console.log(line(r))
}

/** One row of native-vs-JS timing: the kernel's `call` and its JS fallback on the same arguments. */
export function timeBoth(name: string, args: () => unknown[]): { nativeMs: number; jsMs: number; native: boolean } {
  const entry = entryOf(name)
  const a = args()
  return { nativeMs: bestMs(() => entry.call(...a)), jsMs: bestMs(() => entry.js(...a)), native: entry.native }
}
