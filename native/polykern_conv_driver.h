/*
 * A microkernel's convolution driver (polykern_conv.h describes the paths): the filter's packing, the tile loops,
 * the direct, channels-first and im2col walks, the team member and PK_CONV(run). A template, without an include
 * guard: emit/c-conv-driver.ts includes it once per microkernel, inside that microkernel's ISA region and after its
 * tile functions, having defined
 *   PK_CONV(name)          the driver's symbols: `name` with the microkernel's prefix (## in the definition);
 *   PK_CONV_T              the element type;
 *   PK_CONV_MR, PK_CONV_NR the register tile;
 *   PK_CONV_TILE           the tile function with B packed and A in place (emit/c-microkernel.ts);
 *   PK_CONV_TILE_IN_PLACE  the one with both in place;
 *   PK_CONV_TILE_FIRST     the one with A packed and B in place (channels first);
 *   PK_CONV_PACK_A         the microkernel's pack of A (emit/c-pack.ts);
 *   PK_CONV_LANES, PK_CONV_HEIGHTS, PK_CONV_STEP_CYCLES, PK_CONV_CALL_CYCLES
 *                          its tiles' cost model (pk_tile_costs: lanes per vector, tile heights, cycle tables);
 * or, with PK_CONV_DIRECT_ONLY defined, none of TILE_IN_PLACE, TILE_FIRST and PACK_A: a driver of direct
 * channels-last calls only, the filter always packed (a plan whose im2col calls other drivers run,
 * ConvolutionPlan.im2colMicrokernels). It undefines them at its end.
 */
#include <stdint.h>
#include "polykern_conv.h"
#include "polykern_math.h"
#include "polykern_bound.h"
#include "polykern_scratch.h"
#include "polykern_simd.h"

/*
 * One row of a panel: n filter elements from `from` (flt_k apart), zeros past them to NR. A whole row is a copy of
 * constant size, which gcc inlines as NR/lanes vector moves; written as a loop, gcc made it a call to memmove for
 * every row (unbound 14×14 256→256 3×3, AMD Zen 5, 2 threads: memmove 8% and the pack 12% of the profile).
 */
static inline void PK_CONV(panel_row)(const PK_CONV_T *from, int64_t flt_k, int64_t n, PK_CONV_T *restrict to) {
  if (n == PK_CONV_NR && flt_k == 1)
    __builtin_memcpy(to, from, sizeof(PK_CONV_T) * PK_CONV_NR);
  else
    for (int64_t x = 0; x < PK_CONV_NR; x++) to[x] = x < n ? from[x * flt_k] : 0;
}

/*
 * Output channels [x0, x1) of one filter row (`row` at output channel 0) dealt out to their NR-column panels, which
 * lie `panel` elements apart from `to` (the row's place in the first panel) on; x0 a multiple of NR.
 */
static inline void PK_CONV(deal_row)(const pk_conv_desc *d, const PK_CONV_T *row, int64_t x0, int64_t x1, int64_t panel,
                                     PK_CONV_T *restrict to) {
  for (int64_t x = x0; x < x1; x += PK_CONV_NR)
    PK_CONV(panel_row)(row + x * d->flt_k, d->flt_k, pk_min64(PK_CONV_NR, d->K - x), to + x * panel);
}

/*
 * Every group's filter as NR-column panels of taps·C rows, zero-padded past K. Each (tap, c) row of the filter is
 * read once, along its output channels, and dealt out to the panels: reading a panel's NR columns down all rows
 * instead leaves the prefetchers a short stream per row (measured: 3×3 convolutions of 14×14 × 256 and 7×7 × 512
 * maps ran 12% and 28% slower that way, the filter being most of what they read).
 */
static void PK_CONV(pack)(const pk_conv_desc *d, int64_t taps, int64_t r0, int64_t r1, PK_CONV_T *restrict pf) {
  const PK_CONV_T *flt = d->flt;
  const int64_t kd = taps * d->C, kp = pk_round_up(d->K, PK_CONV_NR);
  /* Rows [r0, r1) of the groups' (tap, c) rows, numbered group by group: a team member's share of them. The tap's
     first row is located once per tap (and at the share's start), its channels' rows from it. */
  const PK_CONV_T *f = flt;
  for (int64_t at = r0; at < r1; at++) {
    const int64_t g = at / kd, tap = at % kd / d->C, c = at % d->C;
    if (c == 0 || at == r0) f = flt + pk_conv_group(d, g) + pk_conv_tap(d, tap);
    PK_CONV(deal_row)(d, f + c * d->flt_c, 0, kp, kd, pf + g * kp * kd + (tap * d->C + c) * PK_CONV_NR);
  }
}

/*
 * Output channels [jc, jc + nb) of input channels [pc, pc + kb) of every tap, where PK_CONV(pack) puts them (a call of
 * one group): the block a weight-stationary member runs its rows over, packed by the member into its own copy just
 * before, while it is in L2.
 */
static void PK_CONV(pack_block_of_taps)(const pk_conv_desc *d, int64_t taps, int64_t jc, int64_t nb, int64_t pc,
                                        int64_t kb, PK_CONV_T *restrict pf) {
  const PK_CONV_T *flt = d->flt;
  const int64_t kd = taps * d->C;
  for (int64_t tap = 0; tap < taps; tap++) {
    const PK_CONV_T *f = flt + pk_conv_tap(d, tap);
    for (int64_t c = pc; c < pc + kb; c++)
      PK_CONV(deal_row)(d, f + c * d->flt_c, jc, jc + nb, kd, pf + (tap * d->C + c) * PK_CONV_NR);
  }
}

/*
 * The filter as the microkernel's B from some row on: packed (k row p of the panel holding column j at
 * b + j·panel + p·row, panel = taps·C, row = NR) or read in place (at b + j + p·row, row = F's channel stride).
 */
typedef struct {
  const PK_CONV_T *b;
  int64_t row, panel;
  int packed;
} PK_CONV(b);

/* Tap t's rows from input channel pc on, output channels from jc on; pf NULL: the filter in place. */
static PK_CONV(b) PK_CONV(filter)(const pk_conv_desc *d, const PK_CONV_T *pf, const pk_conv_at *at, int64_t taps,
                                  int64_t t, int64_t pc, int64_t jc) {
  if (pf != NULL) {
    const PK_CONV(b) v = {pf + at->pf + jc * taps * d->C + (t * d->C + pc) * PK_CONV_NR, PK_CONV_NR, taps * d->C, 1};
    return v;
  }
  const PK_CONV_T *flt = d->flt;
  const PK_CONV(b) v = {flt + at->flt + pk_conv_tap(d, t) + pc * d->flt_c + jc, d->flt_c, 1, 0};
  return v;
}

/* Zeroes output positions [q0, q1) of the row at (along the last axis) and output channels [k0, k1). */
static void PK_CONV(zero)(const pk_conv_desc *d, const pk_conv_at *at, int64_t q0, int64_t q1, int64_t k0, int64_t k1) {
  PK_CONV_T *o = (PK_CONV_T *)d->out + at->out;
  const int64_t ldq = d->out_s[d->nd - 1];
  if (q1 <= q0 || k1 <= k0) return;
  if (d->out_k == 1)
    for (int64_t q = q0; q < q1; q++) memset(o + q * ldq + k0, 0, (size_t)(k1 - k0) * sizeof(PK_CONV_T));
  else if (ldq == 1)
    for (int64_t k = k0; k < k1; k++) memset(o + k * d->out_k + q0, 0, (size_t)(q1 - q0) * sizeof(PK_CONV_T));
  else
    for (int64_t q = q0; q < q1; q++)
      for (int64_t k = k0; k < k1; k++) o[q * ldq + k * d->out_k] = 0;
}

/* The whole output zeroed: a call with nothing to sum (no taps or input channels) when zero_out is set. */
static void PK_CONV(zero_all)(const pk_conv_desc *d) {
  if (!d->zero_out) return;
  const int64_t rows = pk_conv_rows(d);
  for (int64_t row = 0; row < rows; row++) {
    const pk_conv_at at = pk_conv_locate(d, row, 0);
    PK_CONV(zero)(d, &at, 0, d->p_ext[d->nd - 1], 0, d->K);
  }
}

