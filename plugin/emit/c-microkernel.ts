/**
 * A microkernel's C body, generated from its table entry (never written per kernel): MR·NR/lanes accumulators in
 * named locals, a k loop of NR/lanes aligned loads from the packed B panel, MR broadcasts from the packed A panel
 * and MR·NR/lanes FMAs, then C += accumulators. Full tiles store plainly; edge tiles store `rows` rows through lane
 * masks over `cols` columns, so M and N need not be multiples of the tile (no scalar cliff).
 */
import { C_TYPE } from './c-expr.ts'
import { instantiate, type Microkernel } from '../targets/microkernel.ts'

export const microkernelSymbol = (mk: Microkernel): string => `pk_ukr_${mk.name}`

/**
 * `static void pk_ukr_<name>(kb, a, b, c, ldc, rows, cols)`: C[r, j] += Σp a[p·MR + r] · b[p·NR + j] for r < rows,
 * j < cols, where `a` and `b` are packed panels (zero-padded to MR rows and NR columns) and row r of C starts at
 * c + r·ldc.
 */
export function emitMicrokernel(mk: Microkernel): string {
  const t = C_TYPE[mk.dtype]
  const op = (name: keyof Microkernel['ops'], args: Record<string, string> = {}) => instantiate(mk.ops[name], args)
  const rows = [...Array(mk.mr).keys()]
  const vectors = [...Array(mk.nr / mk.lanes).keys()]
  const tile = (f: (r: number, v: number) => string) => rows.flatMap((r) => vectors.map((v) => f(r, v)))
  const acc = (r: number, v: number) => `c${r}_${v}`
  const at = (r: number, v: number) => `c + ${r}*ldc + ${v * mk.lanes}`
  // An element in every 64-byte line a row of the tile can touch, however the row is aligned.
  const perLine = 64 / (mk.dtype === 'f64' ? 8 : 4)
  const lineStarts = [...[...Array(Math.ceil(mk.nr / perLine)).keys()].map((l) => l * perLine), mk.nr - 1]
  const prefetch = (r: number) => lineStarts.map((e) => `__builtin_prefetch(c + ${r}*ldc + ${e}, 1, 3)`).join(', ')
  const edgeMask = (v: number) => op('firstLanes', { n: `pk_edge_lanes(cols, ${v * mk.lanes}, ${mk.lanes})` })
  const edgeStore = (r: number, v: number) => {
    const sum = op('add', { a: op('maskedLoad', { p: at(r, v), m: `m${v}` }), b: acc(r, v) })
    return `  ${op('maskedStore', { p: at(r, v), m: `m${v}`, v: sum })};`
  }

  const lines = [
    `static void ${microkernelSymbol(mk)}(int64_t kb, const ${t} *restrict a, const ${t} *restrict b,`,
    `    ${t} *restrict c, int64_t ldc, int64_t rows, int64_t cols) {`,
    ...rows.map((r) => `  ${mk.ops.vector} ${vectors.map((v) => `${acc(r, v)} = ${op('zero')}`).join(', ')};`),
    // C's tile is read only after the k loop: fetching each of its lines now hides that latency behind the loop.
    ...rows.map((r) => `  ${prefetch(r)};`),
    '  for (int64_t p = 0; p < kb; p++) {',
    ...vectors.map((v) => `    const ${mk.ops.vector} b${v} = ${op('loadAligned', { p: `b + ${v * mk.lanes}` })};`),
    ...rows.flatMap((r) => [
      `    const ${mk.ops.vector} a${r} = ${op('broadcast', { p: `a + ${r}` })};`,
      ...vectors.map((v) => `    ${acc(r, v)} = ${op('fma', { a: `a${r}`, b: `b${v}`, c: acc(r, v) })};`),
    ]),
    `    a += ${mk.mr};`,
    `    b += ${mk.nr};`,
    '  }',
    // Every load of C before any store: C's rows are often 4 KiB apart, and a load after a store to an address
    // equal in its low 12 bits waits for that store (4K aliasing).
    `  if (rows == ${mk.mr} && cols == ${mk.nr}) {`,
    ...tile((r, v) => `    ${acc(r, v)} = ${op('add', { a: op('load', { p: at(r, v) }), b: acc(r, v) })};`),
    ...tile((r, v) => `    ${op('store', { p: at(r, v), v: acc(r, v) })};`),
    '    return;',
    '  }',
    ...vectors.map((v) => `  const ${mk.ops.mask} m${v} = ${edgeMask(v)};`),
    ...rows.flatMap((r) => [`  if (rows == ${r}) return;`, ...vectors.map((v) => edgeStore(r, v))]),
    '}',
  ]
  return lines.join('\n') + '\n'
}
