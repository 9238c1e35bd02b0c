PK_SHARED void pk_ukr_gemm_f32_avx512_8x48_uu(int64_t kb, const float *restrict a, int64_t lda, const float *restrict b, int64_t ldb,
    float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store);
PK_SHARED void pk_ukr_gemm_f32_avx512_8x48_pp(int64_t kb, const float *restrict a, int64_t lda, const float *restrict b, int64_t ldb,
    float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store);
PK_SHARED void pk_ukr_gemm_f32_avx512_8x48_ppf(int64_t kb, const float *restrict a, int64_t lda, const float *restrict b, int64_t ldb,
    float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store);
#define PK_PACK pk_pack_a_gemm_f32_avx512_8x48
#define PK_PACK_T float
#define PK_PACK_W 8
#define PK_PACK_SCALED 0
#include "polykern_pack.h"

#define PK_PACK pk_pack_b_gemm_f32_avx512_8x48
#define PK_PACK_T float
#define PK_PACK_W 48
#define PK_PACK_SCALED 0
#include "polykern_pack.h"

static const pk_gemm_f32_shape pk_gemm_f32_avx512_8x48_knm_mn_n_uu = {
  .mr = 8, .nr = 48, .lanes = 16, .order = {PK_GEMM_K, PK_GEMM_N, PK_GEMM_M},
  .m_tiles_outer = 1, .parallel = PK_GEMM_N, .gather = 0, .masked = 0,
  .pack = {{0}, {0}},
  .tile = pk_ukr_gemm_f32_avx512_8x48_uu,
};

static const pk_gemm_f32_shape pk_gemm_f32_avx512_8x48_nkm_mn_m_pp = {
  .mr = 8, .nr = 48, .lanes = 16, .order = {PK_GEMM_N, PK_GEMM_K, PK_GEMM_M},
  .m_tiles_outer = 1, .parallel = PK_GEMM_M, .gather = 0, .masked = 0,
  .pack = {{.plain = pk_pack_a_gemm_f32_avx512_8x48}, {.plain = pk_pack_b_gemm_f32_avx512_8x48}},
  .tile = pk_ukr_gemm_f32_avx512_8x48_pp,
  .first_tile = pk_ukr_gemm_f32_avx512_8x48_ppf,
};

static inline void pk_ukr_gemm_f32_avx512_8x48_uu_8x3(int64_t kb, const float *restrict a, int64_t lda,
    const float *restrict b, int64_t ldb, float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store) {
  const float *restrict a0 = a + 0*lda;
  const float *restrict a1 = a + pk_min64(1, rows - 1)*lda;
  const float *restrict a2 = a + pk_min64(2, rows - 1)*lda;
  const float *restrict a3 = a + pk_min64(3, rows - 1)*lda;
  const float *restrict a4 = a + pk_min64(4, rows - 1)*lda;
  const float *restrict a5 = a + pk_min64(5, rows - 1)*lda;
  const float *restrict a6 = a + pk_min64(6, rows - 1)*lda;
  const float *restrict a7 = a + pk_min64(7, rows - 1)*lda;
  const __mmask16 bm = (__mmask16)((1u << (pk_edge_lanes(cols, 32, 16))) - 1u);
  __m512 c0_0 = _mm512_setzero_ps(), c0_1 = _mm512_setzero_ps(), c0_2 = _mm512_setzero_ps();
  __m512 c1_0 = _mm512_setzero_ps(), c1_1 = _mm512_setzero_ps(), c1_2 = _mm512_setzero_ps();
  __m512 c2_0 = _mm512_setzero_ps(), c2_1 = _mm512_setzero_ps(), c2_2 = _mm512_setzero_ps();
  __m512 c3_0 = _mm512_setzero_ps(), c3_1 = _mm512_setzero_ps(), c3_2 = _mm512_setzero_ps();
  __m512 c4_0 = _mm512_setzero_ps(), c4_1 = _mm512_setzero_ps(), c4_2 = _mm512_setzero_ps();
  __m512 c5_0 = _mm512_setzero_ps(), c5_1 = _mm512_setzero_ps(), c5_2 = _mm512_setzero_ps();
  __m512 c6_0 = _mm512_setzero_ps(), c6_1 = _mm512_setzero_ps(), c6_2 = _mm512_setzero_ps();
  __m512 c7_0 = _mm512_setzero_ps(), c7_1 = _mm512_setzero_ps(), c7_2 = _mm512_setzero_ps();
  const int64_t pk_gap = kb / 16;
  if (pk_gap < 4) {
    __builtin_prefetch(c + 0*ldc + 0, 1, 3), __builtin_prefetch(c + 0*ldc + 16, 1, 3), __builtin_prefetch(c + 0*ldc + 32, 1, 3), __builtin_prefetch(c + 0*ldc + 47, 1, 3);
    __builtin_prefetch(c + 1*ldc + 0, 1, 3), __builtin_prefetch(c + 1*ldc + 16, 1, 3), __builtin_prefetch(c + 1*ldc + 32, 1, 3), __builtin_prefetch(c + 1*ldc + 47, 1, 3);
    __builtin_prefetch(c + 2*ldc + 0, 1, 3), __builtin_prefetch(c + 2*ldc + 16, 1, 3), __builtin_prefetch(c + 2*ldc + 32, 1, 3), __builtin_prefetch(c + 2*ldc + 47, 1, 3);
    __builtin_prefetch(c + 3*ldc + 0, 1, 3), __builtin_prefetch(c + 3*ldc + 16, 1, 3), __builtin_prefetch(c + 3*ldc + 32, 1, 3), __builtin_prefetch(c + 3*ldc + 47, 1, 3);
    __builtin_prefetch(c + 4*ldc + 0, 1, 3), __builtin_prefetch(c + 4*ldc + 16, 1, 3), __builtin_prefetch(c + 4*ldc + 32, 1, 3), __builtin_prefetch(c + 4*ldc + 47, 1, 3);
    __builtin_prefetch(c + 5*ldc + 0, 1, 3), __builtin_prefetch(c + 5*ldc + 16, 1, 3), __builtin_prefetch(c + 5*ldc + 32, 1, 3), __builtin_prefetch(c + 5*ldc + 47, 1, 3);
    __builtin_prefetch(c + 6*ldc + 0, 1, 3), __builtin_prefetch(c + 6*ldc + 16, 1, 3), __builtin_prefetch(c + 6*ldc + 32, 1, 3), __builtin_prefetch(c + 6*ldc + 47, 1, 3);
    __builtin_prefetch(c + 7*ldc + 0, 1, 3), __builtin_prefetch(c + 7*ldc + 16, 1, 3), __builtin_prefetch(c + 7*ldc + 32, 1, 3), __builtin_prefetch(c + 7*ldc + 47, 1, 3);
#pragma GCC unroll 4
    for (int64_t p = 0; p < kb; p++) {
      const __m512 b0 = _mm512_loadu_ps(b + p*ldb + 0);
      const __m512 b1 = _mm512_loadu_ps(b + p*ldb + 16);
      const __m512 b2 = _mm512_maskz_loadu_ps(bm, b + p*ldb + 32);
      __builtin_prefetch(b + p*ldb + 48, 0, 3);
      __builtin_prefetch(b + p*ldb + 64, 0, 3);
      __builtin_prefetch(b + p*ldb + 80, 0, 3);
      const __m512 a0v = _mm512_set1_ps(*(a0 + p));
      c0_0 = _mm512_fmadd_ps(a0v, b0, c0_0);
      c0_1 = _mm512_fmadd_ps(a0v, b1, c0_1);
      c0_2 = _mm512_fmadd_ps(a0v, b2, c0_2);
      const __m512 a1v = _mm512_set1_ps(*(a1 + p));
      c1_0 = _mm512_fmadd_ps(a1v, b0, c1_0);
      c1_1 = _mm512_fmadd_ps(a1v, b1, c1_1);
      c1_2 = _mm512_fmadd_ps(a1v, b2, c1_2);
      const __m512 a2v = _mm512_set1_ps(*(a2 + p));
      c2_0 = _mm512_fmadd_ps(a2v, b0, c2_0);
      c2_1 = _mm512_fmadd_ps(a2v, b1, c2_1);
      c2_2 = _mm512_fmadd_ps(a2v, b2, c2_2);
      const __m512 a3v = _mm512_set1_ps(*(a3 + p));
      c3_0 = _mm512_fmadd_ps(a3v, b0, c3_0);
      c3_1 = _mm512_fmadd_ps(a3v, b1, c3_1);
      c3_2 = _mm512_fmadd_ps(a3v, b2, c3_2);
      const __m512 a4v = _mm512_set1_ps(*(a4 + p));
      c4_0 = _mm512_fmadd_ps(a4v, b0, c4_0);
      c4_1 = _mm512_fmadd_ps(a4v, b1, c4_1);
      c4_2 = _mm512_fmadd_ps(a4v, b2, c4_2);
      const __m512 a5v = _mm512_set1_ps(*(a5 + p));
      c5_0 = _mm512_fmadd_ps(a5v, b0, c5_0);
      c5_1 = _mm512_fmadd_ps(a5v, b1, c5_1);
      c5_2 = _mm512_fmadd_ps(a5v, b2, c5_2);
      const __m512 a6v = _mm512_set1_ps(*(a6 + p));
      c6_0 = _mm512_fmadd_ps(a6v, b0, c6_0);
      c6_1 = _mm512_fmadd_ps(a6v, b1, c6_1);
      c6_2 = _mm512_fmadd_ps(a6v, b2, c6_2);
      const __m512 a7v = _mm512_set1_ps(*(a7 + p));
      c7_0 = _mm512_fmadd_ps(a7v, b0, c7_0);
      c7_1 = _mm512_fmadd_ps(a7v, b1, c7_1);
      c7_2 = _mm512_fmadd_ps(a7v, b2, c7_2);
    }
  } else {
    const float *pk_row = c, *const pk_last = c + (rows - 1)*ldc;
    int64_t pk_next = pk_gap, p = 0;
    for (; p + 4 <= kb; p += 4) {
      __builtin_prefetch(pk_row + 0, 1, 3), __builtin_prefetch(pk_row + 16, 1, 3), __builtin_prefetch(pk_row + 32, 1, 3), __builtin_prefetch(pk_row + 47, 1, 3);
      const int pk_on = p + 4 > pk_next && pk_row < pk_last;
      pk_row = pk_on ? pk_row + ldc : pk_row;
      pk_next = pk_on ? pk_next + pk_gap : pk_next;
      {
        const __m512 b0 = _mm512_loadu_ps(b + p*ldb + 0);
        const __m512 b1 = _mm512_loadu_ps(b + p*ldb + 16);
        const __m512 b2 = _mm512_maskz_loadu_ps(bm, b + p*ldb + 32);
        __builtin_prefetch(b + p*ldb + 48, 0, 3);
        __builtin_prefetch(b + p*ldb + 64, 0, 3);
        __builtin_prefetch(b + p*ldb + 80, 0, 3);
        const __m512 a0v = _mm512_set1_ps(*(a0 + p));
        c0_0 = _mm512_fmadd_ps(a0v, b0, c0_0);
        c0_1 = _mm512_fmadd_ps(a0v, b1, c0_1);
        c0_2 = _mm512_fmadd_ps(a0v, b2, c0_2);
        const __m512 a1v = _mm512_set1_ps(*(a1 + p));
        c1_0 = _mm512_fmadd_ps(a1v, b0, c1_0);
        c1_1 = _mm512_fmadd_ps(a1v, b1, c1_1);
        c1_2 = _mm512_fmadd_ps(a1v, b2, c1_2);
        const __m512 a2v = _mm512_set1_ps(*(a2 + p));
        c2_0 = _mm512_fmadd_ps(a2v, b0, c2_0);
        c2_1 = _mm512_fmadd_ps(a2v, b1, c2_1);
        c2_2 = _mm512_fmadd_ps(a2v, b2, c2_2);
        const __m512 a3v = _mm512_set1_ps(*(a3 + p));
        c3_0 = _mm512_fmadd_ps(a3v, b0, c3_0);
        c3_1 = _mm512_fmadd_ps(a3v, b1, c3_1);
        c3_2 = _mm512_fmadd_ps(a3v, b2, c3_2);
        const __m512 a4v = _mm512_set1_ps(*(a4 + p));
        c4_0 = _mm512_fmadd_ps(a4v, b0, c4_0);
        c4_1 = _mm512_fmadd_ps(a4v, b1, c4_1);
        c4_2 = _mm512_fmadd_ps(a4v, b2, c4_2);
        const __m512 a5v = _mm512_set1_ps(*(a5 + p));
        c5_0 = _mm512_fmadd_ps(a5v, b0, c5_0);
        c5_1 = _mm512_fmadd_ps(a5v, b1, c5_1);
        c5_2 = _mm512_fmadd_ps(a5v, b2, c5_2);
        const __m512 a6v = _mm512_set1_ps(*(a6 + p));
        c6_0 = _mm512_fmadd_ps(a6v, b0, c6_0);
        c6_1 = _mm512_fmadd_ps(a6v, b1, c6_1);
        c6_2 = _mm512_fmadd_ps(a6v, b2, c6_2);
        const __m512 a7v = _mm512_set1_ps(*(a7 + p));
        c7_0 = _mm512_fmadd_ps(a7v, b0, c7_0);
        c7_1 = _mm512_fmadd_ps(a7v, b1, c7_1);
        c7_2 = _mm512_fmadd_ps(a7v, b2, c7_2);
      }
      {
        const __m512 b0 = _mm512_loadu_ps(b + (p + 1)*ldb + 0);
        const __m512 b1 = _mm512_loadu_ps(b + (p + 1)*ldb + 16);
        const __m512 b2 = _mm512_maskz_loadu_ps(bm, b + (p + 1)*ldb + 32);
        __builtin_prefetch(b + (p + 1)*ldb + 48, 0, 3);
        __builtin_prefetch(b + (p + 1)*ldb + 64, 0, 3);
        __builtin_prefetch(b + (p + 1)*ldb + 80, 0, 3);
        const __m512 a0v = _mm512_set1_ps(*(a0 + (p + 1)));
        c0_0 = _mm512_fmadd_ps(a0v, b0, c0_0);
        c0_1 = _mm512_fmadd_ps(a0v, b1, c0_1);
        c0_2 = _mm512_fmadd_ps(a0v, b2, c0_2);
        const __m512 a1v = _mm512_set1_ps(*(a1 + (p + 1)));
        c1_0 = _mm512_fmadd_ps(a1v, b0, c1_0);
        c1_1 = _mm512_fmadd_ps(a1v, b1, c1_1);
        c1_2 = _mm512_fmadd_ps(a1v, b2, c1_2);
        const __m512 a2v = _mm512_set1_ps(*(a2 + (p + 1)));
        c2_0 = _mm512_fmadd_ps(a2v, b0, c2_0);
        c2_1 = _mm512_fmadd_ps(a2v, b1, c2_1);
        c2_2 = _mm512_fmadd_ps(a2v, b2, c2_2);
        const __m512 a3v = _mm512_set1_ps(*(a3 + (p + 1)));
        c3_0 = _mm512_fmadd_ps(a3v, b0, c3_0);
        c3_1 = _mm512_fmadd_ps(a3v, b1, c3_1);
        c3_2 = _mm512_fmadd_ps(a3v, b2, c3_2);
        const __m512 a4v = _mm512_set1_ps(*(a4 + (p + 1)));
        c4_0 = _mm512_fmadd_ps(a4v, b0, c4_0);
        c4_1 = _mm512_fmadd_ps(a4v, b1, c4_1);
        c4_2 = _mm512_fmadd_ps(a4v, b2, c4_2);
        const __m512 a5v = _mm512_set1_ps(*(a5 + (p + 1)));
        c5_0 = _mm512_fmadd_ps(a5v, b0, c5_0);
        c5_1 = _mm512_fmadd_ps(a5v, b1, c5_1);
        c5_2 = _mm512_fmadd_ps(a5v, b2, c5_2);
        const __m512 a6v = _mm512_set1_ps(*(a6 + (p + 1)));
        c6_0 = _mm512_fmadd_ps(a6v, b0, c6_0);
        c6_1 = _mm512_fmadd_ps(a6v, b1, c6_1);
        c6_2 = _mm512_fmadd_ps(a6v, b2, c6_2);
        const __m512 a7v = _mm512_set1_ps(*(a7 + (p + 1)));
        c7_0 = _mm512_fmadd_ps(a7v, b0, c7_0);
        c7_1 = _mm512_fmadd_ps(a7v, b1, c7_1);
        c7_2 = _mm512_fmadd_ps(a7v, b2, c7_2);
      }
      {
        const __m512 b0 = _mm512_loadu_ps(b + (p + 2)*ldb + 0);
        const __m512 b1 = _mm512_loadu_ps(b + (p + 2)*ldb + 16);
        const __m512 b2 = _mm512_maskz_loadu_ps(bm, b + (p + 2)*ldb + 32);
        __builtin_prefetch(b + (p + 2)*ldb + 48, 0, 3);
        __builtin_prefetch(b + (p + 2)*ldb + 64, 0, 3);
        __builtin_prefetch(b + (p + 2)*ldb + 80, 0, 3);
        const __m512 a0v = _mm512_set1_ps(*(a0 + (p + 2)));
        c0_0 = _mm512_fmadd_ps(a0v, b0, c0_0);
        c0_1 = _mm512_fmadd_ps(a0v, b1, c0_1);
        c0_2 = _mm512_fmadd_ps(a0v, b2, c0_2);
        const __m512 a1v = _mm512_set1_ps(*(a1 + (p + 2)));
        c1_0 = _mm512_fmadd_ps(a1v, b0, c1_0);
        c1_1 = _mm512_fmadd_ps(a1v, b1, c1_1);
        c1_2 = _mm512_fmadd_ps(a1v, b2, c1_2);
        const __m512 a2v = _mm512_set1_ps(*(a2 + (p + 2)));
        c2_0 = _mm512_fmadd_ps(a2v, b0, c2_0);
        c2_1 = _mm512_fmadd_ps(a2v, b1, c2_1);
        c2_2 = _mm512_fmadd_ps(a2v, b2, c2_2);
        const __m512 a3v = _mm512_set1_ps(*(a3 + (p + 2)));
        c3_0 = _mm512_fmadd_ps(a3v, b0, c3_0);
        c3_1 = _mm512_fmadd_ps(a3v, b1, c3_1);
        c3_2 = _mm512_fmadd_ps(a3v, b2, c3_2);
        const __m512 a4v = _mm512_set1_ps(*(a4 + (p + 2)));
        c4_0 = _mm512_fmadd_ps(a4v, b0, c4_0);
        c4_1 = _mm512_fmadd_ps(a4v, b1, c4_1);
        c4_2 = _mm512_fmadd_ps(a4v, b2, c4_2);
        const __m512 a5v = _mm512_set1_ps(*(a5 + (p + 2)));
        c5_0 = _mm512_fmadd_ps(a5v, b0, c5_0);
        c5_1 = _mm512_fmadd_ps(a5v, b1, c5_1);
        c5_2 = _mm512_fmadd_ps(a5v, b2, c5_2);
        const __m512 a6v = _mm512_set1_ps(*(a6 + (p + 2)));
        c6_0 = _mm512_fmadd_ps(a6v, b0, c6_0);
        c6_1 = _mm512_fmadd_ps(a6v, b1, c6_1);
        c6_2 = _mm512_fmadd_ps(a6v, b2, c6_2);
        const __m512 a7v = _mm512_set1_ps(*(a7 + (p + 2)));
        c7_0 = _mm512_fmadd_ps(a7v, b0, c7_0);
        c7_1 = _mm512_fmadd_ps(a7v, b1, c7_1);
        c7_2 = _mm512_fmadd_ps(a7v, b2, c7_2);
      }
      {
        const __m512 b0 = _mm512_loadu_ps(b + (p + 3)*ldb + 0);
        const __m512 b1 = _mm512_loadu_ps(b + (p + 3)*ldb + 16);
        const __m512 b2 = _mm512_maskz_loadu_ps(bm, b + (p + 3)*ldb + 32);
        __builtin_prefetch(b + (p + 3)*ldb + 48, 0, 3);
        __builtin_prefetch(b + (p + 3)*ldb + 64, 0, 3);
        __builtin_prefetch(b + (p + 3)*ldb + 80, 0, 3);
        const __m512 a0v = _mm512_set1_ps(*(a0 + (p + 3)));
        c0_0 = _mm512_fmadd_ps(a0v, b0, c0_0);
        c0_1 = _mm512_fmadd_ps(a0v, b1, c0_1);
        c0_2 = _mm512_fmadd_ps(a0v, b2, c0_2);
        const __m512 a1v = _mm512_set1_ps(*(a1 + (p + 3)));
        c1_0 = _mm512_fmadd_ps(a1v, b0, c1_0);
        c1_1 = _mm512_fmadd_ps(a1v, b1, c1_1);
        c1_2 = _mm512_fmadd_ps(a1v, b2, c1_2);
        const __m512 a2v = _mm512_set1_ps(*(a2 + (p + 3)));
        c2_0 = _mm512_fmadd_ps(a2v, b0, c2_0);
        c2_1 = _mm512_fmadd_ps(a2v, b1, c2_1);
        c2_2 = _mm512_fmadd_ps(a2v, b2, c2_2);
        const __m512 a3v = _mm512_set1_ps(*(a3 + (p + 3)));
        c3_0 = _mm512_fmadd_ps(a3v, b0, c3_0);
        c3_1 = _mm512_fmadd_ps(a3v, b1, c3_1);
        c3_2 = _mm512_fmadd_ps(a3v, b2, c3_2);
        const __m512 a4v = _mm512_set1_ps(*(a4 + (p + 3)));
        c4_0 = _mm512_fmadd_ps(a4v, b0, c4_0);
        c4_1 = _mm512_fmadd_ps(a4v, b1, c4_1);
        c4_2 = _mm512_fmadd_ps(a4v, b2, c4_2);
        const __m512 a5v = _mm512_set1_ps(*(a5 + (p + 3)));
        c5_0 = _mm512_fmadd_ps(a5v, b0, c5_0);
        c5_1 = _mm512_fmadd_ps(a5v, b1, c5_1);
        c5_2 = _mm512_fmadd_ps(a5v, b2, c5_2);
        const __m512 a6v = _mm512_set1_ps(*(a6 + (p + 3)));
        c6_0 = _mm512_fmadd_ps(a6v, b0, c6_0);
        c6_1 = _mm512_fmadd_ps(a6v, b1, c6_1);
        c6_2 = _mm512_fmadd_ps(a6v, b2, c6_2);
        const __m512 a7v = _mm512_set1_ps(*(a7 + (p + 3)));
        c7_0 = _mm512_fmadd_ps(a7v, b0, c7_0);
        c7_1 = _mm512_fmadd_ps(a7v, b1, c7_1);
        c7_2 = _mm512_fmadd_ps(a7v, b2, c7_2);
      }
    }
    for (; p < kb; p++) {
      const __m512 b0 = _mm512_loadu_ps(b + p*ldb + 0);
      const __m512 b1 = _mm512_loadu_ps(b + p*ldb + 16);
      const __m512 b2 = _mm512_maskz_loadu_ps(bm, b + p*ldb + 32);
      __builtin_prefetch(b + p*ldb + 48, 0, 3);
      __builtin_prefetch(b + p*ldb + 64, 0, 3);
      __builtin_prefetch(b + p*ldb + 80, 0, 3);
      const __m512 a0v = _mm512_set1_ps(*(a0 + p));
      c0_0 = _mm512_fmadd_ps(a0v, b0, c0_0);
      c0_1 = _mm512_fmadd_ps(a0v, b1, c0_1);
      c0_2 = _mm512_fmadd_ps(a0v, b2, c0_2);
      const __m512 a1v = _mm512_set1_ps(*(a1 + p));
      c1_0 = _mm512_fmadd_ps(a1v, b0, c1_0);
      c1_1 = _mm512_fmadd_ps(a1v, b1, c1_1);
      c1_2 = _mm512_fmadd_ps(a1v, b2, c1_2);
      const __m512 a2v = _mm512_set1_ps(*(a2 + p));
      c2_0 = _mm512_fmadd_ps(a2v, b0, c2_0);
      c2_1 = _mm512_fmadd_ps(a2v, b1, c2_1);
      c2_2 = _mm512_fmadd_ps(a2v, b2, c2_2);
      const __m512 a3v = _mm512_set1_ps(*(a3 + p));
      c3_0 = _mm512_fmadd_ps(a3v, b0, c3_0);
      c3_1 = _mm512_fmadd_ps(a3v, b1, c3_1);
      c3_2 = _mm512_fmadd_ps(a3v, b2, c3_2);
      const __m512 a4v = _mm512_set1_ps(*(a4 + p));
      c4_0 = _mm512_fmadd_ps(a4v, b0, c4_0);
      c4_1 = _mm512_fmadd_ps(a4v, b1, c4_1);
      c4_2 = _mm512_fmadd_ps(a4v, b2, c4_2);
      const __m512 a5v = _mm512_set1_ps(*(a5 + p));
      c5_0 = _mm512_fmadd_ps(a5v, b0, c5_0);
      c5_1 = _mm512_fmadd_ps(a5v, b1, c5_1);
      c5_2 = _mm512_fmadd_ps(a5v, b2, c5_2);
      const __m512 a6v = _mm512_set1_ps(*(a6 + p));
      c6_0 = _mm512_fmadd_ps(a6v, b0, c6_0);
      c6_1 = _mm512_fmadd_ps(a6v, b1, c6_1);
      c6_2 = _mm512_fmadd_ps(a6v, b2, c6_2);
      const __m512 a7v = _mm512_set1_ps(*(a7 + p));
      c7_0 = _mm512_fmadd_ps(a7v, b0, c7_0);
      c7_1 = _mm512_fmadd_ps(a7v, b1, c7_1);
      c7_2 = _mm512_fmadd_ps(a7v, b2, c7_2);
    }
  }
  if (rows == 8 && cols == 48) {
    if (!store) {
      c0_0 = _mm512_add_ps(_mm512_loadu_ps(c + 0*ldc + 0), c0_0);
      c0_1 = _mm512_add_ps(_mm512_loadu_ps(c + 0*ldc + 16), c0_1);
      c0_2 = _mm512_add_ps(_mm512_loadu_ps(c + 0*ldc + 32), c0_2);
      c1_0 = _mm512_add_ps(_mm512_loadu_ps(c + 1*ldc + 0), c1_0);
      c1_1 = _mm512_add_ps(_mm512_loadu_ps(c + 1*ldc + 16), c1_1);
      c1_2 = _mm512_add_ps(_mm512_loadu_ps(c + 1*ldc + 32), c1_2);
      c2_0 = _mm512_add_ps(_mm512_loadu_ps(c + 2*ldc + 0), c2_0);
      c2_1 = _mm512_add_ps(_mm512_loadu_ps(c + 2*ldc + 16), c2_1);
      c2_2 = _mm512_add_ps(_mm512_loadu_ps(c + 2*ldc + 32), c2_2);
      c3_0 = _mm512_add_ps(_mm512_loadu_ps(c + 3*ldc + 0), c3_0);
      c3_1 = _mm512_add_ps(_mm512_loadu_ps(c + 3*ldc + 16), c3_1);
      c3_2 = _mm512_add_ps(_mm512_loadu_ps(c + 3*ldc + 32), c3_2);
      c4_0 = _mm512_add_ps(_mm512_loadu_ps(c + 4*ldc + 0), c4_0);
      c4_1 = _mm512_add_ps(_mm512_loadu_ps(c + 4*ldc + 16), c4_1);
      c4_2 = _mm512_add_ps(_mm512_loadu_ps(c + 4*ldc + 32), c4_2);
      c5_0 = _mm512_add_ps(_mm512_loadu_ps(c + 5*ldc + 0), c5_0);
      c5_1 = _mm512_add_ps(_mm512_loadu_ps(c + 5*ldc + 16), c5_1);
      c5_2 = _mm512_add_ps(_mm512_loadu_ps(c + 5*ldc + 32), c5_2);
      c6_0 = _mm512_add_ps(_mm512_loadu_ps(c + 6*ldc + 0), c6_0);
      c6_1 = _mm512_add_ps(_mm512_loadu_ps(c + 6*ldc + 16), c6_1);
      c6_2 = _mm512_add_ps(_mm512_loadu_ps(c + 6*ldc + 32), c6_2);
      c7_0 = _mm512_add_ps(_mm512_loadu_ps(c + 7*ldc + 0), c7_0);
      c7_1 = _mm512_add_ps(_mm512_loadu_ps(c + 7*ldc + 16), c7_1);
      c7_2 = _mm512_add_ps(_mm512_loadu_ps(c + 7*ldc + 32), c7_2);
    }
    _mm512_storeu_ps(c + 0*ldc + 0, c0_0);
    _mm512_storeu_ps(c + 0*ldc + 16, c0_1);
    _mm512_storeu_ps(c + 0*ldc + 32, c0_2);
    _mm512_storeu_ps(c + 1*ldc + 0, c1_0);
    _mm512_storeu_ps(c + 1*ldc + 16, c1_1);
    _mm512_storeu_ps(c + 1*ldc + 32, c1_2);
    _mm512_storeu_ps(c + 2*ldc + 0, c2_0);
    _mm512_storeu_ps(c + 2*ldc + 16, c2_1);
    _mm512_storeu_ps(c + 2*ldc + 32, c2_2);
    _mm512_storeu_ps(c + 3*ldc + 0, c3_0);
    _mm512_storeu_ps(c + 3*ldc + 16, c3_1);
    _mm512_storeu_ps(c + 3*ldc + 32, c3_2);
    _mm512_storeu_ps(c + 4*ldc + 0, c4_0);
    _mm512_storeu_ps(c + 4*ldc + 16, c4_1);
    _mm512_storeu_ps(c + 4*ldc + 32, c4_2);
    _mm512_storeu_ps(c + 5*ldc + 0, c5_0);
    _mm512_storeu_ps(c + 5*ldc + 16, c5_1);
    _mm512_storeu_ps(c + 5*ldc + 32, c5_2);
    _mm512_storeu_ps(c + 6*ldc + 0, c6_0);
    _mm512_storeu_ps(c + 6*ldc + 16, c6_1);
    _mm512_storeu_ps(c + 6*ldc + 32, c6_2);
    _mm512_storeu_ps(c + 7*ldc + 0, c7_0);
    _mm512_storeu_ps(c + 7*ldc + 16, c7_1);
    _mm512_storeu_ps(c + 7*ldc + 32, c7_2);
    return;
  }
  const __mmask16 m0 = (__mmask16)((1u << (pk_edge_lanes(cols, 0, 16))) - 1u);
  const __mmask16 m1 = (__mmask16)((1u << (pk_edge_lanes(cols, 16, 16))) - 1u);
  const __mmask16 m2 = (__mmask16)((1u << (pk_edge_lanes(cols, 32, 16))) - 1u);
  _mm512_mask_storeu_ps(c + 0*ldc + 0, m0, store ? c0_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 0*ldc + 0), c0_0));
  _mm512_mask_storeu_ps(c + 0*ldc + 16, m1, store ? c0_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 0*ldc + 16), c0_1));
  _mm512_mask_storeu_ps(c + 0*ldc + 32, m2, store ? c0_2 : _mm512_add_ps(_mm512_maskz_loadu_ps(m2, c + 0*ldc + 32), c0_2));
  if (rows == 1) return;
  _mm512_mask_storeu_ps(c + 1*ldc + 0, m0, store ? c1_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 1*ldc + 0), c1_0));
  _mm512_mask_storeu_ps(c + 1*ldc + 16, m1, store ? c1_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 1*ldc + 16), c1_1));
  _mm512_mask_storeu_ps(c + 1*ldc + 32, m2, store ? c1_2 : _mm512_add_ps(_mm512_maskz_loadu_ps(m2, c + 1*ldc + 32), c1_2));
  if (rows == 2) return;
  _mm512_mask_storeu_ps(c + 2*ldc + 0, m0, store ? c2_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 2*ldc + 0), c2_0));
  _mm512_mask_storeu_ps(c + 2*ldc + 16, m1, store ? c2_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 2*ldc + 16), c2_1));
  _mm512_mask_storeu_ps(c + 2*ldc + 32, m2, store ? c2_2 : _mm512_add_ps(_mm512_maskz_loadu_ps(m2, c + 2*ldc + 32), c2_2));
  if (rows == 3) return;
  _mm512_mask_storeu_ps(c + 3*ldc + 0, m0, store ? c3_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 3*ldc + 0), c3_0));
  _mm512_mask_storeu_ps(c + 3*ldc + 16, m1, store ? c3_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 3*ldc + 16), c3_1));
  _mm512_mask_storeu_ps(c + 3*ldc + 32, m2, store ? c3_2 : _mm512_add_ps(_mm512_maskz_loadu_ps(m2, c + 3*ldc + 32), c3_2));
  if (rows == 4) return;
  _mm512_mask_storeu_ps(c + 4*ldc + 0, m0, store ? c4_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 4*ldc + 0), c4_0));
  _mm512_mask_storeu_ps(c + 4*ldc + 16, m1, store ? c4_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 4*ldc + 16), c4_1));
  _mm512_mask_storeu_ps(c + 4*ldc + 32, m2, store ? c4_2 : _mm512_add_ps(_mm512_maskz_loadu_ps(m2, c + 4*ldc + 32), c4_2));
  if (rows == 5) return;
  _mm512_mask_storeu_ps(c + 5*ldc + 0, m0, store ? c5_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 5*ldc + 0), c5_0));
  _mm512_mask_storeu_ps(c + 5*ldc + 16, m1, store ? c5_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 5*ldc + 16), c5_1));
  _mm512_mask_storeu_ps(c + 5*ldc + 32, m2, store ? c5_2 : _mm512_add_ps(_mm512_maskz_loadu_ps(m2, c + 5*ldc + 32), c5_2));
  if (rows == 6) return;
  _mm512_mask_storeu_ps(c + 6*ldc + 0, m0, store ? c6_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 6*ldc + 0), c6_0));
  _mm512_mask_storeu_ps(c + 6*ldc + 16, m1, store ? c6_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 6*ldc + 16), c6_1));
  _mm512_mask_storeu_ps(c + 6*ldc + 32, m2, store ? c6_2 : _mm512_add_ps(_mm512_maskz_loadu_ps(m2, c + 6*ldc + 32), c6_2));
  if (rows == 7) return;
  _mm512_mask_storeu_ps(c + 7*ldc + 0, m0, store ? c7_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 7*ldc + 0), c7_0));
  _mm512_mask_storeu_ps(c + 7*ldc + 16, m1, store ? c7_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 7*ldc + 16), c7_1));
  _mm512_mask_storeu_ps(c + 7*ldc + 32, m2, store ? c7_2 : _mm512_add_ps(_mm512_maskz_loadu_ps(m2, c + 7*ldc + 32), c7_2));
}