/* The tile family that applies the epilogue in registers (pk_conv_desc's final): PK_CONV_TILE's, with its context and
   the tile's first output position (unread: a convolution's epilogue reads nothing per position) and channel. */
typedef void (*PK_CONV(final_fn))(int64_t kb, int64_t groups, int64_t ga, const PK_CONV_T *a, int64_t lda,
                                  const PK_CONV_T *b, int64_t ldb, PK_CONV_T *c, int64_t ldc, int64_t rows, int64_t cols,
                                  int store, const void *ctx, int64_t i0, int64_t j0);

/*
 * The microkernel over rows output positions (A rows lda apart) and nb output channels, k in `groups` runs of kb
 * filter rows one after another, A's rows moving on by ga between runs (a convolution's rows of taps); store: C = the
 * sums. fin: these tiles sum their outputs whole, and fin's tiles apply its epilogue (the filter packed), the first of
 * the nb channels being output channel j0.
 */
static void PK_CONV(tiles)(int64_t rows, int64_t nb, int64_t kb, int64_t groups, int64_t ga, const PK_CONV_T *a,
                           int64_t lda, PK_CONV(b) f, PK_CONV_T *c, int64_t ldc, int store, const pk_conv_desc *fin,
                           int64_t j0) {
  for (int64_t jr = 0; jr < nb; jr += PK_CONV_NR)
    for (int64_t ir = 0; ir < rows; ir += PK_CONV_MR) {
      const int64_t m = pk_min64(PK_CONV_MR, rows - ir), n = pk_min64(PK_CONV_NR, nb - jr);
      if (fin != NULL) {
        ((PK_CONV(final_fn))fin->final)(kb, groups, ga, a + ir * lda, lda, f.b + jr * f.panel, 0, c + ir * ldc + jr,
                                        ldc, m, n, store, fin->final_ctx, ir, j0 + jr);
        continue;
      }
#ifdef PK_CONV_DIRECT_ONLY
      PK_CONV_TILE(kb, groups, ga, a + ir * lda, lda, f.b + jr * f.panel, 0, c + ir * ldc + jr, ldc, m, n, store);
#else
      if (f.packed)
        PK_CONV_TILE(kb, groups, ga, a + ir * lda, lda, f.b + jr * f.panel, 0, c + ir * ldc + jr, ldc, m, n, store);
      else
        for (int64_t g = 0; g < groups; g++)
          PK_CONV_TILE_IN_PLACE(kb, a + ir * lda + g * ga, lda, f.b + jr + g * kb * f.row, f.row, c + ir * ldc + jr,
                                ldc, m, n, store && g == 0);
#endif
    }
}

/*
 * Whether the tiles of positions [from, to) of the block [ic, ie) × [jc, jc + nb) store their sums: when the block
 * holds nothing of this call yet (*fresh), they do, and the rest of the block is zeroed first, in place of zeroing it
 * all before the sums (a 1×1 convolution of 56×56 × 64 -> 256 spent 16% of its time zeroing its output).
 */
static int PK_CONV(first_sums)(const pk_conv_desc *d, const pk_conv_at *at, int *fresh, int64_t ic, int64_t ie,
                               int64_t from, int64_t to, int64_t jc, int64_t nb) {
  if (!*fresh) return 0;
  *fresh = 0;
  PK_CONV(zero)(d, at, ic, from, jc, jc + nb);
  PK_CONV(zero)(d, at, to, ie, jc, jc + nb);
  return 1;
}

/* Where a tap's segment [from, to) of positions leaves whole register tiles: what follows goes to PK_CONV(columns). */
static inline int64_t PK_CONV(column_start)(int64_t from, int64_t to) {
  return to > from ? from + (to - from) / PK_CONV_MR * PK_CONV_MR : to;
}

/* Tap sw's positions among [ic, ie) whose input it reaches, cut around the fused ones [flo, fhi): cut[0] before
   them, cut[1] after. */
static inline void PK_CONV(tap_cut)(const pk_conv_desc *d, int64_t sw, int64_t ic, int64_t ie, int64_t flo,
                                    int64_t fhi, int64_t cut[2][2]) {
  const int L = d->nd - 1;
  int64_t lo = ic, hi = ie;
  pk_conv_inside(d, d->dil[L] * sw + d->off[L], &lo, &hi);
  cut[0][0] = lo, cut[0][1] = pk_min64(hi, flo), cut[1][0] = pk_max_i64(lo, fhi), cut[1][1] = hi;
}

/*
 * Tap row ot of the block (its input row at `in`), tap by tap along the last axis, on the positions outside the fused
 * ones [flo, fhi): each tap over the positions whose input it reaches; with defer, only its whole register tiles, the
 * rest left to PK_CONV(columns).
 */
static void PK_CONV(sides)(const pk_conv_desc *d, const PK_CONV_T *pf, const pk_conv_at *at, int64_t taps, int64_t ot,
                           int64_t in, int64_t ic, int64_t ie, int64_t flo, int64_t fhi, int64_t jc, int64_t nb,
                           int64_t pc, int64_t kb, int *fresh, int defer) {
  const int L = d->nd - 1;
  const int64_t S = d->r_ext[L], lda = d->stride[L] * d->in_s[L], ldc = d->out_s[L];
  PK_CONV_T *c = (PK_CONV_T *)d->out + at->out + jc;
  for (int64_t sw = 0; sw < S; sw++) {
    const PK_CONV_T *a = (const PK_CONV_T *)d->in + in + (d->dil[L] * sw + d->off[L]) * d->in_s[L] + pc;
    const PK_CONV(b) f = PK_CONV(filter)(d, pf, at, taps, ot * S + sw, pc, jc);
    int64_t cut[2][2];
    PK_CONV(tap_cut)(d, sw, ic, ie, flo, fhi, cut);
    for (int side = 0; side < 2; side++) {
      const int64_t from = cut[side][0], to = defer ? PK_CONV(column_start)(from, cut[side][1]) : cut[side][1];
      if (to > from)
        PK_CONV(tiles)(to - from, nb, kb, 1, 0, a + from * lda, lda, f, c + from * ldc, ldc,
                       PK_CONV(first_sums)(d, at, fresh, ic, ie, from, to, jc, nb), NULL, 0);
    }
  }
}

/*
 * Positions [q0, q1) of `rows` rows of taps (the first's input row at `in`, the next ga apart), channels last and
 * dilation 1: each row's run of pixels their windows cover along the last axis, w = stride·(q1 - q0 - 1) + S of them,
 * copied into win (rows w·C apart), zeros for the pixels outside the input. Returns w.
 */
static int64_t PK_CONV(windows)(const pk_conv_desc *d, int64_t in, int64_t rows, int64_t ga, int64_t q0, int64_t q1,
                                PK_CONV_T *restrict win) {
  const int L = d->nd - 1;
  const PK_CONV_T *input = d->in;
  const int64_t x0 = d->stride[L] * q0 + d->off[L], w = d->stride[L] * (q1 - q0 - 1) + d->r_ext[L], C = d->C;
  /* Pixels [lo, hi) of the run are inside the input, one contiguous run of it (pixels C apart): one copy, not one a
     pixel (a first layer's 3 channels made that 12 bytes a call, 5% of 224² 7×7/2's time with the zeros). */
  const int64_t lo = pk_min64(w, pk_max_i64(0, -x0)), hi = pk_max_i64(lo, pk_min64(w, d->h_ext[L] - x0));
  for (int64_t g = 0; g < rows; g++) {
    PK_CONV_T *to = win + g * w * C;
    memset(to, 0, (size_t)(lo * C) * sizeof(PK_CONV_T));
    if (hi > lo) memcpy(to + lo * C, input + in + g * ga + (x0 + lo) * C, (size_t)((hi - lo) * C) * sizeof(PK_CONV_T));
    memset(to + hi * C, 0, (size_t)((w - hi) * C) * sizeof(PK_CONV_T));
  }
  return w;
}

/* How PK_CONV(direct) runs the positions [ic, ie) of a row (split_of; columns: the caller runs PK_CONV(columns) on
   them after, so no window copies). */
