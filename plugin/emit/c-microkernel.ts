/**
 * A microkernel's C, generated from its table entry (never written per kernel): register tiles of R rows by V
 * vectors, R·V accumulators in named locals (for 1- and 2-row tiles, several sets of them: partial sums), a k loop
 * of V loads of B, R broadcasts of A and R·V FMAs, then C += accumulators. One function per tile shape a GEMM can
 * need, so edges compute no padding lanes or rows beyond the next smaller shape: R in {MR, 4, 2, 1} (MR alone for an
 * epilogue's family: epilogueDispatch), V from 1 to NR/lanes. Full tiles store plainly; edge tiles store `rows` rows
 * through lane masks over `cols` columns.
 *
 * Each operand comes packed (A in MR-row panels, B in NR-column panels, both contiguous in k and zero-padded) or in
 * place: A rows contiguous in k, `lda` apart (rows past `rows` re-read the last one, so nothing past A is read); B
 * rows contiguous in n, `ldb` apart (its last vector is loaded through the column mask).
 */
import { KernelInternalError } from '../diagnostics.ts'
import { C_TYPE } from './c-expr.ts'
import { tileRows, type Microkernel } from '../targets/microkernel.ts'
import { instantiate, type SingleOp } from '../targets/vector-ops.ts'

/** A microkernel with its operands' layouts: one family of tile functions. */
export interface MicrokernelUse {
  readonly mk: Microkernel
  readonly packA: boolean
  readonly packB: boolean
  /** C's rows and vectors placed through offset tables (a gathered contraction's C), not at r·ldc + column. */
  readonly scatterC?: boolean
  /**
   * The k loop runs `groups` runs of kb steps, A's rows (in place) moving on by `ga` elements between runs and B
   * straight on: a convolution's rows of taps, each window row contiguous in A, in one call (two more parameters).
   */
  readonly groupedK?: boolean
  /** Each vector through a contraction's epilogue before it is stored: the family of its last k block's tiles. */
  readonly epilogue?: TileEpilogue
  /**
   * Packed B fetched FETCH_B_STEPS k steps ahead, in the full tile only (edges go to the family without): the family
   * the first tile over each B panel runs (polykern_gemm_member.h), which reads the panel from memory when it was
   * packed once (a bound operand), where the tiles after it find it in cache.
   */
  readonly fetchB?: boolean
}

/**
 * What a family's tiles apply to each vector of C before storing it (emit/c-tile-epilogue.ts). Its tiles take three
 * more parameters: the context (`pk_ectx`, read as `pk_e`) and the tile's first m and n positions (`pk_i0`, `pk_j0`).
 */
export interface TileEpilogue {
  /** Names the family apart. */
  readonly name: string
  /** The context's struct type. */
  readonly ctx: string
  /**
   * `x`, vector `v` of row `r` with old C added, through the epilogue; `mask`: an edge vector's lanes. `r` and `v`
   * are numbers in a tile, variables in a loop over its rows and vectors.
   */
  readonly apply: (x: string, r: number | string, v: number | string, mask: string | undefined) => string
}

/**
 * The helpers an ISA's kernel versions share: `code`, printed in its region, and the tile families it calls. Those
 * depend on the microkernel and the operand layouts alone, never on a kernel: each is compiled in a file of its own
 * (emit/napi.ts), whose object file every addon built with the same flags reuses (addon/build.ts).
 */
export interface CSupport {
  readonly code: string
  readonly families: readonly MicrokernelUse[]
}

const useTag = (u: MicrokernelUse): string =>
  `${u.packA ? 'p' : 'u'}${u.packB ? 'p' : 'u'}${u.scatterC ? 's' : ''}${u.groupedK ? 'g' : ''}${u.fetchB ? 'f' : ''}`

/** The k range's parameters: its steps, and with groupedK its runs of them and A's move between runs. */
const kParams = (u: MicrokernelUse): string => (u.groupedK ? 'int64_t kb, int64_t groups, int64_t ga' : 'int64_t kb')
const kArgs = (u: MicrokernelUse): string => (u.groupedK ? 'kb, groups, ga' : 'kb')

