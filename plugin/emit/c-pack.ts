/**
 * Packing routines of a microkernel (BLIS): operand blocks copied into the panel layout its k loop streams through,
 * zero-padded to whole panels. The strided packs and the weighted gathers are templates in native/
 * (polykern_pack.h, polykern_gather_weighted.h), instantiated here on the microkernel's element type and panel width;
 * the gathers, whose vector code follows the ISA's lanes and masks, are printed here.
 */
import { C_TYPE } from './c-expr.ts'
import { DTYPE_BYTES } from '../analysis/loop-nest.ts'
import type { Microkernel } from '../targets/microkernel.ts'
import { instantiate } from '../targets/vector-ops.ts'
import { PAGE_BYTES, TRANSPOSED_RUN } from '../schedule/role-orders.ts'

export const packASymbol = (mk: Microkernel): string => `pk_pack_a_${mk.name}`
export const packBSymbol = (mk: Microkernel): string => `pk_pack_b_${mk.name}`
export const gatherASymbol = (mk: Microkernel): string => `pk_gather_a_${mk.name}`
export const gatherBSymbol = (mk: Microkernel): string => `pk_gather_b_${mk.name}`
/** A's packs that multiply every element by `alpha` (a constant factor of the product, ContractionRoles.alpha). */
export const scaledPackASymbol = (mk: Microkernel): string => `pk_pack_a_scaled_${mk.name}`
export const scaledGatherASymbol = (mk: Microkernel): string => `pk_gather_a_scaled_${mk.name}`

/**
 * The transposing gather's blocks of `lanes` k steps whose source offsets are consecutive (native pk_k_blocks: steps
 * p0 + s·j for j < lanes, s = 1 where the operand's stride-1 index is k's innermost, s = a tiled order's block width
 * where the other operand's is; a run cut short, `ks` < lanes steps, loaded through a lane mask and only its steps
 * stored): each lanes × lanes block of rows is loaded as vectors along the source, transposed
 * in registers (log2(lanes) rounds of two-vector shuffles, each swapping the off-diagonal quarters of 2s × 2s blocks)
 * and stored as vectors along the panel, instead of one scalar load per element. A panel narrower than a vector (A's
 * MR of 8 rows, 16 lanes) is a w × lanes block: the rounds up to w leave each vector holding w rows at lanes/w k steps,
 * stored as that many pieces. The steps in no block (runs shorter than a quarter vector) are copied one at a time
 * between them, in k order. Uses the gather's `pk_vec` and `pk_lanes` (vectorTypes), the plan (`blk_start`,
 * `blk_sigma`, `blk_steps`, `blocks`, `one`, `ones`) and the panel's `row` pointers.
 */