static inline void pk_ukr_gemm_f32_avx512_8x48_uu_8x2(int64_t kb, const float *restrict a, int64_t lda,
    const float *restrict b, int64_t ldb, float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store) {
  const float *restrict a0 = a + 0*lda;
  const float *restrict a1 = a + pk_min64(1, rows - 1)*lda;
  const float *restrict a2 = a + pk_min64(2, rows - 1)*lda;
  const float *restrict a3 = a + pk_min64(3, rows - 1)*lda;
  const float *restrict a4 = a + pk_min64(4, rows - 1)*lda;
  const float *restrict a5 = a + pk_min64(5, rows - 1)*lda;
  const float *restrict a6 = a + pk_min64(6, rows - 1)*lda;
  const float *restrict a7 = a + pk_min64(7, rows - 1)*lda;
  const __mmask16 bm = (__mmask16)((1u << (pk_edge_lanes(cols, 16, 16))) - 1u);
  __m512 c0_0 = _mm512_setzero_ps(), c0_1 = _mm512_setzero_ps();
  __m512 c1_0 = _mm512_setzero_ps(), c1_1 = _mm512_setzero_ps();
  __m512 c2_0 = _mm512_setzero_ps(), c2_1 = _mm512_setzero_ps();
  __m512 c3_0 = _mm512_setzero_ps(), c3_1 = _mm512_setzero_ps();
  __m512 c4_0 = _mm512_setzero_ps(), c4_1 = _mm512_setzero_ps();
  __m512 c5_0 = _mm512_setzero_ps(), c5_1 = _mm512_setzero_ps();
  __m512 c6_0 = _mm512_setzero_ps(), c6_1 = _mm512_setzero_ps();
  __m512 c7_0 = _mm512_setzero_ps(), c7_1 = _mm512_setzero_ps();
  const int64_t pk_gap = kb / 16;
  if (pk_gap < 4) {
    __builtin_prefetch(c + 0*ldc + 0, 1, 3), __builtin_prefetch(c + 0*ldc + 16, 1, 3), __builtin_prefetch(c + 0*ldc + 31, 1, 3);
    __builtin_prefetch(c + 1*ldc + 0, 1, 3), __builtin_prefetch(c + 1*ldc + 16, 1, 3), __builtin_prefetch(c + 1*ldc + 31, 1, 3);
    __builtin_prefetch(c + 2*ldc + 0, 1, 3), __builtin_prefetch(c + 2*ldc + 16, 1, 3), __builtin_prefetch(c + 2*ldc + 31, 1, 3);
    __builtin_prefetch(c + 3*ldc + 0, 1, 3), __builtin_prefetch(c + 3*ldc + 16, 1, 3), __builtin_prefetch(c + 3*ldc + 31, 1, 3);
    __builtin_prefetch(c + 4*ldc + 0, 1, 3), __builtin_prefetch(c + 4*ldc + 16, 1, 3), __builtin_prefetch(c + 4*ldc + 31, 1, 3);
    __builtin_prefetch(c + 5*ldc + 0, 1, 3), __builtin_prefetch(c + 5*ldc + 16, 1, 3), __builtin_prefetch(c + 5*ldc + 31, 1, 3);
    __builtin_prefetch(c + 6*ldc + 0, 1, 3), __builtin_prefetch(c + 6*ldc + 16, 1, 3), __builtin_prefetch(c + 6*ldc + 31, 1, 3);
    __builtin_prefetch(c + 7*ldc + 0, 1, 3), __builtin_prefetch(c + 7*ldc + 16, 1, 3), __builtin_prefetch(c + 7*ldc + 31, 1, 3);
#pragma GCC unroll 4
    for (int64_t p = 0; p < kb; p++) {
      const __m512 b0 = _mm512_loadu_ps(b + p*ldb + 0);
      const __m512 b1 = _mm512_maskz_loadu_ps(bm, b + p*ldb + 16);
      const __m512 a0v = _mm512_set1_ps(*(a0 + p));
      c0_0 = _mm512_fmadd_ps(a0v, b0, c0_0);
      c0_1 = _mm512_fmadd_ps(a0v, b1, c0_1);
      const __m512 a1v = _mm512_set1_ps(*(a1 + p));
      c1_0 = _mm512_fmadd_ps(a1v, b0, c1_0);
      c1_1 = _mm512_fmadd_ps(a1v, b1, c1_1);
      const __m512 a2v = _mm512_set1_ps(*(a2 + p));
      c2_0 = _mm512_fmadd_ps(a2v, b0, c2_0);
      c2_1 = _mm512_fmadd_ps(a2v, b1, c2_1);
      const __m512 a3v = _mm512_set1_ps(*(a3 + p));
      c3_0 = _mm512_fmadd_ps(a3v, b0, c3_0);
      c3_1 = _mm512_fmadd_ps(a3v, b1, c3_1);
      const __m512 a4v = _mm512_set1_ps(*(a4 + p));
      c4_0 = _mm512_fmadd_ps(a4v, b0, c4_0);
      c4_1 = _mm512_fmadd_ps(a4v, b1, c4_1);
      const __m512 a5v = _mm512_set1_ps(*(a5 + p));
      c5_0 = _mm512_fmadd_ps(a5v, b0, c5_0);
      c5_1 = _mm512_fmadd_ps(a5v, b1, c5_1);
      const __m512 a6v = _mm512_set1_ps(*(a6 + p));
      c6_0 = _mm512_fmadd_ps(a6v, b0, c6_0);
      c6_1 = _mm512_fmadd_ps(a6v, b1, c6_1);
      const __m512 a7v = _mm512_set1_ps(*(a7 + p));
      c7_0 = _mm512_fmadd_ps(a7v, b0, c7_0);
      c7_1 = _mm512_fmadd_ps(a7v, b1, c7_1);
    }
  } else {
    const float *pk_row = c, *const pk_last = c + (rows - 1)*ldc;
    int64_t pk_next = pk_gap, p = 0;
    for (; p + 4 <= kb; p += 4) {
      __builtin_prefetch(pk_row + 0, 1, 3), __builtin_prefetch(pk_row + 16, 1, 3), __builtin_prefetch(pk_row + 31, 1, 3);
      const int pk_on = p + 4 > pk_next && pk_row < pk_last;
      pk_row = pk_on ? pk_row + ldc : pk_row;
      pk_next = pk_on ? pk_next + pk_gap : pk_next;
      {
        const __m512 b0 = _mm512_loadu_ps(b + p*ldb + 0);
        const __m512 b1 = _mm512_maskz_loadu_ps(bm, b + p*ldb + 16);
        const __m512 a0v = _mm512_set1_ps(*(a0 + p));
        c0_0 = _mm512_fmadd_ps(a0v, b0, c0_0);
        c0_1 = _mm512_fmadd_ps(a0v, b1, c0_1);
        const __m512 a1v = _mm512_set1_ps(*(a1 + p));
        c1_0 = _mm512_fmadd_ps(a1v, b0, c1_0);
        c1_1 = _mm512_fmadd_ps(a1v, b1, c1_1);
        const __m512 a2v = _mm512_set1_ps(*(a2 + p));
        c2_0 = _mm512_fmadd_ps(a2v, b0, c2_0);
        c2_1 = _mm512_fmadd_ps(a2v, b1, c2_1);
        const __m512 a3v = _mm512_set1_ps(*(a3 + p));
        c3_0 = _mm512_fmadd_ps(a3v, b0, c3_0);
        c3_1 = _mm512_fmadd_ps(a3v, b1, c3_1);
        const __m512 a4v = _mm512_set1_ps(*(a4 + p));
        c4_0 = _mm512_fmadd_ps(a4v, b0, c4_0);
        c4_1 = _mm512_fmadd_ps(a4v, b1, c4_1);
        const __m512 a5v = _mm512_set1_ps(*(a5 + p));
        c5_0 = _mm512_fmadd_ps(a5v, b0, c5_0);
        c5_1 = _mm512_fmadd_ps(a5v, b1, c5_1);
        const __m512 a6v = _mm512_set1_ps(*(a6 + p));
        c6_0 = _mm512_fmadd_ps(a6v, b0, c6_0);
        c6_1 = _mm512_fmadd_ps(a6v, b1, c6_1);
        const __m512 a7v = _mm512_set1_ps(*(a7 + p));
        c7_0 = _mm512_fmadd_ps(a7v, b0, c7_0);
        c7_1 = _mm512_fmadd_ps(a7v, b1, c7_1);
      }
      {
        const __m512 b0 = _mm512_loadu_ps(b + (p + 1)*ldb + 0);
        const __m512 b1 = _mm512_maskz_loadu_ps(bm, b + (p + 1)*ldb + 16);
        const __m512 a0v = _mm512_set1_ps(*(a0 + (p + 1)));
        c0_0 = _mm512_fmadd_ps(a0v, b0, c0_0);
        c0_1 = _mm512_fmadd_ps(a0v, b1, c0_1);
        const __m512 a1v = _mm512_set1_ps(*(a1 + (p + 1)));
        c1_0 = _mm512_fmadd_ps(a1v, b0, c1_0);
        c1_1 = _mm512_fmadd_ps(a1v, b1, c1_1);
        const __m512 a2v = _mm512_set1_ps(*(a2 + (p + 1)));
        c2_0 = _mm512_fmadd_ps(a2v, b0, c2_0);
        c2_1 = _mm512_fmadd_ps(a2v, b1, c2_1);
        const __m512 a3v = _mm512_set1_ps(*(a3 + (p + 1)));
        c3_0 = _mm512_fmadd_ps(a3v, b0, c3_0);
        c3_1 = _mm512_fmadd_ps(a3v, b1, c3_1);
        const __m512 a4v = _mm512_set1_ps(*(a4 + (p + 1)));
        c4_0 = _mm512_fmadd_ps(a4v, b0, c4_0);
        c4_1 = _mm512_fmadd_ps(a4v, b1, c4_1);
        const __m512 a5v = _mm512_set1_ps(*(a5 + (p + 1)));
        c5_0 = _mm512_fmadd_ps(a5v, b0, c5_0);
        c5_1 = _mm512_fmadd_ps(a5v, b1, c5_1);
        const __m512 a6v = _mm512_set1_ps(*(a6 + (p + 1)));
        c6_0 = _mm512_fmadd_ps(a6v, b0, c6_0);
        c6_1 = _mm512_fmadd_ps(a6v, b1, c6_1);
        const __m512 a7v = _mm512_set1_ps(*(a7 + (p + 1)));
        c7_0 = _mm512_fmadd_ps(a7v, b0, c7_0);
        c7_1 = _mm512_fmadd_ps(a7v, b1, c7_1);
      }
      {
        const __m512 b0 = _mm512_loadu_ps(b + (p + 2)*ldb + 0);
        const __m512 b1 = _mm512_maskz_loadu_ps(bm, b + (p + 2)*ldb + 16);
        const __m512 a0v = _mm512_set1_ps(*(a0 + (p + 2)));
        c0_0 = _mm512_fmadd_ps(a0v, b0, c0_0);
        c0_1 = _mm512_fmadd_ps(a0v, b1, c0_1);
        const __m512 a1v = _mm512_set1_ps(*(a1 + (p + 2)));
        c1_0 = _mm512_fmadd_ps(a1v, b0, c1_0);
        c1_1 = _mm512_fmadd_ps(a1v, b1, c1_1);
        const __m512 a2v = _mm512_set1_ps(*(a2 + (p + 2)));
        c2_0 = _mm512_fmadd_ps(a2v, b0, c2_0);
        c2_1 = _mm512_fmadd_ps(a2v, b1, c2_1);
        const __m512 a3v = _mm512_set1_ps(*(a3 + (p + 2)));
        c3_0 = _mm512_fmadd_ps(a3v, b0, c3_0);
        c3_1 = _mm512_fmadd_ps(a3v, b1, c3_1);
        const __m512 a4v = _mm512_set1_ps(*(a4 + (p + 2)));
        c4_0 = _mm512_fmadd_ps(a4v, b0, c4_0);
        c4_1 = _mm512_fmadd_ps(a4v, b1, c4_1);
        const __m512 a5v = _mm512_set1_ps(*(a5 + (p + 2)));
        c5_0 = _mm512_fmadd_ps(a5v, b0, c5_0);
        c5_1 = _mm512_fmadd_ps(a5v, b1, c5_1);
        const __m512 a6v = _mm512_set1_ps(*(a6 + (p + 2)));
        c6_0 = _mm512_fmadd_ps(a6v, b0, c6_0);
        c6_1 = _mm512_fmadd_ps(a6v, b1, c6_1);
        const __m512 a7v = _mm512_set1_ps(*(a7 + (p + 2)));
        c7_0 = _mm512_fmadd_ps(a7v, b0, c7_0);
        c7_1 = _mm512_fmadd_ps(a7v, b1, c7_1);
      }
      {
        const __m512 b0 = _mm512_loadu_ps(b + (p + 3)*ldb + 0);
        const __m512 b1 = _mm512_maskz_loadu_ps(bm, b + (p + 3)*ldb + 16);
        const __m512 a0v = _mm512_set1_ps(*(a0 + (p + 3)));
        c0_0 = _mm512_fmadd_ps(a0v, b0, c0_0);
        c0_1 = _mm512_fmadd_ps(a0v, b1, c0_1);
        const __m512 a1v = _mm512_set1_ps(*(a1 + (p + 3)));
        c1_0 = _mm512_fmadd_ps(a1v, b0, c1_0);
        c1_1 = _mm512_fmadd_ps(a1v, b1, c1_1);
        const __m512 a2v = _mm512_set1_ps(*(a2 + (p + 3)));
        c2_0 = _mm512_fmadd_ps(a2v, b0, c2_0);
        c2_1 = _mm512_fmadd_ps(a2v, b1, c2_1);
        const __m512 a3v = _mm512_set1_ps(*(a3 + (p + 3)));
        c3_0 = _mm512_fmadd_ps(a3v, b0, c3_0);
        c3_1 = _mm512_fmadd_ps(a3v, b1, c3_1);
        const __m512 a4v = _mm512_set1_ps(*(a4 + (p + 3)));
        c4_0 = _mm512_fmadd_ps(a4v, b0, c4_0);
        c4_1 = _mm512_fmadd_ps(a4v, b1, c4_1);
        const __m512 a5v = _mm512_set1_ps(*(a5 + (p + 3)));
        c5_0 = _mm512_fmadd_ps(a5v, b0, c5_0);
        c5_1 = _mm512_fmadd_ps(a5v, b1, c5_1);
        const __m512 a6v = _mm512_set1_ps(*(a6 + (p + 3)));
        c6_0 = _mm512_fmadd_ps(a6v, b0, c6_0);
        c6_1 = _mm512_fmadd_ps(a6v, b1, c6_1);
        const __m512 a7v = _mm512_set1_ps(*(a7 + (p + 3)));
        c7_0 = _mm512_fmadd_ps(a7v, b0, c7_0);
        c7_1 = _mm512_fmadd_ps(a7v, b1, c7_1);
      }
    }
    for (; p < kb; p++) {
      const __m512 b0 = _mm512_loadu_ps(b + p*ldb + 0);
      const __m512 b1 = _mm512_maskz_loadu_ps(bm, b + p*ldb + 16);
      const __m512 a0v = _mm512_set1_ps(*(a0 + p));
      c0_0 = _mm512_fmadd_ps(a0v, b0, c0_0);
      c0_1 = _mm512_fmadd_ps(a0v, b1, c0_1);
      const __m512 a1v = _mm512_set1_ps(*(a1 + p));
      c1_0 = _mm512_fmadd_ps(a1v, b0, c1_0);
      c1_1 = _mm512_fmadd_ps(a1v, b1, c1_1);
      const __m512 a2v = _mm512_set1_ps(*(a2 + p));
      c2_0 = _mm512_fmadd_ps(a2v, b0, c2_0);
      c2_1 = _mm512_fmadd_ps(a2v, b1, c2_1);
      const __m512 a3v = _mm512_set1_ps(*(a3 + p));
      c3_0 = _mm512_fmadd_ps(a3v, b0, c3_0);
      c3_1 = _mm512_fmadd_ps(a3v, b1, c3_1);
      const __m512 a4v = _mm512_set1_ps(*(a4 + p));
      c4_0 = _mm512_fmadd_ps(a4v, b0, c4_0);
      c4_1 = _mm512_fmadd_ps(a4v, b1, c4_1);
      const __m512 a5v = _mm512_set1_ps(*(a5 + p));
      c5_0 = _mm512_fmadd_ps(a5v, b0, c5_0);
      c5_1 = _mm512_fmadd_ps(a5v, b1, c5_1);
      const __m512 a6v = _mm512_set1_ps(*(a6 + p));
      c6_0 = _mm512_fmadd_ps(a6v, b0, c6_0);
      c6_1 = _mm512_fmadd_ps(a6v, b1, c6_1);
      const __m512 a7v = _mm512_set1_ps(*(a7 + p));
      c7_0 = _mm512_fmadd_ps(a7v, b0, c7_0);
      c7_1 = _mm512_fmadd_ps(a7v, b1, c7_1);
    }
  }
  if (rows == 8 && cols == 32) {
    if (!store) {
      c0_0 = _mm512_add_ps(_mm512_loadu_ps(c + 0*ldc + 0), c0_0);
      c0_1 = _mm512_add_ps(_mm512_loadu_ps(c + 0*ldc + 16), c0_1);
      c1_0 = _mm512_add_ps(_mm512_loadu_ps(c + 1*ldc + 0), c1_0);
      c1_1 = _mm512_add_ps(_mm512_loadu_ps(c + 1*ldc + 16), c1_1);
      c2_0 = _mm512_add_ps(_mm512_loadu_ps(c + 2*ldc + 0), c2_0);
      c2_1 = _mm512_add_ps(_mm512_loadu_ps(c + 2*ldc + 16), c2_1);
      c3_0 = _mm512_add_ps(_mm512_loadu_ps(c + 3*ldc + 0), c3_0);
      c3_1 = _mm512_add_ps(_mm512_loadu_ps(c + 3*ldc + 16), c3_1);
      c4_0 = _mm512_add_ps(_mm512_loadu_ps(c + 4*ldc + 0), c4_0);
      c4_1 = _mm512_add_ps(_mm512_loadu_ps(c + 4*ldc + 16), c4_1);
      c5_0 = _mm512_add_ps(_mm512_loadu_ps(c + 5*ldc + 0), c5_0);
      c5_1 = _mm512_add_ps(_mm512_loadu_ps(c + 5*ldc + 16), c5_1);
      c6_0 = _mm512_add_ps(_mm512_loadu_ps(c + 6*ldc + 0), c6_0);
      c6_1 = _mm512_add_ps(_mm512_loadu_ps(c + 6*ldc + 16), c6_1);
      c7_0 = _mm512_add_ps(_mm512_loadu_ps(c + 7*ldc + 0), c7_0);
      c7_1 = _mm512_add_ps(_mm512_loadu_ps(c + 7*ldc + 16), c7_1);
    }
    _mm512_storeu_ps(c + 0*ldc + 0, c0_0);
    _mm512_storeu_ps(c + 0*ldc + 16, c0_1);
    _mm512_storeu_ps(c + 1*ldc + 0, c1_0);
    _mm512_storeu_ps(c + 1*ldc + 16, c1_1);
    _mm512_storeu_ps(c + 2*ldc + 0, c2_0);
    _mm512_storeu_ps(c + 2*ldc + 16, c2_1);
    _mm512_storeu_ps(c + 3*ldc + 0, c3_0);
    _mm512_storeu_ps(c + 3*ldc + 16, c3_1);
    _mm512_storeu_ps(c + 4*ldc + 0, c4_0);
    _mm512_storeu_ps(c + 4*ldc + 16, c4_1);
    _mm512_storeu_ps(c + 5*ldc + 0, c5_0);
    _mm512_storeu_ps(c + 5*ldc + 16, c5_1);
    _mm512_storeu_ps(c + 6*ldc + 0, c6_0);
    _mm512_storeu_ps(c + 6*ldc + 16, c6_1);
    _mm512_storeu_ps(c + 7*ldc + 0, c7_0);
    _mm512_storeu_ps(c + 7*ldc + 16, c7_1);
    return;
  }
  const __mmask16 m0 = (__mmask16)((1u << (pk_edge_lanes(cols, 0, 16))) - 1u);
  const __mmask16 m1 = (__mmask16)((1u << (pk_edge_lanes(cols, 16, 16))) - 1u);
  _mm512_mask_storeu_ps(c + 0*ldc + 0, m0, store ? c0_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 0*ldc + 0), c0_0));
  _mm512_mask_storeu_ps(c + 0*ldc + 16, m1, store ? c0_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 0*ldc + 16), c0_1));
  if (rows == 1) return;
  _mm512_mask_storeu_ps(c + 1*ldc + 0, m0, store ? c1_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 1*ldc + 0), c1_0));
  _mm512_mask_storeu_ps(c + 1*ldc + 16, m1, store ? c1_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 1*ldc + 16), c1_1));
  if (rows == 2) return;
  _mm512_mask_storeu_ps(c + 2*ldc + 0, m0, store ? c2_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 2*ldc + 0), c2_0));
  _mm512_mask_storeu_ps(c + 2*ldc + 16, m1, store ? c2_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 2*ldc + 16), c2_1));
  if (rows == 3) return;
  _mm512_mask_storeu_ps(c + 3*ldc + 0, m0, store ? c3_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 3*ldc + 0), c3_0));
  _mm512_mask_storeu_ps(c + 3*ldc + 16, m1, store ? c3_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 3*ldc + 16), c3_1));
  if (rows == 4) return;
  _mm512_mask_storeu_ps(c + 4*ldc + 0, m0, store ? c4_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 4*ldc + 0), c4_0));
  _mm512_mask_storeu_ps(c + 4*ldc + 16, m1, store ? c4_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 4*ldc + 16), c4_1));
  if (rows == 5) return;
  _mm512_mask_storeu_ps(c + 5*ldc + 0, m0, store ? c5_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 5*ldc + 0), c5_0));
  _mm512_mask_storeu_ps(c + 5*ldc + 16, m1, store ? c5_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 5*ldc + 16), c5_1));
  if (rows == 6) return;
  _mm512_mask_storeu_ps(c + 6*ldc + 0, m0, store ? c6_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 6*ldc + 0), c6_0));
  _mm512_mask_storeu_ps(c + 6*ldc + 16, m1, store ? c6_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 6*ldc + 16), c6_1));
  if (rows == 7) return;
  _mm512_mask_storeu_ps(c + 7*ldc + 0, m0, store ? c7_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 7*ldc + 0), c7_0));
  _mm512_mask_storeu_ps(c + 7*ldc + 16, m1, store ? c7_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 7*ldc + 16), c7_1));
}

static inline void pk_ukr_gemm_f32_avx512_8x48_uu_8x1(int64_t kb, const float *restrict a, int64_t lda,
    const float *restrict b, int64_t ldb, float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store) {
  const float *restrict a0 = a + 0*lda;
  const float *restrict a1 = a + pk_min64(1, rows - 1)*lda;
  const float *restrict a2 = a + pk_min64(2, rows - 1)*lda;
  const float *restrict a3 = a + pk_min64(3, rows - 1)*lda;
  const float *restrict a4 = a + pk_min64(4, rows - 1)*lda;
  const float *restrict a5 = a + pk_min64(5, rows - 1)*lda;
  const float *restrict a6 = a + pk_min64(6, rows - 1)*lda;
  const float *restrict a7 = a + pk_min64(7, rows - 1)*lda;
  const __mmask16 bm = (__mmask16)((1u << (pk_edge_lanes(cols, 0, 16))) - 1u);
  __m512 c0_0 = _mm512_setzero_ps();
  __m512 c1_0 = _mm512_setzero_ps();
  __m512 c2_0 = _mm512_setzero_ps();
  __m512 c3_0 = _mm512_setzero_ps();
  __m512 c4_0 = _mm512_setzero_ps();
  __m512 c5_0 = _mm512_setzero_ps();
  __m512 c6_0 = _mm512_setzero_ps();
  __m512 c7_0 = _mm512_setzero_ps();
  __builtin_prefetch(c + 0*ldc + 0, 1, 3), __builtin_prefetch(c + 0*ldc + 15, 1, 3);
  __builtin_prefetch(c + 1*ldc + 0, 1, 3), __builtin_prefetch(c + 1*ldc + 15, 1, 3);
  __builtin_prefetch(c + 2*ldc + 0, 1, 3), __builtin_prefetch(c + 2*ldc + 15, 1, 3);
  __builtin_prefetch(c + 3*ldc + 0, 1, 3), __builtin_prefetch(c + 3*ldc + 15, 1, 3);
  __builtin_prefetch(c + 4*ldc + 0, 1, 3), __builtin_prefetch(c + 4*ldc + 15, 1, 3);
  __builtin_prefetch(c + 5*ldc + 0, 1, 3), __builtin_prefetch(c + 5*ldc + 15, 1, 3);
  __builtin_prefetch(c + 6*ldc + 0, 1, 3), __builtin_prefetch(c + 6*ldc + 15, 1, 3);
  __builtin_prefetch(c + 7*ldc + 0, 1, 3), __builtin_prefetch(c + 7*ldc + 15, 1, 3);
#pragma GCC unroll 4
  for (int64_t p = 0; p < kb; p++) {
    const __m512 b0 = _mm512_maskz_loadu_ps(bm, b + p*ldb + 0);
    const __m512 a0v = _mm512_set1_ps(*(a0 + p));
    c0_0 = _mm512_fmadd_ps(a0v, b0, c0_0);
    const __m512 a1v = _mm512_set1_ps(*(a1 + p));
    c1_0 = _mm512_fmadd_ps(a1v, b0, c1_0);
    const __m512 a2v = _mm512_set1_ps(*(a2 + p));
    c2_0 = _mm512_fmadd_ps(a2v, b0, c2_0);
    const __m512 a3v = _mm512_set1_ps(*(a3 + p));
    c3_0 = _mm512_fmadd_ps(a3v, b0, c3_0);
    const __m512 a4v = _mm512_set1_ps(*(a4 + p));
    c4_0 = _mm512_fmadd_ps(a4v, b0, c4_0);
    const __m512 a5v = _mm512_set1_ps(*(a5 + p));
    c5_0 = _mm512_fmadd_ps(a5v, b0, c5_0);
    const __m512 a6v = _mm512_set1_ps(*(a6 + p));
    c6_0 = _mm512_fmadd_ps(a6v, b0, c6_0);
    const __m512 a7v = _mm512_set1_ps(*(a7 + p));
    c7_0 = _mm512_fmadd_ps(a7v, b0, c7_0);
  }
  if (rows == 8 && cols == 16) {
    if (!store) {
      c0_0 = _mm512_add_ps(_mm512_loadu_ps(c + 0*ldc + 0), c0_0);
      c1_0 = _mm512_add_ps(_mm512_loadu_ps(c + 1*ldc + 0), c1_0);
      c2_0 = _mm512_add_ps(_mm512_loadu_ps(c + 2*ldc + 0), c2_0);
      c3_0 = _mm512_add_ps(_mm512_loadu_ps(c + 3*ldc + 0), c3_0);
      c4_0 = _mm512_add_ps(_mm512_loadu_ps(c + 4*ldc + 0), c4_0);
      c5_0 = _mm512_add_ps(_mm512_loadu_ps(c + 5*ldc + 0), c5_0);
      c6_0 = _mm512_add_ps(_mm512_loadu_ps(c + 6*ldc + 0), c6_0);
      c7_0 = _mm512_add_ps(_mm512_loadu_ps(c + 7*ldc + 0), c7_0);
    }
    _mm512_storeu_ps(c + 0*ldc + 0, c0_0);
    _mm512_storeu_ps(c + 1*ldc + 0, c1_0);
    _mm512_storeu_ps(c + 2*ldc + 0, c2_0);
    _mm512_storeu_ps(c + 3*ldc + 0, c3_0);
    _mm512_storeu_ps(c + 4*ldc + 0, c4_0);
    _mm512_storeu_ps(c + 5*ldc + 0, c5_0);
    _mm512_storeu_ps(c + 6*ldc + 0, c6_0);
    _mm512_storeu_ps(c + 7*ldc + 0, c7_0);
    return;
  }
  const __mmask16 m0 = (__mmask16)((1u << (pk_edge_lanes(cols, 0, 16))) - 1u);
  _mm512_mask_storeu_ps(c + 0*ldc + 0, m0, store ? c0_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 0*ldc + 0), c0_0));
  if (rows == 1) return;
  _mm512_mask_storeu_ps(c + 1*ldc + 0, m0, store ? c1_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 1*ldc + 0), c1_0));
  if (rows == 2) return;
  _mm512_mask_storeu_ps(c + 2*ldc + 0, m0, store ? c2_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 2*ldc + 0), c2_0));
  if (rows == 3) return;
  _mm512_mask_storeu_ps(c + 3*ldc + 0, m0, store ? c3_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 3*ldc + 0), c3_0));
  if (rows == 4) return;
  _mm512_mask_storeu_ps(c + 4*ldc + 0, m0, store ? c4_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 4*ldc + 0), c4_0));
  if (rows == 5) return;
  _mm512_mask_storeu_ps(c + 5*ldc + 0, m0, store ? c5_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 5*ldc + 0), c5_0));
  if (rows == 6) return;
  _mm512_mask_storeu_ps(c + 6*ldc + 0, m0, store ? c6_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 6*ldc + 0), c6_0));
  if (rows == 7) return;
  _mm512_mask_storeu_ps(c + 7*ldc + 0, m0, store ? c7_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 7*ldc + 0), c7_0));
}

