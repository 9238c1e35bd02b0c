PK_SHARED void pk_ukr_gemm_f32_avx2_6x16_uu(int64_t kb, const float *restrict a, int64_t lda, const float *restrict b, int64_t ldb,
    float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store);
PK_SHARED void pk_ukr_gemm_f32_avx2_6x16_pp(int64_t kb, const float *restrict a, int64_t lda, const float *restrict b, int64_t ldb,
    float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store);
PK_SHARED void pk_ukr_gemm_f32_avx2_6x16_ppf(int64_t kb, const float *restrict a, int64_t lda, const float *restrict b, int64_t ldb,
    float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store);
#define PK_PACK pk_pack_a_gemm_f32_avx2_6x16
#define PK_PACK_T float
#define PK_PACK_W 6
#define PK_PACK_SCALED 0
#include "polykern_pack.h"

#define PK_PACK pk_pack_b_gemm_f32_avx2_6x16
#define PK_PACK_T float
#define PK_PACK_W 16
#define PK_PACK_SCALED 0
#include "polykern_pack.h"

static const pk_gemm_f32_shape pk_gemm_f32_avx2_6x16_knm_mn_n_uu = {
  .mr = 6, .nr = 16, .lanes = 8, .order = {PK_GEMM_K, PK_GEMM_N, PK_GEMM_M},
  .m_tiles_outer = 1, .parallel = PK_GEMM_N, .gather = 0, .masked = 0,
  .pack = {{0}, {0}},
  .tile = pk_ukr_gemm_f32_avx2_6x16_uu,
};

static const pk_gemm_f32_shape pk_gemm_f32_avx2_6x16_nkm_mn_m_pp = {
  .mr = 6, .nr = 16, .lanes = 8, .order = {PK_GEMM_N, PK_GEMM_K, PK_GEMM_M},
  .m_tiles_outer = 1, .parallel = PK_GEMM_M, .gather = 0, .masked = 0,
  .pack = {{.plain = pk_pack_a_gemm_f32_avx2_6x16}, {.plain = pk_pack_b_gemm_f32_avx2_6x16}},
  .tile = pk_ukr_gemm_f32_avx2_6x16_pp,
  .first_tile = pk_ukr_gemm_f32_avx2_6x16_ppf,
};

static inline void pk_ukr_gemm_f32_avx2_6x16_uu_6x2(int64_t kb, const float *restrict a, int64_t lda,
    const float *restrict b, int64_t ldb, float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store) {
  const float *restrict a0 = a + 0*lda;
  const float *restrict a1 = a + pk_min64(1, rows - 1)*lda;
  const float *restrict a2 = a + pk_min64(2, rows - 1)*lda;
  const float *restrict a3 = a + pk_min64(3, rows - 1)*lda;
  const float *restrict a4 = a + pk_min64(4, rows - 1)*lda;
  const float *restrict a5 = a + pk_min64(5, rows - 1)*lda;
  const __m256i bm = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_edge_lanes(cols, 8, 8))), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
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
#pragma GCC unroll 4
  for (int64_t p = 0; p < kb; p++) {
    const __m256 b0 = _mm256_loadu_ps(b + p*ldb + 0);
    const __m256 b1 = _mm256_maskload_ps(b + p*ldb + 8, bm);
    __builtin_prefetch(b + p*ldb + 16, 0, 3);
    const __m256 a0v = _mm256_broadcast_ss(a0 + p);
    c0_0 = _mm256_fmadd_ps(a0v, b0, c0_0);
    c0_1 = _mm256_fmadd_ps(a0v, b1, c0_1);
    const __m256 a1v = _mm256_broadcast_ss(a1 + p);
    c1_0 = _mm256_fmadd_ps(a1v, b0, c1_0);
    c1_1 = _mm256_fmadd_ps(a1v, b1, c1_1);
    const __m256 a2v = _mm256_broadcast_ss(a2 + p);
    c2_0 = _mm256_fmadd_ps(a2v, b0, c2_0);
    c2_1 = _mm256_fmadd_ps(a2v, b1, c2_1);
    const __m256 a3v = _mm256_broadcast_ss(a3 + p);
    c3_0 = _mm256_fmadd_ps(a3v, b0, c3_0);
    c3_1 = _mm256_fmadd_ps(a3v, b1, c3_1);
    const __m256 a4v = _mm256_broadcast_ss(a4 + p);
    c4_0 = _mm256_fmadd_ps(a4v, b0, c4_0);
    c4_1 = _mm256_fmadd_ps(a4v, b1, c4_1);
    const __m256 a5v = _mm256_broadcast_ss(a5 + p);
    c5_0 = _mm256_fmadd_ps(a5v, b0, c5_0);
    c5_1 = _mm256_fmadd_ps(a5v, b1, c5_1);
  }
  if (rows == 6 && cols == 16) {
    if (!store) {
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
    }
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
  _mm256_maskstore_ps(c + 0*ldc + 0, m0, store ? c0_0 : _mm256_add_ps(_mm256_maskload_ps(c + 0*ldc + 0, m0), c0_0));
  _mm256_maskstore_ps(c + 0*ldc + 8, m1, store ? c0_1 : _mm256_add_ps(_mm256_maskload_ps(c + 0*ldc + 8, m1), c0_1));
  if (rows == 1) return;
  _mm256_maskstore_ps(c + 1*ldc + 0, m0, store ? c1_0 : _mm256_add_ps(_mm256_maskload_ps(c + 1*ldc + 0, m0), c1_0));
  _mm256_maskstore_ps(c + 1*ldc + 8, m1, store ? c1_1 : _mm256_add_ps(_mm256_maskload_ps(c + 1*ldc + 8, m1), c1_1));
  if (rows == 2) return;
  _mm256_maskstore_ps(c + 2*ldc + 0, m0, store ? c2_0 : _mm256_add_ps(_mm256_maskload_ps(c + 2*ldc + 0, m0), c2_0));
  _mm256_maskstore_ps(c + 2*ldc + 8, m1, store ? c2_1 : _mm256_add_ps(_mm256_maskload_ps(c + 2*ldc + 8, m1), c2_1));
  if (rows == 3) return;
  _mm256_maskstore_ps(c + 3*ldc + 0, m0, store ? c3_0 : _mm256_add_ps(_mm256_maskload_ps(c + 3*ldc + 0, m0), c3_0));
  _mm256_maskstore_ps(c + 3*ldc + 8, m1, store ? c3_1 : _mm256_add_ps(_mm256_maskload_ps(c + 3*ldc + 8, m1), c3_1));
  if (rows == 4) return;
  _mm256_maskstore_ps(c + 4*ldc + 0, m0, store ? c4_0 : _mm256_add_ps(_mm256_maskload_ps(c + 4*ldc + 0, m0), c4_0));
  _mm256_maskstore_ps(c + 4*ldc + 8, m1, store ? c4_1 : _mm256_add_ps(_mm256_maskload_ps(c + 4*ldc + 8, m1), c4_1));
  if (rows == 5) return;
  _mm256_maskstore_ps(c + 5*ldc + 0, m0, store ? c5_0 : _mm256_add_ps(_mm256_maskload_ps(c + 5*ldc + 0, m0), c5_0));
  _mm256_maskstore_ps(c + 5*ldc + 8, m1, store ? c5_1 : _mm256_add_ps(_mm256_maskload_ps(c + 5*ldc + 8, m1), c5_1));
}

static inline void pk_ukr_gemm_f32_avx2_6x16_uu_6x1(int64_t kb, const float *restrict a, int64_t lda,
    const float *restrict b, int64_t ldb, float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store) {
  const float *restrict a0 = a + 0*lda;
  const float *restrict a1 = a + pk_min64(1, rows - 1)*lda;
  const float *restrict a2 = a + pk_min64(2, rows - 1)*lda;
  const float *restrict a3 = a + pk_min64(3, rows - 1)*lda;
  const float *restrict a4 = a + pk_min64(4, rows - 1)*lda;
  const float *restrict a5 = a + pk_min64(5, rows - 1)*lda;
  const __m256i bm = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_edge_lanes(cols, 0, 8))), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  __m256 c0_0 = _mm256_setzero_ps();
  __m256 c1_0 = _mm256_setzero_ps();
  __m256 c2_0 = _mm256_setzero_ps();
  __m256 c3_0 = _mm256_setzero_ps();
  __m256 c4_0 = _mm256_setzero_ps();
  __m256 c5_0 = _mm256_setzero_ps();
  __builtin_prefetch(c + 0*ldc + 0, 1, 3), __builtin_prefetch(c + 0*ldc + 7, 1, 3);
  __builtin_prefetch(c + 1*ldc + 0, 1, 3), __builtin_prefetch(c + 1*ldc + 7, 1, 3);
  __builtin_prefetch(c + 2*ldc + 0, 1, 3), __builtin_prefetch(c + 2*ldc + 7, 1, 3);
  __builtin_prefetch(c + 3*ldc + 0, 1, 3), __builtin_prefetch(c + 3*ldc + 7, 1, 3);
  __builtin_prefetch(c + 4*ldc + 0, 1, 3), __builtin_prefetch(c + 4*ldc + 7, 1, 3);
  __builtin_prefetch(c + 5*ldc + 0, 1, 3), __builtin_prefetch(c + 5*ldc + 7, 1, 3);