function transposeBlocks(w: number, mk: Microkernel, scaled: boolean): string {
  const L = mk.lanes
  const t = C_TYPE[mk.dtype]
  const [groups, rows] = w < L ? ['', w] : [`for (int64_t xg = 0; xg < ${w}; xg += ${L}) `, L]
  const xg = w < L ? '' : 'xg + '
  const store = w < L
    ? [
        `              for (int h = 0; h < ${L / w} && ${w}*h + i < ks; h++)`,
        `                __builtin_memcpy(to + (p0 + s*(${w}*h + i))*${w}, (const ${t} *)&out_i + h*${w}, ${w}*sizeof(${t}));`,
      ]
    : [`              if (i < ks) __builtin_memcpy(to + (p0 + s*i)*${w} + xg, &out_i, sizeof out_i);`]
  return [
    '        for (int64_t q = 0, qs = 0;; q++) {',
    // The steps before the block, in k order: each row's lines are still in cache from the blocks beside them.
    '          for (const int64_t until = q < blocks ? blk_start[q] : kb; qs < ones && one[qs] < until; qs++)',
    `            for (int64_t x = 0; x < ${w}; x++) to[one[qs]*${w} + x] = ${scaledBy(scaled)('row[x][o_k[one[qs]]]')};`,
    '          if (q == blocks) break;',
    '          const int64_t p0 = blk_start[q], s = blk_sigma[q], ks = blk_steps[q];',
    `          const ${mk.ops.mask} along = ${instantiate(mk.ops.firstLanes, { n: 'ks' })};`,
    `          ${groups}{`,
    `            pk_vec v[${rows}];`,
    // The rows' lines AHEAD_BLOCKS blocks on: each row is a stream along k of its own, too many for the prefetchers.
    // Near the panel's end, the next panel's rows (its columns at the same offsets in the table) from its first block.
    `            for (int i = 0; i < ${rows}; i++) {`,
    `              const int64_t on = q + ${AHEAD_BLOCKS} - blocks, next = x0 + ${w} + ${xg}i;`,
    `              const ${t} *ahead = on < 0 ? row[${xg}i] + o_k[blk_start[q + ${AHEAD_BLOCKS}]]`,
    `                : next < len ? src + o_len[next] + o_k[blk_start[on < blocks ? on : blocks - 1]] : NULL;`,
    `              if (ahead != NULL) __builtin_prefetch(ahead), __builtin_prefetch(ahead + ${L - 1});`,
    '            }',
    // Through the ISA's load: a memcpy into v[] is two 128-bit halves under gcc's generic tuning on AVX2, and v[]
    // then lives on the stack.
    `            for (int i = 0; i < ${rows}; i++) {`,
    `              const ${mk.ops.vector} r = ks == ${L} ? ${instantiate(mk.ops.load, { p: `row[${xg}i] + o_k[p0]` })}`,
    `                : ${instantiate(mk.ops.maskedLoad, { m: 'along', p: `row[${xg}i] + o_k[p0]` })};`,
    '              __builtin_memcpy(&v[i], &r, sizeof r);',
    '            }',
    ...transposeRounds(mk, '            ', rows),
    `            for (int i = 0; i < ${rows}; i++) {`,
    `              const pk_vec out_i = ${scaled ? 'alpha*v[i]' : 'v[i]'};`,
    ...store,
    '            }',
    '          }',
    '        }',
    '',
  ].join('\n')
}

/** Blocks of k steps ahead the transposing gather along k fetches its rows' lines. */
const AHEAD_BLOCKS = 2

/**
 * The gather's plan of transposed blocks over its k steps (pk_k_blocks), made when a panel first needs it: the same
 * for every panel of the call.
 */
const K_BLOCK_PLAN = [
  '  int32_t blk_start[kb > 0 ? kb : 1], blk_sigma[kb > 0 ? kb : 1], blk_steps[kb > 0 ? kb : 1], one[kb > 0 ? kb : 1];',
  '  int64_t blocks = 0, ones = 0;',
  '  int planned = 0;',
  '',
].join('\n')

/** `pk_vec` (one vector of the element type) and `pk_lanes` (its shuffle index), as GCC vector types. */
function vectorTypes(mk: Microkernel, pad: string): string[] {
  const t = C_TYPE[mk.dtype]
  const index = mk.dtype === 'f32' ? 'int32_t' : 'int64_t'
  return [
    `${pad}typedef ${t} pk_vec __attribute__((vector_size(${mk.lanes} * sizeof(${t}))));`,
    `${pad}typedef ${index} pk_lanes __attribute__((vector_size(${mk.lanes} * sizeof(${t}))));`,
  ]
}

/**
 * The lanes × lanes transpose of `pk_vec v[lanes]` in registers: log2(lanes) rounds of two-vector shuffles. With
 * `rows` < lanes, the rounds of the first log2(rows): v[i]'s lane h·rows + m is then row m's lane h·rows + i.
 */