static inline void pk_ukr_gemm_f32_avx512_8x48_uu_4x3(int64_t kb, const float *restrict a, int64_t lda,
    const float *restrict b, int64_t ldb, float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store) {
  const float *restrict a0 = a + 0*lda;
  const float *restrict a1 = a + pk_min64(1, rows - 1)*lda;
  const float *restrict a2 = a + pk_min64(2, rows - 1)*lda;
  const float *restrict a3 = a + pk_min64(3, rows - 1)*lda;
  const __mmask16 bm = (__mmask16)((1u << (pk_edge_lanes(cols, 32, 16))) - 1u);
  __m512 c0_0 = _mm512_setzero_ps(), c0_1 = _mm512_setzero_ps(), c0_2 = _mm512_setzero_ps();
  __m512 c1_0 = _mm512_setzero_ps(), c1_1 = _mm512_setzero_ps(), c1_2 = _mm512_setzero_ps();
  __m512 c2_0 = _mm512_setzero_ps(), c2_1 = _mm512_setzero_ps(), c2_2 = _mm512_setzero_ps();
  __m512 c3_0 = _mm512_setzero_ps(), c3_1 = _mm512_setzero_ps(), c3_2 = _mm512_setzero_ps();
  __builtin_prefetch(c + 0*ldc + 0, 1, 3), __builtin_prefetch(c + 0*ldc + 16, 1, 3), __builtin_prefetch(c + 0*ldc + 32, 1, 3), __builtin_prefetch(c + 0*ldc + 47, 1, 3);
  __builtin_prefetch(c + 1*ldc + 0, 1, 3), __builtin_prefetch(c + 1*ldc + 16, 1, 3), __builtin_prefetch(c + 1*ldc + 32, 1, 3), __builtin_prefetch(c + 1*ldc + 47, 1, 3);
  __builtin_prefetch(c + 2*ldc + 0, 1, 3), __builtin_prefetch(c + 2*ldc + 16, 1, 3), __builtin_prefetch(c + 2*ldc + 32, 1, 3), __builtin_prefetch(c + 2*ldc + 47, 1, 3);
  __builtin_prefetch(c + 3*ldc + 0, 1, 3), __builtin_prefetch(c + 3*ldc + 16, 1, 3), __builtin_prefetch(c + 3*ldc + 32, 1, 3), __builtin_prefetch(c + 3*ldc + 47, 1, 3);
#pragma GCC unroll 4
  for (int64_t p = 0; p < kb; p++) {
    const __m512 b0 = _mm512_loadu_ps(b + p*ldb + 0);
    const __m512 b1 = _mm512_loadu_ps(b + p*ldb + 16);
    const __m512 b2 = _mm512_maskz_loadu_ps(bm, b + p*ldb + 32);
    __builtin_prefetch(b + p*ldb + 48, 0, 3);
    __builtin_prefetch(b + p*ldb + 64, 0, 3);
    __builtin_prefetch(b + p*ldb + 80, 0, 3);
    const __m512 a0v = _mm512_set1_ps(*(a0 + p));
    c0_0 = _mm512_fmadd_ps(a0v, b0, c0_0);
    c0_1 = _mm512_fmadd_ps(a0v, b1, c0_1);
    c0_2 = _mm512_fmadd_ps(a0v, b2, c0_2);
    const __m512 a1v = _mm512_set1_ps(*(a1 + p));
    c1_0 = _mm512_fmadd_ps(a1v, b0, c1_0);
    c1_1 = _mm512_fmadd_ps(a1v, b1, c1_1);
    c1_2 = _mm512_fmadd_ps(a1v, b2, c1_2);
    const __m512 a2v = _mm512_set1_ps(*(a2 + p));
    c2_0 = _mm512_fmadd_ps(a2v, b0, c2_0);
    c2_1 = _mm512_fmadd_ps(a2v, b1, c2_1);
    c2_2 = _mm512_fmadd_ps(a2v, b2, c2_2);
    const __m512 a3v = _mm512_set1_ps(*(a3 + p));
    c3_0 = _mm512_fmadd_ps(a3v, b0, c3_0);
    c3_1 = _mm512_fmadd_ps(a3v, b1, c3_1);
    c3_2 = _mm512_fmadd_ps(a3v, b2, c3_2);
  }
  if (rows == 4 && cols == 48) {
    if (!store) {
      c0_0 = _mm512_add_ps(_mm512_loadu_ps(c + 0*ldc + 0), c0_0);
      c0_1 = _mm512_add_ps(_mm512_loadu_ps(c + 0*ldc + 16), c0_1);
      c0_2 = _mm512_add_ps(_mm512_loadu_ps(c + 0*ldc + 32), c0_2);
      c1_0 = _mm512_add_ps(_mm512_loadu_ps(c + 1*ldc + 0), c1_0);
      c1_1 = _mm512_add_ps(_mm512_loadu_ps(c + 1*ldc + 16), c1_1);
      c1_2 = _mm512_add_ps(_mm512_loadu_ps(c + 1*ldc + 32), c1_2);
      c2_0 = _mm512_add_ps(_mm512_loadu_ps(c + 2*ldc + 0), c2_0);
      c2_1 = _mm512_add_ps(_mm512_loadu_ps(c + 2*ldc + 16), c2_1);
      c2_2 = _mm512_add_ps(_mm512_loadu_ps(c + 2*ldc + 32), c2_2);
      c3_0 = _mm512_add_ps(_mm512_loadu_ps(c + 3*ldc + 0), c3_0);
      c3_1 = _mm512_add_ps(_mm512_loadu_ps(c + 3*ldc + 16), c3_1);
      c3_2 = _mm512_add_ps(_mm512_loadu_ps(c + 3*ldc + 32), c3_2);
    }
    _mm512_storeu_ps(c + 0*ldc + 0, c0_0);
    _mm512_storeu_ps(c + 0*ldc + 16, c0_1);
    _mm512_storeu_ps(c + 0*ldc + 32, c0_2);
    _mm512_storeu_ps(c + 1*ldc + 0, c1_0);
    _mm512_storeu_ps(c + 1*ldc + 16, c1_1);
    _mm512_storeu_ps(c + 1*ldc + 32, c1_2);
    _mm512_storeu_ps(c + 2*ldc + 0, c2_0);
    _mm512_storeu_ps(c + 2*ldc + 16, c2_1);
    _mm512_storeu_ps(c + 2*ldc + 32, c2_2);
    _mm512_storeu_ps(c + 3*ldc + 0, c3_0);
    _mm512_storeu_ps(c + 3*ldc + 16, c3_1);
    _mm512_storeu_ps(c + 3*ldc + 32, c3_2);
    return;
  }
  const __mmask16 m0 = (__mmask16)((1u << (pk_edge_lanes(cols, 0, 16))) - 1u);
  const __mmask16 m1 = (__mmask16)((1u << (pk_edge_lanes(cols, 16, 16))) - 1u);
  const __mmask16 m2 = (__mmask16)((1u << (pk_edge_lanes(cols, 32, 16))) - 1u);
  _mm512_mask_storeu_ps(c + 0*ldc + 0, m0, store ? c0_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 0*ldc + 0), c0_0));
  _mm512_mask_storeu_ps(c + 0*ldc + 16, m1, store ? c0_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 0*ldc + 16), c0_1));
  _mm512_mask_storeu_ps(c + 0*ldc + 32, m2, store ? c0_2 : _mm512_add_ps(_mm512_maskz_loadu_ps(m2, c + 0*ldc + 32), c0_2));
  if (rows == 1) return;
  _mm512_mask_storeu_ps(c + 1*ldc + 0, m0, store ? c1_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 1*ldc + 0), c1_0));
  _mm512_mask_storeu_ps(c + 1*ldc + 16, m1, store ? c1_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 1*ldc + 16), c1_1));
  _mm512_mask_storeu_ps(c + 1*ldc + 32, m2, store ? c1_2 : _mm512_add_ps(_mm512_maskz_loadu_ps(m2, c + 1*ldc + 32), c1_2));
  if (rows == 2) return;
  _mm512_mask_storeu_ps(c + 2*ldc + 0, m0, store ? c2_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 2*ldc + 0), c2_0));
  _mm512_mask_storeu_ps(c + 2*ldc + 16, m1, store ? c2_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 2*ldc + 16), c2_1));
  _mm512_mask_storeu_ps(c + 2*ldc + 32, m2, store ? c2_2 : _mm512_add_ps(_mm512_maskz_loadu_ps(m2, c + 2*ldc + 32), c2_2));
  if (rows == 3) return;
  _mm512_mask_storeu_ps(c + 3*ldc + 0, m0, store ? c3_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 3*ldc + 0), c3_0));
  _mm512_mask_storeu_ps(c + 3*ldc + 16, m1, store ? c3_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 3*ldc + 16), c3_1));
  _mm512_mask_storeu_ps(c + 3*ldc + 32, m2, store ? c3_2 : _mm512_add_ps(_mm512_maskz_loadu_ps(m2, c + 3*ldc + 32), c3_2));
}

static inline void pk_ukr_gemm_f32_avx512_8x48_uu_4x2(int64_t kb, const float *restrict a, int64_t lda,
    const float *restrict b, int64_t ldb, float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store) {
  const float *restrict a0 = a + 0*lda;
  const float *restrict a1 = a + pk_min64(1, rows - 1)*lda;
  const float *restrict a2 = a + pk_min64(2, rows - 1)*lda;
  const float *restrict a3 = a + pk_min64(3, rows - 1)*lda;
  const __mmask16 bm = (__mmask16)((1u << (pk_edge_lanes(cols, 16, 16))) - 1u);
  __m512 c0_0 = _mm512_setzero_ps(), c0_1 = _mm512_setzero_ps();
  __m512 c1_0 = _mm512_setzero_ps(), c1_1 = _mm512_setzero_ps();
  __m512 c2_0 = _mm512_setzero_ps(), c2_1 = _mm512_setzero_ps();
  __m512 c3_0 = _mm512_setzero_ps(), c3_1 = _mm512_setzero_ps();
  __builtin_prefetch(c + 0*ldc + 0, 1, 3), __builtin_prefetch(c + 0*ldc + 16, 1, 3), __builtin_prefetch(c + 0*ldc + 31, 1, 3);
  __builtin_prefetch(c + 1*ldc + 0, 1, 3), __builtin_prefetch(c + 1*ldc + 16, 1, 3), __builtin_prefetch(c + 1*ldc + 31, 1, 3);
  __builtin_prefetch(c + 2*ldc + 0, 1, 3), __builtin_prefetch(c + 2*ldc + 16, 1, 3), __builtin_prefetch(c + 2*ldc + 31, 1, 3);
  __builtin_prefetch(c + 3*ldc + 0, 1, 3), __builtin_prefetch(c + 3*ldc + 16, 1, 3), __builtin_prefetch(c + 3*ldc + 31, 1, 3);
#pragma GCC unroll 4
  for (int64_t p = 0; p < kb; p++) {
    const __m512 b0 = _mm512_loadu_ps(b + p*ldb + 0);
    const __m512 b1 = _mm512_maskz_loadu_ps(bm, b + p*ldb + 16);
    const __m512 a0v = _mm512_set1_ps(*(a0 + p));
    c0_0 = _mm512_fmadd_ps(a0v, b0, c0_0);
    c0_1 = _mm512_fmadd_ps(a0v, b1, c0_1);
    const __m512 a1v = _mm512_set1_ps(*(a1 + p));
    c1_0 = _mm512_fmadd_ps(a1v, b0, c1_0);
    c1_1 = _mm512_fmadd_ps(a1v, b1, c1_1);
    const __m512 a2v = _mm512_set1_ps(*(a2 + p));
    c2_0 = _mm512_fmadd_ps(a2v, b0, c2_0);
    c2_1 = _mm512_fmadd_ps(a2v, b1, c2_1);
    const __m512 a3v = _mm512_set1_ps(*(a3 + p));
    c3_0 = _mm512_fmadd_ps(a3v, b0, c3_0);
    c3_1 = _mm512_fmadd_ps(a3v, b1, c3_1);
  }
  if (rows == 4 && cols == 32) {
    if (!store) {
      c0_0 = _mm512_add_ps(_mm512_loadu_ps(c + 0*ldc + 0), c0_0);
      c0_1 = _mm512_add_ps(_mm512_loadu_ps(c + 0*ldc + 16), c0_1);
      c1_0 = _mm512_add_ps(_mm512_loadu_ps(c + 1*ldc + 0), c1_0);
      c1_1 = _mm512_add_ps(_mm512_loadu_ps(c + 1*ldc + 16), c1_1);
      c2_0 = _mm512_add_ps(_mm512_loadu_ps(c + 2*ldc + 0), c2_0);
      c2_1 = _mm512_add_ps(_mm512_loadu_ps(c + 2*ldc + 16), c2_1);
      c3_0 = _mm512_add_ps(_mm512_loadu_ps(c + 3*ldc + 0), c3_0);
      c3_1 = _mm512_add_ps(_mm512_loadu_ps(c + 3*ldc + 16), c3_1);
    }
    _mm512_storeu_ps(c + 0*ldc + 0, c0_0);
    _mm512_storeu_ps(c + 0*ldc + 16, c0_1);
    _mm512_storeu_ps(c + 1*ldc + 0, c1_0);
    _mm512_storeu_ps(c + 1*ldc + 16, c1_1);
    _mm512_storeu_ps(c + 2*ldc + 0, c2_0);
    _mm512_storeu_ps(c + 2*ldc + 16, c2_1);
    _mm512_storeu_ps(c + 3*ldc + 0, c3_0);
    _mm512_storeu_ps(c + 3*ldc + 16, c3_1);
    return;
  }
  const __mmask16 m0 = (__mmask16)((1u << (pk_edge_lanes(cols, 0, 16))) - 1u);
  const __mmask16 m1 = (__mmask16)((1u << (pk_edge_lanes(cols, 16, 16))) - 1u);
  _mm512_mask_storeu_ps(c + 0*ldc + 0, m0, store ? c0_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 0*ldc + 0), c0_0));
  _mm512_mask_storeu_ps(c + 0*ldc + 16, m1, store ? c0_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 0*ldc + 16), c0_1));
  if (rows == 1) return;
  _mm512_mask_storeu_ps(c + 1*ldc + 0, m0, store ? c1_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 1*ldc + 0), c1_0));
  _mm512_mask_storeu_ps(c + 1*ldc + 16, m1, store ? c1_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 1*ldc + 16), c1_1));
  if (rows == 2) return;
  _mm512_mask_storeu_ps(c + 2*ldc + 0, m0, store ? c2_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 2*ldc + 0), c2_0));
  _mm512_mask_storeu_ps(c + 2*ldc + 16, m1, store ? c2_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 2*ldc + 16), c2_1));
  if (rows == 3) return;
  _mm512_mask_storeu_ps(c + 3*ldc + 0, m0, store ? c3_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 3*ldc + 0), c3_0));
  _mm512_mask_storeu_ps(c + 3*ldc + 16, m1, store ? c3_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 3*ldc + 16), c3_1));
}

static inline void pk_ukr_gemm_f32_avx512_8x48_uu_4x1(int64_t kb, const float *restrict a, int64_t lda,
    const float *restrict b, int64_t ldb, float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store) {
  const float *restrict a0 = a + 0*lda;
  const float *restrict a1 = a + pk_min64(1, rows - 1)*lda;
  const float *restrict a2 = a + pk_min64(2, rows - 1)*lda;
  const float *restrict a3 = a + pk_min64(3, rows - 1)*lda;
  const __mmask16 bm = (__mmask16)((1u << (pk_edge_lanes(cols, 0, 16))) - 1u);
  __m512 c0_0 = _mm512_setzero_ps();
  __m512 c1_0 = _mm512_setzero_ps();
  __m512 c2_0 = _mm512_setzero_ps();
  __m512 c3_0 = _mm512_setzero_ps();
  __builtin_prefetch(c + 0*ldc + 0, 1, 3), __builtin_prefetch(c + 0*ldc + 15, 1, 3);
  __builtin_prefetch(c + 1*ldc + 0, 1, 3), __builtin_prefetch(c + 1*ldc + 15, 1, 3);
  __builtin_prefetch(c + 2*ldc + 0, 1, 3), __builtin_prefetch(c + 2*ldc + 15, 1, 3);
  __builtin_prefetch(c + 3*ldc + 0, 1, 3), __builtin_prefetch(c + 3*ldc + 15, 1, 3);
#pragma GCC unroll 4
  for (int64_t p = 0; p < kb; p++) {
    const __m512 b0 = _mm512_maskz_loadu_ps(bm, b + p*ldb + 0);
    const __m512 a0v = _mm512_set1_ps(*(a0 + p));
    c0_0 = _mm512_fmadd_ps(a0v, b0, c0_0);
    const __m512 a1v = _mm512_set1_ps(*(a1 + p));
    c1_0 = _mm512_fmadd_ps(a1v, b0, c1_0);
    const __m512 a2v = _mm512_set1_ps(*(a2 + p));
    c2_0 = _mm512_fmadd_ps(a2v, b0, c2_0);
    const __m512 a3v = _mm512_set1_ps(*(a3 + p));
    c3_0 = _mm512_fmadd_ps(a3v, b0, c3_0);
  }
  if (rows == 4 && cols == 16) {
    if (!store) {
      c0_0 = _mm512_add_ps(_mm512_loadu_ps(c + 0*ldc + 0), c0_0);
      c1_0 = _mm512_add_ps(_mm512_loadu_ps(c + 1*ldc + 0), c1_0);
      c2_0 = _mm512_add_ps(_mm512_loadu_ps(c + 2*ldc + 0), c2_0);
      c3_0 = _mm512_add_ps(_mm512_loadu_ps(c + 3*ldc + 0), c3_0);
    }
    _mm512_storeu_ps(c + 0*ldc + 0, c0_0);
    _mm512_storeu_ps(c + 1*ldc + 0, c1_0);
    _mm512_storeu_ps(c + 2*ldc + 0, c2_0);
    _mm512_storeu_ps(c + 3*ldc + 0, c3_0);
    return;
  }
  const __mmask16 m0 = (__mmask16)((1u << (pk_edge_lanes(cols, 0, 16))) - 1u);
  _mm512_mask_storeu_ps(c + 0*ldc + 0, m0, store ? c0_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 0*ldc + 0), c0_0));
  if (rows == 1) return;
  _mm512_mask_storeu_ps(c + 1*ldc + 0, m0, store ? c1_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 1*ldc + 0), c1_0));
  if (rows == 2) return;
  _mm512_mask_storeu_ps(c + 2*ldc + 0, m0, store ? c2_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 2*ldc + 0), c2_0));
  if (rows == 3) return;
  _mm512_mask_storeu_ps(c + 3*ldc + 0, m0, store ? c3_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 3*ldc + 0), c3_0));
}

static inline void pk_ukr_gemm_f32_avx512_8x48_uu_2x3(int64_t kb, const float *restrict a, int64_t lda,
    const float *restrict b, int64_t ldb, float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store) {
  const float *restrict a0 = a + 0*lda;
  const float *restrict a1 = a + pk_min64(1, rows - 1)*lda;
  const __mmask16 bm = (__mmask16)((1u << (pk_edge_lanes(cols, 32, 16))) - 1u);
  __m512 c0_0 = _mm512_setzero_ps(), c0_1 = _mm512_setzero_ps(), c0_2 = _mm512_setzero_ps();
  __m512 c1_0 = _mm512_setzero_ps(), c1_1 = _mm512_setzero_ps(), c1_2 = _mm512_setzero_ps();
  __m512 c0_0_1 = _mm512_setzero_ps(), c0_1_1 = _mm512_setzero_ps(), c0_2_1 = _mm512_setzero_ps();
  __m512 c1_0_1 = _mm512_setzero_ps(), c1_1_1 = _mm512_setzero_ps(), c1_2_1 = _mm512_setzero_ps();
  __builtin_prefetch(c + 0*ldc + 0, 1, 3), __builtin_prefetch(c + 0*ldc + 16, 1, 3), __builtin_prefetch(c + 0*ldc + 32, 1, 3), __builtin_prefetch(c + 0*ldc + 47, 1, 3);
  __builtin_prefetch(c + 1*ldc + 0, 1, 3), __builtin_prefetch(c + 1*ldc + 16, 1, 3), __builtin_prefetch(c + 1*ldc + 32, 1, 3), __builtin_prefetch(c + 1*ldc + 47, 1, 3);
  int64_t p = 0;
  for (; p + 2 <= kb; p += 2) {
    const __m512 b0 = _mm512_loadu_ps(b + p*ldb + 0);
    const __m512 b1 = _mm512_loadu_ps(b + p*ldb + 16);
    const __m512 b2 = _mm512_maskz_loadu_ps(bm, b + p*ldb + 32);
    __builtin_prefetch(b + p*ldb + 48, 0, 3);
    __builtin_prefetch(b + p*ldb + 64, 0, 3);
    __builtin_prefetch(b + p*ldb + 80, 0, 3);
    const __m512 a0v = _mm512_set1_ps(*(a0 + p));
    c0_0 = _mm512_fmadd_ps(a0v, b0, c0_0);
    c0_1 = _mm512_fmadd_ps(a0v, b1, c0_1);
    c0_2 = _mm512_fmadd_ps(a0v, b2, c0_2);
    const __m512 a1v = _mm512_set1_ps(*(a1 + p));
    c1_0 = _mm512_fmadd_ps(a1v, b0, c1_0);
    c1_1 = _mm512_fmadd_ps(a1v, b1, c1_1);
    c1_2 = _mm512_fmadd_ps(a1v, b2, c1_2);
    const __m512 b0_1 = _mm512_loadu_ps(b + (p + 1)*ldb + 0);
    const __m512 b1_1 = _mm512_loadu_ps(b + (p + 1)*ldb + 16);
    const __m512 b2_1 = _mm512_maskz_loadu_ps(bm, b + (p + 1)*ldb + 32);
    __builtin_prefetch(b + (p + 1)*ldb + 48, 0, 3);
    __builtin_prefetch(b + (p + 1)*ldb + 64, 0, 3);
    __builtin_prefetch(b + (p + 1)*ldb + 80, 0, 3);
    const __m512 a0v_1 = _mm512_set1_ps(*(a0 + (p + 1)));
    c0_0_1 = _mm512_fmadd_ps(a0v_1, b0_1, c0_0_1);
    c0_1_1 = _mm512_fmadd_ps(a0v_1, b1_1, c0_1_1);
    c0_2_1 = _mm512_fmadd_ps(a0v_1, b2_1, c0_2_1);
    const __m512 a1v_1 = _mm512_set1_ps(*(a1 + (p + 1)));
    c1_0_1 = _mm512_fmadd_ps(a1v_1, b0_1, c1_0_1);
    c1_1_1 = _mm512_fmadd_ps(a1v_1, b1_1, c1_1_1);
    c1_2_1 = _mm512_fmadd_ps(a1v_1, b2_1, c1_2_1);
  }
  for (; p < kb; p++) {
    const __m512 b0 = _mm512_loadu_ps(b + p*ldb + 0);
    const __m512 b1 = _mm512_loadu_ps(b + p*ldb + 16);
    const __m512 b2 = _mm512_maskz_loadu_ps(bm, b + p*ldb + 32);
    __builtin_prefetch(b + p*ldb + 48, 0, 3);
    __builtin_prefetch(b + p*ldb + 64, 0, 3);
    __builtin_prefetch(b + p*ldb + 80, 0, 3);
    const __m512 a0v = _mm512_set1_ps(*(a0 + p));
    c0_0 = _mm512_fmadd_ps(a0v, b0, c0_0);
    c0_1 = _mm512_fmadd_ps(a0v, b1, c0_1);
    c0_2 = _mm512_fmadd_ps(a0v, b2, c0_2);
    const __m512 a1v = _mm512_set1_ps(*(a1 + p));
    c1_0 = _mm512_fmadd_ps(a1v, b0, c1_0);
    c1_1 = _mm512_fmadd_ps(a1v, b1, c1_1);
    c1_2 = _mm512_fmadd_ps(a1v, b2, c1_2);
  }
  c0_0 = _mm512_add_ps(c0_0, c0_0_1);
  c0_1 = _mm512_add_ps(c0_1, c0_1_1);
  c0_2 = _mm512_add_ps(c0_2, c0_2_1);
  c1_0 = _mm512_add_ps(c1_0, c1_0_1);
  c1_1 = _mm512_add_ps(c1_1, c1_1_1);
  c1_2 = _mm512_add_ps(c1_2, c1_2_1);
  if (rows == 2 && cols == 48) {
    if (!store) {
      c0_0 = _mm512_add_ps(_mm512_loadu_ps(c + 0*ldc + 0), c0_0);
      c0_1 = _mm512_add_ps(_mm512_loadu_ps(c + 0*ldc + 16), c0_1);
      c0_2 = _mm512_add_ps(_mm512_loadu_ps(c + 0*ldc + 32), c0_2);
      c1_0 = _mm512_add_ps(_mm512_loadu_ps(c + 1*ldc + 0), c1_0);
      c1_1 = _mm512_add_ps(_mm512_loadu_ps(c + 1*ldc + 16), c1_1);
      c1_2 = _mm512_add_ps(_mm512_loadu_ps(c + 1*ldc + 32), c1_2);
    }
    _mm512_storeu_ps(c + 0*ldc + 0, c0_0);
    _mm512_storeu_ps(c + 0*ldc + 16, c0_1);
    _mm512_storeu_ps(c + 0*ldc + 32, c0_2);
    _mm512_storeu_ps(c + 1*ldc + 0, c1_0);
    _mm512_storeu_ps(c + 1*ldc + 16, c1_1);
    _mm512_storeu_ps(c + 1*ldc + 32, c1_2);
    return;
  }
  const __mmask16 m0 = (__mmask16)((1u << (pk_edge_lanes(cols, 0, 16))) - 1u);
  const __mmask16 m1 = (__mmask16)((1u << (pk_edge_lanes(cols, 16, 16))) - 1u);
  const __mmask16 m2 = (__mmask16)((1u << (pk_edge_lanes(cols, 32, 16))) - 1u);
  _mm512_mask_storeu_ps(c + 0*ldc + 0, m0, store ? c0_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 0*ldc + 0), c0_0));
  _mm512_mask_storeu_ps(c + 0*ldc + 16, m1, store ? c0_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 0*ldc + 16), c0_1));
  _mm512_mask_storeu_ps(c + 0*ldc + 32, m2, store ? c0_2 : _mm512_add_ps(_mm512_maskz_loadu_ps(m2, c + 0*ldc + 32), c0_2));
  if (rows == 1) return;
  _mm512_mask_storeu_ps(c + 1*ldc + 0, m0, store ? c1_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 1*ldc + 0), c1_0));
  _mm512_mask_storeu_ps(c + 1*ldc + 16, m1, store ? c1_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 1*ldc + 16), c1_1));
  _mm512_mask_storeu_ps(c + 1*ldc + 32, m2, store ? c1_2 : _mm512_add_ps(_mm512_maskz_loadu_ps(m2, c + 1*ldc + 32), c1_2));
}

static inline void pk_ukr_gemm_f32_avx512_8x48_uu_2x2(int64_t kb, const float *restrict a, int64_t lda,
    const float *restrict b, int64_t ldb, float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store) {
  const float *restrict a0 = a + 0*lda;
  const float *restrict a1 = a + pk_min64(1, rows - 1)*lda;
  const __mmask16 bm = (__mmask16)((1u << (pk_edge_lanes(cols, 16, 16))) - 1u);
  __m512 c0_0 = _mm512_setzero_ps(), c0_1 = _mm512_setzero_ps();
  __m512 c1_0 = _mm512_setzero_ps(), c1_1 = _mm512_setzero_ps();
  __m512 c0_0_1 = _mm512_setzero_ps(), c0_1_1 = _mm512_setzero_ps();
  __m512 c1_0_1 = _mm512_setzero_ps(), c1_1_1 = _mm512_setzero_ps();
  __builtin_prefetch(c + 0*ldc + 0, 1, 3), __builtin_prefetch(c + 0*ldc + 16, 1, 3), __builtin_prefetch(c + 0*ldc + 31, 1, 3);
  __builtin_prefetch(c + 1*ldc + 0, 1, 3), __builtin_prefetch(c + 1*ldc + 16, 1, 3), __builtin_prefetch(c + 1*ldc + 31, 1, 3);
  int64_t p = 0;
  for (; p + 2 <= kb; p += 2) {
    const __m512 b0 = _mm512_loadu_ps(b + p*ldb + 0);
    const __m512 b1 = _mm512_maskz_loadu_ps(bm, b + p*ldb + 16);
    const __m512 a0v = _mm512_set1_ps(*(a0 + p));
    c0_0 = _mm512_fmadd_ps(a0v, b0, c0_0);
    c0_1 = _mm512_fmadd_ps(a0v, b1, c0_1);
    const __m512 a1v = _mm512_set1_ps(*(a1 + p));
    c1_0 = _mm512_fmadd_ps(a1v, b0, c1_0);
    c1_1 = _mm512_fmadd_ps(a1v, b1, c1_1);
    const __m512 b0_1 = _mm512_loadu_ps(b + (p + 1)*ldb + 0);
    const __m512 b1_1 = _mm512_maskz_loadu_ps(bm, b + (p + 1)*ldb + 16);
    const __m512 a0v_1 = _mm512_set1_ps(*(a0 + (p + 1)));
    c0_0_1 = _mm512_fmadd_ps(a0v_1, b0_1, c0_0_1);
    c0_1_1 = _mm512_fmadd_ps(a0v_1, b1_1, c0_1_1);
    const __m512 a1v_1 = _mm512_set1_ps(*(a1 + (p + 1)));
    c1_0_1 = _mm512_fmadd_ps(a1v_1, b0_1, c1_0_1);
    c1_1_1 = _mm512_fmadd_ps(a1v_1, b1_1, c1_1_1);
  }
  for (; p < kb; p++) {
    const __m512 b0 = _mm512_loadu_ps(b + p*ldb + 0);
    const __m512 b1 = _mm512_maskz_loadu_ps(bm, b + p*ldb + 16);
    const __m512 a0v = _mm512_set1_ps(*(a0 + p));
    c0_0 = _mm512_fmadd_ps(a0v, b0, c0_0);
    c0_1 = _mm512_fmadd_ps(a0v, b1, c0_1);
    const __m512 a1v = _mm512_set1_ps(*(a1 + p));
    c1_0 = _mm512_fmadd_ps(a1v, b0, c1_0);
    c1_1 = _mm512_fmadd_ps(a1v, b1, c1_1);
  }
  c0_0 = _mm512_add_ps(c0_0, c0_0_1);
  c0_1 = _mm512_add_ps(c0_1, c0_1_1);
  c1_0 = _mm512_add_ps(c1_0, c1_0_1);
  c1_1 = _mm512_add_ps(c1_1, c1_1_1);
  if (rows == 2 && cols == 32) {
    if (!store) {
      c0_0 = _mm512_add_ps(_mm512_loadu_ps(c + 0*ldc + 0), c0_0);
      c0_1 = _mm512_add_ps(_mm512_loadu_ps(c + 0*ldc + 16), c0_1);
      c1_0 = _mm512_add_ps(_mm512_loadu_ps(c + 1*ldc + 0), c1_0);
      c1_1 = _mm512_add_ps(_mm512_loadu_ps(c + 1*ldc + 16), c1_1);
    }
    _mm512_storeu_ps(c + 0*ldc + 0, c0_0);
    _mm512_storeu_ps(c + 0*ldc + 16, c0_1);
    _mm512_storeu_ps(c + 1*ldc + 0, c1_0);
    _mm512_storeu_ps(c + 1*ldc + 16, c1_1);
    return;
  }
  const __mmask16 m0 = (__mmask16)((1u << (pk_edge_lanes(cols, 0, 16))) - 1u);
  const __mmask16 m1 = (__mmask16)((1u << (pk_edge_lanes(cols, 16, 16))) - 1u);
  _mm512_mask_storeu_ps(c + 0*ldc + 0, m0, store ? c0_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 0*ldc + 0), c0_0));
  _mm512_mask_storeu_ps(c + 0*ldc + 16, m1, store ? c0_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 0*ldc + 16), c0_1));
  if (rows == 1) return;
  _mm512_mask_storeu_ps(c + 1*ldc + 0, m0, store ? c1_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 1*ldc + 0), c1_0));
  _mm512_mask_storeu_ps(c + 1*ldc + 16, m1, store ? c1_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 1*ldc + 16), c1_1));
}

