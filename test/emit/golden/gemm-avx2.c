static void pk_ukr_gemm_f32_avx2_6x16(int64_t kb, const float *restrict a, const float *restrict b,
    float *restrict c, int64_t ldc, int64_t rows, int64_t cols) {
  __m256 c0_0 = _mm256_setzero_ps(), c0_1 = _mm256_setzero_ps();
  __m256 c1_0 = _mm256_setzero_ps(), c1_1 = _mm256_setzero_ps();
  __m256 c2_0 = _mm256_setzero_ps(), c2_1 = _mm256_setzero_ps();
  __m256 c3_0 = _mm256_setzero_ps(), c3_1 = _mm256_setzero_ps();
  __m256 c4_0 = _mm256_setzero_ps(), c4_1 = _mm256_setzero_ps();
  __m256 c5_0 = _mm256_setzero_ps(), c5_1 = _mm256_setzero_ps();
  __builtin_prefetch(c + 0*ldc + 0, 1, 3), __builtin_prefetch(c + 0*ldc + 15, 1, 3);
  __builtin_prefetch(c + 1*ldc + 0, 1, 3), __builtin_prefetch(c + 1*ldc + 15, 1, 3);
  __builtin_prefetch(c + 2*ldc + 0, 1, 3), __builtin_prefetch(c + 2*ldc + 15, 1, 3);
  __builtin_prefetch(c + 3*ldc + 0, 1, 3), __builtin_prefetch(c + 3*ldc + 15, 1, 3);
  __builtin_prefetch(c + 4*ldc + 0, 1, 3), __builtin_prefetch(c + 4*ldc + 15, 1, 3);
  __builtin_prefetch(c + 5*ldc + 0, 1, 3), __builtin_prefetch(c + 5*ldc + 15, 1, 3);
  for (int64_t p = 0; p < kb; p++) {
    const __m256 b0 = _mm256_load_ps(b + 0);
    const __m256 b1 = _mm256_load_ps(b + 8);
    const __m256 a0 = _mm256_broadcast_ss(a + 0);
    c0_0 = _mm256_fmadd_ps(a0, b0, c0_0);
    c0_1 = _mm256_fmadd_ps(a0, b1, c0_1);
    const __m256 a1 = _mm256_broadcast_ss(a + 1);
    c1_0 = _mm256_fmadd_ps(a1, b0, c1_0);
    c1_1 = _mm256_fmadd_ps(a1, b1, c1_1);
    const __m256 a2 = _mm256_broadcast_ss(a + 2);
    c2_0 = _mm256_fmadd_ps(a2, b0, c2_0);
    c2_1 = _mm256_fmadd_ps(a2, b1, c2_1);
    const __m256 a3 = _mm256_broadcast_ss(a + 3);
    c3_0 = _mm256_fmadd_ps(a3, b0, c3_0);
    c3_1 = _mm256_fmadd_ps(a3, b1, c3_1);
    const __m256 a4 = _mm256_broadcast_ss(a + 4);
    c4_0 = _mm256_fmadd_ps(a4, b0, c4_0);
    c4_1 = _mm256_fmadd_ps(a4, b1, c4_1);
    const __m256 a5 = _mm256_broadcast_ss(a + 5);
    c5_0 = _mm256_fmadd_ps(a5, b0, c5_0);
    c5_1 = _mm256_fmadd_ps(a5, b1, c5_1);
    a += 6;
    b += 16;
  }
  if (rows == 6 && cols == 16) {
    c0_0 = _mm256_add_ps(_mm256_loadu_ps(c + 0*ldc + 0), c0_0);
    c0_1 = _mm256_add_ps(_mm256_loadu_ps(c + 0*ldc + 8), c0_1);
    c1_0 = _mm256_add_ps(_mm256_loadu_ps(c + 1*ldc + 0), c1_0);
    c1_1 = _mm256_add_ps(_mm256_loadu_ps(c + 1*ldc + 8), c1_1);
    c2_0 = _mm256_add_ps(_mm256_loadu_ps(c + 2*ldc + 0), c2_0);
    c2_1 = _mm256_add_ps(_mm256_loadu_ps(c + 2*ldc + 8), c2_1);
    c3_0 = _mm256_add_ps(_mm256_loadu_ps(c + 3*ldc + 0), c3_0);
    c3_1 = _mm256_add_ps(_mm256_loadu_ps(c + 3*ldc + 8), c3_1);
    c4_0 = _mm256_add_ps(_mm256_loadu_ps(c + 4*ldc + 0), c4_0);
    c4_1 = _mm256_add_ps(_mm256_loadu_ps(c + 4*ldc + 8), c4_1);
    c5_0 = _mm256_add_ps(_mm256_loadu_ps(c + 5*ldc + 0), c5_0);
    c5_1 = _mm256_add_ps(_mm256_loadu_ps(c + 5*ldc + 8), c5_1);
    _mm256_storeu_ps(c + 0*ldc + 0, c0_0);
    _mm256_storeu_ps(c + 0*ldc + 8, c0_1);
    _mm256_storeu_ps(c + 1*ldc + 0, c1_0);
    _mm256_storeu_ps(c + 1*ldc + 8, c1_1);
    _mm256_storeu_ps(c + 2*ldc + 0, c2_0);
    _mm256_storeu_ps(c + 2*ldc + 8, c2_1);
    _mm256_storeu_ps(c + 3*ldc + 0, c3_0);
    _mm256_storeu_ps(c + 3*ldc + 8, c3_1);
    _mm256_storeu_ps(c + 4*ldc + 0, c4_0);
    _mm256_storeu_ps(c + 4*ldc + 8, c4_1);
    _mm256_storeu_ps(c + 5*ldc + 0, c5_0);
    _mm256_storeu_ps(c + 5*ldc + 8, c5_1);
    return;
  }
  const __m256i m0 = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_edge_lanes(cols, 0, 8))), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  const __m256i m1 = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_edge_lanes(cols, 8, 8))), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  if (rows == 0) return;
  _mm256_maskstore_ps(c + 0*ldc + 0, m0, _mm256_add_ps(_mm256_maskload_ps(c + 0*ldc + 0, m0), c0_0));
  _mm256_maskstore_ps(c + 0*ldc + 8, m1, _mm256_add_ps(_mm256_maskload_ps(c + 0*ldc + 8, m1), c0_1));
  if (rows == 1) return;
  _mm256_maskstore_ps(c + 1*ldc + 0, m0, _mm256_add_ps(_mm256_maskload_ps(c + 1*ldc + 0, m0), c1_0));
  _mm256_maskstore_ps(c + 1*ldc + 8, m1, _mm256_add_ps(_mm256_maskload_ps(c + 1*ldc + 8, m1), c1_1));
  if (rows == 2) return;
  _mm256_maskstore_ps(c + 2*ldc + 0, m0, _mm256_add_ps(_mm256_maskload_ps(c + 2*ldc + 0, m0), c2_0));
  _mm256_maskstore_ps(c + 2*ldc + 8, m1, _mm256_add_ps(_mm256_maskload_ps(c + 2*ldc + 8, m1), c2_1));
  if (rows == 3) return;
  _mm256_maskstore_ps(c + 3*ldc + 0, m0, _mm256_add_ps(_mm256_maskload_ps(c + 3*ldc + 0, m0), c3_0));
  _mm256_maskstore_ps(c + 3*ldc + 8, m1, _mm256_add_ps(_mm256_maskload_ps(c + 3*ldc + 8, m1), c3_1));
  if (rows == 4) return;
  _mm256_maskstore_ps(c + 4*ldc + 0, m0, _mm256_add_ps(_mm256_maskload_ps(c + 4*ldc + 0, m0), c4_0));
  _mm256_maskstore_ps(c + 4*ldc + 8, m1, _mm256_add_ps(_mm256_maskload_ps(c + 4*ldc + 8, m1), c4_1));
  if (rows == 5) return;
  _mm256_maskstore_ps(c + 5*ldc + 0, m0, _mm256_add_ps(_mm256_maskload_ps(c + 5*ldc + 0, m0), c5_0));
  _mm256_maskstore_ps(c + 5*ldc + 8, m1, _mm256_add_ps(_mm256_maskload_ps(c + 5*ldc + 8, m1), c5_1));
}