function transposeRounds(mk: Microkernel, pad: string, rows = mk.lanes): string[] {
  const L = mk.lanes
  const lane = Array.from({ length: L }, (_, l) => l)
  const stages = lane.filter((s) => s > 0 && s < rows && (s & (s - 1)) === 0)
  return stages.flatMap((s) => {
    const lo = lane.map((l) => ((l & s) === 0 ? l : l - s + L)).join(', ')
    const hi = lane.map((l) => ((l & s) === 0 ? l + s : l + L)).join(', ')
    return [
      `${pad}for (int i = 0; i < ${rows}; i++)`,
      `${pad}  if ((i & ${s}) == 0) {`,
      `${pad}    const pk_vec a = v[i], b = v[i + ${s}];`,
      `${pad}    v[i] = __builtin_shuffle(a, b, (pk_lanes){${lo}});`,
      `${pad}    v[i + ${s}] = __builtin_shuffle(a, b, (pk_lanes){${hi}});`,
      `${pad}  }`,
    ]
  })
}

/**
 * Row visits ahead (in the order the transpose across panels reads them) it fetches a visit's rows: each is a line
 * no prefetcher follows where the rows are an index far apart. Timed alone on abcde-ecbfa-fd's layout, the gather
 * spent 75% of its time on those loads without it; 1, 2, 6 and 8 k steps ahead did no better than 4.
 */
const ACROSS_AHEAD = 4


/**
 * The gather's columns laid out as `group` columns of C's stride-1 index at each of several consecutive values of
 * the operand's own stride-1 index (an order with C's stride-1 index innermost and the operand's next, or a tiled
 * one: schedule/role-orders.ts), or as a pitched order's blocks of C's runs, each block at consecutive values of it:
 * column x + group·j + i at offset o_len[x + i] + j. For each k step, the group's rows are loaded lanes at a time as
 * vectors along j (every line read whole), transposed in registers and stored as the panel's vectors, instead of one
 * element per line. A group need not be whole vectors: a run of 24 is 16 + 8 rows,
 * the missing rows zero and only the rows' lanes stored, as long as each store stays in its panel (intensli
 * abcde-ecbfa-fd, AVX-512, 1 thread: 13 -> 23 GFLOP/s). Nor need the steps be: where the operand's stride-1 index
 * ends before a vector's worth (its last block, 8 of 24), each row is loaded through a mask of that many lanes, down
 * to a quarter vector, as long as the group's columns end on a vector. Marks the lane groups it copied in `done`; the
 * panel loop skips panels whose groups are all done.
 *
 * The groups are found first, then read k step by k step within each group, as the panels lie; except where k's
 * rows are a page apart or more: then each k step reads every group, so that a row's lines are read in turn (one
 * page at a time) rather than one line of a new page at every step (abcde-ecbfa-fd, k's rows 55 KB apart: 18 -> 22
 * GFLOP/s in one process, AMD EPYC AVX-512, 1 thread; abc-bda-dc's, 800 bytes apart, keeps its order: read by k
 * step it wrote the panels a line per panel at a time, 82 -> 74). Where k's rows are closer, each group is read a
 * slice of lanes rows at a time through all its k steps, so that only a vector's worth of rows are streams at once
 * instead of every row of a group (48 on a 48-wide panel): abc-bda-dc, abcd-deca-be, abcde-efbad-cf and
 * abcde-efcad-bf 1.04-1.12x at 1 thread, 1.03-1.08x at 2 (one process alternating builds, AMD EPYC AVX-512). A slice
 * at a time through every group instead, the next slice's rows, which often go on where the last slice's end (the
 * next index of C's runs), had left the caches: efbad-cf ran 0.93x at 1 thread. Rows a page apart keep the
 * step-by-step order: sliced, abcd-dbea-ec (rows 11 KB apart) ran 0.75-0.77x at 2 threads.
 */