static inline void pk_ukr_gemm_f32_avx512_8x48_uu_2x1(int64_t kb, const float *restrict a, int64_t lda,
    const float *restrict b, int64_t ldb, float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store) {
  const float *restrict a0 = a + 0*lda;
  const float *restrict a1 = a + pk_min64(1, rows - 1)*lda;
  const __mmask16 bm = (__mmask16)((1u << (pk_edge_lanes(cols, 0, 16))) - 1u);
  __m512 c0_0 = _mm512_setzero_ps();
  __m512 c1_0 = _mm512_setzero_ps();
  __m512 c0_0_1 = _mm512_setzero_ps();
  __m512 c1_0_1 = _mm512_setzero_ps();
  __m512 c0_0_2 = _mm512_setzero_ps();
  __m512 c1_0_2 = _mm512_setzero_ps();
  __m512 c0_0_3 = _mm512_setzero_ps();
  __m512 c1_0_3 = _mm512_setzero_ps();
  __builtin_prefetch(c + 0*ldc + 0, 1, 3), __builtin_prefetch(c + 0*ldc + 15, 1, 3);
  __builtin_prefetch(c + 1*ldc + 0, 1, 3), __builtin_prefetch(c + 1*ldc + 15, 1, 3);
  int64_t p = 0;
  for (; p + 4 <= kb; p += 4) {
    const __m512 b0 = _mm512_maskz_loadu_ps(bm, b + p*ldb + 0);
    const __m512 a0v = _mm512_set1_ps(*(a0 + p));
    c0_0 = _mm512_fmadd_ps(a0v, b0, c0_0);
    const __m512 a1v = _mm512_set1_ps(*(a1 + p));
    c1_0 = _mm512_fmadd_ps(a1v, b0, c1_0);
    const __m512 b0_1 = _mm512_maskz_loadu_ps(bm, b + (p + 1)*ldb + 0);
    const __m512 a0v_1 = _mm512_set1_ps(*(a0 + (p + 1)));
    c0_0_1 = _mm512_fmadd_ps(a0v_1, b0_1, c0_0_1);
    const __m512 a1v_1 = _mm512_set1_ps(*(a1 + (p + 1)));
    c1_0_1 = _mm512_fmadd_ps(a1v_1, b0_1, c1_0_1);
    const __m512 b0_2 = _mm512_maskz_loadu_ps(bm, b + (p + 2)*ldb + 0);
    const __m512 a0v_2 = _mm512_set1_ps(*(a0 + (p + 2)));
    c0_0_2 = _mm512_fmadd_ps(a0v_2, b0_2, c0_0_2);
    const __m512 a1v_2 = _mm512_set1_ps(*(a1 + (p + 2)));
    c1_0_2 = _mm512_fmadd_ps(a1v_2, b0_2, c1_0_2);
    const __m512 b0_3 = _mm512_maskz_loadu_ps(bm, b + (p + 3)*ldb + 0);
    const __m512 a0v_3 = _mm512_set1_ps(*(a0 + (p + 3)));
    c0_0_3 = _mm512_fmadd_ps(a0v_3, b0_3, c0_0_3);
    const __m512 a1v_3 = _mm512_set1_ps(*(a1 + (p + 3)));
    c1_0_3 = _mm512_fmadd_ps(a1v_3, b0_3, c1_0_3);
  }
  for (; p < kb; p++) {
    const __m512 b0 = _mm512_maskz_loadu_ps(bm, b + p*ldb + 0);
    const __m512 a0v = _mm512_set1_ps(*(a0 + p));
    c0_0 = _mm512_fmadd_ps(a0v, b0, c0_0);
    const __m512 a1v = _mm512_set1_ps(*(a1 + p));
    c1_0 = _mm512_fmadd_ps(a1v, b0, c1_0);
  }
  c0_0 = _mm512_add_ps(_mm512_add_ps(_mm512_add_ps(c0_0, c0_0_1), c0_0_2), c0_0_3);
  c1_0 = _mm512_add_ps(_mm512_add_ps(_mm512_add_ps(c1_0, c1_0_1), c1_0_2), c1_0_3);
  if (rows == 2 && cols == 16) {
    if (!store) {
      c0_0 = _mm512_add_ps(_mm512_loadu_ps(c + 0*ldc + 0), c0_0);
      c1_0 = _mm512_add_ps(_mm512_loadu_ps(c + 1*ldc + 0), c1_0);
    }
    _mm512_storeu_ps(c + 0*ldc + 0, c0_0);
    _mm512_storeu_ps(c + 1*ldc + 0, c1_0);
    return;
  }
  const __mmask16 m0 = (__mmask16)((1u << (pk_edge_lanes(cols, 0, 16))) - 1u);
  _mm512_mask_storeu_ps(c + 0*ldc + 0, m0, store ? c0_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 0*ldc + 0), c0_0));
  if (rows == 1) return;
  _mm512_mask_storeu_ps(c + 1*ldc + 0, m0, store ? c1_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 1*ldc + 0), c1_0));
}

static inline void pk_ukr_gemm_f32_avx512_8x48_uu_1x3(int64_t kb, const float *restrict a, int64_t lda,
    const float *restrict b, int64_t ldb, float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store) {
  const float *restrict a0 = a + 0*lda;
  const __mmask16 bm = (__mmask16)((1u << (pk_edge_lanes(cols, 32, 16))) - 1u);
  __m512 c0_0 = _mm512_setzero_ps(), c0_1 = _mm512_setzero_ps(), c0_2 = _mm512_setzero_ps();
  __m512 c0_0_1 = _mm512_setzero_ps(), c0_1_1 = _mm512_setzero_ps(), c0_2_1 = _mm512_setzero_ps();
  __m512 c0_0_2 = _mm512_setzero_ps(), c0_1_2 = _mm512_setzero_ps(), c0_2_2 = _mm512_setzero_ps();
  __builtin_prefetch(c + 0*ldc + 0, 1, 3), __builtin_prefetch(c + 0*ldc + 16, 1, 3), __builtin_prefetch(c + 0*ldc + 32, 1, 3), __builtin_prefetch(c + 0*ldc + 47, 1, 3);
  const int64_t pk_seg = kb / 3;
  int64_t p = 0;
  for (; p < pk_seg; p++) {
    const __m512 b0 = _mm512_loadu_ps(b + p*ldb + 0);
    const __m512 b1 = _mm512_loadu_ps(b + p*ldb + 16);
    const __m512 b2 = _mm512_maskz_loadu_ps(bm, b + p*ldb + 32);
    __builtin_prefetch(b + p*ldb + 48, 0, 3);
    __builtin_prefetch(b + p*ldb + 64, 0, 3);
    __builtin_prefetch(b + p*ldb + 80, 0, 3);
    const __m512 a0v = _mm512_set1_ps(*(a0 + p));
    c0_0 = _mm512_fmadd_ps(a0v, b0, c0_0);
    c0_1 = _mm512_fmadd_ps(a0v, b1, c0_1);
    c0_2 = _mm512_fmadd_ps(a0v, b2, c0_2);
    const __m512 b0_1 = _mm512_loadu_ps(b + (p + 1*pk_seg)*ldb + 0);
    const __m512 b1_1 = _mm512_loadu_ps(b + (p + 1*pk_seg)*ldb + 16);
    const __m512 b2_1 = _mm512_maskz_loadu_ps(bm, b + (p + 1*pk_seg)*ldb + 32);
    __builtin_prefetch(b + (p + 1*pk_seg)*ldb + 48, 0, 3);
    __builtin_prefetch(b + (p + 1*pk_seg)*ldb + 64, 0, 3);
    __builtin_prefetch(b + (p + 1*pk_seg)*ldb + 80, 0, 3);
    const __m512 a0v_1 = _mm512_set1_ps(*(a0 + (p + 1*pk_seg)));
    c0_0_1 = _mm512_fmadd_ps(a0v_1, b0_1, c0_0_1);
    c0_1_1 = _mm512_fmadd_ps(a0v_1, b1_1, c0_1_1);
    c0_2_1 = _mm512_fmadd_ps(a0v_1, b2_1, c0_2_1);
    const __m512 b0_2 = _mm512_loadu_ps(b + (p + 2*pk_seg)*ldb + 0);
    const __m512 b1_2 = _mm512_loadu_ps(b + (p + 2*pk_seg)*ldb + 16);
    const __m512 b2_2 = _mm512_maskz_loadu_ps(bm, b + (p + 2*pk_seg)*ldb + 32);
    __builtin_prefetch(b + (p + 2*pk_seg)*ldb + 48, 0, 3);
    __builtin_prefetch(b + (p + 2*pk_seg)*ldb + 64, 0, 3);
    __builtin_prefetch(b + (p + 2*pk_seg)*ldb + 80, 0, 3);
    const __m512 a0v_2 = _mm512_set1_ps(*(a0 + (p + 2*pk_seg)));
    c0_0_2 = _mm512_fmadd_ps(a0v_2, b0_2, c0_0_2);
    c0_1_2 = _mm512_fmadd_ps(a0v_2, b1_2, c0_1_2);
    c0_2_2 = _mm512_fmadd_ps(a0v_2, b2_2, c0_2_2);
  }
  for (p = 3*pk_seg; p < kb; p++) {
    const __m512 b0 = _mm512_loadu_ps(b + p*ldb + 0);
    const __m512 b1 = _mm512_loadu_ps(b + p*ldb + 16);
    const __m512 b2 = _mm512_maskz_loadu_ps(bm, b + p*ldb + 32);
    __builtin_prefetch(b + p*ldb + 48, 0, 3);
    __builtin_prefetch(b + p*ldb + 64, 0, 3);
    __builtin_prefetch(b + p*ldb + 80, 0, 3);
    const __m512 a0v = _mm512_set1_ps(*(a0 + p));
    c0_0 = _mm512_fmadd_ps(a0v, b0, c0_0);
    c0_1 = _mm512_fmadd_ps(a0v, b1, c0_1);
    c0_2 = _mm512_fmadd_ps(a0v, b2, c0_2);
  }
  c0_0 = _mm512_add_ps(_mm512_add_ps(c0_0, c0_0_1), c0_0_2);
  c0_1 = _mm512_add_ps(_mm512_add_ps(c0_1, c0_1_1), c0_1_2);
  c0_2 = _mm512_add_ps(_mm512_add_ps(c0_2, c0_2_1), c0_2_2);
  if (rows == 1 && cols == 48) {
    if (!store) {
      c0_0 = _mm512_add_ps(_mm512_loadu_ps(c + 0*ldc + 0), c0_0);
      c0_1 = _mm512_add_ps(_mm512_loadu_ps(c + 0*ldc + 16), c0_1);
      c0_2 = _mm512_add_ps(_mm512_loadu_ps(c + 0*ldc + 32), c0_2);
    }
    _mm512_storeu_ps(c + 0*ldc + 0, c0_0);
    _mm512_storeu_ps(c + 0*ldc + 16, c0_1);
    _mm512_storeu_ps(c + 0*ldc + 32, c0_2);
    return;
  }
  const __mmask16 m0 = (__mmask16)((1u << (pk_edge_lanes(cols, 0, 16))) - 1u);
  const __mmask16 m1 = (__mmask16)((1u << (pk_edge_lanes(cols, 16, 16))) - 1u);
  const __mmask16 m2 = (__mmask16)((1u << (pk_edge_lanes(cols, 32, 16))) - 1u);
  _mm512_mask_storeu_ps(c + 0*ldc + 0, m0, store ? c0_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 0*ldc + 0), c0_0));
  _mm512_mask_storeu_ps(c + 0*ldc + 16, m1, store ? c0_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 0*ldc + 16), c0_1));
  _mm512_mask_storeu_ps(c + 0*ldc + 32, m2, store ? c0_2 : _mm512_add_ps(_mm512_maskz_loadu_ps(m2, c + 0*ldc + 32), c0_2));
}

static inline void pk_ukr_gemm_f32_avx512_8x48_uu_1x2(int64_t kb, const float *restrict a, int64_t lda,
    const float *restrict b, int64_t ldb, float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store) {
  const float *restrict a0 = a + 0*lda;
  const __mmask16 bm = (__mmask16)((1u << (pk_edge_lanes(cols, 16, 16))) - 1u);
  __m512 c0_0 = _mm512_setzero_ps(), c0_1 = _mm512_setzero_ps();
  __m512 c0_0_1 = _mm512_setzero_ps(), c0_1_1 = _mm512_setzero_ps();
  __m512 c0_0_2 = _mm512_setzero_ps(), c0_1_2 = _mm512_setzero_ps();
  __m512 c0_0_3 = _mm512_setzero_ps(), c0_1_3 = _mm512_setzero_ps();
  __builtin_prefetch(c + 0*ldc + 0, 1, 3), __builtin_prefetch(c + 0*ldc + 16, 1, 3), __builtin_prefetch(c + 0*ldc + 31, 1, 3);
  const int64_t pk_seg = kb / 4;
  int64_t p = 0;
  for (; p < pk_seg; p++) {
    const __m512 b0 = _mm512_loadu_ps(b + p*ldb + 0);
    const __m512 b1 = _mm512_maskz_loadu_ps(bm, b + p*ldb + 16);
    const __m512 a0v = _mm512_set1_ps(*(a0 + p));
    c0_0 = _mm512_fmadd_ps(a0v, b0, c0_0);
    c0_1 = _mm512_fmadd_ps(a0v, b1, c0_1);
    const __m512 b0_1 = _mm512_loadu_ps(b + (p + 1*pk_seg)*ldb + 0);
    const __m512 b1_1 = _mm512_maskz_loadu_ps(bm, b + (p + 1*pk_seg)*ldb + 16);
    const __m512 a0v_1 = _mm512_set1_ps(*(a0 + (p + 1*pk_seg)));
    c0_0_1 = _mm512_fmadd_ps(a0v_1, b0_1, c0_0_1);
    c0_1_1 = _mm512_fmadd_ps(a0v_1, b1_1, c0_1_1);
    const __m512 b0_2 = _mm512_loadu_ps(b + (p + 2*pk_seg)*ldb + 0);
    const __m512 b1_2 = _mm512_maskz_loadu_ps(bm, b + (p + 2*pk_seg)*ldb + 16);
    const __m512 a0v_2 = _mm512_set1_ps(*(a0 + (p + 2*pk_seg)));
    c0_0_2 = _mm512_fmadd_ps(a0v_2, b0_2, c0_0_2);
    c0_1_2 = _mm512_fmadd_ps(a0v_2, b1_2, c0_1_2);
    const __m512 b0_3 = _mm512_loadu_ps(b + (p + 3*pk_seg)*ldb + 0);
    const __m512 b1_3 = _mm512_maskz_loadu_ps(bm, b + (p + 3*pk_seg)*ldb + 16);
    const __m512 a0v_3 = _mm512_set1_ps(*(a0 + (p + 3*pk_seg)));
    c0_0_3 = _mm512_fmadd_ps(a0v_3, b0_3, c0_0_3);
    c0_1_3 = _mm512_fmadd_ps(a0v_3, b1_3, c0_1_3);
  }
  for (p = 4*pk_seg; p < kb; p++) {
    const __m512 b0 = _mm512_loadu_ps(b + p*ldb + 0);
    const __m512 b1 = _mm512_maskz_loadu_ps(bm, b + p*ldb + 16);
    const __m512 a0v = _mm512_set1_ps(*(a0 + p));
    c0_0 = _mm512_fmadd_ps(a0v, b0, c0_0);
    c0_1 = _mm512_fmadd_ps(a0v, b1, c0_1);
  }
  c0_0 = _mm512_add_ps(_mm512_add_ps(_mm512_add_ps(c0_0, c0_0_1), c0_0_2), c0_0_3);
  c0_1 = _mm512_add_ps(_mm512_add_ps(_mm512_add_ps(c0_1, c0_1_1), c0_1_2), c0_1_3);
  if (rows == 1 && cols == 32) {
    if (!store) {
      c0_0 = _mm512_add_ps(_mm512_loadu_ps(c + 0*ldc + 0), c0_0);
      c0_1 = _mm512_add_ps(_mm512_loadu_ps(c + 0*ldc + 16), c0_1);
    }
    _mm512_storeu_ps(c + 0*ldc + 0, c0_0);
    _mm512_storeu_ps(c + 0*ldc + 16, c0_1);
    return;
  }
  const __mmask16 m0 = (__mmask16)((1u << (pk_edge_lanes(cols, 0, 16))) - 1u);
  const __mmask16 m1 = (__mmask16)((1u << (pk_edge_lanes(cols, 16, 16))) - 1u);
  _mm512_mask_storeu_ps(c + 0*ldc + 0, m0, store ? c0_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 0*ldc + 0), c0_0));
  _mm512_mask_storeu_ps(c + 0*ldc + 16, m1, store ? c0_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 0*ldc + 16), c0_1));
}

static inline void pk_ukr_gemm_f32_avx512_8x48_uu_1x1(int64_t kb, const float *restrict a, int64_t lda,
    const float *restrict b, int64_t ldb, float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store) {
  const float *restrict a0 = a + 0*lda;
  const __mmask16 bm = (__mmask16)((1u << (pk_edge_lanes(cols, 0, 16))) - 1u);
  __m512 c0_0 = _mm512_setzero_ps();
  __m512 c0_0_1 = _mm512_setzero_ps();
  __m512 c0_0_2 = _mm512_setzero_ps();
  __m512 c0_0_3 = _mm512_setzero_ps();
  __builtin_prefetch(c + 0*ldc + 0, 1, 3), __builtin_prefetch(c + 0*ldc + 15, 1, 3);
  const int64_t pk_seg = kb / 4;
  int64_t p = 0;
  for (; p < pk_seg; p++) {
    const __m512 b0 = _mm512_maskz_loadu_ps(bm, b + p*ldb + 0);
    const __m512 a0v = _mm512_set1_ps(*(a0 + p));
    c0_0 = _mm512_fmadd_ps(a0v, b0, c0_0);
    const __m512 b0_1 = _mm512_maskz_loadu_ps(bm, b + (p + 1*pk_seg)*ldb + 0);
    const __m512 a0v_1 = _mm512_set1_ps(*(a0 + (p + 1*pk_seg)));
    c0_0_1 = _mm512_fmadd_ps(a0v_1, b0_1, c0_0_1);
    const __m512 b0_2 = _mm512_maskz_loadu_ps(bm, b + (p + 2*pk_seg)*ldb + 0);
    const __m512 a0v_2 = _mm512_set1_ps(*(a0 + (p + 2*pk_seg)));
    c0_0_2 = _mm512_fmadd_ps(a0v_2, b0_2, c0_0_2);
    const __m512 b0_3 = _mm512_maskz_loadu_ps(bm, b + (p + 3*pk_seg)*ldb + 0);
    const __m512 a0v_3 = _mm512_set1_ps(*(a0 + (p + 3*pk_seg)));
    c0_0_3 = _mm512_fmadd_ps(a0v_3, b0_3, c0_0_3);
  }
  for (p = 4*pk_seg; p < kb; p++) {
    const __m512 b0 = _mm512_maskz_loadu_ps(bm, b + p*ldb + 0);
    const __m512 a0v = _mm512_set1_ps(*(a0 + p));
    c0_0 = _mm512_fmadd_ps(a0v, b0, c0_0);
  }
  c0_0 = _mm512_add_ps(_mm512_add_ps(_mm512_add_ps(c0_0, c0_0_1), c0_0_2), c0_0_3);
  if (rows == 1 && cols == 16) {
    if (!store) {
      c0_0 = _mm512_add_ps(_mm512_loadu_ps(c + 0*ldc + 0), c0_0);
    }
    _mm512_storeu_ps(c + 0*ldc + 0, c0_0);
    return;
  }
  const __mmask16 m0 = (__mmask16)((1u << (pk_edge_lanes(cols, 0, 16))) - 1u);
  _mm512_mask_storeu_ps(c + 0*ldc + 0, m0, store ? c0_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 0*ldc + 0), c0_0));
}

PK_SHARED void pk_ukr_gemm_f32_avx512_8x48_uu(int64_t kb, const float *restrict a, int64_t lda, const float *restrict b, int64_t ldb,
    float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store) {
  if (rows > 4) {
    if (cols > 32) pk_ukr_gemm_f32_avx512_8x48_uu_8x3(kb, a, lda, b, ldb, c, ldc, rows, cols, store);
    else if (cols > 16) pk_ukr_gemm_f32_avx512_8x48_uu_8x2(kb, a, lda, b, ldb, c, ldc, rows, cols, store);
    else pk_ukr_gemm_f32_avx512_8x48_uu_8x1(kb, a, lda, b, ldb, c, ldc, rows, cols, store);
  } else if (rows > 2) {
    if (cols > 32) pk_ukr_gemm_f32_avx512_8x48_uu_4x3(kb, a, lda, b, ldb, c, ldc, rows, cols, store);
    else if (cols > 16) pk_ukr_gemm_f32_avx512_8x48_uu_4x2(kb, a, lda, b, ldb, c, ldc, rows, cols, store);
    else pk_ukr_gemm_f32_avx512_8x48_uu_4x1(kb, a, lda, b, ldb, c, ldc, rows, cols, store);
  } else if (rows > 1) {
    if (cols > 32) pk_ukr_gemm_f32_avx512_8x48_uu_2x3(kb, a, lda, b, ldb, c, ldc, rows, cols, store);
    else if (cols > 16) pk_ukr_gemm_f32_avx512_8x48_uu_2x2(kb, a, lda, b, ldb, c, ldc, rows, cols, store);
    else pk_ukr_gemm_f32_avx512_8x48_uu_2x1(kb, a, lda, b, ldb, c, ldc, rows, cols, store);
  } else {
    if (cols > 32) pk_ukr_gemm_f32_avx512_8x48_uu_1x3(kb, a, lda, b, ldb, c, ldc, rows, cols, store);
    else if (cols > 16) pk_ukr_gemm_f32_avx512_8x48_uu_1x2(kb, a, lda, b, ldb, c, ldc, rows, cols, store);
    else pk_ukr_gemm_f32_avx512_8x48_uu_1x1(kb, a, lda, b, ldb, c, ldc, rows, cols, store);
  }
}