/**
 * `static void pk_ukr_<name>_<ab>(kb, a, lda, b, ldb, c, ldc, rows, cols, store)`: C[r, j] += Σp A(r, p) · B(p, j)
 * for r < rows <= MR, j < cols <= NR, row r of C at c + r·ldc (`store`: C[r, j] = the sum, C's old content never
 * read); `lda`, `ldb` are read only for operands in place. With `scatterC` (TBLIS's scatter-matrix store, at vector
 * granularity) `ldc` gives way to `om, vp, split`: row r of C at c + om[r], vector v at vp[v].lo from there (one run
 * of columns); with `split` (a full-width tile, columns == NR), its lanes from vp[v].split on at vp[v].hi instead,
 * each part through a mask (pk_vector_places). A gathered C tile is so stored in place with no local copy.
 */
export const microkernelSymbol = (u: MicrokernelUse): string =>
  `pk_ukr_${u.mk.name}_${useTag(u)}${u.epilogue ? `_${u.epilogue.name}` : ''}`

/** The epilogue's parameters after `store`, and their arguments. */
const epilogueParams = (u: MicrokernelUse): string => (u.epilogue ? ', const void *pk_ectx, int64_t pk_i0, int64_t pk_j0' : '')
const epilogueArgs = (u: MicrokernelUse): string => (u.epilogue ? ', pk_ectx, pk_i0, pk_j0' : '')

/** The family's parameters: its tiles' and its dispatcher's. */
function familyParams(u: MicrokernelUse): string {
  const t = C_TYPE[u.mk.dtype]
  return `${kParams(u)}, const ${t} *restrict a, int64_t lda, const ${t} *restrict b, int64_t ldb,
    ${t} *restrict c, ${cPlaceParams(u)}, int64_t rows, int64_t cols, int store${epilogueParams(u)}`
}

/** The dispatcher of a family defined in another file of the addon (emitMicrokernel with `shared`). */
export const microkernelDeclaration = (u: MicrokernelUse): string => `PK_SHARED void ${microkernelSymbol(u)}(${familyParams(u)});`

/**
 * Every tile function of `u` and the dispatcher that picks one from `rows` and `cols`. `shared`: the dispatcher is
 * addon-wide (PK_SHARED), for a family in a file of its own, which other files call through microkernelDeclaration.
 */
export function emitMicrokernel(u: MicrokernelUse, shared = false): string {
  const { mk } = u
  const vectors = mk.nr / mk.lanes
  const params = familyParams(u)
  const linkage = shared ? 'PK_SHARED' : 'static'
  const args = `${kArgs(u)}, a, lda, b, ldb, c, ${u.scatterC ? 'om, vp, split' : 'ldc'}, rows, cols, store${epilogueArgs(u)}`
  const call = (r: number, v: number) => `${tileSymbol(u, r, v)}(${args})`
  if (u.fetchB) {
    return [
      // The family its edges run on: in this file (static) or in its own (shared).
      ...(shared ? [microkernelDeclaration({ ...u, fetchB: false })] : []),
      emitTile(u, mk.mr, vectors),
      `${linkage} void ${microkernelSymbol(u)}(${params}) {`,
      `  if (rows == ${mk.mr} && cols == ${mk.nr}) ${call(mk.mr, vectors)};`,
      `  else ${microkernelSymbol({ ...u, fetchB: false })}(${args});`,
      '}',
      '',
    ].join('\n')
  }
  const heights = tileRows(mk, u.groupedK)
  // An epilogue's family has full-height tiles alone (see epilogueDispatch).
  const shapes = (u.epilogue ? [mk.mr] : heights).flatMap((r) => [...Array(vectors).keys()].map((v) => [r, vectors - v] as const))
  const tiles = shapes.map(([r, v]) => emitTile(u, r, v))
  // The narrowest tile holding `cols`, then the shortest holding `rows`.
  const byWidth = (r: number, pad: string): string[] =>
    [...Array(vectors).keys()].map((i) => {
      const v = vectors - i
      if (v === 1) return `${pad}${vectors === 1 ? '' : 'else '}${call(r, 1)};`
      return `${pad}${v === vectors ? '' : 'else '}if (cols > ${(v - 1) * mk.lanes}) ${call(r, v)};`
    })
  const belowFull = heights[1]
  const dispatch = u.epilogue && belowFull !== undefined ? epilogueDispatch(u, belowFull, byWidth(mk.mr, '    ')) : heights.flatMap((r, i) => {
    const shorter = heights[i + 1]
    if (i === 0 && shorter === undefined) return byWidth(r, '  ')
    if (shorter === undefined) return ['  } else {', ...byWidth(r, '    '), '  }']
    return [`  ${i === 0 ? '' : '} else '}if (rows > ${shorter}) {`, ...byWidth(r, '    ')]
  })
  return [
    ...(u.epilogue ? [microkernelDeclaration(plainFamily(u))] : []),
    ...tiles,
    `${linkage} void ${microkernelSymbol(u)}(${params}) {`,
    ...dispatch,
    '}',
    '',
  ].join('\n')
}