function transposeAcrossPanels(w: number, mk: Microkernel, scaled: boolean): string {
  const L = mk.lanes
  const { ops } = mk
  const t = C_TYPE[mk.dtype]
  // The groups' k steps p0 to pe, each step's rows lanes at a time: all of a group's at each step, or (`slice`) each
  // slice of lanes rows through all the steps in turn.
  const groupsLoop = (slice: boolean): string[] => [
    'for (int64_t g = 0; g < groups; g++) {',
    '  const int64_t x = at_x[g], group = at_group[g], steps = at_steps[g];',
    `  const ${ops.mask} across = ${instantiate(ops.firstLanes, { n: `group % ${L}` })};`,
    `  const ${ops.mask} along = ${instantiate(ops.firstLanes, { n: 'steps' })};`,
    ...(slice ? [`  for (int64_t i0 = 0; i0 < group; i0 += ${L})`] : []),
    '  for (int64_t p = p0; p < pe; p++) {',
    // The visit ACROSS_AHEAD further in the loops' order: its group, slice (the same where not sliced) and k step.
    ...(slice
      ? [
        `    int64_t ahead_g = g, ahead_i0 = i0, ahead_p = p + ${ACROSS_AHEAD};`,
        `    if (ahead_p >= pe) ahead_p -= pe - p0, ahead_i0 += ${L};`,
        '    if (ahead_i0 >= group) ahead_g++, ahead_i0 = 0;',
        '    {',
      ]
      : [
        `    const int64_t visit = g*(pe - p0) + p - p0 + ${ACROSS_AHEAD};`,
        '    int64_t ahead_g = visit / (pe - p0), ahead_p = p0 + visit % (pe - p0);',
        '    if (ahead_g >= groups) ahead_g -= groups, ahead_p += pe - p0;',
        `    for (int64_t i0 = 0; i0 < group; i0 += ${L}) {`,
        '      const int64_t ahead_i0 = i0;',
      ]),
    `      const int64_t rows = pk_min64(${L}, group - i0);`,
    `      pk_vec v[${L}];`,
    `      for (int i = 0; i < ${L}; i++) {`,
    `        const ${t} *row = src + o_k[p] + o_len[x + i0 + i];`,
    `        if (i < rows && ahead_p < kb && ahead_g < groups && ahead_i0 + i < at_group[ahead_g]) {`,
    `          const ${t} *ahead = src + o_k[ahead_p] + o_len[at_x[ahead_g] + ahead_i0 + i];`,
    `          __builtin_prefetch(ahead), __builtin_prefetch(ahead + ${L - 1});`,
    '        }',
    `        const ${ops.vector} r = i >= rows ? ${ops.zero} : steps == ${L} ? ${instantiate(ops.load, { p: 'row' })} : ${instantiate(ops.maskedLoad, { m: 'along', p: 'row' })};`,
    '        __builtin_memcpy(&v[i], &r, sizeof r);',
    '      }',
    ...transposeRounds(mk, '      '),
    `      for (int64_t j = 0; j < steps; j++) {`,
    '        const int64_t col = x + group*j + i0;',
    `        const pk_vec out_j = ${scaled ? 'alpha*v[j]' : 'v[j]'};`,
    `        ${ops.vector} o;`,
    '        __builtin_memcpy(&o, &out_j, sizeof o);',
    `        ${t} *to = out + (col/${w})*${w}*kb + p*${w} + col%${w};`,
    `        if (rows == ${L}) ${instantiate(ops.store, { p: 'to', v: 'o' })};`,
    `        else ${instantiate(ops.maskedStore, { p: 'to', m: 'across', v: 'o' })};`,
    '      }',
    '    }',
    '  }',
    '}',
  ]
  return [
    `  unsigned char done[len / ${L} + 1];`,
    '  __builtin_memset(done, 0, sizeof done);',
    // The column one further along is as far from any column of a layout: probed at two, the search runs only if found.
    // In a pitched order (schedule/role-orders.ts) it is a block of C's runs further: probed at the first column.
    `  const int64_t reach = ${TRANSPOSED_RUN};`,
    '  int found = 0;',
    '  for (int64_t at = 0; at < len && !found; at += len/2 + 1) found = pk_step_group(o_len, at, len, reach) > 0;',
    '  const int64_t pitch = found || len == 0 ? 0 : pk_step_group(o_len, 0, len, len);',
    '  found |= pitch > 0;',
    `  int64_t at_x[len / ${L} + 1], at_group[len / ${L} + 1], at_steps[len / ${L} + 1], groups = 0;`,
    `  for (int64_t x = 0; found && x + ${L} <= len;) {`,
    '    int64_t group = pk_step_group(o_len, x, len, reach);',
    '    if (group == 0 && pitch > 0 && x + pitch < len && o_len[x + pitch] == o_len[x] + 1) group = pitch;',
    '    int64_t steps = 0;',
    `    for (int ok = 1; ok && steps < ${L} && x + group*(steps + 1) <= len; steps += ok)`,
    '      for (int64_t i = 0; i < group && ok; i++) ok = o_len[x + group*steps + i] == o_len[x + i] + steps;',
    // Rows in vectors of lanes, the last at least a quarter vector; every store inside one panel.
    `    int fits = group > 0 && (steps == ${L} || (4*steps >= ${L} && group*steps % ${L} == 0)) && x % ${L} == 0`,
    `      && (group % ${L} == 0 || 4*(group % ${L}) >= ${L});`,
    `    for (int64_t j = 0; fits && j < steps; j++)`,
    `      for (int64_t i0 = 0; fits && i0 < group; i0 += ${L}) fits = (x + group*j + i0) % ${w} + pk_min64(${L}, group - i0) <= ${w};`,
    '    if (!fits) {',
    `      x += ${L};`,
    '      continue;',
    '    }',
    '    at_x[groups] = x, at_group[groups] = group, at_steps[groups++] = steps;',
    `    for (int64_t c = x; c < x + group*steps; c += ${L}) done[c/${L}] = 1;`,
    '    x += group*steps;',
    '  }',
    `  const int64_t apart = kb > 1 ? (o_k[1] > o_k[0] ? o_k[1] - o_k[0] : o_k[0] - o_k[1]) : 0;`,
    `  const int64_t pb = apart*(int64_t)sizeof(${t}) >= ${PAGE_BYTES} ? 1 : kb;`,
    '  if (pb == kb) {',
    '    const int64_t p0 = 0, pe = kb;',
    ...groupsLoop(true).map((line) => `    ${line}`),
    '  } else {',
    '    for (int64_t p0 = 0; p0 < kb; p0 += pb) {',
    '      const int64_t pe = pk_min64(kb, p0 + pb);',
    ...groupsLoop(false).map((line) => `      ${line}`),
    '    }',
    '  }',
  ].join('\n')
}