typedef struct {
  /* The positions whose taps all run fused (their whole window row inside the input); empty: every tap apart. */
  int64_t flo, fhi;
  /* In place [mlo, mhi): the fused positions but those the end blocks [ic, mlo) and [mhi, ie) take in whole tiles
     on window copies (copies); without copies, the ends [ic, flo) and [fhi, ie) run tap by tap or in columns. */
  int64_t mlo, mhi;
  int copies;
} PK_CONV(split);

static PK_CONV(split) PK_CONV(split_of)(const pk_conv_desc *d, const PK_CONV_T *pf, int64_t taps, int64_t ic,
                                         int64_t ie, int64_t kb, int columns) {
  const int L = d->nd - 1;
  const int64_t S = d->r_ext[L];
  PK_CONV(split) sp = {ic, ic, ic, ic, 0};
  /* In place, the taps' rows must follow each other in F too. A single tap along the last axis is a run of one. */
  if (!(S == 1 || pk_conv_taps_adjacent(d)) || kb != d->C || (pf == NULL && d->flt_s[L] != d->C * d->flt_c)) return sp;
  int64_t lo = ic, hi = ie, lo_last = ic, hi_last = ie;
  pk_conv_inside(d, d->off[L], &lo, &hi);
  pk_conv_inside(d, S - 1 + d->off[L], &lo_last, &hi_last);
  const int64_t flo = pk_max_i64(lo, lo_last), fhi = pk_min64(hi, hi_last);
  if (fhi <= flo) return sp;
  const int64_t mlo = pk_min64(fhi, ic + pk_round_up(flo - ic, PK_CONV_MR));
  const int64_t mhi = fhi < ie ? mlo + (fhi - mlo) / PK_CONV_MR * PK_CONV_MR : fhi;
  const int64_t tiles_copied = (mlo - ic + PK_CONV_MR - 1) / PK_CONV_MR + (mhi - mlo) / PK_CONV_MR +
                               (ie - mhi + PK_CONV_MR - 1) / PK_CONV_MR;
  sp.flo = flo, sp.fhi = fhi, sp.mlo = mlo, sp.mhi = mhi;
  sp.copies = !columns && pk_max_i64(mlo - ic, ie - mhi) > 0 &&
              tiles_copied <= (fhi - flo + PK_CONV_MR - 1) / PK_CONV_MR && pk_conv_fuses_channels(d, taps, PK_CONV_MR);
  return sp;
}

/*
 * How many rows of taps from ot on (its input row at `in`, inside the input) the fused positions run in one call, the
 * filter packed (its rows of taps one after another): while their input rows lie a constant stride apart, *ga.
 */
static int64_t PK_CONV(tap_run)(const pk_conv_desc *d, const PK_CONV_T *pf, const pk_conv_at *at, int64_t taps,
                                int64_t ot, int64_t in, int64_t *ga) {
  const int64_t outer = taps / d->r_ext[d->nd - 1];
  int64_t rows = 1, next;
  *ga = 0;
  while (pf != NULL && ot + rows < outer && pk_conv_outer(d, at, ot + rows, &next) &&
         (rows == 1 ? (*ga = next - in, 1) : next == in + rows * *ga))
    rows++;
  return rows;
}

/* The buffer of the window copies of `rows` rows of taps at the ends of positions [ic, ie) split as sp (copies). */
static PK_CONV_T *PK_CONV(window_buffer)(const pk_conv_desc *d, const PK_CONV(split) *sp, int64_t rows, int64_t ic,
                                         int64_t ie) {
  const int L = d->nd - 1;
  const int64_t widest = pk_max_i64(sp->mlo - ic, ie - sp->mhi);
  return pk_scratch(1, rows * (d->stride[L] * (widest - 1) + d->r_ext[L]) * d->C, sizeof(PK_CONV_T));
}

/*
 * The positions [*lo, *hi) among [ic, ie) of the row at whose outputs PK_CONV(direct), input channels in blocks of
 * kc, sums whole in one tile call, so that its tiles can apply the epilogue in registers (d->final); empty but with
 * one block of every channel, the filter packed and the taps that reach the input one run of rows
 * (PK_CONV(tap_run)): the fused positions (with columns, their whole register tiles), and with window copies whose
 * buffer is in hand (asked for here: the same size again in direct returns it) the ends too. Their outputs are then
 * written once, not summed, stored and read back by the epilogue; the ends without copies sum tap by tap
 * (PK_CONV(sides), PK_CONV(columns)).
 */
static void PK_CONV(sums_whole)(const pk_conv_desc *d, const PK_CONV_T *pf, const pk_conv_at *at, int64_t taps,
                                int64_t ic, int64_t ie, int64_t kc, int columns, int64_t *lo, int64_t *hi) {
  *lo = *hi = ic;
  if (d->final == NULL || pf == NULL || kc < d->C) return;
  const PK_CONV(split) sp = PK_CONV(split_of)(d, pf, taps, ic, ie, d->C, columns);
  if (sp.fhi <= sp.flo) return;
  const int64_t outer = taps / d->r_ext[d->nd - 1];
  int64_t ot = 0, in = 0, ga;
  while (ot < outer && !pk_conv_outer(d, at, ot, &in)) ot++;
  if (ot == outer) return;
  const int64_t rows = PK_CONV(tap_run)(d, pf, at, taps, ot, in, &ga);
  for (int64_t later = ot + rows, skipped; later < outer; later++)
    if (pk_conv_outer(d, at, later, &skipped)) return;
  const int copies = sp.copies && PK_CONV(window_buffer)(d, &sp, rows, ic, ie) != NULL;
  *lo = copies ? ic : sp.flo, *hi = copies ? ie : columns ? PK_CONV(column_start)(sp.flo, sp.fhi) : sp.fhi;
}

/*
 * Whether tap sw of a row split as sp (one block of the whole row, Q positions) leaves position q to
 * PK_CONV(columns): q reads inside the input through it, and neither the fused positions' in-place register tiles
 * nor the whole register tiles PK_CONV(sides) runs on the tap's segments take it.
 */
static int PK_CONV(left_to_column)(const pk_conv_desc *d, const PK_CONV(split) *sp, int64_t Q, int64_t sw, int64_t q) {
  int64_t cut[2][2];
  PK_CONV(tap_cut)(d, sw, 0, Q, sp->flo, sp->fhi, cut);
  if (q < cut[0][0] || q >= cut[1][1]) return 0;
  if (q >= sp->flo && q < sp->fhi) return q >= PK_CONV(column_start)(sp->flo, sp->fhi);
  const int side = q >= sp->fhi;
  return q >= PK_CONV(column_start)(cut[side][0], cut[side][1]);
}

/*
 * The positions of a row split as sp that some tap may leave to PK_CONV(columns): spans[0] before the fused ones,
 * spans[1] from the first that a tap leaves after their start.
 */
static void PK_CONV(column_spans)(const pk_conv_desc *d, const PK_CONV(split) *sp, int64_t Q, int64_t spans[2][2]) {
  const int L = d->nd - 1;
  int64_t left = sp->flo, right = sp->fhi > sp->flo ? PK_CONV(column_start)(sp->flo, sp->fhi) : Q;
  for (int64_t sw = 0; sw < d->r_ext[L]; sw++) {
    int64_t cut[2][2];
    PK_CONV(tap_cut)(d, sw, 0, Q, sp->flo, sp->fhi, cut);
    left = pk_min64(left, PK_CONV(column_start)(cut[0][0], cut[0][1]));
    right = pk_min64(right, PK_CONV(column_start)(cut[1][0], cut[1][1]));
  }
  spans[0][0] = left, spans[0][1] = sp->flo, spans[1][0] = pk_max_i64(right, sp->flo), spans[1][1] = Q;
}

/* The taps [s0, *s1) from s0 on that position q runs in one column call: those it is left (one where taps do not
   fuse: sp has no fused positions). 0 if q is not left tap s0. */
static int PK_CONV(column_taps)(const pk_conv_desc *d, const PK_CONV(split) *sp, int64_t Q, int64_t q, int64_t s0,
                                int64_t *s1) {
  *s1 = s0 + 1;
  if (!PK_CONV(left_to_column)(d, sp, Q, s0, q)) return 0;
  while (sp->fhi > sp->flo && *s1 < d->r_ext[d->nd - 1] && PK_CONV(left_to_column)(d, sp, Q, *s1, q)) ++*s1;
  return 1;
}