static void pk_pack_a_gemm_f32_avx2_6x16(int64_t len, int64_t kb, const float *restrict src, int64_t s_len, int64_t s_k,
    float *restrict out) {
  for (int64_t x0 = 0; x0 < len; x0 += 6) {
    const int64_t n = pk_min64(6, len - x0);
    const float *restrict from = src + x0*s_len;
    float *restrict to = out + x0*kb;
    if (n == 6 && s_len == 1) {
      for (int64_t p = 0; p < kb; p++)
        for (int64_t x = 0; x < 6; x++) to[p*6 + x] = from[p*s_k + x];
    } else if (n == 6) {
      for (int64_t p = 0; p < kb; p++)
        for (int64_t x = 0; x < 6; x++) to[p*6 + x] = from[x*s_len + p*s_k];
    } else {
      for (int64_t p = 0; p < kb; p++)
        for (int64_t x = 0; x < 6; x++) to[p*6 + x] = x < n ? from[x*s_len + p*s_k] : 0;
    }
  }
}

static void pk_pack_b_gemm_f32_avx2_6x16(int64_t len, int64_t kb, const float *restrict src, int64_t s_len, int64_t s_k,
    float *restrict out) {
  for (int64_t x0 = 0; x0 < len; x0 += 16) {
    const int64_t n = pk_min64(16, len - x0);
    const float *restrict from = src + x0*s_len;
    float *restrict to = out + x0*kb;
    if (n == 16 && s_len == 1) {
      for (int64_t p = 0; p < kb; p++)
        for (int64_t x = 0; x < 16; x++) to[p*16 + x] = from[p*s_k + x];
    } else if (n == 16) {
      for (int64_t p = 0; p < kb; p++)
        for (int64_t x = 0; x < 16; x++) to[p*16 + x] = from[x*s_len + p*s_k];
    } else {
      for (int64_t p = 0; p < kb; p++)
        for (int64_t x = 0; x < 16; x++) to[p*16 + x] = x < n ? from[x*s_len + p*s_k] : 0;
    }
  }
}