static inline void pk_ukr_gemm_f32_avx512_8x48_pp_8x3(int64_t kb, const float *restrict a, int64_t lda,
    const float *restrict b, int64_t ldb, float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store) {
  (void)lda;
  (void)ldb;
  __m512 c0_0 = _mm512_setzero_ps(), c0_1 = _mm512_setzero_ps(), c0_2 = _mm512_setzero_ps();
  __m512 c1_0 = _mm512_setzero_ps(), c1_1 = _mm512_setzero_ps(), c1_2 = _mm512_setzero_ps();
  __m512 c2_0 = _mm512_setzero_ps(), c2_1 = _mm512_setzero_ps(), c2_2 = _mm512_setzero_ps();
  __m512 c3_0 = _mm512_setzero_ps(), c3_1 = _mm512_setzero_ps(), c3_2 = _mm512_setzero_ps();
  __m512 c4_0 = _mm512_setzero_ps(), c4_1 = _mm512_setzero_ps(), c4_2 = _mm512_setzero_ps();
  __m512 c5_0 = _mm512_setzero_ps(), c5_1 = _mm512_setzero_ps(), c5_2 = _mm512_setzero_ps();
  __m512 c6_0 = _mm512_setzero_ps(), c6_1 = _mm512_setzero_ps(), c6_2 = _mm512_setzero_ps();
  __m512 c7_0 = _mm512_setzero_ps(), c7_1 = _mm512_setzero_ps(), c7_2 = _mm512_setzero_ps();
  const int64_t pk_gap = kb / 16;
  if (pk_gap < 4) {
    __builtin_prefetch(c + 0*ldc + 0, 1, 3), __builtin_prefetch(c + 0*ldc + 16, 1, 3), __builtin_prefetch(c + 0*ldc + 32, 1, 3), __builtin_prefetch(c + 0*ldc + 47, 1, 3);
    __builtin_prefetch(c + 1*ldc + 0, 1, 3), __builtin_prefetch(c + 1*ldc + 16, 1, 3), __builtin_prefetch(c + 1*ldc + 32, 1, 3), __builtin_prefetch(c + 1*ldc + 47, 1, 3);
    __builtin_prefetch(c + 2*ldc + 0, 1, 3), __builtin_prefetch(c + 2*ldc + 16, 1, 3), __builtin_prefetch(c + 2*ldc + 32, 1, 3), __builtin_prefetch(c + 2*ldc + 47, 1, 3);
    __builtin_prefetch(c + 3*ldc + 0, 1, 3), __builtin_prefetch(c + 3*ldc + 16, 1, 3), __builtin_prefetch(c + 3*ldc + 32, 1, 3), __builtin_prefetch(c + 3*ldc + 47, 1, 3);
    __builtin_prefetch(c + 4*ldc + 0, 1, 3), __builtin_prefetch(c + 4*ldc + 16, 1, 3), __builtin_prefetch(c + 4*ldc + 32, 1, 3), __builtin_prefetch(c + 4*ldc + 47, 1, 3);
    __builtin_prefetch(c + 5*ldc + 0, 1, 3), __builtin_prefetch(c + 5*ldc + 16, 1, 3), __builtin_prefetch(c + 5*ldc + 32, 1, 3), __builtin_prefetch(c + 5*ldc + 47, 1, 3);
    __builtin_prefetch(c + 6*ldc + 0, 1, 3), __builtin_prefetch(c + 6*ldc + 16, 1, 3), __builtin_prefetch(c + 6*ldc + 32, 1, 3), __builtin_prefetch(c + 6*ldc + 47, 1, 3);
    __builtin_prefetch(c + 7*ldc + 0, 1, 3), __builtin_prefetch(c + 7*ldc + 16, 1, 3), __builtin_prefetch(c + 7*ldc + 32, 1, 3), __builtin_prefetch(c + 7*ldc + 47, 1, 3);
#pragma GCC unroll 4
    for (int64_t p = 0; p < kb; p++) {
      const __m512 b0 = _mm512_load_ps(b + 0);
      const __m512 b1 = _mm512_load_ps(b + 16);
      const __m512 b2 = _mm512_load_ps(b + 32);
      const __m512 a0v = _mm512_set1_ps(*(a + 0));
      c0_0 = _mm512_fmadd_ps(a0v, b0, c0_0);
      c0_1 = _mm512_fmadd_ps(a0v, b1, c0_1);
      c0_2 = _mm512_fmadd_ps(a0v, b2, c0_2);
      const __m512 a1v = _mm512_set1_ps(*(a + 1));
      c1_0 = _mm512_fmadd_ps(a1v, b0, c1_0);
      c1_1 = _mm512_fmadd_ps(a1v, b1, c1_1);
      c1_2 = _mm512_fmadd_ps(a1v, b2, c1_2);
      const __m512 a2v = _mm512_set1_ps(*(a + 2));
      c2_0 = _mm512_fmadd_ps(a2v, b0, c2_0);
      c2_1 = _mm512_fmadd_ps(a2v, b1, c2_1);
      c2_2 = _mm512_fmadd_ps(a2v, b2, c2_2);
      const __m512 a3v = _mm512_set1_ps(*(a + 3));
      c3_0 = _mm512_fmadd_ps(a3v, b0, c3_0);
      c3_1 = _mm512_fmadd_ps(a3v, b1, c3_1);
      c3_2 = _mm512_fmadd_ps(a3v, b2, c3_2);
      const __m512 a4v = _mm512_set1_ps(*(a + 4));
      c4_0 = _mm512_fmadd_ps(a4v, b0, c4_0);
      c4_1 = _mm512_fmadd_ps(a4v, b1, c4_1);
      c4_2 = _mm512_fmadd_ps(a4v, b2, c4_2);
      const __m512 a5v = _mm512_set1_ps(*(a + 5));
      c5_0 = _mm512_fmadd_ps(a5v, b0, c5_0);
      c5_1 = _mm512_fmadd_ps(a5v, b1, c5_1);
      c5_2 = _mm512_fmadd_ps(a5v, b2, c5_2);
      const __m512 a6v = _mm512_set1_ps(*(a + 6));
      c6_0 = _mm512_fmadd_ps(a6v, b0, c6_0);
      c6_1 = _mm512_fmadd_ps(a6v, b1, c6_1);
      c6_2 = _mm512_fmadd_ps(a6v, b2, c6_2);
      const __m512 a7v = _mm512_set1_ps(*(a + 7));
      c7_0 = _mm512_fmadd_ps(a7v, b0, c7_0);
      c7_1 = _mm512_fmadd_ps(a7v, b1, c7_1);
      c7_2 = _mm512_fmadd_ps(a7v, b2, c7_2);
      a += 8;
      b += 48;
    }
  } else {
    const float *pk_row = c, *const pk_last = c + (rows - 1)*ldc;
    int64_t pk_next = pk_gap, p = 0;
    for (; p + 4 <= kb; p += 4) {
      __builtin_prefetch(pk_row + 0, 1, 3), __builtin_prefetch(pk_row + 16, 1, 3), __builtin_prefetch(pk_row + 32, 1, 3), __builtin_prefetch(pk_row + 47, 1, 3);
      const int pk_on = p + 4 > pk_next && pk_row < pk_last;
      pk_row = pk_on ? pk_row + ldc : pk_row;
      pk_next = pk_on ? pk_next + pk_gap : pk_next;
      {
        const __m512 b0 = _mm512_load_ps(b + 0);
        const __m512 b1 = _mm512_load_ps(b + 16);
        const __m512 b2 = _mm512_load_ps(b + 32);
        const __m512 a0v = _mm512_set1_ps(*(a + 0));
        c0_0 = _mm512_fmadd_ps(a0v, b0, c0_0);
        c0_1 = _mm512_fmadd_ps(a0v, b1, c0_1);
        c0_2 = _mm512_fmadd_ps(a0v, b2, c0_2);
        const __m512 a1v = _mm512_set1_ps(*(a + 1));
        c1_0 = _mm512_fmadd_ps(a1v, b0, c1_0);
        c1_1 = _mm512_fmadd_ps(a1v, b1, c1_1);
        c1_2 = _mm512_fmadd_ps(a1v, b2, c1_2);
        const __m512 a2v = _mm512_set1_ps(*(a + 2));
        c2_0 = _mm512_fmadd_ps(a2v, b0, c2_0);
        c2_1 = _mm512_fmadd_ps(a2v, b1, c2_1);
        c2_2 = _mm512_fmadd_ps(a2v, b2, c2_2);
        const __m512 a3v = _mm512_set1_ps(*(a + 3));
        c3_0 = _mm512_fmadd_ps(a3v, b0, c3_0);
        c3_1 = _mm512_fmadd_ps(a3v, b1, c3_1);
        c3_2 = _mm512_fmadd_ps(a3v, b2, c3_2);
        const __m512 a4v = _mm512_set1_ps(*(a + 4));
        c4_0 = _mm512_fmadd_ps(a4v, b0, c4_0);
        c4_1 = _mm512_fmadd_ps(a4v, b1, c4_1);
        c4_2 = _mm512_fmadd_ps(a4v, b2, c4_2);
        const __m512 a5v = _mm512_set1_ps(*(a + 5));
        c5_0 = _mm512_fmadd_ps(a5v, b0, c5_0);
        c5_1 = _mm512_fmadd_ps(a5v, b1, c5_1);
        c5_2 = _mm512_fmadd_ps(a5v, b2, c5_2);
        const __m512 a6v = _mm512_set1_ps(*(a + 6));
        c6_0 = _mm512_fmadd_ps(a6v, b0, c6_0);
        c6_1 = _mm512_fmadd_ps(a6v, b1, c6_1);
        c6_2 = _mm512_fmadd_ps(a6v, b2, c6_2);
        const __m512 a7v = _mm512_set1_ps(*(a + 7));
        c7_0 = _mm512_fmadd_ps(a7v, b0, c7_0);
        c7_1 = _mm512_fmadd_ps(a7v, b1, c7_1);
        c7_2 = _mm512_fmadd_ps(a7v, b2, c7_2);
      }
      {
        const __m512 b0 = _mm512_load_ps(b + 48);
        const __m512 b1 = _mm512_load_ps(b + 64);
        const __m512 b2 = _mm512_load_ps(b + 80);
        const __m512 a0v = _mm512_set1_ps(*(a + 8));
        c0_0 = _mm512_fmadd_ps(a0v, b0, c0_0);
        c0_1 = _mm512_fmadd_ps(a0v, b1, c0_1);
        c0_2 = _mm512_fmadd_ps(a0v, b2, c0_2);
        const __m512 a1v = _mm512_set1_ps(*(a + 9));
        c1_0 = _mm512_fmadd_ps(a1v, b0, c1_0);
        c1_1 = _mm512_fmadd_ps(a1v, b1, c1_1);
        c1_2 = _mm512_fmadd_ps(a1v, b2, c1_2);
        const __m512 a2v = _mm512_set1_ps(*(a + 10));
        c2_0 = _mm512_fmadd_ps(a2v, b0, c2_0);
        c2_1 = _mm512_fmadd_ps(a2v, b1, c2_1);
        c2_2 = _mm512_fmadd_ps(a2v, b2, c2_2);
        const __m512 a3v = _mm512_set1_ps(*(a + 11));
        c3_0 = _mm512_fmadd_ps(a3v, b0, c3_0);
        c3_1 = _mm512_fmadd_ps(a3v, b1, c3_1);
        c3_2 = _mm512_fmadd_ps(a3v, b2, c3_2);
        const __m512 a4v = _mm512_set1_ps(*(a + 12));
        c4_0 = _mm512_fmadd_ps(a4v, b0, c4_0);
        c4_1 = _mm512_fmadd_ps(a4v, b1, c4_1);
        c4_2 = _mm512_fmadd_ps(a4v, b2, c4_2);
        const __m512 a5v = _mm512_set1_ps(*(a + 13));
        c5_0 = _mm512_fmadd_ps(a5v, b0, c5_0);
        c5_1 = _mm512_fmadd_ps(a5v, b1, c5_1);
        c5_2 = _mm512_fmadd_ps(a5v, b2, c5_2);
        const __m512 a6v = _mm512_set1_ps(*(a + 14));
        c6_0 = _mm512_fmadd_ps(a6v, b0, c6_0);
        c6_1 = _mm512_fmadd_ps(a6v, b1, c6_1);
        c6_2 = _mm512_fmadd_ps(a6v, b2, c6_2);
        const __m512 a7v = _mm512_set1_ps(*(a + 15));
        c7_0 = _mm512_fmadd_ps(a7v, b0, c7_0);
        c7_1 = _mm512_fmadd_ps(a7v, b1, c7_1);
        c7_2 = _mm512_fmadd_ps(a7v, b2, c7_2);
      }
      {
        const __m512 b0 = _mm512_load_ps(b + 96);
        const __m512 b1 = _mm512_load_ps(b + 112);
        const __m512 b2 = _mm512_load_ps(b + 128);
        const __m512 a0v = _mm512_set1_ps(*(a + 16));
        c0_0 = _mm512_fmadd_ps(a0v, b0, c0_0);
        c0_1 = _mm512_fmadd_ps(a0v, b1, c0_1);
        c0_2 = _mm512_fmadd_ps(a0v, b2, c0_2);
        const __m512 a1v = _mm512_set1_ps(*(a + 17));
        c1_0 = _mm512_fmadd_ps(a1v, b0, c1_0);
        c1_1 = _mm512_fmadd_ps(a1v, b1, c1_1);
        c1_2 = _mm512_fmadd_ps(a1v, b2, c1_2);
        const __m512 a2v = _mm512_set1_ps(*(a + 18));
        c2_0 = _mm512_fmadd_ps(a2v, b0, c2_0);
        c2_1 = _mm512_fmadd_ps(a2v, b1, c2_1);
        c2_2 = _mm512_fmadd_ps(a2v, b2, c2_2);
        const __m512 a3v = _mm512_set1_ps(*(a + 19));
        c3_0 = _mm512_fmadd_ps(a3v, b0, c3_0);
        c3_1 = _mm512_fmadd_ps(a3v, b1, c3_1);
        c3_2 = _mm512_fmadd_ps(a3v, b2, c3_2);
        const __m512 a4v = _mm512_set1_ps(*(a + 20));
        c4_0 = _mm512_fmadd_ps(a4v, b0, c4_0);
        c4_1 = _mm512_fmadd_ps(a4v, b1, c4_1);
        c4_2 = _mm512_fmadd_ps(a4v, b2, c4_2);
        const __m512 a5v = _mm512_set1_ps(*(a + 21));
        c5_0 = _mm512_fmadd_ps(a5v, b0, c5_0);
        c5_1 = _mm512_fmadd_ps(a5v, b1, c5_1);
        c5_2 = _mm512_fmadd_ps(a5v, b2, c5_2);
        const __m512 a6v = _mm512_set1_ps(*(a + 22));
        c6_0 = _mm512_fmadd_ps(a6v, b0, c6_0);
        c6_1 = _mm512_fmadd_ps(a6v, b1, c6_1);
        c6_2 = _mm512_fmadd_ps(a6v, b2, c6_2);
        const __m512 a7v = _mm512_set1_ps(*(a + 23));
        c7_0 = _mm512_fmadd_ps(a7v, b0, c7_0);
        c7_1 = _mm512_fmadd_ps(a7v, b1, c7_1);
        c7_2 = _mm512_fmadd_ps(a7v, b2, c7_2);
      }
      {
        const __m512 b0 = _mm512_load_ps(b + 144);
        const __m512 b1 = _mm512_load_ps(b + 160);
        const __m512 b2 = _mm512_load_ps(b + 176);
        const __m512 a0v = _mm512_set1_ps(*(a + 24));
        c0_0 = _mm512_fmadd_ps(a0v, b0, c0_0);
        c0_1 = _mm512_fmadd_ps(a0v, b1, c0_1);
        c0_2 = _mm512_fmadd_ps(a0v, b2, c0_2);
        const __m512 a1v = _mm512_set1_ps(*(a + 25));
        c1_0 = _mm512_fmadd_ps(a1v, b0, c1_0);
        c1_1 = _mm512_fmadd_ps(a1v, b1, c1_1);
        c1_2 = _mm512_fmadd_ps(a1v, b2, c1_2);
        const __m512 a2v = _mm512_set1_ps(*(a + 26));
        c2_0 = _mm512_fmadd_ps(a2v, b0, c2_0);
        c2_1 = _mm512_fmadd_ps(a2v, b1, c2_1);
        c2_2 = _mm512_fmadd_ps(a2v, b2, c2_2);
        const __m512 a3v = _mm512_set1_ps(*(a + 27));
        c3_0 = _mm512_fmadd_ps(a3v, b0, c3_0);
        c3_1 = _mm512_fmadd_ps(a3v, b1, c3_1);
        c3_2 = _mm512_fmadd_ps(a3v, b2, c3_2);
        const __m512 a4v = _mm512_set1_ps(*(a + 28));
        c4_0 = _mm512_fmadd_ps(a4v, b0, c4_0);
        c4_1 = _mm512_fmadd_ps(a4v, b1, c4_1);
        c4_2 = _mm512_fmadd_ps(a4v, b2, c4_2);
        const __m512 a5v = _mm512_set1_ps(*(a + 29));
        c5_0 = _mm512_fmadd_ps(a5v, b0, c5_0);
        c5_1 = _mm512_fmadd_ps(a5v, b1, c5_1);
        c5_2 = _mm512_fmadd_ps(a5v, b2, c5_2);
        const __m512 a6v = _mm512_set1_ps(*(a + 30));
        c6_0 = _mm512_fmadd_ps(a6v, b0, c6_0);
        c6_1 = _mm512_fmadd_ps(a6v, b1, c6_1);
        c6_2 = _mm512_fmadd_ps(a6v, b2, c6_2);
        const __m512 a7v = _mm512_set1_ps(*(a + 31));
        c7_0 = _mm512_fmadd_ps(a7v, b0, c7_0);
        c7_1 = _mm512_fmadd_ps(a7v, b1, c7_1);
        c7_2 = _mm512_fmadd_ps(a7v, b2, c7_2);
      }
      a += 32;
      b += 192;
    }
    for (; p < kb; p++) {
      const __m512 b0 = _mm512_load_ps(b + 0);
      const __m512 b1 = _mm512_load_ps(b + 16);
      const __m512 b2 = _mm512_load_ps(b + 32);
      const __m512 a0v = _mm512_set1_ps(*(a + 0));
      c0_0 = _mm512_fmadd_ps(a0v, b0, c0_0);
      c0_1 = _mm512_fmadd_ps(a0v, b1, c0_1);
      c0_2 = _mm512_fmadd_ps(a0v, b2, c0_2);
      const __m512 a1v = _mm512_set1_ps(*(a + 1));
      c1_0 = _mm512_fmadd_ps(a1v, b0, c1_0);
      c1_1 = _mm512_fmadd_ps(a1v, b1, c1_1);
      c1_2 = _mm512_fmadd_ps(a1v, b2, c1_2);
      const __m512 a2v = _mm512_set1_ps(*(a + 2));
      c2_0 = _mm512_fmadd_ps(a2v, b0, c2_0);
      c2_1 = _mm512_fmadd_ps(a2v, b1, c2_1);
      c2_2 = _mm512_fmadd_ps(a2v, b2, c2_2);
      const __m512 a3v = _mm512_set1_ps(*(a + 3));
      c3_0 = _mm512_fmadd_ps(a3v, b0, c3_0);
      c3_1 = _mm512_fmadd_ps(a3v, b1, c3_1);
      c3_2 = _mm512_fmadd_ps(a3v, b2, c3_2);
      const __m512 a4v = _mm512_set1_ps(*(a + 4));
      c4_0 = _mm512_fmadd_ps(a4v, b0, c4_0);
      c4_1 = _mm512_fmadd_ps(a4v, b1, c4_1);
      c4_2 = _mm512_fmadd_ps(a4v, b2, c4_2);
      const __m512 a5v = _mm512_set1_ps(*(a + 5));
      c5_0 = _mm512_fmadd_ps(a5v, b0, c5_0);
      c5_1 = _mm512_fmadd_ps(a5v, b1, c5_1);
      c5_2 = _mm512_fmadd_ps(a5v, b2, c5_2);
      const __m512 a6v = _mm512_set1_ps(*(a + 6));
      c6_0 = _mm512_fmadd_ps(a6v, b0, c6_0);
      c6_1 = _mm512_fmadd_ps(a6v, b1, c6_1);
      c6_2 = _mm512_fmadd_ps(a6v, b2, c6_2);
      const __m512 a7v = _mm512_set1_ps(*(a + 7));
      c7_0 = _mm512_fmadd_ps(a7v, b0, c7_0);
      c7_1 = _mm512_fmadd_ps(a7v, b1, c7_1);
      c7_2 = _mm512_fmadd_ps(a7v, b2, c7_2);
      a += 8;
      b += 48;
    }
  }
  if (rows == 8 && cols == 48) {
    if (!store) {
      c0_0 = _mm512_add_ps(_mm512_loadu_ps(c + 0*ldc + 0), c0_0);
      c0_1 = _mm512_add_ps(_mm512_loadu_ps(c + 0*ldc + 16), c0_1);
      c0_2 = _mm512_add_ps(_mm512_loadu_ps(c + 0*ldc + 32), c0_2);
      c1_0 = _mm512_add_ps(_mm512_loadu_ps(c + 1*ldc + 0), c1_0);
      c1_1 = _mm512_add_ps(_mm512_loadu_ps(c + 1*ldc + 16), c1_1);
      c1_2 = _mm512_add_ps(_mm512_loadu_ps(c + 1*ldc + 32), c1_2);
      c2_0 = _mm512_add_ps(_mm512_loadu_ps(c + 2*ldc + 0), c2_0);
      c2_1 = _mm512_add_ps(_mm512_loadu_ps(c + 2*ldc + 16), c2_1);
      c2_2 = _mm512_add_ps(_mm512_loadu_ps(c + 2*ldc + 32), c2_2);
      c3_0 = _mm512_add_ps(_mm512_loadu_ps(c + 3*ldc + 0), c3_0);
      c3_1 = _mm512_add_ps(_mm512_loadu_ps(c + 3*ldc + 16), c3_1);
      c3_2 = _mm512_add_ps(_mm512_loadu_ps(c + 3*ldc + 32), c3_2);
      c4_0 = _mm512_add_ps(_mm512_loadu_ps(c + 4*ldc + 0), c4_0);
      c4_1 = _mm512_add_ps(_mm512_loadu_ps(c + 4*ldc + 16), c4_1);
      c4_2 = _mm512_add_ps(_mm512_loadu_ps(c + 4*ldc + 32), c4_2);
      c5_0 = _mm512_add_ps(_mm512_loadu_ps(c + 5*ldc + 0), c5_0);
      c5_1 = _mm512_add_ps(_mm512_loadu_ps(c + 5*ldc + 16), c5_1);
      c5_2 = _mm512_add_ps(_mm512_loadu_ps(c + 5*ldc + 32), c5_2);
      c6_0 = _mm512_add_ps(_mm512_loadu_ps(c + 6*ldc + 0), c6_0);
      c6_1 = _mm512_add_ps(_mm512_loadu_ps(c + 6*ldc + 16), c6_1);
      c6_2 = _mm512_add_ps(_mm512_loadu_ps(c + 6*ldc + 32), c6_2);
      c7_0 = _mm512_add_ps(_mm512_loadu_ps(c + 7*ldc + 0), c7_0);
      c7_1 = _mm512_add_ps(_mm512_loadu_ps(c + 7*ldc + 16), c7_1);
      c7_2 = _mm512_add_ps(_mm512_loadu_ps(c + 7*ldc + 32), c7_2);
    }
    _mm512_storeu_ps(c + 0*ldc + 0, c0_0);
    _mm512_storeu_ps(c + 0*ldc + 16, c0_1);
    _mm512_storeu_ps(c + 0*ldc + 32, c0_2);
    _mm512_storeu_ps(c + 1*ldc + 0, c1_0);
    _mm512_storeu_ps(c + 1*ldc + 16, c1_1);
    _mm512_storeu_ps(c + 1*ldc + 32, c1_2);
    _mm512_storeu_ps(c + 2*ldc + 0, c2_0);
    _mm512_storeu_ps(c + 2*ldc + 16, c2_1);
    _mm512_storeu_ps(c + 2*ldc + 32, c2_2);
    _mm512_storeu_ps(c + 3*ldc + 0, c3_0);
    _mm512_storeu_ps(c + 3*ldc + 16, c3_1);
    _mm512_storeu_ps(c + 3*ldc + 32, c3_2);
    _mm512_storeu_ps(c + 4*ldc + 0, c4_0);
    _mm512_storeu_ps(c + 4*ldc + 16, c4_1);
    _mm512_storeu_ps(c + 4*ldc + 32, c4_2);
    _mm512_storeu_ps(c + 5*ldc + 0, c5_0);
    _mm512_storeu_ps(c + 5*ldc + 16, c5_1);
    _mm512_storeu_ps(c + 5*ldc + 32, c5_2);
    _mm512_storeu_ps(c + 6*ldc + 0, c6_0);
    _mm512_storeu_ps(c + 6*ldc + 16, c6_1);
    _mm512_storeu_ps(c + 6*ldc + 32, c6_2);
    _mm512_storeu_ps(c + 7*ldc + 0, c7_0);
    _mm512_storeu_ps(c + 7*ldc + 16, c7_1);
    _mm512_storeu_ps(c + 7*ldc + 32, c7_2);
    return;
  }
  const __mmask16 m0 = (__mmask16)((1u << (pk_edge_lanes(cols, 0, 16))) - 1u);
  const __mmask16 m1 = (__mmask16)((1u << (pk_edge_lanes(cols, 16, 16))) - 1u);
  const __mmask16 m2 = (__mmask16)((1u << (pk_edge_lanes(cols, 32, 16))) - 1u);
  _mm512_mask_storeu_ps(c + 0*ldc + 0, m0, store ? c0_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 0*ldc + 0), c0_0));
  _mm512_mask_storeu_ps(c + 0*ldc + 16, m1, store ? c0_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 0*ldc + 16), c0_1));
  _mm512_mask_storeu_ps(c + 0*ldc + 32, m2, store ? c0_2 : _mm512_add_ps(_mm512_maskz_loadu_ps(m2, c + 0*ldc + 32), c0_2));
  if (rows == 1) return;
  _mm512_mask_storeu_ps(c + 1*ldc + 0, m0, store ? c1_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 1*ldc + 0), c1_0));
  _mm512_mask_storeu_ps(c + 1*ldc + 16, m1, store ? c1_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 1*ldc + 16), c1_1));
  _mm512_mask_storeu_ps(c + 1*ldc + 32, m2, store ? c1_2 : _mm512_add_ps(_mm512_maskz_loadu_ps(m2, c + 1*ldc + 32), c1_2));
  if (rows == 2) return;
  _mm512_mask_storeu_ps(c + 2*ldc + 0, m0, store ? c2_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 2*ldc + 0), c2_0));
  _mm512_mask_storeu_ps(c + 2*ldc + 16, m1, store ? c2_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 2*ldc + 16), c2_1));
  _mm512_mask_storeu_ps(c + 2*ldc + 32, m2, store ? c2_2 : _mm512_add_ps(_mm512_maskz_loadu_ps(m2, c + 2*ldc + 32), c2_2));
  if (rows == 3) return;
  _mm512_mask_storeu_ps(c + 3*ldc + 0, m0, store ? c3_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 3*ldc + 0), c3_0));
  _mm512_mask_storeu_ps(c + 3*ldc + 16, m1, store ? c3_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 3*ldc + 16), c3_1));
  _mm512_mask_storeu_ps(c + 3*ldc + 32, m2, store ? c3_2 : _mm512_add_ps(_mm512_maskz_loadu_ps(m2, c + 3*ldc + 32), c3_2));
  if (rows == 4) return;
  _mm512_mask_storeu_ps(c + 4*ldc + 0, m0, store ? c4_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 4*ldc + 0), c4_0));
  _mm512_mask_storeu_ps(c + 4*ldc + 16, m1, store ? c4_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 4*ldc + 16), c4_1));
  _mm512_mask_storeu_ps(c + 4*ldc + 32, m2, store ? c4_2 : _mm512_add_ps(_mm512_maskz_loadu_ps(m2, c + 4*ldc + 32), c4_2));
  if (rows == 5) return;
  _mm512_mask_storeu_ps(c + 5*ldc + 0, m0, store ? c5_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 5*ldc + 0), c5_0));
  _mm512_mask_storeu_ps(c + 5*ldc + 16, m1, store ? c5_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 5*ldc + 16), c5_1));
  _mm512_mask_storeu_ps(c + 5*ldc + 32, m2, store ? c5_2 : _mm512_add_ps(_mm512_maskz_loadu_ps(m2, c + 5*ldc + 32), c5_2));
  if (rows == 6) return;
  _mm512_mask_storeu_ps(c + 6*ldc + 0, m0, store ? c6_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 6*ldc + 0), c6_0));
  _mm512_mask_storeu_ps(c + 6*ldc + 16, m1, store ? c6_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 6*ldc + 16), c6_1));
  _mm512_mask_storeu_ps(c + 6*ldc + 32, m2, store ? c6_2 : _mm512_add_ps(_mm512_maskz_loadu_ps(m2, c + 6*ldc + 32), c6_2));
  if (rows == 7) return;
  _mm512_mask_storeu_ps(c + 7*ldc + 0, m0, store ? c7_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 7*ldc + 0), c7_0));
  _mm512_mask_storeu_ps(c + 7*ldc + 16, m1, store ? c7_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 7*ldc + 16), c7_1));
  _mm512_mask_storeu_ps(c + 7*ldc + 32, m2, store ? c7_2 : _mm512_add_ps(_mm512_maskz_loadu_ps(m2, c + 7*ldc + 32), c7_2));
}

static inline void pk_ukr_gemm_f32_avx512_8x48_pp_8x2(int64_t kb, const float *restrict a, int64_t lda,
    const float *restrict b, int64_t ldb, float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store) {
  (void)lda;
  (void)ldb;
  __m512 c0_0 = _mm512_setzero_ps(), c0_1 = _mm512_setzero_ps();
  __m512 c1_0 = _mm512_setzero_ps(), c1_1 = _mm512_setzero_ps();
  __m512 c2_0 = _mm512_setzero_ps(), c2_1 = _mm512_setzero_ps();
  __m512 c3_0 = _mm512_setzero_ps(), c3_1 = _mm512_setzero_ps();
  __m512 c4_0 = _mm512_setzero_ps(), c4_1 = _mm512_setzero_ps();
  __m512 c5_0 = _mm512_setzero_ps(), c5_1 = _mm512_setzero_ps();
  __m512 c6_0 = _mm512_setzero_ps(), c6_1 = _mm512_setzero_ps();
  __m512 c7_0 = _mm512_setzero_ps(), c7_1 = _mm512_setzero_ps();
  const int64_t pk_gap = kb / 16;
  if (pk_gap < 4) {
    __builtin_prefetch(c + 0*ldc + 0, 1, 3), __builtin_prefetch(c + 0*ldc + 16, 1, 3), __builtin_prefetch(c + 0*ldc + 31, 1, 3);
    __builtin_prefetch(c + 1*ldc + 0, 1, 3), __builtin_prefetch(c + 1*ldc + 16, 1, 3), __builtin_prefetch(c + 1*ldc + 31, 1, 3);
    __builtin_prefetch(c + 2*ldc + 0, 1, 3), __builtin_prefetch(c + 2*ldc + 16, 1, 3), __builtin_prefetch(c + 2*ldc + 31, 1, 3);
    __builtin_prefetch(c + 3*ldc + 0, 1, 3), __builtin_prefetch(c + 3*ldc + 16, 1, 3), __builtin_prefetch(c + 3*ldc + 31, 1, 3);
    __builtin_prefetch(c + 4*ldc + 0, 1, 3), __builtin_prefetch(c + 4*ldc + 16, 1, 3), __builtin_prefetch(c + 4*ldc + 31, 1, 3);
    __builtin_prefetch(c + 5*ldc + 0, 1, 3), __builtin_prefetch(c + 5*ldc + 16, 1, 3), __builtin_prefetch(c + 5*ldc + 31, 1, 3);
    __builtin_prefetch(c + 6*ldc + 0, 1, 3), __builtin_prefetch(c + 6*ldc + 16, 1, 3), __builtin_prefetch(c + 6*ldc + 31, 1, 3);
    __builtin_prefetch(c + 7*ldc + 0, 1, 3), __builtin_prefetch(c + 7*ldc + 16, 1, 3), __builtin_prefetch(c + 7*ldc + 31, 1, 3);
#pragma GCC unroll 4
    for (int64_t p = 0; p < kb; p++) {
      const __m512 b0 = _mm512_load_ps(b + 0);
      const __m512 b1 = _mm512_load_ps(b + 16);
      const __m512 a0v = _mm512_set1_ps(*(a + 0));
      c0_0 = _mm512_fmadd_ps(a0v, b0, c0_0);
      c0_1 = _mm512_fmadd_ps(a0v, b1, c0_1);
      const __m512 a1v = _mm512_set1_ps(*(a + 1));
      c1_0 = _mm512_fmadd_ps(a1v, b0, c1_0);
      c1_1 = _mm512_fmadd_ps(a1v, b1, c1_1);
      const __m512 a2v = _mm512_set1_ps(*(a + 2));
      c2_0 = _mm512_fmadd_ps(a2v, b0, c2_0);
      c2_1 = _mm512_fmadd_ps(a2v, b1, c2_1);
      const __m512 a3v = _mm512_set1_ps(*(a + 3));
      c3_0 = _mm512_fmadd_ps(a3v, b0, c3_0);
      c3_1 = _mm512_fmadd_ps(a3v, b1, c3_1);
      const __m512 a4v = _mm512_set1_ps(*(a + 4));
      c4_0 = _mm512_fmadd_ps(a4v, b0, c4_0);
      c4_1 = _mm512_fmadd_ps(a4v, b1, c4_1);
      const __m512 a5v = _mm512_set1_ps(*(a + 5));
      c5_0 = _mm512_fmadd_ps(a5v, b0, c5_0);
      c5_1 = _mm512_fmadd_ps(a5v, b1, c5_1);
      const __m512 a6v = _mm512_set1_ps(*(a + 6));
      c6_0 = _mm512_fmadd_ps(a6v, b0, c6_0);
      c6_1 = _mm512_fmadd_ps(a6v, b1, c6_1);
      const __m512 a7v = _mm512_set1_ps(*(a + 7));
      c7_0 = _mm512_fmadd_ps(a7v, b0, c7_0);
      c7_1 = _mm512_fmadd_ps(a7v, b1, c7_1);
      a += 8;
      b += 48;
    }
  } else {
    const float *pk_row = c, *const pk_last = c + (rows - 1)*ldc;
    int64_t pk_next = pk_gap, p = 0;
    for (; p + 4 <= kb; p += 4) {
      __builtin_prefetch(pk_row + 0, 1, 3), __builtin_prefetch(pk_row + 16, 1, 3), __builtin_prefetch(pk_row + 31, 1, 3);
      const int pk_on = p + 4 > pk_next && pk_row < pk_last;
      pk_row = pk_on ? pk_row + ldc : pk_row;
      pk_next = pk_on ? pk_next + pk_gap : pk_next;
      {
        const __m512 b0 = _mm512_load_ps(b + 0);
        const __m512 b1 = _mm512_load_ps(b + 16);
        const __m512 a0v = _mm512_set1_ps(*(a + 0));
        c0_0 = _mm512_fmadd_ps(a0v, b0, c0_0);
        c0_1 = _mm512_fmadd_ps(a0v, b1, c0_1);
        const __m512 a1v = _mm512_set1_ps(*(a + 1));
        c1_0 = _mm512_fmadd_ps(a1v, b0, c1_0);
        c1_1 = _mm512_fmadd_ps(a1v, b1, c1_1);
        const __m512 a2v = _mm512_set1_ps(*(a + 2));
        c2_0 = _mm512_fmadd_ps(a2v, b0, c2_0);
        c2_1 = _mm512_fmadd_ps(a2v, b1, c2_1);
        const __m512 a3v = _mm512_set1_ps(*(a + 3));
        c3_0 = _mm512_fmadd_ps(a3v, b0, c3_0);
        c3_1 = _mm512_fmadd_ps(a3v, b1, c3_1);
        const __m512 a4v = _mm512_set1_ps(*(a + 4));
        c4_0 = _mm512_fmadd_ps(a4v, b0, c4_0);
        c4_1 = _mm512_fmadd_ps(a4v, b1, c4_1);
        const __m512 a5v = _mm512_set1_ps(*(a + 5));
        c5_0 = _mm512_fmadd_ps(a5v, b0, c5_0);
        c5_1 = _mm512_fmadd_ps(a5v, b1, c5_1);
        const __m512 a6v = _mm512_set1_ps(*(a + 6));
        c6_0 = _mm512_fmadd_ps(a6v, b0, c6_0);
        c6_1 = _mm512_fmadd_ps(a6v, b1, c6_1);
        const __m512 a7v = _mm512_set1_ps(*(a + 7));
        c7_0 = _mm512_fmadd_ps(a7v, b0, c7_0);
        c7_1 = _mm512_fmadd_ps(a7v, b1, c7_1);
      }
      {
        const __m512 b0 = _mm512_load_ps(b + 48);
        const __m512 b1 = _mm512_load_ps(b + 64);
        const __m512 a0v = _mm512_set1_ps(*(a + 8));
        c0_0 = _mm512_fmadd_ps(a0v, b0, c0_0);
        c0_1 = _mm512_fmadd_ps(a0v, b1, c0_1);
        const __m512 a1v = _mm512_set1_ps(*(a + 9));
        c1_0 = _mm512_fmadd_ps(a1v, b0, c1_0);
        c1_1 = _mm512_fmadd_ps(a1v, b1, c1_1);
        const __m512 a2v = _mm512_set1_ps(*(a + 10));
        c2_0 = _mm512_fmadd_ps(a2v, b0, c2_0);
        c2_1 = _mm512_fmadd_ps(a2v, b1, c2_1);
        const __m512 a3v = _mm512_set1_ps(*(a + 11));
        c3_0 = _mm512_fmadd_ps(a3v, b0, c3_0);
        c3_1 = _mm512_fmadd_ps(a3v, b1, c3_1);
        const __m512 a4v = _mm512_set1_ps(*(a + 12));
        c4_0 = _mm512_fmadd_ps(a4v, b0, c4_0);
        c4_1 = _mm512_fmadd_ps(a4v, b1, c4_1);
        const __m512 a5v = _mm512_set1_ps(*(a + 13));
        c5_0 = _mm512_fmadd_ps(a5v, b0, c5_0);
        c5_1 = _mm512_fmadd_ps(a5v, b1, c5_1);
        const __m512 a6v = _mm512_set1_ps(*(a + 14));
        c6_0 = _mm512_fmadd_ps(a6v, b0, c6_0);
        c6_1 = _mm512_fmadd_ps(a6v, b1, c6_1);
        const __m512 a7v = _mm512_set1_ps(*(a + 15));
        c7_0 = _mm512_fmadd_ps(a7v, b0, c7_0);
        c7_1 = _mm512_fmadd_ps(a7v, b1, c7_1);
      }
      {
        const __m512 b0 = _mm512_load_ps(b + 96);
        const __m512 b1 = _mm512_load_ps(b + 112);
        const __m512 a0v = _mm512_set1_ps(*(a + 16));
        c0_0 = _mm512_fmadd_ps(a0v, b0, c0_0);
        c0_1 = _mm512_fmadd_ps(a0v, b1, c0_1);
        const __m512 a1v = _mm512_set1_ps(*(a + 17));
        c1_0 = _mm512_fmadd_ps(a1v, b0, c1_0);
        c1_1 = _mm512_fmadd_ps(a1v, b1, c1_1);
        const __m512 a2v = _mm512_set1_ps(*(a + 18));
        c2_0 = _mm512_fmadd_ps(a2v, b0, c2_0);
        c2_1 = _mm512_fmadd_ps(a2v, b1, c2_1);
        const __m512 a3v = _mm512_set1_ps(*(a + 19));
        c3_0 = _mm512_fmadd_ps(a3v, b0, c3_0);
        c3_1 = _mm512_fmadd_ps(a3v, b1, c3_1);
        const __m512 a4v = _mm512_set1_ps(*(a + 20));
        c4_0 = _mm512_fmadd_ps(a4v, b0, c4_0);
        c4_1 = _mm512_fmadd_ps(a4v, b1, c4_1);
        const __m512 a5v = _mm512_set1_ps(*(a + 21));
        c5_0 = _mm512_fmadd_ps(a5v, b0, c5_0);
        c5_1 = _mm512_fmadd_ps(a5v, b1, c5_1);
        const __m512 a6v = _mm512_set1_ps(*(a + 22));
        c6_0 = _mm512_fmadd_ps(a6v, b0, c6_0);
        c6_1 = _mm512_fmadd_ps(a6v, b1, c6_1);
        const __m512 a7v = _mm512_set1_ps(*(a + 23));
        c7_0 = _mm512_fmadd_ps(a7v, b0, c7_0);
        c7_1 = _mm512_fmadd_ps(a7v, b1, c7_1);
      }
      {
        const __m512 b0 = _mm512_load_ps(b + 144);
        const __m512 b1 = _mm512_load_ps(b + 160);
        const __m512 a0v = _mm512_set1_ps(*(a + 24));
        c0_0 = _mm512_fmadd_ps(a0v, b0, c0_0);
        c0_1 = _mm512_fmadd_ps(a0v, b1, c0_1);
        const __m512 a1v = _mm512_set1_ps(*(a + 25));
        c1_0 = _mm512_fmadd_ps(a1v, b0, c1_0);
        c1_1 = _mm512_fmadd_ps(a1v, b1, c1_1);
        const __m512 a2v = _mm512_set1_ps(*(a + 26));
        c2_0 = _mm512_fmadd_ps(a2v, b0, c2_0);
        c2_1 = _mm512_fmadd_ps(a2v, b1, c2_1);
        const __m512 a3v = _mm512_set1_ps(*(a + 27));
        c3_0 = _mm512_fmadd_ps(a3v, b0, c3_0);
        c3_1 = _mm512_fmadd_ps(a3v, b1, c3_1);
        const __m512 a4v = _mm512_set1_ps(*(a + 28));
        c4_0 = _mm512_fmadd_ps(a4v, b0, c4_0);
        c4_1 = _mm512_fmadd_ps(a4v, b1, c4_1);
        const __m512 a5v = _mm512_set1_ps(*(a + 29));
        c5_0 = _mm512_fmadd_ps(a5v, b0, c5_0);
        c5_1 = _mm512_fmadd_ps(a5v, b1, c5_1);
        const __m512 a6v = _mm512_set1_ps(*(a + 30));
        c6_0 = _mm512_fmadd_ps(a6v, b0, c6_0);
        c6_1 = _mm512_fmadd_ps(a6v, b1, c6_1);
        const __m512 a7v = _mm512_set1_ps(*(a + 31));
        c7_0 = _mm512_fmadd_ps(a7v, b0, c7_0);
        c7_1 = _mm512_fmadd_ps(a7v, b1, c7_1);
      }
      a += 32;
      b += 192;
    }
    for (; p < kb; p++) {
      const __m512 b0 = _mm512_load_ps(b + 0);
      const __m512 b1 = _mm512_load_ps(b + 16);
      const __m512 a0v = _mm512_set1_ps(*(a + 0));
      c0_0 = _mm512_fmadd_ps(a0v, b0, c0_0);
      c0_1 = _mm512_fmadd_ps(a0v, b1, c0_1);
      const __m512 a1v = _mm512_set1_ps(*(a + 1));
      c1_0 = _mm512_fmadd_ps(a1v, b0, c1_0);
      c1_1 = _mm512_fmadd_ps(a1v, b1, c1_1);
      const __m512 a2v = _mm512_set1_ps(*(a + 2));
      c2_0 = _mm512_fmadd_ps(a2v, b0, c2_0);
      c2_1 = _mm512_fmadd_ps(a2v, b1, c2_1);
      const __m512 a3v = _mm512_set1_ps(*(a + 3));
      c3_0 = _mm512_fmadd_ps(a3v, b0, c3_0);
      c3_1 = _mm512_fmadd_ps(a3v, b1, c3_1);
      const __m512 a4v = _mm512_set1_ps(*(a + 4));
      c4_0 = _mm512_fmadd_ps(a4v, b0, c4_0);
      c4_1 = _mm512_fmadd_ps(a4v, b1, c4_1);
      const __m512 a5v = _mm512_set1_ps(*(a + 5));
      c5_0 = _mm512_fmadd_ps(a5v, b0, c5_0);
      c5_1 = _mm512_fmadd_ps(a5v, b1, c5_1);
      const __m512 a6v = _mm512_set1_ps(*(a + 6));
      c6_0 = _mm512_fmadd_ps(a6v, b0, c6_0);
      c6_1 = _mm512_fmadd_ps(a6v, b1, c6_1);
      const __m512 a7v = _mm512_set1_ps(*(a + 7));
      c7_0 = _mm512_fmadd_ps(a7v, b0, c7_0);
      c7_1 = _mm512_fmadd_ps(a7v, b1, c7_1);
      a += 8;
      b += 48;
    }
  }
  if (rows == 8 && cols == 32) {
    if (!store) {
      c0_0 = _mm512_add_ps(_mm512_loadu_ps(c + 0*ldc + 0), c0_0);
      c0_1 = _mm512_add_ps(_mm512_loadu_ps(c + 0*ldc + 16), c0_1);
      c1_0 = _mm512_add_ps(_mm512_loadu_ps(c + 1*ldc + 0), c1_0);
      c1_1 = _mm512_add_ps(_mm512_loadu_ps(c + 1*ldc + 16), c1_1);
      c2_0 = _mm512_add_ps(_mm512_loadu_ps(c + 2*ldc + 0), c2_0);
      c2_1 = _mm512_add_ps(_mm512_loadu_ps(c + 2*ldc + 16), c2_1);
      c3_0 = _mm512_add_ps(_mm512_loadu_ps(c + 3*ldc + 0), c3_0);
      c3_1 = _mm512_add_ps(_mm512_loadu_ps(c + 3*ldc + 16), c3_1);
      c4_0 = _mm512_add_ps(_mm512_loadu_ps(c + 4*ldc + 0), c4_0);
      c4_1 = _mm512_add_ps(_mm512_loadu_ps(c + 4*ldc + 16), c4_1);
      c5_0 = _mm512_add_ps(_mm512_loadu_ps(c + 5*ldc + 0), c5_0);
      c5_1 = _mm512_add_ps(_mm512_loadu_ps(c + 5*ldc + 16), c5_1);
      c6_0 = _mm512_add_ps(_mm512_loadu_ps(c + 6*ldc + 0), c6_0);
      c6_1 = _mm512_add_ps(_mm512_loadu_ps(c + 6*ldc + 16), c6_1);
      c7_0 = _mm512_add_ps(_mm512_loadu_ps(c + 7*ldc + 0), c7_0);
      c7_1 = _mm512_add_ps(_mm512_loadu_ps(c + 7*ldc + 16), c7_1);
    }
    _mm512_storeu_ps(c + 0*ldc + 0, c0_0);
    _mm512_storeu_ps(c + 0*ldc + 16, c0_1);
    _mm512_storeu_ps(c + 1*ldc + 0, c1_0);
    _mm512_storeu_ps(c + 1*ldc + 16, c1_1);
    _mm512_storeu_ps(c + 2*ldc + 0, c2_0);
    _mm512_storeu_ps(c + 2*ldc + 16, c2_1);
    _mm512_storeu_ps(c + 3*ldc + 0, c3_0);
    _mm512_storeu_ps(c + 3*ldc + 16, c3_1);
    _mm512_storeu_ps(c + 4*ldc + 0, c4_0);
    _mm512_storeu_ps(c + 4*ldc + 16, c4_1);
    _mm512_storeu_ps(c + 5*ldc + 0, c5_0);
    _mm512_storeu_ps(c + 5*ldc + 16, c5_1);
    _mm512_storeu_ps(c + 6*ldc + 0, c6_0);
    _mm512_storeu_ps(c + 6*ldc + 16, c6_1);
    _mm512_storeu_ps(c + 7*ldc + 0, c7_0);
    _mm512_storeu_ps(c + 7*ldc + 16, c7_1);
    return;
  }
  const __mmask16 m0 = (__mmask16)((1u << (pk_edge_lanes(cols, 0, 16))) - 1u);
  const __mmask16 m1 = (__mmask16)((1u << (pk_edge_lanes(cols, 16, 16))) - 1u);
  _mm512_mask_storeu_ps(c + 0*ldc + 0, m0, store ? c0_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 0*ldc + 0), c0_0));
  _mm512_mask_storeu_ps(c + 0*ldc + 16, m1, store ? c0_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 0*ldc + 16), c0_1));
  if (rows == 1) return;
  _mm512_mask_storeu_ps(c + 1*ldc + 0, m0, store ? c1_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 1*ldc + 0), c1_0));
  _mm512_mask_storeu_ps(c + 1*ldc + 16, m1, store ? c1_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 1*ldc + 16), c1_1));
  if (rows == 2) return;
  _mm512_mask_storeu_ps(c + 2*ldc + 0, m0, store ? c2_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 2*ldc + 0), c2_0));
  _mm512_mask_storeu_ps(c + 2*ldc + 16, m1, store ? c2_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 2*ldc + 16), c2_1));
  if (rows == 3) return;
  _mm512_mask_storeu_ps(c + 3*ldc + 0, m0, store ? c3_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 3*ldc + 0), c3_0));
  _mm512_mask_storeu_ps(c + 3*ldc + 16, m1, store ? c3_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 3*ldc + 16), c3_1));
  if (rows == 4) return;
  _mm512_mask_storeu_ps(c + 4*ldc + 0, m0, store ? c4_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 4*ldc + 0), c4_0));
  _mm512_mask_storeu_ps(c + 4*ldc + 16, m1, store ? c4_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 4*ldc + 16), c4_1));
  if (rows == 5) return;
  _mm512_mask_storeu_ps(c + 5*ldc + 0, m0, store ? c5_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 5*ldc + 0), c5_0));
  _mm512_mask_storeu_ps(c + 5*ldc + 16, m1, store ? c5_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 5*ldc + 16), c5_1));
  if (rows == 6) return;
  _mm512_mask_storeu_ps(c + 6*ldc + 0, m0, store ? c6_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 6*ldc + 0), c6_0));
  _mm512_mask_storeu_ps(c + 6*ldc + 16, m1, store ? c6_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 6*ldc + 16), c6_1));
  if (rows == 7) return;
  _mm512_mask_storeu_ps(c + 7*ldc + 0, m0, store ? c7_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 7*ldc + 0), c7_0));
  _mm512_mask_storeu_ps(c + 7*ldc + 16, m1, store ? c7_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 7*ldc + 16), c7_1));
}