/** The family without the epilogue: the one a GEMM's other k blocks, or a convolution's other taps, run. */
const plainFamily = (u: MicrokernelUse): MicrokernelUse => ({ ...u, epilogue: undefined })

/**
 * An epilogue family's dispatch, given its full-height tiles' (`full`, by width) and the next height below (`shorter`)
 * the plain family has. A tile taller than `shorter` applies the epilogue in registers; a shorter one (a GEMM's last
 * rows, the end of a convolution's output row) runs the plain family's tile, then passes what that stored through the
 * epilogue in place, vector by vector. Those edges are a small part of the work, and the epilogue there costs a load and a
 * store a vector; a tile of every height for every epilogue made a module of 13 fused convolutions 2.6 MB of AVX-512
 * C, 18 s to compile (full-height tiles alone: 1.0 MB, 11 s). Column edges keep their tiles: run in place, the
 * epilogue cost 1-3% on a 256 × 100 × 256 GEMM, whose every other tile is one.
 */
function epilogueDispatch(u: MicrokernelUse, shorter: number, full: readonly string[]): string[] {
  const { mk } = u
  const epilogue = u.epilogue!
  const op = (name: SingleOp, args: Record<string, string>) => instantiate(mk.ops[name], args)
  const at = `c + pk_r*ldc + pk_v*${mk.lanes}`
  return [
    `  if (rows > ${shorter}) {`,
    ...full,
    '    return;',
    '  }',
    `  ${microkernelSymbol(plainFamily(u))}(${kArgs(u)}, a, lda, b, ldb, c, ldc, rows, cols, store);`,
    `  const ${epilogue.ctx} *pk_e = pk_ectx;`,
    '  for (int64_t pk_r = 0; pk_r < rows; pk_r++) {',
    `    for (int64_t pk_v = 0; pk_v*${mk.lanes} < cols; pk_v++) {`,
    `      const ${mk.ops.mask} pk_m = ${op('firstLanes', { n: `pk_edge_lanes(cols, pk_v*${mk.lanes}, ${mk.lanes})` })};`,
    `      const ${mk.ops.vector} pk_x = ${op('maskedLoad', { p: at, m: 'pk_m' })};`,
    `      ${op('maskedStore', { p: at, m: 'pk_m', v: epilogue.apply('pk_x', 'pk_r', 'pk_v', 'pk_m') })};`,
    '    }',
    '  }',
  ]
}

/** How C's tile is placed: one row stride, or (scatterC) row and column offset tables. */
const cPlaceParams = (u: MicrokernelUse): string =>
  u.scatterC ? 'const int64_t *restrict om, const pk_vector_place *restrict vp, int split' : 'int64_t ldc'

/**
 * Independent FMA chains that keep every FMA unit busy: 4 cycles of latency × 2 units on these x86 cores. An edge
 * tile of 1 or 2 rows has fewer accumulators (1 row × 2 vectors is 2 chains, a quarter of the FMA rate) and sums k in
 * that many interleaved partial sums, at most MAX_PARTIAL_SUMS, added up after the loop. Taller tiles are left alone:
 * splitting their column edges too bought nothing measurable and made the AVX2 file compile 0.6 s longer. Measured
 * on AVX2, 1 thread, where rows of windows end in short tiles: 28×28 128→128 3×3 72.6 -> 84.0 GFLOP/s, 56×56
 * 64→64 83.4 -> 89.0.
 */
