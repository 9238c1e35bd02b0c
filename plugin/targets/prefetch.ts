/**
 * How many streams the hardware prefetchers follow at once, by core: what an operand read in place costs depends on
 * it (schedule/gemm-model.ts: each row of a B read in place is a stream). No OS interface publishes it, so it comes
 * from the core's identity in /proc/cpuinfo (CPUID's vendor and family, as the kernel prints them), looked up in a
 * table of measured cores; any other core gets the fewest measured, the safe side (a B read in place along more
 * rows than are followed waits for its lines; one packed costs a copy, never a stall).
 */
/**
 * Cores measured, by vendor and first family: on 1 × 4096 × 4096 (B from memory, read in place along kc rows).
 * - AMD family 0x19 and before (an EPYC with AVX2 only): kc 8 ran 11.4 GFLOP/s, kc 12 9.4,
 *   kc 16 6.6, kc 64 4.2: 8 streams.
 * - AMD family 0x1A (Zen 5, EPYC with AVX-512): kc 8, 16 and 32 all 14.5-14.8 GFLOP/s at 1 thread, 27.1-28.9 at 2;
 *   with M of 12 to 48 rows, B in place along 32 rows against packed: 1.1-1.5x at 2 threads (one process
 *   alternating builds).
 */
const MEASURED: readonly { readonly vendor: string; readonly fromFamily: number; readonly streams: number }[] = [
  { vendor: 'AuthenticAMD', fromFamily: 0x1a, streams: 32 },
]

/** The fewest streams of any core measured: what an unknown core is assumed to follow. */
export const FEWEST_PREFETCH_STREAMS = 8

/** The streams a core of `cpuinfo`'s text (/proc/cpuinfo) follows: the table's entry for it, else the fewest. */
export function prefetchStreamsOf(cpuinfo: string | undefined): number {
  const field = (name: string) => new RegExp(`^${name}\\s*:\\s*(.+)$`, 'm').exec(cpuinfo ?? '')?.[1].trim()
  const vendor = field('vendor_id')
  const family = Number(field('cpu family'))
  const entry = MEASURED.filter((e) => e.vendor === vendor && family >= e.fromFamily).at(-1)
  return entry?.streams ?? FEWEST_PREFETCH_STREAMS
}