/*
 * The positions of the `count` rows at `at` (at most MR, whole rows, split as `sp` with columns) that PK_CONV(direct)
 * left to a column: those past the fused positions' whole register tiles, and for each tap those past the whole
 * register tiles PK_CONV(sides) ran on its segments. Each runs down the rows at once as one tile whose A rows are
 * the rows' windows, an input row apart, a row of taps at a time. Row by row they were tiles of one or two rows,
 * load-bound: 14×14 256→256 3×3 has 13 or 14 positions a tap, 6 + 6 + 1 or 2 (bound, 1 thread, one process
 * alternating the builds: AVX2 1.09× faster, AVX-512 1.00×; 56×56 64→64, whose row ends ran so, AVX2 1.02×, AVX-512
 * 1.03× at 1 and 2 threads; Intel). Where the taps along the last axis fuse, a position's taps that read inside the
 * input run as one k loop, so that the row's ends skip the padding in tiles as tall as the middle's.
 */
static void PK_CONV(columns)(const pk_conv_desc *d, const PK_CONV_T *pf, int64_t taps, const PK_CONV(split) *sp,
                             const pk_conv_at *at, int64_t count, int64_t jc, int64_t nb, int64_t pc, int64_t kb) {
  const int L = d->nd - 1;
  const int64_t S = d->r_ext[L], Q = d->p_ext[L], ldq = d->out_s[L];
  const PK_CONV_T *input = d->in;
  PK_CONV_T *output = d->out;
  int64_t spans[2][2];
  PK_CONV(column_spans)(d, sp, Q, spans);
  for (int64_t ot = 0; ot < taps / S; ot++)
    for (int side = 0; side < 2; side++)
      for (int64_t q = spans[side][0]; q < spans[side][1]; q++)
        for (int64_t s0 = 0, s1; s0 < S; s0 = s1) {
          if (!PK_CONV(column_taps)(d, sp, Q, q, s0, &s1)) continue;
          const int64_t base = d->dil[L] * s0 + d->off[L];
          /* Runs of the rows that reach this row of taps, an equal step apart in input and output, of one filter. */
          int64_t n = 0, f = 0, a0 = 0, lda = 0, ldc = 0;
          for (int64_t i = 0; i <= count; i++) {
            int64_t in = 0;
            const int ok = i < count && pk_conv_outer(d, &at[i], ot, &in);
            if (ok && n > 0 && at[i].pf == at[f].pf && at[i].flt == at[f].flt) {
              const int64_t da = in - a0, dc = at[i].out - at[f].out;
              if (n == 1) lda = da, ldc = dc;
              if (da == n * lda && dc == n * ldc) {
                n++;
                continue;
              }
            }
            if (n > 0)
              PK_CONV(tiles)(n, nb, (s1 - s0) * kb, 1, 0, input + a0 + (base + d->stride[L] * q) * d->in_s[L] + pc,
                             lda, PK_CONV(filter)(d, pf, &at[f], taps, ot * S + s0, pc, jc),
                             output + at[f].out + q * ldq + jc, ldc, 0, NULL, 0);
            n = ok, f = i, a0 = in;
          }
        }
}

/*
 * Whether a row of every tap, split as `copies` (with window copies) or as `columns` (without), runs in at least
 * PK_CONV_COLUMNS_GAIN fewer modelled cycles with columns: the fused positions' whole tiles in place, the rest down MR
 * rows, each position's taps inside the input in one k loop a row of taps, against the copies' tiles along the row,
 * which run the padding's taps on zeros. The model prices a call's C tile but not the driver's walk to it nor the
 * tile function's entry, which columns pay a row of taps at a time: 224×224 3→64 7×7 stride 2, modelled alike both
 * ways (column calls of 12 to 21 k steps), ran 5% slower with columns. Measured on 6 × 64 (AMD Zen 5, bound, one
 * process alternating, 1 / 2 threads), columns against copies: 28×28 128→128 3×3 (modelled 2.3% cheaper) 1.04x /
 * 1.03x, 28×28 64→64 (2.1%) 1.02x / 1.01x.
 */
#define PK_CONV_COLUMNS_GAIN 0.01
static int PK_CONV(columns_pay)(const pk_conv_desc *d, int64_t taps, const PK_CONV(split) *copies,
                                const PK_CONV(split) *columns) {
  static const int64_t heights[] = PK_CONV_HEIGHTS;
  static const double step[] = PK_CONV_STEP_CYCLES, call[] = PK_CONV_CALL_CYCLES;
  static const pk_tile_costs costs = {PK_CONV_MR, PK_CONV_NR, PK_CONV_LANES, sizeof heights / sizeof heights[0], heights,
                                      step, call};
  const int L = d->nd - 1;
  const int64_t S = d->r_ext[L], Q = d->p_ext[L], T = taps / S, K = d->K, fused = taps * d->C;
  const double with_copies = pk_tile_cycles(&costs, copies->mlo, K, fused) +
                             pk_tile_cycles(&costs, copies->mhi - copies->mlo, K, fused) +
                             pk_tile_cycles(&costs, Q - copies->mhi, K, fused);
  const int64_t in_place = PK_CONV(column_start)(columns->flo, columns->fhi) - columns->flo;
  double with_columns = pk_tile_cycles(&costs, in_place, K, fused);
  /* PK_CONV(sides)' whole tiles, tap by tap. */
  for (int64_t sw = 0; sw < S; sw++) {
    int64_t cut[2][2];
    PK_CONV(tap_cut)(d, sw, 0, Q, columns->flo, columns->fhi, cut);
    for (int side = 0; side < 2; side++) {
      const int64_t whole = PK_CONV(column_start)(cut[side][0], cut[side][1]) - cut[side][0];
      if (whole > 0) with_columns += (double)T * pk_tile_cycles(&costs, whole, K, d->C);
    }
  }
  int64_t spans[2][2];
  PK_CONV(column_spans)(d, columns, Q, spans);
  for (int side = 0; side < 2; side++)
    for (int64_t q = spans[side][0]; q < spans[side][1]; q++)
      for (int64_t s0 = 0, s1; s0 < S; s0 = s1)
        if (PK_CONV(column_taps)(d, columns, Q, q, s0, &s1))
          with_columns += (double)T * pk_tile_cycles(&costs, PK_CONV_MR, K, (s1 - s0) * d->C) / PK_CONV_MR;
  return with_columns < (1 - PK_CONV_COLUMNS_GAIN) * with_copies;
}

/*
 * Output positions [ic, ie), output channels [jc, jc + nb) and input channels [pc, pc + kb) of one row, every tap,
 * the input read in place; fresh: the block holds nothing yet and is to start from zero (PK_CONV(first_sums)). When a
 * window's taps along the last axis are adjacent in memory (dilation 1, pixels C apart) and the block holds every
 * channel, the positions whose whole window row is inside run those taps as one k loop of S·C, and consecutive rows
 * of taps as runs of one call. The positions at the row's ends, whose windows reach into the padding, run the same
 * way on a copy of their windows with zeros for the padding (PK_CONV(windows)), in whole tiles with the first and
 * last in-place ones; tap by tap (PK_CONV(sides)) they were single-row tiles, load-bound, and cost 28×28 128→128 3×3
 * a tenth of its time (Intel AVX-512, 1 thread). Where the copies would add a register tile to the row (56 positions
 * on 6-row tiles: 1 + 8 + 1 tiles against 9 in place; 0.97x on AVX2 that way), where they would crowd L1
 * (pk_conv_fuses_channels: 14×14 × 256 on AVX2, whose plan takes every channel, ran 10% slower with them), without
 * the copy's buffer, and where no position's whole window row is inside, they run tap by tap. With defer (the caller
 * runs MR whole rows, then PK_CONV(columns) on them) there are no copies, and the fused positions in place and each
 * tap's run tap by tap take only their whole register tiles. The tiles of the positions [wlo, whi) apply the
 * epilogue (PK_CONV(sums_whole)).
 */