#pragma GCC unroll 4
  for (int64_t p = 0; p < kb; p++) {
    const __m256 b0 = _mm256_maskload_ps(b + p*ldb + 0, bm);
    const __m256 a0v = _mm256_broadcast_ss(a0 + p);
    c0_0 = _mm256_fmadd_ps(a0v, b0, c0_0);
    const __m256 a1v = _mm256_broadcast_ss(a1 + p);
    c1_0 = _mm256_fmadd_ps(a1v, b0, c1_0);
    const __m256 a2v = _mm256_broadcast_ss(a2 + p);
    c2_0 = _mm256_fmadd_ps(a2v, b0, c2_0);
    const __m256 a3v = _mm256_broadcast_ss(a3 + p);
    c3_0 = _mm256_fmadd_ps(a3v, b0, c3_0);
    const __m256 a4v = _mm256_broadcast_ss(a4 + p);
    c4_0 = _mm256_fmadd_ps(a4v, b0, c4_0);
    const __m256 a5v = _mm256_broadcast_ss(a5 + p);
    c5_0 = _mm256_fmadd_ps(a5v, b0, c5_0);
  }
  if (rows == 6 && cols == 8) {
    if (!store) {
      c0_0 = _mm256_add_ps(_mm256_loadu_ps(c + 0*ldc + 0), c0_0);
      c1_0 = _mm256_add_ps(_mm256_loadu_ps(c + 1*ldc + 0), c1_0);
      c2_0 = _mm256_add_ps(_mm256_loadu_ps(c + 2*ldc + 0), c2_0);
      c3_0 = _mm256_add_ps(_mm256_loadu_ps(c + 3*ldc + 0), c3_0);
      c4_0 = _mm256_add_ps(_mm256_loadu_ps(c + 4*ldc + 0), c4_0);
      c5_0 = _mm256_add_ps(_mm256_loadu_ps(c + 5*ldc + 0), c5_0);
    }
    _mm256_storeu_ps(c + 0*ldc + 0, c0_0);
    _mm256_storeu_ps(c + 1*ldc + 0, c1_0);
    _mm256_storeu_ps(c + 2*ldc + 0, c2_0);
    _mm256_storeu_ps(c + 3*ldc + 0, c3_0);
    _mm256_storeu_ps(c + 4*ldc + 0, c4_0);
    _mm256_storeu_ps(c + 5*ldc + 0, c5_0);
    return;
  }
  const __m256i m0 = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_edge_lanes(cols, 0, 8))), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  _mm256_maskstore_ps(c + 0*ldc + 0, m0, store ? c0_0 : _mm256_add_ps(_mm256_maskload_ps(c + 0*ldc + 0, m0), c0_0));
  if (rows == 1) return;
  _mm256_maskstore_ps(c + 1*ldc + 0, m0, store ? c1_0 : _mm256_add_ps(_mm256_maskload_ps(c + 1*ldc + 0, m0), c1_0));
  if (rows == 2) return;
  _mm256_maskstore_ps(c + 2*ldc + 0, m0, store ? c2_0 : _mm256_add_ps(_mm256_maskload_ps(c + 2*ldc + 0, m0), c2_0));
  if (rows == 3) return;
  _mm256_maskstore_ps(c + 3*ldc + 0, m0, store ? c3_0 : _mm256_add_ps(_mm256_maskload_ps(c + 3*ldc + 0, m0), c3_0));
  if (rows == 4) return;
  _mm256_maskstore_ps(c + 4*ldc + 0, m0, store ? c4_0 : _mm256_add_ps(_mm256_maskload_ps(c + 4*ldc + 0, m0), c4_0));
  if (rows == 5) return;
  _mm256_maskstore_ps(c + 5*ldc + 0, m0, store ? c5_0 : _mm256_add_ps(_mm256_maskload_ps(c + 5*ldc + 0, m0), c5_0));
}

static inline void pk_ukr_gemm_f32_avx2_6x16_uu_4x2(int64_t kb, const float *restrict a, int64_t lda,
    const float *restrict b, int64_t ldb, float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store) {
  const float *restrict a0 = a + 0*lda;
  const float *restrict a1 = a + pk_min64(1, rows - 1)*lda;
  const float *restrict a2 = a + pk_min64(2, rows - 1)*lda;
  const float *restrict a3 = a + pk_min64(3, rows - 1)*lda;
  const __m256i bm = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_edge_lanes(cols, 8, 8))), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  __m256 c0_0 = _mm256_setzero_ps(), c0_1 = _mm256_setzero_ps();
  __m256 c1_0 = _mm256_setzero_ps(), c1_1 = _mm256_setzero_ps();
  __m256 c2_0 = _mm256_setzero_ps(), c2_1 = _mm256_setzero_ps();
  __m256 c3_0 = _mm256_setzero_ps(), c3_1 = _mm256_setzero_ps();
  __builtin_prefetch(c + 0*ldc + 0, 1, 3), __builtin_prefetch(c + 0*ldc + 15, 1, 3);
  __builtin_prefetch(c + 1*ldc + 0, 1, 3), __builtin_prefetch(c + 1*ldc + 15, 1, 3);
  __builtin_prefetch(c + 2*ldc + 0, 1, 3), __builtin_prefetch(c + 2*ldc + 15, 1, 3);
  __builtin_prefetch(c + 3*ldc + 0, 1, 3), __builtin_prefetch(c + 3*ldc + 15, 1, 3);
#pragma GCC unroll 4
  for (int64_t p = 0; p < kb; p++) {
    const __m256 b0 = _mm256_loadu_ps(b + p*ldb + 0);
    const __m256 b1 = _mm256_maskload_ps(b + p*ldb + 8, bm);
    __builtin_prefetch(b + p*ldb + 16, 0, 3);
    const __m256 a0v = _mm256_broadcast_ss(a0 + p);
    c0_0 = _mm256_fmadd_ps(a0v, b0, c0_0);
    c0_1 = _mm256_fmadd_ps(a0v, b1, c0_1);
    const __m256 a1v = _mm256_broadcast_ss(a1 + p);
    c1_0 = _mm256_fmadd_ps(a1v, b0, c1_0);
    c1_1 = _mm256_fmadd_ps(a1v, b1, c1_1);
    const __m256 a2v = _mm256_broadcast_ss(a2 + p);
    c2_0 = _mm256_fmadd_ps(a2v, b0, c2_0);
    c2_1 = _mm256_fmadd_ps(a2v, b1, c2_1);
    const __m256 a3v = _mm256_broadcast_ss(a3 + p);
    c3_0 = _mm256_fmadd_ps(a3v, b0, c3_0);
    c3_1 = _mm256_fmadd_ps(a3v, b1, c3_1);
  }
  if (rows == 4 && cols == 16) {
    if (!store) {
      c0_0 = _mm256_add_ps(_mm256_loadu_ps(c + 0*ldc + 0), c0_0);
      c0_1 = _mm256_add_ps(_mm256_loadu_ps(c + 0*ldc + 8), c0_1);
      c1_0 = _mm256_add_ps(_mm256_loadu_ps(c + 1*ldc + 0), c1_0);
      c1_1 = _mm256_add_ps(_mm256_loadu_ps(c + 1*ldc + 8), c1_1);
      c2_0 = _mm256_add_ps(_mm256_loadu_ps(c + 2*ldc + 0), c2_0);
      c2_1 = _mm256_add_ps(_mm256_loadu_ps(c + 2*ldc + 8), c2_1);
      c3_0 = _mm256_add_ps(_mm256_loadu_ps(c + 3*ldc + 0), c3_0);
      c3_1 = _mm256_add_ps(_mm256_loadu_ps(c + 3*ldc + 8), c3_1);
    }
    _mm256_storeu_ps(c + 0*ldc + 0, c0_0);
    _mm256_storeu_ps(c + 0*ldc + 8, c0_1);
    _mm256_storeu_ps(c + 1*ldc + 0, c1_0);
    _mm256_storeu_ps(c + 1*ldc + 8, c1_1);
    _mm256_storeu_ps(c + 2*ldc + 0, c2_0);
    _mm256_storeu_ps(c + 2*ldc + 8, c2_1);
    _mm256_storeu_ps(c + 3*ldc + 0, c3_0);
    _mm256_storeu_ps(c + 3*ldc + 8, c3_1);
    return;
  }
  const __m256i m0 = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_edge_lanes(cols, 0, 8))), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  const __m256i m1 = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_edge_lanes(cols, 8, 8))), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  _mm256_maskstore_ps(c + 0*ldc + 0, m0, store ? c0_0 : _mm256_add_ps(_mm256_maskload_ps(c + 0*ldc + 0, m0), c0_0));
  _mm256_maskstore_ps(c + 0*ldc + 8, m1, store ? c0_1 : _mm256_add_ps(_mm256_maskload_ps(c + 0*ldc + 8, m1), c0_1));
  if (rows == 1) return;
  _mm256_maskstore_ps(c + 1*ldc + 0, m0, store ? c1_0 : _mm256_add_ps(_mm256_maskload_ps(c + 1*ldc + 0, m0), c1_0));
  _mm256_maskstore_ps(c + 1*ldc + 8, m1, store ? c1_1 : _mm256_add_ps(_mm256_maskload_ps(c + 1*ldc + 8, m1), c1_1));
  if (rows == 2) return;
  _mm256_maskstore_ps(c + 2*ldc + 0, m0, store ? c2_0 : _mm256_add_ps(_mm256_maskload_ps(c + 2*ldc + 0, m0), c2_0));
  _mm256_maskstore_ps(c + 2*ldc + 8, m1, store ? c2_1 : _mm256_add_ps(_mm256_maskload_ps(c + 2*ldc + 8, m1), c2_1));
  if (rows == 3) return;
  _mm256_maskstore_ps(c + 3*ldc + 0, m0, store ? c3_0 : _mm256_add_ps(_mm256_maskload_ps(c + 3*ldc + 0, m0), c3_0));
  _mm256_maskstore_ps(c + 3*ldc + 8, m1, store ? c3_1 : _mm256_add_ps(_mm256_maskload_ps(c + 3*ldc + 8, m1), c3_1));
}

static inline void pk_ukr_gemm_f32_avx2_6x16_uu_4x1(int64_t kb, const float *restrict a, int64_t lda,
    const float *restrict b, int64_t ldb, float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store) {
  const float *restrict a0 = a + 0*lda;
  const float *restrict a1 = a + pk_min64(1, rows - 1)*lda;
  const float *restrict a2 = a + pk_min64(2, rows - 1)*lda;
  const float *restrict a3 = a + pk_min64(3, rows - 1)*lda;
  const __m256i bm = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_edge_lanes(cols, 0, 8))), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  __m256 c0_0 = _mm256_setzero_ps();
  __m256 c1_0 = _mm256_setzero_ps();
  __m256 c2_0 = _mm256_setzero_ps();
  __m256 c3_0 = _mm256_setzero_ps();
  __builtin_prefetch(c + 0*ldc + 0, 1, 3), __builtin_prefetch(c + 0*ldc + 7, 1, 3);
  __builtin_prefetch(c + 1*ldc + 0, 1, 3), __builtin_prefetch(c + 1*ldc + 7, 1, 3);
  __builtin_prefetch(c + 2*ldc + 0, 1, 3), __builtin_prefetch(c + 2*ldc + 7, 1, 3);
  __builtin_prefetch(c + 3*ldc + 0, 1, 3), __builtin_prefetch(c + 3*ldc + 7, 1, 3);
#pragma GCC unroll 4
  for (int64_t p = 0; p < kb; p++) {
    const __m256 b0 = _mm256_maskload_ps(b + p*ldb + 0, bm);
    const __m256 a0v = _mm256_broadcast_ss(a0 + p);
    c0_0 = _mm256_fmadd_ps(a0v, b0, c0_0);
    const __m256 a1v = _mm256_broadcast_ss(a1 + p);
    c1_0 = _mm256_fmadd_ps(a1v, b0, c1_0);
    const __m256 a2v = _mm256_broadcast_ss(a2 + p);
    c2_0 = _mm256_fmadd_ps(a2v, b0, c2_0);
    const __m256 a3v = _mm256_broadcast_ss(a3 + p);
    c3_0 = _mm256_fmadd_ps(a3v, b0, c3_0);
  }
  if (rows == 4 && cols == 8) {
    if (!store) {
      c0_0 = _mm256_add_ps(_mm256_loadu_ps(c + 0*ldc + 0), c0_0);
      c1_0 = _mm256_add_ps(_mm256_loadu_ps(c + 1*ldc + 0), c1_0);
      c2_0 = _mm256_add_ps(_mm256_loadu_ps(c + 2*ldc + 0), c2_0);
      c3_0 = _mm256_add_ps(_mm256_loadu_ps(c + 3*ldc + 0), c3_0);
    }
    _mm256_storeu_ps(c + 0*ldc + 0, c0_0);
    _mm256_storeu_ps(c + 1*ldc + 0, c1_0);
    _mm256_storeu_ps(c + 2*ldc + 0, c2_0);
    _mm256_storeu_ps(c + 3*ldc + 0, c3_0);
    return;
  }
  const __m256i m0 = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_edge_lanes(cols, 0, 8))), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  _mm256_maskstore_ps(c + 0*ldc + 0, m0, store ? c0_0 : _mm256_add_ps(_mm256_maskload_ps(c + 0*ldc + 0, m0), c0_0));
  if (rows == 1) return;
  _mm256_maskstore_ps(c + 1*ldc + 0, m0, store ? c1_0 : _mm256_add_ps(_mm256_maskload_ps(c + 1*ldc + 0, m0), c1_0));
  if (rows == 2) return;
  _mm256_maskstore_ps(c + 2*ldc + 0, m0, store ? c2_0 : _mm256_add_ps(_mm256_maskload_ps(c + 2*ldc + 0, m0), c2_0));
  if (rows == 3) return;
  _mm256_maskstore_ps(c + 3*ldc + 0, m0, store ? c3_0 : _mm256_add_ps(_mm256_maskload_ps(c + 3*ldc + 0, m0), c3_0));
}

