/**
 * The C driver of a microkernel's convolutions (SConv's macro-kernel), one per microkernel and ISA region.
 *
 * The filter is packed once per call into NR-column panels, tap after tap (row `t·C + c` of panel `k / NR` holds
 * F[tap t, c, k]), or read in place when the call has few output positions per filter. The output rows (batch points
 * × every spatial position but the last axis), in blocks of `mc` output positions, are split between the threads.
 * - Direct, channels last: for one block and a block of output channels and input channels, every filter tap runs
 *   the microkernel: the tap's input rows outside the input are skipped, and along the last axis only the positions
 *   whose window element lies inside run, so padding costs nothing and is exact. A's rows are input pixels read in
 *   place (`stride·C` apart, contiguous in c), B the tap's filter, C the output positions (contiguous in k).
 *   Weight-stationary runs the channel blocks outside the rows, input-stationary inside. Taps adjacent along the last
 *   axis run as one k loop where their pixels (and filter rows) follow each other. A 1×1 filter over dense axes runs
 *   each image as one long row.
 * - Direct, channels first (NCHW): output channels are the microkernel's rows (the packed filter), output positions
 *   its columns (input rows in place).
 * - im2col (forced, or for rows shorter than the plan's `im2colBelow`): blocks of output rows' windows are copied
 *   (zeros for padding) into a buffer of positions × taps·C, then one GEMM with the same filter.
 */
import { C_TYPE } from './c-expr.ts'
import { microkernelSymbol, type MicrokernelUse } from './c-microkernel.ts'
import { packASymbol } from './c-pack.ts'
import type { Microkernel } from '../targets/microkernel.ts'

/** im2col's GEMMs: rows of output positions per GEMM, and the most elements its buffer may take (16 MiB of f32). */
const IM2COL_CHUNK = { IM2COL_POSITIONS: 512, IM2COL_ELEMENTS: 4 << 20 } as const

/** Filter rows a block pack prefetches ahead of the one it copies. */
const PACK_AHEAD_ROWS = 4

/** The fewest rows of an im2col GEMM's filter block that takes whole filter rows (see `_gemm_blocks`). */
const WHOLE_ROWS_MIN_KC = 32

/** The operand layouts of the tile functions the driver calls. */
export const convolutionUses = (mk: Microkernel) => ({
  /** Channels last: the windows in place, the filter packed. */
  packedFilter: { mk, packA: false, packB: true },
  /** Channels last, few positions: both in place. */
  filterInPlace: { mk, packA: false, packB: false },
  /** Channels first: the filter (A) packed, the input rows (B) in place. */
  channelsFirst: { mk, packA: true, packB: false },
}) satisfies Record<string, MicrokernelUse>

export const driverSymbol = (mk: Microkernel): string => `pk_conv_${mk.name}`