static void PK_CONV(direct)(const pk_conv_desc *d, const PK_CONV_T *pf, const pk_conv_at *at, int64_t taps,
                            int64_t ic, int64_t ie, int64_t jc, int64_t nb, int64_t pc, int64_t kb, int fresh,
                            int defer, int64_t wlo, int64_t whi) {
  const PK_CONV_T *input = d->in;
  PK_CONV_T *output = d->out;
  const int L = d->nd - 1;
  const int64_t s = d->stride[L], S = d->r_ext[L], lda = s * d->in_s[L], ldc = d->out_s[L];
  PK_CONV_T *c = output + at->out + jc;
  const PK_CONV(split) sp = PK_CONV(split_of)(d, pf, taps, ic, ie, kb, defer);
  const int64_t flo = sp.flo, fhi = sp.fhi, mlo = sp.mlo, mhi = sp.mhi;
  for (int64_t ot = 0; ot < taps / S; ot++) {
    int64_t in;
    if (!pk_conv_outer(d, at, ot, &in)) continue;
    if (fhi > flo) {
      /* This row of taps and the next ones in one call (PK_CONV(tap_run)): the output tile is loaded and stored once
         for all of them (7×7 taps over 3 channels: one k loop of 147 steps, not seven of 21). */
      int64_t ga;
      const int64_t rows = PK_CONV(tap_run)(d, pf, at, taps, ot, in, &ga);
      const PK_CONV(b) f = PK_CONV(filter)(d, pf, at, taps, ot * S, 0, jc);
      /* Where the tiles apply the epilogue, copies as PK_CONV(sums_whole) found them (their buffer is held). */
      const int copies = sp.copies && (whi <= wlo || (wlo == ic && whi == ie));
      PK_CONV_T *win = copies ? PK_CONV(window_buffer)(d, &sp, rows, ic, ie) : NULL;
      const int64_t from = win != NULL ? mlo : flo;
      const int64_t to = win != NULL ? mhi : defer ? PK_CONV(column_start)(flo, fhi) : fhi;
      if (to > from)
        PK_CONV(tiles)(to - from, nb, S * d->C, rows, ga, input + in + (s * from + d->off[L]) * d->in_s[L], lda, f,
                       c + from * ldc, ldc, PK_CONV(first_sums)(d, at, &fresh, ic, ie, from, to, jc, nb),
                       from >= wlo && to <= whi ? d : NULL, jc);
      const int64_t ends[2][2] = {{ic, mlo}, {mhi, ie}};
      for (int e = 0; e < 2 && win != NULL; e++) {
        const int64_t q0 = ends[e][0], q1 = ends[e][1];
        if (q1 <= q0) continue;
        const int64_t w = PK_CONV(windows)(d, in, rows, ga, q0, q1, win);
        PK_CONV(tiles)(q1 - q0, nb, S * d->C, rows, w * d->C, win, lda, f, c + q0 * ldc, ldc,
                       PK_CONV(first_sums)(d, at, &fresh, ic, ie, q0, q1, jc, nb), q0 >= wlo && q1 <= whi ? d : NULL, jc);
      }
      /* Row g's input is in + g·ga: the run was cut where that stopped holding. */
      for (int64_t g = 0; g < rows && win == NULL; g++)
        PK_CONV(sides)(d, pf, at, taps, ot + g, in + g * ga, ic, ie, flo, fhi, jc, nb, pc, kb, &fresh, defer);
      ot += rows - 1;
      continue;
    }
    PK_CONV(sides)(d, pf, at, taps, ot, in, ic, ie, flo, fhi, jc, nb, pc, kb, &fresh, defer);
  }
  /* No tap reached the block (all in the padding). */
  if (fresh) PK_CONV(zero)(d, at, ic, ie, jc, jc + nb);
}

#ifndef PK_CONV_DIRECT_ONLY
/*
 * Channels first (NCHW): output channels [k0, k1) are the microkernel's rows (A: the tap's filter, packed in MR-row
 * panels; k0 a multiple of MR), output positions [ic, ie) along the last axis its columns (B: input rows read in
 * place, one input channel per row of B, unit stride), input channels [pc, pc + kb) its k loop; padding as in the
 * channels-last path.
 */
static void PK_CONV(first)(const pk_conv_desc *d, const PK_CONV_T *pf, const pk_conv_at *at, int64_t taps,
                           int64_t ic, int64_t ie, int64_t pc, int64_t kb, int64_t k0, int64_t k1) {
  const PK_CONV_T *input = d->in;
  PK_CONV_T *output = d->out;
  const int L = d->nd - 1;
  const int64_t S = d->r_ext[L], ldc = d->out_k, kp = pk_round_up(d->K, PK_CONV_MR);
  for (int64_t ot = 0; ot < taps / S; ot++) {
    int64_t in;
    if (!pk_conv_outer(d, at, ot, &in)) continue;
    for (int64_t sw = 0; sw < S; sw++) {
      const int64_t base = d->dil[L] * sw + d->off[L];
      int64_t lo = ic, hi = ie;
      pk_conv_inside(d, base, &lo, &hi);
      if (hi <= lo) continue;
      const PK_CONV_T *a = pf + at->pf + (ot * S + sw) * kp * d->C + pc * PK_CONV_MR;
      const PK_CONV_T *b = input + in + base + lo + pc * d->in_c;
      PK_CONV_T *c = output + at->out + lo;
      for (int64_t jr = 0; jr < hi - lo; jr += PK_CONV_NR)
        for (int64_t ir = k0; ir < k1; ir += PK_CONV_MR)
          PK_CONV_TILE_FIRST(kb, a + ir * d->C, 0, b + jr, d->in_c, c + ir * ldc + jr, ldc,
                             pk_min64(PK_CONV_MR, k1 - ir), pk_min64(PK_CONV_NR, hi - lo - jr), 0);
    }
  }
}

/* Channels first: every group's filter, tap after tap, as MR-row panels of output channels over C. */
static void PK_CONV(pack_first)(const pk_conv_desc *d, int64_t taps, int64_t r0, int64_t r1, PK_CONV_T *restrict pf) {
  const PK_CONV_T *flt = d->flt;
  const int64_t kp = pk_round_up(d->K, PK_CONV_MR);
  /* Blocks [r0, r1) of the groups' taps, numbered group by group: a team member's share of them. */
  for (int64_t at = r0; at < r1; at++) {
    const int64_t g = at / taps, tap = at % taps;
    PK_CONV_PACK_A(d->K, d->C, flt + pk_conv_group(d, g) + pk_conv_tap(d, tap), d->flt_k, d->flt_c, pf + at * kp * d->C);
  }
}

/* One row's windows into col (Q × taps·C, zeros outside the input): im2col. */
static void PK_CONV(im2col)(const pk_conv_desc *d, const pk_conv_at *at, int64_t taps, PK_CONV_T *restrict col) {
  const PK_CONV_T *input = d->in;
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
      PK_CONV_T *restrict to = col + q * kd + tap * d->C;
      if (inside) for (int64_t c = 0; c < d->C; c++) to[c] = input[in + c];
      else for (int64_t c = 0; c < d->C; c++) to[c] = 0;
    }
  }
}

/* Row tap·C + c of im2col's filter matrix, in the given filter: F[tap, c, 0]. */
static inline const PK_CONV_T *PK_CONV(matrix_row)(const pk_conv_desc *d, const pk_conv_at *at, int64_t row) {
  const PK_CONV_T *flt = d->flt;
  return flt + at->flt + pk_conv_tap(d, row / d->C) + row % d->C * d->flt_c;
}

/*
 * Rows [pc, pc + kb) of im2col's filter matrix (row tap·C + c), columns [jc, jc + nb), as NR-column panels of kb rows
 * at buf (zero-padded to whole panels): the block one step of im2col's GEMM reads, packed just before, into L2. Its
 * rows, when a block's width of a longer filter row, are too short a run for the hardware prefetchers, so the copy
 * asks for the row PK_CONV_PACK_AHEAD_ROWS ahead itself (measured, 7×7 × 512 3×3 on AVX2: 57 -> 63 GFLOP/s); whole
 * rows are long runs (in a dense filter, one run) the prefetchers keep up with, and prefetching them too ran slower.
 */
