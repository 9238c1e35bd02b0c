/*
 * What the convolution drivers (SConv's macro-kernel) share across microkernels: the call descriptor a kernel fills
 * in from its access maps (emit/c-conv.ts), the walks over its output rows, filter taps and groups, the blocking of a
 * call on its own sizes, and how a call runs (packing, threads, im2col). The code that touches elements and calls a
 * microkernel is polykern_conv_driver.h, instantiated once per microkernel inside its ISA's region.
 *
 * The filter is packed once per call into NR-column panels, tap after tap (row `t·C + c` of panel `k / NR` holds
 * F[tap t, c, k]), or read in place when the call has few output positions per filter. A bound filter (a constant
 * operand, polykern_bound.h) is packed on its first call only, and always read packed. In a weight-stationary direct
 * call on several threads, each member packs the blocks it runs into a copy of its own instead, as it reaches them.
 * The output rows (batch points × every spatial position but the last axis), in blocks of `mc` output positions, are
 * split between the threads.
 * - Direct, channels last: for one block and a block of output channels and input channels, every filter tap runs
 *   the microkernel: the tap's input rows outside the input are skipped, and along the last axis only the positions
 *   whose window element lies inside run, so the result is exact. A's rows are input pixels read in place (`stride·C`
 *   apart, contiguous in c), B the tap's filter, C the output positions (contiguous in k). Weight-stationary runs the
 *   channel blocks outside the rows, input-stationary inside. Taps adjacent along the last axis run as one k loop
 *   where their pixels (and filter rows) follow each other, the row's end positions on a zero-padded copy of their
 *   windows. A 1×1 filter over dense axes runs each image as one long row (pk_conv_collapse).
 * - Direct, channels first (NCHW): output channels are the microkernel's rows (the packed filter), output positions
 *   its columns (input rows in place).
 * - im2col (forced, or for rows shorter than the plan's `im2col_below`): blocks of output rows' windows are copied
 *   (zeros for padding) into a buffer of positions × taps·C, then one GEMM with the same filter, each of its tiles
 *   over the columns its rows read from inside the input only (the rows of taps wholly in the padding skipped).
 */
#ifndef POLYKERN_CONV_H
#define POLYKERN_CONV_H

#include <stdint.h>
#include <string.h>
#include "polykern_math.h"
#include "polykern_pool.h"
#include "polykern_simd.h"

/* im2col's GEMMs: rows of output positions per GEMM, and the most elements its buffer may take (16 MiB of f32). */
#define PK_CONV_IM2COL_POSITIONS 512
#define PK_CONV_IM2COL_ELEMENTS (4 << 20)

/* Filter rows a block pack prefetches ahead of the one it copies. */
#define PK_CONV_PACK_AHEAD_ROWS 4

/* The fewest packed elements (of either type) whose whole-filter pack the call's team shares: smaller packs take
   less time than waking the team costs (a few microseconds). */
#define PK_CONV_PARALLEL_PACK_MIN 65536

/* The fewest rows of an im2col GEMM's filter block that takes whole filter rows (see pk_conv_gemm_blocks). */
#define PK_CONV_WHOLE_ROWS_MIN_KC 32

/*
 * Element-wise statements fused after a convolution (passes/fuse-epilogue.ts), in place on its output: the driver
 * calls it on each block of the output once the block's sums are complete. lo/hi bound the block's indices, in the
 * order batch indices (nb), spatial positions (nd, the original axes), output channels; ctx is the kernel's.
 */
typedef void (*pk_conv_epilogue)(const void *ctx, const int64_t *lo, const int64_t *hi);

/*
 * The same epilogue in registers (emit/c-tile-epilogue.ts): a family of the direct path's packed-filter tiles that
 * apply it to their sums before storing them. Stored as a generic function pointer, the descriptor being of no element
 * type; the driver calls it as its PK_CONV(final_fn).
 */
typedef void (*pk_conv_final)(void);