/**
 * Rows a transposing gather reads at once: the whole panel up to 16 rows, else 16 (or 8 ...) dividing its width (48 rows of B at a time ran 1.3x
 * slower on transposed TCCG cases than 16).
 */
const rowGroup = (w: number): number => (w <= 16 ? w : [16, 8, 4, 2, 1].find((g) => w % g === 0)!)

/**
 * An operand's gather multiplying each element by alpha and by a tensor factor's element, or dividing it by that
 * (ContractionRoles.scaleA/B, OperandScale.divides).
 */
export const weightedGatherSymbol = (mk: Microkernel, operand: 'a' | 'b', divides: boolean): string =>
  `pk_gather_${operand}_${divides ? 'divided' : 'weighted'}_${mk.name}`

/**
 * A template of native/ instantiated as the function `symbol`: PK_PACK and its other parameters, then the header.
 * `flags` are the header's own switches (polykern_pack.h's PK_PACK_SCALED, polykern_gather_weighted.h's
 * PK_PACK_DIVIDES), each 0 or 1.
 */
function instantiatePack(header: string, symbol: string, w: number, mk: Microkernel, flags: Readonly<Record<string, boolean>> = {}): string {
  return [
    `#define PK_PACK ${symbol}`,
    `#define PK_PACK_T ${C_TYPE[mk.dtype]}`,
    `#define PK_PACK_W ${w}`,
    ...Object.entries(flags).map(([flag, on]) => `#define ${flag} ${on ? 1 : 0}`),
    `#include "${header}"`,
    '',
  ].join('\n')
}