const FMA_CHAINS = 8
/** Lines a core has in flight from memory at once, about: Intel's 16 fill buffers, with room for the k loop's own. */
const FILL_BUFFERS = 12
/**
 * How far ahead the first tile over a packed B panel fetches it (fetchB): 4 KiB of 6 × 64 f32 tiles. DeepBench's
 * 35×8457×2560 with B bound (86 MB, packed once, read from memory by the first of six row tiles), Intel AVX-512,
 * 1 thread: 1.16x; fetched by every tile, it took load slots from the cached ones (1024×1024×128 bound 0.97x).
 */
const FETCH_B_STEPS = 16
const MAX_PARTIAL_SUMS = 4
const SPLIT_ROWS_MAX = 2

/**
 * A tile's V vectors of B in parts that each leave a register for the broadcast beside the accumulators: one part
 * when all fit; else as few parts as fit, of even sizes. 7 × 64 on AVX-512 (28 accumulators, 4 B vectors) has none
 * left, and gcc spilled an accumulator around every k step; in two parts of 2 vectors it loads 4 B vectors and 14
 * broadcasts a step for 28 FMAs. Measured on AMD Zen 5, 1 thread: the tile alone in L1 188-196 -> 204-210 GFLOP/s
 * (6 × 64: 215); 7×7 512→512 3×3 bound, one process alternating the builds, 1T 173-185 -> 186-198, 2T 351 -> 376.
 * The broadcast folded into each FMA from memory instead (EVEX embedded broadcast) ran the tile alone at 136-139.
 */
function bParts(accumulators: number, V: number, registers: number): number[][] {
  const room = Math.max(1, registers - accumulators - 1)
  const count = Math.ceil(V / room)
  const vectors = [...Array(V).keys()]
  return [...Array(count).keys()].map((i) => vectors.slice(Math.round((i * V) / count), Math.round(((i + 1) * V) / count)))
}

/** A k step's offset from the loop's own: a constant, or an expression in the loop's invariants. */
type Step = number | string

const scaled = (o: Step, by: number): Step => (typeof o === 'number' ? o * by : by === 1 ? o : `(${o})*${by}`)
const plus = (o: Step, n: number): Step => (typeof o === 'number' ? o + n : n === 0 ? o : `${o} + ${n}`)

/** Partial sums per accumulator of an R × V tile. */
const partialSums = (R: number, V: number): number =>
  R > SPLIT_ROWS_MAX ? 1 : Math.min(MAX_PARTIAL_SUMS, Math.ceil(FMA_CHAINS / (R * V)))

const tileSymbol = (u: MicrokernelUse, r: number, v: number): string => `${microkernelSymbol(u)}_${r}x${v}`

/**
 * A scattering tile's stores when some vector is two runs (`split`, full width): each vector's two parts through
 * complementary masks (a one-run vector's second mask is empty). Masked-off lanes of a load read 0, so adding both
 * parts' loads reads C's whole vector.
 */
function splitStores(u: MicrokernelUse, R: number, V: number): string[] {
  const { mk } = u
  const op = (name: 'firstLanes' | 'lastLanes' | 'maskedLoad' | 'maskedStore' | 'add', args: Record<string, string>) =>
    instantiate(mk.ops[name], args)
  const vectors = [...Array(V).keys()]
  const part = (r: number, v: number, half: 'lo' | 'hi') => `c + om[${r}] + vp[${v}].${half}`
  const row = (r: number): string[] => [
    ...(r === 0 ? [] : [`    if (rows == ${r}) return;`]),
    ...vectors.flatMap((v) => {
      const acc = `c${r}_${v}`
      const old = op('add', { a: op('maskedLoad', { p: part(r, v, 'lo'), m: `lo${v}` }), b: op('maskedLoad', { p: part(r, v, 'hi'), m: `hi${v}` }) })
      return [
        `    if (!store) ${acc} = ${op('add', { a: old, b: acc })};`,
        `    ${op('maskedStore', { p: part(r, v, 'lo'), m: `lo${v}`, v: acc })};`,
        `    ${op('maskedStore', { p: part(r, v, 'hi'), m: `hi${v}`, v: acc })};`,
      ]
    }),
  ]
  return [
    '  if (split) {',
    ...vectors.map((v) => `    const ${mk.ops.mask} lo${v} = ${op('firstLanes', { n: `vp[${v}].split` })}, hi${v} = ${op('lastLanes', { n: `vp[${v}].split` })};`),
    ...[...Array(R).keys()].flatMap(row),
    '    return;',
    '  }',
  ]
}

