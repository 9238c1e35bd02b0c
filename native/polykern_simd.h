/*
 * What the generated blocked GEMMs share across ISAs: per-thread pack buffers (polykern_scratch.h), the even split of
 * a range between threads, offset tables and domains, and, per element type, the call descriptor each kernel fills in,
 * the loop nest every blocking runs and the loop over a call's batch of GEMMs (polykern_gemm_run.h,
 * polykern_gemm_member.h). The microkernels, packs and each blocking's shape are generated per ISA (emit/c-gemm.ts)
 * inside that ISA's `#pragma GCC target` region, in the ISA's own C file, after the ISA's header (polykern_avx512.h...)
 * that declares its intrinsics. Nothing here depends on the ISA.
 */
#ifndef POLYKERN_SIMD_H
#define POLYKERN_SIMD_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "polykern_attributes.h"
#include "polykern_bound.h"
#include "polykern_math.h"
#include "polykern_pool.h"
#include "polykern_scratch.h"

/* One constraint of a triangular domain of C (ContractionRoles.domain): a·i + b·j + c >= 0, or == 0 when `eq`, over
   the GEMM's row i and column j (its m and n indices). */
typedef struct {
  int64_t a, b, c;
  int eq;
} pk_domain;

#define PK_MAX_DOMAIN 4

/* Row-major offsets of a role of `dims` indices (extents, and element strides in one tensor): out[l] is the offset of
   the l-th point of the role's GEMM dimension, the last index fastest. A role with an empty extent has no points:
   nothing is written (the inner extents would otherwise fill entries past its table). */
PK_CALLED void pk_offsets(int64_t *out, int dims, const int64_t *extent, const int64_t *stride) {
  for (int d = 0; d < dims; d++)
    if (extent[d] <= 0) return;
  int64_t count = 1;
  out[0] = 0;
  for (int d = dims - 1; d >= 0; d--) {
    for (int64_t i = 1; i < extent[d]; i++)
      for (int64_t l = 0; l < count; l++) out[i * count + l] = out[l] + i * stride[d];
    count *= extent[d];
  }
}

static void pk_offsets_tiled_from(int64_t **out, int q, int pieces, const int64_t *extent, const int64_t *stride,
                                  const int *part, const int *mate, const int64_t *block, int64_t *at, int64_t offset) {
  /* The innermost loop writes its points itself: a call per point cost intensli abcd-deca-be 8% of its time. */
  if (q == pieces - 1 && part[q] != 1) {
    const int64_t left = part[q] == 0 ? extent[q] : extent[q] - at[mate[q]];
    const int64_t n = part[q] == 0 || left < block[mate[q]] ? left : block[mate[q]];
    for (int64_t i = 0; i < n; i++) *(*out)++ = offset + i * stride[q];
    return;
  }
  if (q == pieces) {
    *(*out)++ = offset;
    return;
  }
  if (part[q] == 0) {
    for (int64_t i = 0; i < extent[q]; i++)
      pk_offsets_tiled_from(out, q + 1, pieces, extent, stride, part, mate, block, at, offset + i * stride[q]);
  } else if (part[q] == 1) {
    for (int64_t b = 0; b * block[q] < extent[q]; b++) {
      at[q] = b * block[q];
      pk_offsets_tiled_from(out, q + 1, pieces, extent, stride, part, mate, block, at, offset + b * block[q] * stride[q]);
    }
  } else {
    for (int64_t i = 0; i < block[mate[q]] && at[mate[q]] + i < extent[q]; i++)
      pk_offsets_tiled_from(out, q + 1, pieces, extent, stride, part, mate, block, at, offset + i * stride[q]);
  }
}

/* Offsets of a role walked in `pieces` loops, outermost first (a tiled order): loop q runs over all of an index
   (part 0), its blocks of block[q] points (1), or the positions within the block its `mate` loop is at (2), skipping
   those past the index's extent; extent and stride are its index's. Every point once, as pk_offsets, in another
   order. */
PK_CALLED void pk_offsets_tiled(int64_t *out, int pieces, const int64_t *extent, const int64_t *stride,
                                const int *part, const int *mate, const int64_t *block) {
  int64_t at[16];
  for (int q = 0; q < pieces; q++)
    if (extent[q] <= 0 || (part[q] == 1 && block[q] <= 0)) return;
  pk_offsets_tiled_from(&out, 0, pieces, extent, stride, part, mate, block, at, 0);
}

/* The fewest points, a power of two, of an index whose runs of `run` elements make whole vectors of `lanes` (a power
   of two): a pitched order's block of C's second index (schedule/role-orders.ts). */