/** Whether the C `text` defines the pack `symbol` (instantiatePack). */
export const definesPack = (text: string, symbol: string): boolean => text.includes(`#define PK_PACK ${symbol}\n`)

/** `gather(len, kb, src, o_len, o_k, out, alpha, w, ow_len, ow_k)`: native/polykern_gather_weighted.h. */
export const emitWeightedGather = (mk: Microkernel, operand: 'a' | 'b', divides: boolean): string =>
  instantiatePack('polykern_gather_weighted.h', weightedGatherSymbol(mk, operand, divides), operand === 'a' ? mk.mr : mk.nr, mk, {
    PK_PACK_DIVIDES: divides,
  })

/**
 * A run's copy into a panel row (`row[x] = from[x]` for x in [start[r], start[r + 1])): whole vectors, then the rest
 * through a lane mask. As a plain loop gcc makes it a memmove call, which cost a quarter of ao2mo abcd-eb-aecd's
 * time on runs of a few vectors.
 */
function copyRun(mk: Microkernel): string {
  const t = C_TYPE[mk.dtype]
  const op = (name: 'firstLanes' | 'maskedLoad' | 'maskedStore', args: Record<string, string>) => instantiate(mk.ops[name], args)
  return [
    '          int64_t x = start[r];',
    `          for (; x + ${mk.lanes} <= start[r + 1]; x += ${mk.lanes}) __builtin_memcpy(row + x, from + x, ${mk.lanes}*sizeof(${t}));`,
    '          if (x < start[r + 1]) {',
    `            const ${mk.ops.mask} m = ${op('firstLanes', { n: 'start[r + 1] - x' })};`,
    `            ${op('maskedStore', { p: 'row + x', m: 'm', v: op('maskedLoad', { p: 'from + x', m: 'm' }) })};`,
    '          }',
  ].join('\n')
}

/** The element a gather writes: the source's, times `alpha` in a scaled gather. */
const scaledBy = (scaled: boolean) => (x: string): string => (scaled ? `alpha*${x}` : x)
const alphaParam = (t: string, scaled: boolean): string => (scaled ? `, ${t} alpha` : '')

/** `pack(len, kb, src, s_len, s_k, out[, alpha])`, panels of `w` = MR (for A) or NR (for B): native/polykern_pack.h. */
const emitPack = (symbol: string, w: number, mk: Microkernel, scaled = false): string =>
  instantiatePack('polykern_pack.h', symbol, w, mk, { PK_PACK_SCALED: scaled })

export const emitPackA = (mk: Microkernel): string => emitPack(packASymbol(mk), mk.mr, mk)
export const emitPackB = (mk: Microkernel): string => emitPack(packBSymbol(mk), mk.nr, mk)

/** A whole panel's rows, each read along k one element at a time, in groups (rowGroup). */
function rowsAlongK(w: number, scaled: boolean): string {
  const v = scaledBy(scaled)
  return `        // ${rowGroup(w)} rows at a time: each row is a stream along k, and all ${w} are more than the prefetchers follow.
        for (int64_t xg = 0; xg < ${w}; xg += ${rowGroup(w)})
          for (int64_t p = 0; p < kb; p++)
            for (int64_t x = xg; x < xg + ${rowGroup(w)}; x++) to[p*${w} + x] = ${v('row[x][o_k[p]]')};
`
}

/**
 * A panel whose rows are apart copied through the transposed blocks and its other k steps one at a time; a last
 * panel of n < w rows too (its rows past n read row n - 1 again), its rows past n zeroed after: one at a time, an
 * edge panel of 8 rows walking a tiled k order cost a quarter of ab-cad-dcb's B gather.
 */