static inline void pk_ukr_gemm_f32_avx2_6x16_uu_2x2(int64_t kb, const float *restrict a, int64_t lda,
    const float *restrict b, int64_t ldb, float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store) {
  const float *restrict a0 = a + 0*lda;
  const float *restrict a1 = a + pk_min64(1, rows - 1)*lda;
  const __m256i bm = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_edge_lanes(cols, 8, 8))), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  __m256 c0_0 = _mm256_setzero_ps(), c0_1 = _mm256_setzero_ps();
  __m256 c1_0 = _mm256_setzero_ps(), c1_1 = _mm256_setzero_ps();
  __m256 c0_0_1 = _mm256_setzero_ps(), c0_1_1 = _mm256_setzero_ps();
  __m256 c1_0_1 = _mm256_setzero_ps(), c1_1_1 = _mm256_setzero_ps();
  __builtin_prefetch(c + 0*ldc + 0, 1, 3), __builtin_prefetch(c + 0*ldc + 15, 1, 3);
  __builtin_prefetch(c + 1*ldc + 0, 1, 3), __builtin_prefetch(c + 1*ldc + 15, 1, 3);
  int64_t p = 0;
  for (; p + 2 <= kb; p += 2) {
    const __m256 b0 = _mm256_loadu_ps(b + p*ldb + 0);
    const __m256 b1 = _mm256_maskload_ps(b + p*ldb + 8, bm);
    __builtin_prefetch(b + p*ldb + 16, 0, 3);
    const __m256 a0v = _mm256_broadcast_ss(a0 + p);
    c0_0 = _mm256_fmadd_ps(a0v, b0, c0_0);
    c0_1 = _mm256_fmadd_ps(a0v, b1, c0_1);
    const __m256 a1v = _mm256_broadcast_ss(a1 + p);
    c1_0 = _mm256_fmadd_ps(a1v, b0, c1_0);
    c1_1 = _mm256_fmadd_ps(a1v, b1, c1_1);
    const __m256 b0_1 = _mm256_loadu_ps(b + (p + 1)*ldb + 0);
    const __m256 b1_1 = _mm256_maskload_ps(b + (p + 1)*ldb + 8, bm);
    __builtin_prefetch(b + (p + 1)*ldb + 16, 0, 3);
    const __m256 a0v_1 = _mm256_broadcast_ss(a0 + (p + 1));
    c0_0_1 = _mm256_fmadd_ps(a0v_1, b0_1, c0_0_1);
    c0_1_1 = _mm256_fmadd_ps(a0v_1, b1_1, c0_1_1);
    const __m256 a1v_1 = _mm256_broadcast_ss(a1 + (p + 1));
    c1_0_1 = _mm256_fmadd_ps(a1v_1, b0_1, c1_0_1);
    c1_1_1 = _mm256_fmadd_ps(a1v_1, b1_1, c1_1_1);
  }
  for (; p < kb; p++) {
    const __m256 b0 = _mm256_loadu_ps(b + p*ldb + 0);
    const __m256 b1 = _mm256_maskload_ps(b + p*ldb + 8, bm);
    __builtin_prefetch(b + p*ldb + 16, 0, 3);
    const __m256 a0v = _mm256_broadcast_ss(a0 + p);
    c0_0 = _mm256_fmadd_ps(a0v, b0, c0_0);
    c0_1 = _mm256_fmadd_ps(a0v, b1, c0_1);
    const __m256 a1v = _mm256_broadcast_ss(a1 + p);
    c1_0 = _mm256_fmadd_ps(a1v, b0, c1_0);
    c1_1 = _mm256_fmadd_ps(a1v, b1, c1_1);
  }
  c0_0 = _mm256_add_ps(c0_0, c0_0_1);
  c0_1 = _mm256_add_ps(c0_1, c0_1_1);
  c1_0 = _mm256_add_ps(c1_0, c1_0_1);
  c1_1 = _mm256_add_ps(c1_1, c1_1_1);
  if (rows == 2 && cols == 16) {
    if (!store) {
      c0_0 = _mm256_add_ps(_mm256_loadu_ps(c + 0*ldc + 0), c0_0);
      c0_1 = _mm256_add_ps(_mm256_loadu_ps(c + 0*ldc + 8), c0_1);
      c1_0 = _mm256_add_ps(_mm256_loadu_ps(c + 1*ldc + 0), c1_0);
      c1_1 = _mm256_add_ps(_mm256_loadu_ps(c + 1*ldc + 8), c1_1);
    }
    _mm256_storeu_ps(c + 0*ldc + 0, c0_0);
    _mm256_storeu_ps(c + 0*ldc + 8, c0_1);
    _mm256_storeu_ps(c + 1*ldc + 0, c1_0);
    _mm256_storeu_ps(c + 1*ldc + 8, c1_1);
    return;
  }
  const __m256i m0 = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_edge_lanes(cols, 0, 8))), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  const __m256i m1 = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_edge_lanes(cols, 8, 8))), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  _mm256_maskstore_ps(c + 0*ldc + 0, m0, store ? c0_0 : _mm256_add_ps(_mm256_maskload_ps(c + 0*ldc + 0, m0), c0_0));
  _mm256_maskstore_ps(c + 0*ldc + 8, m1, store ? c0_1 : _mm256_add_ps(_mm256_maskload_ps(c + 0*ldc + 8, m1), c0_1));
  if (rows == 1) return;
  _mm256_maskstore_ps(c + 1*ldc + 0, m0, store ? c1_0 : _mm256_add_ps(_mm256_maskload_ps(c + 1*ldc + 0, m0), c1_0));
  _mm256_maskstore_ps(c + 1*ldc + 8, m1, store ? c1_1 : _mm256_add_ps(_mm256_maskload_ps(c + 1*ldc + 8, m1), c1_1));
}

static inline void pk_ukr_gemm_f32_avx2_6x16_uu_2x1(int64_t kb, const float *restrict a, int64_t lda,
    const float *restrict b, int64_t ldb, float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store) {
  const float *restrict a0 = a + 0*lda;
  const float *restrict a1 = a + pk_min64(1, rows - 1)*lda;
  const __m256i bm = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_edge_lanes(cols, 0, 8))), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  __m256 c0_0 = _mm256_setzero_ps();
  __m256 c1_0 = _mm256_setzero_ps();
  __m256 c0_0_1 = _mm256_setzero_ps();
  __m256 c1_0_1 = _mm256_setzero_ps();
  __m256 c0_0_2 = _mm256_setzero_ps();
  __m256 c1_0_2 = _mm256_setzero_ps();
  __m256 c0_0_3 = _mm256_setzero_ps();
  __m256 c1_0_3 = _mm256_setzero_ps();
  __builtin_prefetch(c + 0*ldc + 0, 1, 3), __builtin_prefetch(c + 0*ldc + 7, 1, 3);
  __builtin_prefetch(c + 1*ldc + 0, 1, 3), __builtin_prefetch(c + 1*ldc + 7, 1, 3);
  int64_t p = 0;
  for (; p + 4 <= kb; p += 4) {
    const __m256 b0 = _mm256_maskload_ps(b + p*ldb + 0, bm);
    const __m256 a0v = _mm256_broadcast_ss(a0 + p);
    c0_0 = _mm256_fmadd_ps(a0v, b0, c0_0);
    const __m256 a1v = _mm256_broadcast_ss(a1 + p);
    c1_0 = _mm256_fmadd_ps(a1v, b0, c1_0);
    const __m256 b0_1 = _mm256_maskload_ps(b + (p + 1)*ldb + 0, bm);
    const __m256 a0v_1 = _mm256_broadcast_ss(a0 + (p + 1));
    c0_0_1 = _mm256_fmadd_ps(a0v_1, b0_1, c0_0_1);
    const __m256 a1v_1 = _mm256_broadcast_ss(a1 + (p + 1));
    c1_0_1 = _mm256_fmadd_ps(a1v_1, b0_1, c1_0_1);
    const __m256 b0_2 = _mm256_maskload_ps(b + (p + 2)*ldb + 0, bm);
    const __m256 a0v_2 = _mm256_broadcast_ss(a0 + (p + 2));
    c0_0_2 = _mm256_fmadd_ps(a0v_2, b0_2, c0_0_2);
    const __m256 a1v_2 = _mm256_broadcast_ss(a1 + (p + 2));
    c1_0_2 = _mm256_fmadd_ps(a1v_2, b0_2, c1_0_2);
    const __m256 b0_3 = _mm256_maskload_ps(b + (p + 3)*ldb + 0, bm);
    const __m256 a0v_3 = _mm256_broadcast_ss(a0 + (p + 3));
    c0_0_3 = _mm256_fmadd_ps(a0v_3, b0_3, c0_0_3);
    const __m256 a1v_3 = _mm256_broadcast_ss(a1 + (p + 3));
    c1_0_3 = _mm256_fmadd_ps(a1v_3, b0_3, c1_0_3);
  }
  for (; p < kb; p++) {
    const __m256 b0 = _mm256_maskload_ps(b + p*ldb + 0, bm);
    const __m256 a0v = _mm256_broadcast_ss(a0 + p);
    c0_0 = _mm256_fmadd_ps(a0v, b0, c0_0);
    const __m256 a1v = _mm256_broadcast_ss(a1 + p);
    c1_0 = _mm256_fmadd_ps(a1v, b0, c1_0);
  }
  c0_0 = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(c0_0, c0_0_1), c0_0_2), c0_0_3);
  c1_0 = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(c1_0, c1_0_1), c1_0_2), c1_0_3);
  if (rows == 2 && cols == 8) {
    if (!store) {
      c0_0 = _mm256_add_ps(_mm256_loadu_ps(c + 0*ldc + 0), c0_0);
      c1_0 = _mm256_add_ps(_mm256_loadu_ps(c + 1*ldc + 0), c1_0);
    }
    _mm256_storeu_ps(c + 0*ldc + 0, c0_0);
    _mm256_storeu_ps(c + 1*ldc + 0, c1_0);
    return;
  }
  const __m256i m0 = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_edge_lanes(cols, 0, 8))), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  _mm256_maskstore_ps(c + 0*ldc + 0, m0, store ? c0_0 : _mm256_add_ps(_mm256_maskload_ps(c + 0*ldc + 0, m0), c0_0));
  if (rows == 1) return;
  _mm256_maskstore_ps(c + 1*ldc + 0, m0, store ? c1_0 : _mm256_add_ps(_mm256_maskload_ps(c + 1*ldc + 0, m0), c1_0));
}

