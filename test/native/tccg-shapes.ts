/**
 * Extents by size letter that mix long and short indices (19 next to 2), so that the per-call role order choice of
 * gathered contractions (plugin/schedule/role-orders.ts) picks other orders than each role's own for some TCCG cases;
 * test/schedule/role-orders.test.ts checks that it does.
 */
export const MIXED_SHAPE = (letter: string): number => [19, 2, 11, 5, 3][letter.charCodeAt(0) % 5]