static inline void pk_ukr_gemm_f32_avx512_8x48_pp_8x1(int64_t kb, const float *restrict a, int64_t lda,
    const float *restrict b, int64_t ldb, float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store) {
  (void)lda;
  (void)ldb;
  __m512 c0_0 = _mm512_setzero_ps();
  __m512 c1_0 = _mm512_setzero_ps();
  __m512 c2_0 = _mm512_setzero_ps();
  __m512 c3_0 = _mm512_setzero_ps();
  __m512 c4_0 = _mm512_setzero_ps();
  __m512 c5_0 = _mm512_setzero_ps();
  __m512 c6_0 = _mm512_setzero_ps();
  __m512 c7_0 = _mm512_setzero_ps();
  __builtin_prefetch(c + 0*ldc + 0, 1, 3), __builtin_prefetch(c + 0*ldc + 15, 1, 3);
  __builtin_prefetch(c + 1*ldc + 0, 1, 3), __builtin_prefetch(c + 1*ldc + 15, 1, 3);
  __builtin_prefetch(c + 2*ldc + 0, 1, 3), __builtin_prefetch(c + 2*ldc + 15, 1, 3);
  __builtin_prefetch(c + 3*ldc + 0, 1, 3), __builtin_prefetch(c + 3*ldc + 15, 1, 3);
  __builtin_prefetch(c + 4*ldc + 0, 1, 3), __builtin_prefetch(c + 4*ldc + 15, 1, 3);
  __builtin_prefetch(c + 5*ldc + 0, 1, 3), __builtin_prefetch(c + 5*ldc + 15, 1, 3);
  __builtin_prefetch(c + 6*ldc + 0, 1, 3), __builtin_prefetch(c + 6*ldc + 15, 1, 3);
  __builtin_prefetch(c + 7*ldc + 0, 1, 3), __builtin_prefetch(c + 7*ldc + 15, 1, 3);
#pragma GCC unroll 4
  for (int64_t p = 0; p < kb; p++) {
    const __m512 b0 = _mm512_load_ps(b + 0);
    const __m512 a0v = _mm512_set1_ps(*(a + 0));
    c0_0 = _mm512_fmadd_ps(a0v, b0, c0_0);
    const __m512 a1v = _mm512_set1_ps(*(a + 1));
    c1_0 = _mm512_fmadd_ps(a1v, b0, c1_0);
    const __m512 a2v = _mm512_set1_ps(*(a + 2));
    c2_0 = _mm512_fmadd_ps(a2v, b0, c2_0);
    const __m512 a3v = _mm512_set1_ps(*(a + 3));
    c3_0 = _mm512_fmadd_ps(a3v, b0, c3_0);
    const __m512 a4v = _mm512_set1_ps(*(a + 4));
    c4_0 = _mm512_fmadd_ps(a4v, b0, c4_0);
    const __m512 a5v = _mm512_set1_ps(*(a + 5));
    c5_0 = _mm512_fmadd_ps(a5v, b0, c5_0);
    const __m512 a6v = _mm512_set1_ps(*(a + 6));
    c6_0 = _mm512_fmadd_ps(a6v, b0, c6_0);
    const __m512 a7v = _mm512_set1_ps(*(a + 7));
    c7_0 = _mm512_fmadd_ps(a7v, b0, c7_0);
    a += 8;
    b += 48;
  }
  if (rows == 8 && cols == 16) {
    if (!store) {
      c0_0 = _mm512_add_ps(_mm512_loadu_ps(c + 0*ldc + 0), c0_0);
      c1_0 = _mm512_add_ps(_mm512_loadu_ps(c + 1*ldc + 0), c1_0);
      c2_0 = _mm512_add_ps(_mm512_loadu_ps(c + 2*ldc + 0), c2_0);
      c3_0 = _mm512_add_ps(_mm512_loadu_ps(c + 3*ldc + 0), c3_0);
      c4_0 = _mm512_add_ps(_mm512_loadu_ps(c + 4*ldc + 0), c4_0);
      c5_0 = _mm512_add_ps(_mm512_loadu_ps(c + 5*ldc + 0), c5_0);
      c6_0 = _mm512_add_ps(_mm512_loadu_ps(c + 6*ldc + 0), c6_0);
      c7_0 = _mm512_add_ps(_mm512_loadu_ps(c + 7*ldc + 0), c7_0);
    }
    _mm512_storeu_ps(c + 0*ldc + 0, c0_0);
    _mm512_storeu_ps(c + 1*ldc + 0, c1_0);
    _mm512_storeu_ps(c + 2*ldc + 0, c2_0);
    _mm512_storeu_ps(c + 3*ldc + 0, c3_0);
    _mm512_storeu_ps(c + 4*ldc + 0, c4_0);
    _mm512_storeu_ps(c + 5*ldc + 0, c5_0);
    _mm512_storeu_ps(c + 6*ldc + 0, c6_0);
    _mm512_storeu_ps(c + 7*ldc + 0, c7_0);
    return;
  }
  const __mmask16 m0 = (__mmask16)((1u << (pk_edge_lanes(cols, 0, 16))) - 1u);
  _mm512_mask_storeu_ps(c + 0*ldc + 0, m0, store ? c0_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 0*ldc + 0), c0_0));
  if (rows == 1) return;
  _mm512_mask_storeu_ps(c + 1*ldc + 0, m0, store ? c1_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 1*ldc + 0), c1_0));
  if (rows == 2) return;
  _mm512_mask_storeu_ps(c + 2*ldc + 0, m0, store ? c2_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 2*ldc + 0), c2_0));
  if (rows == 3) return;
  _mm512_mask_storeu_ps(c + 3*ldc + 0, m0, store ? c3_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 3*ldc + 0), c3_0));
  if (rows == 4) return;
  _mm512_mask_storeu_ps(c + 4*ldc + 0, m0, store ? c4_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 4*ldc + 0), c4_0));
  if (rows == 5) return;
  _mm512_mask_storeu_ps(c + 5*ldc + 0, m0, store ? c5_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 5*ldc + 0), c5_0));
  if (rows == 6) return;
  _mm512_mask_storeu_ps(c + 6*ldc + 0, m0, store ? c6_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 6*ldc + 0), c6_0));
  if (rows == 7) return;
  _mm512_mask_storeu_ps(c + 7*ldc + 0, m0, store ? c7_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 7*ldc + 0), c7_0));
}

static inline void pk_ukr_gemm_f32_avx512_8x48_pp_4x3(int64_t kb, const float *restrict a, int64_t lda,
    const float *restrict b, int64_t ldb, float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store) {
  (void)lda;
  (void)ldb;
  __m512 c0_0 = _mm512_setzero_ps(), c0_1 = _mm512_setzero_ps(), c0_2 = _mm512_setzero_ps();
  __m512 c1_0 = _mm512_setzero_ps(), c1_1 = _mm512_setzero_ps(), c1_2 = _mm512_setzero_ps();
  __m512 c2_0 = _mm512_setzero_ps(), c2_1 = _mm512_setzero_ps(), c2_2 = _mm512_setzero_ps();
  __m512 c3_0 = _mm512_setzero_ps(), c3_1 = _mm512_setzero_ps(), c3_2 = _mm512_setzero_ps();
  __builtin_prefetch(c + 0*ldc + 0, 1, 3), __builtin_prefetch(c + 0*ldc + 16, 1, 3), __builtin_prefetch(c + 0*ldc + 32, 1, 3), __builtin_prefetch(c + 0*ldc + 47, 1, 3);
  __builtin_prefetch(c + 1*ldc + 0, 1, 3), __builtin_prefetch(c + 1*ldc + 16, 1, 3), __builtin_prefetch(c + 1*ldc + 32, 1, 3), __builtin_prefetch(c + 1*ldc + 47, 1, 3);
  __builtin_prefetch(c + 2*ldc + 0, 1, 3), __builtin_prefetch(c + 2*ldc + 16, 1, 3), __builtin_prefetch(c + 2*ldc + 32, 1, 3), __builtin_prefetch(c + 2*ldc + 47, 1, 3);
  __builtin_prefetch(c + 3*ldc + 0, 1, 3), __builtin_prefetch(c + 3*ldc + 16, 1, 3), __builtin_prefetch(c + 3*ldc + 32, 1, 3), __builtin_prefetch(c + 3*ldc + 47, 1, 3);
#pragma GCC unroll 4
  for (int64_t p = 0; p < kb; p++) {
    const __m512 b0 = _mm512_load_ps(b + 0);
    const __m512 b1 = _mm512_load_ps(b + 16);
    const __m512 b2 = _mm512_load_ps(b + 32);
    const __m512 a0v = _mm512_set1_ps(*(a + 0));
    c0_0 = _mm512_fmadd_ps(a0v, b0, c0_0);
    c0_1 = _mm512_fmadd_ps(a0v, b1, c0_1);
    c0_2 = _mm512_fmadd_ps(a0v, b2, c0_2);
    const __m512 a1v = _mm512_set1_ps(*(a + 1));
    c1_0 = _mm512_fmadd_ps(a1v, b0, c1_0);
    c1_1 = _mm512_fmadd_ps(a1v, b1, c1_1);
    c1_2 = _mm512_fmadd_ps(a1v, b2, c1_2);
    const __m512 a2v = _mm512_set1_ps(*(a + 2));
    c2_0 = _mm512_fmadd_ps(a2v, b0, c2_0);
    c2_1 = _mm512_fmadd_ps(a2v, b1, c2_1);
    c2_2 = _mm512_fmadd_ps(a2v, b2, c2_2);
    const __m512 a3v = _mm512_set1_ps(*(a + 3));
    c3_0 = _mm512_fmadd_ps(a3v, b0, c3_0);
    c3_1 = _mm512_fmadd_ps(a3v, b1, c3_1);
    c3_2 = _mm512_fmadd_ps(a3v, b2, c3_2);
    a += 8;
    b += 48;
  }
  if (rows == 4 && cols == 48) {
    if (!store) {
      c0_0 = _mm512_add_ps(_mm512_loadu_ps(c + 0*ldc + 0), c0_0);
      c0_1 = _mm512_add_ps(_mm512_loadu_ps(c + 0*ldc + 16), c0_1);
      c0_2 = _mm512_add_ps(_mm512_loadu_ps(c + 0*ldc + 32), c0_2);
      c1_0 = _mm512_add_ps(_mm512_loadu_ps(c + 1*ldc + 0), c1_0);
      c1_1 = _mm512_add_ps(_mm512_loadu_ps(c + 1*ldc + 16), c1_1);
      c1_2 = _mm512_add_ps(_mm512_loadu_ps(c + 1*ldc + 32), c1_2);
      c2_0 = _mm512_add_ps(_mm512_loadu_ps(c + 2*ldc + 0), c2_0);
      c2_1 = _mm512_add_ps(_mm512_loadu_ps(c + 2*ldc + 16), c2_1);
      c2_2 = _mm512_add_ps(_mm512_loadu_ps(c + 2*ldc + 32), c2_2);
      c3_0 = _mm512_add_ps(_mm512_loadu_ps(c + 3*ldc + 0), c3_0);
      c3_1 = _mm512_add_ps(_mm512_loadu_ps(c + 3*ldc + 16), c3_1);
      c3_2 = _mm512_add_ps(_mm512_loadu_ps(c + 3*ldc + 32), c3_2);
    }
    _mm512_storeu_ps(c + 0*ldc + 0, c0_0);
    _mm512_storeu_ps(c + 0*ldc + 16, c0_1);
    _mm512_storeu_ps(c + 0*ldc + 32, c0_2);
    _mm512_storeu_ps(c + 1*ldc + 0, c1_0);
    _mm512_storeu_ps(c + 1*ldc + 16, c1_1);
    _mm512_storeu_ps(c + 1*ldc + 32, c1_2);
    _mm512_storeu_ps(c + 2*ldc + 0, c2_0);
    _mm512_storeu_ps(c + 2*ldc + 16, c2_1);
    _mm512_storeu_ps(c + 2*ldc + 32, c2_2);
    _mm512_storeu_ps(c + 3*ldc + 0, c3_0);
    _mm512_storeu_ps(c + 3*ldc + 16, c3_1);
    _mm512_storeu_ps(c + 3*ldc + 32, c3_2);
    return;
  }
  const __mmask16 m0 = (__mmask16)((1u << (pk_edge_lanes(cols, 0, 16))) - 1u);
  const __mmask16 m1 = (__mmask16)((1u << (pk_edge_lanes(cols, 16, 16))) - 1u);
  const __mmask16 m2 = (__mmask16)((1u << (pk_edge_lanes(cols, 32, 16))) - 1u);
  _mm512_mask_storeu_ps(c + 0*ldc + 0, m0, store ? c0_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 0*ldc + 0), c0_0));
  _mm512_mask_storeu_ps(c + 0*ldc + 16, m1, store ? c0_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 0*ldc + 16), c0_1));
  _mm512_mask_storeu_ps(c + 0*ldc + 32, m2, store ? c0_2 : _mm512_add_ps(_mm512_maskz_loadu_ps(m2, c + 0*ldc + 32), c0_2));
  if (rows == 1) return;
  _mm512_mask_storeu_ps(c + 1*ldc + 0, m0, store ? c1_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 1*ldc + 0), c1_0));
  _mm512_mask_storeu_ps(c + 1*ldc + 16, m1, store ? c1_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 1*ldc + 16), c1_1));
  _mm512_mask_storeu_ps(c + 1*ldc + 32, m2, store ? c1_2 : _mm512_add_ps(_mm512_maskz_loadu_ps(m2, c + 1*ldc + 32), c1_2));
  if (rows == 2) return;
  _mm512_mask_storeu_ps(c + 2*ldc + 0, m0, store ? c2_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 2*ldc + 0), c2_0));
  _mm512_mask_storeu_ps(c + 2*ldc + 16, m1, store ? c2_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 2*ldc + 16), c2_1));
  _mm512_mask_storeu_ps(c + 2*ldc + 32, m2, store ? c2_2 : _mm512_add_ps(_mm512_maskz_loadu_ps(m2, c + 2*ldc + 32), c2_2));
  if (rows == 3) return;
  _mm512_mask_storeu_ps(c + 3*ldc + 0, m0, store ? c3_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 3*ldc + 0), c3_0));
  _mm512_mask_storeu_ps(c + 3*ldc + 16, m1, store ? c3_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 3*ldc + 16), c3_1));
  _mm512_mask_storeu_ps(c + 3*ldc + 32, m2, store ? c3_2 : _mm512_add_ps(_mm512_maskz_loadu_ps(m2, c + 3*ldc + 32), c3_2));
}

static inline void pk_ukr_gemm_f32_avx512_8x48_pp_4x2(int64_t kb, const float *restrict a, int64_t lda,
    const float *restrict b, int64_t ldb, float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store) {
  (void)lda;
  (void)ldb;
  __m512 c0_0 = _mm512_setzero_ps(), c0_1 = _mm512_setzero_ps();
  __m512 c1_0 = _mm512_setzero_ps(), c1_1 = _mm512_setzero_ps();
  __m512 c2_0 = _mm512_setzero_ps(), c2_1 = _mm512_setzero_ps();
  __m512 c3_0 = _mm512_setzero_ps(), c3_1 = _mm512_setzero_ps();
  __builtin_prefetch(c + 0*ldc + 0, 1, 3), __builtin_prefetch(c + 0*ldc + 16, 1, 3), __builtin_prefetch(c + 0*ldc + 31, 1, 3);
  __builtin_prefetch(c + 1*ldc + 0, 1, 3), __builtin_prefetch(c + 1*ldc + 16, 1, 3), __builtin_prefetch(c + 1*ldc + 31, 1, 3);
  __builtin_prefetch(c + 2*ldc + 0, 1, 3), __builtin_prefetch(c + 2*ldc + 16, 1, 3), __builtin_prefetch(c + 2*ldc + 31, 1, 3);
  __builtin_prefetch(c + 3*ldc + 0, 1, 3), __builtin_prefetch(c + 3*ldc + 16, 1, 3), __builtin_prefetch(c + 3*ldc + 31, 1, 3);
#pragma GCC unroll 4
  for (int64_t p = 0; p < kb; p++) {
    const __m512 b0 = _mm512_load_ps(b + 0);
    const __m512 b1 = _mm512_load_ps(b + 16);
    const __m512 a0v = _mm512_set1_ps(*(a + 0));
    c0_0 = _mm512_fmadd_ps(a0v, b0, c0_0);
    c0_1 = _mm512_fmadd_ps(a0v, b1, c0_1);
    const __m512 a1v = _mm512_set1_ps(*(a + 1));
    c1_0 = _mm512_fmadd_ps(a1v, b0, c1_0);
    c1_1 = _mm512_fmadd_ps(a1v, b1, c1_1);
    const __m512 a2v = _mm512_set1_ps(*(a + 2));
    c2_0 = _mm512_fmadd_ps(a2v, b0, c2_0);
    c2_1 = _mm512_fmadd_ps(a2v, b1, c2_1);
    const __m512 a3v = _mm512_set1_ps(*(a + 3));
    c3_0 = _mm512_fmadd_ps(a3v, b0, c3_0);
    c3_1 = _mm512_fmadd_ps(a3v, b1, c3_1);
    a += 8;
    b += 48;
  }
  if (rows == 4 && cols == 32) {
    if (!store) {
      c0_0 = _mm512_add_ps(_mm512_loadu_ps(c + 0*ldc + 0), c0_0);
      c0_1 = _mm512_add_ps(_mm512_loadu_ps(c + 0*ldc + 16), c0_1);
      c1_0 = _mm512_add_ps(_mm512_loadu_ps(c + 1*ldc + 0), c1_0);
      c1_1 = _mm512_add_ps(_mm512_loadu_ps(c + 1*ldc + 16), c1_1);
      c2_0 = _mm512_add_ps(_mm512_loadu_ps(c + 2*ldc + 0), c2_0);
      c2_1 = _mm512_add_ps(_mm512_loadu_ps(c + 2*ldc + 16), c2_1);
      c3_0 = _mm512_add_ps(_mm512_loadu_ps(c + 3*ldc + 0), c3_0);
      c3_1 = _mm512_add_ps(_mm512_loadu_ps(c + 3*ldc + 16), c3_1);
    }
    _mm512_storeu_ps(c + 0*ldc + 0, c0_0);
    _mm512_storeu_ps(c + 0*ldc + 16, c0_1);
    _mm512_storeu_ps(c + 1*ldc + 0, c1_0);
    _mm512_storeu_ps(c + 1*ldc + 16, c1_1);
    _mm512_storeu_ps(c + 2*ldc + 0, c2_0);
    _mm512_storeu_ps(c + 2*ldc + 16, c2_1);
    _mm512_storeu_ps(c + 3*ldc + 0, c3_0);
    _mm512_storeu_ps(c + 3*ldc + 16, c3_1);
    return;
  }
  const __mmask16 m0 = (__mmask16)((1u << (pk_edge_lanes(cols, 0, 16))) - 1u);
  const __mmask16 m1 = (__mmask16)((1u << (pk_edge_lanes(cols, 16, 16))) - 1u);
  _mm512_mask_storeu_ps(c + 0*ldc + 0, m0, store ? c0_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 0*ldc + 0), c0_0));
  _mm512_mask_storeu_ps(c + 0*ldc + 16, m1, store ? c0_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 0*ldc + 16), c0_1));
  if (rows == 1) return;
  _mm512_mask_storeu_ps(c + 1*ldc + 0, m0, store ? c1_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 1*ldc + 0), c1_0));
  _mm512_mask_storeu_ps(c + 1*ldc + 16, m1, store ? c1_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 1*ldc + 16), c1_1));
  if (rows == 2) return;
  _mm512_mask_storeu_ps(c + 2*ldc + 0, m0, store ? c2_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 2*ldc + 0), c2_0));
  _mm512_mask_storeu_ps(c + 2*ldc + 16, m1, store ? c2_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 2*ldc + 16), c2_1));
  if (rows == 3) return;
  _mm512_mask_storeu_ps(c + 3*ldc + 0, m0, store ? c3_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 3*ldc + 0), c3_0));
  _mm512_mask_storeu_ps(c + 3*ldc + 16, m1, store ? c3_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 3*ldc + 16), c3_1));
}

static inline void pk_ukr_gemm_f32_avx512_8x48_pp_4x1(int64_t kb, const float *restrict a, int64_t lda,
    const float *restrict b, int64_t ldb, float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store) {
  (void)lda;
  (void)ldb;
  __m512 c0_0 = _mm512_setzero_ps();
  __m512 c1_0 = _mm512_setzero_ps();
  __m512 c2_0 = _mm512_setzero_ps();
  __m512 c3_0 = _mm512_setzero_ps();
  __builtin_prefetch(c + 0*ldc + 0, 1, 3), __builtin_prefetch(c + 0*ldc + 15, 1, 3);
  __builtin_prefetch(c + 1*ldc + 0, 1, 3), __builtin_prefetch(c + 1*ldc + 15, 1, 3);
  __builtin_prefetch(c + 2*ldc + 0, 1, 3), __builtin_prefetch(c + 2*ldc + 15, 1, 3);
  __builtin_prefetch(c + 3*ldc + 0, 1, 3), __builtin_prefetch(c + 3*ldc + 15, 1, 3);
#pragma GCC unroll 4
  for (int64_t p = 0; p < kb; p++) {
    const __m512 b0 = _mm512_load_ps(b + 0);
    const __m512 a0v = _mm512_set1_ps(*(a + 0));
    c0_0 = _mm512_fmadd_ps(a0v, b0, c0_0);
    const __m512 a1v = _mm512_set1_ps(*(a + 1));
    c1_0 = _mm512_fmadd_ps(a1v, b0, c1_0);
    const __m512 a2v = _mm512_set1_ps(*(a + 2));
    c2_0 = _mm512_fmadd_ps(a2v, b0, c2_0);
    const __m512 a3v = _mm512_set1_ps(*(a + 3));
    c3_0 = _mm512_fmadd_ps(a3v, b0, c3_0);
    a += 8;
    b += 48;
  }
  if (rows == 4 && cols == 16) {
    if (!store) {
      c0_0 = _mm512_add_ps(_mm512_loadu_ps(c + 0*ldc + 0), c0_0);
      c1_0 = _mm512_add_ps(_mm512_loadu_ps(c + 1*ldc + 0), c1_0);
      c2_0 = _mm512_add_ps(_mm512_loadu_ps(c + 2*ldc + 0), c2_0);
      c3_0 = _mm512_add_ps(_mm512_loadu_ps(c + 3*ldc + 0), c3_0);
    }
    _mm512_storeu_ps(c + 0*ldc + 0, c0_0);
    _mm512_storeu_ps(c + 1*ldc + 0, c1_0);
    _mm512_storeu_ps(c + 2*ldc + 0, c2_0);
    _mm512_storeu_ps(c + 3*ldc + 0, c3_0);
    return;
  }
  const __mmask16 m0 = (__mmask16)((1u << (pk_edge_lanes(cols, 0, 16))) - 1u);
  _mm512_mask_storeu_ps(c + 0*ldc + 0, m0, store ? c0_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 0*ldc + 0), c0_0));
  if (rows == 1) return;
  _mm512_mask_storeu_ps(c + 1*ldc + 0, m0, store ? c1_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 1*ldc + 0), c1_0));
  if (rows == 2) return;
  _mm512_mask_storeu_ps(c + 2*ldc + 0, m0, store ? c2_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 2*ldc + 0), c2_0));
  if (rows == 3) return;
  _mm512_mask_storeu_ps(c + 3*ldc + 0, m0, store ? c3_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 3*ldc + 0), c3_0));
}