/* One convolution call, O += I ⊛ F (then the epilogue, when given); its tensors are of the driver's element type. */
typedef struct {
  const void *in, *flt;
  void *out;
  int nb, nd;
  int64_t b_ext[4], b_in[4], b_out[4], b_flt[4];
  int64_t p_ext[3], r_ext[3], h_ext[3], stride[3], dil[3], off[3], in_s[3], out_s[3], flt_s[3];
  int64_t C, K, flt_c, flt_k, in_c, out_k, mc, nc, kc;
  /* Elements of L1 and L2 the blocks may take: a channels-last call slices mc, nc and kc again within them
     (pk_conv_slice). */
  int64_t l1, l2;
  int weight_stationary, im2col;
  /* Positions per row below which a direct call runs through im2col instead. */
  int64_t im2col_below;
  /* Channels first (NCHW): output channels are the microkernel's rows, output positions its columns. */
  int channels_first;
  /* Output positions per filter from which a call packs the filter rather than reading it in place. */
  int64_t pack_filter_from;
  /* The most k steps of a call that is a plain GEMM: an im2col GEMM block, a 1×1 filter's direct call (the GEMM
     ranking's kc; kc is the direct path's, sized for every tap's windows in L1). */
  int64_t gemm_kc;
  /* The output's old content is not summed into (the kernel's zero fill): each block's first sums store, the
     positions they miss zeroed just before, by the thread that sums the block. */
  int zero_out;
  /* NULL: no epilogue. */
  pk_conv_epilogue epilogue;
  const void *epilogue_ctx;
  /* NULL: the epilogue on output blocks only. Else the direct path's tiles that sum their outputs whole apply it
     themselves (PK_CONV(sums_whole)), and their blocks skip `epilogue`. */
  pk_conv_final final;
  const void *final_ctx;
  /* The spatial axes as the kernel gave them, which the epilogue indexes: pk_conv_collapse keeps them before it merges
     the last ones (given_nd 0: the descriptor as the kernel filled it in, never collapsed). */
  int given_nd;
  int64_t given_ext[3];
} pk_conv_desc;

/* Where one output row starts: in the input, the output, the packed and the given filter (its group); its positions
   on the outer axes and its batch indices. */
typedef struct {
  int64_t in, out, pf, flt, p[3], b[4];
} pk_conv_at;

static inline pk_conv_at pk_conv_locate(const pk_conv_desc *d, int64_t row, int64_t group_elems) {
  pk_conv_at at = {0, 0, 0, 0, {0, 0, 0}, {0, 0, 0, 0}};
  int64_t rest = row;
  for (int dd = d->nd - 2; dd >= 0; dd--) {
    at.p[dd] = rest % d->p_ext[dd];
    rest /= d->p_ext[dd];
    at.out += at.p[dd] * d->out_s[dd];
  }
  for (int i = d->nb - 1; i >= 0; i--) {
    const int64_t x = rest % d->b_ext[i];
    rest /= d->b_ext[i];
    at.b[i] = x;
    at.in += x * d->b_in[i];
    at.out += x * d->b_out[i];
    at.flt += x * d->b_flt[i];
    if (d->b_flt[i] != 0) at.pf += x * group_elems, group_elems *= d->b_ext[i];
  }
  return at;
}

/* Filter element offset of tap t (the last axis's tap fastest). */
static inline int64_t pk_conv_tap(const pk_conv_desc *d, int64_t t) {
  int64_t off = 0;
  for (int dd = d->nd - 1; dd >= 0; dd--) off += t % d->r_ext[dd] * d->flt_s[dd], t /= d->r_ext[dd];
  return off;
}

/* Filter element offset of group g: the batch indices that index the filter, the last fastest. */
static inline int64_t pk_conv_group(const pk_conv_desc *d, int64_t g) {
  int64_t base = 0;
  for (int i = d->nb - 1; i >= 0; i--) {
    if (d->b_flt[i] == 0) continue;
    base += g % d->b_ext[i] * d->b_flt[i];
    g /= d->b_ext[i];
  }
  return base;
}

/*
 * The input offset of outer tap ot (its taps on every axis but the last) for the row at, in *in; 0 when one of its
 * input rows lies outside the input (padding: the tap contributes nothing to this row).
 */