typedef struct {
  const pk_gemm_f32 *g;
  float *pa, *pb;
  int64_t mc, nc, kc, jc, nb, pc, kb, ic, mb;
  int failed;
} pk_gemm_f32_avx2_6x16_nkm_m_ctx;

static void pk_gemm_f32_avx2_6x16_nkm_m_task(void *arg, int64_t begin, int64_t end) {
  pk_gemm_f32_avx2_6x16_nkm_m_ctx *x = arg;
  const pk_gemm_f32 *g = x->g;
  const int64_t mc = x->mc, nc = x->nc, kc = x->kc;
  const int64_t jc = x->jc, nb = x->nb;
  const int64_t pc = x->pc, kb = x->kb;
  float *pa = x->pa, *pb = x->pb;
  pa = pk_alloc_aligned(mc*kc, sizeof(float));
  if (pa == NULL) {
    free(pa);
    __atomic_store_n(&x->failed, 1, __ATOMIC_RELAXED);
    return;
  }
  for (int64_t blk = begin; blk < end; blk++) {
    const int64_t ic = blk*mc;
    const int64_t mb = pk_min64(mc, g->m - ic);
    pk_pack_a_gemm_f32_avx2_6x16(mb, kb, g->a + ic*g->a_m + pc*g->a_k, g->a_m, g->a_k, pa);
    for (int64_t jr = 0; jr < nb; jr += 16)
      for (int64_t ir = 0; ir < mb; ir += 6)
        pk_ukr_gemm_f32_avx2_6x16(kb, pa + ir*kb, pb + jr*kb, g->c + (ic + ir)*g->c_m + jc + jr, g->c_m,
            pk_min64(6, mb - ir), pk_min64(16, nb - jr));
  }
  free(pa);
}

static int pk_gemm_f32_avx2_6x16_nkm_m(const pk_gemm_f32 *g) {
  if (g->m <= 0 || g->n <= 0 || g->k <= 0) return PK_OK;
  const int64_t kc = pk_min64(g->kc, g->k);
  int64_t mc = pk_min64(g->mc, pk_round_up(g->m, 6));
  int64_t nc = pk_min64(g->nc, pk_round_up(g->n, 16));
  const double work = (double)g->m * (double)g->n * (double)g->k;
  const int64_t threads = pk_threads();
  const int threaded = work >= PK_PARALLEL_MIN_WORK && threads > 1;
  if (threaded) {
    const int64_t blocks = pk_round_up((g->m + mc - 1) / mc, threads);
    mc = pk_round_up((g->m + blocks - 1) / blocks, 6);
  }
  float *pa = NULL, *pb = NULL;
  pb = pk_alloc_aligned(kc*nc, sizeof(float));
  if (pb == NULL) {
    free(pb);
    return PK_NO_MEMORY;
  }
  pk_gemm_f32_avx2_6x16_nkm_m_ctx ctx = {g, pa, pb, mc, nc, kc, 0, 0, 0, 0, 0, 0, 0};
  for (int64_t jc = 0; jc < g->n; jc += nc) {
    const int64_t nb = pk_min64(nc, g->n - jc);
    for (int64_t pc = 0; pc < g->k; pc += kc) {
      const int64_t kb = pk_min64(kc, g->k - pc);
      pk_pack_b_gemm_f32_avx2_6x16(nb, kb, g->b + pc*g->b_k + jc*g->b_n, g->b_n, g->b_k, pb);
      ctx.jc = jc, ctx.nb = nb;
      ctx.pc = pc, ctx.kb = kb;
      if (threaded) pk_parallel_for((g->m + mc - 1) / mc, pk_gemm_f32_avx2_6x16_nkm_m_task, &ctx);
      else pk_gemm_f32_avx2_6x16_nkm_m_task(&ctx, 0, (g->m + mc - 1) / mc);
      if (ctx.failed) goto done;
    }
  }
done:;
  free(pb);
  return ctx.failed ? PK_NO_MEMORY : PK_OK;
}

static int kc_0_matmul(const float *restrict A, const float *restrict B, float *restrict C, int64_t M, int64_t K, int64_t N) {
  for (int64_t q = 0; q < M*N; q++) C[q] = 0.0f;
  { /* contraction s0: gemm_f32_avx2_6x16, mc 222 nc 2720 kc 384, order nkm, parallel m */
    const pk_gemm_f32 pk_g = {A, B, C, M, N, K, K, 1, N, 1, N, 222, 2720, 384};
    if (pk_gemm_f32_avx2_6x16_nkm_m(&pk_g) != PK_OK) {
      return PK_NO_MEMORY;
    }
  }
  return PK_OK;
}