static void PK_CONV(pack_block)(const pk_conv_desc *d, const pk_conv_at *at, int64_t pc, int64_t kb, int64_t jc,
                                int64_t nb, PK_CONV_T *restrict buf) {
  for (int64_t p = 0; p < kb; p++) {
    const PK_CONV_T *row = PK_CONV(matrix_row)(d, at, pc + p) + jc * d->flt_k;
    if (d->flt_k == 1 && p + PK_CONV_PACK_AHEAD_ROWS < kb && nb < d->K) {
      const PK_CONV_T *ahead = PK_CONV(matrix_row)(d, at, pc + p + PK_CONV_PACK_AHEAD_ROWS) + jc;
      for (int64_t x = 0; x < nb; x += 64 / sizeof(PK_CONV_T)) __builtin_prefetch(ahead + x, 0, 3);
    }
    for (int64_t x0 = 0; x0 < nb; x0 += PK_CONV_NR)
      PK_CONV(panel_row)(row + x0 * d->flt_k, d->flt_k, pk_min64(PK_CONV_NR, nb - x0), buf + x0 * kb + p * PK_CONV_NR);
  }
}

/*
 * The columns of im2col's matrix that the n output rows from row r on read from inside the input, as a range [*lo,
 * *hi): the outer taps (every axis but the last, S·C columns each) from the first whose input rows hold one of those
 * rows' windows to the last. Outside it every column of these rows is padding, zeros im2col wrote.
 */
static void PK_CONV(live_columns)(const pk_conv_desc *d, int64_t group, int64_t r, int64_t n, int64_t taps, int64_t *lo,
                                  int64_t *hi) {
  const int64_t S = d->r_ext[d->nd - 1], outer = taps / S;
  int64_t first = outer, last = -1, in;
  for (int64_t row = r; row < r + n && (first > 0 || last < outer - 1); row++) {
    const pk_conv_at at = pk_conv_locate(d, row, group);
    for (int64_t ot = 0; ot < first; ot++)
      if (pk_conv_outer(d, &at, ot, &in)) { first = ot; break; }
    for (int64_t ot = outer - 1; ot > last; ot--)
      if (pk_conv_outer(d, &at, ot, &in)) { last = ot; break; }
  }
  *lo = first * S * d->C, *hi = pk_max_i64(*lo, (last + 1) * S * d->C);
}

/*
 * Input channels from which an im2col tile runs each tap on only the rows that read inside the input: below, a call
 * per tap costs more than the rows it skips. 7×7 maps, 3×3, one register tile a row (AMD EPYC AVX-512, in one process,
 * 1 / 2 threads): 512→512 1.06x / 1.06x, 256→256 1.05x / 0.98x, 128→128 1.05x / 0.92x, 64→64 0.99x / 0.94x.
 */
#define PK_CONV_TAP_ROWS_MIN_C 256

/*
 * One register tile of im2col's GEMM: m positions from q0 on (their rows of col kd apart), columns [k0, k1), B's row
 * k at g.b + (k - k0)·row; store: the first sums overwrite C. Where the positions lie in one output row (one_row), each
 * tap's columns run only on the rows whose window element it reads lies inside the input, consecutive taps with the
 * same rows in one call, instead of the whole tile over im2col's zeros: a 7-position row of 3×3 taps runs 6, 7 and 6
 * rows a tap where it ran 7 (on MR - 1 rows the tile family has a function of its own, microkernel.ts's tileRows).
 */
static void PK_CONV(tile_taps)(const pk_conv_desc *d, int64_t q0, int one_row, int64_t m, int64_t n, int64_t k0,
                               int64_t k1, const PK_CONV_T *col, int64_t kd, PK_CONV(b) g, PK_CONV_T *c, int64_t ldc,
                               int store) {
  const int L = d->nd - 1;
  const int64_t C = d->C, S = d->r_ext[L];
  int first = 1;
  for (int64_t k = k0; k < k1;) {
    /* The taps from k on that read inside the input on the same positions [lo, hi): columns [k, end). */
    int64_t lo = q0, hi = q0 + m, end = k1;
    if (one_row && C >= PK_CONV_TAP_ROWS_MIN_C)
      for (int64_t at = k; at < k1; at = end) {
        int64_t tlo = q0, thi = q0 + m;
        pk_conv_inside(d, d->dil[L] * (at / C % S) + d->off[L], &tlo, &thi);
        if (at > k && (tlo != lo || thi != hi)) break;
        lo = tlo, hi = thi, end = pk_min64(k1, (at / C + 1) * C);
      }
    /* Rows the first call leaves out are summed from zero too. */
    if (first && store && (lo > q0 || hi < q0 + m)) {
      for (int64_t i = 0; i < m; i++) memset(c + i * ldc, 0, (size_t)n * sizeof(PK_CONV_T));
      store = 0;
    }
    if (hi > lo) {
      PK_CONV(b) b = g;
      b.b += (k - k0) * g.row;
      PK_CONV(tiles)(hi - lo, n, end - k, 1, 0, col + (lo - q0) * kd + k, kd, b, c + (lo - q0) * ldc, ldc,
                     store && first, NULL, 0);
      first = 0;
    }
    k = end;
  }
}

/*
 * The GEMM of im2col: M positions of col (rows kd = taps·C apart, output row r on) times the filter (its taps' rows
 * one after another, packed, in place, or packed block by block into buf when buf is not NULL) of the row at, into
 * the output from that row on: output channels [j0, j1). Each tile runs only the columns its rows read from inside
 * the input (PK_CONV(live_columns)): a 7×7 map's first and last rows skip a third of a 3×3 filter, its zeros. live:
 * room for two per tile, where each tile's range is found once for all its blocks and panels.
 */
static void PK_CONV(gemm)(const pk_conv_desc *d, const PK_CONV_T *pf, const pk_conv_at *at, int64_t r, int64_t group,
                          int64_t taps, int64_t M, const PK_CONV_T *col, PK_CONV_T *buf, int64_t *live, int64_t j0,
                          int64_t j1) {
  PK_CONV_T *output = (PK_CONV_T *)d->out + at->out;
  const int64_t Q = d->p_ext[d->nd - 1], ldc = d->out_s[d->nd - 1], kd = taps * d->C;
  int64_t kc, nc;
  pk_conv_gemm_blocks(d, taps, M, PK_CONV_MR, PK_CONV_NR, buf == NULL && pf != NULL, &kc, &nc);
  for (int64_t ir = 0; ir < M; ir += PK_CONV_MR) {
    const int64_t m = pk_min64(PK_CONV_MR, M - ir);
    int64_t *tile = live + 2 * (ir / PK_CONV_MR);
    PK_CONV(live_columns)(d, group, r + ir / Q, (ir + m - 1) / Q - ir / Q + 1, taps, tile, tile + 1);
  }
  for (int64_t jc = j0; jc < j1; jc += nc) {
    const int64_t nb = pk_min64(nc, j1 - jc);
    /* The M positions follow each other (rows a whole row of Q apart): one run of positions from at on, whose first
       live block of columns overwrites the output when the output starts from zero. */
    for (int64_t pc = 0; pc < kd; pc += kc) {
      const int64_t kb = pk_min64(kc, kd - pc);
      PK_CONV(b) f = {buf, PK_CONV_NR, kb, 1};
      if (buf != NULL) PK_CONV(pack_block)(d, at, pc, kb, jc, nb, buf);
      else f = PK_CONV(filter)(d, pf, at, taps, 0, pc, jc);
      for (int64_t jr = 0; jr < nb; jr += PK_CONV_NR)
        for (int64_t ir = 0; ir < M; ir += PK_CONV_MR) {
          const int64_t m = pk_min64(PK_CONV_MR, M - ir), n = pk_min64(PK_CONV_NR, nb - jr);
          const int64_t lo = live[2 * (ir / PK_CONV_MR)], hi = live[2 * (ir / PK_CONV_MR) + 1];
          PK_CONV_T *c = output + ir * ldc + jc + jr;
          const int64_t k0 = pk_max_i64(pc, lo), k1 = pk_min64(pc + kb, hi);
          if (k1 <= k0) {
            /* Windows wholly in the padding sum to zero. */
            if (lo == hi && pc == 0 && d->zero_out)
              for (int64_t i = 0; i < m; i++) memset(c + i * ldc, 0, (size_t)n * sizeof(PK_CONV_T));
            continue;
          }
          PK_CONV(b) g = f;
          g.b = f.b + (f.packed ? jr * f.panel : jr) + (k0 - pc) * f.row;
          PK_CONV(tile_taps)(d, ir % Q, ir / Q == (ir + m - 1) / Q, m, n, k0, k1, col + ir * kd, kd, g, c, ldc,
                             k0 == lo && d->zero_out);
        }
    }
  }
}