/** The descriptor type, filter packing, row walkers, team member and `<symbol>_run` of one microkernel. */
export function emitConvDriver(mk: Microkernel): string {
  const t = C_TYPE[mk.dtype]
  const sym = driverSymbol(mk)
  const { mr: MR, nr: NR } = mk
  const uses = convolutionUses(mk)
  const ukr = microkernelSymbol(uses.packedFilter)
  const inPlace = microkernelSymbol(uses.filterInPlace)
  const first = microkernelSymbol(uses.channelsFirst)
  const packA = packASymbol(mk)
  const { IM2COL_POSITIONS, IM2COL_ELEMENTS } = IM2COL_CHUNK
  return `/* Direct and im2col convolutions on ${mk.name} (emit/c-conv.ts). */
typedef struct {
  const ${t} *in, *flt;
  ${t} *out;
  int nb, nd;
  int64_t b_ext[4], b_in[4], b_out[4], b_flt[4];
  int64_t p_ext[3], r_ext[3], h_ext[3], stride[3], dil[3], off[3], in_s[3], out_s[3], flt_s[3];
  int64_t C, K, flt_c, flt_k, in_c, out_k, mc, nc, kc;
  /* Elements of L2 the blocks may take: a channels-last call slices mc and nc again within it (_slice). */
  int64_t l2;
  int weight_stationary, im2col;
  /* Positions per row below which a direct call runs through im2col instead. */
  int64_t im2col_below;
  /* Channels first (NCHW): output channels are the microkernel's rows, output positions its columns. */
  int channels_first;
  /* Output positions per filter from which a call packs the filter rather than reading it in place. */
  int64_t pack_filter_from;
} ${sym}_desc;

typedef struct {
  const ${sym}_desc *d;
  const ${t} *pf;
  int64_t rows, taps;
  /*
   * im2col: output rows per GEMM; whether each GEMM packs the filter block by block as it runs (pf NULL); whether the
   * members share the output channels (each running every GEMM on its share) rather than the GEMMs.
   */
  int64_t per;
  int pack_blocks, split_channels;
  int failed;
} ${sym}_ctx;

/* Where one output row starts: in the input, the output, the packed and the given filter (its group); its positions. */
typedef struct { int64_t in, out, pf, flt, p[3]; } ${sym}_at;

static ${sym}_at ${sym}_locate(const ${sym}_desc *d, int64_t row, int64_t group_elems) {
  ${sym}_at at = {0, 0, 0, 0, {0, 0, 0}};
  int64_t rest = row;
  for (int dd = d->nd - 2; dd >= 0; dd--) {
    at.p[dd] = rest % d->p_ext[dd];
    rest /= d->p_ext[dd];
    at.out += at.p[dd] * d->out_s[dd];
  }
  for (int i = d->nb - 1; i >= 0; i--) {
    const int64_t x = rest % d->b_ext[i];
    rest /= d->b_ext[i];
    at.in += x * d->b_in[i];
    at.out += x * d->b_out[i];
    at.flt += x * d->b_flt[i];
    if (d->b_flt[i] != 0) at.pf += x * group_elems, group_elems *= d->b_ext[i];
  }
  return at;
}

/* Filter element offset of tap t (the last axis's tap fastest). */
static int64_t ${sym}_tap(const ${sym}_desc *d, int64_t t) {
  int64_t off = 0;
  for (int dd = d->nd - 1; dd >= 0; dd--) off += t % d->r_ext[dd] * d->flt_s[dd], t /= d->r_ext[dd];
  return off;
}

/* Filter element offset of group g: the batch indices that index the filter, the last fastest. */
static int64_t ${sym}_group(const ${sym}_desc *d, int64_t g) {
  int64_t base = 0;
  for (int i = d->nb - 1; i >= 0; i--) {
    if (d->b_flt[i] == 0) continue;
    base += g % d->b_ext[i] * d->b_flt[i];
    g /= d->b_ext[i];
  }
  return base;
}

/* One row of a panel: n filter elements from \`from\` (flt_k apart), zeros past them to NR. */
static inline void ${sym}_panel_row(const ${t} *from, int64_t flt_k, int64_t n, ${t} *restrict to) {
  if (n == ${NR} && flt_k == 1)
    for (int64_t x = 0; x < ${NR}; x++) to[x] = from[x];
  else
    for (int64_t x = 0; x < ${NR}; x++) to[x] = x < n ? from[x * flt_k] : 0;
}

/*
 * Every group's filter as NR-column panels of taps·C rows, zero-padded past K. Each (tap, c) row of the filter is
 * read once, along its output channels, and dealt out to the panels: reading a panel's NR columns down all rows
 * instead leaves the prefetchers a short stream per row (measured: 3×3 convolutions of 14×14 × 256 and 7×7 × 512
 * maps ran 12% and 28% slower that way, the filter being most of what they read).
 */
static void ${sym}_pack(const ${sym}_desc *d, int64_t taps, int64_t groups, ${t} *restrict pf) {
  const int64_t kd = taps * d->C, kp = pk_round_up(d->K, ${NR});
  for (int64_t g = 0; g < groups; g++) {
    const int64_t base = ${sym}_group(d, g);
    for (int64_t tap = 0; tap < taps; tap++) {
      const ${t} *f = d->flt + base + ${sym}_tap(d, tap);
      for (int64_t c = 0; c < d->C; c++) {
        const ${t} *row = f + c * d->flt_c;
        ${t} *restrict to = pf + g * kp * kd + (tap * d->C + c) * ${NR};
        for (int64_t x0 = 0; x0 < kp; x0 += ${NR})
          ${sym}_panel_row(row + x0 * d->flt_k, d->flt_k, pk_min64(${NR}, d->K - x0), to + x0 * kd);
      }
    }
  }
}

/*
 * The filter as the microkernel's B from some row on: packed (k row p of the panel holding column j at
 * b + j·panel + p·row, panel = taps·C, row = NR) or read in place (at b + j + p·row, row = F's channel stride).
 */
typedef struct {
  const ${t} *b;
  int64_t row, panel;
  int packed;
} ${sym}_b;

/* Tap t's rows from input channel pc on, output channels from jc on; pf NULL: the filter in place. */
static ${sym}_b ${sym}_filter(const ${sym}_desc *d, const ${t} *pf, const ${sym}_at *at, int64_t taps, int64_t t,
    int64_t pc, int64_t jc) {
  if (pf != NULL) {
    const ${sym}_b v = {pf + at->pf + jc * taps * d->C + (t * d->C + pc) * ${NR}, ${NR}, taps * d->C, 1};
    return v;
  }
  const ${sym}_b v = {d->flt + at->flt + ${sym}_tap(d, t) + pc * d->flt_c + jc, d->flt_c, 1, 0};
  return v;
}

/* The microkernel over rows output positions (A rows lda apart) and nb output channels. */
static void ${sym}_tiles(int64_t rows, int64_t nb, int64_t kb, const ${t} *a, int64_t lda, ${sym}_b f, ${t} *c,
    int64_t ldc) {
  for (int64_t jr = 0; jr < nb; jr += ${NR})
    for (int64_t ir = 0; ir < rows; ir += ${MR}) {
      const int64_t m = pk_min64(${MR}, rows - ir), n = pk_min64(${NR}, nb - jr);
      if (f.packed) ${ukr}(kb, a + ir * lda, lda, f.b + jr * f.panel, 0, c + ir * ldc + jr, ldc, m, n, 0);
      else ${inPlace}(kb, a + ir * lda, lda, f.b + jr, f.row, c + ir * ldc + jr, ldc, m, n, 0);
    }
}

/*
 * The input offset of outer tap ot (its taps on every axis but the last) for the row at, in *in; 0 when one of its
 * input rows lies outside the input (padding: the tap contributes nothing to this row).
 */
static int ${sym}_outer(const ${sym}_desc *d, const ${sym}_at *at, int64_t ot, int64_t *in) {
  *in = at->in;
  for (int dd = d->nd - 2; dd >= 0; dd--) {
    const int64_t r = ot % d->r_ext[dd];
    ot /= d->r_ext[dd];
    const int64_t h = d->stride[dd] * at->p[dd] + d->dil[dd] * r + d->off[dd];
    if (h < 0 || h >= d->h_ext[dd]) return 0;
    *in += h * d->in_s[dd];
  }
  return 1;
}

/* Positions q whose window element stride·q + base along the last axis lies in [0, W), cut to [lo, hi). */
static void ${sym}_inside(const ${sym}_desc *d, int64_t base, int64_t *lo, int64_t *hi) {
  const int L = d->nd - 1;
  const int64_t s = d->stride[L], W = d->h_ext[L];
  *lo = pk_max_i64(*lo, base >= 0 ? 0 : (s - 1 - base) / s);
  *hi = pk_min64(*hi, W - base <= 0 ? 0 : (W - base + s - 1) / s);
}

/*
 * Output positions [ic, ie), output channels [jc, jc + nb) and input channels [pc, pc + kb) of one row, every tap,
 * the input read in place. When a window's taps along the last axis are adjacent in memory (dilation 1, pixels C
 * apart) and the block holds every channel, the positions whose whole window row is inside run those taps as one
 * k loop of S·C: a third of the output-tile traffic of a 3×3 filter.
 */
static void ${sym}_direct(const ${sym}_desc *d, const ${t} *pf, const ${sym}_at *at, int64_t taps, int64_t ic,
    int64_t ie, int64_t jc, int64_t nb, int64_t pc, int64_t kb) {
  const int L = d->nd - 1;
  const int64_t s = d->stride[L], S = d->r_ext[L], lda = s * d->in_s[L], ldc = d->out_s[L];
  /* In place, the taps' rows must follow each other in F too. */
  const int fuse = S > 1 && d->dil[L] == 1 && kb == d->C && d->in_s[L] == d->C &&
      (pf != NULL || d->flt_s[L] == d->C * d->flt_c);
  for (int64_t ot = 0; ot < taps / S; ot++) {
    int64_t in;
    if (!${sym}_outer(d, at, ot, &in)) continue;
    ${t} *c = d->out + at->out + jc;
    /* [flo, fhi): the positions whose taps all ran fused. */
    int64_t flo = ic, fhi = ic;
    if (fuse) {
      int64_t lo = ic, hi = ie, lo_last = ic, hi_last = ie;
      ${sym}_inside(d, d->off[L], &lo, &hi);
      ${sym}_inside(d, S - 1 + d->off[L], &lo_last, &hi_last);
      flo = pk_max_i64(lo, lo_last), fhi = pk_min64(hi, hi_last);
      if (fhi > flo) {
        const ${t} *a = d->in + in + (s * flo + d->off[L]) * d->in_s[L];
        ${sym}_tiles(fhi - flo, nb, S * d->C, a, lda, ${sym}_filter(d, pf, at, taps, ot * S, 0, jc), c + flo * ldc, ldc);
      } else {
        fhi = flo = ic;
      }
    }
    for (int64_t sw = 0; sw < S; sw++) {
      const int64_t base = d->dil[L] * sw + d->off[L];
      int64_t lo = ic, hi = ie;
      ${sym}_inside(d, base, &lo, &hi);
      const ${t} *a = d->in + in + base * d->in_s[L] + pc;
      const ${sym}_b f = ${sym}_filter(d, pf, at, taps, ot * S + sw, pc, jc);
      /* Both sides of the fused positions. */
      const int64_t cut[2][2] = {{lo, pk_min64(hi, flo)}, {pk_max_i64(lo, fhi), hi}};
      for (int side = 0; side < 2; side++) {
        const int64_t from = cut[side][0], to = cut[side][1];
        if (to > from) ${sym}_tiles(to - from, nb, kb, a + from * lda, lda, f, c + from * ldc, ldc);
      }
    }
  }
}

/*
 * Channels first (NCHW): output channels [0, K) are the microkernel's rows (A: the tap's filter, packed in MR-row
 * panels), output positions [ic, ie) along the last axis its columns (B: input rows read in place, one input channel
 * per row of B, unit stride), input channels [pc, pc + kb) its k loop; padding as in the channels-last path.
 */
static void ${sym}_first(const ${sym}_desc *d, const ${t} *pf, const ${sym}_at *at, int64_t taps, int64_t ic,
    int64_t ie, int64_t pc, int64_t kb) {
  const int L = d->nd - 1;
  const int64_t S = d->r_ext[L], ldc = d->out_k, kp = pk_round_up(d->K, ${MR});
  for (int64_t ot = 0; ot < taps / S; ot++) {
    int64_t in;
    if (!${sym}_outer(d, at, ot, &in)) continue;
    for (int64_t sw = 0; sw < S; sw++) {
      const int64_t base = d->dil[L] * sw + d->off[L];
      int64_t lo = ic, hi = ie;
      ${sym}_inside(d, base, &lo, &hi);
      if (hi <= lo) continue;
      const ${t} *a = pf + at->pf + (ot * S + sw) * kp * d->C + pc * ${MR};
      const ${t} *b = d->in + in + base + lo + pc * d->in_c;
      ${t} *c = d->out + at->out + lo;
      for (int64_t jr = 0; jr < hi - lo; jr += ${NR})
        for (int64_t ir = 0; ir < d->K; ir += ${MR})
          ${first}(kb, a + ir * d->C, 0, b + jr, d->in_c, c + ir * ldc + jr, ldc, pk_min64(${MR}, d->K - ir),
              pk_min64(${NR}, hi - lo - jr), 0);
    }
  }
}

/* Channels first: every group's filter, tap after tap, as ${MR}-row panels of output channels over C. */
static void ${sym}_pack_first(const ${sym}_desc *d, int64_t taps, int64_t groups, ${t} *restrict pf) {
  const int64_t kp = pk_round_up(d->K, ${MR});
  for (int64_t g = 0; g < groups; g++) {
    const int64_t base = ${sym}_group(d, g);
    for (int64_t tap = 0; tap < taps; tap++)
      ${packA}(d->K, d->C, d->flt + base + ${sym}_tap(d, tap), d->flt_k, d->flt_c, pf + (g * taps + tap) * kp * d->C);
  }
}

/* One row's windows into col (Q × taps·C, zeros outside the input): im2col. */
static void ${sym}_im2col(const ${sym}_desc *d, const ${sym}_at *at, int64_t taps, ${t} *restrict col) {
  const int L = d->nd - 1;
  const int64_t Q = d->p_ext[L], kd = taps * d->C;
  for (int64_t q = 0; q < Q; q++) {
    for (int64_t tap = 0; tap < taps; tap++) {
      int64_t rest = tap, in = at->in;
      int inside = 1;
      for (int dd = L; dd >= 0 && inside; dd--) {
        const int64_t r = rest % d->r_ext[dd];
        rest /= d->r_ext[dd];
        const int64_t h = d->stride[dd] * (dd == L ? q : at->p[dd]) + d->dil[dd] * r + d->off[dd];
        inside = h >= 0 && h < d->h_ext[dd];
        in += h * d->in_s[dd];
      }
      ${t} *restrict to = col + q * kd + tap * d->C;
      if (inside) for (int64_t c = 0; c < d->C; c++) to[c] = d->in[in + c];
      else for (int64_t c = 0; c < d->C; c++) to[c] = 0;
    }
  }
}

/*
 * SConv's L2 slicing (schedule/conv-slicing.ts) again on the call's own sizes: kc is the plan's clamped to the input
 * channels; mc starts from the whole row of positions and nc from all output channels, and they halve (mc first, down
 * to four register tiles or the plan's mc) until every tap's kc × nc filter block, the mc × nc output block and the
 * input its mc windows read fit the plan's L2 share. The plan sliced representative sizes (a channel block of 128
 * when C is a parameter): a first layer's 3 input channels leave room for far wider blocks. Measured on AVX2, 1
 * thread: 224² 3→64 7×7 stride 2 52 -> 71 GFLOP/s, 56² 64→64 3×3 86 -> 95.
 */
static int64_t ${sym}_block_elems(const ${sym}_desc *d, int64_t taps, int64_t m, int64_t n, int64_t k) {
  const int L = d->nd - 1;
  const int64_t S = d->r_ext[L], windows = (m - 1) * d->stride[L] + (S - 1) * d->dil[L] + 1;
  return taps * k * n + m * n + taps / S * windows * k;
}

static void ${sym}_slice(const ${sym}_desc *d, int64_t taps, int64_t *mc, int64_t *nc, int64_t *kc) {
  const int64_t k = pk_min64(d->kc, d->C);
  int64_t m = pk_round_up(d->p_ext[d->nd - 1], ${MR}), n = pk_round_up(d->K, ${NR});
  while (${sym}_block_elems(d, taps, m, n, k) > d->l2 && m > pk_min64(d->mc, 4 * ${MR}))
    m = pk_max_i64(${MR}, pk_round_up(m / 2, ${MR}));
  while (${sym}_block_elems(d, taps, m, n, k) > d->l2 && n > ${NR}) n = pk_max_i64(${NR}, pk_round_up(n / 2, ${NR}));
  *mc = m, *nc = n, *kc = k;
}

/* Row tap·C + c of im2col's filter matrix, in the given filter: F[tap, c, 0]. */
static inline const ${t} *${sym}_matrix_row(const ${sym}_desc *d, const ${sym}_at *at, int64_t row) {
  return d->flt + at->flt + ${sym}_tap(d, row / d->C) + row % d->C * d->flt_c;
}

/*
 * Rows [pc, pc + kb) of im2col's filter matrix (row tap·C + c), columns [jc, jc + nb), as NR-column panels of kb rows
 * at buf (zero-padded to whole panels): the block one step of im2col's GEMM reads, packed just before, into L2. Its
 * rows, when a block's width of a longer filter row, are too short a run for the hardware prefetchers, so the copy
 * asks for the row ${PACK_AHEAD_ROWS} ahead itself (measured, 7×7 × 512 3×3 on AVX2: 57 -> 63 GFLOP/s); whole rows
 * are long runs (in a dense filter, one run) the prefetchers keep up with, and prefetching them too ran slower.
 */
static void ${sym}_pack_block(const ${sym}_desc *d, const ${sym}_at *at, int64_t pc, int64_t kb, int64_t jc, int64_t nb,
    ${t} *restrict buf) {
  for (int64_t p = 0; p < kb; p++) {
    const ${t} *row = ${sym}_matrix_row(d, at, pc + p) + jc * d->flt_k;
    if (d->flt_k == 1 && p + ${PACK_AHEAD_ROWS} < kb && nb < d->K) {
      const ${t} *ahead = ${sym}_matrix_row(d, at, pc + p + ${PACK_AHEAD_ROWS}) + jc;
      for (int64_t x = 0; x < nb; x += 64 / sizeof(${t})) _mm_prefetch((const char *)(ahead + x), _MM_HINT_T0);
    }
    for (int64_t x0 = 0; x0 < nb; x0 += ${NR})
      ${sym}_panel_row(row + x0 * d->flt_k, d->flt_k, pk_min64(${NR}, nb - x0), buf + x0 * kb + p * ${NR});
  }
}

/*
 * im2col's GEMM blocks for M positions: kc rows of the filter matrix by nc columns (whole panels). The filter block and
 * the M × nc output block take the L2 share the plan gave the direct path's blocks (every tap's filter block and an
 * mc × nc output block), so fewer positions get wider blocks: their packed rows are longer runs to read, and fewer
 * blocks re-walk the same im2col rows. Where the share holds ${WHOLE_ROWS_MIN_KC} rows or more of every output
 * channel, the block takes whole filter rows instead: one sequential run of the filter, which the prefetchers follow,
 * where part rows are short runs a stride apart. Measured on AVX2, 1 thread (median GFLOP/s): 7×7 512→512 3×3 42.7 -> 51.1, 14×14
 * 256→256 60.3 -> 64.4.
 */
static int64_t ${sym}_gemm_kc(const ${sym}_desc *d, int64_t taps) { return pk_even_block(taps * d->C, d->kc, 1); }

static void ${sym}_gemm_blocks(const ${sym}_desc *d, int64_t taps, int64_t M, int64_t *kc, int64_t *nc) {
  int64_t mc0, nc0, kc0;
  ${sym}_slice(d, taps, &mc0, &nc0, &kc0);
  const int64_t share = (taps * kc0 + mc0) * nc0, whole = pk_round_up(d->K, ${NR}), most = ${sym}_gemm_kc(d, taps);
  const int64_t deep = pk_min64(most, share / (whole + M));
  *kc = most;
  *nc = pk_even_block(d->K, pk_max_i64(nc0, share / (kc0 + M) / ${NR} * ${NR}), ${NR});
  if (*nc < whole && deep >= ${WHOLE_ROWS_MIN_KC}) *kc = pk_even_block(taps * d->C, deep, 1), *nc = whole;
}

/*
 * The GEMM of im2col: M positions of col (rows kd = taps·C apart) times the filter (its taps' rows one after another,
 * packed, in place, or packed block by block into buf when buf is not NULL) of the row at, into the output from that
 * row on: output channels [j0, j1).
 */
static void ${sym}_gemm(const ${sym}_desc *d, const ${t} *pf, const ${sym}_at *at, int64_t taps, int64_t M,
    const ${t} *col, ${t} *buf, int64_t j0, int64_t j1) {
  const int64_t ldc = d->out_s[d->nd - 1], kd = taps * d->C;
  int64_t kc, nc;
  ${sym}_gemm_blocks(d, taps, M, &kc, &nc);
  for (int64_t jc = j0; jc < j1; jc += nc) {
    const int64_t nb = pk_min64(nc, j1 - jc);
    for (int64_t pc = 0; pc < kd; pc += kc) {
      const int64_t kb = pk_min64(kc, kd - pc);
      ${sym}_b f = {buf, ${NR}, kb, 1};
      if (buf != NULL) ${sym}_pack_block(d, at, pc, kb, jc, nb, buf);
      else f = ${sym}_filter(d, pf, at, taps, 0, pc, jc);
      ${sym}_tiles(M, nb, kb, col + pc, kd, f, d->out + at->out + jc, ldc);
    }
  }
}

/*
 * Output rows per im2col GEMM: enough for ${IM2COL_POSITIONS} positions (whole images of small feature maps, as im2col + BLAS
 * runs them), within a buffer of ${IM2COL_ELEMENTS} elements, and a GEMM for each of the threads.
 */
static int64_t ${sym}_chunk(const ${sym}_desc *d, int64_t rows, int64_t taps, int threads) {
  const int64_t Q = d->p_ext[d->nd - 1], kd = taps * d->C;
  const int64_t want = (${IM2COL_POSITIONS} + Q - 1) / Q, fits = ${IM2COL_ELEMENTS} / (Q * kd);
  return pk_max_i64(1, pk_min64((rows + threads - 1) / threads, pk_min64(want, fits)));
}

static void ${sym}_member(void *arg, int t, int nt) {
  ${sym}_ctx *x = arg;
  const ${sym}_desc *d = x->d;
  const int64_t group = pk_round_up(d->K, d->channels_first ? ${MR} : ${NR}) * x->taps * d->C;
  if (d->im2col) {
    const int L = d->nd - 1;
    const int64_t Q = d->p_ext[L], kd = x->taps * d->C, ldc = d->out_s[L], per = x->per;
    ${t} *col = pk_scratch(1, per * Q * kd, sizeof(${t}));
    ${t} *buf = x->pack_blocks ? pk_scratch(0, ${sym}_gemm_kc(d, x->taps) * pk_round_up(d->K, ${NR}), sizeof(${t})) : NULL;
    if (col == NULL || (x->pack_blocks && buf == NULL)) {
      __atomic_store_n(&x->failed, 1, __ATOMIC_RELAXED);
      return;
    }
    const int64_t chunks = (x->rows + per - 1) / per;
    int64_t c0 = 0, c1 = chunks, j0 = 0, j1 = d->K;
    if (x->split_channels) pk_share(d->K, ${NR}, t, nt, &j0, &j1);
    else pk_share(chunks, 1, t, nt, &c0, &c1);
    for (int64_t chunk = c0; chunk < c1; chunk++) {
      const int64_t r0 = chunk * per, r1 = pk_min64(x->rows, r0 + per);
      /* One GEMM over rows whose outputs follow each other and share a filter; a gap starts the next one. */
      ${sym}_at first = ${sym}_locate(d, r0, group);
      int64_t n = 0;
      for (int64_t row = r0; row < r1; row++) {
        const ${sym}_at at = ${sym}_locate(d, row, group);
        if (n > 0 && (at.out != first.out + n * Q * ldc || at.flt != first.flt)) {
          ${sym}_gemm(d, x->pf, &first, x->taps, n * Q, col, buf, j0, j1);
          first = at, n = 0;
        }
        ${sym}_im2col(d, &at, x->taps, col + n * Q * kd);
        n++;
      }
      ${sym}_gemm(d, x->pf, &first, x->taps, n * Q, col, buf, j0, j1);
    }
    return;
  }
  /* Direct: the members share (row, block of mc positions) items, so one long row still splits. */
  int64_t mc = d->mc, nc = d->nc, kc = d->kc;
  if (!d->channels_first) ${sym}_slice(d, x->taps, &mc, &nc, &kc);
  const int64_t Q = d->p_ext[d->nd - 1];
  mc = pk_even_block(Q, mc, ${MR}), nc = pk_even_block(d->K, nc, ${NR}), kc = pk_even_block(d->C, kc, 1);
  const int64_t blocks = (Q + mc - 1) / mc;
  int64_t w0, w1;
  pk_share(x->rows * blocks, 1, t, nt, &w0, &w1);
  if (d->channels_first) {
    for (int64_t w = w0; w < w1; w++) {
      const ${sym}_at at = ${sym}_locate(d, w / blocks, group);
      const int64_t ic = w % blocks * mc;
      for (int64_t pc = 0; pc < d->C; pc += kc)
        ${sym}_first(d, x->pf, &at, x->taps, ic, pk_min64(ic + mc, Q), pc, pk_min64(kc, d->C - pc));
    }
  } else if (d->weight_stationary) {
    for (int64_t jc = 0; jc < d->K; jc += nc)
      for (int64_t pc = 0; pc < d->C; pc += kc)
        for (int64_t w = w0; w < w1; w++) {
          const ${sym}_at at = ${sym}_locate(d, w / blocks, group);
          const int64_t ic = w % blocks * mc;
          ${sym}_direct(d, x->pf, &at, x->taps, ic, pk_min64(ic + mc, Q), jc, pk_min64(nc, d->K - jc), pc,
              pk_min64(kc, d->C - pc));
        }
  } else {
    for (int64_t w = w0; w < w1; w++) {
      const ${sym}_at at = ${sym}_locate(d, w / blocks, group);
      const int64_t ic = w % blocks * mc;
      for (int64_t jc = 0; jc < d->K; jc += nc)
        for (int64_t pc = 0; pc < d->C; pc += kc)
          ${sym}_direct(d, x->pf, &at, x->taps, ic, pk_min64(ic + mc, Q), jc, pk_min64(nc, d->K - jc), pc,
              pk_min64(kc, d->C - pc));
    }
  }
}

/* A 1×1 filter over dense, unpadded axes: the last two axes are one, so the call has fewer, longer rows. */
static void ${sym}_collapse(${sym}_desc *d) {
  while (d->nd >= 2) {
    const int L = d->nd - 1, M = L - 1;
    const int dense = d->r_ext[L] == 1 && d->r_ext[M] == 1 && d->stride[L] == 1 && d->stride[M] == 1 &&
        d->off[L] == 0 && d->off[M] == 0 && d->p_ext[L] == d->h_ext[L] && d->p_ext[M] == d->h_ext[M] &&
        d->in_s[M] == d->h_ext[L] * d->in_s[L] && d->out_s[M] == d->p_ext[L] * d->out_s[L];
    if (!dense) return;
    d->p_ext[M] *= d->p_ext[L];
    d->h_ext[M] = d->p_ext[M];
    d->in_s[M] = d->in_s[L];
    d->out_s[M] = d->out_s[L];
    d->nd--;
  }
}

/* O += I ⊛ F for the whole call; PK_NO_MEMORY when a buffer cannot be allocated. */
static int ${sym}_run(const ${sym}_desc *call) {
  ${sym}_desc whole = *call;
  const ${sym}_desc *d = &whole;
  ${sym}_collapse(&whole);
  int64_t rows = 1, taps = 1, groups = 1;
  for (int i = 0; i < d->nb; i++) {
    rows *= d->b_ext[i];
    if (d->b_flt[i] != 0) groups *= d->b_ext[i];
  }
  for (int dd = 0; dd < d->nd; dd++) {
    taps *= d->r_ext[dd];
    if (dd < d->nd - 1) rows *= d->p_ext[dd];
  }
  const int L = d->nd - 1;
  const int64_t Q = d->p_ext[L];
  if (rows <= 0 || Q <= 0 || taps <= 0 || d->K <= 0 || d->C <= 0) return PK_OK;
  if (!whole.im2col && Q < whole.im2col_below) whole.im2col = 1;
  /* Packing the filter pays when enough output positions reuse it; in place, B's rows must be F's (taps, c) rows. */
  int dense = d->flt_s[L] == d->C * d->flt_c;
  for (int dd = 0; dd < L; dd++) dense = dense && d->flt_s[dd] == d->r_ext[dd + 1] * d->flt_s[dd + 1];
  const int in_place = !d->channels_first && d->flt_k == 1 && (dense || !d->im2col) &&
      rows * Q / groups < d->pack_filter_from;
  const double work = (double)rows * (double)Q * (double)d->K * (double)d->C * (double)taps;
  const int threads = pk_threads() > 1 && work >= PK_GEMM_PARALLEL_MIN_WORK ? pk_threads() : 1;
  int64_t per = d->im2col ? ${sym}_chunk(d, rows, taps, threads) : 1;
  int64_t items = d->im2col ? (rows + per - 1) / per : rows * ((Q + ${MR} - 1) / ${MR});
  /*
   * An im2col call with a GEMM or less per thread (a small feature map) whose rows do not split evenly (7 of them:
   * 4 + 3) splits its output channels between the threads instead, in whole panels: each builds every im2col row and
   * packs only its own channels. Measured at 2 threads, 3×3 7×7 × 512: 223 -> 242 GFLOP/s; with 14 even rows of 14×14
   * × 256, splitting channels ran 17% slower (each thread's im2col buffer twice as large, past half of L2).
   */
  const int split_channels = d->im2col && !d->channels_first && threads > 1 && items <= threads &&
      rows % threads != 0 && d->K >= threads * ${NR};
  if (split_channels) per = ${sym}_chunk(d, rows, taps, 1), items = (rows + per - 1) / per;
  const int team = split_channels ? threads : (int)pk_min64(threads, items);
  /*
   * An im2col call of one GEMM per thread reads each filter block once: packed as it goes, the block is in L2 when
   * the microkernel reads it, where packing the whole filter first would write it out and read it back from memory.
   */
  const int pack_blocks = !in_place && d->im2col && !d->channels_first && (split_channels || items <= team);
  ${t} *pf = NULL;
  if (!in_place && !pack_blocks) {
    const int64_t panels = pk_max_i64(pk_round_up(d->K, ${NR}), pk_round_up(d->K, ${MR}));
    if ((pf = pk_scratch(0, groups * panels * taps * d->C, sizeof(${t}))) == NULL) return PK_NO_MEMORY;
    if (d->channels_first) ${sym}_pack_first(d, taps, groups, pf);
    else ${sym}_pack(d, taps, groups, pf);
  }
  ${sym}_ctx x = {d, pf, rows, taps, per, pack_blocks, split_channels, 0};
  if (team > 1) pk_parallel_team(team, ${sym}_member, &x);
  else ${sym}_member(&x, 0, 1);
  return x.failed ? PK_NO_MEMORY : PK_OK;
}
`
}