static inline int pk_conv_outer(const pk_conv_desc *d, const pk_conv_at *at, int64_t ot, int64_t *in) {
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
static inline void pk_conv_inside(const pk_conv_desc *d, int64_t base, int64_t *lo, int64_t *hi) {
  const int L = d->nd - 1;
  const int64_t s = d->stride[L], W = d->h_ext[L];
  *lo = pk_max_i64(*lo, base >= 0 ? 0 : (s - 1 - base) / s);
  *hi = pk_min64(*hi, W - base <= 0 ? 0 : (W - base + s - 1) / s);
}

/*
 * SConv's L2 slicing (schedule/conv-slicing.ts) again on the call's own sizes: kc is the plan's clamped to the input
 * channels; mc starts from the whole row of positions and nc from all output channels, and they halve (mc first, down
 * to four register tiles or the plan's mc) until every tap's kc × nc filter block, the mc × nc output block and the
 * input its mc windows read fit the plan's L2 share. The plan sliced representative sizes (a channel block of 128
 * when C is a parameter): a first layer's 3 input channels leave room for far wider blocks. Measured on AVX2, 1
 * thread: 224² 3→64 7×7 stride 2 52 -> 71 GFLOP/s, 56² 64→64 3×3 86 -> 95.
 */
static inline int64_t pk_conv_block_elems(const pk_conv_desc *d, int64_t taps, int64_t m, int64_t n, int64_t k) {
  const int L = d->nd - 1;
  const int64_t S = d->r_ext[L], windows = (m - 1) * d->stride[L] + (S - 1) * d->dil[L] + 1;
  return taps * k * n + m * n + taps / S * windows * k;
}

/* Whether a window's taps along the last axis are adjacent in memory: several, dilation 1, pixels C apart, so that
   they and their channels are one run of S·C elements. */
static inline int pk_conv_taps_adjacent(const pk_conv_desc *d) {
  const int L = d->nd - 1;
  return d->r_ext[L] > 1 && d->dil[L] == 1 && d->in_s[L] == d->C;
}

/*
 * Whether a direct call's taps along the last axis run as one k loop over every input channel (PK_CONV(direct)):
 * adjacent in memory (dilation 1, pixels C apart), and an mr-tile's windows, over every row of taps, fill at most half
 * the L1 share, leaving the rest to the filter streaming through. Measured (Intel AVX-512, 6 × 64, 1 thread,
 * bound): 28×28 128→128 3×3 (windows 12 KiB of a 36 KiB share) 1.12× over 64-channel blocks tap by tap; 14×14
 * 256→256 (24 KiB) 0.97×.
 */
static inline int pk_conv_fuses_channels(const pk_conv_desc *d, int64_t taps, int64_t mr) {
  const int L = d->nd - 1;
  const int64_t S = d->r_ext[L], windows = (mr - 1) * d->stride[L] + S;
  return !d->im2col && pk_conv_taps_adjacent(d) && 2 * (taps / S) * windows * d->C <= d->l1;
}

/*
 * Whether a direct call's k loops take every input channel because its rows are a few register tiles long: the plan's
 * kc keeps a tap's filter panel in L1 across the tiles of a row, which a row of PK_CONV_FEW_TILES tiles or fewer hardly
 * reuses, so each tile's k loop may as well run over all the channels; while the filter block of every tap still fits
 * L2 (`l2` is half of it: CACHE_SHARE.l2), where the tiles stream it from. Measured on AMD Zen 5, bound, one process
 * alternating: 14×14 256→256 3×3 on 6 × 64 (kc 128 -> 256), 1 thread 239 -> 249 GFLOP/s, 2 threads 470 -> 492;
 * 14×14 512→512 on AVX2's 6 × 16 (256 -> 512), 110 -> 120 and 220 -> 239; 28×28 256→256, 5 tiles a row, ran 6%
 * slower with all its channels a call.
 */
#define PK_CONV_FEW_TILES 3
static inline int pk_conv_all_channels(const pk_conv_desc *d, int64_t taps, int64_t mr, int64_t nr) {
  const int64_t tiles = (d->p_ext[d->nd - 1] + mr - 1) / mr;
  return !d->im2col && taps > 1 && tiles <= PK_CONV_FEW_TILES && taps * d->C * nr <= 2 * d->l2;
}

/* mc, nc and kc for a microkernel of mr × nr tiles. */
static inline void pk_conv_slice(const pk_conv_desc *d, int64_t taps, int64_t mr, int64_t nr, int64_t *mc,
                                 int64_t *nc, int64_t *kc) {
  /* One tap: no other tap revisits the output tile, so the call is a GEMM's (measured, 1×1 56×56 256→64, Intel
     AVX-512, bound: 1T 144-149 -> 167-190 GFLOP/s, 2T 325 -> 347 with 256 channels a call instead of 64). */
  const int64_t k = pk_conv_fuses_channels(d, taps, mr) || pk_conv_all_channels(d, taps, mr, nr) ? d->C
      : pk_min64(taps == 1 && d->gemm_kc > 0 ? d->gemm_kc : d->kc, d->C);
  int64_t m = pk_round_up(d->p_ext[d->nd - 1], mr), n = pk_round_up(d->K, nr);
  while (pk_conv_block_elems(d, taps, m, n, k) > d->l2 && m > pk_min64(d->mc, 4 * mr))
    m = pk_max_i64(mr, pk_round_up(m / 2, mr));
  while (pk_conv_block_elems(d, taps, m, n, k) > d->l2 && n > nr) n = pk_max_i64(nr, pk_round_up(n / 2, nr));
  *mc = m, *nc = n, *kc = k;
}

/*
 * im2col's GEMM blocks for M positions: kc rows of the filter matrix by nc columns (whole panels of nr). The filter
 * block and the M × nc output block take the L2 share the plan gave the direct path's blocks (every tap's filter block
 * and an mc × nc output block), so fewer positions get wider blocks: their packed rows are longer runs to read, and
 * fewer blocks re-walk the same im2col rows. Where the share holds PK_CONV_WHOLE_ROWS_MIN_KC rows or more of every
 * output channel, the block takes whole filter rows instead: one sequential run of the filter, which the prefetchers
 * follow, where part rows are short runs a stride apart. Measured on AVX2, 1 thread (median GFLOP/s): 7×7 512→512 3×3
 * 42.7 -> 51.1, 14×14 256→256 60.3 -> 64.4. The rows are at most the plan's gemm_kc, the GEMM ranking's for such a
 * GEMM (the direct path's kc, sized for its windows in L1, held 7×7 512→512 to 64 rows: 2 threads, bound, Intel
 * AVX-512, 220 -> 266-274 GFLOP/s).
 * streamed: the filter was packed before the GEMMs (bound, or first in the call), so the tiles walk the block panel
 * by panel, each panel's kc × nr rows read by every tile of the M positions and not again: only that panel stays in L2
 * beside the M × kc im2col rows, not the whole block. Sized for the whole block, 7×7 512→512 took 132 rows of the 4608
 * on a 1 MiB L2; sized so, 576 (its C tiles loaded and stored a quarter as often, each panel's rows one run 4x longer).
 * Measured bound, AMD Zen 5 AVX-512, one process alternating builds (GFLOP/s): 1T 152-165 -> 170-179, 2T 261-304 ->
 * 308-346; rows of 512 to 1536 all ran within 5% of each other. A filter read in place keeps the whole-block size: its
 * panel rows are short pieces of F's rows, and 5×5 512→512 ran 2-5% slower sized so.
 */
static inline int64_t pk_conv_gemm_kc(const pk_conv_desc *d, int64_t taps) {
  return pk_even_block(taps * d->C, d->gemm_kc > 0 ? d->gemm_kc : d->kc, 1);
}

static inline void pk_conv_gemm_blocks(const pk_conv_desc *d, int64_t taps, int64_t M, int64_t mr, int64_t nr,
                                       int streamed, int64_t *kc, int64_t *nc) {
  int64_t mc0, nc0, kc0;
  pk_conv_slice(d, taps, mr, nr, &mc0, &nc0, &kc0);
  const int64_t share = (taps * kc0 + mc0) * nc0, whole = pk_round_up(d->K, nr), most = pk_conv_gemm_kc(d, taps);
  const int64_t deep = pk_min64(most, share / ((streamed ? nr : whole) + M));
  *kc = most;
  *nc = pk_even_block(d->K, pk_max_i64(nc0, share / (kc0 + M) / nr * nr), nr);
  if (*nc < whole && deep >= PK_CONV_WHOLE_ROWS_MIN_KC) *kc = pk_even_block(taps * d->C, deep, 1), *nc = whole;
}

/*
 * Output rows per im2col GEMM: enough for PK_CONV_IM2COL_POSITIONS positions (whole images of small feature maps, as
 * im2col + BLAS runs them), within a buffer of PK_CONV_IM2COL_ELEMENTS elements, and a GEMM for each of the threads.
 */
static inline int64_t pk_conv_chunk(const pk_conv_desc *d, int64_t rows, int64_t taps, int threads) {
  const int64_t Q = d->p_ext[d->nd - 1], kd = taps * d->C;
  const int64_t want = (PK_CONV_IM2COL_POSITIONS + Q - 1) / Q, fits = PK_CONV_IM2COL_ELEMENTS / (Q * kd);
  return pk_max_i64(1, pk_min64((rows + threads - 1) / threads, pk_min64(want, fits)));
}

/*
 * The epilogue on positions [x0, x1) of the given axes from `axis` on, read as one axis (pk_conv_collapse merged them
 * into the call's last): as boxes of those axes, whole runs of the outer one at once. lo/hi hold the indices before
 * `axis` and the output channels'.
 */
static void pk_conv_finish_span(const pk_conv_desc *d, int64_t *lo, int64_t *hi, int axis, int64_t x0, int64_t x1) {
  const int64_t *ext = d->given_ext;
  const int at = d->nb + axis;
  int64_t inner = 1;
  for (int a = axis + 1; a < d->given_nd; a++) inner *= ext[a];
  while (x0 < x1) {
    const int64_t row = x0 / inner, start = x0 - row * inner, end = pk_min64(x1, (row + 1) * inner);
    if (start == 0 && end - x0 == inner) {
      const int64_t rows = (x1 - x0) / inner;
      lo[at] = row, hi[at] = row + rows;
      for (int a = axis + 1; a < d->given_nd; a++) lo[d->nb + a] = 0, hi[d->nb + a] = ext[a];
      d->epilogue(d->epilogue_ctx, lo, hi);
      x0 += rows * inner;
    } else {
      lo[at] = row, hi[at] = row + 1;
      pk_conv_finish_span(d, lo, hi, axis + 1, start, end - row * inner);
      x0 = end;
    }
  }
}

/*
 * The epilogue on output positions [q0, q1) of the row at (along the last axis) and output channels [k0, k1). The
 * epilogue indexes the given axes, of which the call's last may be several (pk_conv_collapse).
 */
static inline void pk_conv_finish(const pk_conv_desc *d, const pk_conv_at *at, int64_t q0, int64_t q1, int64_t k0,
                                  int64_t k1) {
  if (d->epilogue == NULL || q1 <= q0 || k1 <= k0) return;
  int64_t lo[8], hi[8];
  const int L = d->nd - 1, nd = d->given_nd > 0 ? d->given_nd : d->nd;
  for (int i = 0; i < d->nb; i++) lo[i] = at->b[i], hi[i] = at->b[i] + 1;
  for (int dd = 0; dd < L; dd++) lo[d->nb + dd] = at->p[dd], hi[d->nb + dd] = at->p[dd] + 1;
  lo[d->nb + nd] = k0, hi[d->nb + nd] = k1;
  if (nd > d->nd) {
    pk_conv_finish_span(d, lo, hi, L, q0, q1);
    return;
  }
  lo[d->nb + L] = q0, hi[d->nb + L] = q1;
  d->epilogue(d->epilogue_ctx, lo, hi);
}

/* The epilogue on the whole output: a call whose sums are all zero (no taps or input channels), as the kernel gave it. */
static inline void pk_conv_finish_all(const pk_conv_desc *d) {
  if (d->epilogue == NULL) return;
  int64_t lo[8] = {0}, hi[8] = {0};
  for (int i = 0; i < d->nb; i++) hi[i] = d->b_ext[i];
  for (int dd = 0; dd < d->nd; dd++) hi[d->nb + dd] = d->p_ext[dd];
  hi[d->nb + d->nd] = d->K;
  d->epilogue(d->epilogue_ctx, lo, hi);
}

/* The call's output rows: its batch extents times every spatial extent but the last (a row's positions). */
static inline int64_t pk_conv_rows(const pk_conv_desc *d) {
  int64_t rows = 1;
  for (int i = 0; i < d->nb; i++) rows *= d->b_ext[i];
  for (int dd = 0; dd < d->nd - 1; dd++) rows *= d->p_ext[dd];
  return rows;
}

/* Whether a call with descriptor `d` (as given, or as pk_conv_collapse made it) runs through im2col: forced, or rows too
   short. */
static inline int pk_conv_im2col_rows(const pk_conv_desc *d) {
  return d->im2col || d->p_ext[d->nd - 1] < d->im2col_below;
}

/* The threads a call runs on: its team, where its work pays for waking one (pk_gemm_team_pays). */
static inline int pk_conv_threads(const pk_conv_desc *d) {
  double work = (double)pk_conv_rows(d) * (double)d->p_ext[d->nd - 1] * (double)d->K * (double)d->C;
  for (int dd = 0; dd < d->nd; dd++) work *= (double)d->r_ext[dd];
  return pk_gemm_team_pays(work) ? pk_threads() : 1;
}

/*
 * A 1×1 filter over dense, unpadded axes: the last two axes are one, so the call has fewer, longer rows; but no fewer
 * than `min_rows`. An im2col call's team shares its rows (or its output channels, where there are panels enough), never
 * a row's positions: 56×56 256→64 1×1, one row of 3136 positions and one panel of channels, ran on one thread of two.
 * Rows short enough for im2col stay apart on a team: merged, 7×7 512→2048 ran as one direct row of 49 positions, too
 * few blocks to share, 0.64-0.80× of im2col's speed at 2 threads (on one thread the direct row is as fast or faster).
 * A call with an epilogue merges alike: pk_conv_finish maps its blocks back to the axes the epilogue indexes (fused
 * 56×56 64→256 1×1 + bias + ReLU 1.03× at 1 thread against the axes kept apart).
 */
static inline void pk_conv_collapse(pk_conv_desc *d, int64_t min_rows) {
  int64_t rows = pk_conv_rows(d);
  d->given_nd = d->nd;
  memcpy(d->given_ext, d->p_ext, sizeof d->given_ext);
  if (!d->im2col && pk_conv_im2col_rows(d) && pk_conv_threads(d) > 1) return;
  while (d->nd >= 2) {
    const int L = d->nd - 1, M = L - 1;
    const int dense = d->r_ext[L] == 1 && d->r_ext[M] == 1 && d->stride[L] == 1 && d->stride[M] == 1 &&
        d->off[L] == 0 && d->off[M] == 0 && d->p_ext[L] == d->h_ext[L] && d->p_ext[M] == d->h_ext[M] &&
        d->in_s[M] == d->h_ext[L] * d->in_s[L] && d->out_s[M] == d->p_ext[L] * d->out_s[L];
    const int64_t fewer = rows / pk_max_i64(d->p_ext[M], 1);
    if (!dense || fewer < min_rows) return;
    rows = fewer;
    d->p_ext[M] *= d->p_ext[L];
    d->h_ext[M] = d->p_ext[M];
    d->in_s[M] = d->in_s[L];
    d->out_s[M] = d->out_s[L];
    d->nd--;
  }
}

/* pk_conv_im2col_rows after the collapse, for a call's descriptor as given: what pk_conv_prepare decides (a call site
   choosing a driver asks). */
static inline int pk_conv_runs_im2col(const pk_conv_desc *call) {
  pk_conv_desc d = *call;
  pk_conv_collapse(&d, 1);
  return pk_conv_im2col_rows(&d);
}

/* A channels-first call's output positions per block of a row: its team shares (row, block) items. */
static inline int64_t pk_conv_first_mc(const pk_conv_desc *d, int64_t mr) {
  return pk_even_block(d->p_ext[d->nd - 1], d->mc, mr);
}

/* How one call runs. */
typedef struct {
  /* The call's descriptor, its dense axes collapsed and im2col set when its rows are short. */
  pk_conv_desc d;
  int64_t rows, taps, groups;
  /* im2col: output rows per GEMM. */
  int64_t per;
  /* The filter read in place; packed block by block by each im2col GEMM (pack_blocks); neither: packed first. */
  int in_place, pack_blocks;
  /* The team members share the output channels (each running every GEMM, or channels first every block of
     positions, on its share) rather than the GEMMs or blocks. */
  int split_channels;
  int team;
} pk_conv_call;

/* How `call` runs on a microkernel of mr × nr tiles, in *c; 0 when it has no work. */
static inline int pk_conv_prepare(const pk_conv_desc *call, int64_t mr, int64_t nr, pk_conv_call *c) {
  c->d = *call;
  pk_conv_desc *d = &c->d;
  pk_conv_collapse(d, d->im2col ? pk_threads() : 1);
  const int64_t rows = pk_conv_rows(d);
  int64_t taps = 1, groups = 1;
  for (int i = 0; i < d->nb; i++)
    if (d->b_flt[i] != 0) groups *= d->b_ext[i];
  for (int dd = 0; dd < d->nd; dd++) taps *= d->r_ext[dd];
  const int L = d->nd - 1;
  const int64_t Q = d->p_ext[L];
  if (rows <= 0 || Q <= 0 || taps <= 0 || d->K <= 0 || d->C <= 0) return 0;
  d->im2col = pk_conv_im2col_rows(d);
  /* Packing the filter pays when enough output positions reuse it; in place, B's rows must be F's (taps, c) rows. */
  int dense = d->flt_s[L] == d->C * d->flt_c;
  for (int dd = 0; dd < L; dd++) dense = dense && d->flt_s[dd] == d->r_ext[dd + 1] * d->flt_s[dd + 1];
  const int in_place = !d->channels_first && d->flt_k == 1 && (dense || !d->im2col) &&
      rows * Q / groups < d->pack_filter_from;
  const int threads = pk_conv_threads(d);
  int64_t per = d->im2col ? pk_conv_chunk(d, rows, taps, threads) : 1;
  int64_t items = d->im2col ? (rows + per - 1) / per : rows * ((Q + mr - 1) / mr);
  /*
   * An im2col call with a GEMM or less per thread (a small feature map) whose rows do not split evenly (7 of them:
   * 4 + 3) splits its output channels between the threads instead, in whole panels: each builds every im2col row and
   * packs only its own channels. Measured at 2 threads, 3×3 7×7 × 512: 223 -> 242 GFLOP/s; with 14 even rows of 14×14
   * × 256, splitting channels ran 17% slower (each thread's im2col buffer twice as large, past half of L2).
   */
  /*
   * A channels-first call whose blocks of positions leave a thread idle, or the threads uneven by more than a
   * twentieth, splits its output channels instead, two panels or more each: each member then also reads only its
   * share of the filter. 2 threads, AMD Zen 5 AVX-512, builds alternating in one process (GFLOP/s): 7×7 512→512 3×3
   * (7 rows: 4 + 3) 57 -> 79, 9×9 100→70 92 -> 104, 7×7 512→2048 1×1 (one block) 114 -> 121; 56×56 256→64 1×1, whose
   * 33 blocks split evenly enough, ran 0.89× split.
   */
  const int64_t first_mc = d->channels_first ? pk_conv_first_mc(d, mr) : Q;
  const int64_t first_items = rows * ((Q + first_mc - 1) / first_mc);
  const int split_first = d->channels_first && threads > 1 && d->K >= 2 * threads * mr &&
      20 * ((first_items + threads - 1) / threads * threads - first_items) > first_items;
  const int split_channels = split_first || (d->im2col && !d->channels_first && threads > 1 && items <= threads &&
      rows % threads != 0 && d->K >= threads * nr);
  if (split_channels) per = pk_conv_chunk(d, rows, taps, 1), items = (rows + per - 1) / per;
  const int team = split_channels ? threads : (int)pk_min64(threads, items);
  /*
   * An im2col call of one GEMM per thread reads each filter block once: packed as it goes, the block is in L2 when
   * the microkernel reads it, where packing the whole filter first would write it out and read it back from memory.
   */
  c->pack_blocks = !in_place && d->im2col && !d->channels_first && (split_channels || items <= team);
  c->rows = rows, c->taps = taps, c->groups = groups, c->per = per;
  c->in_place = in_place, c->split_channels = split_channels, c->team = team;
  return 1;
}

/*
 * Everything a driver's packing of the whole filter reads, to find a bound filter's packed form (polykern_bound.h):
 * the packing function (one per microkernel and layout), the filter's address, and its shape and strides as the
 * call's descriptor has them after pk_conv_collapse. Zeroed first, so that padding compares equal.
 */
typedef struct {
  const void *packer, *flt;
  int64_t nb, nd, channels_first, taps, groups, C, K, flt_c, flt_k;
  int64_t b_ext[4], b_flt[4], r_ext[3], flt_s[3];
} pk_conv_form_key;

static inline pk_conv_form_key pk_conv_form_key_of(const pk_conv_call *c, const void *packer) {
  pk_conv_form_key k;
  memset(&k, 0, sizeof k);
  const pk_conv_desc *d = &c->d;
  k.packer = packer, k.flt = d->flt, k.nb = d->nb, k.nd = d->nd, k.channels_first = d->channels_first;
  k.taps = c->taps, k.groups = c->groups, k.C = d->C, k.K = d->K, k.flt_c = d->flt_c, k.flt_k = d->flt_k;
  /* Batch axes that do not index the filter (images) are not part of it: any count of images reads the same form. */
  for (int i = 0; i < d->nb; i++) k.b_ext[i] = d->b_flt[i] != 0 ? d->b_ext[i] : 0, k.b_flt[i] = d->b_flt[i];
  memcpy(k.r_ext, d->r_ext, sizeof k.r_ext), memcpy(k.flt_s, d->flt_s, sizeof k.flt_s);
  return k;
}

/*
 * A microkernel's register tiles as schedule/conv-slicing.ts's model costs them (tileCostTable): its tile heights, MR
 * first (rows past the full tiles run on the shortest holding them), and per height and width in vectors the cycles
 * of one k step and of a call around its k loop, at [height · NR/lanes + vectors - 1].
 */
typedef struct {
  int64_t mr, nr, lanes, heights;
  const int64_t *height;
  const double *step, *call;
} pk_tile_costs;

/* Modelled cycles of an M × N product of k steps on those tiles. */
static inline double pk_tile_cycles(const pk_tile_costs *t, int64_t M, int64_t N, int64_t k) {
  const int64_t widest = t->nr / t->lanes, rest_rows = M % t->mr, rest_cols = N % t->nr;
  const int64_t count_r[2] = {M / t->mr, rest_rows > 0}, count_c[2] = {N / t->nr, rest_cols > 0};
  int64_t h[2] = {0, 0};
  const int64_t v[2] = {widest, (rest_cols + t->lanes - 1) / t->lanes};
  for (int64_t i = 0; i < t->heights; i++)
    if (t->height[i] >= rest_rows) h[1] = i;
  double cycles = 0;
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++) {
      if (count_r[i] == 0 || count_c[j] == 0) continue;
      const int64_t at = h[i] * widest + v[j] - 1;
      cycles += (double)(count_r[i] * count_c[j]) * ((double)k * t->step[at] + t->call[at]);
    }
  return cycles;
}