/** The R × V tile: `rows` <= R, `cols` <= V·lanes. */
function emitTile(u: MicrokernelUse, R: number, V: number): string {
  const { mk } = u
  const t = C_TYPE[mk.dtype]
  const op = (name: SingleOp, args: Record<string, string> = {}) => instantiate(mk.ops[name], args)
  const rows = [...Array(R).keys()]
  const vectors = [...Array(V).keys()]
  const tile = (f: (r: number, v: number) => string) => rows.flatMap((r) => vectors.map((v) => f(r, v)))
  // Names of partial sum `set`'s locals: set 0 keeps the plain names.
  const tag = (set: number) => (set === 0 ? '' : `_${set}`)
  const acc = (r: number, v: number, set = 0) => `c${r}_${v}${tag(set)}`
  const sets = [...Array(partialSums(R, V)).keys()]
  // In place, the rows past `rows` read the last row again: nothing outside A (or om) is touched.
  const rowOf = (r: number) => (r === 0 ? '0' : `pk_min64(${r}, rows - 1)`)
  const at = (r: number, v: number) =>
    u.scatterC ? `c + om[${r}] + vp[${v}].lo` : `c + ${r}*ldc + ${v * mk.lanes}`
  // An element in every 64-byte line a row of the tile can touch, however the row is aligned.
  const width = V * mk.lanes
  const perLine = 64 / (mk.dtype === 'f64' ? 8 : 4)
  const lineStarts = [...[...Array(Math.ceil(width / perLine)).keys()].map((l) => l * perLine), width - 1]
  // Scattered, each vector's first and last element; rows past `rows` fetch the last row again (om ends there).
  const scatteredLines = vectors.flatMap((v) => [`vp[${v}].lo`, `vp[${v}].hi + ${mk.lanes - 1}`])
  const prefetch = (r: number) =>
    u.scatterC
      ? scatteredLines.map((e) => `__builtin_prefetch(c + om[${rowOf(r)}] + ${e}, 1, 3)`).join(', ')
      : lineStarts.map((e) => `__builtin_prefetch(c + ${r}*ldc + ${e}, 1, 3)`).join(', ')
  const edgeMask = (v: number) => op('firstLanes', { n: `pk_edge_lanes(cols, ${v * mk.lanes}, ${mk.lanes})` })
  const edgeStoreOf = (r: number) => (v: number) => {
    const sum = op('add', { a: op('maskedLoad', { p: at(r, v), m: `m${v}` }), b: acc(r, v) })
    if (u.epilogue === undefined) return `  ${op('maskedStore', { p: at(r, v), m: `m${v}`, v: `store ? ${acc(r, v)} : ${sum}` })};`
    return `  { const ${mk.ops.vector} pk_x = store ? ${acc(r, v)} : ${sum}; ` +
      `${op('maskedStore', { p: at(r, v), m: `m${v}`, v: u.epilogue.apply('pk_x', r, v, `m${v}`) })}; }`
  }
  const last = V - 1
  // k step `p + o` (o: its place in an unrolled group, or a partial sum's segment start `s*pk_seg`; packed pointers
  // move after the group).
  const kAt = (o: Step) => (o === 0 ? 'p' : `(p + ${o})`)
  const loadB = (v: number, o: Step): string => {
    if (u.packB) return op('loadAligned', { p: `b + ${plus(scaled(o, mk.nr), v * mk.lanes)}` })
    const p = `b + ${kAt(o)}*ldb + ${v * mk.lanes}`
    return v === last ? op('maskedLoad', { p, m: 'bm' }) : op('load', { p })
  }
  // B in place: its rows are far apart, so no hardware prefetcher follows them; fetch the same rows of the next tile's
  // columns while this tile computes.
  const nextB = (o: Step) => [...Array(Math.ceil(mk.nr / perLine)).keys()].map(
    (l) => `    __builtin_prefetch(b + ${kAt(o)}*ldb + ${mk.nr + l * perLine}, 0, 3);`,
  )
  // Packed B is read as one contiguous stream, which the hardware prefetchers follow: fetching it 16 k steps ahead in
  // software (a line per 16 lanes each step) measured 189 -> 204 GFLOP/s once (8 × 48 tiles, kc 1024), but with the
  // 6 × 64 tiles the ranking picks now it only took load slots. Without it, one process alternating the builds, Intel
  // Xeon, 1 thread: AVX-512 GEMM 0.998-1.035 (1024×1024×128 1.035, 1024³ 1.005), convolutions 0.99-1.03 (14²
  // 256→256 1.03, 7² 0.99); AVX2 GEMM 0.98-1.04 (1024³ 1.03, 1024×1024×128 0.98), convolutions 1.04-1.05.
  // The first tile over a packed B panel (fetchB): the panel FETCH_B_STEPS steps ahead, a line per 16 lanes.
  const fetchB = (o: Step) => [...Array(Math.ceil(mk.nr / perLine)).keys()].map(
    (l) => `    __builtin_prefetch(b + ${plus(scaled(o, mk.nr), FETCH_B_STEPS * mk.nr + l * perLine)}, 0, 3);`,
  )
  // Broadcast of row r's A element at k step `p + o`; `at`, when given, names an opaque copy of A's position.
  const broadcastA = (r: number, o: Step, at?: string): string =>
    op('broadcast', { p: u.packA ? `${at ?? 'a'} + ${plus(scaled(o, mk.mr), r)}` : `a${r} + ${at ?? kAt(o)}` })
  const parts = bParts(R * V * sets.length, V, mk.registers)
  /**
   * One k step into partial sum `set`, B's vectors in `parts`: each part's B vectors loaded, then each row of A
   * broadcast once over them. A later part reads A through a copy of its position the compiler cannot see through
   * (an empty asm), so that it broadcasts again rather than keep every row's broadcast live across the parts.
   */
  const step = (o: Step, set: number): string[] =>
    parts.flatMap((part, i) => {
      const at = i === 0 ? undefined : `pk_at${i}${tag(set)}`
      return [
        ...(at === undefined ? [] : u.packA
          ? [`    const ${t} *${at} = a;`, `    __asm__("" : "+r"(${at}));`]
          : [`    int64_t ${at} = ${kAt(o)};`, `    __asm__("" : "+r"(${at}));`]),
        ...part.map((v) => `    const ${mk.ops.vector} b${v}${tag(set)} = ${loadB(v, o)};`),
        ...(i > 0 || u.packB || V < mk.nr / mk.lanes ? [] : nextB(o)),
        ...(i > 0 || !u.fetchB ? [] : fetchB(o)),
        ...rows.flatMap((r) => [
          `    const ${mk.ops.vector} a${r}v${i || ''}${tag(set)} = ${broadcastA(r, o, at)};`,
          ...part.map((v) => `    ${acc(r, v, set)} = ${op('fma', { a: `a${r}v${i || ''}${tag(set)}`, b: `b${v}${tag(set)}`, c: acc(r, v, set) })};`),
        ]),
      ]
    })
  const advance = (steps: Step, pad = '    '): string[] => [
    ...(u.packA ? [`${pad}a += ${scaled(steps, mk.mr)};`] : []),
    ...(u.packB ? [`${pad}b += ${scaled(steps, mk.nr)};`] : []),
  ]
  // The k steps a loop of several at once left, from `from` on (where the loop stopped by default).
  const remainder = (from = ''): string[] => [`  for (${from && `p = ${from}`}; p < kb; p++) {`, ...step(0, 0), ...advance(1), '  }']
  const steps: string[] =
    sets.length === 1
      ? [
          // Unrolled: the loop's own increments and branch fall to a quarter, which measured up to 8% faster.
          '#pragma GCC unroll 4',
          '  for (int64_t p = 0; p < kb; p++) {',
          ...step(0, 0),
          ...advance(1),
          '  }',
        ]
      : R === 1
        ? [
            // A row tile's partial sum s runs the s-th of sets.length equal segments of k, so B is read as that many
            // streams: a matrix-vector product streams B from memory, and a core's hardware prefetchers draw more
            // bandwidth over several streams than over one (AMD Zen 3, 1 × 4096 × 4096 with B bound: 1.2x at 1
            // thread, 1.5x at 2). Two-row tiles interleave: segments there ran 14² 256→256 1-2% slower.
            `  const int64_t pk_seg = kb / ${sets.length};`,
            '  int64_t p = 0;',
            '  for (; p < pk_seg; p++) {',
            ...sets.flatMap((set) => step(set === 0 ? 0 : `${set}*pk_seg`, set)),
            ...advance(1),
            '  }',
            ...advance(`${sets.length - 1}*pk_seg`, '  '),
            ...remainder(`${sets.length}*pk_seg`),
          ]
        : [
            '  int64_t p = 0;',
            `  for (; p + ${sets.length} <= kb; p += ${sets.length}) {`,
            ...sets.flatMap((set) => step(set, set)),
            ...advance(sets.length),
            '  }',
            ...remainder(),
          ]
  // The partial sums added up once, after every run of k.
  const combine = sets.length === 1 ? [] : tile((r, v) => {
    const total = sets.slice(1).reduce((sum, set) => op('add', { a: sum, b: acc(r, v, set) }), acc(r, v))
    return `  ${acc(r, v)} = ${total};`
  })
  // Lines indented by `pad`, preprocessor lines left at the margin.
  const indent = (lines: readonly string[], pad: string) => lines.map((l) => (l.startsWith('#') ? l : pad + l))
  // The k loop run `groups` times, A's rows moving on by ga between runs (groupedK).
  const grouped = (body: readonly string[]): string[] => [
    '  for (int64_t g = 0; g < groups; g++) {',
    ...indent(body, '  '),
    ...rows.map((r) => `    a${r} += ga;`),
    '  }',
  ]
  // C's lines fetched a row every kb/2R steps (gap) through the first half of the k loop, not all at the tile's start:
  // a burst of a whole tile's misses fills the line fill buffers the k loop's loads of B need (1024×1024×128, AVX-512,
  // 1 thread: 1.11x). The row moves on without a branch (a branch per row cost short k loops a mispredict each); a
  // row is fetched again until then, which hits lines in cache or in flight. Loops too short for a gap of one
  // unrolled iteration fetch every row at the start, in a loop without those prefetches (with them, 2048×4096×32 ran
  // 2-3% slower); from gaps of one on, 1×1 56² 64→256 (k loops of 64) ran 1.07x and 64³ 1.02x against gaps of two.
  // Only a tile with more lines than the fill buffers hold (AVX-512's 6 × 64: 24 lines; not AVX2's 6 × 16, whose 6
  // lines measured 0.96-0.99x spread).
  const spread = !u.scatterC && sets.length === 1 && R * Math.ceil(width / perLine) > FILL_BUFFERS
  const UNROLL = 4
  const spreadSteps = [
    `  const ${t} *pk_row = c, *const pk_last = c + (rows - 1)*ldc;`,
    '  int64_t pk_next = pk_gap, p = 0;',
    `  for (; p + ${UNROLL} <= kb; p += ${UNROLL}) {`,
    `    ${lineStarts.map((e) => `__builtin_prefetch(pk_row + ${e}, 1, 3)`).join(', ')};`,
    `    const int pk_on = p + ${UNROLL} > pk_next && pk_row < pk_last;`,
    '    pk_row = pk_on ? pk_row + ldc : pk_row;',
    '    pk_next = pk_on ? pk_next + pk_gap : pk_next;',
    ...[...Array(UNROLL).keys()].flatMap((o) => ['    {', ...indent(step(o, 0), '  '), '    }']),
    ...advance(UNROLL),
    '  }',
    '  for (; p < kb; p++) {',
    ...step(0, 0),
    ...advance(1),
    '  }',
  ]
  const fetchAll = rows.map((r) => `  ${prefetch(r)};`)
  const short = `pk_gap < ${UNROLL}`
  const gap = `  const int64_t pk_gap = kb / ${2 * R};`
  // Short loops (and, for a convolution, several rows of taps) fetch at the start; the others spread.
  const fetchOrSpread = (when: string, fetched: readonly string[]): string[] =>
    [gap, `  if (${when}) {`, ...indent([...fetchAll, ...fetched], '  '), '  } else {', ...indent(spreadSteps, '  '), '  }']
  const kLoop = !spread
    ? [...fetchAll, ...(!u.groupedK ? steps : grouped(steps)), ...combine]
    : !u.groupedK
      ? fetchOrSpread(short, steps)
      // A convolution's rows of taps: a single one (1×1 filters) spreads them; with several, the tile's C is small
      // and in cache (7² 512→512 ran 0.94x spread over the first row).
      : fetchOrSpread(`groups > 1 || ${short}`, grouped(steps))

  if (u.epilogue && u.scatterC) throw new KernelInternalError('emit', `${microkernelSymbol(u)}: an epilogue on scattered C`)
  const epilogue = u.epilogue
  const lines = [
    `static inline void ${tileSymbol(u, R, V)}(${kParams(u)}, const ${t} *restrict a, int64_t lda,`,
    `    const ${t} *restrict b, int64_t ldb, ${t} *restrict c, ${cPlaceParams(u)}, int64_t rows, int64_t cols, int store${epilogueParams(u)}) {`,
    ...(epilogue ? [`  const ${epilogue.ctx} *pk_e = pk_ectx;`, '  (void)pk_e, (void)pk_i0, (void)pk_j0;'] : []),
    ...(u.packA ? ['  (void)lda;'] : rows.map((r) => `  const ${t} *restrict a${r} = a + ${rowOf(r)}*lda;`)),
    ...(u.packB ? ['  (void)ldb;'] : [`  const ${mk.ops.mask} bm = ${edgeMask(last)};`]),
    ...sets.flatMap((set) =>
      rows.map((r) => `  ${mk.ops.vector} ${vectors.map((v) => `${acc(r, v, set)} = ${op('zero')}`).join(', ')};`),
    ),
    // C's tile is read only after the k loop: fetching its lines before or during it hides that latency.
    ...kLoop,
    // om and vp made opaque after the k loop (an empty asm): otherwise gcc works out the tile's store addresses once,
    // for the fetches before the loop, and keeps them across it, most on the stack (on ccsd_t's k of 16, a third of
    // this family's samples were scalar moves and address arithmetic, a fifth of the plain family's). Worked out
    // again after the loop, in one process alternating builds, AMD EPYC Zen 5 AVX-512: seven ccsd_t cases
    // 1.01-1.10x at 1 thread and 1.03-1.09x at 2; intensli's transpositions within 4% either way; AVX2 within 1%.
    ...(u.scatterC ? ['  __asm__("" : "+r"(om), "+r"(vp));'] : []),
    // Two-run vectors come only at full width (pk_vector_places).
    ...(!u.scatterC ? [] : V === mk.nr / mk.lanes ? splitStores(u, R, V) : ['  (void)split;']),
    // Every load of C before any store: C's rows are often 4 KiB apart, and a load after a store to an address
    // equal in its low 12 bits waits for that store (4K aliasing).
    `  if (rows == ${R} && cols == ${width}) {`,
    '    if (!store) {',
    ...tile((r, v) => `      ${acc(r, v)} = ${op('add', { a: op('load', { p: at(r, v) }), b: acc(r, v) })};`),
    '    }',
    ...(epilogue ? tile((r, v) => `    ${acc(r, v)} = ${epilogue.apply(acc(r, v), r, v, undefined)};`) : []),
    ...tile((r, v) => `    ${op('store', { p: at(r, v), v: acc(r, v) })};`),
    '    return;',
    '  }',
    ...vectors.map((v) => `  const ${mk.ops.mask} m${v} = ${edgeMask(v)};`),
    ...rows.flatMap((r) => [...(r === 0 ? [] : [`  if (rows == ${r}) return;`]), ...vectors.map(edgeStoreOf(r))]),
    '}',
    '',
  ]
  return lines.join('\n')
}