static inline void pk_ukr_gemm_f32_avx2_6x16_uu_1x2(int64_t kb, const float *restrict a, int64_t lda,
    const float *restrict b, int64_t ldb, float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store) {
  const float *restrict a0 = a + 0*lda;
  const __m256i bm = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_edge_lanes(cols, 8, 8))), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  __m256 c0_0 = _mm256_setzero_ps(), c0_1 = _mm256_setzero_ps();
  __m256 c0_0_1 = _mm256_setzero_ps(), c0_1_1 = _mm256_setzero_ps();
  __m256 c0_0_2 = _mm256_setzero_ps(), c0_1_2 = _mm256_setzero_ps();
  __m256 c0_0_3 = _mm256_setzero_ps(), c0_1_3 = _mm256_setzero_ps();
  __builtin_prefetch(c + 0*ldc + 0, 1, 3), __builtin_prefetch(c + 0*ldc + 15, 1, 3);
  const int64_t pk_seg = kb / 4;
  int64_t p = 0;
  for (; p < pk_seg; p++) {
    const __m256 b0 = _mm256_loadu_ps(b + p*ldb + 0);
    const __m256 b1 = _mm256_maskload_ps(b + p*ldb + 8, bm);
    __builtin_prefetch(b + p*ldb + 16, 0, 3);
    const __m256 a0v = _mm256_broadcast_ss(a0 + p);
    c0_0 = _mm256_fmadd_ps(a0v, b0, c0_0);
    c0_1 = _mm256_fmadd_ps(a0v, b1, c0_1);
    const __m256 b0_1 = _mm256_loadu_ps(b + (p + 1*pk_seg)*ldb + 0);
    const __m256 b1_1 = _mm256_maskload_ps(b + (p + 1*pk_seg)*ldb + 8, bm);
    __builtin_prefetch(b + (p + 1*pk_seg)*ldb + 16, 0, 3);
    const __m256 a0v_1 = _mm256_broadcast_ss(a0 + (p + 1*pk_seg));
    c0_0_1 = _mm256_fmadd_ps(a0v_1, b0_1, c0_0_1);
    c0_1_1 = _mm256_fmadd_ps(a0v_1, b1_1, c0_1_1);
    const __m256 b0_2 = _mm256_loadu_ps(b + (p + 2*pk_seg)*ldb + 0);
    const __m256 b1_2 = _mm256_maskload_ps(b + (p + 2*pk_seg)*ldb + 8, bm);
    __builtin_prefetch(b + (p + 2*pk_seg)*ldb + 16, 0, 3);
    const __m256 a0v_2 = _mm256_broadcast_ss(a0 + (p + 2*pk_seg));
    c0_0_2 = _mm256_fmadd_ps(a0v_2, b0_2, c0_0_2);
    c0_1_2 = _mm256_fmadd_ps(a0v_2, b1_2, c0_1_2);
    const __m256 b0_3 = _mm256_loadu_ps(b + (p + 3*pk_seg)*ldb + 0);
    const __m256 b1_3 = _mm256_maskload_ps(b + (p + 3*pk_seg)*ldb + 8, bm);
    __builtin_prefetch(b + (p + 3*pk_seg)*ldb + 16, 0, 3);
    const __m256 a0v_3 = _mm256_broadcast_ss(a0 + (p + 3*pk_seg));
    c0_0_3 = _mm256_fmadd_ps(a0v_3, b0_3, c0_0_3);
    c0_1_3 = _mm256_fmadd_ps(a0v_3, b1_3, c0_1_3);
  }
  for (p = 4*pk_seg; p < kb; p++) {
    const __m256 b0 = _mm256_loadu_ps(b + p*ldb + 0);
    const __m256 b1 = _mm256_maskload_ps(b + p*ldb + 8, bm);
    __builtin_prefetch(b + p*ldb + 16, 0, 3);
    const __m256 a0v = _mm256_broadcast_ss(a0 + p);
    c0_0 = _mm256_fmadd_ps(a0v, b0, c0_0);
    c0_1 = _mm256_fmadd_ps(a0v, b1, c0_1);
  }
  c0_0 = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(c0_0, c0_0_1), c0_0_2), c0_0_3);
  c0_1 = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(c0_1, c0_1_1), c0_1_2), c0_1_3);
  if (rows == 1 && cols == 16) {
    if (!store) {
      c0_0 = _mm256_add_ps(_mm256_loadu_ps(c + 0*ldc + 0), c0_0);
      c0_1 = _mm256_add_ps(_mm256_loadu_ps(c + 0*ldc + 8), c0_1);
    }
    _mm256_storeu_ps(c + 0*ldc + 0, c0_0);
    _mm256_storeu_ps(c + 0*ldc + 8, c0_1);
    return;
  }
  const __m256i m0 = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_edge_lanes(cols, 0, 8))), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  const __m256i m1 = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_edge_lanes(cols, 8, 8))), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  _mm256_maskstore_ps(c + 0*ldc + 0, m0, store ? c0_0 : _mm256_add_ps(_mm256_maskload_ps(c + 0*ldc + 0, m0), c0_0));
  _mm256_maskstore_ps(c + 0*ldc + 8, m1, store ? c0_1 : _mm256_add_ps(_mm256_maskload_ps(c + 0*ldc + 8, m1), c0_1));
}

static inline void pk_ukr_gemm_f32_avx2_6x16_uu_1x1(int64_t kb, const float *restrict a, int64_t lda,
    const float *restrict b, int64_t ldb, float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store) {
  const float *restrict a0 = a + 0*lda;
  const __m256i bm = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_edge_lanes(cols, 0, 8))), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  __m256 c0_0 = _mm256_setzero_ps();
  __m256 c0_0_1 = _mm256_setzero_ps();
  __m256 c0_0_2 = _mm256_setzero_ps();
  __m256 c0_0_3 = _mm256_setzero_ps();
  __builtin_prefetch(c + 0*ldc + 0, 1, 3), __builtin_prefetch(c + 0*ldc + 7, 1, 3);
  const int64_t pk_seg = kb / 4;
  int64_t p = 0;
  for (; p < pk_seg; p++) {
    const __m256 b0 = _mm256_maskload_ps(b + p*ldb + 0, bm);
    const __m256 a0v = _mm256_broadcast_ss(a0 + p);
    c0_0 = _mm256_fmadd_ps(a0v, b0, c0_0);
    const __m256 b0_1 = _mm256_maskload_ps(b + (p + 1*pk_seg)*ldb + 0, bm);
    const __m256 a0v_1 = _mm256_broadcast_ss(a0 + (p + 1*pk_seg));
    c0_0_1 = _mm256_fmadd_ps(a0v_1, b0_1, c0_0_1);
    const __m256 b0_2 = _mm256_maskload_ps(b + (p + 2*pk_seg)*ldb + 0, bm);
    const __m256 a0v_2 = _mm256_broadcast_ss(a0 + (p + 2*pk_seg));
    c0_0_2 = _mm256_fmadd_ps(a0v_2, b0_2, c0_0_2);
    const __m256 b0_3 = _mm256_maskload_ps(b + (p + 3*pk_seg)*ldb + 0, bm);
    const __m256 a0v_3 = _mm256_broadcast_ss(a0 + (p + 3*pk_seg));
    c0_0_3 = _mm256_fmadd_ps(a0v_3, b0_3, c0_0_3);
  }
  for (p = 4*pk_seg; p < kb; p++) {
    const __m256 b0 = _mm256_maskload_ps(b + p*ldb + 0, bm);
    const __m256 a0v = _mm256_broadcast_ss(a0 + p);
    c0_0 = _mm256_fmadd_ps(a0v, b0, c0_0);
  }
  c0_0 = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(c0_0, c0_0_1), c0_0_2), c0_0_3);
  if (rows == 1 && cols == 8) {
    if (!store) {
      c0_0 = _mm256_add_ps(_mm256_loadu_ps(c + 0*ldc + 0), c0_0);
    }
    _mm256_storeu_ps(c + 0*ldc + 0, c0_0);
    return;
  }
  const __m256i m0 = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_edge_lanes(cols, 0, 8))), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  _mm256_maskstore_ps(c + 0*ldc + 0, m0, store ? c0_0 : _mm256_add_ps(_mm256_maskload_ps(c + 0*ldc + 0, m0), c0_0));
}

PK_SHARED void pk_ukr_gemm_f32_avx2_6x16_uu(int64_t kb, const float *restrict a, int64_t lda, const float *restrict b, int64_t ldb,
    float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store) {
  if (rows > 4) {
    if (cols > 8) pk_ukr_gemm_f32_avx2_6x16_uu_6x2(kb, a, lda, b, ldb, c, ldc, rows, cols, store);
    else pk_ukr_gemm_f32_avx2_6x16_uu_6x1(kb, a, lda, b, ldb, c, ldc, rows, cols, store);
  } else if (rows > 2) {
    if (cols > 8) pk_ukr_gemm_f32_avx2_6x16_uu_4x2(kb, a, lda, b, ldb, c, ldc, rows, cols, store);
    else pk_ukr_gemm_f32_avx2_6x16_uu_4x1(kb, a, lda, b, ldb, c, ldc, rows, cols, store);
  } else if (rows > 1) {
    if (cols > 8) pk_ukr_gemm_f32_avx2_6x16_uu_2x2(kb, a, lda, b, ldb, c, ldc, rows, cols, store);
    else pk_ukr_gemm_f32_avx2_6x16_uu_2x1(kb, a, lda, b, ldb, c, ldc, rows, cols, store);
  } else {
    if (cols > 8) pk_ukr_gemm_f32_avx2_6x16_uu_1x2(kb, a, lda, b, ldb, c, ldc, rows, cols, store);
    else pk_ukr_gemm_f32_avx2_6x16_uu_1x1(kb, a, lda, b, ldb, c, ldc, rows, cols, store);
  }
}