function transposingCopy(w: number, mk: Microkernel, scaled: boolean): string {
  return `      if (!planned) pk_k_blocks(o_k, kb, ${mk.lanes}, blk_start, blk_sigma, blk_steps, &blocks, one, &ones), planned = 1;
      if (blocks > 0) {
${transposeBlocks(w, mk, scaled)}      } else {
${rowsAlongK(w, scaled)}      }
      if (n < ${w})
        for (int64_t p = 0; p < kb; p++)
          for (int64_t x = n; x < ${w}; x++) to[p*${w} + x] = 0;
`
}

/**
 * K steps ahead that a gather copying a panel run by run fetches the runs' lines, where the panel has at least
 * RUNS_AHEAD_MIN_K k steps. The runs of successive k steps are rows of the operand some hundreds of bytes to pages
 * apart, read once per call: the prefetchers fell behind (ao2mo abcd-eb-aecd, AMD EPYC AVX-512, 1 thread: 43% of its
 * samples in the gather, on its loads; a single core reads 35-40 GB/s in that pattern alone, the gather 9). In one
 * process alternating, best of six rounds, 1 / 2 threads: abcd-eb-aecd 92 -> 98 / 179 -> 194 GFLOP/s, abc-adec-ebd
 * 102 -> 110 / 214 -> 240, abc-bda-dc and abcd-ea-ebcd +2-5%, ab-acd-dbc, abcd-eafd-fbec, abcd-ec-abed within 2%.
 * Fetched with ccsd_t's 16 k steps too, gfac-degb ran 89-90 against 120-121 (separate processes): the lines come too
 * late to help and crowd out C's, hence the minimum.
 */
const RUNS_AHEAD = 8
const RUNS_AHEAD_MIN_K = 32

/**
 * How much of a run that goes on through the next panels (the operand's stride-1 index the role's innermost, as a
 * column-major A) a gather copies at each k step, panel after panel: a panel at a time, each k step read a panel's
 * width of the operand's row (AVX-512's 8 rows of A: half a line), then the next row, some hundreds of bytes on, and
 * the prefetchers kept up with neither. In one process alternating builds, AMD EPYC Zen 5 AVX-512, 1 / 2 threads:
 * abc-ad-bdc (A's 8 rows along b, k a row of 200 floats apart) 1.06-1.12x / 1.09x, abcd-ec-abed 1.08x / 1.06x,
 * abc-adec-ebd 1.02x / 1.05-1.09x, the other TCCG contractions within noise. Also taking 8 k steps per visit of a
 * panel (the plain pack's band) lost the gain.
 */
const PANELS_ALONG_BYTES = 1024
const panelsAlong = (w: number, mk: Microkernel): number => Math.max(1, Math.floor(PANELS_ALONG_BYTES / (w * DTYPE_BYTES[mk.dtype])))

/**
 * `gather(len, kb, src, o_len, o_k, out)`: the same panels from an operand whose roles are not one stride each
 * (GETT/TBLIS): element (x, p) at src[o_len[x] + o_k[p]], through the roles' offset tables. A panel's rows that are
 * contiguous in memory (runs of the operand's stride-1 index along it, TBLIS's block scatter) are copied run by run,
 * w elements from one offset per k step when the whole panel is one run (with the panels that go on with the run,
 * PANELS_ALONG_BYTES), which gcc vectorizes; a panel of runs shorter than 4 on average has its rows fixed first, so
 * the k loop adds one offset to `w` row pointers (a transposing copy, the operand's stride-1 index being in k or
 * absent). Rows past `len` are zeros. Before the
 * panels, B's columns laid out by a tiled order are transposed across panels (transposeAcrossPanels). Measured on
 * AVX-512, 1 thread: intensli abcd-dbea-ec 24 -> 30 GFLOP/s, abcd-deca-be 48 -> 54.
 */
