/* Direct and im2col convolutions on gemm_f32_avx512_8x48 (emit/c-conv.ts). */
typedef struct {
  const float *in, *flt;
  float *out;
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
} pk_conv_gemm_f32_avx512_8x48_desc;

typedef struct {
  const pk_conv_gemm_f32_avx512_8x48_desc *d;
  const float *pf;
  int64_t rows, taps;
  /*
   * im2col: output rows per GEMM; whether each GEMM packs the filter block by block as it runs (pf NULL); whether the
   * members share the output channels (each running every GEMM on its share) rather than the GEMMs.
   */
  int64_t per;
  int pack_blocks, split_channels;
  int failed;
} pk_conv_gemm_f32_avx512_8x48_ctx;

/* Where one output row starts: in the input, the output, the packed and the given filter (its group); its positions. */
typedef struct { int64_t in, out, pf, flt, p[3]; } pk_conv_gemm_f32_avx512_8x48_at;

static pk_conv_gemm_f32_avx512_8x48_at pk_conv_gemm_f32_avx512_8x48_locate(const pk_conv_gemm_f32_avx512_8x48_desc *d, int64_t row, int64_t group_elems) {
  pk_conv_gemm_f32_avx512_8x48_at at = {0, 0, 0, 0, {0, 0, 0}};
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
static int64_t pk_conv_gemm_f32_avx512_8x48_tap(const pk_conv_gemm_f32_avx512_8x48_desc *d, int64_t t) {
  int64_t off = 0;
  for (int dd = d->nd - 1; dd >= 0; dd--) off += t % d->r_ext[dd] * d->flt_s[dd], t /= d->r_ext[dd];
  return off;
}

/* Filter element offset of group g: the batch indices that index the filter, the last fastest. */
static int64_t pk_conv_gemm_f32_avx512_8x48_group(const pk_conv_gemm_f32_avx512_8x48_desc *d, int64_t g) {
  int64_t base = 0;
  for (int i = d->nb - 1; i >= 0; i--) {
    if (d->b_flt[i] == 0) continue;
    base += g % d->b_ext[i] * d->b_flt[i];
    g /= d->b_ext[i];
  }
  return base;
}

/* One row of a panel: n filter elements from `from` (flt_k apart), zeros past them to NR. */
static inline void pk_conv_gemm_f32_avx512_8x48_panel_row(const float *from, int64_t flt_k, int64_t n, float *restrict to) {
  if (n == 48 && flt_k == 1)
    for (int64_t x = 0; x < 48; x++) to[x] = from[x];
  else
    for (int64_t x = 0; x < 48; x++) to[x] = x < n ? from[x * flt_k] : 0;
}

/*
 * Every group's filter as NR-column panels of taps·C rows, zero-padded past K. Each (tap, c) row of the filter is
 * read once, along its output channels, and dealt out to the panels: reading a panel's NR columns down all rows
 * instead leaves the prefetchers a short stream per row (measured: 3×3 convolutions of 14×14 × 256 and 7×7 × 512
 * maps ran 12% and 28% slower that way, the filter being most of what they read).
 */
static void pk_conv_gemm_f32_avx512_8x48_pack(const pk_conv_gemm_f32_avx512_8x48_desc *d, int64_t taps, int64_t groups, float *restrict pf) {
  const int64_t kd = taps * d->C, kp = pk_round_up(d->K, 48);
  for (int64_t g = 0; g < groups; g++) {
    const int64_t base = pk_conv_gemm_f32_avx512_8x48_group(d, g);
    for (int64_t tap = 0; tap < taps; tap++) {
      const float *f = d->flt + base + pk_conv_gemm_f32_avx512_8x48_tap(d, tap);
      for (int64_t c = 0; c < d->C; c++) {
        const float *row = f + c * d->flt_c;
        float *restrict to = pf + g * kp * kd + (tap * d->C + c) * 48;
        for (int64_t x0 = 0; x0 < kp; x0 += 48)
          pk_conv_gemm_f32_avx512_8x48_panel_row(row + x0 * d->flt_k, d->flt_k, pk_min64(48, d->K - x0), to + x0 * kd);
      }
    }
  }
}

/*
 * The filter as the microkernel's B from some row on: packed (k row p of the panel holding column j at
 * b + j·panel + p·row, panel = taps·C, row = NR) or read in place (at b + j + p·row, row = F's channel stride).
 */
typedef struct {
  const float *b;
  int64_t row, panel;
  int packed;
} pk_conv_gemm_f32_avx512_8x48_b;

/* Tap t's rows from input channel pc on, output channels from jc on; pf NULL: the filter in place. */
static pk_conv_gemm_f32_avx512_8x48_b pk_conv_gemm_f32_avx512_8x48_filter(const pk_conv_gemm_f32_avx512_8x48_desc *d, const float *pf, const pk_conv_gemm_f32_avx512_8x48_at *at, int64_t taps, int64_t t,
    int64_t pc, int64_t jc) {
  if (pf != NULL) {
    const pk_conv_gemm_f32_avx512_8x48_b v = {pf + at->pf + jc * taps * d->C + (t * d->C + pc) * 48, 48, taps * d->C, 1};
    return v;
  }
  const pk_conv_gemm_f32_avx512_8x48_b v = {d->flt + at->flt + pk_conv_gemm_f32_avx512_8x48_tap(d, t) + pc * d->flt_c + jc, d->flt_c, 1, 0};
  return v;
}

/* The microkernel over rows output positions (A rows lda apart) and nb output channels. */
static void pk_conv_gemm_f32_avx512_8x48_tiles(int64_t rows, int64_t nb, int64_t kb, const float *a, int64_t lda, pk_conv_gemm_f32_avx512_8x48_b f, float *c,
    int64_t ldc) {
  for (int64_t jr = 0; jr < nb; jr += 48)
    for (int64_t ir = 0; ir < rows; ir += 8) {
      const int64_t m = pk_min64(8, rows - ir), n = pk_min64(48, nb - jr);
      if (f.packed) pk_ukr_gemm_f32_avx512_8x48_up(kb, a + ir * lda, lda, f.b + jr * f.panel, 0, c + ir * ldc + jr, ldc, m, n, 0);
      else pk_ukr_gemm_f32_avx512_8x48_uu(kb, a + ir * lda, lda, f.b + jr, f.row, c + ir * ldc + jr, ldc, m, n, 0);
    }
}

/*
 * The input offset of outer tap ot (its taps on every axis but the last) for the row at, in *in; 0 when one of its
 * input rows lies outside the input (padding: the tap contributes nothing to this row).
 */
static int pk_conv_gemm_f32_avx512_8x48_outer(const pk_conv_gemm_f32_avx512_8x48_desc *d, const pk_conv_gemm_f32_avx512_8x48_at *at, int64_t ot, int64_t *in) {
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
static void pk_conv_gemm_f32_avx512_8x48_inside(const pk_conv_gemm_f32_avx512_8x48_desc *d, int64_t base, int64_t *lo, int64_t *hi) {
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
static void pk_conv_gemm_f32_avx512_8x48_direct(const pk_conv_gemm_f32_avx512_8x48_desc *d, const float *pf, const pk_conv_gemm_f32_avx512_8x48_at *at, int64_t taps, int64_t ic,
    int64_t ie, int64_t jc, int64_t nb, int64_t pc, int64_t kb) {
  const int L = d->nd - 1;
  const int64_t s = d->stride[L], S = d->r_ext[L], lda = s * d->in_s[L], ldc = d->out_s[L];
  /* In place, the taps' rows must follow each other in F too. */
  const int fuse = S > 1 && d->dil[L] == 1 && kb == d->C && d->in_s[L] == d->C &&
      (pf != NULL || d->flt_s[L] == d->C * d->flt_c);
  for (int64_t ot = 0; ot < taps / S; ot++) {
    int64_t in;
    if (!pk_conv_gemm_f32_avx512_8x48_outer(d, at, ot, &in)) continue;
    float *c = d->out + at->out + jc;
    /* [flo, fhi): the positions whose taps all ran fused. */
    int64_t flo = ic, fhi = ic;
    if (fuse) {
      int64_t lo = ic, hi = ie, lo_last = ic, hi_last = ie;
      pk_conv_gemm_f32_avx512_8x48_inside(d, d->off[L], &lo, &hi);
      pk_conv_gemm_f32_avx512_8x48_inside(d, S - 1 + d->off[L], &lo_last, &hi_last);
      flo = pk_max_i64(lo, lo_last), fhi = pk_min64(hi, hi_last);
      if (fhi > flo) {
        const float *a = d->in + in + (s * flo + d->off[L]) * d->in_s[L];
        pk_conv_gemm_f32_avx512_8x48_tiles(fhi - flo, nb, S * d->C, a, lda, pk_conv_gemm_f32_avx512_8x48_filter(d, pf, at, taps, ot * S, 0, jc), c + flo * ldc, ldc);
      } else {
        fhi = flo = ic;
      }
    }
    for (int64_t sw = 0; sw < S; sw++) {
      const int64_t base = d->dil[L] * sw + d->off[L];
      int64_t lo = ic, hi = ie;
      pk_conv_gemm_f32_avx512_8x48_inside(d, base, &lo, &hi);
      const float *a = d->in + in + base * d->in_s[L] + pc;
      const pk_conv_gemm_f32_avx512_8x48_b f = pk_conv_gemm_f32_avx512_8x48_filter(d, pf, at, taps, ot * S + sw, pc, jc);
      /* Both sides of the fused positions. */
      const int64_t cut[2][2] = {{lo, pk_min64(hi, flo)}, {pk_max_i64(lo, fhi), hi}};
      for (int side = 0; side < 2; side++) {
        const int64_t from = cut[side][0], to = cut[side][1];
        if (to > from) pk_conv_gemm_f32_avx512_8x48_tiles(to - from, nb, kb, a + from * lda, lda, f, c + from * ldc, ldc);
      }
    }
  }
}

/*
 * Channels first (NCHW): output channels [0, K) are the microkernel's rows (A: the tap's filter, packed in MR-row
 * panels), output positions [ic, ie) along the last axis its columns (B: input rows read in place, one input channel
 * per row of B, unit stride), input channels [pc, pc + kb) its k loop; padding as in the channels-last path.
 */
static void pk_conv_gemm_f32_avx512_8x48_first(const pk_conv_gemm_f32_avx512_8x48_desc *d, const float *pf, const pk_conv_gemm_f32_avx512_8x48_at *at, int64_t taps, int64_t ic,
    int64_t ie, int64_t pc, int64_t kb) {
  const int L = d->nd - 1;
  const int64_t S = d->r_ext[L], ldc = d->out_k, kp = pk_round_up(d->K, 8);
  for (int64_t ot = 0; ot < taps / S; ot++) {
    int64_t in;
    if (!pk_conv_gemm_f32_avx512_8x48_outer(d, at, ot, &in)) continue;
    for (int64_t sw = 0; sw < S; sw++) {
      const int64_t base = d->dil[L] * sw + d->off[L];
      int64_t lo = ic, hi = ie;
      pk_conv_gemm_f32_avx512_8x48_inside(d, base, &lo, &hi);
      if (hi <= lo) continue;
      const float *a = pf + at->pf + (ot * S + sw) * kp * d->C + pc * 8;
      const float *b = d->in + in + base + lo + pc * d->in_c;
      float *c = d->out + at->out + lo;
      for (int64_t jr = 0; jr < hi - lo; jr += 48)
        for (int64_t ir = 0; ir < d->K; ir += 8)
          pk_ukr_gemm_f32_avx512_8x48_pu(kb, a + ir * d->C, 0, b + jr, d->in_c, c + ir * ldc + jr, ldc, pk_min64(8, d->K - ir),
              pk_min64(48, hi - lo - jr), 0);
    }
  }
}

/* Channels first: every group's filter, tap after tap, as 8-row panels of output channels over C. */
static void pk_conv_gemm_f32_avx512_8x48_pack_first(const pk_conv_gemm_f32_avx512_8x48_desc *d, int64_t taps, int64_t groups, float *restrict pf) {
  const int64_t kp = pk_round_up(d->K, 8);
  for (int64_t g = 0; g < groups; g++) {
    const int64_t base = pk_conv_gemm_f32_avx512_8x48_group(d, g);
    for (int64_t tap = 0; tap < taps; tap++)
      pk_pack_a_gemm_f32_avx512_8x48(d->K, d->C, d->flt + base + pk_conv_gemm_f32_avx512_8x48_tap(d, tap), d->flt_k, d->flt_c, pf + (g * taps + tap) * kp * d->C);
  }
}

/* One row's windows into col (Q × taps·C, zeros outside the input): im2col. */
static void pk_conv_gemm_f32_avx512_8x48_im2col(const pk_conv_gemm_f32_avx512_8x48_desc *d, const pk_conv_gemm_f32_avx512_8x48_at *at, int64_t taps, float *restrict col) {
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
      float *restrict to = col + q * kd + tap * d->C;
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
static int64_t pk_conv_gemm_f32_avx512_8x48_block_elems(const pk_conv_gemm_f32_avx512_8x48_desc *d, int64_t taps, int64_t m, int64_t n, int64_t k) {
  const int L = d->nd - 1;
  const int64_t S = d->r_ext[L], windows = (m - 1) * d->stride[L] + (S - 1) * d->dil[L] + 1;
  return taps * k * n + m * n + taps / S * windows * k;
}

static void pk_conv_gemm_f32_avx512_8x48_slice(const pk_conv_gemm_f32_avx512_8x48_desc *d, int64_t taps, int64_t *mc, int64_t *nc, int64_t *kc) {
  const int64_t k = pk_min64(d->kc, d->C);
  int64_t m = pk_round_up(d->p_ext[d->nd - 1], 8), n = pk_round_up(d->K, 48);
  while (pk_conv_gemm_f32_avx512_8x48_block_elems(d, taps, m, n, k) > d->l2 && m > pk_min64(d->mc, 4 * 8))
    m = pk_max_i64(8, pk_round_up(m / 2, 8));
  while (pk_conv_gemm_f32_avx512_8x48_block_elems(d, taps, m, n, k) > d->l2 && n > 48) n = pk_max_i64(48, pk_round_up(n / 2, 48));
  *mc = m, *nc = n, *kc = k;
}

/* Row tap·C + c of im2col's filter matrix, in the given filter: F[tap, c, 0]. */
static inline const float *pk_conv_gemm_f32_avx512_8x48_matrix_row(const pk_conv_gemm_f32_avx512_8x48_desc *d, const pk_conv_gemm_f32_avx512_8x48_at *at, int64_t row) {
  return d->flt + at->flt + pk_conv_gemm_f32_avx512_8x48_tap(d, row / d->C) + row % d->C * d->flt_c;
}

/*
 * Rows [pc, pc + kb) of im2col's filter matrix (row tap·C + c), columns [jc, jc + nb), as NR-column panels of kb rows
 * at buf (zero-padded to whole panels): the block one step of im2col's GEMM reads, packed just before, into L2. Its
 * rows, when a block's width of a longer filter row, are too short a run for the hardware prefetchers, so the copy
 * asks for the row 4 ahead itself (measured, 7×7 × 512 3×3 on AVX2: 57 -> 63 GFLOP/s); whole rows
 * are long runs (in a dense filter, one run) the prefetchers keep up with, and prefetching them too ran slower.
 */
static void pk_conv_gemm_f32_avx512_8x48_pack_block(const pk_conv_gemm_f32_avx512_8x48_desc *d, const pk_conv_gemm_f32_avx512_8x48_at *at, int64_t pc, int64_t kb, int64_t jc, int64_t nb,
    float *restrict buf) {
  for (int64_t p = 0; p < kb; p++) {
    const float *row = pk_conv_gemm_f32_avx512_8x48_matrix_row(d, at, pc + p) + jc * d->flt_k;
    if (d->flt_k == 1 && p + 4 < kb && nb < d->K) {
      const float *ahead = pk_conv_gemm_f32_avx512_8x48_matrix_row(d, at, pc + p + 4) + jc;
      for (int64_t x = 0; x < nb; x += 64 / sizeof(float)) _mm_prefetch((const char *)(ahead + x), _MM_HINT_T0);
    }
    for (int64_t x0 = 0; x0 < nb; x0 += 48)
      pk_conv_gemm_f32_avx512_8x48_panel_row(row + x0 * d->flt_k, d->flt_k, pk_min64(48, nb - x0), buf + x0 * kb + p * 48);
  }
}

/*
 * im2col's GEMM blocks for M positions: kc rows of the filter matrix by nc columns (whole panels). The filter block and
 * the M × nc output block take the L2 share the plan gave the direct path's blocks (every tap's filter block and an
 * mc × nc output block), so fewer positions get wider blocks: their packed rows are longer runs to read, and fewer
 * blocks re-walk the same im2col rows. Where the share holds 32 rows or more of every output
 * channel, the block takes whole filter rows instead: one sequential run of the filter, which the prefetchers follow,
 * where part rows are short runs a stride apart. Measured on AVX2, 1 thread (median GFLOP/s): 7×7 512→512 3×3 42.7 -> 51.1, 14×14
 * 256→256 60.3 -> 64.4.
 */
static int64_t pk_conv_gemm_f32_avx512_8x48_gemm_kc(const pk_conv_gemm_f32_avx512_8x48_desc *d, int64_t taps) { return pk_even_block(taps * d->C, d->kc, 1); }

static void pk_conv_gemm_f32_avx512_8x48_gemm_blocks(const pk_conv_gemm_f32_avx512_8x48_desc *d, int64_t taps, int64_t M, int64_t *kc, int64_t *nc) {
  int64_t mc0, nc0, kc0;
  pk_conv_gemm_f32_avx512_8x48_slice(d, taps, &mc0, &nc0, &kc0);
  const int64_t share = (taps * kc0 + mc0) * nc0, whole = pk_round_up(d->K, 48), most = pk_conv_gemm_f32_avx512_8x48_gemm_kc(d, taps);
  const int64_t deep = pk_min64(most, share / (whole + M));
  *kc = most;
  *nc = pk_even_block(d->K, pk_max_i64(nc0, share / (kc0 + M) / 48 * 48), 48);
  if (*nc < whole && deep >= 32) *kc = pk_even_block(taps * d->C, deep, 1), *nc = whole;
}

/*
 * The GEMM of im2col: M positions of col (rows kd = taps·C apart) times the filter (its taps' rows one after another,
 * packed, in place, or packed block by block into buf when buf is not NULL) of the row at, into the output from that
 * row on: output channels [j0, j1).
 */
static void pk_conv_gemm_f32_avx512_8x48_gemm(const pk_conv_gemm_f32_avx512_8x48_desc *d, const float *pf, const pk_conv_gemm_f32_avx512_8x48_at *at, int64_t taps, int64_t M,
    const float *col, float *buf, int64_t j0, int64_t j1) {
  const int64_t ldc = d->out_s[d->nd - 1], kd = taps * d->C;
  int64_t kc, nc;
  pk_conv_gemm_f32_avx512_8x48_gemm_blocks(d, taps, M, &kc, &nc);
  for (int64_t jc = j0; jc < j1; jc += nc) {
    const int64_t nb = pk_min64(nc, j1 - jc);
    for (int64_t pc = 0; pc < kd; pc += kc) {
      const int64_t kb = pk_min64(kc, kd - pc);
      pk_conv_gemm_f32_avx512_8x48_b f = {buf, 48, kb, 1};
      if (buf != NULL) pk_conv_gemm_f32_avx512_8x48_pack_block(d, at, pc, kb, jc, nb, buf);
      else f = pk_conv_gemm_f32_avx512_8x48_filter(d, pf, at, taps, 0, pc, jc);
      pk_conv_gemm_f32_avx512_8x48_tiles(M, nb, kb, col + pc, kd, f, d->out + at->out + jc, ldc);
    }
  }
}

/*
 * Output rows per im2col GEMM: enough for 512 positions (whole images of small feature maps, as im2col + BLAS
 * runs them), within a buffer of 4194304 elements, and a GEMM for each of the threads.
 */
static int64_t pk_conv_gemm_f32_avx512_8x48_chunk(const pk_conv_gemm_f32_avx512_8x48_desc *d, int64_t rows, int64_t taps, int threads) {
  const int64_t Q = d->p_ext[d->nd - 1], kd = taps * d->C;
  const int64_t want = (512 + Q - 1) / Q, fits = 4194304 / (Q * kd);
  return pk_max_i64(1, pk_min64((rows + threads - 1) / threads, pk_min64(want, fits)));
}

static void pk_conv_gemm_f32_avx512_8x48_member(void *arg, int t, int nt) {
  pk_conv_gemm_f32_avx512_8x48_ctx *x = arg;
  const pk_conv_gemm_f32_avx512_8x48_desc *d = x->d;
  const int64_t group = pk_round_up(d->K, d->channels_first ? 8 : 48) * x->taps * d->C;
  if (d->im2col) {
    const int L = d->nd - 1;
    const int64_t Q = d->p_ext[L], kd = x->taps * d->C, ldc = d->out_s[L], per = x->per;
    float *col = pk_scratch(1, per * Q * kd, sizeof(float));
    float *buf = x->pack_blocks ? pk_scratch(0, pk_conv_gemm_f32_avx512_8x48_gemm_kc(d, x->taps) * pk_round_up(d->K, 48), sizeof(float)) : NULL;
    if (col == NULL || (x->pack_blocks && buf == NULL)) {
      __atomic_store_n(&x->failed, 1, __ATOMIC_RELAXED);
      return;
    }
    const int64_t chunks = (x->rows + per - 1) / per;
    int64_t c0 = 0, c1 = chunks, j0 = 0, j1 = d->K;
    if (x->split_channels) pk_share(d->K, 48, t, nt, &j0, &j1);
    else pk_share(chunks, 1, t, nt, &c0, &c1);
    for (int64_t chunk = c0; chunk < c1; chunk++) {
      const int64_t r0 = chunk * per, r1 = pk_min64(x->rows, r0 + per);
      /* One GEMM over rows whose outputs follow each other and share a filter; a gap starts the next one. */
      pk_conv_gemm_f32_avx512_8x48_at first = pk_conv_gemm_f32_avx512_8x48_locate(d, r0, group);
      int64_t n = 0;
      for (int64_t row = r0; row < r1; row++) {
        const pk_conv_gemm_f32_avx512_8x48_at at = pk_conv_gemm_f32_avx512_8x48_locate(d, row, group);
        if (n > 0 && (at.out != first.out + n * Q * ldc || at.flt != first.flt)) {
          pk_conv_gemm_f32_avx512_8x48_gemm(d, x->pf, &first, x->taps, n * Q, col, buf, j0, j1);
          first = at, n = 0;
        }
        pk_conv_gemm_f32_avx512_8x48_im2col(d, &at, x->taps, col + n * Q * kd);
        n++;
      }
      pk_conv_gemm_f32_avx512_8x48_gemm(d, x->pf, &first, x->taps, n * Q, col, buf, j0, j1);
    }
    return;
  }
  /* Direct: the members share (row, block of mc positions) items, so one long row still splits. */
  int64_t mc = d->mc, nc = d->nc, kc = d->kc;
  if (!d->channels_first) pk_conv_gemm_f32_avx512_8x48_slice(d, x->taps, &mc, &nc, &kc);
  const int64_t Q = d->p_ext[d->nd - 1];
  mc = pk_even_block(Q, mc, 8), nc = pk_even_block(d->K, nc, 48), kc = pk_even_block(d->C, kc, 1);
  const int64_t blocks = (Q + mc - 1) / mc;
  int64_t w0, w1;
  pk_share(x->rows * blocks, 1, t, nt, &w0, &w1);
  if (d->channels_first) {
    for (int64_t w = w0; w < w1; w++) {
      const pk_conv_gemm_f32_avx512_8x48_at at = pk_conv_gemm_f32_avx512_8x48_locate(d, w / blocks, group);
      const int64_t ic = w % blocks * mc;
      for (int64_t pc = 0; pc < d->C; pc += kc)
        pk_conv_gemm_f32_avx512_8x48_first(d, x->pf, &at, x->taps, ic, pk_min64(ic + mc, Q), pc, pk_min64(kc, d->C - pc));
    }
  } else if (d->weight_stationary) {
    for (int64_t jc = 0; jc < d->K; jc += nc)
      for (int64_t pc = 0; pc < d->C; pc += kc)
        for (int64_t w = w0; w < w1; w++) {
          const pk_conv_gemm_f32_avx512_8x48_at at = pk_conv_gemm_f32_avx512_8x48_locate(d, w / blocks, group);
          const int64_t ic = w % blocks * mc;
          pk_conv_gemm_f32_avx512_8x48_direct(d, x->pf, &at, x->taps, ic, pk_min64(ic + mc, Q), jc, pk_min64(nc, d->K - jc), pc,
              pk_min64(kc, d->C - pc));
        }
  } else {
    for (int64_t w = w0; w < w1; w++) {
      const pk_conv_gemm_f32_avx512_8x48_at at = pk_conv_gemm_f32_avx512_8x48_locate(d, w / blocks, group);
      const int64_t ic = w % blocks * mc;
      for (int64_t jc = 0; jc < d->K; jc += nc)
        for (int64_t pc = 0; pc < d->C; pc += kc)
          pk_conv_gemm_f32_avx512_8x48_direct(d, x->pf, &at, x->taps, ic, pk_min64(ic + mc, Q), jc, pk_min64(nc, d->K - jc), pc,
              pk_min64(kc, d->C - pc));
    }
  }
}

/* A 1×1 filter over dense, unpadded axes: the last two axes are one, so the call has fewer, longer rows. */
static void pk_conv_gemm_f32_avx512_8x48_collapse(pk_conv_gemm_f32_avx512_8x48_desc *d) {
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
static int pk_conv_gemm_f32_avx512_8x48_run(const pk_conv_gemm_f32_avx512_8x48_desc *call) {
  pk_conv_gemm_f32_avx512_8x48_desc whole = *call;
  const pk_conv_gemm_f32_avx512_8x48_desc *d = &whole;
  pk_conv_gemm_f32_avx512_8x48_collapse(&whole);
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
  int64_t per = d->im2col ? pk_conv_gemm_f32_avx512_8x48_chunk(d, rows, taps, threads) : 1;
  int64_t items = d->im2col ? (rows + per - 1) / per : rows * ((Q + 8 - 1) / 8);
  /*
   * An im2col call with a GEMM or less per thread (a small feature map) whose rows do not split evenly (7 of them:
   * 4 + 3) splits its output channels between the threads instead, in whole panels: each builds every im2col row and
   * packs only its own channels. Measured at 2 threads, 3×3 7×7 × 512: 223 -> 242 GFLOP/s; with 14 even rows of 14×14
   * × 256, splitting channels ran 17% slower (each thread's im2col buffer twice as large, past half of L2).
   */
  const int split_channels = d->im2col && !d->channels_first && threads > 1 && items <= threads &&
      rows % threads != 0 && d->K >= threads * 48;
  if (split_channels) per = pk_conv_gemm_f32_avx512_8x48_chunk(d, rows, taps, 1), items = (rows + per - 1) / per;
  const int team = split_channels ? threads : (int)pk_min64(threads, items);
  /*
   * An im2col call of one GEMM per thread reads each filter block once: packed as it goes, the block is in L2 when
   * the microkernel reads it, where packing the whole filter first would write it out and read it back from memory.
   */
  const int pack_blocks = !in_place && d->im2col && !d->channels_first && (split_channels || items <= team);
  float *pf = NULL;
  if (!in_place && !pack_blocks) {
    const int64_t panels = pk_max_i64(pk_round_up(d->K, 48), pk_round_up(d->K, 8));
    if ((pf = pk_scratch(0, groups * panels * taps * d->C, sizeof(float))) == NULL) return PK_NO_MEMORY;
    if (d->channels_first) pk_conv_gemm_f32_avx512_8x48_pack_first(d, taps, groups, pf);
    else pk_conv_gemm_f32_avx512_8x48_pack(d, taps, groups, pf);
  }
  pk_conv_gemm_f32_avx512_8x48_ctx x = {d, pf, rows, taps, per, pack_blocks, split_channels, 0};
  if (team > 1) pk_parallel_team(team, pk_conv_gemm_f32_avx512_8x48_member, &x);
  else pk_conv_gemm_f32_avx512_8x48_member(&x, 0, 1);
  return x.failed ? PK_NO_MEMORY : PK_OK;
}

PK_SHARED int kc_0_conv(const float *restrict I, const float *restrict F, float *restrict O, int64_t N, int64_t H, int64_t W, int64_t C, int64_t K, int64_t P, int64_t Q) {
  const int64_t sO0 = P*Q*K;
  const int64_t sO1 = Q*K;
  const int64_t sI0 = H*W*C;
  const int64_t sI1 = W*C;
  const int64_t sF0 = 3*C*K;
  const int64_t sF1 = C*K;
  for (int64_t q2 = 0; q2 < N*P*Q*K; q2++) O[q2] = 0.0f;
  { /* convolution s0: gemm_f32_avx512_8x48, direct, mc 64 nc 96 kc 128, weight-stationary */
    const pk_conv_gemm_f32_avx512_8x48_desc pk_cv = {
      .in = I,
      .flt = F,
      .out = O,
      .nb = 1,
      .nd = 2,
      .b_ext = {N, 0, 0, 0},
      .b_in = {sI0, 0, 0, 0},
      .b_out = {sO0, 0, 0, 0},
      .b_flt = {0, 0, 0, 0},
      .p_ext = {P, Q, 0},
      .r_ext = {3, 3, 0},
      .h_ext = {H, W, 0},
      .stride = {2, 2, 0},
      .dil = {1, 1, 0},
      .off = {-1, -1, 0},
      .in_s = {sI1, C, 0},
      .out_s = {sO1, K, 0},
      .flt_s = {sF0, sF1, 0},
      .C = C,
      .K = K,
      .flt_c = K,
      .flt_k = 1,
      .in_c = 1,
      .out_k = 1,
      .mc = 64,
      .nc = 96,
      .kc = 128,
      .l2 = 262144,
      .weight_stationary = 1,
      .im2col = 0,
      .im2col_below = 24,
      .channels_first = 0,
      .pack_filter_from = 49,
    };
    if (pk_conv_gemm_f32_avx512_8x48_run(&pk_cv) != PK_OK) {
      return PK_NO_MEMORY;
    }
  }
  return PK_OK;
}
