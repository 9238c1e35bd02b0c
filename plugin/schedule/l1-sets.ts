/**
 * Whether rows of an operand read in place share L1 sets beyond its ways. An L1 data cache indexes its sets with
 * address bits inside a 4 KiB page (virtually indexed, physically tagged: 64 sets of 64-byte lines on every x86 core
 * here, 32 KiB 8-way or 48 KiB 12-way), so rows whose stride is a multiple of a page fall in the same few sets and
 * evict each other between the register tiles that reuse them, while rows a page plus a line apart spread over all
 * of them. Measured on AMD EPYC Zen 5 (AVX-512, B read in place along 32 rows against packed, 1T / 2T):
 * 27 × 4096 × 4096 0.92x / 0.81x, 27 × 4160 × 4096 1.39x / 1.30x; 2048 × 4096 × 32 0.74x / 0.74x, 2048 × 4160 × 32
 * 0.93x / 0.97x. native/polykern_simd.h's pk_rows_share_sets is the same test at call time.
 */

/** The bytes an L1 set index spans: a page. */
export const L1_SET_SPAN = 4096
/** The line of every x86 L1 here. */
export const L1_LINE_BYTES = 64
/** The ways of the smallest L1 data cache here (8, of 32 KiB; 48 KiB ones have 12): lines one set can hold. */
export const L1_WAYS = 8

const memo = new Map<string, boolean>()

/**
 * `rows` rows `strideBytes` apart, the first at a line's start, each read `lines` lines at a time: whether any set
 * gets more than L1_WAYS of their lines.
 */
export function rowsShareSets(rows: number, strideBytes: number, lines: number): boolean {
  const lineBytes = L1_LINE_BYTES
  const sets = L1_SET_SPAN / lineBytes
  const key = `${rows} ${strideBytes % L1_SET_SPAN} ${lines}`
  const known = memo.get(key)
  if (known !== undefined) return known
  const count = new Array<number>(sets).fill(0)
  let shared = false
  for (let r = 0; r < rows && !shared; r++) {
    const first = Math.floor(((r * strideBytes) % L1_SET_SPAN) / lineBytes)
    for (let w = 0; w < Math.min(lines, sets); w++) shared ||= ++count[(first + w) % sets] > L1_WAYS
  }
  memo.set(key, shared)
  return shared
}