static inline int64_t pk_lane_block(int64_t run, int64_t lanes) {
  int64_t b = 1;
  while (b < lanes && b * run % lanes != 0) b *= 2;
  return b;
}

/* A transposing gather's blocks of `lanes` k steps whose source offsets o[0..kb) are consecutive: step p + sigma*j
   holds o[p] + j for j < lanes, so one vector load along the source reads them all. sigma is 1 where the source's
   stride-1 index is k's innermost, a tiled order's block width (or the extent of the indices inside it) where it is
   not: each block goes into start[], sigma[] and steps[] (lanes), and every step in no block into single[] (copied
   one at a time). sigma is tried as the last block's first, then searched. A run of consecutive steps cut short
   before `lanes` (the end of k, an index's last partial line) is a block of its own steps[] (sigma 1, read through a
   lane mask) from a quarter vector on: one at a time, k = 56's last 8 steps were a third of the B gather of TCCG's
   abcd-ebad-ce (AVX-512). */
#define PK_K_BLOCK_MIN_STEPS(lanes) ((lanes) / 4 > 2 ? (lanes) / 4 : 2)
static inline void pk_k_blocks(const int64_t *o, int64_t kb, int64_t lanes, int32_t *start, int32_t *sigma,
                               int32_t *steps, int64_t *blocks, int32_t *single, int64_t *singles) {
  unsigned char covered[kb > 0 ? kb : 1];
  /* covered[] is cleared and read only once a block of sigma > 1 marks steps ahead. */
  int strided = 0;
  int64_t s = 1, nb = 0, ns = 0;
  for (int64_t p = 0; p < kb; p++) {
    if (strided && covered[p]) continue;
    if (!(p + s * (lanes - 1) < kb && o[p + s] == o[p] + 1)) {
      s = 0;
      for (int64_t q = p + 1; (q - p) * (lanes - 1) < kb - p && !s; q++)
        if (o[q] == o[p] + 1) s = q - p;
    }
    int ok = s > 0 && p + s * (lanes - 1) < kb;
    if (ok) {
      /* No early exit: gcc vectorizes the test of a whole block. */
      int64_t off = 0;
      for (int64_t j = 1; j < lanes; j++) off |= o[p + s * j] ^ (o[p] + j);
      ok = off == 0;
      for (int64_t j = 1; ok && strided && j < lanes; j++) ok = !covered[p + s * j];
    }
    if (!ok && s <= 1 && p + 1 < kb && o[p + 1] == o[p] + 1) {
      /* A run cut short (an index's last partial line): no block of its steps reaches past the cut either. */
      int64_t end = p + 1;
      while (end < kb && end < p + lanes && o[end] == o[end - 1] + 1 && !(strided && covered[end])) end++;
      if (end - p >= PK_K_BLOCK_MIN_STEPS(lanes))
        start[nb] = (int32_t)p, sigma[nb] = 1, steps[nb++] = (int32_t)(end - p);
      else
        for (int64_t i = p; i < end; i++) single[ns++] = (int32_t)i;
      p = end - 1;
      continue;
    }
    if (ok) {
      start[nb] = (int32_t)p, sigma[nb] = (int32_t)s, steps[nb++] = (int32_t)lanes;
      /* A run covers the next steps: skip them; no later block starts before its end. */
      if (s == 1) {
        p += lanes - 1;
      } else {
        if (!strided) __builtin_memset(covered, 0, (size_t)kb), strided = 1;
        for (int64_t j = 0; j < lanes; j++) covered[p + s * j] = 1;
      }
    } else {
      single[ns++] = (int32_t)p;
    }
    if (s == 0) s = 1;
  }
  *blocks = nb, *singles = ns;
}

/* The runs of o[0..n) whose entries are consecutive (o[i + 1] == o[i] + 1): run r is [start[r], start[r + 1]); returns
   their count (start has n + 1 entries). A gathered tile or panel is copied run by run, each run a contiguous copy. */
static inline int64_t pk_runs(const int64_t *o, int64_t n, int64_t *start) {
  int64_t runs = 0;
  for (int64_t i = 0; i < n; i++)
    if (i == 0 || o[i] != o[i - 1] + 1) start[runs++] = i;
  start[runs] = n;
  return runs;
}

/* How many entries after o[x] the entry one further along, o[x] + 1, comes: a transposing gather's group (columns of
   one index at each step of another). 0 when it is not among the next `reach` entries of o[0..len). */
static inline int64_t pk_step_group(const int64_t *o, int64_t x, int64_t len, int64_t reach) {
  for (int64_t g = 1; g <= reach && x + g < len; g++)
    if (o[x + g] == o[x] + 1) return g;
  return 0;
}