static inline void pk_ukr_gemm_f32_avx2_6x16_pp_6x2(int64_t kb, const float *restrict a, int64_t lda,
    const float *restrict b, int64_t ldb, float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store) {
  (void)lda;
  (void)ldb;
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
#pragma GCC unroll 4
  for (int64_t p = 0; p < kb; p++) {
    const __m256 b0 = _mm256_load_ps(b + 0);
    const __m256 b1 = _mm256_load_ps(b + 8);
    const __m256 a0v = _mm256_broadcast_ss(a + 0);
    c0_0 = _mm256_fmadd_ps(a0v, b0, c0_0);
    c0_1 = _mm256_fmadd_ps(a0v, b1, c0_1);
    const __m256 a1v = _mm256_broadcast_ss(a + 1);
    c1_0 = _mm256_fmadd_ps(a1v, b0, c1_0);
    c1_1 = _mm256_fmadd_ps(a1v, b1, c1_1);
    const __m256 a2v = _mm256_broadcast_ss(a + 2);
    c2_0 = _mm256_fmadd_ps(a2v, b0, c2_0);
    c2_1 = _mm256_fmadd_ps(a2v, b1, c2_1);
    const __m256 a3v = _mm256_broadcast_ss(a + 3);
    c3_0 = _mm256_fmadd_ps(a3v, b0, c3_0);
    c3_1 = _mm256_fmadd_ps(a3v, b1, c3_1);
    const __m256 a4v = _mm256_broadcast_ss(a + 4);
    c4_0 = _mm256_fmadd_ps(a4v, b0, c4_0);
    c4_1 = _mm256_fmadd_ps(a4v, b1, c4_1);
    const __m256 a5v = _mm256_broadcast_ss(a + 5);
    c5_0 = _mm256_fmadd_ps(a5v, b0, c5_0);
    c5_1 = _mm256_fmadd_ps(a5v, b1, c5_1);
    a += 6;
    b += 16;
  }
  if (rows == 6 && cols == 16) {
    if (!store) {
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
    }
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
  _mm256_maskstore_ps(c + 0*ldc + 0, m0, store ? c0_0 : _mm256_add_ps(_mm256_maskload_ps(c + 0*ldc + 0, m0), c0_0));
  _mm256_maskstore_ps(c + 0*ldc + 8, m1, store ? c0_1 : _mm256_add_ps(_mm256_maskload_ps(c + 0*ldc + 8, m1), c0_1));
  if (rows == 1) return;
  _mm256_maskstore_ps(c + 1*ldc + 0, m0, store ? c1_0 : _mm256_add_ps(_mm256_maskload_ps(c + 1*ldc + 0, m0), c1_0));
  _mm256_maskstore_ps(c + 1*ldc + 8, m1, store ? c1_1 : _mm256_add_ps(_mm256_maskload_ps(c + 1*ldc + 8, m1), c1_1));
  if (rows == 2) return;
  _mm256_maskstore_ps(c + 2*ldc + 0, m0, store ? c2_0 : _mm256_add_ps(_mm256_maskload_ps(c + 2*ldc + 0, m0), c2_0));
  _mm256_maskstore_ps(c + 2*ldc + 8, m1, store ? c2_1 : _mm256_add_ps(_mm256_maskload_ps(c + 2*ldc + 8, m1), c2_1));
  if (rows == 3) return;
  _mm256_maskstore_ps(c + 3*ldc + 0, m0, store ? c3_0 : _mm256_add_ps(_mm256_maskload_ps(c + 3*ldc + 0, m0), c3_0));
  _mm256_maskstore_ps(c + 3*ldc + 8, m1, store ? c3_1 : _mm256_add_ps(_mm256_maskload_ps(c + 3*ldc + 8, m1), c3_1));
  if (rows == 4) return;
  _mm256_maskstore_ps(c + 4*ldc + 0, m0, store ? c4_0 : _mm256_add_ps(_mm256_maskload_ps(c + 4*ldc + 0, m0), c4_0));
  _mm256_maskstore_ps(c + 4*ldc + 8, m1, store ? c4_1 : _mm256_add_ps(_mm256_maskload_ps(c + 4*ldc + 8, m1), c4_1));
  if (rows == 5) return;
  _mm256_maskstore_ps(c + 5*ldc + 0, m0, store ? c5_0 : _mm256_add_ps(_mm256_maskload_ps(c + 5*ldc + 0, m0), c5_0));
  _mm256_maskstore_ps(c + 5*ldc + 8, m1, store ? c5_1 : _mm256_add_ps(_mm256_maskload_ps(c + 5*ldc + 8, m1), c5_1));
}

static inline void pk_ukr_gemm_f32_avx2_6x16_pp_6x1(int64_t kb, const float *restrict a, int64_t lda,
    const float *restrict b, int64_t ldb, float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store) {
  (void)lda;
  (void)ldb;
  __m256 c0_0 = _mm256_setzero_ps();
  __m256 c1_0 = _mm256_setzero_ps();
  __m256 c2_0 = _mm256_setzero_ps();
  __m256 c3_0 = _mm256_setzero_ps();
  __m256 c4_0 = _mm256_setzero_ps();
  __m256 c5_0 = _mm256_setzero_ps();
  __builtin_prefetch(c + 0*ldc + 0, 1, 3), __builtin_prefetch(c + 0*ldc + 7, 1, 3);
  __builtin_prefetch(c + 1*ldc + 0, 1, 3), __builtin_prefetch(c + 1*ldc + 7, 1, 3);
  __builtin_prefetch(c + 2*ldc + 0, 1, 3), __builtin_prefetch(c + 2*ldc + 7, 1, 3);
  __builtin_prefetch(c + 3*ldc + 0, 1, 3), __builtin_prefetch(c + 3*ldc + 7, 1, 3);
  __builtin_prefetch(c + 4*ldc + 0, 1, 3), __builtin_prefetch(c + 4*ldc + 7, 1, 3);
  __builtin_prefetch(c + 5*ldc + 0, 1, 3), __builtin_prefetch(c + 5*ldc + 7, 1, 3);
#pragma GCC unroll 4
  for (int64_t p = 0; p < kb; p++) {
    const __m256 b0 = _mm256_load_ps(b + 0);
    const __m256 a0v = _mm256_broadcast_ss(a + 0);
    c0_0 = _mm256_fmadd_ps(a0v, b0, c0_0);
    const __m256 a1v = _mm256_broadcast_ss(a + 1);
    c1_0 = _mm256_fmadd_ps(a1v, b0, c1_0);
    const __m256 a2v = _mm256_broadcast_ss(a + 2);
    c2_0 = _mm256_fmadd_ps(a2v, b0, c2_0);
    const __m256 a3v = _mm256_broadcast_ss(a + 3);
    c3_0 = _mm256_fmadd_ps(a3v, b0, c3_0);
    const __m256 a4v = _mm256_broadcast_ss(a + 4);
    c4_0 = _mm256_fmadd_ps(a4v, b0, c4_0);
    const __m256 a5v = _mm256_broadcast_ss(a + 5);
    c5_0 = _mm256_fmadd_ps(a5v, b0, c5_0);
    a += 6;
    b += 16;
  }
  if (rows == 6 && cols == 8) {
    if (!store) {
      c0_0 = _mm256_add_ps(_mm256_loadu_ps(c + 0*ldc + 0), c0_0);
      c1_0 = _mm256_add_ps(_mm256_loadu_ps(c + 1*ldc + 0), c1_0);
      c2_0 = _mm256_add_ps(_mm256_loadu_ps(c + 2*ldc + 0), c2_0);
      c3_0 = _mm256_add_ps(_mm256_loadu_ps(c + 3*ldc + 0), c3_0);
      c4_0 = _mm256_add_ps(_mm256_loadu_ps(c + 4*ldc + 0), c4_0);
      c5_0 = _mm256_add_ps(_mm256_loadu_ps(c + 5*ldc + 0), c5_0);
    }
    _mm256_storeu_ps(c + 0*ldc + 0, c0_0);
    _mm256_storeu_ps(c + 1*ldc + 0, c1_0);
    _mm256_storeu_ps(c + 2*ldc + 0, c2_0);
    _mm256_storeu_ps(c + 3*ldc + 0, c3_0);
    _mm256_storeu_ps(c + 4*ldc + 0, c4_0);
    _mm256_storeu_ps(c + 5*ldc + 0, c5_0);
    return;
  }
  const __m256i m0 = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_edge_lanes(cols, 0, 8))), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  _mm256_maskstore_ps(c + 0*ldc + 0, m0, store ? c0_0 : _mm256_add_ps(_mm256_maskload_ps(c + 0*ldc + 0, m0), c0_0));
  if (rows == 1) return;
  _mm256_maskstore_ps(c + 1*ldc + 0, m0, store ? c1_0 : _mm256_add_ps(_mm256_maskload_ps(c + 1*ldc + 0, m0), c1_0));
  if (rows == 2) return;
  _mm256_maskstore_ps(c + 2*ldc + 0, m0, store ? c2_0 : _mm256_add_ps(_mm256_maskload_ps(c + 2*ldc + 0, m0), c2_0));
  if (rows == 3) return;
  _mm256_maskstore_ps(c + 3*ldc + 0, m0, store ? c3_0 : _mm256_add_ps(_mm256_maskload_ps(c + 3*ldc + 0, m0), c3_0));
  if (rows == 4) return;
  _mm256_maskstore_ps(c + 4*ldc + 0, m0, store ? c4_0 : _mm256_add_ps(_mm256_maskload_ps(c + 4*ldc + 0, m0), c4_0));
  if (rows == 5) return;
  _mm256_maskstore_ps(c + 5*ldc + 0, m0, store ? c5_0 : _mm256_add_ps(_mm256_maskload_ps(c + 5*ldc + 0, m0), c5_0));
}