/*
 * Modelled cycles of the slowest team member of im2col call c on those tiles: its GEMMs (per·Q positions, the last
 * one fewer) over its channels, or its share of the GEMMs over every channel.
 */
static inline double pk_conv_im2col_cycles(const pk_conv_call *c, const pk_tile_costs *t) {
  const int64_t Q = c->d.p_ext[c->d.nd - 1], k = c->taps * c->d.C;
  const int64_t chunks = (c->rows + c->per - 1) / c->per, last = c->rows - (chunks - 1) * c->per;
  if (c->split_channels) {
    int64_t j0, j1;
    pk_share(c->d.K, t->nr, c->team - 1, c->team, &j0, &j1);
    return (double)(chunks - 1) * pk_tile_cycles(t, c->per * Q, j1 - j0, k) + pk_tile_cycles(t, last * Q, j1 - j0, k);
  }
  return (double)((chunks + c->team - 1) / c->team) * pk_tile_cycles(t, c->per * Q, c->d.K, k);
}

/* A driver a call site may choose per call: its modelled cycles for a call (0: it has no work) and its run. */
typedef struct {
  double (*cycles)(const pk_conv_desc *);
  int (*run)(const pk_conv_desc *);
} pk_conv_driver;

/* Runs the call on the driver of n whose model costs least (the first on ties). */
static inline int pk_conv_run_cheapest(const pk_conv_desc *d, const pk_conv_driver *drivers, int n) {
  int best = 0;
  double least = drivers[0].cycles(d);
  for (int i = 1; i < n; i++) {
    const double cycles = drivers[i].cycles(d);
    if (cycles < least) best = i, least = cycles;
  }
  return drivers[best].run(d);
}

/* What the members of a call's team share. */
typedef struct {
  const pk_conv_call *c;
  /* The packed filter, of the driver's element type; NULL when read in place or packed block by block (by an im2col
     GEMM, or into `own`). */
  const void *pf;
  /* Not NULL: each member packs each block of the filter into a copy of its own just before it runs its rows over
     the block, member t's copy `own_elements` · t elements on. */
  void *own;
  int64_t own_elements;
  int failed;
} pk_conv_ctx;

#endif