/* Where one vector of a gathered C tile's row goes, relative to the row: lanes [0, split) at lo + lane, lanes
   [split, lanes) at hi + lane (hi == lo and split == lanes for a vector that is one run). */
typedef struct {
  int64_t lo, hi;
  int split;
} pk_vector_place;

/* The places of the vectors (`lanes` entries from every multiple of lanes) of the column offsets o[0..n). Returns 0
   when every vector is one run, 1 when some are two and the tile is `width` wide (two runs store through two masks,
   with no room left for a column edge), -1 otherwise: the tile goes through a local copy. */
static inline int pk_vector_places(const int64_t *o, int64_t n, int64_t lanes, int64_t width, pk_vector_place *vp) {
  int split = 0;
  for (int64_t v0 = 0, v = 0; v0 < n; v0 += lanes, v++) {
    const int64_t end = v0 + lanes < n ? v0 + lanes : n;
    /* Counted without branches first (gcc vectorizes the count): most vectors are one run. */
    int64_t breaks = 0;
    for (int64_t i = v0 + 1; i < end; i++) breaks += o[i] != o[i - 1] + 1;
    if (breaks > 1) return -1;
    int64_t s = end;
    for (int64_t i = v0 + 1; breaks > 0 && i < end && s == end; i++)
      if (o[i] != o[i - 1] + 1) s = i;
    vp[v].lo = o[v0];
    vp[v].hi = s < end ? o[s] - (s - v0) : o[v0];
    vp[v].split = (int)(s - v0);
    split |= s < end;
  }
  return split && n != width ? -1 : split;
}

/* Where the tile [i0, i0 + rows) × [j0, j0 + cols) of C lies against a domain: 1 inside, 0 outside, -1 on its edge.
   Each constraint is affine, so its least and greatest values over the tile are at corners. */
static inline int pk_tile_in_domain(const pk_domain *dom, int n, int64_t i0, int64_t rows, int64_t j0, int64_t cols) {
  int inside = 1;
  for (int q = 0; q < n; q++) {
    const pk_domain *d = dom + q;
    const int64_t i_lo = d->a >= 0 ? i0 : i0 + rows - 1, i_hi = d->a >= 0 ? i0 + rows - 1 : i0;
    const int64_t j_lo = d->b >= 0 ? j0 : j0 + cols - 1, j_hi = d->b >= 0 ? j0 + cols - 1 : j0;
    const int64_t lo = d->a * i_lo + d->b * j_lo + d->c, hi = d->a * i_hi + d->b * j_hi + d->c;
    if (hi < 0 || (d->eq && lo > 0)) return 0;
    if (lo < 0 || (d->eq && hi > 0)) inside = 0;
  }
  return inside ? 1 : -1;
}

static inline int pk_in_domain(const pk_domain *dom, int n, int64_t i, int64_t j) {
  for (int q = 0; q < n; q++) {
    const int64_t v = dom[q].a * i + dom[q].b * j + dom[q].c;
    if (dom[q].eq ? v != 0 : v < 0) return 0;
  }
  return 1;
}

/* The least m·n·k a GEMM needs before it wakes the pool: an FMA lane is about 1/32 of a scalar loop iteration. */
#define PK_GEMM_PARALLEL_MIN_WORK (32.0 * PK_PARALLEL_MIN_WORK)
/* ... and before it hands work to workers still spinning from the last call (pk_pool_warm: calls in a loop). Intel
   AVX-512, 2 threads against 1, back-to-back calls: 64³ 124 -> 170 GFLOP/s, 96³ 143 -> 245; a call after the
   workers slept took 15-23 µs serially and 27-31 µs woken, so only warm workers get such small work. */
#define PK_GEMM_WARM_MIN_WORK (4.0 * PK_PARALLEL_MIN_WORK)

/*
 * Whether a GEMM (or convolution) of `work` multiply-adds runs on more threads than one. Work that warm workers would
 * take but sleeping ones would not runs alone and nudges them awake (pk_pool_nudge), for the next call of a loop.
 */
static inline int pk_gemm_team_pays(double work) {
  if (pk_threads() <= 1 || work < PK_GEMM_WARM_MIN_WORK) return 0;
  if (work >= PK_GEMM_PARALLEL_MIN_WORK || pk_pool_warm()) return 1;
  pk_pool_nudge();
  return 0;
}

static inline int64_t pk_min64(int64_t a, int64_t b) { return a < b ? a : b; }

/* How many of the `lanes` lanes starting at column `from` lie below `cols`: the edge mask width. */
static inline int pk_edge_lanes(int64_t cols, int64_t from, int lanes) {
  return cols >= from + lanes ? lanes : cols > from ? (int)(cols - from) : 0;
}