/* im2col's GEMM over the n rows from row r on (first: where row r is), then the epilogue on them. */
static void PK_CONV(gemm_rows)(const pk_conv_desc *d, const PK_CONV_T *pf, const pk_conv_at *first, int64_t r,
                               int64_t n, int64_t taps, int64_t group, const PK_CONV_T *col, PK_CONV_T *buf,
                               int64_t *live, int64_t j0, int64_t j1) {
  const int64_t Q = d->p_ext[d->nd - 1];
  PK_CONV(gemm)(d, pf, first, r, group, taps, n * Q, col, buf, live, j0, j1);
  for (int64_t row = r; row < r + n && d->epilogue != NULL; row++) {
    const pk_conv_at at = pk_conv_locate(d, row, group);
    pk_conv_finish(d, &at, 0, Q, j0, j1);
  }
}
#endif

#ifndef PK_CONV_DIRECT_ONLY
/* Modelled cycles of an im2col call on this microkernel: what a call site with several compares (pk_conv_run_cheapest). */
static double PK_CONV(im2col_cycles)(const pk_conv_desc *desc) {
  static const int64_t heights[] = PK_CONV_HEIGHTS;
  static const double step[] = PK_CONV_STEP_CYCLES, call[] = PK_CONV_CALL_CYCLES;
  static const pk_tile_costs costs = {PK_CONV_MR, PK_CONV_NR, PK_CONV_LANES, sizeof heights / sizeof heights[0], heights,
                                      step, call};
  pk_conv_call c;
  return pk_conv_prepare(desc, PK_CONV_MR, PK_CONV_NR, &c) ? pk_conv_im2col_cycles(&c, &costs) : 0;
}
#endif

static void PK_CONV(member)(void *arg, int t, int nt) {
  pk_conv_ctx *x = arg;
  const pk_conv_call *call = x->c;
  const pk_conv_desc *d = &call->d;
  PK_CONV_T *mine = x->own == NULL ? NULL : (PK_CONV_T *)x->own + t * x->own_elements;
  const PK_CONV_T *pf = mine != NULL ? mine : x->pf;
  const int64_t taps = call->taps;
  const int64_t group = pk_round_up(d->K, d->channels_first ? PK_CONV_MR : PK_CONV_NR) * taps * d->C;
#ifndef PK_CONV_DIRECT_ONLY
  if (d->im2col) {
    const int L = d->nd - 1;
    const int64_t Q = d->p_ext[L], kd = taps * d->C, ldc = d->out_s[L], per = call->per;
    PK_CONV_T *col = pk_scratch(1, per * Q * kd, sizeof(PK_CONV_T));
    PK_CONV_T *buf = call->pack_blocks
        ? pk_scratch(0, pk_conv_gemm_kc(d, taps) * pk_round_up(d->K, PK_CONV_NR), sizeof(PK_CONV_T))
        : NULL;
    /* Two per tile of a GEMM of at most per rows (PK_CONV(gemm)'s live columns). */
    int64_t *live = pk_scratch(PK_TABLE_SLOT, 2 * ((per * Q + PK_CONV_MR - 1) / PK_CONV_MR), sizeof(int64_t));
    if (col == NULL || live == NULL || (call->pack_blocks && buf == NULL)) {
      __atomic_store_n(&x->failed, 1, __ATOMIC_RELAXED);
      return;
    }
    const int64_t chunks = (call->rows + per - 1) / per;
    int64_t c0 = 0, c1 = chunks, j0 = 0, j1 = d->K;
    if (call->split_channels) pk_share(d->K, PK_CONV_NR, t, nt, &j0, &j1);
    else pk_share(chunks, 1, t, nt, &c0, &c1);
    for (int64_t chunk = c0; chunk < c1; chunk++) {
      const int64_t r0 = chunk * per, r1 = pk_min64(call->rows, r0 + per);
      /* One GEMM over rows whose outputs follow each other and share a filter; a gap starts the next one. */
      pk_conv_at first = pk_conv_locate(d, r0, group);
      int64_t n = 0;
      for (int64_t row = r0; row < r1; row++) {
        const pk_conv_at at = pk_conv_locate(d, row, group);
        if (n > 0 && (at.out != first.out + n * Q * ldc || at.flt != first.flt)) {
          PK_CONV(gemm_rows)(d, pf, &first, row - n, n, taps, group, col, buf, live, j0, j1);
          first = at, n = 0;
        }
        PK_CONV(im2col)(d, &at, taps, col + n * Q * kd);
        n++;
      }
      PK_CONV(gemm_rows)(d, pf, &first, r1 - n, n, taps, group, col, buf, live, j0, j1);
    }
    return;
  }
#endif
  /* Direct: the members share (row, block of mc positions) items, so one long row still splits. */
  int64_t mc = d->mc, nc = d->nc, kc = d->kc;
  if (!d->channels_first) pk_conv_slice(d, taps, PK_CONV_MR, PK_CONV_NR, &mc, &nc, &kc);
  const int64_t Q = d->p_ext[d->nd - 1];
  nc = pk_even_block(d->K, nc, PK_CONV_NR), kc = pk_even_block(d->C, kc, 1);
  /* A weight-stationary walk takes whole rows where columns beat window copies (its filter block stays in L2 while
     the positions stream past in blocks of any size). */
  const PK_CONV(split) copied = PK_CONV(split_of)(d, pf, taps, 0, Q, pk_min64(kc, d->C), 0);
  const PK_CONV(split) uncopied = PK_CONV(split_of)(d, pf, taps, 0, Q, pk_min64(kc, d->C), 1);
  const int whole_rows = !d->channels_first && d->weight_stationary && copied.copies &&
                         PK_CONV(columns_pay)(d, taps, &copied, &uncopied);
  mc = whole_rows ? Q : d->channels_first ? pk_conv_first_mc(d, PK_CONV_MR) : pk_even_block(Q, mc, PK_CONV_MR);
  const int64_t blocks = (Q + mc - 1) / mc;
  int64_t w0, w1;
  pk_share(call->rows * blocks, 1, t, nt, &w0, &w1);
#ifndef PK_CONV_DIRECT_ONLY
  if (d->channels_first) {
    int64_t k0 = 0, k1 = d->K;
    if (call->split_channels) w0 = 0, w1 = call->rows * blocks, pk_share(d->K, PK_CONV_MR, t, nt, &k0, &k1);
    for (int64_t w = w0; w < w1 && k0 < k1; w++) {
      const pk_conv_at at = pk_conv_locate(d, w / blocks, group);
      const int64_t ic = w % blocks * mc;
      if (d->zero_out) PK_CONV(zero)(d, &at, ic, pk_min64(ic + mc, Q), k0, k1);
      for (int64_t pc = 0; pc < d->C; pc += kc)
        PK_CONV(first)(d, pf, &at, taps, ic, pk_min64(ic + mc, Q), pc, pk_min64(kc, d->C - pc), k0, k1);
      pk_conv_finish(d, &at, ic, pk_min64(ic + mc, Q), k0, k1);
    }
    return;
  }
#endif
  /* Whole rows, MR at a time: the positions past each tap's whole register tiles run in columns down them
     (PK_CONV(columns)), before their epilogue; not where window copies take the rows' ends. Every input-channel
     block splits a whole row alike: only a block of every channel fuses taps, and with one there is no other. */
  const PK_CONV(split) row = whole_rows ? uncopied : copied;
  const int columns = blocks == 1 && !row.copies;
  const int64_t batch = columns ? PK_CONV_MR : 1;
  /* The batch's rows, located once for their sums, columns and epilogue, and the positions whose tiles apply it
     (PK_CONV(sums_whole): fused ones, which PK_CONV(columns) never reaches); the epilogue runs on the rest. */
  pk_conv_at at[PK_CONV_MR];
  int64_t wlo[PK_CONV_MR], whi[PK_CONV_MR];
  if (d->weight_stationary) {
    for (int64_t jc = 0; jc < d->K; jc += nc) {
      const int64_t nb = pk_min64(nc, d->K - jc);
      for (int64_t pc = 0; pc < d->C; pc += kc) {
        const int64_t kb = pk_min64(kc, d->C - pc);
        if (mine != NULL && w0 < w1) PK_CONV(pack_block_of_taps)(d, taps, jc, nb, pc, kb, mine);
        for (int64_t wb = w0; wb < w1; wb += batch) {
          const int64_t we = pk_min64(w1, wb + batch);
          for (int64_t w = wb; w < we; w++) {
            at[w - wb] = pk_conv_locate(d, w / blocks, group);
            const int64_t ic = w % blocks * mc, ie = pk_min64(ic + mc, Q);
            PK_CONV(sums_whole)(d, pf, &at[w - wb], taps, ic, ie, kc, columns, &wlo[w - wb], &whi[w - wb]);
            PK_CONV(direct)(d, pf, &at[w - wb], taps, ic, ie, jc, nb, pc, kb, pc == 0 && d->zero_out, columns,
                            wlo[w - wb], whi[w - wb]);
          }
          if (columns) PK_CONV(columns)(d, pf, taps, &row, at, we - wb, jc, nb, pc, kb);
          for (int64_t w = wb; w < we && pc + kc >= d->C; w++) {
            const int64_t ic = w % blocks * mc;
            pk_conv_finish(d, &at[w - wb], ic, wlo[w - wb], jc, jc + nb);
            pk_conv_finish(d, &at[w - wb], whi[w - wb], pk_min64(ic + mc, Q), jc, jc + nb);
          }
        }
      }
    }
  } else {
    for (int64_t wb = w0; wb < w1; wb += batch) {
      const int64_t we = pk_min64(w1, wb + batch);
      for (int64_t w = wb; w < we; w++) {
        at[w - wb] = pk_conv_locate(d, w / blocks, group);
        const int64_t ic = w % blocks * mc, ie = pk_min64(ic + mc, Q);
        PK_CONV(sums_whole)(d, pf, &at[w - wb], taps, ic, ie, kc, columns, &wlo[w - wb], &whi[w - wb]);
        for (int64_t jc = 0; jc < d->K; jc += nc)
          for (int64_t pc = 0; pc < d->C; pc += kc)
            PK_CONV(direct)(d, pf, &at[w - wb], taps, ic, ie, jc, pk_min64(nc, d->K - jc), pc,
                            pk_min64(kc, d->C - pc), pc == 0 && d->zero_out, columns, wlo[w - wb], whi[w - wb]);
      }
      for (int64_t jc = 0; jc < d->K && columns; jc += nc)
        for (int64_t pc = 0; pc < d->C; pc += kc)
          PK_CONV(columns)(d, pf, taps, &row, at, we - wb, jc, pk_min64(nc, d->K - jc), pc, pk_min64(kc, d->C - pc));
      for (int64_t w = wb; w < we; w++) {
        const int64_t ic = w % blocks * mc;
        pk_conv_finish(d, &at[w - wb], ic, wlo[w - wb], 0, d->K);
        pk_conv_finish(d, &at[w - wb], whi[w - wb], pk_min64(ic + mc, Q), 0, d->K);
      }
    }
  }
}