function emitGather(symbol: string, w: number, mk: Microkernel, scaled = false): string {
  const t = C_TYPE[mk.dtype]
  const v = scaledBy(scaled)
  // Panels of whole vectors (B's) are transposed in registers, along k and across panels; A's MR rows along k when
  // they are a power of two dividing a vector (AVX-512's 8 of 16 lanes; not AVX2's 6).
  const whole = w % mk.lanes === 0
  const alongK = whole || (mk.lanes % w === 0 && (w & (w - 1)) === 0)
  return `static void ${symbol}(int64_t len, int64_t kb, const ${t} *restrict src, const int64_t *restrict o_len,
    const int64_t *restrict o_k, ${t} *restrict out${alphaParam(t, scaled)}) {
${alongK ? [...vectorTypes(mk, '  '), K_BLOCK_PLAN].join('\n') : ''}
${whole ? transposeAcrossPanels(w, mk, scaled) : ''}
  for (int64_t x0 = 0; x0 < len; x0 += ${w}) {
    const int64_t n = pk_min64(${w}, len - x0);
${whole ? `    if (n == ${w} && ${[...Array(w / mk.lanes).keys()].map((g) => `done[x0/${mk.lanes} + ${g}]`).join(' && ')}) continue;
` : ''}    ${t} *restrict to = out + x0*kb;
    int64_t start[${w + 1}];
    const int64_t runs = pk_runs(o_len + x0, n, start);
    if (runs == 1 && n == ${w}) {
      int64_t span = 1;
      while (span < ${panelsAlong(w, mk)} && x0 + (span + 1)*${w} <= len && pk_runs(o_len + x0 + span*${w}, ${w}, start) == 1
          && o_len[x0 + span*${w}] == o_len[x0] + span*${w})
        span++;
      const ${t} *restrict from = src + o_len[x0];
      for (int64_t p = 0; p < kb; p++)
        for (int64_t q = 0; q < span; q++)
          for (int64_t x = 0; x < ${w}; x++) to[q*${w}*kb + p*${w} + x] = ${v(`from[o_k[p] + q*${w} + x]`)};
      x0 += (span - 1)*${w};
    } else if (4*runs <= n) {
      for (int64_t p = 0; p < kb; p++) {
        ${t} *restrict row = to + p*${w};
        if (kb >= ${RUNS_AHEAD_MIN_K} && p + ${RUNS_AHEAD} < kb)
          for (int64_t r = 0; r < runs; r++) {
            const ${t} *ahead = src + o_k[p + ${RUNS_AHEAD}] + o_len[x0 + start[r]];
            for (int64_t x = 0; x <= start[r + 1] - start[r]; x += 64 / sizeof(${t})) __builtin_prefetch(ahead + x, 0, 3);
          }
        for (int64_t r = 0; r < runs; r++) {
          const ${t} *restrict from = src + o_k[p] + o_len[x0 + start[r]] - start[r];
${scaled ? `          for (int64_t x = start[r]; x < start[r + 1]; x++) row[x] = ${v('from[x]')};` : copyRun(mk)}
        }
        for (int64_t x = n; x < ${w}; x++) row[x] = 0;
      }
    } else {
      const ${t} *row[${w}];
      for (int64_t x = 0; x < ${w}; x++) row[x] = src + o_len[x0 + (x < n ? x : n - 1)];
${alongK ? transposingCopy(w, mk, scaled) : `      if (n == ${w}) {
${rowsAlongK(w, scaled)}      } else {
        for (int64_t p = 0; p < kb; p++)
          for (int64_t x = 0; x < ${w}; x++) to[p*${w} + x] = x < n ? ${v('row[x][o_k[p]]')} : 0;
      }
`}    }
  }
}
`
}

export const emitGatherA = (mk: Microkernel): string => emitGather(gatherASymbol(mk), mk.mr, mk)
export const emitScaledPackA = (mk: Microkernel): string => emitPack(scaledPackASymbol(mk), mk.mr, mk, true)
export const emitScaledGatherA = (mk: Microkernel): string => emitGather(scaledGatherASymbol(mk), mk.mr, mk, true)
export const emitGatherB = (mk: Microkernel): string => emitGather(gatherBSymbol(mk), mk.nr, mk)