static inline void pk_ukr_gemm_f32_avx2_6x16_pp_4x2(int64_t kb, const float *restrict a, int64_t lda,
    const float *restrict b, int64_t ldb, float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store) {
  (void)lda;
  (void)ldb;
  __m256 c0_0 = _mm256_setzero_ps(), c0_1 = _mm256_setzero_ps();
  __m256 c1_0 = _mm256_setzero_ps(), c1_1 = _mm256_setzero_ps();
  __m256 c2_0 = _mm256_setzero_ps(), c2_1 = _mm256_setzero_ps();
  __m256 c3_0 = _mm256_setzero_ps(), c3_1 = _mm256_setzero_ps();
  __builtin_prefetch(c + 0*ldc + 0, 1, 3), __builtin_prefetch(c + 0*ldc + 15, 1, 3);
  __builtin_prefetch(c + 1*ldc + 0, 1, 3), __builtin_prefetch(c + 1*ldc + 15, 1, 3);
  __builtin_prefetch(c + 2*ldc + 0, 1, 3), __builtin_prefetch(c + 2*ldc + 15, 1, 3);
  __builtin_prefetch(c + 3*ldc + 0, 1, 3), __builtin_prefetch(c + 3*ldc + 15, 1, 3);
#pragma GCC unroll 4
  for (int64_t p = 0; p < kb; p++) {
    const __m256 b0 = _mm256_load_ps(b + 0);
    const __m256 b1 = _mm256_load_ps(b + 8);
    const __m256 a0v = _mm256_broadcast_ss(a + 0);
    c0_0 = _mm256_fmadd_ps(a0v, b0, c0_0);
    c0_1 = _mm256_fmadd_ps(a0v, b1, c0_1);
    const __m256 a1v = _mm256_broadcast_ss(a + 1);
    c1_0 = _mm256_fmadd_ps(a1v, b0, c1_0);
    c1_1 = _mm256_fmadd_ps(a1v, b1, c1_1);
    const __m256 a2v = _mm256_broadcast_ss(a + 2);
    c2_0 = _mm256_fmadd_ps(a2v, b0, c2_0);
    c2_1 = _mm256_fmadd_ps(a2v, b1, c2_1);
    const __m256 a3v = _mm256_broadcast_ss(a + 3);
    c3_0 = _mm256_fmadd_ps(a3v, b0, c3_0);
    c3_1 = _mm256_fmadd_ps(a3v, b1, c3_1);
    a += 6;
    b += 16;
  }
  if (rows == 4 && cols == 16) {
    if (!store) {
      c0_0 = _mm256_add_ps(_mm256_loadu_ps(c + 0*ldc + 0), c0_0);
      c0_1 = _mm256_add_ps(_mm256_loadu_ps(c + 0*ldc + 8), c0_1);
      c1_0 = _mm256_add_ps(_mm256_loadu_ps(c + 1*ldc + 0), c1_0);
      c1_1 = _mm256_add_ps(_mm256_loadu_ps(c + 1*ldc + 8), c1_1);
      c2_0 = _mm256_add_ps(_mm256_loadu_ps(c + 2*ldc + 0), c2_0);
      c2_1 = _mm256_add_ps(_mm256_loadu_ps(c + 2*ldc + 8), c2_1);
      c3_0 = _mm256_add_ps(_mm256_loadu_ps(c + 3*ldc + 0), c3_0);
      c3_1 = _mm256_add_ps(_mm256_loadu_ps(c + 3*ldc + 8), c3_1);
    }
    _mm256_storeu_ps(c + 0*ldc + 0, c0_0);
    _mm256_storeu_ps(c + 0*ldc + 8, c0_1);
    _mm256_storeu_ps(c + 1*ldc + 0, c1_0);
    _mm256_storeu_ps(c + 1*ldc + 8, c1_1);
    _mm256_storeu_ps(c + 2*ldc + 0, c2_0);
    _mm256_storeu_ps(c + 2*ldc + 8, c2_1);
    _mm256_storeu_ps(c + 3*ldc + 0, c3_0);
    _mm256_storeu_ps(c + 3*ldc + 8, c3_1);
    return;
  }
  const __m256i m0 = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_edge_lanes(cols, 0, 8))), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  const __m256i m1 = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_edge_lanes(cols, 8, 8))), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  _mm256_maskstore_ps(c + 0*ldc + 0, m0, store ? c0_0 : _mm256_add_ps(_mm256_maskload_ps(c + 0*ldc + 0, m0), c0_0));
  _mm256_maskstore_ps(c + 0*ldc + 8, m1, store ? c0_1 : _mm256_add_ps(_mm256_maskload_ps(c + 0*ldc + 8, m1), c0_1));
  if (rows == 1) return;
  _mm256_maskstore_ps(c + 1*ldc + 0, m0, store ? c1_0 : _mm256_add_ps(_mm256_maskload_ps(c + 1*ldc + 0, m0), c1_0));
  _mm256_maskstore_ps(c + 1*ldc + 8, m1, store ? c1_1 : _mm256_add_ps(_mm256_maskload_ps(c + 1*ldc + 8, m1), c1_1));
  if (rows == 2) return;
  _mm256_maskstore_ps(c + 2*ldc + 0, m0, store ? c2_0 : _mm256_add_ps(_mm256_maskload_ps(c + 2*ldc + 0, m0), c2_0));
  _mm256_maskstore_ps(c + 2*ldc + 8, m1, store ? c2_1 : _mm256_add_ps(_mm256_maskload_ps(c + 2*ldc + 8, m1), c2_1));
  if (rows == 3) return;
  _mm256_maskstore_ps(c + 3*ldc + 0, m0, store ? c3_0 : _mm256_add_ps(_mm256_maskload_ps(c + 3*ldc + 0, m0), c3_0));
  _mm256_maskstore_ps(c + 3*ldc + 8, m1, store ? c3_1 : _mm256_add_ps(_mm256_maskload_ps(c + 3*ldc + 8, m1), c3_1));
}

static inline void pk_ukr_gemm_f32_avx2_6x16_pp_4x1(int64_t kb, const float *restrict a, int64_t lda,
    const float *restrict b, int64_t ldb, float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store) {
  (void)lda;
  (void)ldb;
  __m256 c0_0 = _mm256_setzero_ps();
  __m256 c1_0 = _mm256_setzero_ps();
  __m256 c2_0 = _mm256_setzero_ps();
  __m256 c3_0 = _mm256_setzero_ps();
  __builtin_prefetch(c + 0*ldc + 0, 1, 3), __builtin_prefetch(c + 0*ldc + 7, 1, 3);
  __builtin_prefetch(c + 1*ldc + 0, 1, 3), __builtin_prefetch(c + 1*ldc + 7, 1, 3);
  __builtin_prefetch(c + 2*ldc + 0, 1, 3), __builtin_prefetch(c + 2*ldc + 7, 1, 3);
  __builtin_prefetch(c + 3*ldc + 0, 1, 3), __builtin_prefetch(c + 3*ldc + 7, 1, 3);
#pragma GCC unroll 4
  for (int64_t p = 0; p < kb; p++) {
    const __m256 b0 = _mm256_load_ps(b + 0);
    const __m256 a0v = _mm256_broadcast_ss(a + 0);
    c0_0 = _mm256_fmadd_ps(a0v, b0, c0_0);
    const __m256 a1v = _mm256_broadcast_ss(a + 1);
    c1_0 = _mm256_fmadd_ps(a1v, b0, c1_0);
    const __m256 a2v = _mm256_broadcast_ss(a + 2);
    c2_0 = _mm256_fmadd_ps(a2v, b0, c2_0);
    const __m256 a3v = _mm256_broadcast_ss(a + 3);
    c3_0 = _mm256_fmadd_ps(a3v, b0, c3_0);
    a += 6;
    b += 16;
  }
  if (rows == 4 && cols == 8) {
    if (!store) {
      c0_0 = _mm256_add_ps(_mm256_loadu_ps(c + 0*ldc + 0), c0_0);
      c1_0 = _mm256_add_ps(_mm256_loadu_ps(c + 1*ldc + 0), c1_0);
      c2_0 = _mm256_add_ps(_mm256_loadu_ps(c + 2*ldc + 0), c2_0);
      c3_0 = _mm256_add_ps(_mm256_loadu_ps(c + 3*ldc + 0), c3_0);
    }
    _mm256_storeu_ps(c + 0*ldc + 0, c0_0);
    _mm256_storeu_ps(c + 1*ldc + 0, c1_0);
    _mm256_storeu_ps(c + 2*ldc + 0, c2_0);
    _mm256_storeu_ps(c + 3*ldc + 0, c3_0);
    return;
  }
  const __m256i m0 = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_edge_lanes(cols, 0, 8))), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  _mm256_maskstore_ps(c + 0*ldc + 0, m0, store ? c0_0 : _mm256_add_ps(_mm256_maskload_ps(c + 0*ldc + 0, m0), c0_0));
  if (rows == 1) return;
  _mm256_maskstore_ps(c + 1*ldc + 0, m0, store ? c1_0 : _mm256_add_ps(_mm256_maskload_ps(c + 1*ldc + 0, m0), c1_0));
  if (rows == 2) return;
  _mm256_maskstore_ps(c + 2*ldc + 0, m0, store ? c2_0 : _mm256_add_ps(_mm256_maskload_ps(c + 2*ldc + 0, m0), c2_0));
  if (rows == 3) return;
  _mm256_maskstore_ps(c + 3*ldc + 0, m0, store ? c3_0 : _mm256_add_ps(_mm256_maskload_ps(c + 3*ldc + 0, m0), c3_0));
}

static inline void pk_ukr_gemm_f32_avx2_6x16_pp_2x2(int64_t kb, const float *restrict a, int64_t lda,
    const float *restrict b, int64_t ldb, float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store) {
  (void)lda;
  (void)ldb;
  __m256 c0_0 = _mm256_setzero_ps(), c0_1 = _mm256_setzero_ps();
  __m256 c1_0 = _mm256_setzero_ps(), c1_1 = _mm256_setzero_ps();
  __m256 c0_0_1 = _mm256_setzero_ps(), c0_1_1 = _mm256_setzero_ps();
  __m256 c1_0_1 = _mm256_setzero_ps(), c1_1_1 = _mm256_setzero_ps();
  __builtin_prefetch(c + 0*ldc + 0, 1, 3), __builtin_prefetch(c + 0*ldc + 15, 1, 3);
  __builtin_prefetch(c + 1*ldc + 0, 1, 3), __builtin_prefetch(c + 1*ldc + 15, 1, 3);
  int64_t p = 0;
  for (; p + 2 <= kb; p += 2) {
    const __m256 b0 = _mm256_load_ps(b + 0);
    const __m256 b1 = _mm256_load_ps(b + 8);
    const __m256 a0v = _mm256_broadcast_ss(a + 0);
    c0_0 = _mm256_fmadd_ps(a0v, b0, c0_0);
    c0_1 = _mm256_fmadd_ps(a0v, b1, c0_1);
    const __m256 a1v = _mm256_broadcast_ss(a + 1);
    c1_0 = _mm256_fmadd_ps(a1v, b0, c1_0);
    c1_1 = _mm256_fmadd_ps(a1v, b1, c1_1);
    const __m256 b0_1 = _mm256_load_ps(b + 16);
    const __m256 b1_1 = _mm256_load_ps(b + 24);
    const __m256 a0v_1 = _mm256_broadcast_ss(a + 6);
    c0_0_1 = _mm256_fmadd_ps(a0v_1, b0_1, c0_0_1);
    c0_1_1 = _mm256_fmadd_ps(a0v_1, b1_1, c0_1_1);
    const __m256 a1v_1 = _mm256_broadcast_ss(a + 7);
    c1_0_1 = _mm256_fmadd_ps(a1v_1, b0_1, c1_0_1);
    c1_1_1 = _mm256_fmadd_ps(a1v_1, b1_1, c1_1_1);
    a += 12;
    b += 32;
  }
  for (; p < kb; p++) {
    const __m256 b0 = _mm256_load_ps(b + 0);
    const __m256 b1 = _mm256_load_ps(b + 8);
    const __m256 a0v = _mm256_broadcast_ss(a + 0);
    c0_0 = _mm256_fmadd_ps(a0v, b0, c0_0);
    c0_1 = _mm256_fmadd_ps(a0v, b1, c0_1);
    const __m256 a1v = _mm256_broadcast_ss(a + 1);
    c1_0 = _mm256_fmadd_ps(a1v, b0, c1_0);
    c1_1 = _mm256_fmadd_ps(a1v, b1, c1_1);
    a += 6;
    b += 16;
  }
  c0_0 = _mm256_add_ps(c0_0, c0_0_1);
  c0_1 = _mm256_add_ps(c0_1, c0_1_1);
  c1_0 = _mm256_add_ps(c1_0, c1_0_1);
  c1_1 = _mm256_add_ps(c1_1, c1_1_1);
  if (rows == 2 && cols == 16) {
    if (!store) {
      c0_0 = _mm256_add_ps(_mm256_loadu_ps(c + 0*ldc + 0), c0_0);
      c0_1 = _mm256_add_ps(_mm256_loadu_ps(c + 0*ldc + 8), c0_1);
      c1_0 = _mm256_add_ps(_mm256_loadu_ps(c + 1*ldc + 0), c1_0);
      c1_1 = _mm256_add_ps(_mm256_loadu_ps(c + 1*ldc + 8), c1_1);
    }
    _mm256_storeu_ps(c + 0*ldc + 0, c0_0);
    _mm256_storeu_ps(c + 0*ldc + 8, c0_1);
    _mm256_storeu_ps(c + 1*ldc + 0, c1_0);
    _mm256_storeu_ps(c + 1*ldc + 8, c1_1);
    return;
  }
  const __m256i m0 = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_edge_lanes(cols, 0, 8))), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  const __m256i m1 = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_edge_lanes(cols, 8, 8))), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  _mm256_maskstore_ps(c + 0*ldc + 0, m0, store ? c0_0 : _mm256_add_ps(_mm256_maskload_ps(c + 0*ldc + 0, m0), c0_0));
  _mm256_maskstore_ps(c + 0*ldc + 8, m1, store ? c0_1 : _mm256_add_ps(_mm256_maskload_ps(c + 0*ldc + 8, m1), c0_1));
  if (rows == 1) return;
  _mm256_maskstore_ps(c + 1*ldc + 0, m0, store ? c1_0 : _mm256_add_ps(_mm256_maskload_ps(c + 1*ldc + 0, m0), c1_0));
  _mm256_maskstore_ps(c + 1*ldc + 8, m1, store ? c1_1 : _mm256_add_ps(_mm256_maskload_ps(c + 1*ldc + 8, m1), c1_1));
}