/* Member t of nt's share of the whole filter of call `c` packed into `out`: in panels of output channels (channels
   first, by (group, tap) blocks) or of NR columns (by (group, tap, c) rows). */
static void PK_CONV(pack_share)(const pk_conv_call *c, int t, int nt, PK_CONV_T *out) {
  const int64_t items = c->groups * c->taps * (c->d.channels_first ? 1 : c->d.C);
  int64_t r0, r1;
  pk_share(items, 1, t, nt, &r0, &r1);
#ifndef PK_CONV_DIRECT_ONLY
  if (c->d.channels_first) {
    PK_CONV(pack_first)(&c->d, c->taps, r0, r1, out);
    return;
  }
#endif
  PK_CONV(pack)(&c->d, c->taps, r0, r1, out);
}

/* The whole filter of call `ctx` packed into `out`, on this thread: a bound filter's form. */
static void PK_CONV(pack_whole)(const void *ctx, void *out) {
  PK_CONV(pack_share)(ctx, 0, 1, out);
}

typedef struct {
  const pk_conv_call *c;
  PK_CONV_T *out;
} PK_CONV(pack_job);

static void PK_CONV(pack_member)(void *arg, int t, int nt) {
  const PK_CONV(pack_job) *job = arg;
  PK_CONV(pack_share)(job->c, t, nt, job->out);
}

/* O += I ⊛ F for the whole call, then its epilogue; PK_NO_MEMORY when a buffer cannot be allocated. */
static int PK_CONV(run)(const pk_conv_desc *desc) {
  pk_conv_call call;
  if (!pk_conv_prepare(desc, PK_CONV_MR, PK_CONV_NR, &call)) {
    PK_CONV(zero_all)(desc);
    pk_conv_finish_all(desc);
    return PK_OK;
  }
  const pk_conv_desc *d = &call.d;
#ifdef PK_CONV_DIRECT_ONLY
  call.in_place = 0, call.pack_blocks = 0;
#endif
  const int64_t panels = pk_max_i64(pk_round_up(d->K, PK_CONV_NR), pk_round_up(d->K, PK_CONV_MR));
  const int64_t elements = call.groups * panels * call.taps * d->C;
  /* A bound filter's form, packed by its first call: read packed, never in place or block by block. */
  const pk_conv_form_key key = pk_conv_form_key_of(&call, (const void *)PK_CONV(pack_whole));
  pk_bound_use use;
  const PK_CONV_T *pf = pk_bound_form(d->flt, &key, sizeof key, (size_t)elements * sizeof(PK_CONV_T),
                                      PK_CONV(pack_whole), &call, &use);
  if (pf != NULL) {
    call.in_place = 0, call.pack_blocks = 0;
  }
  pk_conv_ctx x = {&call, pf, NULL, 0, 0};
  if (pf == NULL && !call.in_place && !call.pack_blocks) {
    /*
     * A team's weight-stationary direct call: each member packs each block of the filter itself, into a copy of its
     * own, just before it runs its rows over the block, which then comes from L2. Packed by the team before it
     * computed, the whole filter (2.4 MiB for 3×3 256→256) went out to L3 and came back to each member. Unbound, AMD
     * Zen 5, 2 threads, one process alternating builds (GFLOP/s): 14×14 256→256 3×3 271 -> 315, 279 -> 336, 241 ->
     * 297; 28×28 128→128 347 -> 352, 320 -> 334; 56×56 64→64 345 -> 357. Each member packing a whole copy first
     * instead: no gain (252 -> 246 on 14²).
     */
    const int own_blocks = call.team > 1 && !d->im2col && !d->channels_first && d->weight_stationary && call.groups == 1;
    /* Each copy starts on a 64-byte line, as the microkernel's aligned loads of packed B need. */
    const int64_t copy = pk_round_up(elements, 64 / (int64_t)sizeof(PK_CONV_T));
    PK_CONV_T *own = pk_scratch(0, own_blocks ? call.team * copy : elements, sizeof(PK_CONV_T));
    if (own == NULL) return PK_NO_MEMORY;
    if (own_blocks) {
      x.own = own, x.own_elements = copy;
    } else {
      /* The call's team packs it, each member its share, when it is large enough to pay for waking them. */
      PK_CONV(pack_job) job = {&call, own};
      if (call.team > 1 && elements >= PK_CONV_PARALLEL_PACK_MIN) pk_parallel_team(call.team, PK_CONV(pack_member), &job);
      else PK_CONV(pack_whole)(&call, own);
      x.pf = own;
    }
  }
  if (call.team > 1) pk_parallel_team(call.team, PK_CONV(member), &x);
  else PK_CONV(member)(&x, 0, 1);
  pk_bound_done(&use);
  return x.failed ? PK_NO_MEMORY : PK_OK;
}

#undef PK_CONV
#undef PK_CONV_T
#undef PK_CONV_MR
#undef PK_CONV_NR
#undef PK_CONV_TILE
#undef PK_CONV_TILE_IN_PLACE
#undef PK_CONV_TILE_FIRST
#undef PK_CONV_PACK_A
#undef PK_CONV_DIRECT_ONLY
#undef PK_CONV_LANES
#undef PK_CONV_HEIGHTS
#undef PK_CONV_STEP_CYCLES
#undef PK_CONV_CALL_CYCLES