/* ceil(x / r) * r for x >= 0, r > 0. */
static inline int64_t pk_round_up(int64_t x, int64_t r) { return (x + r - 1) / r * r; }

/* Whether `rows` rows `stride_bytes` apart, each read `lines` 64-byte lines at a time, put more than 8 lines in one L1
   set (64 sets a page spans): plugin/schedule/l1-sets.ts's rowsShareSets, which a call's guard for a B read in place
   asks at call time. */
static inline int pk_rows_share_sets(int64_t stride_bytes, int64_t rows, int64_t lines) {
  unsigned char count[64] = {0};
  const int64_t span = ((stride_bytes % 4096) + 4096) % 4096;
  for (int64_t r = 0; r < rows; r++) {
    const int64_t first = (r * span % 4096) / 64;
    for (int64_t w = 0; w < lines && w < 64; w++)
      if (++count[(first + w) % 64] > 8) return 1;
  }
  return 0;
}

/* The block size that cuts [0, total) into as few blocks of at most `most` as possible, all but the last the same
   whole number of units: 2048 in blocks of at most 1808 is two blocks of 1024, not 1808 and a thin 240. */
static inline int64_t pk_even_block(int64_t total, int64_t most, int64_t unit) {
  if (total <= 0) return most;
  const int64_t blocks = (total + most - 1) / most;
  return pk_round_up((total + blocks - 1) / blocks, unit);
}

/* The most a pitched order's packed B block may take (pk_slab_nc). */
#define PK_SLAB_BYTES (4 << 20)

/* A pitched order's n block (schedule/role-orders.ts pitched): the blocking's `nc`, or its slab (every point inside one
   block of C's second index) in whole panels of `nr` where that is more, as long as its packed B of `kb` k steps takes
   at most PK_SLAB_BYTES; else as many panels as do. */
static inline int64_t pk_slab_nc(int64_t nc, int64_t slab, int64_t nr, int64_t kb, int64_t bytes) {
  const int64_t most = PK_SLAB_BYTES / (pk_max_i64(kb, 1) * bytes) / nr * nr;
  return pk_max_i64(nc, pk_min64(pk_round_up(slab, nr), most));
}

/* The batch indices of a call: their extents and each operand's element stride along them. */
#define PK_MAX_BATCH 8
typedef struct {
  int dims;
  int64_t extent[PK_MAX_BATCH], a[PK_MAX_BATCH], b[PK_MAX_BATCH], c[PK_MAX_BATCH];
} pk_batch;

/* How a GEMM's team holds an operand's packed panels: none (read in place), in a buffer of each member's own, or in
   two buffers the team packs together (polykern_gemm_member.h). */
typedef enum { PK_GEMM_IN_PLACE, PK_GEMM_OWN, PK_GEMM_SHARED } pk_gemm_packing;

/* A GEMM's dimensions, as a blocking's shape names its block loops (polykern_gemm_member.h). */
enum { PK_GEMM_M, PK_GEMM_N, PK_GEMM_K, PK_GEMM_NONE };

/* The largest register tile a shape may have (emit/c-gemm.ts checks its microkernels against them). */
#define PK_GEMM_MAX_MR 16
#define PK_GEMM_MAX_NR 64

/* The tiles per member along the split range from which a team shares a panel (polykern_gemm_member.h). */
#define PK_GEMM_SHARED_MIN_TILES 24

/* A team splits k instead of its parallel range (polykern_gemm_member.h, PK_GEMM(splits_k)) when k is at least
   PK_GEMM_SPLIT_K_RATIO times that range's extent and C takes at most PK_GEMM_SPLIT_K_MOST_C_BYTES (half the
   smaller L2 we know, AMD Zen 3's 512 KiB: every member's C stays in its cache over its k blocks); each member's
   share of k is a multiple of PK_GEMM_SPLIT_K_UNIT steps. */
#define PK_GEMM_SPLIT_K_RATIO 8
#define PK_GEMM_SPLIT_K_MOST_C_BYTES (256 << 10)
#define PK_GEMM_SPLIT_K_UNIT 16

/* pk_gemm_f32 and pk_gemm_f64: the descriptor, the loop nest and the batch loop of each element type. */
#define PK_GEMM(name) pk_gemm_f32_##name
#define PK_GEMM_T float
#define PK_GEMM_DESC pk_gemm_f32
#include "polykern_gemm_run.h"
#define PK_GEMM(name) pk_gemm_f64_##name
#define PK_GEMM_T double
#define PK_GEMM_DESC pk_gemm_f64
#include "polykern_gemm_run.h"

#endif