static inline void pk_ukr_gemm_f32_avx512_8x48_pp_2x3(int64_t kb, const float *restrict a, int64_t lda,
    const float *restrict b, int64_t ldb, float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store) {
  (void)lda;
  (void)ldb;
  __m512 c0_0 = _mm512_setzero_ps(), c0_1 = _mm512_setzero_ps(), c0_2 = _mm512_setzero_ps();
  __m512 c1_0 = _mm512_setzero_ps(), c1_1 = _mm512_setzero_ps(), c1_2 = _mm512_setzero_ps();
  __m512 c0_0_1 = _mm512_setzero_ps(), c0_1_1 = _mm512_setzero_ps(), c0_2_1 = _mm512_setzero_ps();
  __m512 c1_0_1 = _mm512_setzero_ps(), c1_1_1 = _mm512_setzero_ps(), c1_2_1 = _mm512_setzero_ps();
  __builtin_prefetch(c + 0*ldc + 0, 1, 3), __builtin_prefetch(c + 0*ldc + 16, 1, 3), __builtin_prefetch(c + 0*ldc + 32, 1, 3), __builtin_prefetch(c + 0*ldc + 47, 1, 3);
  __builtin_prefetch(c + 1*ldc + 0, 1, 3), __builtin_prefetch(c + 1*ldc + 16, 1, 3), __builtin_prefetch(c + 1*ldc + 32, 1, 3), __builtin_prefetch(c + 1*ldc + 47, 1, 3);
  int64_t p = 0;
  for (; p + 2 <= kb; p += 2) {
    const __m512 b0 = _mm512_load_ps(b + 0);
    const __m512 b1 = _mm512_load_ps(b + 16);
    const __m512 b2 = _mm512_load_ps(b + 32);
    const __m512 a0v = _mm512_set1_ps(*(a + 0));
    c0_0 = _mm512_fmadd_ps(a0v, b0, c0_0);
    c0_1 = _mm512_fmadd_ps(a0v, b1, c0_1);
    c0_2 = _mm512_fmadd_ps(a0v, b2, c0_2);
    const __m512 a1v = _mm512_set1_ps(*(a + 1));
    c1_0 = _mm512_fmadd_ps(a1v, b0, c1_0);
    c1_1 = _mm512_fmadd_ps(a1v, b1, c1_1);
    c1_2 = _mm512_fmadd_ps(a1v, b2, c1_2);
    const __m512 b0_1 = _mm512_load_ps(b + 48);
    const __m512 b1_1 = _mm512_load_ps(b + 64);
    const __m512 b2_1 = _mm512_load_ps(b + 80);
    const __m512 a0v_1 = _mm512_set1_ps(*(a + 8));
    c0_0_1 = _mm512_fmadd_ps(a0v_1, b0_1, c0_0_1);
    c0_1_1 = _mm512_fmadd_ps(a0v_1, b1_1, c0_1_1);
    c0_2_1 = _mm512_fmadd_ps(a0v_1, b2_1, c0_2_1);
    const __m512 a1v_1 = _mm512_set1_ps(*(a + 9));
    c1_0_1 = _mm512_fmadd_ps(a1v_1, b0_1, c1_0_1);
    c1_1_1 = _mm512_fmadd_ps(a1v_1, b1_1, c1_1_1);
    c1_2_1 = _mm512_fmadd_ps(a1v_1, b2_1, c1_2_1);
    a += 16;
    b += 96;
  }
  for (; p < kb; p++) {
    const __m512 b0 = _mm512_load_ps(b + 0);
    const __m512 b1 = _mm512_load_ps(b + 16);
    const __m512 b2 = _mm512_load_ps(b + 32);
    const __m512 a0v = _mm512_set1_ps(*(a + 0));
    c0_0 = _mm512_fmadd_ps(a0v, b0, c0_0);
    c0_1 = _mm512_fmadd_ps(a0v, b1, c0_1);
    c0_2 = _mm512_fmadd_ps(a0v, b2, c0_2);
    const __m512 a1v = _mm512_set1_ps(*(a + 1));
    c1_0 = _mm512_fmadd_ps(a1v, b0, c1_0);
    c1_1 = _mm512_fmadd_ps(a1v, b1, c1_1);
    c1_2 = _mm512_fmadd_ps(a1v, b2, c1_2);
    a += 8;
    b += 48;
  }
  c0_0 = _mm512_add_ps(c0_0, c0_0_1);
  c0_1 = _mm512_add_ps(c0_1, c0_1_1);
  c0_2 = _mm512_add_ps(c0_2, c0_2_1);
  c1_0 = _mm512_add_ps(c1_0, c1_0_1);
  c1_1 = _mm512_add_ps(c1_1, c1_1_1);
  c1_2 = _mm512_add_ps(c1_2, c1_2_1);
  if (rows == 2 && cols == 48) {
    if (!store) {
      c0_0 = _mm512_add_ps(_mm512_loadu_ps(c + 0*ldc + 0), c0_0);
      c0_1 = _mm512_add_ps(_mm512_loadu_ps(c + 0*ldc + 16), c0_1);
      c0_2 = _mm512_add_ps(_mm512_loadu_ps(c + 0*ldc + 32), c0_2);
      c1_0 = _mm512_add_ps(_mm512_loadu_ps(c + 1*ldc + 0), c1_0);
      c1_1 = _mm512_add_ps(_mm512_loadu_ps(c + 1*ldc + 16), c1_1);
      c1_2 = _mm512_add_ps(_mm512_loadu_ps(c + 1*ldc + 32), c1_2);
    }
    _mm512_storeu_ps(c + 0*ldc + 0, c0_0);
    _mm512_storeu_ps(c + 0*ldc + 16, c0_1);
    _mm512_storeu_ps(c + 0*ldc + 32, c0_2);
    _mm512_storeu_ps(c + 1*ldc + 0, c1_0);
    _mm512_storeu_ps(c + 1*ldc + 16, c1_1);
    _mm512_storeu_ps(c + 1*ldc + 32, c1_2);
    return;
  }
  const __mmask16 m0 = (__mmask16)((1u << (pk_edge_lanes(cols, 0, 16))) - 1u);
  const __mmask16 m1 = (__mmask16)((1u << (pk_edge_lanes(cols, 16, 16))) - 1u);
  const __mmask16 m2 = (__mmask16)((1u << (pk_edge_lanes(cols, 32, 16))) - 1u);
  _mm512_mask_storeu_ps(c + 0*ldc + 0, m0, store ? c0_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 0*ldc + 0), c0_0));
  _mm512_mask_storeu_ps(c + 0*ldc + 16, m1, store ? c0_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 0*ldc + 16), c0_1));
  _mm512_mask_storeu_ps(c + 0*ldc + 32, m2, store ? c0_2 : _mm512_add_ps(_mm512_maskz_loadu_ps(m2, c + 0*ldc + 32), c0_2));
  if (rows == 1) return;
  _mm512_mask_storeu_ps(c + 1*ldc + 0, m0, store ? c1_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 1*ldc + 0), c1_0));
  _mm512_mask_storeu_ps(c + 1*ldc + 16, m1, store ? c1_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 1*ldc + 16), c1_1));
  _mm512_mask_storeu_ps(c + 1*ldc + 32, m2, store ? c1_2 : _mm512_add_ps(_mm512_maskz_loadu_ps(m2, c + 1*ldc + 32), c1_2));
}

static inline void pk_ukr_gemm_f32_avx512_8x48_pp_2x2(int64_t kb, const float *restrict a, int64_t lda,
    const float *restrict b, int64_t ldb, float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store) {
  (void)lda;
  (void)ldb;
  __m512 c0_0 = _mm512_setzero_ps(), c0_1 = _mm512_setzero_ps();
  __m512 c1_0 = _mm512_setzero_ps(), c1_1 = _mm512_setzero_ps();
  __m512 c0_0_1 = _mm512_setzero_ps(), c0_1_1 = _mm512_setzero_ps();
  __m512 c1_0_1 = _mm512_setzero_ps(), c1_1_1 = _mm512_setzero_ps();
  __builtin_prefetch(c + 0*ldc + 0, 1, 3), __builtin_prefetch(c + 0*ldc + 16, 1, 3), __builtin_prefetch(c + 0*ldc + 31, 1, 3);
  __builtin_prefetch(c + 1*ldc + 0, 1, 3), __builtin_prefetch(c + 1*ldc + 16, 1, 3), __builtin_prefetch(c + 1*ldc + 31, 1, 3);
  int64_t p = 0;
  for (; p + 2 <= kb; p += 2) {
    const __m512 b0 = _mm512_load_ps(b + 0);
    const __m512 b1 = _mm512_load_ps(b + 16);
    const __m512 a0v = _mm512_set1_ps(*(a + 0));
    c0_0 = _mm512_fmadd_ps(a0v, b0, c0_0);
    c0_1 = _mm512_fmadd_ps(a0v, b1, c0_1);
    const __m512 a1v = _mm512_set1_ps(*(a + 1));
    c1_0 = _mm512_fmadd_ps(a1v, b0, c1_0);
    c1_1 = _mm512_fmadd_ps(a1v, b1, c1_1);
    const __m512 b0_1 = _mm512_load_ps(b + 48);
    const __m512 b1_1 = _mm512_load_ps(b + 64);
    const __m512 a0v_1 = _mm512_set1_ps(*(a + 8));
    c0_0_1 = _mm512_fmadd_ps(a0v_1, b0_1, c0_0_1);
    c0_1_1 = _mm512_fmadd_ps(a0v_1, b1_1, c0_1_1);
    const __m512 a1v_1 = _mm512_set1_ps(*(a + 9));
    c1_0_1 = _mm512_fmadd_ps(a1v_1, b0_1, c1_0_1);
    c1_1_1 = _mm512_fmadd_ps(a1v_1, b1_1, c1_1_1);
    a += 16;
    b += 96;
  }
  for (; p < kb; p++) {
    const __m512 b0 = _mm512_load_ps(b + 0);
    const __m512 b1 = _mm512_load_ps(b + 16);
    const __m512 a0v = _mm512_set1_ps(*(a + 0));
    c0_0 = _mm512_fmadd_ps(a0v, b0, c0_0);
    c0_1 = _mm512_fmadd_ps(a0v, b1, c0_1);
    const __m512 a1v = _mm512_set1_ps(*(a + 1));
    c1_0 = _mm512_fmadd_ps(a1v, b0, c1_0);
    c1_1 = _mm512_fmadd_ps(a1v, b1, c1_1);
    a += 8;
    b += 48;
  }
  c0_0 = _mm512_add_ps(c0_0, c0_0_1);
  c0_1 = _mm512_add_ps(c0_1, c0_1_1);
  c1_0 = _mm512_add_ps(c1_0, c1_0_1);
  c1_1 = _mm512_add_ps(c1_1, c1_1_1);
  if (rows == 2 && cols == 32) {
    if (!store) {
      c0_0 = _mm512_add_ps(_mm512_loadu_ps(c + 0*ldc + 0), c0_0);
      c0_1 = _mm512_add_ps(_mm512_loadu_ps(c + 0*ldc + 16), c0_1);
      c1_0 = _mm512_add_ps(_mm512_loadu_ps(c + 1*ldc + 0), c1_0);
      c1_1 = _mm512_add_ps(_mm512_loadu_ps(c + 1*ldc + 16), c1_1);
    }
    _mm512_storeu_ps(c + 0*ldc + 0, c0_0);
    _mm512_storeu_ps(c + 0*ldc + 16, c0_1);
    _mm512_storeu_ps(c + 1*ldc + 0, c1_0);
    _mm512_storeu_ps(c + 1*ldc + 16, c1_1);
    return;
  }
  const __mmask16 m0 = (__mmask16)((1u << (pk_edge_lanes(cols, 0, 16))) - 1u);
  const __mmask16 m1 = (__mmask16)((1u << (pk_edge_lanes(cols, 16, 16))) - 1u);
  _mm512_mask_storeu_ps(c + 0*ldc + 0, m0, store ? c0_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 0*ldc + 0), c0_0));
  _mm512_mask_storeu_ps(c + 0*ldc + 16, m1, store ? c0_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 0*ldc + 16), c0_1));
  if (rows == 1) return;
  _mm512_mask_storeu_ps(c + 1*ldc + 0, m0, store ? c1_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 1*ldc + 0), c1_0));
  _mm512_mask_storeu_ps(c + 1*ldc + 16, m1, store ? c1_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 1*ldc + 16), c1_1));
}

static inline void pk_ukr_gemm_f32_avx512_8x48_pp_2x1(int64_t kb, const float *restrict a, int64_t lda,
    const float *restrict b, int64_t ldb, float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store) {
  (void)lda;
  (void)ldb;
  __m512 c0_0 = _mm512_setzero_ps();
  __m512 c1_0 = _mm512_setzero_ps();
  __m512 c0_0_1 = _mm512_setzero_ps();
  __m512 c1_0_1 = _mm512_setzero_ps();
  __m512 c0_0_2 = _mm512_setzero_ps();
  __m512 c1_0_2 = _mm512_setzero_ps();
  __m512 c0_0_3 = _mm512_setzero_ps();
  __m512 c1_0_3 = _mm512_setzero_ps();
  __builtin_prefetch(c + 0*ldc + 0, 1, 3), __builtin_prefetch(c + 0*ldc + 15, 1, 3);
  __builtin_prefetch(c + 1*ldc + 0, 1, 3), __builtin_prefetch(c + 1*ldc + 15, 1, 3);
  int64_t p = 0;
  for (; p + 4 <= kb; p += 4) {
    const __m512 b0 = _mm512_load_ps(b + 0);
    const __m512 a0v = _mm512_set1_ps(*(a + 0));
    c0_0 = _mm512_fmadd_ps(a0v, b0, c0_0);
    const __m512 a1v = _mm512_set1_ps(*(a + 1));
    c1_0 = _mm512_fmadd_ps(a1v, b0, c1_0);
    const __m512 b0_1 = _mm512_load_ps(b + 48);
    const __m512 a0v_1 = _mm512_set1_ps(*(a + 8));
    c0_0_1 = _mm512_fmadd_ps(a0v_1, b0_1, c0_0_1);
    const __m512 a1v_1 = _mm512_set1_ps(*(a + 9));
    c1_0_1 = _mm512_fmadd_ps(a1v_1, b0_1, c1_0_1);
    const __m512 b0_2 = _mm512_load_ps(b + 96);
    const __m512 a0v_2 = _mm512_set1_ps(*(a + 16));
    c0_0_2 = _mm512_fmadd_ps(a0v_2, b0_2, c0_0_2);
    const __m512 a1v_2 = _mm512_set1_ps(*(a + 17));
    c1_0_2 = _mm512_fmadd_ps(a1v_2, b0_2, c1_0_2);
    const __m512 b0_3 = _mm512_load_ps(b + 144);
    const __m512 a0v_3 = _mm512_set1_ps(*(a + 24));
    c0_0_3 = _mm512_fmadd_ps(a0v_3, b0_3, c0_0_3);
    const __m512 a1v_3 = _mm512_set1_ps(*(a + 25));
    c1_0_3 = _mm512_fmadd_ps(a1v_3, b0_3, c1_0_3);
    a += 32;
    b += 192;
  }
  for (; p < kb; p++) {
    const __m512 b0 = _mm512_load_ps(b + 0);
    const __m512 a0v = _mm512_set1_ps(*(a + 0));
    c0_0 = _mm512_fmadd_ps(a0v, b0, c0_0);
    const __m512 a1v = _mm512_set1_ps(*(a + 1));
    c1_0 = _mm512_fmadd_ps(a1v, b0, c1_0);
    a += 8;
    b += 48;
  }
  c0_0 = _mm512_add_ps(_mm512_add_ps(_mm512_add_ps(c0_0, c0_0_1), c0_0_2), c0_0_3);
  c1_0 = _mm512_add_ps(_mm512_add_ps(_mm512_add_ps(c1_0, c1_0_1), c1_0_2), c1_0_3);
  if (rows == 2 && cols == 16) {
    if (!store) {
      c0_0 = _mm512_add_ps(_mm512_loadu_ps(c + 0*ldc + 0), c0_0);
      c1_0 = _mm512_add_ps(_mm512_loadu_ps(c + 1*ldc + 0), c1_0);
    }
    _mm512_storeu_ps(c + 0*ldc + 0, c0_0);
    _mm512_storeu_ps(c + 1*ldc + 0, c1_0);
    return;
  }
  const __mmask16 m0 = (__mmask16)((1u << (pk_edge_lanes(cols, 0, 16))) - 1u);
  _mm512_mask_storeu_ps(c + 0*ldc + 0, m0, store ? c0_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 0*ldc + 0), c0_0));
  if (rows == 1) return;
  _mm512_mask_storeu_ps(c + 1*ldc + 0, m0, store ? c1_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 1*ldc + 0), c1_0));
}

static inline void pk_ukr_gemm_f32_avx512_8x48_pp_1x3(int64_t kb, const float *restrict a, int64_t lda,
    const float *restrict b, int64_t ldb, float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store) {
  (void)lda;
  (void)ldb;
  __m512 c0_0 = _mm512_setzero_ps(), c0_1 = _mm512_setzero_ps(), c0_2 = _mm512_setzero_ps();
  __m512 c0_0_1 = _mm512_setzero_ps(), c0_1_1 = _mm512_setzero_ps(), c0_2_1 = _mm512_setzero_ps();
  __m512 c0_0_2 = _mm512_setzero_ps(), c0_1_2 = _mm512_setzero_ps(), c0_2_2 = _mm512_setzero_ps();
  __builtin_prefetch(c + 0*ldc + 0, 1, 3), __builtin_prefetch(c + 0*ldc + 16, 1, 3), __builtin_prefetch(c + 0*ldc + 32, 1, 3), __builtin_prefetch(c + 0*ldc + 47, 1, 3);
  const int64_t pk_seg = kb / 3;
  int64_t p = 0;
  for (; p < pk_seg; p++) {
    const __m512 b0 = _mm512_load_ps(b + 0);
    const __m512 b1 = _mm512_load_ps(b + 16);
    const __m512 b2 = _mm512_load_ps(b + 32);
    const __m512 a0v = _mm512_set1_ps(*(a + 0));
    c0_0 = _mm512_fmadd_ps(a0v, b0, c0_0);
    c0_1 = _mm512_fmadd_ps(a0v, b1, c0_1);
    c0_2 = _mm512_fmadd_ps(a0v, b2, c0_2);
    const __m512 b0_1 = _mm512_load_ps(b + (1*pk_seg)*48);
    const __m512 b1_1 = _mm512_load_ps(b + (1*pk_seg)*48 + 16);
    const __m512 b2_1 = _mm512_load_ps(b + (1*pk_seg)*48 + 32);
    const __m512 a0v_1 = _mm512_set1_ps(*(a + (1*pk_seg)*8));
    c0_0_1 = _mm512_fmadd_ps(a0v_1, b0_1, c0_0_1);
    c0_1_1 = _mm512_fmadd_ps(a0v_1, b1_1, c0_1_1);
    c0_2_1 = _mm512_fmadd_ps(a0v_1, b2_1, c0_2_1);
    const __m512 b0_2 = _mm512_load_ps(b + (2*pk_seg)*48);
    const __m512 b1_2 = _mm512_load_ps(b + (2*pk_seg)*48 + 16);
    const __m512 b2_2 = _mm512_load_ps(b + (2*pk_seg)*48 + 32);
    const __m512 a0v_2 = _mm512_set1_ps(*(a + (2*pk_seg)*8));
    c0_0_2 = _mm512_fmadd_ps(a0v_2, b0_2, c0_0_2);
    c0_1_2 = _mm512_fmadd_ps(a0v_2, b1_2, c0_1_2);
    c0_2_2 = _mm512_fmadd_ps(a0v_2, b2_2, c0_2_2);
    a += 8;
    b += 48;
  }
  a += (2*pk_seg)*8;
  b += (2*pk_seg)*48;
  for (p = 3*pk_seg; p < kb; p++) {
    const __m512 b0 = _mm512_load_ps(b + 0);
    const __m512 b1 = _mm512_load_ps(b + 16);
    const __m512 b2 = _mm512_load_ps(b + 32);
    const __m512 a0v = _mm512_set1_ps(*(a + 0));
    c0_0 = _mm512_fmadd_ps(a0v, b0, c0_0);
    c0_1 = _mm512_fmadd_ps(a0v, b1, c0_1);
    c0_2 = _mm512_fmadd_ps(a0v, b2, c0_2);
    a += 8;
    b += 48;
  }
  c0_0 = _mm512_add_ps(_mm512_add_ps(c0_0, c0_0_1), c0_0_2);
  c0_1 = _mm512_add_ps(_mm512_add_ps(c0_1, c0_1_1), c0_1_2);
  c0_2 = _mm512_add_ps(_mm512_add_ps(c0_2, c0_2_1), c0_2_2);
  if (rows == 1 && cols == 48) {
    if (!store) {
      c0_0 = _mm512_add_ps(_mm512_loadu_ps(c + 0*ldc + 0), c0_0);
      c0_1 = _mm512_add_ps(_mm512_loadu_ps(c + 0*ldc + 16), c0_1);
      c0_2 = _mm512_add_ps(_mm512_loadu_ps(c + 0*ldc + 32), c0_2);
    }
    _mm512_storeu_ps(c + 0*ldc + 0, c0_0);
    _mm512_storeu_ps(c + 0*ldc + 16, c0_1);
    _mm512_storeu_ps(c + 0*ldc + 32, c0_2);
    return;
  }
  const __mmask16 m0 = (__mmask16)((1u << (pk_edge_lanes(cols, 0, 16))) - 1u);
  const __mmask16 m1 = (__mmask16)((1u << (pk_edge_lanes(cols, 16, 16))) - 1u);
  const __mmask16 m2 = (__mmask16)((1u << (pk_edge_lanes(cols, 32, 16))) - 1u);
  _mm512_mask_storeu_ps(c + 0*ldc + 0, m0, store ? c0_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 0*ldc + 0), c0_0));
  _mm512_mask_storeu_ps(c + 0*ldc + 16, m1, store ? c0_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 0*ldc + 16), c0_1));
  _mm512_mask_storeu_ps(c + 0*ldc + 32, m2, store ? c0_2 : _mm512_add_ps(_mm512_maskz_loadu_ps(m2, c + 0*ldc + 32), c0_2));
}

static inline void pk_ukr_gemm_f32_avx512_8x48_pp_1x2(int64_t kb, const float *restrict a, int64_t lda,
    const float *restrict b, int64_t ldb, float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store) {
  (void)lda;
  (void)ldb;
  __m512 c0_0 = _mm512_setzero_ps(), c0_1 = _mm512_setzero_ps();
  __m512 c0_0_1 = _mm512_setzero_ps(), c0_1_1 = _mm512_setzero_ps();
  __m512 c0_0_2 = _mm512_setzero_ps(), c0_1_2 = _mm512_setzero_ps();
  __m512 c0_0_3 = _mm512_setzero_ps(), c0_1_3 = _mm512_setzero_ps();
  __builtin_prefetch(c + 0*ldc + 0, 1, 3), __builtin_prefetch(c + 0*ldc + 16, 1, 3), __builtin_prefetch(c + 0*ldc + 31, 1, 3);
  const int64_t pk_seg = kb / 4;
  int64_t p = 0;
  for (; p < pk_seg; p++) {
    const __m512 b0 = _mm512_load_ps(b + 0);
    const __m512 b1 = _mm512_load_ps(b + 16);
    const __m512 a0v = _mm512_set1_ps(*(a + 0));
    c0_0 = _mm512_fmadd_ps(a0v, b0, c0_0);
    c0_1 = _mm512_fmadd_ps(a0v, b1, c0_1);
    const __m512 b0_1 = _mm512_load_ps(b + (1*pk_seg)*48);
    const __m512 b1_1 = _mm512_load_ps(b + (1*pk_seg)*48 + 16);
    const __m512 a0v_1 = _mm512_set1_ps(*(a + (1*pk_seg)*8));
    c0_0_1 = _mm512_fmadd_ps(a0v_1, b0_1, c0_0_1);
    c0_1_1 = _mm512_fmadd_ps(a0v_1, b1_1, c0_1_1);
    const __m512 b0_2 = _mm512_load_ps(b + (2*pk_seg)*48);
    const __m512 b1_2 = _mm512_load_ps(b + (2*pk_seg)*48 + 16);
    const __m512 a0v_2 = _mm512_set1_ps(*(a + (2*pk_seg)*8));
    c0_0_2 = _mm512_fmadd_ps(a0v_2, b0_2, c0_0_2);
    c0_1_2 = _mm512_fmadd_ps(a0v_2, b1_2, c0_1_2);
    const __m512 b0_3 = _mm512_load_ps(b + (3*pk_seg)*48);
    const __m512 b1_3 = _mm512_load_ps(b + (3*pk_seg)*48 + 16);
    const __m512 a0v_3 = _mm512_set1_ps(*(a + (3*pk_seg)*8));
    c0_0_3 = _mm512_fmadd_ps(a0v_3, b0_3, c0_0_3);
    c0_1_3 = _mm512_fmadd_ps(a0v_3, b1_3, c0_1_3);
    a += 8;
    b += 48;
  }
  a += (3*pk_seg)*8;
  b += (3*pk_seg)*48;
  for (p = 4*pk_seg; p < kb; p++) {
    const __m512 b0 = _mm512_load_ps(b + 0);
    const __m512 b1 = _mm512_load_ps(b + 16);
    const __m512 a0v = _mm512_set1_ps(*(a + 0));
    c0_0 = _mm512_fmadd_ps(a0v, b0, c0_0);
    c0_1 = _mm512_fmadd_ps(a0v, b1, c0_1);
    a += 8;
    b += 48;
  }
  c0_0 = _mm512_add_ps(_mm512_add_ps(_mm512_add_ps(c0_0, c0_0_1), c0_0_2), c0_0_3);
  c0_1 = _mm512_add_ps(_mm512_add_ps(_mm512_add_ps(c0_1, c0_1_1), c0_1_2), c0_1_3);
  if (rows == 1 && cols == 32) {
    if (!store) {
      c0_0 = _mm512_add_ps(_mm512_loadu_ps(c + 0*ldc + 0), c0_0);
      c0_1 = _mm512_add_ps(_mm512_loadu_ps(c + 0*ldc + 16), c0_1);
    }
    _mm512_storeu_ps(c + 0*ldc + 0, c0_0);
    _mm512_storeu_ps(c + 0*ldc + 16, c0_1);
    return;
  }
  const __mmask16 m0 = (__mmask16)((1u << (pk_edge_lanes(cols, 0, 16))) - 1u);
  const __mmask16 m1 = (__mmask16)((1u << (pk_edge_lanes(cols, 16, 16))) - 1u);
  _mm512_mask_storeu_ps(c + 0*ldc + 0, m0, store ? c0_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 0*ldc + 0), c0_0));
  _mm512_mask_storeu_ps(c + 0*ldc + 16, m1, store ? c0_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 0*ldc + 16), c0_1));
}

static inline void pk_ukr_gemm_f32_avx512_8x48_pp_1x1(int64_t kb, const float *restrict a, int64_t lda,
    const float *restrict b, int64_t ldb, float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store) {
  (void)lda;
  (void)ldb;
  __m512 c0_0 = _mm512_setzero_ps();
  __m512 c0_0_1 = _mm512_setzero_ps();
  __m512 c0_0_2 = _mm512_setzero_ps();
  __m512 c0_0_3 = _mm512_setzero_ps();
  __builtin_prefetch(c + 0*ldc + 0, 1, 3), __builtin_prefetch(c + 0*ldc + 15, 1, 3);
  const int64_t pk_seg = kb / 4;
  int64_t p = 0;
  for (; p < pk_seg; p++) {
    const __m512 b0 = _mm512_load_ps(b + 0);
    const __m512 a0v = _mm512_set1_ps(*(a + 0));
    c0_0 = _mm512_fmadd_ps(a0v, b0, c0_0);
    const __m512 b0_1 = _mm512_load_ps(b + (1*pk_seg)*48);
    const __m512 a0v_1 = _mm512_set1_ps(*(a + (1*pk_seg)*8));
    c0_0_1 = _mm512_fmadd_ps(a0v_1, b0_1, c0_0_1);
    const __m512 b0_2 = _mm512_load_ps(b + (2*pk_seg)*48);
    const __m512 a0v_2 = _mm512_set1_ps(*(a + (2*pk_seg)*8));
    c0_0_2 = _mm512_fmadd_ps(a0v_2, b0_2, c0_0_2);
    const __m512 b0_3 = _mm512_load_ps(b + (3*pk_seg)*48);
    const __m512 a0v_3 = _mm512_set1_ps(*(a + (3*pk_seg)*8));
    c0_0_3 = _mm512_fmadd_ps(a0v_3, b0_3, c0_0_3);
    a += 8;
    b += 48;
  }
  a += (3*pk_seg)*8;
  b += (3*pk_seg)*48;
  for (p = 4*pk_seg; p < kb; p++) {
    const __m512 b0 = _mm512_load_ps(b + 0);
    const __m512 a0v = _mm512_set1_ps(*(a + 0));
    c0_0 = _mm512_fmadd_ps(a0v, b0, c0_0);
    a += 8;
    b += 48;
  }
  c0_0 = _mm512_add_ps(_mm512_add_ps(_mm512_add_ps(c0_0, c0_0_1), c0_0_2), c0_0_3);
  if (rows == 1 && cols == 16) {
    if (!store) {
      c0_0 = _mm512_add_ps(_mm512_loadu_ps(c + 0*ldc + 0), c0_0);
    }
    _mm512_storeu_ps(c + 0*ldc + 0, c0_0);
    return;
  }
  const __mmask16 m0 = (__mmask16)((1u << (pk_edge_lanes(cols, 0, 16))) - 1u);
  _mm512_mask_storeu_ps(c + 0*ldc + 0, m0, store ? c0_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 0*ldc + 0), c0_0));
}

PK_SHARED void pk_ukr_gemm_f32_avx512_8x48_pp(int64_t kb, const float *restrict a, int64_t lda, const float *restrict b, int64_t ldb,
    float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store) {
  if (rows > 4) {
    if (cols > 32) pk_ukr_gemm_f32_avx512_8x48_pp_8x3(kb, a, lda, b, ldb, c, ldc, rows, cols, store);
    else if (cols > 16) pk_ukr_gemm_f32_avx512_8x48_pp_8x2(kb, a, lda, b, ldb, c, ldc, rows, cols, store);
    else pk_ukr_gemm_f32_avx512_8x48_pp_8x1(kb, a, lda, b, ldb, c, ldc, rows, cols, store);
  } else if (rows > 2) {
    if (cols > 32) pk_ukr_gemm_f32_avx512_8x48_pp_4x3(kb, a, lda, b, ldb, c, ldc, rows, cols, store);
    else if (cols > 16) pk_ukr_gemm_f32_avx512_8x48_pp_4x2(kb, a, lda, b, ldb, c, ldc, rows, cols, store);
    else pk_ukr_gemm_f32_avx512_8x48_pp_4x1(kb, a, lda, b, ldb, c, ldc, rows, cols, store);
  } else if (rows > 1) {
    if (cols > 32) pk_ukr_gemm_f32_avx512_8x48_pp_2x3(kb, a, lda, b, ldb, c, ldc, rows, cols, store);
    else if (cols > 16) pk_ukr_gemm_f32_avx512_8x48_pp_2x2(kb, a, lda, b, ldb, c, ldc, rows, cols, store);
    else pk_ukr_gemm_f32_avx512_8x48_pp_2x1(kb, a, lda, b, ldb, c, ldc, rows, cols, store);
  } else {
    if (cols > 32) pk_ukr_gemm_f32_avx512_8x48_pp_1x3(kb, a, lda, b, ldb, c, ldc, rows, cols, store);
    else if (cols > 16) pk_ukr_gemm_f32_avx512_8x48_pp_1x2(kb, a, lda, b, ldb, c, ldc, rows, cols, store);
    else pk_ukr_gemm_f32_avx512_8x48_pp_1x1(kb, a, lda, b, ldb, c, ldc, rows, cols, store);
  }
}

PK_SHARED void pk_ukr_gemm_f32_avx512_8x48_pp(int64_t kb, const float *restrict a, int64_t lda, const float *restrict b, int64_t ldb,
    float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store);
