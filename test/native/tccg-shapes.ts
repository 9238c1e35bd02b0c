/**
 * Extents by size letter that make the per-call role order choice of gathered contractions
 * (plugin/schedule/role-orders.ts) pick other orders than each role's own for some TCCG cases: long next to short
 * indices, two long indices among short ones (tiled orders, with a ragged last block), a k order whose steps
 * walk B a page apart (then B's own k order), and C's runs short beside long B rows (pitched).
 * test/schedule/role-orders.test.ts checks that they do; test/native/tccg.test.ts runs every case at each.
 */
export const MIXED_SHAPES: readonly ((letter: string) => number)[] = [
  (letter) => [50, 2, 11, 3, 1][letter.charCodeAt(0) % 5],
  (letter) => ('KN'.includes(letter) ? 50 : 3),
  (letter) => ('AM'.includes(letter) ? 50 : 3),
  // ccsd ijk-ilmk-mjl: A's own k order (l, m) steps its B m's 2500 elements a k step, B's own (m, l) i's 50.
  (letter) => ('IL'.includes(letter) ? 50 : 3),
  // intensli abcde-ecbfa-fd: C's runs of a (40) in blocks of two b (AVX-512's 16 lanes; one on AVX2's 8), B's e a
  // block's 80 columns on (further than the gather's search, TRANSPOSED_RUN), 20 e of it a vector and a quarter.
  (letter) => ({ A: 40, B: 4, E: 20 })[letter] ?? 3,
]