static inline void pk_ukr_gemm_f32_avx2_6x16_pp_2x1(int64_t kb, const float *restrict a, int64_t lda,
    const float *restrict b, int64_t ldb, float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store) {
  (void)lda;
  (void)ldb;
  __m256 c0_0 = _mm256_setzero_ps();
  __m256 c1_0 = _mm256_setzero_ps();
  __m256 c0_0_1 = _mm256_setzero_ps();
  __m256 c1_0_1 = _mm256_setzero_ps();
  __m256 c0_0_2 = _mm256_setzero_ps();
  __m256 c1_0_2 = _mm256_setzero_ps();
  __m256 c0_0_3 = _mm256_setzero_ps();
  __m256 c1_0_3 = _mm256_setzero_ps();
  __builtin_prefetch(c + 0*ldc + 0, 1, 3), __builtin_prefetch(c + 0*ldc + 7, 1, 3);
  __builtin_prefetch(c + 1*ldc + 0, 1, 3), __builtin_prefetch(c + 1*ldc + 7, 1, 3);
  int64_t p = 0;
  for (; p + 4 <= kb; p += 4) {
    const __m256 b0 = _mm256_load_ps(b + 0);
    const __m256 a0v = _mm256_broadcast_ss(a + 0);
    c0_0 = _mm256_fmadd_ps(a0v, b0, c0_0);
    const __m256 a1v = _mm256_broadcast_ss(a + 1);
    c1_0 = _mm256_fmadd_ps(a1v, b0, c1_0);
    const __m256 b0_1 = _mm256_load_ps(b + 16);
    const __m256 a0v_1 = _mm256_broadcast_ss(a + 6);
    c0_0_1 = _mm256_fmadd_ps(a0v_1, b0_1, c0_0_1);
    const __m256 a1v_1 = _mm256_broadcast_ss(a + 7);
    c1_0_1 = _mm256_fmadd_ps(a1v_1, b0_1, c1_0_1);
    const __m256 b0_2 = _mm256_load_ps(b + 32);
    const __m256 a0v_2 = _mm256_broadcast_ss(a + 12);
    c0_0_2 = _mm256_fmadd_ps(a0v_2, b0_2, c0_0_2);
    const __m256 a1v_2 = _mm256_broadcast_ss(a + 13);
    c1_0_2 = _mm256_fmadd_ps(a1v_2, b0_2, c1_0_2);
    const __m256 b0_3 = _mm256_load_ps(b + 48);
    const __m256 a0v_3 = _mm256_broadcast_ss(a + 18);
    c0_0_3 = _mm256_fmadd_ps(a0v_3, b0_3, c0_0_3);
    const __m256 a1v_3 = _mm256_broadcast_ss(a + 19);
    c1_0_3 = _mm256_fmadd_ps(a1v_3, b0_3, c1_0_3);
    a += 24;
    b += 64;
  }
  for (; p < kb; p++) {
    const __m256 b0 = _mm256_load_ps(b + 0);
    const __m256 a0v = _mm256_broadcast_ss(a + 0);
    c0_0 = _mm256_fmadd_ps(a0v, b0, c0_0);
    const __m256 a1v = _mm256_broadcast_ss(a + 1);
    c1_0 = _mm256_fmadd_ps(a1v, b0, c1_0);
    a += 6;
    b += 16;
  }
  c0_0 = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(c0_0, c0_0_1), c0_0_2), c0_0_3);
  c1_0 = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(c1_0, c1_0_1), c1_0_2), c1_0_3);
  if (rows == 2 && cols == 8) {
    if (!store) {
      c0_0 = _mm256_add_ps(_mm256_loadu_ps(c + 0*ldc + 0), c0_0);
      c1_0 = _mm256_add_ps(_mm256_loadu_ps(c + 1*ldc + 0), c1_0);
    }
    _mm256_storeu_ps(c + 0*ldc + 0, c0_0);
    _mm256_storeu_ps(c + 1*ldc + 0, c1_0);
    return;
  }
  const __m256i m0 = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_edge_lanes(cols, 0, 8))), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  _mm256_maskstore_ps(c + 0*ldc + 0, m0, store ? c0_0 : _mm256_add_ps(_mm256_maskload_ps(c + 0*ldc + 0, m0), c0_0));
  if (rows == 1) return;
  _mm256_maskstore_ps(c + 1*ldc + 0, m0, store ? c1_0 : _mm256_add_ps(_mm256_maskload_ps(c + 1*ldc + 0, m0), c1_0));
}

static inline void pk_ukr_gemm_f32_avx2_6x16_pp_1x2(int64_t kb, const float *restrict a, int64_t lda,
    const float *restrict b, int64_t ldb, float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store) {
  (void)lda;
  (void)ldb;
  __m256 c0_0 = _mm256_setzero_ps(), c0_1 = _mm256_setzero_ps();
  __m256 c0_0_1 = _mm256_setzero_ps(), c0_1_1 = _mm256_setzero_ps();
  __m256 c0_0_2 = _mm256_setzero_ps(), c0_1_2 = _mm256_setzero_ps();
  __m256 c0_0_3 = _mm256_setzero_ps(), c0_1_3 = _mm256_setzero_ps();
  __builtin_prefetch(c + 0*ldc + 0, 1, 3), __builtin_prefetch(c + 0*ldc + 15, 1, 3);
  const int64_t pk_seg = kb / 4;
  int64_t p = 0;
  for (; p < pk_seg; p++) {
    const __m256 b0 = _mm256_load_ps(b + 0);
    const __m256 b1 = _mm256_load_ps(b + 8);
    const __m256 a0v = _mm256_broadcast_ss(a + 0);
    c0_0 = _mm256_fmadd_ps(a0v, b0, c0_0);
    c0_1 = _mm256_fmadd_ps(a0v, b1, c0_1);
    const __m256 b0_1 = _mm256_load_ps(b + (1*pk_seg)*16);
    const __m256 b1_1 = _mm256_load_ps(b + (1*pk_seg)*16 + 8);
    const __m256 a0v_1 = _mm256_broadcast_ss(a + (1*pk_seg)*6);
    c0_0_1 = _mm256_fmadd_ps(a0v_1, b0_1, c0_0_1);
    c0_1_1 = _mm256_fmadd_ps(a0v_1, b1_1, c0_1_1);
    const __m256 b0_2 = _mm256_load_ps(b + (2*pk_seg)*16);
    const __m256 b1_2 = _mm256_load_ps(b + (2*pk_seg)*16 + 8);
    const __m256 a0v_2 = _mm256_broadcast_ss(a + (2*pk_seg)*6);
    c0_0_2 = _mm256_fmadd_ps(a0v_2, b0_2, c0_0_2);
    c0_1_2 = _mm256_fmadd_ps(a0v_2, b1_2, c0_1_2);
    const __m256 b0_3 = _mm256_load_ps(b + (3*pk_seg)*16);
    const __m256 b1_3 = _mm256_load_ps(b + (3*pk_seg)*16 + 8);
    const __m256 a0v_3 = _mm256_broadcast_ss(a + (3*pk_seg)*6);
    c0_0_3 = _mm256_fmadd_ps(a0v_3, b0_3, c0_0_3);
    c0_1_3 = _mm256_fmadd_ps(a0v_3, b1_3, c0_1_3);
    a += 6;
    b += 16;
  }
  a += (3*pk_seg)*6;
  b += (3*pk_seg)*16;
  for (p = 4*pk_seg; p < kb; p++) {
    const __m256 b0 = _mm256_load_ps(b + 0);
    const __m256 b1 = _mm256_load_ps(b + 8);
    const __m256 a0v = _mm256_broadcast_ss(a + 0);
    c0_0 = _mm256_fmadd_ps(a0v, b0, c0_0);
    c0_1 = _mm256_fmadd_ps(a0v, b1, c0_1);
    a += 6;
    b += 16;
  }
  c0_0 = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(c0_0, c0_0_1), c0_0_2), c0_0_3);
  c0_1 = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(c0_1, c0_1_1), c0_1_2), c0_1_3);
  if (rows == 1 && cols == 16) {
    if (!store) {
      c0_0 = _mm256_add_ps(_mm256_loadu_ps(c + 0*ldc + 0), c0_0);
      c0_1 = _mm256_add_ps(_mm256_loadu_ps(c + 0*ldc + 8), c0_1);
    }
    _mm256_storeu_ps(c + 0*ldc + 0, c0_0);
    _mm256_storeu_ps(c + 0*ldc + 8, c0_1);
    return;
  }
  const __m256i m0 = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_edge_lanes(cols, 0, 8))), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  const __m256i m1 = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_edge_lanes(cols, 8, 8))), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  _mm256_maskstore_ps(c + 0*ldc + 0, m0, store ? c0_0 : _mm256_add_ps(_mm256_maskload_ps(c + 0*ldc + 0, m0), c0_0));
  _mm256_maskstore_ps(c + 0*ldc + 8, m1, store ? c0_1 : _mm256_add_ps(_mm256_maskload_ps(c + 0*ldc + 8, m1), c0_1));
}