static inline void pk_ukr_gemm_f32_avx512_8x48_ppf_8x3(int64_t kb, const float *restrict a, int64_t lda,
    const float *restrict b, int64_t ldb, float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store) {
  (void)lda;
  (void)ldb;
  __m512 c0_0 = _mm512_setzero_ps(), c0_1 = _mm512_setzero_ps(), c0_2 = _mm512_setzero_ps();
  __m512 c1_0 = _mm512_setzero_ps(), c1_1 = _mm512_setzero_ps(), c1_2 = _mm512_setzero_ps();
  __m512 c2_0 = _mm512_setzero_ps(), c2_1 = _mm512_setzero_ps(), c2_2 = _mm512_setzero_ps();
  __m512 c3_0 = _mm512_setzero_ps(), c3_1 = _mm512_setzero_ps(), c3_2 = _mm512_setzero_ps();
  __m512 c4_0 = _mm512_setzero_ps(), c4_1 = _mm512_setzero_ps(), c4_2 = _mm512_setzero_ps();
  __m512 c5_0 = _mm512_setzero_ps(), c5_1 = _mm512_setzero_ps(), c5_2 = _mm512_setzero_ps();
  __m512 c6_0 = _mm512_setzero_ps(), c6_1 = _mm512_setzero_ps(), c6_2 = _mm512_setzero_ps();
  __m512 c7_0 = _mm512_setzero_ps(), c7_1 = _mm512_setzero_ps(), c7_2 = _mm512_setzero_ps();
  const int64_t pk_gap = kb / 16;
  if (pk_gap < 4) {
    __builtin_prefetch(c + 0*ldc + 0, 1, 3), __builtin_prefetch(c + 0*ldc + 16, 1, 3), __builtin_prefetch(c + 0*ldc + 32, 1, 3), __builtin_prefetch(c + 0*ldc + 47, 1, 3);
    __builtin_prefetch(c + 1*ldc + 0, 1, 3), __builtin_prefetch(c + 1*ldc + 16, 1, 3), __builtin_prefetch(c + 1*ldc + 32, 1, 3), __builtin_prefetch(c + 1*ldc + 47, 1, 3);
    __builtin_prefetch(c + 2*ldc + 0, 1, 3), __builtin_prefetch(c + 2*ldc + 16, 1, 3), __builtin_prefetch(c + 2*ldc + 32, 1, 3), __builtin_prefetch(c + 2*ldc + 47, 1, 3);
    __builtin_prefetch(c + 3*ldc + 0, 1, 3), __builtin_prefetch(c + 3*ldc + 16, 1, 3), __builtin_prefetch(c + 3*ldc + 32, 1, 3), __builtin_prefetch(c + 3*ldc + 47, 1, 3);
    __builtin_prefetch(c + 4*ldc + 0, 1, 3), __builtin_prefetch(c + 4*ldc + 16, 1, 3), __builtin_prefetch(c + 4*ldc + 32, 1, 3), __builtin_prefetch(c + 4*ldc + 47, 1, 3);
    __builtin_prefetch(c + 5*ldc + 0, 1, 3), __builtin_prefetch(c + 5*ldc + 16, 1, 3), __builtin_prefetch(c + 5*ldc + 32, 1, 3), __builtin_prefetch(c + 5*ldc + 47, 1, 3);
    __builtin_prefetch(c + 6*ldc + 0, 1, 3), __builtin_prefetch(c + 6*ldc + 16, 1, 3), __builtin_prefetch(c + 6*ldc + 32, 1, 3), __builtin_prefetch(c + 6*ldc + 47, 1, 3);
    __builtin_prefetch(c + 7*ldc + 0, 1, 3), __builtin_prefetch(c + 7*ldc + 16, 1, 3), __builtin_prefetch(c + 7*ldc + 32, 1, 3), __builtin_prefetch(c + 7*ldc + 47, 1, 3);
#pragma GCC unroll 4
    for (int64_t p = 0; p < kb; p++) {
      const __m512 b0 = _mm512_load_ps(b + 0);
      const __m512 b1 = _mm512_load_ps(b + 16);
      const __m512 b2 = _mm512_load_ps(b + 32);
      __builtin_prefetch(b + 768, 0, 3);
      __builtin_prefetch(b + 784, 0, 3);
      __builtin_prefetch(b + 800, 0, 3);
      const __m512 a0v = _mm512_set1_ps(*(a + 0));
      c0_0 = _mm512_fmadd_ps(a0v, b0, c0_0);
      c0_1 = _mm512_fmadd_ps(a0v, b1, c0_1);
      c0_2 = _mm512_fmadd_ps(a0v, b2, c0_2);
      const __m512 a1v = _mm512_set1_ps(*(a + 1));
      c1_0 = _mm512_fmadd_ps(a1v, b0, c1_0);
      c1_1 = _mm512_fmadd_ps(a1v, b1, c1_1);
      c1_2 = _mm512_fmadd_ps(a1v, b2, c1_2);
      const __m512 a2v = _mm512_set1_ps(*(a + 2));
      c2_0 = _mm512_fmadd_ps(a2v, b0, c2_0);
      c2_1 = _mm512_fmadd_ps(a2v, b1, c2_1);
      c2_2 = _mm512_fmadd_ps(a2v, b2, c2_2);
      const __m512 a3v = _mm512_set1_ps(*(a + 3));
      c3_0 = _mm512_fmadd_ps(a3v, b0, c3_0);
      c3_1 = _mm512_fmadd_ps(a3v, b1, c3_1);
      c3_2 = _mm512_fmadd_ps(a3v, b2, c3_2);
      const __m512 a4v = _mm512_set1_ps(*(a + 4));
      c4_0 = _mm512_fmadd_ps(a4v, b0, c4_0);
      c4_1 = _mm512_fmadd_ps(a4v, b1, c4_1);
      c4_2 = _mm512_fmadd_ps(a4v, b2, c4_2);
      const __m512 a5v = _mm512_set1_ps(*(a + 5));
      c5_0 = _mm512_fmadd_ps(a5v, b0, c5_0);
      c5_1 = _mm512_fmadd_ps(a5v, b1, c5_1);
      c5_2 = _mm512_fmadd_ps(a5v, b2, c5_2);
      const __m512 a6v = _mm512_set1_ps(*(a + 6));
      c6_0 = _mm512_fmadd_ps(a6v, b0, c6_0);
      c6_1 = _mm512_fmadd_ps(a6v, b1, c6_1);
      c6_2 = _mm512_fmadd_ps(a6v, b2, c6_2);
      const __m512 a7v = _mm512_set1_ps(*(a + 7));
      c7_0 = _mm512_fmadd_ps(a7v, b0, c7_0);
      c7_1 = _mm512_fmadd_ps(a7v, b1, c7_1);
      c7_2 = _mm512_fmadd_ps(a7v, b2, c7_2);
      a += 8;
      b += 48;
    }
  } else {
    const float *pk_row = c, *const pk_last = c + (rows - 1)*ldc;
    int64_t pk_next = pk_gap, p = 0;
    for (; p + 4 <= kb; p += 4) {
      __builtin_prefetch(pk_row + 0, 1, 3), __builtin_prefetch(pk_row + 16, 1, 3), __builtin_prefetch(pk_row + 32, 1, 3), __builtin_prefetch(pk_row + 47, 1, 3);
      const int pk_on = p + 4 > pk_next && pk_row < pk_last;
      pk_row = pk_on ? pk_row + ldc : pk_row;
      pk_next = pk_on ? pk_next + pk_gap : pk_next;
      {
        const __m512 b0 = _mm512_load_ps(b + 0);
        const __m512 b1 = _mm512_load_ps(b + 16);
        const __m512 b2 = _mm512_load_ps(b + 32);
        __builtin_prefetch(b + 768, 0, 3);
        __builtin_prefetch(b + 784, 0, 3);
        __builtin_prefetch(b + 800, 0, 3);
        const __m512 a0v = _mm512_set1_ps(*(a + 0));
        c0_0 = _mm512_fmadd_ps(a0v, b0, c0_0);
        c0_1 = _mm512_fmadd_ps(a0v, b1, c0_1);
        c0_2 = _mm512_fmadd_ps(a0v, b2, c0_2);
        const __m512 a1v = _mm512_set1_ps(*(a + 1));
        c1_0 = _mm512_fmadd_ps(a1v, b0, c1_0);
        c1_1 = _mm512_fmadd_ps(a1v, b1, c1_1);
        c1_2 = _mm512_fmadd_ps(a1v, b2, c1_2);
        const __m512 a2v = _mm512_set1_ps(*(a + 2));
        c2_0 = _mm512_fmadd_ps(a2v, b0, c2_0);
        c2_1 = _mm512_fmadd_ps(a2v, b1, c2_1);
        c2_2 = _mm512_fmadd_ps(a2v, b2, c2_2);
        const __m512 a3v = _mm512_set1_ps(*(a + 3));
        c3_0 = _mm512_fmadd_ps(a3v, b0, c3_0);
        c3_1 = _mm512_fmadd_ps(a3v, b1, c3_1);
        c3_2 = _mm512_fmadd_ps(a3v, b2, c3_2);
        const __m512 a4v = _mm512_set1_ps(*(a + 4));
        c4_0 = _mm512_fmadd_ps(a4v, b0, c4_0);
        c4_1 = _mm512_fmadd_ps(a4v, b1, c4_1);
        c4_2 = _mm512_fmadd_ps(a4v, b2, c4_2);
        const __m512 a5v = _mm512_set1_ps(*(a + 5));
        c5_0 = _mm512_fmadd_ps(a5v, b0, c5_0);
        c5_1 = _mm512_fmadd_ps(a5v, b1, c5_1);
        c5_2 = _mm512_fmadd_ps(a5v, b2, c5_2);
        const __m512 a6v = _mm512_set1_ps(*(a + 6));
        c6_0 = _mm512_fmadd_ps(a6v, b0, c6_0);
        c6_1 = _mm512_fmadd_ps(a6v, b1, c6_1);
        c6_2 = _mm512_fmadd_ps(a6v, b2, c6_2);
        const __m512 a7v = _mm512_set1_ps(*(a + 7));
        c7_0 = _mm512_fmadd_ps(a7v, b0, c7_0);
        c7_1 = _mm512_fmadd_ps(a7v, b1, c7_1);
        c7_2 = _mm512_fmadd_ps(a7v, b2, c7_2);
      }
      {
        const __m512 b0 = _mm512_load_ps(b + 48);
        const __m512 b1 = _mm512_load_ps(b + 64);
        const __m512 b2 = _mm512_load_ps(b + 80);
        __builtin_prefetch(b + 816, 0, 3);
        __builtin_prefetch(b + 832, 0, 3);
        __builtin_prefetch(b + 848, 0, 3);
        const __m512 a0v = _mm512_set1_ps(*(a + 8));
        c0_0 = _mm512_fmadd_ps(a0v, b0, c0_0);
        c0_1 = _mm512_fmadd_ps(a0v, b1, c0_1);
        c0_2 = _mm512_fmadd_ps(a0v, b2, c0_2);
        const __m512 a1v = _mm512_set1_ps(*(a + 9));
        c1_0 = _mm512_fmadd_ps(a1v, b0, c1_0);
        c1_1 = _mm512_fmadd_ps(a1v, b1, c1_1);
        c1_2 = _mm512_fmadd_ps(a1v, b2, c1_2);
        const __m512 a2v = _mm512_set1_ps(*(a + 10));
        c2_0 = _mm512_fmadd_ps(a2v, b0, c2_0);
        c2_1 = _mm512_fmadd_ps(a2v, b1, c2_1);
        c2_2 = _mm512_fmadd_ps(a2v, b2, c2_2);
        const __m512 a3v = _mm512_set1_ps(*(a + 11));
        c3_0 = _mm512_fmadd_ps(a3v, b0, c3_0);
        c3_1 = _mm512_fmadd_ps(a3v, b1, c3_1);
        c3_2 = _mm512_fmadd_ps(a3v, b2, c3_2);
        const __m512 a4v = _mm512_set1_ps(*(a + 12));
        c4_0 = _mm512_fmadd_ps(a4v, b0, c4_0);
        c4_1 = _mm512_fmadd_ps(a4v, b1, c4_1);
        c4_2 = _mm512_fmadd_ps(a4v, b2, c4_2);
        const __m512 a5v = _mm512_set1_ps(*(a + 13));
        c5_0 = _mm512_fmadd_ps(a5v, b0, c5_0);
        c5_1 = _mm512_fmadd_ps(a5v, b1, c5_1);
        c5_2 = _mm512_fmadd_ps(a5v, b2, c5_2);
        const __m512 a6v = _mm512_set1_ps(*(a + 14));
        c6_0 = _mm512_fmadd_ps(a6v, b0, c6_0);
        c6_1 = _mm512_fmadd_ps(a6v, b1, c6_1);
        c6_2 = _mm512_fmadd_ps(a6v, b2, c6_2);
        const __m512 a7v = _mm512_set1_ps(*(a + 15));
        c7_0 = _mm512_fmadd_ps(a7v, b0, c7_0);
        c7_1 = _mm512_fmadd_ps(a7v, b1, c7_1);
        c7_2 = _mm512_fmadd_ps(a7v, b2, c7_2);
      }
      {
        const __m512 b0 = _mm512_load_ps(b + 96);
        const __m512 b1 = _mm512_load_ps(b + 112);
        const __m512 b2 = _mm512_load_ps(b + 128);
        __builtin_prefetch(b + 864, 0, 3);
        __builtin_prefetch(b + 880, 0, 3);
        __builtin_prefetch(b + 896, 0, 3);
        const __m512 a0v = _mm512_set1_ps(*(a + 16));
        c0_0 = _mm512_fmadd_ps(a0v, b0, c0_0);
        c0_1 = _mm512_fmadd_ps(a0v, b1, c0_1);
        c0_2 = _mm512_fmadd_ps(a0v, b2, c0_2);
        const __m512 a1v = _mm512_set1_ps(*(a + 17));
        c1_0 = _mm512_fmadd_ps(a1v, b0, c1_0);
        c1_1 = _mm512_fmadd_ps(a1v, b1, c1_1);
        c1_2 = _mm512_fmadd_ps(a1v, b2, c1_2);
        const __m512 a2v = _mm512_set1_ps(*(a + 18));
        c2_0 = _mm512_fmadd_ps(a2v, b0, c2_0);
        c2_1 = _mm512_fmadd_ps(a2v, b1, c2_1);
        c2_2 = _mm512_fmadd_ps(a2v, b2, c2_2);
        const __m512 a3v = _mm512_set1_ps(*(a + 19));
        c3_0 = _mm512_fmadd_ps(a3v, b0, c3_0);
        c3_1 = _mm512_fmadd_ps(a3v, b1, c3_1);
        c3_2 = _mm512_fmadd_ps(a3v, b2, c3_2);
        const __m512 a4v = _mm512_set1_ps(*(a + 20));
        c4_0 = _mm512_fmadd_ps(a4v, b0, c4_0);
        c4_1 = _mm512_fmadd_ps(a4v, b1, c4_1);
        c4_2 = _mm512_fmadd_ps(a4v, b2, c4_2);
        const __m512 a5v = _mm512_set1_ps(*(a + 21));
        c5_0 = _mm512_fmadd_ps(a5v, b0, c5_0);
        c5_1 = _mm512_fmadd_ps(a5v, b1, c5_1);
        c5_2 = _mm512_fmadd_ps(a5v, b2, c5_2);
        const __m512 a6v = _mm512_set1_ps(*(a + 22));
        c6_0 = _mm512_fmadd_ps(a6v, b0, c6_0);
        c6_1 = _mm512_fmadd_ps(a6v, b1, c6_1);
        c6_2 = _mm512_fmadd_ps(a6v, b2, c6_2);
        const __m512 a7v = _mm512_set1_ps(*(a + 23));
        c7_0 = _mm512_fmadd_ps(a7v, b0, c7_0);
        c7_1 = _mm512_fmadd_ps(a7v, b1, c7_1);
        c7_2 = _mm512_fmadd_ps(a7v, b2, c7_2);
      }
      {
        const __m512 b0 = _mm512_load_ps(b + 144);
        const __m512 b1 = _mm512_load_ps(b + 160);
        const __m512 b2 = _mm512_load_ps(b + 176);
        __builtin_prefetch(b + 912, 0, 3);
        __builtin_prefetch(b + 928, 0, 3);
        __builtin_prefetch(b + 944, 0, 3);
        const __m512 a0v = _mm512_set1_ps(*(a + 24));
        c0_0 = _mm512_fmadd_ps(a0v, b0, c0_0);
        c0_1 = _mm512_fmadd_ps(a0v, b1, c0_1);
        c0_2 = _mm512_fmadd_ps(a0v, b2, c0_2);
        const __m512 a1v = _mm512_set1_ps(*(a + 25));
        c1_0 = _mm512_fmadd_ps(a1v, b0, c1_0);
        c1_1 = _mm512_fmadd_ps(a1v, b1, c1_1);
        c1_2 = _mm512_fmadd_ps(a1v, b2, c1_2);
        const __m512 a2v = _mm512_set1_ps(*(a + 26));
        c2_0 = _mm512_fmadd_ps(a2v, b0, c2_0);
        c2_1 = _mm512_fmadd_ps(a2v, b1, c2_1);
        c2_2 = _mm512_fmadd_ps(a2v, b2, c2_2);
        const __m512 a3v = _mm512_set1_ps(*(a + 27));
        c3_0 = _mm512_fmadd_ps(a3v, b0, c3_0);
        c3_1 = _mm512_fmadd_ps(a3v, b1, c3_1);
        c3_2 = _mm512_fmadd_ps(a3v, b2, c3_2);
        const __m512 a4v = _mm512_set1_ps(*(a + 28));
        c4_0 = _mm512_fmadd_ps(a4v, b0, c4_0);
        c4_1 = _mm512_fmadd_ps(a4v, b1, c4_1);
        c4_2 = _mm512_fmadd_ps(a4v, b2, c4_2);
        const __m512 a5v = _mm512_set1_ps(*(a + 29));
        c5_0 = _mm512_fmadd_ps(a5v, b0, c5_0);
        c5_1 = _mm512_fmadd_ps(a5v, b1, c5_1);
        c5_2 = _mm512_fmadd_ps(a5v, b2, c5_2);
        const __m512 a6v = _mm512_set1_ps(*(a + 30));
        c6_0 = _mm512_fmadd_ps(a6v, b0, c6_0);
        c6_1 = _mm512_fmadd_ps(a6v, b1, c6_1);
        c6_2 = _mm512_fmadd_ps(a6v, b2, c6_2);
        const __m512 a7v = _mm512_set1_ps(*(a + 31));
        c7_0 = _mm512_fmadd_ps(a7v, b0, c7_0);
        c7_1 = _mm512_fmadd_ps(a7v, b1, c7_1);
        c7_2 = _mm512_fmadd_ps(a7v, b2, c7_2);
      }
      a += 32;
      b += 192;
    }
    for (; p < kb; p++) {
      const __m512 b0 = _mm512_load_ps(b + 0);
      const __m512 b1 = _mm512_load_ps(b + 16);
      const __m512 b2 = _mm512_load_ps(b + 32);
      __builtin_prefetch(b + 768, 0, 3);
      __builtin_prefetch(b + 784, 0, 3);
      __builtin_prefetch(b + 800, 0, 3);
      const __m512 a0v = _mm512_set1_ps(*(a + 0));
      c0_0 = _mm512_fmadd_ps(a0v, b0, c0_0);
      c0_1 = _mm512_fmadd_ps(a0v, b1, c0_1);
      c0_2 = _mm512_fmadd_ps(a0v, b2, c0_2);
      const __m512 a1v = _mm512_set1_ps(*(a + 1));
      c1_0 = _mm512_fmadd_ps(a1v, b0, c1_0);
      c1_1 = _mm512_fmadd_ps(a1v, b1, c1_1);
      c1_2 = _mm512_fmadd_ps(a1v, b2, c1_2);
      const __m512 a2v = _mm512_set1_ps(*(a + 2));
      c2_0 = _mm512_fmadd_ps(a2v, b0, c2_0);
      c2_1 = _mm512_fmadd_ps(a2v, b1, c2_1);
      c2_2 = _mm512_fmadd_ps(a2v, b2, c2_2);
      const __m512 a3v = _mm512_set1_ps(*(a + 3));
      c3_0 = _mm512_fmadd_ps(a3v, b0, c3_0);
      c3_1 = _mm512_fmadd_ps(a3v, b1, c3_1);
      c3_2 = _mm512_fmadd_ps(a3v, b2, c3_2);
      const __m512 a4v = _mm512_set1_ps(*(a + 4));
      c4_0 = _mm512_fmadd_ps(a4v, b0, c4_0);
      c4_1 = _mm512_fmadd_ps(a4v, b1, c4_1);
      c4_2 = _mm512_fmadd_ps(a4v, b2, c4_2);
      const __m512 a5v = _mm512_set1_ps(*(a + 5));
      c5_0 = _mm512_fmadd_ps(a5v, b0, c5_0);
      c5_1 = _mm512_fmadd_ps(a5v, b1, c5_1);
      c5_2 = _mm512_fmadd_ps(a5v, b2, c5_2);
      const __m512 a6v = _mm512_set1_ps(*(a + 6));
      c6_0 = _mm512_fmadd_ps(a6v, b0, c6_0);
      c6_1 = _mm512_fmadd_ps(a6v, b1, c6_1);
      c6_2 = _mm512_fmadd_ps(a6v, b2, c6_2);
      const __m512 a7v = _mm512_set1_ps(*(a + 7));
      c7_0 = _mm512_fmadd_ps(a7v, b0, c7_0);
      c7_1 = _mm512_fmadd_ps(a7v, b1, c7_1);
      c7_2 = _mm512_fmadd_ps(a7v, b2, c7_2);
      a += 8;
      b += 48;
    }
  }
  if (rows == 8 && cols == 48) {
    if (!store) {
      c0_0 = _mm512_add_ps(_mm512_loadu_ps(c + 0*ldc + 0), c0_0);
      c0_1 = _mm512_add_ps(_mm512_loadu_ps(c + 0*ldc + 16), c0_1);
      c0_2 = _mm512_add_ps(_mm512_loadu_ps(c + 0*ldc + 32), c0_2);
      c1_0 = _mm512_add_ps(_mm512_loadu_ps(c + 1*ldc + 0), c1_0);
      c1_1 = _mm512_add_ps(_mm512_loadu_ps(c + 1*ldc + 16), c1_1);
      c1_2 = _mm512_add_ps(_mm512_loadu_ps(c + 1*ldc + 32), c1_2);
      c2_0 = _mm512_add_ps(_mm512_loadu_ps(c + 2*ldc + 0), c2_0);
      c2_1 = _mm512_add_ps(_mm512_loadu_ps(c + 2*ldc + 16), c2_1);
      c2_2 = _mm512_add_ps(_mm512_loadu_ps(c + 2*ldc + 32), c2_2);
      c3_0 = _mm512_add_ps(_mm512_loadu_ps(c + 3*ldc + 0), c3_0);
      c3_1 = _mm512_add_ps(_mm512_loadu_ps(c + 3*ldc + 16), c3_1);
      c3_2 = _mm512_add_ps(_mm512_loadu_ps(c + 3*ldc + 32), c3_2);
      c4_0 = _mm512_add_ps(_mm512_loadu_ps(c + 4*ldc + 0), c4_0);
      c4_1 = _mm512_add_ps(_mm512_loadu_ps(c + 4*ldc + 16), c4_1);
      c4_2 = _mm512_add_ps(_mm512_loadu_ps(c + 4*ldc + 32), c4_2);
      c5_0 = _mm512_add_ps(_mm512_loadu_ps(c + 5*ldc + 0), c5_0);
      c5_1 = _mm512_add_ps(_mm512_loadu_ps(c + 5*ldc + 16), c5_1);
      c5_2 = _mm512_add_ps(_mm512_loadu_ps(c + 5*ldc + 32), c5_2);
      c6_0 = _mm512_add_ps(_mm512_loadu_ps(c + 6*ldc + 0), c6_0);
      c6_1 = _mm512_add_ps(_mm512_loadu_ps(c + 6*ldc + 16), c6_1);
      c6_2 = _mm512_add_ps(_mm512_loadu_ps(c + 6*ldc + 32), c6_2);
      c7_0 = _mm512_add_ps(_mm512_loadu_ps(c + 7*ldc + 0), c7_0);
      c7_1 = _mm512_add_ps(_mm512_loadu_ps(c + 7*ldc + 16), c7_1);
      c7_2 = _mm512_add_ps(_mm512_loadu_ps(c + 7*ldc + 32), c7_2);
    }
    _mm512_storeu_ps(c + 0*ldc + 0, c0_0);
    _mm512_storeu_ps(c + 0*ldc + 16, c0_1);
    _mm512_storeu_ps(c + 0*ldc + 32, c0_2);
    _mm512_storeu_ps(c + 1*ldc + 0, c1_0);
    _mm512_storeu_ps(c + 1*ldc + 16, c1_1);
    _mm512_storeu_ps(c + 1*ldc + 32, c1_2);
    _mm512_storeu_ps(c + 2*ldc + 0, c2_0);
    _mm512_storeu_ps(c + 2*ldc + 16, c2_1);
    _mm512_storeu_ps(c + 2*ldc + 32, c2_2);
    _mm512_storeu_ps(c + 3*ldc + 0, c3_0);
    _mm512_storeu_ps(c + 3*ldc + 16, c3_1);
    _mm512_storeu_ps(c + 3*ldc + 32, c3_2);
    _mm512_storeu_ps(c + 4*ldc + 0, c4_0);
    _mm512_storeu_ps(c + 4*ldc + 16, c4_1);
    _mm512_storeu_ps(c + 4*ldc + 32, c4_2);
    _mm512_storeu_ps(c + 5*ldc + 0, c5_0);
    _mm512_storeu_ps(c + 5*ldc + 16, c5_1);
    _mm512_storeu_ps(c + 5*ldc + 32, c5_2);
    _mm512_storeu_ps(c + 6*ldc + 0, c6_0);
    _mm512_storeu_ps(c + 6*ldc + 16, c6_1);
    _mm512_storeu_ps(c + 6*ldc + 32, c6_2);
    _mm512_storeu_ps(c + 7*ldc + 0, c7_0);
    _mm512_storeu_ps(c + 7*ldc + 16, c7_1);
    _mm512_storeu_ps(c + 7*ldc + 32, c7_2);
    return;
  }
  const __mmask16 m0 = (__mmask16)((1u << (pk_edge_lanes(cols, 0, 16))) - 1u);
  const __mmask16 m1 = (__mmask16)((1u << (pk_edge_lanes(cols, 16, 16))) - 1u);
  const __mmask16 m2 = (__mmask16)((1u << (pk_edge_lanes(cols, 32, 16))) - 1u);
  _mm512_mask_storeu_ps(c + 0*ldc + 0, m0, store ? c0_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 0*ldc + 0), c0_0));
  _mm512_mask_storeu_ps(c + 0*ldc + 16, m1, store ? c0_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 0*ldc + 16), c0_1));
  _mm512_mask_storeu_ps(c + 0*ldc + 32, m2, store ? c0_2 : _mm512_add_ps(_mm512_maskz_loadu_ps(m2, c + 0*ldc + 32), c0_2));
  if (rows == 1) return;
  _mm512_mask_storeu_ps(c + 1*ldc + 0, m0, store ? c1_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 1*ldc + 0), c1_0));
  _mm512_mask_storeu_ps(c + 1*ldc + 16, m1, store ? c1_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 1*ldc + 16), c1_1));
  _mm512_mask_storeu_ps(c + 1*ldc + 32, m2, store ? c1_2 : _mm512_add_ps(_mm512_maskz_loadu_ps(m2, c + 1*ldc + 32), c1_2));
  if (rows == 2) return;
  _mm512_mask_storeu_ps(c + 2*ldc + 0, m0, store ? c2_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 2*ldc + 0), c2_0));
  _mm512_mask_storeu_ps(c + 2*ldc + 16, m1, store ? c2_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 2*ldc + 16), c2_1));
  _mm512_mask_storeu_ps(c + 2*ldc + 32, m2, store ? c2_2 : _mm512_add_ps(_mm512_maskz_loadu_ps(m2, c + 2*ldc + 32), c2_2));
  if (rows == 3) return;
  _mm512_mask_storeu_ps(c + 3*ldc + 0, m0, store ? c3_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 3*ldc + 0), c3_0));
  _mm512_mask_storeu_ps(c + 3*ldc + 16, m1, store ? c3_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 3*ldc + 16), c3_1));
  _mm512_mask_storeu_ps(c + 3*ldc + 32, m2, store ? c3_2 : _mm512_add_ps(_mm512_maskz_loadu_ps(m2, c + 3*ldc + 32), c3_2));
  if (rows == 4) return;
  _mm512_mask_storeu_ps(c + 4*ldc + 0, m0, store ? c4_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 4*ldc + 0), c4_0));
  _mm512_mask_storeu_ps(c + 4*ldc + 16, m1, store ? c4_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 4*ldc + 16), c4_1));
  _mm512_mask_storeu_ps(c + 4*ldc + 32, m2, store ? c4_2 : _mm512_add_ps(_mm512_maskz_loadu_ps(m2, c + 4*ldc + 32), c4_2));
  if (rows == 5) return;
  _mm512_mask_storeu_ps(c + 5*ldc + 0, m0, store ? c5_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 5*ldc + 0), c5_0));
  _mm512_mask_storeu_ps(c + 5*ldc + 16, m1, store ? c5_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 5*ldc + 16), c5_1));
  _mm512_mask_storeu_ps(c + 5*ldc + 32, m2, store ? c5_2 : _mm512_add_ps(_mm512_maskz_loadu_ps(m2, c + 5*ldc + 32), c5_2));
  if (rows == 6) return;
  _mm512_mask_storeu_ps(c + 6*ldc + 0, m0, store ? c6_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 6*ldc + 0), c6_0));
  _mm512_mask_storeu_ps(c + 6*ldc + 16, m1, store ? c6_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 6*ldc + 16), c6_1));
  _mm512_mask_storeu_ps(c + 6*ldc + 32, m2, store ? c6_2 : _mm512_add_ps(_mm512_maskz_loadu_ps(m2, c + 6*ldc + 32), c6_2));
  if (rows == 7) return;
  _mm512_mask_storeu_ps(c + 7*ldc + 0, m0, store ? c7_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 7*ldc + 0), c7_0));
  _mm512_mask_storeu_ps(c + 7*ldc + 16, m1, store ? c7_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 7*ldc + 16), c7_1));
  _mm512_mask_storeu_ps(c + 7*ldc + 32, m2, store ? c7_2 : _mm512_add_ps(_mm512_maskz_loadu_ps(m2, c + 7*ldc + 32), c7_2));
}

PK_SHARED void pk_ukr_gemm_f32_avx512_8x48_ppf(int64_t kb, const float *restrict a, int64_t lda, const float *restrict b, int64_t ldb,
    float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store) {
  if (rows == 8 && cols == 48) pk_ukr_gemm_f32_avx512_8x48_ppf_8x3(kb, a, lda, b, ldb, c, ldc, rows, cols, store);
  else pk_ukr_gemm_f32_avx512_8x48_pp(kb, a, lda, b, ldb, c, ldc, rows, cols, store);
}

PK_SHARED int kc_0_matmul(const float *restrict A, const float *restrict B, float *restrict C, int64_t M, int64_t K, int64_t N) {
  { /* contraction s0: gemm_f32_avx512_8x48 */
    const int64_t pk_m = M, pk_n = N, pk_k = K;
    const pk_gemm_f32_shape *pk_shape;
    int64_t pk_mc, pk_nc, pk_kc;
    if (pk_m <= 16) /* mc 96 nc 480 kc 64, order knm, inner mn, parallel n, pack none */
      pk_shape = &pk_gemm_f32_avx512_8x48_knm_mn_n_uu, pk_mc = 96, pk_nc = 480, pk_kc = 64;
    else /* mc 96 nc 480 kc 256, order nkm, inner mn, parallel m, pack AB */
      pk_shape = &pk_gemm_f32_avx512_8x48_nkm_mn_m_pp, pk_mc = 96, pk_nc = 480, pk_kc = 256;
    const int pk_status = pk_gemm_f32_run(&(const pk_gemm_f32){.a = A, .b = B, .c = C, .m = pk_m, .n = pk_n, .k = pk_k, .a_m = K, .a_k = 1, .b_k = N, .b_n = 1, .c_m = N, .mc = pk_mc, .nc = pk_nc, .kc = pk_kc, .overwrite = 1}, NULL, pk_shape, 0);
    if (pk_status != PK_OK) {
      return PK_NO_MEMORY;
    }
  }
  return PK_OK;
}