static inline void pk_ukr_gemm_f32_avx2_6x16_pp_1x1(int64_t kb, const float *restrict a, int64_t lda,
    const float *restrict b, int64_t ldb, float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store) {
  (void)lda;
  (void)ldb;
  __m256 c0_0 = _mm256_setzero_ps();
  __m256 c0_0_1 = _mm256_setzero_ps();
  __m256 c0_0_2 = _mm256_setzero_ps();
  __m256 c0_0_3 = _mm256_setzero_ps();
  __builtin_prefetch(c + 0*ldc + 0, 1, 3), __builtin_prefetch(c + 0*ldc + 7, 1, 3);
  const int64_t pk_seg = kb / 4;
  int64_t p = 0;
  for (; p < pk_seg; p++) {
    const __m256 b0 = _mm256_load_ps(b + 0);
    const __m256 a0v = _mm256_broadcast_ss(a + 0);
    c0_0 = _mm256_fmadd_ps(a0v, b0, c0_0);
    const __m256 b0_1 = _mm256_load_ps(b + (1*pk_seg)*16);
    const __m256 a0v_1 = _mm256_broadcast_ss(a + (1*pk_seg)*6);
    c0_0_1 = _mm256_fmadd_ps(a0v_1, b0_1, c0_0_1);
    const __m256 b0_2 = _mm256_load_ps(b + (2*pk_seg)*16);
    const __m256 a0v_2 = _mm256_broadcast_ss(a + (2*pk_seg)*6);
    c0_0_2 = _mm256_fmadd_ps(a0v_2, b0_2, c0_0_2);
    const __m256 b0_3 = _mm256_load_ps(b + (3*pk_seg)*16);
    const __m256 a0v_3 = _mm256_broadcast_ss(a + (3*pk_seg)*6);
    c0_0_3 = _mm256_fmadd_ps(a0v_3, b0_3, c0_0_3);
    a += 6;
    b += 16;
  }
  a += (3*pk_seg)*6;
  b += (3*pk_seg)*16;
  for (p = 4*pk_seg; p < kb; p++) {
    const __m256 b0 = _mm256_load_ps(b + 0);
    const __m256 a0v = _mm256_broadcast_ss(a + 0);
    c0_0 = _mm256_fmadd_ps(a0v, b0, c0_0);
    a += 6;
    b += 16;
  }
  c0_0 = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(c0_0, c0_0_1), c0_0_2), c0_0_3);
  if (rows == 1 && cols == 8) {
    if (!store) {
      c0_0 = _mm256_add_ps(_mm256_loadu_ps(c + 0*ldc + 0), c0_0);
    }
    _mm256_storeu_ps(c + 0*ldc + 0, c0_0);
    return;
  }
  const __m256i m0 = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_edge_lanes(cols, 0, 8))), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  _mm256_maskstore_ps(c + 0*ldc + 0, m0, store ? c0_0 : _mm256_add_ps(_mm256_maskload_ps(c + 0*ldc + 0, m0), c0_0));
}

PK_SHARED void pk_ukr_gemm_f32_avx2_6x16_pp(int64_t kb, const float *restrict a, int64_t lda, const float *restrict b, int64_t ldb,
    float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store) {
  if (rows > 4) {
    if (cols > 8) pk_ukr_gemm_f32_avx2_6x16_pp_6x2(kb, a, lda, b, ldb, c, ldc, rows, cols, store);
    else pk_ukr_gemm_f32_avx2_6x16_pp_6x1(kb, a, lda, b, ldb, c, ldc, rows, cols, store);
  } else if (rows > 2) {
    if (cols > 8) pk_ukr_gemm_f32_avx2_6x16_pp_4x2(kb, a, lda, b, ldb, c, ldc, rows, cols, store);
    else pk_ukr_gemm_f32_avx2_6x16_pp_4x1(kb, a, lda, b, ldb, c, ldc, rows, cols, store);
  } else if (rows > 1) {
    if (cols > 8) pk_ukr_gemm_f32_avx2_6x16_pp_2x2(kb, a, lda, b, ldb, c, ldc, rows, cols, store);
    else pk_ukr_gemm_f32_avx2_6x16_pp_2x1(kb, a, lda, b, ldb, c, ldc, rows, cols, store);
  } else {
    if (cols > 8) pk_ukr_gemm_f32_avx2_6x16_pp_1x2(kb, a, lda, b, ldb, c, ldc, rows, cols, store);
    else pk_ukr_gemm_f32_avx2_6x16_pp_1x1(kb, a, lda, b, ldb, c, ldc, rows, cols, store);
  }
}

PK_SHARED void pk_ukr_gemm_f32_avx2_6x16_pp(int64_t kb, const float *restrict a, int64_t lda, const float *restrict b, int64_t ldb,
    float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store);
static inline void pk_ukr_gemm_f32_avx2_6x16_ppf_6x2(int64_t kb, const float *restrict a, int64_t lda,
    const float *restrict b, int64_t ldb, float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store) {
  (void)lda;
  (void)ldb;
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
#pragma GCC unroll 4
  for (int64_t p = 0; p < kb; p++) {
    const __m256 b0 = _mm256_load_ps(b + 0);
    const __m256 b1 = _mm256_load_ps(b + 8);
    __builtin_prefetch(b + 256, 0, 3);
    const __m256 a0v = _mm256_broadcast_ss(a + 0);
    c0_0 = _mm256_fmadd_ps(a0v, b0, c0_0);
    c0_1 = _mm256_fmadd_ps(a0v, b1, c0_1);
    const __m256 a1v = _mm256_broadcast_ss(a + 1);
    c1_0 = _mm256_fmadd_ps(a1v, b0, c1_0);
    c1_1 = _mm256_fmadd_ps(a1v, b1, c1_1);
    const __m256 a2v = _mm256_broadcast_ss(a + 2);
    c2_0 = _mm256_fmadd_ps(a2v, b0, c2_0);
    c2_1 = _mm256_fmadd_ps(a2v, b1, c2_1);
    const __m256 a3v = _mm256_broadcast_ss(a + 3);
    c3_0 = _mm256_fmadd_ps(a3v, b0, c3_0);
    c3_1 = _mm256_fmadd_ps(a3v, b1, c3_1);
    const __m256 a4v = _mm256_broadcast_ss(a + 4);
    c4_0 = _mm256_fmadd_ps(a4v, b0, c4_0);
    c4_1 = _mm256_fmadd_ps(a4v, b1, c4_1);
    const __m256 a5v = _mm256_broadcast_ss(a + 5);
    c5_0 = _mm256_fmadd_ps(a5v, b0, c5_0);
    c5_1 = _mm256_fmadd_ps(a5v, b1, c5_1);
    a += 6;
    b += 16;
  }
  if (rows == 6 && cols == 16) {
    if (!store) {
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
    }
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
  _mm256_maskstore_ps(c + 0*ldc + 0, m0, store ? c0_0 : _mm256_add_ps(_mm256_maskload_ps(c + 0*ldc + 0, m0), c0_0));
  _mm256_maskstore_ps(c + 0*ldc + 8, m1, store ? c0_1 : _mm256_add_ps(_mm256_maskload_ps(c + 0*ldc + 8, m1), c0_1));
  if (rows == 1) return;
  _mm256_maskstore_ps(c + 1*ldc + 0, m0, store ? c1_0 : _mm256_add_ps(_mm256_maskload_ps(c + 1*ldc + 0, m0), c1_0));
  _mm256_maskstore_ps(c + 1*ldc + 8, m1, store ? c1_1 : _mm256_add_ps(_mm256_maskload_ps(c + 1*ldc + 8, m1), c1_1));
  if (rows == 2) return;
  _mm256_maskstore_ps(c + 2*ldc + 0, m0, store ? c2_0 : _mm256_add_ps(_mm256_maskload_ps(c + 2*ldc + 0, m0), c2_0));
  _mm256_maskstore_ps(c + 2*ldc + 8, m1, store ? c2_1 : _mm256_add_ps(_mm256_maskload_ps(c + 2*ldc + 8, m1), c2_1));
  if (rows == 3) return;
  _mm256_maskstore_ps(c + 3*ldc + 0, m0, store ? c3_0 : _mm256_add_ps(_mm256_maskload_ps(c + 3*ldc + 0, m0), c3_0));
  _mm256_maskstore_ps(c + 3*ldc + 8, m1, store ? c3_1 : _mm256_add_ps(_mm256_maskload_ps(c + 3*ldc + 8, m1), c3_1));
  if (rows == 4) return;
  _mm256_maskstore_ps(c + 4*ldc + 0, m0, store ? c4_0 : _mm256_add_ps(_mm256_maskload_ps(c + 4*ldc + 0, m0), c4_0));
  _mm256_maskstore_ps(c + 4*ldc + 8, m1, store ? c4_1 : _mm256_add_ps(_mm256_maskload_ps(c + 4*ldc + 8, m1), c4_1));
  if (rows == 5) return;
  _mm256_maskstore_ps(c + 5*ldc + 0, m0, store ? c5_0 : _mm256_add_ps(_mm256_maskload_ps(c + 5*ldc + 0, m0), c5_0));
  _mm256_maskstore_ps(c + 5*ldc + 8, m1, store ? c5_1 : _mm256_add_ps(_mm256_maskload_ps(c + 5*ldc + 8, m1), c5_1));
}

PK_SHARED void pk_ukr_gemm_f32_avx2_6x16_ppf(int64_t kb, const float *restrict a, int64_t lda, const float *restrict b, int64_t ldb,
    float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store) {
  if (rows == 6 && cols == 16) pk_ukr_gemm_f32_avx2_6x16_ppf_6x2(kb, a, lda, b, ldb, c, ldc, rows, cols, store);
  else pk_ukr_gemm_f32_avx2_6x16_pp(kb, a, lda, b, ldb, c, ldc, rows, cols, store);
}

PK_SHARED int kc_0_matmul(const float *restrict A, const float *restrict B, float *restrict C, int64_t M, int64_t K, int64_t N) {
  { /* contraction s0: gemm_f32_avx2_6x16 */
    const int64_t pk_m = M, pk_n = N, pk_k = K;
    const pk_gemm_f32_shape *pk_shape;
    int64_t pk_mc, pk_nc, pk_kc;
    if (pk_m <= 16) /* mc 96 nc 480 kc 64, order knm, inner mn, parallel n, pack none */
      pk_shape = &pk_gemm_f32_avx2_6x16_knm_mn_n_uu, pk_mc = 96, pk_nc = 480, pk_kc = 64;
    else /* mc 96 nc 480 kc 256, order nkm, inner mn, parallel m, pack AB */
      pk_shape = &pk_gemm_f32_avx2_6x16_nkm_mn_m_pp, pk_mc = 96, pk_nc = 480, pk_kc = 256;
    const int pk_status = pk_gemm_f32_run(&(const pk_gemm_f32){.a = A, .b = B, .c = C, .m = pk_m, .n = pk_n, .k = pk_k, .a_m = K, .a_k = 1, .b_k = N, .b_n = 1, .c_m = N, .mc = pk_mc, .nc = pk_nc, .kc = pk_kc, .overwrite = 1}, NULL, pk_shape, 0);
    if (pk_status != PK_OK) {
      return PK_NO_MEMORY;
    }
  }
  return PK_OK;
}
