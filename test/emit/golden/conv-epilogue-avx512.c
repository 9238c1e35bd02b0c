/* Convolution s0's epilogue on the output block pk_lo .. pk_hi (batch, spatial, channel indices). */
typedef struct {
  const float *restrict scale;
  const float *restrict X;
  int64_t sX0;
  int64_t sX1;
  int64_t K;
  float *restrict O;
  int64_t sO0;
  int64_t sO1;
} kc_3_fused_e0_ctx;

static void kc_3_fused_e0(const void *pk_ctx, const int64_t *pk_lo, const int64_t *pk_hi) {
  const kc_3_fused_e0_ctx *pk_c = pk_ctx;
  const float *restrict scale = pk_c->scale;
  const float *restrict X = pk_c->X;
  int64_t sX0 = pk_c->sX0;
  int64_t sX1 = pk_c->sX1;
  int64_t K = pk_c->K;
  float *restrict O = pk_c->O;
  int64_t sO0 = pk_c->sO0;
  int64_t sO1 = pk_c->sO1;
  for (int64_t a = pk_lo[0]; a < pk_hi[0]; a++) {
    for (int64_t b = pk_lo[1]; b < pk_hi[1]; b++) {
      for (int64_t e = pk_lo[2]; e < pk_hi[2]; e++) {
        {
          const int64_t pk_vlo = pk_lo[3], pk_vhi = pk_hi[3];
          if (pk_vlo < pk_vhi) {
            int64_t d = pk_vlo;
            for (; d <= pk_vhi - 16; d += 16) {
              __builtin_prefetch(scale + d + 512, 0, 3);
              __builtin_prefetch(X + a*sX0 + b*sX1 + e*K + d + 512, 0, 3);
              _mm512_storeu_ps(O + a*sO0 + b*sO1 + e*K + d, _mm512_add_ps(_mm512_mul_ps(_mm512_loadu_ps(O + a*sO0 + b*sO1 + e*K + d), _mm512_loadu_ps(scale + d)), _mm512_loadu_ps(X + a*sX0 + b*sX1 + e*K + d)));
            }
            if (d < pk_vhi) {
              const __mmask16 pk_vm = (__mmask16)((1u << (pk_vhi - d)) - 1u);
              _mm512_mask_storeu_ps(O + a*sO0 + b*sO1 + e*K + d, pk_vm, _mm512_add_ps(_mm512_mul_ps(_mm512_maskz_loadu_ps(pk_vm, O + a*sO0 + b*sO1 + e*K + d), _mm512_maskz_loadu_ps(pk_vm, scale + d)), _mm512_maskz_loadu_ps(pk_vm, X + a*sX0 + b*sX1 + e*K + d)));
            }
          }
        }
      }
    }
  }
}

/* Convolution s0's epilogue: what its tiles read besides their sums. */
typedef struct {
  const float * c0;
  const float * f1;
  const float * f2;
} kc_3_fused_g0_ctx;

PK_SHARED void pk_ukr_gemm_f32_avx512_6x64_upg(int64_t kb, int64_t groups, int64_t ga, const float *restrict a, int64_t lda, const float *restrict b, int64_t ldb,
    float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store);
static inline void pk_ukr_gemm_f32_avx512_6x64_upg_kc_3_fused_g0_6x4(int64_t kb, int64_t groups, int64_t ga, const float *restrict a, int64_t lda,
    const float *restrict b, int64_t ldb, float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store, const void *pk_ectx, int64_t pk_i0, int64_t pk_j0) {
  const kc_3_fused_g0_ctx *pk_e = pk_ectx;
  (void)pk_e, (void)pk_i0, (void)pk_j0;
  const float *restrict a0 = a + 0*lda;
  const float *restrict a1 = a + pk_min64(1, rows - 1)*lda;
  const float *restrict a2 = a + pk_min64(2, rows - 1)*lda;
  const float *restrict a3 = a + pk_min64(3, rows - 1)*lda;
  const float *restrict a4 = a + pk_min64(4, rows - 1)*lda;
  const float *restrict a5 = a + pk_min64(5, rows - 1)*lda;
  (void)ldb;
  __m512 c0_0 = _mm512_setzero_ps(), c0_1 = _mm512_setzero_ps(), c0_2 = _mm512_setzero_ps(), c0_3 = _mm512_setzero_ps();
  __m512 c1_0 = _mm512_setzero_ps(), c1_1 = _mm512_setzero_ps(), c1_2 = _mm512_setzero_ps(), c1_3 = _mm512_setzero_ps();
  __m512 c2_0 = _mm512_setzero_ps(), c2_1 = _mm512_setzero_ps(), c2_2 = _mm512_setzero_ps(), c2_3 = _mm512_setzero_ps();
  __m512 c3_0 = _mm512_setzero_ps(), c3_1 = _mm512_setzero_ps(), c3_2 = _mm512_setzero_ps(), c3_3 = _mm512_setzero_ps();
  __m512 c4_0 = _mm512_setzero_ps(), c4_1 = _mm512_setzero_ps(), c4_2 = _mm512_setzero_ps(), c4_3 = _mm512_setzero_ps();
  __m512 c5_0 = _mm512_setzero_ps(), c5_1 = _mm512_setzero_ps(), c5_2 = _mm512_setzero_ps(), c5_3 = _mm512_setzero_ps();
  const int64_t pk_gap = kb / 12;
  if (groups > 1 || pk_gap < 4) {
    __builtin_prefetch(c + 0*ldc + 0, 1, 3), __builtin_prefetch(c + 0*ldc + 16, 1, 3), __builtin_prefetch(c + 0*ldc + 32, 1, 3), __builtin_prefetch(c + 0*ldc + 48, 1, 3), __builtin_prefetch(c + 0*ldc + 63, 1, 3);
    __builtin_prefetch(c + 1*ldc + 0, 1, 3), __builtin_prefetch(c + 1*ldc + 16, 1, 3), __builtin_prefetch(c + 1*ldc + 32, 1, 3), __builtin_prefetch(c + 1*ldc + 48, 1, 3), __builtin_prefetch(c + 1*ldc + 63, 1, 3);
    __builtin_prefetch(c + 2*ldc + 0, 1, 3), __builtin_prefetch(c + 2*ldc + 16, 1, 3), __builtin_prefetch(c + 2*ldc + 32, 1, 3), __builtin_prefetch(c + 2*ldc + 48, 1, 3), __builtin_prefetch(c + 2*ldc + 63, 1, 3);
    __builtin_prefetch(c + 3*ldc + 0, 1, 3), __builtin_prefetch(c + 3*ldc + 16, 1, 3), __builtin_prefetch(c + 3*ldc + 32, 1, 3), __builtin_prefetch(c + 3*ldc + 48, 1, 3), __builtin_prefetch(c + 3*ldc + 63, 1, 3);
    __builtin_prefetch(c + 4*ldc + 0, 1, 3), __builtin_prefetch(c + 4*ldc + 16, 1, 3), __builtin_prefetch(c + 4*ldc + 32, 1, 3), __builtin_prefetch(c + 4*ldc + 48, 1, 3), __builtin_prefetch(c + 4*ldc + 63, 1, 3);
    __builtin_prefetch(c + 5*ldc + 0, 1, 3), __builtin_prefetch(c + 5*ldc + 16, 1, 3), __builtin_prefetch(c + 5*ldc + 32, 1, 3), __builtin_prefetch(c + 5*ldc + 48, 1, 3), __builtin_prefetch(c + 5*ldc + 63, 1, 3);
    for (int64_t g = 0; g < groups; g++) {
#pragma GCC unroll 4
      for (int64_t p = 0; p < kb; p++) {
        const __m512 b0 = _mm512_load_ps(b + 0);
        const __m512 b1 = _mm512_load_ps(b + 16);
        const __m512 b2 = _mm512_load_ps(b + 32);
        const __m512 b3 = _mm512_load_ps(b + 48);
        const __m512 a0v = _mm512_set1_ps(*(a0 + p));
        c0_0 = _mm512_fmadd_ps(a0v, b0, c0_0);
        c0_1 = _mm512_fmadd_ps(a0v, b1, c0_1);
        c0_2 = _mm512_fmadd_ps(a0v, b2, c0_2);
        c0_3 = _mm512_fmadd_ps(a0v, b3, c0_3);
        const __m512 a1v = _mm512_set1_ps(*(a1 + p));
        c1_0 = _mm512_fmadd_ps(a1v, b0, c1_0);
        c1_1 = _mm512_fmadd_ps(a1v, b1, c1_1);
        c1_2 = _mm512_fmadd_ps(a1v, b2, c1_2);
        c1_3 = _mm512_fmadd_ps(a1v, b3, c1_3);
        const __m512 a2v = _mm512_set1_ps(*(a2 + p));
        c2_0 = _mm512_fmadd_ps(a2v, b0, c2_0);
        c2_1 = _mm512_fmadd_ps(a2v, b1, c2_1);
        c2_2 = _mm512_fmadd_ps(a2v, b2, c2_2);
        c2_3 = _mm512_fmadd_ps(a2v, b3, c2_3);
        const __m512 a3v = _mm512_set1_ps(*(a3 + p));
        c3_0 = _mm512_fmadd_ps(a3v, b0, c3_0);
        c3_1 = _mm512_fmadd_ps(a3v, b1, c3_1);
        c3_2 = _mm512_fmadd_ps(a3v, b2, c3_2);
        c3_3 = _mm512_fmadd_ps(a3v, b3, c3_3);
        const __m512 a4v = _mm512_set1_ps(*(a4 + p));
        c4_0 = _mm512_fmadd_ps(a4v, b0, c4_0);
        c4_1 = _mm512_fmadd_ps(a4v, b1, c4_1);
        c4_2 = _mm512_fmadd_ps(a4v, b2, c4_2);
        c4_3 = _mm512_fmadd_ps(a4v, b3, c4_3);
        const __m512 a5v = _mm512_set1_ps(*(a5 + p));
        c5_0 = _mm512_fmadd_ps(a5v, b0, c5_0);
        c5_1 = _mm512_fmadd_ps(a5v, b1, c5_1);
        c5_2 = _mm512_fmadd_ps(a5v, b2, c5_2);
        c5_3 = _mm512_fmadd_ps(a5v, b3, c5_3);
        b += 64;
      }
      a0 += ga;
      a1 += ga;
      a2 += ga;
      a3 += ga;
      a4 += ga;
      a5 += ga;
    }
  } else {
    const float *pk_row = c, *const pk_last = c + (rows - 1)*ldc;
    int64_t pk_next = pk_gap, p = 0;
    for (; p + 4 <= kb; p += 4) {
      __builtin_prefetch(pk_row + 0, 1, 3), __builtin_prefetch(pk_row + 16, 1, 3), __builtin_prefetch(pk_row + 32, 1, 3), __builtin_prefetch(pk_row + 48, 1, 3), __builtin_prefetch(pk_row + 63, 1, 3);
      const int pk_on = p + 4 > pk_next && pk_row < pk_last;
      pk_row = pk_on ? pk_row + ldc : pk_row;
      pk_next = pk_on ? pk_next + pk_gap : pk_next;
      {
        const __m512 b0 = _mm512_load_ps(b + 0);
        const __m512 b1 = _mm512_load_ps(b + 16);
        const __m512 b2 = _mm512_load_ps(b + 32);
        const __m512 b3 = _mm512_load_ps(b + 48);
        const __m512 a0v = _mm512_set1_ps(*(a0 + p));
        c0_0 = _mm512_fmadd_ps(a0v, b0, c0_0);
        c0_1 = _mm512_fmadd_ps(a0v, b1, c0_1);
        c0_2 = _mm512_fmadd_ps(a0v, b2, c0_2);
        c0_3 = _mm512_fmadd_ps(a0v, b3, c0_3);
        const __m512 a1v = _mm512_set1_ps(*(a1 + p));
        c1_0 = _mm512_fmadd_ps(a1v, b0, c1_0);
        c1_1 = _mm512_fmadd_ps(a1v, b1, c1_1);
        c1_2 = _mm512_fmadd_ps(a1v, b2, c1_2);
        c1_3 = _mm512_fmadd_ps(a1v, b3, c1_3);
        const __m512 a2v = _mm512_set1_ps(*(a2 + p));
        c2_0 = _mm512_fmadd_ps(a2v, b0, c2_0);
        c2_1 = _mm512_fmadd_ps(a2v, b1, c2_1);
        c2_2 = _mm512_fmadd_ps(a2v, b2, c2_2);
        c2_3 = _mm512_fmadd_ps(a2v, b3, c2_3);
        const __m512 a3v = _mm512_set1_ps(*(a3 + p));
        c3_0 = _mm512_fmadd_ps(a3v, b0, c3_0);
        c3_1 = _mm512_fmadd_ps(a3v, b1, c3_1);
        c3_2 = _mm512_fmadd_ps(a3v, b2, c3_2);
        c3_3 = _mm512_fmadd_ps(a3v, b3, c3_3);
        const __m512 a4v = _mm512_set1_ps(*(a4 + p));
        c4_0 = _mm512_fmadd_ps(a4v, b0, c4_0);
        c4_1 = _mm512_fmadd_ps(a4v, b1, c4_1);
        c4_2 = _mm512_fmadd_ps(a4v, b2, c4_2);
        c4_3 = _mm512_fmadd_ps(a4v, b3, c4_3);
        const __m512 a5v = _mm512_set1_ps(*(a5 + p));
        c5_0 = _mm512_fmadd_ps(a5v, b0, c5_0);
        c5_1 = _mm512_fmadd_ps(a5v, b1, c5_1);
        c5_2 = _mm512_fmadd_ps(a5v, b2, c5_2);
        c5_3 = _mm512_fmadd_ps(a5v, b3, c5_3);
      }
      {
        const __m512 b0 = _mm512_load_ps(b + 64);
        const __m512 b1 = _mm512_load_ps(b + 80);
        const __m512 b2 = _mm512_load_ps(b + 96);
        const __m512 b3 = _mm512_load_ps(b + 112);
        const __m512 a0v = _mm512_set1_ps(*(a0 + (p + 1)));
        c0_0 = _mm512_fmadd_ps(a0v, b0, c0_0);
        c0_1 = _mm512_fmadd_ps(a0v, b1, c0_1);
        c0_2 = _mm512_fmadd_ps(a0v, b2, c0_2);
        c0_3 = _mm512_fmadd_ps(a0v, b3, c0_3);
        const __m512 a1v = _mm512_set1_ps(*(a1 + (p + 1)));
        c1_0 = _mm512_fmadd_ps(a1v, b0, c1_0);
        c1_1 = _mm512_fmadd_ps(a1v, b1, c1_1);
        c1_2 = _mm512_fmadd_ps(a1v, b2, c1_2);
        c1_3 = _mm512_fmadd_ps(a1v, b3, c1_3);
        const __m512 a2v = _mm512_set1_ps(*(a2 + (p + 1)));
        c2_0 = _mm512_fmadd_ps(a2v, b0, c2_0);
        c2_1 = _mm512_fmadd_ps(a2v, b1, c2_1);
        c2_2 = _mm512_fmadd_ps(a2v, b2, c2_2);
        c2_3 = _mm512_fmadd_ps(a2v, b3, c2_3);
        const __m512 a3v = _mm512_set1_ps(*(a3 + (p + 1)));
        c3_0 = _mm512_fmadd_ps(a3v, b0, c3_0);
        c3_1 = _mm512_fmadd_ps(a3v, b1, c3_1);
        c3_2 = _mm512_fmadd_ps(a3v, b2, c3_2);
        c3_3 = _mm512_fmadd_ps(a3v, b3, c3_3);
        const __m512 a4v = _mm512_set1_ps(*(a4 + (p + 1)));
        c4_0 = _mm512_fmadd_ps(a4v, b0, c4_0);
        c4_1 = _mm512_fmadd_ps(a4v, b1, c4_1);
        c4_2 = _mm512_fmadd_ps(a4v, b2, c4_2);
        c4_3 = _mm512_fmadd_ps(a4v, b3, c4_3);
        const __m512 a5v = _mm512_set1_ps(*(a5 + (p + 1)));
        c5_0 = _mm512_fmadd_ps(a5v, b0, c5_0);
        c5_1 = _mm512_fmadd_ps(a5v, b1, c5_1);
        c5_2 = _mm512_fmadd_ps(a5v, b2, c5_2);
        c5_3 = _mm512_fmadd_ps(a5v, b3, c5_3);
      }
      {
        const __m512 b0 = _mm512_load_ps(b + 128);
        const __m512 b1 = _mm512_load_ps(b + 144);
        const __m512 b2 = _mm512_load_ps(b + 160);
        const __m512 b3 = _mm512_load_ps(b + 176);
        const __m512 a0v = _mm512_set1_ps(*(a0 + (p + 2)));
        c0_0 = _mm512_fmadd_ps(a0v, b0, c0_0);
        c0_1 = _mm512_fmadd_ps(a0v, b1, c0_1);
        c0_2 = _mm512_fmadd_ps(a0v, b2, c0_2);
        c0_3 = _mm512_fmadd_ps(a0v, b3, c0_3);
        const __m512 a1v = _mm512_set1_ps(*(a1 + (p + 2)));
        c1_0 = _mm512_fmadd_ps(a1v, b0, c1_0);
        c1_1 = _mm512_fmadd_ps(a1v, b1, c1_1);
        c1_2 = _mm512_fmadd_ps(a1v, b2, c1_2);
        c1_3 = _mm512_fmadd_ps(a1v, b3, c1_3);
        const __m512 a2v = _mm512_set1_ps(*(a2 + (p + 2)));
        c2_0 = _mm512_fmadd_ps(a2v, b0, c2_0);
        c2_1 = _mm512_fmadd_ps(a2v, b1, c2_1);
        c2_2 = _mm512_fmadd_ps(a2v, b2, c2_2);
        c2_3 = _mm512_fmadd_ps(a2v, b3, c2_3);
        const __m512 a3v = _mm512_set1_ps(*(a3 + (p + 2)));
        c3_0 = _mm512_fmadd_ps(a3v, b0, c3_0);
        c3_1 = _mm512_fmadd_ps(a3v, b1, c3_1);
        c3_2 = _mm512_fmadd_ps(a3v, b2, c3_2);
        c3_3 = _mm512_fmadd_ps(a3v, b3, c3_3);
        const __m512 a4v = _mm512_set1_ps(*(a4 + (p + 2)));
        c4_0 = _mm512_fmadd_ps(a4v, b0, c4_0);
        c4_1 = _mm512_fmadd_ps(a4v, b1, c4_1);
        c4_2 = _mm512_fmadd_ps(a4v, b2, c4_2);
        c4_3 = _mm512_fmadd_ps(a4v, b3, c4_3);
        const __m512 a5v = _mm512_set1_ps(*(a5 + (p + 2)));
        c5_0 = _mm512_fmadd_ps(a5v, b0, c5_0);
        c5_1 = _mm512_fmadd_ps(a5v, b1, c5_1);
        c5_2 = _mm512_fmadd_ps(a5v, b2, c5_2);
        c5_3 = _mm512_fmadd_ps(a5v, b3, c5_3);
      }
      {
        const __m512 b0 = _mm512_load_ps(b + 192);
        const __m512 b1 = _mm512_load_ps(b + 208);
        const __m512 b2 = _mm512_load_ps(b + 224);
        const __m512 b3 = _mm512_load_ps(b + 240);
        const __m512 a0v = _mm512_set1_ps(*(a0 + (p + 3)));
        c0_0 = _mm512_fmadd_ps(a0v, b0, c0_0);
        c0_1 = _mm512_fmadd_ps(a0v, b1, c0_1);
        c0_2 = _mm512_fmadd_ps(a0v, b2, c0_2);
        c0_3 = _mm512_fmadd_ps(a0v, b3, c0_3);
        const __m512 a1v = _mm512_set1_ps(*(a1 + (p + 3)));
        c1_0 = _mm512_fmadd_ps(a1v, b0, c1_0);
        c1_1 = _mm512_fmadd_ps(a1v, b1, c1_1);
        c1_2 = _mm512_fmadd_ps(a1v, b2, c1_2);
        c1_3 = _mm512_fmadd_ps(a1v, b3, c1_3);
        const __m512 a2v = _mm512_set1_ps(*(a2 + (p + 3)));
        c2_0 = _mm512_fmadd_ps(a2v, b0, c2_0);
        c2_1 = _mm512_fmadd_ps(a2v, b1, c2_1);
        c2_2 = _mm512_fmadd_ps(a2v, b2, c2_2);
        c2_3 = _mm512_fmadd_ps(a2v, b3, c2_3);
        const __m512 a3v = _mm512_set1_ps(*(a3 + (p + 3)));
        c3_0 = _mm512_fmadd_ps(a3v, b0, c3_0);
        c3_1 = _mm512_fmadd_ps(a3v, b1, c3_1);
        c3_2 = _mm512_fmadd_ps(a3v, b2, c3_2);
        c3_3 = _mm512_fmadd_ps(a3v, b3, c3_3);
        const __m512 a4v = _mm512_set1_ps(*(a4 + (p + 3)));
        c4_0 = _mm512_fmadd_ps(a4v, b0, c4_0);
        c4_1 = _mm512_fmadd_ps(a4v, b1, c4_1);
        c4_2 = _mm512_fmadd_ps(a4v, b2, c4_2);
        c4_3 = _mm512_fmadd_ps(a4v, b3, c4_3);
        const __m512 a5v = _mm512_set1_ps(*(a5 + (p + 3)));
        c5_0 = _mm512_fmadd_ps(a5v, b0, c5_0);
        c5_1 = _mm512_fmadd_ps(a5v, b1, c5_1);
        c5_2 = _mm512_fmadd_ps(a5v, b2, c5_2);
        c5_3 = _mm512_fmadd_ps(a5v, b3, c5_3);
      }
      b += 256;
    }
    for (; p < kb; p++) {
      const __m512 b0 = _mm512_load_ps(b + 0);
      const __m512 b1 = _mm512_load_ps(b + 16);
      const __m512 b2 = _mm512_load_ps(b + 32);
      const __m512 b3 = _mm512_load_ps(b + 48);
      const __m512 a0v = _mm512_set1_ps(*(a0 + p));
      c0_0 = _mm512_fmadd_ps(a0v, b0, c0_0);
      c0_1 = _mm512_fmadd_ps(a0v, b1, c0_1);
      c0_2 = _mm512_fmadd_ps(a0v, b2, c0_2);
      c0_3 = _mm512_fmadd_ps(a0v, b3, c0_3);
      const __m512 a1v = _mm512_set1_ps(*(a1 + p));
      c1_0 = _mm512_fmadd_ps(a1v, b0, c1_0);
      c1_1 = _mm512_fmadd_ps(a1v, b1, c1_1);
      c1_2 = _mm512_fmadd_ps(a1v, b2, c1_2);
      c1_3 = _mm512_fmadd_ps(a1v, b3, c1_3);
      const __m512 a2v = _mm512_set1_ps(*(a2 + p));
      c2_0 = _mm512_fmadd_ps(a2v, b0, c2_0);
      c2_1 = _mm512_fmadd_ps(a2v, b1, c2_1);
      c2_2 = _mm512_fmadd_ps(a2v, b2, c2_2);
      c2_3 = _mm512_fmadd_ps(a2v, b3, c2_3);
      const __m512 a3v = _mm512_set1_ps(*(a3 + p));
      c3_0 = _mm512_fmadd_ps(a3v, b0, c3_0);
      c3_1 = _mm512_fmadd_ps(a3v, b1, c3_1);
      c3_2 = _mm512_fmadd_ps(a3v, b2, c3_2);
      c3_3 = _mm512_fmadd_ps(a3v, b3, c3_3);
      const __m512 a4v = _mm512_set1_ps(*(a4 + p));
      c4_0 = _mm512_fmadd_ps(a4v, b0, c4_0);
      c4_1 = _mm512_fmadd_ps(a4v, b1, c4_1);
      c4_2 = _mm512_fmadd_ps(a4v, b2, c4_2);
      c4_3 = _mm512_fmadd_ps(a4v, b3, c4_3);
      const __m512 a5v = _mm512_set1_ps(*(a5 + p));
      c5_0 = _mm512_fmadd_ps(a5v, b0, c5_0);
      c5_1 = _mm512_fmadd_ps(a5v, b1, c5_1);
      c5_2 = _mm512_fmadd_ps(a5v, b2, c5_2);
      c5_3 = _mm512_fmadd_ps(a5v, b3, c5_3);
      b += 64;
    }
  }
  if (rows == 6 && cols == 64) {
    if (!store) {
      c0_0 = _mm512_add_ps(_mm512_loadu_ps(c + 0*ldc + 0), c0_0);
      c0_1 = _mm512_add_ps(_mm512_loadu_ps(c + 0*ldc + 16), c0_1);
      c0_2 = _mm512_add_ps(_mm512_loadu_ps(c + 0*ldc + 32), c0_2);
      c0_3 = _mm512_add_ps(_mm512_loadu_ps(c + 0*ldc + 48), c0_3);
      c1_0 = _mm512_add_ps(_mm512_loadu_ps(c + 1*ldc + 0), c1_0);
      c1_1 = _mm512_add_ps(_mm512_loadu_ps(c + 1*ldc + 16), c1_1);
      c1_2 = _mm512_add_ps(_mm512_loadu_ps(c + 1*ldc + 32), c1_2);
      c1_3 = _mm512_add_ps(_mm512_loadu_ps(c + 1*ldc + 48), c1_3);
      c2_0 = _mm512_add_ps(_mm512_loadu_ps(c + 2*ldc + 0), c2_0);
      c2_1 = _mm512_add_ps(_mm512_loadu_ps(c + 2*ldc + 16), c2_1);
      c2_2 = _mm512_add_ps(_mm512_loadu_ps(c + 2*ldc + 32), c2_2);
      c2_3 = _mm512_add_ps(_mm512_loadu_ps(c + 2*ldc + 48), c2_3);
      c3_0 = _mm512_add_ps(_mm512_loadu_ps(c + 3*ldc + 0), c3_0);
      c3_1 = _mm512_add_ps(_mm512_loadu_ps(c + 3*ldc + 16), c3_1);
      c3_2 = _mm512_add_ps(_mm512_loadu_ps(c + 3*ldc + 32), c3_2);
      c3_3 = _mm512_add_ps(_mm512_loadu_ps(c + 3*ldc + 48), c3_3);
      c4_0 = _mm512_add_ps(_mm512_loadu_ps(c + 4*ldc + 0), c4_0);
      c4_1 = _mm512_add_ps(_mm512_loadu_ps(c + 4*ldc + 16), c4_1);
      c4_2 = _mm512_add_ps(_mm512_loadu_ps(c + 4*ldc + 32), c4_2);
      c4_3 = _mm512_add_ps(_mm512_loadu_ps(c + 4*ldc + 48), c4_3);
      c5_0 = _mm512_add_ps(_mm512_loadu_ps(c + 5*ldc + 0), c5_0);
      c5_1 = _mm512_add_ps(_mm512_loadu_ps(c + 5*ldc + 16), c5_1);
      c5_2 = _mm512_add_ps(_mm512_loadu_ps(c + 5*ldc + 32), c5_2);
      c5_3 = _mm512_add_ps(_mm512_loadu_ps(c + 5*ldc + 48), c5_3);
    }
    c0_0 = _mm512_add_ps(_mm512_mul_ps(c0_0, _mm512_loadu_ps(pk_e->f1 + pk_j0 + 0)), _mm512_loadu_ps(pk_e->f2 + (c - pk_e->c0) + 0*ldc + 0));
    c0_1 = _mm512_add_ps(_mm512_mul_ps(c0_1, _mm512_loadu_ps(pk_e->f1 + pk_j0 + 16)), _mm512_loadu_ps(pk_e->f2 + (c - pk_e->c0) + 0*ldc + 16));
    c0_2 = _mm512_add_ps(_mm512_mul_ps(c0_2, _mm512_loadu_ps(pk_e->f1 + pk_j0 + 32)), _mm512_loadu_ps(pk_e->f2 + (c - pk_e->c0) + 0*ldc + 32));
    c0_3 = _mm512_add_ps(_mm512_mul_ps(c0_3, _mm512_loadu_ps(pk_e->f1 + pk_j0 + 48)), _mm512_loadu_ps(pk_e->f2 + (c - pk_e->c0) + 0*ldc + 48));
    c1_0 = _mm512_add_ps(_mm512_mul_ps(c1_0, _mm512_loadu_ps(pk_e->f1 + pk_j0 + 0)), _mm512_loadu_ps(pk_e->f2 + (c - pk_e->c0) + 1*ldc + 0));
    c1_1 = _mm512_add_ps(_mm512_mul_ps(c1_1, _mm512_loadu_ps(pk_e->f1 + pk_j0 + 16)), _mm512_loadu_ps(pk_e->f2 + (c - pk_e->c0) + 1*ldc + 16));
    c1_2 = _mm512_add_ps(_mm512_mul_ps(c1_2, _mm512_loadu_ps(pk_e->f1 + pk_j0 + 32)), _mm512_loadu_ps(pk_e->f2 + (c - pk_e->c0) + 1*ldc + 32));
    c1_3 = _mm512_add_ps(_mm512_mul_ps(c1_3, _mm512_loadu_ps(pk_e->f1 + pk_j0 + 48)), _mm512_loadu_ps(pk_e->f2 + (c - pk_e->c0) + 1*ldc + 48));
    c2_0 = _mm512_add_ps(_mm512_mul_ps(c2_0, _mm512_loadu_ps(pk_e->f1 + pk_j0 + 0)), _mm512_loadu_ps(pk_e->f2 + (c - pk_e->c0) + 2*ldc + 0));
    c2_1 = _mm512_add_ps(_mm512_mul_ps(c2_1, _mm512_loadu_ps(pk_e->f1 + pk_j0 + 16)), _mm512_loadu_ps(pk_e->f2 + (c - pk_e->c0) + 2*ldc + 16));
    c2_2 = _mm512_add_ps(_mm512_mul_ps(c2_2, _mm512_loadu_ps(pk_e->f1 + pk_j0 + 32)), _mm512_loadu_ps(pk_e->f2 + (c - pk_e->c0) + 2*ldc + 32));
    c2_3 = _mm512_add_ps(_mm512_mul_ps(c2_3, _mm512_loadu_ps(pk_e->f1 + pk_j0 + 48)), _mm512_loadu_ps(pk_e->f2 + (c - pk_e->c0) + 2*ldc + 48));
    c3_0 = _mm512_add_ps(_mm512_mul_ps(c3_0, _mm512_loadu_ps(pk_e->f1 + pk_j0 + 0)), _mm512_loadu_ps(pk_e->f2 + (c - pk_e->c0) + 3*ldc + 0));
    c3_1 = _mm512_add_ps(_mm512_mul_ps(c3_1, _mm512_loadu_ps(pk_e->f1 + pk_j0 + 16)), _mm512_loadu_ps(pk_e->f2 + (c - pk_e->c0) + 3*ldc + 16));
    c3_2 = _mm512_add_ps(_mm512_mul_ps(c3_2, _mm512_loadu_ps(pk_e->f1 + pk_j0 + 32)), _mm512_loadu_ps(pk_e->f2 + (c - pk_e->c0) + 3*ldc + 32));
    c3_3 = _mm512_add_ps(_mm512_mul_ps(c3_3, _mm512_loadu_ps(pk_e->f1 + pk_j0 + 48)), _mm512_loadu_ps(pk_e->f2 + (c - pk_e->c0) + 3*ldc + 48));
    c4_0 = _mm512_add_ps(_mm512_mul_ps(c4_0, _mm512_loadu_ps(pk_e->f1 + pk_j0 + 0)), _mm512_loadu_ps(pk_e->f2 + (c - pk_e->c0) + 4*ldc + 0));
    c4_1 = _mm512_add_ps(_mm512_mul_ps(c4_1, _mm512_loadu_ps(pk_e->f1 + pk_j0 + 16)), _mm512_loadu_ps(pk_e->f2 + (c - pk_e->c0) + 4*ldc + 16));
    c4_2 = _mm512_add_ps(_mm512_mul_ps(c4_2, _mm512_loadu_ps(pk_e->f1 + pk_j0 + 32)), _mm512_loadu_ps(pk_e->f2 + (c - pk_e->c0) + 4*ldc + 32));
    c4_3 = _mm512_add_ps(_mm512_mul_ps(c4_3, _mm512_loadu_ps(pk_e->f1 + pk_j0 + 48)), _mm512_loadu_ps(pk_e->f2 + (c - pk_e->c0) + 4*ldc + 48));
    c5_0 = _mm512_add_ps(_mm512_mul_ps(c5_0, _mm512_loadu_ps(pk_e->f1 + pk_j0 + 0)), _mm512_loadu_ps(pk_e->f2 + (c - pk_e->c0) + 5*ldc + 0));
    c5_1 = _mm512_add_ps(_mm512_mul_ps(c5_1, _mm512_loadu_ps(pk_e->f1 + pk_j0 + 16)), _mm512_loadu_ps(pk_e->f2 + (c - pk_e->c0) + 5*ldc + 16));
    c5_2 = _mm512_add_ps(_mm512_mul_ps(c5_2, _mm512_loadu_ps(pk_e->f1 + pk_j0 + 32)), _mm512_loadu_ps(pk_e->f2 + (c - pk_e->c0) + 5*ldc + 32));
    c5_3 = _mm512_add_ps(_mm512_mul_ps(c5_3, _mm512_loadu_ps(pk_e->f1 + pk_j0 + 48)), _mm512_loadu_ps(pk_e->f2 + (c - pk_e->c0) + 5*ldc + 48));
    _mm512_storeu_ps(c + 0*ldc + 0, c0_0);
    _mm512_storeu_ps(c + 0*ldc + 16, c0_1);
    _mm512_storeu_ps(c + 0*ldc + 32, c0_2);
    _mm512_storeu_ps(c + 0*ldc + 48, c0_3);
    _mm512_storeu_ps(c + 1*ldc + 0, c1_0);
    _mm512_storeu_ps(c + 1*ldc + 16, c1_1);
    _mm512_storeu_ps(c + 1*ldc + 32, c1_2);
    _mm512_storeu_ps(c + 1*ldc + 48, c1_3);
    _mm512_storeu_ps(c + 2*ldc + 0, c2_0);
    _mm512_storeu_ps(c + 2*ldc + 16, c2_1);
    _mm512_storeu_ps(c + 2*ldc + 32, c2_2);
    _mm512_storeu_ps(c + 2*ldc + 48, c2_3);
    _mm512_storeu_ps(c + 3*ldc + 0, c3_0);
    _mm512_storeu_ps(c + 3*ldc + 16, c3_1);
    _mm512_storeu_ps(c + 3*ldc + 32, c3_2);
    _mm512_storeu_ps(c + 3*ldc + 48, c3_3);
    _mm512_storeu_ps(c + 4*ldc + 0, c4_0);
    _mm512_storeu_ps(c + 4*ldc + 16, c4_1);
    _mm512_storeu_ps(c + 4*ldc + 32, c4_2);
    _mm512_storeu_ps(c + 4*ldc + 48, c4_3);
    _mm512_storeu_ps(c + 5*ldc + 0, c5_0);
    _mm512_storeu_ps(c + 5*ldc + 16, c5_1);
    _mm512_storeu_ps(c + 5*ldc + 32, c5_2);
    _mm512_storeu_ps(c + 5*ldc + 48, c5_3);
    return;
  }
  const __mmask16 m0 = (__mmask16)((1u << (pk_edge_lanes(cols, 0, 16))) - 1u);
  const __mmask16 m1 = (__mmask16)((1u << (pk_edge_lanes(cols, 16, 16))) - 1u);
  const __mmask16 m2 = (__mmask16)((1u << (pk_edge_lanes(cols, 32, 16))) - 1u);
  const __mmask16 m3 = (__mmask16)((1u << (pk_edge_lanes(cols, 48, 16))) - 1u);
  { const __m512 pk_x = store ? c0_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 0*ldc + 0), c0_0); _mm512_mask_storeu_ps(c + 0*ldc + 0, m0, _mm512_add_ps(_mm512_mul_ps(pk_x, _mm512_maskz_loadu_ps(m0, pk_e->f1 + pk_j0 + 0)), _mm512_maskz_loadu_ps(m0, pk_e->f2 + (c - pk_e->c0) + 0*ldc + 0))); }
  { const __m512 pk_x = store ? c0_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 0*ldc + 16), c0_1); _mm512_mask_storeu_ps(c + 0*ldc + 16, m1, _mm512_add_ps(_mm512_mul_ps(pk_x, _mm512_maskz_loadu_ps(m1, pk_e->f1 + pk_j0 + 16)), _mm512_maskz_loadu_ps(m1, pk_e->f2 + (c - pk_e->c0) + 0*ldc + 16))); }
  { const __m512 pk_x = store ? c0_2 : _mm512_add_ps(_mm512_maskz_loadu_ps(m2, c + 0*ldc + 32), c0_2); _mm512_mask_storeu_ps(c + 0*ldc + 32, m2, _mm512_add_ps(_mm512_mul_ps(pk_x, _mm512_maskz_loadu_ps(m2, pk_e->f1 + pk_j0 + 32)), _mm512_maskz_loadu_ps(m2, pk_e->f2 + (c - pk_e->c0) + 0*ldc + 32))); }
  { const __m512 pk_x = store ? c0_3 : _mm512_add_ps(_mm512_maskz_loadu_ps(m3, c + 0*ldc + 48), c0_3); _mm512_mask_storeu_ps(c + 0*ldc + 48, m3, _mm512_add_ps(_mm512_mul_ps(pk_x, _mm512_maskz_loadu_ps(m3, pk_e->f1 + pk_j0 + 48)), _mm512_maskz_loadu_ps(m3, pk_e->f2 + (c - pk_e->c0) + 0*ldc + 48))); }
  if (rows == 1) return;
  { const __m512 pk_x = store ? c1_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 1*ldc + 0), c1_0); _mm512_mask_storeu_ps(c + 1*ldc + 0, m0, _mm512_add_ps(_mm512_mul_ps(pk_x, _mm512_maskz_loadu_ps(m0, pk_e->f1 + pk_j0 + 0)), _mm512_maskz_loadu_ps(m0, pk_e->f2 + (c - pk_e->c0) + 1*ldc + 0))); }
  { const __m512 pk_x = store ? c1_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 1*ldc + 16), c1_1); _mm512_mask_storeu_ps(c + 1*ldc + 16, m1, _mm512_add_ps(_mm512_mul_ps(pk_x, _mm512_maskz_loadu_ps(m1, pk_e->f1 + pk_j0 + 16)), _mm512_maskz_loadu_ps(m1, pk_e->f2 + (c - pk_e->c0) + 1*ldc + 16))); }
  { const __m512 pk_x = store ? c1_2 : _mm512_add_ps(_mm512_maskz_loadu_ps(m2, c + 1*ldc + 32), c1_2); _mm512_mask_storeu_ps(c + 1*ldc + 32, m2, _mm512_add_ps(_mm512_mul_ps(pk_x, _mm512_maskz_loadu_ps(m2, pk_e->f1 + pk_j0 + 32)), _mm512_maskz_loadu_ps(m2, pk_e->f2 + (c - pk_e->c0) + 1*ldc + 32))); }
  { const __m512 pk_x = store ? c1_3 : _mm512_add_ps(_mm512_maskz_loadu_ps(m3, c + 1*ldc + 48), c1_3); _mm512_mask_storeu_ps(c + 1*ldc + 48, m3, _mm512_add_ps(_mm512_mul_ps(pk_x, _mm512_maskz_loadu_ps(m3, pk_e->f1 + pk_j0 + 48)), _mm512_maskz_loadu_ps(m3, pk_e->f2 + (c - pk_e->c0) + 1*ldc + 48))); }
  if (rows == 2) return;
  { const __m512 pk_x = store ? c2_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 2*ldc + 0), c2_0); _mm512_mask_storeu_ps(c + 2*ldc + 0, m0, _mm512_add_ps(_mm512_mul_ps(pk_x, _mm512_maskz_loadu_ps(m0, pk_e->f1 + pk_j0 + 0)), _mm512_maskz_loadu_ps(m0, pk_e->f2 + (c - pk_e->c0) + 2*ldc + 0))); }
  { const __m512 pk_x = store ? c2_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 2*ldc + 16), c2_1); _mm512_mask_storeu_ps(c + 2*ldc + 16, m1, _mm512_add_ps(_mm512_mul_ps(pk_x, _mm512_maskz_loadu_ps(m1, pk_e->f1 + pk_j0 + 16)), _mm512_maskz_loadu_ps(m1, pk_e->f2 + (c - pk_e->c0) + 2*ldc + 16))); }
  { const __m512 pk_x = store ? c2_2 : _mm512_add_ps(_mm512_maskz_loadu_ps(m2, c + 2*ldc + 32), c2_2); _mm512_mask_storeu_ps(c + 2*ldc + 32, m2, _mm512_add_ps(_mm512_mul_ps(pk_x, _mm512_maskz_loadu_ps(m2, pk_e->f1 + pk_j0 + 32)), _mm512_maskz_loadu_ps(m2, pk_e->f2 + (c - pk_e->c0) + 2*ldc + 32))); }
  { const __m512 pk_x = store ? c2_3 : _mm512_add_ps(_mm512_maskz_loadu_ps(m3, c + 2*ldc + 48), c2_3); _mm512_mask_storeu_ps(c + 2*ldc + 48, m3, _mm512_add_ps(_mm512_mul_ps(pk_x, _mm512_maskz_loadu_ps(m3, pk_e->f1 + pk_j0 + 48)), _mm512_maskz_loadu_ps(m3, pk_e->f2 + (c - pk_e->c0) + 2*ldc + 48))); }
  if (rows == 3) return;
  { const __m512 pk_x = store ? c3_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 3*ldc + 0), c3_0); _mm512_mask_storeu_ps(c + 3*ldc + 0, m0, _mm512_add_ps(_mm512_mul_ps(pk_x, _mm512_maskz_loadu_ps(m0, pk_e->f1 + pk_j0 + 0)), _mm512_maskz_loadu_ps(m0, pk_e->f2 + (c - pk_e->c0) + 3*ldc + 0))); }
  { const __m512 pk_x = store ? c3_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 3*ldc + 16), c3_1); _mm512_mask_storeu_ps(c + 3*ldc + 16, m1, _mm512_add_ps(_mm512_mul_ps(pk_x, _mm512_maskz_loadu_ps(m1, pk_e->f1 + pk_j0 + 16)), _mm512_maskz_loadu_ps(m1, pk_e->f2 + (c - pk_e->c0) + 3*ldc + 16))); }
  { const __m512 pk_x = store ? c3_2 : _mm512_add_ps(_mm512_maskz_loadu_ps(m2, c + 3*ldc + 32), c3_2); _mm512_mask_storeu_ps(c + 3*ldc + 32, m2, _mm512_add_ps(_mm512_mul_ps(pk_x, _mm512_maskz_loadu_ps(m2, pk_e->f1 + pk_j0 + 32)), _mm512_maskz_loadu_ps(m2, pk_e->f2 + (c - pk_e->c0) + 3*ldc + 32))); }
  { const __m512 pk_x = store ? c3_3 : _mm512_add_ps(_mm512_maskz_loadu_ps(m3, c + 3*ldc + 48), c3_3); _mm512_mask_storeu_ps(c + 3*ldc + 48, m3, _mm512_add_ps(_mm512_mul_ps(pk_x, _mm512_maskz_loadu_ps(m3, pk_e->f1 + pk_j0 + 48)), _mm512_maskz_loadu_ps(m3, pk_e->f2 + (c - pk_e->c0) + 3*ldc + 48))); }
  if (rows == 4) return;
  { const __m512 pk_x = store ? c4_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 4*ldc + 0), c4_0); _mm512_mask_storeu_ps(c + 4*ldc + 0, m0, _mm512_add_ps(_mm512_mul_ps(pk_x, _mm512_maskz_loadu_ps(m0, pk_e->f1 + pk_j0 + 0)), _mm512_maskz_loadu_ps(m0, pk_e->f2 + (c - pk_e->c0) + 4*ldc + 0))); }
  { const __m512 pk_x = store ? c4_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 4*ldc + 16), c4_1); _mm512_mask_storeu_ps(c + 4*ldc + 16, m1, _mm512_add_ps(_mm512_mul_ps(pk_x, _mm512_maskz_loadu_ps(m1, pk_e->f1 + pk_j0 + 16)), _mm512_maskz_loadu_ps(m1, pk_e->f2 + (c - pk_e->c0) + 4*ldc + 16))); }
  { const __m512 pk_x = store ? c4_2 : _mm512_add_ps(_mm512_maskz_loadu_ps(m2, c + 4*ldc + 32), c4_2); _mm512_mask_storeu_ps(c + 4*ldc + 32, m2, _mm512_add_ps(_mm512_mul_ps(pk_x, _mm512_maskz_loadu_ps(m2, pk_e->f1 + pk_j0 + 32)), _mm512_maskz_loadu_ps(m2, pk_e->f2 + (c - pk_e->c0) + 4*ldc + 32))); }
  { const __m512 pk_x = store ? c4_3 : _mm512_add_ps(_mm512_maskz_loadu_ps(m3, c + 4*ldc + 48), c4_3); _mm512_mask_storeu_ps(c + 4*ldc + 48, m3, _mm512_add_ps(_mm512_mul_ps(pk_x, _mm512_maskz_loadu_ps(m3, pk_e->f1 + pk_j0 + 48)), _mm512_maskz_loadu_ps(m3, pk_e->f2 + (c - pk_e->c0) + 4*ldc + 48))); }
  if (rows == 5) return;
  { const __m512 pk_x = store ? c5_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 5*ldc + 0), c5_0); _mm512_mask_storeu_ps(c + 5*ldc + 0, m0, _mm512_add_ps(_mm512_mul_ps(pk_x, _mm512_maskz_loadu_ps(m0, pk_e->f1 + pk_j0 + 0)), _mm512_maskz_loadu_ps(m0, pk_e->f2 + (c - pk_e->c0) + 5*ldc + 0))); }
  { const __m512 pk_x = store ? c5_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 5*ldc + 16), c5_1); _mm512_mask_storeu_ps(c + 5*ldc + 16, m1, _mm512_add_ps(_mm512_mul_ps(pk_x, _mm512_maskz_loadu_ps(m1, pk_e->f1 + pk_j0 + 16)), _mm512_maskz_loadu_ps(m1, pk_e->f2 + (c - pk_e->c0) + 5*ldc + 16))); }
  { const __m512 pk_x = store ? c5_2 : _mm512_add_ps(_mm512_maskz_loadu_ps(m2, c + 5*ldc + 32), c5_2); _mm512_mask_storeu_ps(c + 5*ldc + 32, m2, _mm512_add_ps(_mm512_mul_ps(pk_x, _mm512_maskz_loadu_ps(m2, pk_e->f1 + pk_j0 + 32)), _mm512_maskz_loadu_ps(m2, pk_e->f2 + (c - pk_e->c0) + 5*ldc + 32))); }
  { const __m512 pk_x = store ? c5_3 : _mm512_add_ps(_mm512_maskz_loadu_ps(m3, c + 5*ldc + 48), c5_3); _mm512_mask_storeu_ps(c + 5*ldc + 48, m3, _mm512_add_ps(_mm512_mul_ps(pk_x, _mm512_maskz_loadu_ps(m3, pk_e->f1 + pk_j0 + 48)), _mm512_maskz_loadu_ps(m3, pk_e->f2 + (c - pk_e->c0) + 5*ldc + 48))); }
}

static inline void pk_ukr_gemm_f32_avx512_6x64_upg_kc_3_fused_g0_6x3(int64_t kb, int64_t groups, int64_t ga, const float *restrict a, int64_t lda,
    const float *restrict b, int64_t ldb, float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store, const void *pk_ectx, int64_t pk_i0, int64_t pk_j0) {
  const kc_3_fused_g0_ctx *pk_e = pk_ectx;
  (void)pk_e, (void)pk_i0, (void)pk_j0;
  const float *restrict a0 = a + 0*lda;
  const float *restrict a1 = a + pk_min64(1, rows - 1)*lda;
  const float *restrict a2 = a + pk_min64(2, rows - 1)*lda;
  const float *restrict a3 = a + pk_min64(3, rows - 1)*lda;
  const float *restrict a4 = a + pk_min64(4, rows - 1)*lda;
  const float *restrict a5 = a + pk_min64(5, rows - 1)*lda;
  (void)ldb;
  __m512 c0_0 = _mm512_setzero_ps(), c0_1 = _mm512_setzero_ps(), c0_2 = _mm512_setzero_ps();
  __m512 c1_0 = _mm512_setzero_ps(), c1_1 = _mm512_setzero_ps(), c1_2 = _mm512_setzero_ps();
  __m512 c2_0 = _mm512_setzero_ps(), c2_1 = _mm512_setzero_ps(), c2_2 = _mm512_setzero_ps();
  __m512 c3_0 = _mm512_setzero_ps(), c3_1 = _mm512_setzero_ps(), c3_2 = _mm512_setzero_ps();
  __m512 c4_0 = _mm512_setzero_ps(), c4_1 = _mm512_setzero_ps(), c4_2 = _mm512_setzero_ps();
  __m512 c5_0 = _mm512_setzero_ps(), c5_1 = _mm512_setzero_ps(), c5_2 = _mm512_setzero_ps();
  const int64_t pk_gap = kb / 12;
  if (groups > 1 || pk_gap < 4) {
    __builtin_prefetch(c + 0*ldc + 0, 1, 3), __builtin_prefetch(c + 0*ldc + 16, 1, 3), __builtin_prefetch(c + 0*ldc + 32, 1, 3), __builtin_prefetch(c + 0*ldc + 47, 1, 3);
    __builtin_prefetch(c + 1*ldc + 0, 1, 3), __builtin_prefetch(c + 1*ldc + 16, 1, 3), __builtin_prefetch(c + 1*ldc + 32, 1, 3), __builtin_prefetch(c + 1*ldc + 47, 1, 3);
    __builtin_prefetch(c + 2*ldc + 0, 1, 3), __builtin_prefetch(c + 2*ldc + 16, 1, 3), __builtin_prefetch(c + 2*ldc + 32, 1, 3), __builtin_prefetch(c + 2*ldc + 47, 1, 3);
    __builtin_prefetch(c + 3*ldc + 0, 1, 3), __builtin_prefetch(c + 3*ldc + 16, 1, 3), __builtin_prefetch(c + 3*ldc + 32, 1, 3), __builtin_prefetch(c + 3*ldc + 47, 1, 3);
    __builtin_prefetch(c + 4*ldc + 0, 1, 3), __builtin_prefetch(c + 4*ldc + 16, 1, 3), __builtin_prefetch(c + 4*ldc + 32, 1, 3), __builtin_prefetch(c + 4*ldc + 47, 1, 3);
    __builtin_prefetch(c + 5*ldc + 0, 1, 3), __builtin_prefetch(c + 5*ldc + 16, 1, 3), __builtin_prefetch(c + 5*ldc + 32, 1, 3), __builtin_prefetch(c + 5*ldc + 47, 1, 3);
    for (int64_t g = 0; g < groups; g++) {
#pragma GCC unroll 4
      for (int64_t p = 0; p < kb; p++) {
        const __m512 b0 = _mm512_load_ps(b + 0);
        const __m512 b1 = _mm512_load_ps(b + 16);
        const __m512 b2 = _mm512_load_ps(b + 32);
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
        b += 64;
      }
      a0 += ga;
      a1 += ga;
      a2 += ga;
      a3 += ga;
      a4 += ga;
      a5 += ga;
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
      }
      {
        const __m512 b0 = _mm512_load_ps(b + 64);
        const __m512 b1 = _mm512_load_ps(b + 80);
        const __m512 b2 = _mm512_load_ps(b + 96);
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
      }
      {
        const __m512 b0 = _mm512_load_ps(b + 128);
        const __m512 b1 = _mm512_load_ps(b + 144);
        const __m512 b2 = _mm512_load_ps(b + 160);
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
      }
      {
        const __m512 b0 = _mm512_load_ps(b + 192);
        const __m512 b1 = _mm512_load_ps(b + 208);
        const __m512 b2 = _mm512_load_ps(b + 224);
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
      }
      b += 256;
    }
    for (; p < kb; p++) {
      const __m512 b0 = _mm512_load_ps(b + 0);
      const __m512 b1 = _mm512_load_ps(b + 16);
      const __m512 b2 = _mm512_load_ps(b + 32);
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
      b += 64;
    }
  }
  if (rows == 6 && cols == 48) {
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
    }
    c0_0 = _mm512_add_ps(_mm512_mul_ps(c0_0, _mm512_loadu_ps(pk_e->f1 + pk_j0 + 0)), _mm512_loadu_ps(pk_e->f2 + (c - pk_e->c0) + 0*ldc + 0));
    c0_1 = _mm512_add_ps(_mm512_mul_ps(c0_1, _mm512_loadu_ps(pk_e->f1 + pk_j0 + 16)), _mm512_loadu_ps(pk_e->f2 + (c - pk_e->c0) + 0*ldc + 16));
    c0_2 = _mm512_add_ps(_mm512_mul_ps(c0_2, _mm512_loadu_ps(pk_e->f1 + pk_j0 + 32)), _mm512_loadu_ps(pk_e->f2 + (c - pk_e->c0) + 0*ldc + 32));
    c1_0 = _mm512_add_ps(_mm512_mul_ps(c1_0, _mm512_loadu_ps(pk_e->f1 + pk_j0 + 0)), _mm512_loadu_ps(pk_e->f2 + (c - pk_e->c0) + 1*ldc + 0));
    c1_1 = _mm512_add_ps(_mm512_mul_ps(c1_1, _mm512_loadu_ps(pk_e->f1 + pk_j0 + 16)), _mm512_loadu_ps(pk_e->f2 + (c - pk_e->c0) + 1*ldc + 16));
    c1_2 = _mm512_add_ps(_mm512_mul_ps(c1_2, _mm512_loadu_ps(pk_e->f1 + pk_j0 + 32)), _mm512_loadu_ps(pk_e->f2 + (c - pk_e->c0) + 1*ldc + 32));
    c2_0 = _mm512_add_ps(_mm512_mul_ps(c2_0, _mm512_loadu_ps(pk_e->f1 + pk_j0 + 0)), _mm512_loadu_ps(pk_e->f2 + (c - pk_e->c0) + 2*ldc + 0));
    c2_1 = _mm512_add_ps(_mm512_mul_ps(c2_1, _mm512_loadu_ps(pk_e->f1 + pk_j0 + 16)), _mm512_loadu_ps(pk_e->f2 + (c - pk_e->c0) + 2*ldc + 16));
    c2_2 = _mm512_add_ps(_mm512_mul_ps(c2_2, _mm512_loadu_ps(pk_e->f1 + pk_j0 + 32)), _mm512_loadu_ps(pk_e->f2 + (c - pk_e->c0) + 2*ldc + 32));
    c3_0 = _mm512_add_ps(_mm512_mul_ps(c3_0, _mm512_loadu_ps(pk_e->f1 + pk_j0 + 0)), _mm512_loadu_ps(pk_e->f2 + (c - pk_e->c0) + 3*ldc + 0));
    c3_1 = _mm512_add_ps(_mm512_mul_ps(c3_1, _mm512_loadu_ps(pk_e->f1 + pk_j0 + 16)), _mm512_loadu_ps(pk_e->f2 + (c - pk_e->c0) + 3*ldc + 16));
    c3_2 = _mm512_add_ps(_mm512_mul_ps(c3_2, _mm512_loadu_ps(pk_e->f1 + pk_j0 + 32)), _mm512_loadu_ps(pk_e->f2 + (c - pk_e->c0) + 3*ldc + 32));
    c4_0 = _mm512_add_ps(_mm512_mul_ps(c4_0, _mm512_loadu_ps(pk_e->f1 + pk_j0 + 0)), _mm512_loadu_ps(pk_e->f2 + (c - pk_e->c0) + 4*ldc + 0));
    c4_1 = _mm512_add_ps(_mm512_mul_ps(c4_1, _mm512_loadu_ps(pk_e->f1 + pk_j0 + 16)), _mm512_loadu_ps(pk_e->f2 + (c - pk_e->c0) + 4*ldc + 16));
    c4_2 = _mm512_add_ps(_mm512_mul_ps(c4_2, _mm512_loadu_ps(pk_e->f1 + pk_j0 + 32)), _mm512_loadu_ps(pk_e->f2 + (c - pk_e->c0) + 4*ldc + 32));
    c5_0 = _mm512_add_ps(_mm512_mul_ps(c5_0, _mm512_loadu_ps(pk_e->f1 + pk_j0 + 0)), _mm512_loadu_ps(pk_e->f2 + (c - pk_e->c0) + 5*ldc + 0));
    c5_1 = _mm512_add_ps(_mm512_mul_ps(c5_1, _mm512_loadu_ps(pk_e->f1 + pk_j0 + 16)), _mm512_loadu_ps(pk_e->f2 + (c - pk_e->c0) + 5*ldc + 16));
    c5_2 = _mm512_add_ps(_mm512_mul_ps(c5_2, _mm512_loadu_ps(pk_e->f1 + pk_j0 + 32)), _mm512_loadu_ps(pk_e->f2 + (c - pk_e->c0) + 5*ldc + 32));
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
    return;
  }
  const __mmask16 m0 = (__mmask16)((1u << (pk_edge_lanes(cols, 0, 16))) - 1u);
  const __mmask16 m1 = (__mmask16)((1u << (pk_edge_lanes(cols, 16, 16))) - 1u);
  const __mmask16 m2 = (__mmask16)((1u << (pk_edge_lanes(cols, 32, 16))) - 1u);
  { const __m512 pk_x = store ? c0_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 0*ldc + 0), c0_0); _mm512_mask_storeu_ps(c + 0*ldc + 0, m0, _mm512_add_ps(_mm512_mul_ps(pk_x, _mm512_maskz_loadu_ps(m0, pk_e->f1 + pk_j0 + 0)), _mm512_maskz_loadu_ps(m0, pk_e->f2 + (c - pk_e->c0) + 0*ldc + 0))); }
  { const __m512 pk_x = store ? c0_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 0*ldc + 16), c0_1); _mm512_mask_storeu_ps(c + 0*ldc + 16, m1, _mm512_add_ps(_mm512_mul_ps(pk_x, _mm512_maskz_loadu_ps(m1, pk_e->f1 + pk_j0 + 16)), _mm512_maskz_loadu_ps(m1, pk_e->f2 + (c - pk_e->c0) + 0*ldc + 16))); }
  { const __m512 pk_x = store ? c0_2 : _mm512_add_ps(_mm512_maskz_loadu_ps(m2, c + 0*ldc + 32), c0_2); _mm512_mask_storeu_ps(c + 0*ldc + 32, m2, _mm512_add_ps(_mm512_mul_ps(pk_x, _mm512_maskz_loadu_ps(m2, pk_e->f1 + pk_j0 + 32)), _mm512_maskz_loadu_ps(m2, pk_e->f2 + (c - pk_e->c0) + 0*ldc + 32))); }
  if (rows == 1) return;
  { const __m512 pk_x = store ? c1_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 1*ldc + 0), c1_0); _mm512_mask_storeu_ps(c + 1*ldc + 0, m0, _mm512_add_ps(_mm512_mul_ps(pk_x, _mm512_maskz_loadu_ps(m0, pk_e->f1 + pk_j0 + 0)), _mm512_maskz_loadu_ps(m0, pk_e->f2 + (c - pk_e->c0) + 1*ldc + 0))); }
  { const __m512 pk_x = store ? c1_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 1*ldc + 16), c1_1); _mm512_mask_storeu_ps(c + 1*ldc + 16, m1, _mm512_add_ps(_mm512_mul_ps(pk_x, _mm512_maskz_loadu_ps(m1, pk_e->f1 + pk_j0 + 16)), _mm512_maskz_loadu_ps(m1, pk_e->f2 + (c - pk_e->c0) + 1*ldc + 16))); }
  { const __m512 pk_x = store ? c1_2 : _mm512_add_ps(_mm512_maskz_loadu_ps(m2, c + 1*ldc + 32), c1_2); _mm512_mask_storeu_ps(c + 1*ldc + 32, m2, _mm512_add_ps(_mm512_mul_ps(pk_x, _mm512_maskz_loadu_ps(m2, pk_e->f1 + pk_j0 + 32)), _mm512_maskz_loadu_ps(m2, pk_e->f2 + (c - pk_e->c0) + 1*ldc + 32))); }
  if (rows == 2) return;
  { const __m512 pk_x = store ? c2_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 2*ldc + 0), c2_0); _mm512_mask_storeu_ps(c + 2*ldc + 0, m0, _mm512_add_ps(_mm512_mul_ps(pk_x, _mm512_maskz_loadu_ps(m0, pk_e->f1 + pk_j0 + 0)), _mm512_maskz_loadu_ps(m0, pk_e->f2 + (c - pk_e->c0) + 2*ldc + 0))); }
  { const __m512 pk_x = store ? c2_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 2*ldc + 16), c2_1); _mm512_mask_storeu_ps(c + 2*ldc + 16, m1, _mm512_add_ps(_mm512_mul_ps(pk_x, _mm512_maskz_loadu_ps(m1, pk_e->f1 + pk_j0 + 16)), _mm512_maskz_loadu_ps(m1, pk_e->f2 + (c - pk_e->c0) + 2*ldc + 16))); }
  { const __m512 pk_x = store ? c2_2 : _mm512_add_ps(_mm512_maskz_loadu_ps(m2, c + 2*ldc + 32), c2_2); _mm512_mask_storeu_ps(c + 2*ldc + 32, m2, _mm512_add_ps(_mm512_mul_ps(pk_x, _mm512_maskz_loadu_ps(m2, pk_e->f1 + pk_j0 + 32)), _mm512_maskz_loadu_ps(m2, pk_e->f2 + (c - pk_e->c0) + 2*ldc + 32))); }
  if (rows == 3) return;
  { const __m512 pk_x = store ? c3_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 3*ldc + 0), c3_0); _mm512_mask_storeu_ps(c + 3*ldc + 0, m0, _mm512_add_ps(_mm512_mul_ps(pk_x, _mm512_maskz_loadu_ps(m0, pk_e->f1 + pk_j0 + 0)), _mm512_maskz_loadu_ps(m0, pk_e->f2 + (c - pk_e->c0) + 3*ldc + 0))); }
  { const __m512 pk_x = store ? c3_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 3*ldc + 16), c3_1); _mm512_mask_storeu_ps(c + 3*ldc + 16, m1, _mm512_add_ps(_mm512_mul_ps(pk_x, _mm512_maskz_loadu_ps(m1, pk_e->f1 + pk_j0 + 16)), _mm512_maskz_loadu_ps(m1, pk_e->f2 + (c - pk_e->c0) + 3*ldc + 16))); }
  { const __m512 pk_x = store ? c3_2 : _mm512_add_ps(_mm512_maskz_loadu_ps(m2, c + 3*ldc + 32), c3_2); _mm512_mask_storeu_ps(c + 3*ldc + 32, m2, _mm512_add_ps(_mm512_mul_ps(pk_x, _mm512_maskz_loadu_ps(m2, pk_e->f1 + pk_j0 + 32)), _mm512_maskz_loadu_ps(m2, pk_e->f2 + (c - pk_e->c0) + 3*ldc + 32))); }
  if (rows == 4) return;
  { const __m512 pk_x = store ? c4_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 4*ldc + 0), c4_0); _mm512_mask_storeu_ps(c + 4*ldc + 0, m0, _mm512_add_ps(_mm512_mul_ps(pk_x, _mm512_maskz_loadu_ps(m0, pk_e->f1 + pk_j0 + 0)), _mm512_maskz_loadu_ps(m0, pk_e->f2 + (c - pk_e->c0) + 4*ldc + 0))); }
  { const __m512 pk_x = store ? c4_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 4*ldc + 16), c4_1); _mm512_mask_storeu_ps(c + 4*ldc + 16, m1, _mm512_add_ps(_mm512_mul_ps(pk_x, _mm512_maskz_loadu_ps(m1, pk_e->f1 + pk_j0 + 16)), _mm512_maskz_loadu_ps(m1, pk_e->f2 + (c - pk_e->c0) + 4*ldc + 16))); }
  { const __m512 pk_x = store ? c4_2 : _mm512_add_ps(_mm512_maskz_loadu_ps(m2, c + 4*ldc + 32), c4_2); _mm512_mask_storeu_ps(c + 4*ldc + 32, m2, _mm512_add_ps(_mm512_mul_ps(pk_x, _mm512_maskz_loadu_ps(m2, pk_e->f1 + pk_j0 + 32)), _mm512_maskz_loadu_ps(m2, pk_e->f2 + (c - pk_e->c0) + 4*ldc + 32))); }
  if (rows == 5) return;
  { const __m512 pk_x = store ? c5_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 5*ldc + 0), c5_0); _mm512_mask_storeu_ps(c + 5*ldc + 0, m0, _mm512_add_ps(_mm512_mul_ps(pk_x, _mm512_maskz_loadu_ps(m0, pk_e->f1 + pk_j0 + 0)), _mm512_maskz_loadu_ps(m0, pk_e->f2 + (c - pk_e->c0) + 5*ldc + 0))); }
  { const __m512 pk_x = store ? c5_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 5*ldc + 16), c5_1); _mm512_mask_storeu_ps(c + 5*ldc + 16, m1, _mm512_add_ps(_mm512_mul_ps(pk_x, _mm512_maskz_loadu_ps(m1, pk_e->f1 + pk_j0 + 16)), _mm512_maskz_loadu_ps(m1, pk_e->f2 + (c - pk_e->c0) + 5*ldc + 16))); }
  { const __m512 pk_x = store ? c5_2 : _mm512_add_ps(_mm512_maskz_loadu_ps(m2, c + 5*ldc + 32), c5_2); _mm512_mask_storeu_ps(c + 5*ldc + 32, m2, _mm512_add_ps(_mm512_mul_ps(pk_x, _mm512_maskz_loadu_ps(m2, pk_e->f1 + pk_j0 + 32)), _mm512_maskz_loadu_ps(m2, pk_e->f2 + (c - pk_e->c0) + 5*ldc + 32))); }
}

static inline void pk_ukr_gemm_f32_avx512_6x64_upg_kc_3_fused_g0_6x2(int64_t kb, int64_t groups, int64_t ga, const float *restrict a, int64_t lda,
    const float *restrict b, int64_t ldb, float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store, const void *pk_ectx, int64_t pk_i0, int64_t pk_j0) {
  const kc_3_fused_g0_ctx *pk_e = pk_ectx;
  (void)pk_e, (void)pk_i0, (void)pk_j0;
  const float *restrict a0 = a + 0*lda;
  const float *restrict a1 = a + pk_min64(1, rows - 1)*lda;
  const float *restrict a2 = a + pk_min64(2, rows - 1)*lda;
  const float *restrict a3 = a + pk_min64(3, rows - 1)*lda;
  const float *restrict a4 = a + pk_min64(4, rows - 1)*lda;
  const float *restrict a5 = a + pk_min64(5, rows - 1)*lda;
  (void)ldb;
  __m512 c0_0 = _mm512_setzero_ps(), c0_1 = _mm512_setzero_ps();
  __m512 c1_0 = _mm512_setzero_ps(), c1_1 = _mm512_setzero_ps();
  __m512 c2_0 = _mm512_setzero_ps(), c2_1 = _mm512_setzero_ps();
  __m512 c3_0 = _mm512_setzero_ps(), c3_1 = _mm512_setzero_ps();
  __m512 c4_0 = _mm512_setzero_ps(), c4_1 = _mm512_setzero_ps();
  __m512 c5_0 = _mm512_setzero_ps(), c5_1 = _mm512_setzero_ps();
  __builtin_prefetch(c + 0*ldc + 0, 1, 3), __builtin_prefetch(c + 0*ldc + 16, 1, 3), __builtin_prefetch(c + 0*ldc + 31, 1, 3);
  __builtin_prefetch(c + 1*ldc + 0, 1, 3), __builtin_prefetch(c + 1*ldc + 16, 1, 3), __builtin_prefetch(c + 1*ldc + 31, 1, 3);
  __builtin_prefetch(c + 2*ldc + 0, 1, 3), __builtin_prefetch(c + 2*ldc + 16, 1, 3), __builtin_prefetch(c + 2*ldc + 31, 1, 3);
  __builtin_prefetch(c + 3*ldc + 0, 1, 3), __builtin_prefetch(c + 3*ldc + 16, 1, 3), __builtin_prefetch(c + 3*ldc + 31, 1, 3);
  __builtin_prefetch(c + 4*ldc + 0, 1, 3), __builtin_prefetch(c + 4*ldc + 16, 1, 3), __builtin_prefetch(c + 4*ldc + 31, 1, 3);
  __builtin_prefetch(c + 5*ldc + 0, 1, 3), __builtin_prefetch(c + 5*ldc + 16, 1, 3), __builtin_prefetch(c + 5*ldc + 31, 1, 3);
  for (int64_t g = 0; g < groups; g++) {
#pragma GCC unroll 4
    for (int64_t p = 0; p < kb; p++) {
      const __m512 b0 = _mm512_load_ps(b + 0);
      const __m512 b1 = _mm512_load_ps(b + 16);
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
      b += 64;
    }
    a0 += ga;
    a1 += ga;
    a2 += ga;
    a3 += ga;
    a4 += ga;
    a5 += ga;
  }
  if (rows == 6 && cols == 32) {
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
    }
    c0_0 = _mm512_add_ps(_mm512_mul_ps(c0_0, _mm512_loadu_ps(pk_e->f1 + pk_j0 + 0)), _mm512_loadu_ps(pk_e->f2 + (c - pk_e->c0) + 0*ldc + 0));
    c0_1 = _mm512_add_ps(_mm512_mul_ps(c0_1, _mm512_loadu_ps(pk_e->f1 + pk_j0 + 16)), _mm512_loadu_ps(pk_e->f2 + (c - pk_e->c0) + 0*ldc + 16));
    c1_0 = _mm512_add_ps(_mm512_mul_ps(c1_0, _mm512_loadu_ps(pk_e->f1 + pk_j0 + 0)), _mm512_loadu_ps(pk_e->f2 + (c - pk_e->c0) + 1*ldc + 0));
    c1_1 = _mm512_add_ps(_mm512_mul_ps(c1_1, _mm512_loadu_ps(pk_e->f1 + pk_j0 + 16)), _mm512_loadu_ps(pk_e->f2 + (c - pk_e->c0) + 1*ldc + 16));
    c2_0 = _mm512_add_ps(_mm512_mul_ps(c2_0, _mm512_loadu_ps(pk_e->f1 + pk_j0 + 0)), _mm512_loadu_ps(pk_e->f2 + (c - pk_e->c0) + 2*ldc + 0));
    c2_1 = _mm512_add_ps(_mm512_mul_ps(c2_1, _mm512_loadu_ps(pk_e->f1 + pk_j0 + 16)), _mm512_loadu_ps(pk_e->f2 + (c - pk_e->c0) + 2*ldc + 16));
    c3_0 = _mm512_add_ps(_mm512_mul_ps(c3_0, _mm512_loadu_ps(pk_e->f1 + pk_j0 + 0)), _mm512_loadu_ps(pk_e->f2 + (c - pk_e->c0) + 3*ldc + 0));
    c3_1 = _mm512_add_ps(_mm512_mul_ps(c3_1, _mm512_loadu_ps(pk_e->f1 + pk_j0 + 16)), _mm512_loadu_ps(pk_e->f2 + (c - pk_e->c0) + 3*ldc + 16));
    c4_0 = _mm512_add_ps(_mm512_mul_ps(c4_0, _mm512_loadu_ps(pk_e->f1 + pk_j0 + 0)), _mm512_loadu_ps(pk_e->f2 + (c - pk_e->c0) + 4*ldc + 0));
    c4_1 = _mm512_add_ps(_mm512_mul_ps(c4_1, _mm512_loadu_ps(pk_e->f1 + pk_j0 + 16)), _mm512_loadu_ps(pk_e->f2 + (c - pk_e->c0) + 4*ldc + 16));
    c5_0 = _mm512_add_ps(_mm512_mul_ps(c5_0, _mm512_loadu_ps(pk_e->f1 + pk_j0 + 0)), _mm512_loadu_ps(pk_e->f2 + (c - pk_e->c0) + 5*ldc + 0));
    c5_1 = _mm512_add_ps(_mm512_mul_ps(c5_1, _mm512_loadu_ps(pk_e->f1 + pk_j0 + 16)), _mm512_loadu_ps(pk_e->f2 + (c - pk_e->c0) + 5*ldc + 16));
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
    return;
  }
  const __mmask16 m0 = (__mmask16)((1u << (pk_edge_lanes(cols, 0, 16))) - 1u);
  const __mmask16 m1 = (__mmask16)((1u << (pk_edge_lanes(cols, 16, 16))) - 1u);
  { const __m512 pk_x = store ? c0_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 0*ldc + 0), c0_0); _mm512_mask_storeu_ps(c + 0*ldc + 0, m0, _mm512_add_ps(_mm512_mul_ps(pk_x, _mm512_maskz_loadu_ps(m0, pk_e->f1 + pk_j0 + 0)), _mm512_maskz_loadu_ps(m0, pk_e->f2 + (c - pk_e->c0) + 0*ldc + 0))); }
  { const __m512 pk_x = store ? c0_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 0*ldc + 16), c0_1); _mm512_mask_storeu_ps(c + 0*ldc + 16, m1, _mm512_add_ps(_mm512_mul_ps(pk_x, _mm512_maskz_loadu_ps(m1, pk_e->f1 + pk_j0 + 16)), _mm512_maskz_loadu_ps(m1, pk_e->f2 + (c - pk_e->c0) + 0*ldc + 16))); }
  if (rows == 1) return;
  { const __m512 pk_x = store ? c1_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 1*ldc + 0), c1_0); _mm512_mask_storeu_ps(c + 1*ldc + 0, m0, _mm512_add_ps(_mm512_mul_ps(pk_x, _mm512_maskz_loadu_ps(m0, pk_e->f1 + pk_j0 + 0)), _mm512_maskz_loadu_ps(m0, pk_e->f2 + (c - pk_e->c0) + 1*ldc + 0))); }
  { const __m512 pk_x = store ? c1_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 1*ldc + 16), c1_1); _mm512_mask_storeu_ps(c + 1*ldc + 16, m1, _mm512_add_ps(_mm512_mul_ps(pk_x, _mm512_maskz_loadu_ps(m1, pk_e->f1 + pk_j0 + 16)), _mm512_maskz_loadu_ps(m1, pk_e->f2 + (c - pk_e->c0) + 1*ldc + 16))); }
  if (rows == 2) return;
  { const __m512 pk_x = store ? c2_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 2*ldc + 0), c2_0); _mm512_mask_storeu_ps(c + 2*ldc + 0, m0, _mm512_add_ps(_mm512_mul_ps(pk_x, _mm512_maskz_loadu_ps(m0, pk_e->f1 + pk_j0 + 0)), _mm512_maskz_loadu_ps(m0, pk_e->f2 + (c - pk_e->c0) + 2*ldc + 0))); }
  { const __m512 pk_x = store ? c2_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 2*ldc + 16), c2_1); _mm512_mask_storeu_ps(c + 2*ldc + 16, m1, _mm512_add_ps(_mm512_mul_ps(pk_x, _mm512_maskz_loadu_ps(m1, pk_e->f1 + pk_j0 + 16)), _mm512_maskz_loadu_ps(m1, pk_e->f2 + (c - pk_e->c0) + 2*ldc + 16))); }
  if (rows == 3) return;
  { const __m512 pk_x = store ? c3_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 3*ldc + 0), c3_0); _mm512_mask_storeu_ps(c + 3*ldc + 0, m0, _mm512_add_ps(_mm512_mul_ps(pk_x, _mm512_maskz_loadu_ps(m0, pk_e->f1 + pk_j0 + 0)), _mm512_maskz_loadu_ps(m0, pk_e->f2 + (c - pk_e->c0) + 3*ldc + 0))); }
  { const __m512 pk_x = store ? c3_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 3*ldc + 16), c3_1); _mm512_mask_storeu_ps(c + 3*ldc + 16, m1, _mm512_add_ps(_mm512_mul_ps(pk_x, _mm512_maskz_loadu_ps(m1, pk_e->f1 + pk_j0 + 16)), _mm512_maskz_loadu_ps(m1, pk_e->f2 + (c - pk_e->c0) + 3*ldc + 16))); }
  if (rows == 4) return;
  { const __m512 pk_x = store ? c4_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 4*ldc + 0), c4_0); _mm512_mask_storeu_ps(c + 4*ldc + 0, m0, _mm512_add_ps(_mm512_mul_ps(pk_x, _mm512_maskz_loadu_ps(m0, pk_e->f1 + pk_j0 + 0)), _mm512_maskz_loadu_ps(m0, pk_e->f2 + (c - pk_e->c0) + 4*ldc + 0))); }
  { const __m512 pk_x = store ? c4_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 4*ldc + 16), c4_1); _mm512_mask_storeu_ps(c + 4*ldc + 16, m1, _mm512_add_ps(_mm512_mul_ps(pk_x, _mm512_maskz_loadu_ps(m1, pk_e->f1 + pk_j0 + 16)), _mm512_maskz_loadu_ps(m1, pk_e->f2 + (c - pk_e->c0) + 4*ldc + 16))); }
  if (rows == 5) return;
  { const __m512 pk_x = store ? c5_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 5*ldc + 0), c5_0); _mm512_mask_storeu_ps(c + 5*ldc + 0, m0, _mm512_add_ps(_mm512_mul_ps(pk_x, _mm512_maskz_loadu_ps(m0, pk_e->f1 + pk_j0 + 0)), _mm512_maskz_loadu_ps(m0, pk_e->f2 + (c - pk_e->c0) + 5*ldc + 0))); }
  { const __m512 pk_x = store ? c5_1 : _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 5*ldc + 16), c5_1); _mm512_mask_storeu_ps(c + 5*ldc + 16, m1, _mm512_add_ps(_mm512_mul_ps(pk_x, _mm512_maskz_loadu_ps(m1, pk_e->f1 + pk_j0 + 16)), _mm512_maskz_loadu_ps(m1, pk_e->f2 + (c - pk_e->c0) + 5*ldc + 16))); }
}

static inline void pk_ukr_gemm_f32_avx512_6x64_upg_kc_3_fused_g0_6x1(int64_t kb, int64_t groups, int64_t ga, const float *restrict a, int64_t lda,
    const float *restrict b, int64_t ldb, float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store, const void *pk_ectx, int64_t pk_i0, int64_t pk_j0) {
  const kc_3_fused_g0_ctx *pk_e = pk_ectx;
  (void)pk_e, (void)pk_i0, (void)pk_j0;
  const float *restrict a0 = a + 0*lda;
  const float *restrict a1 = a + pk_min64(1, rows - 1)*lda;
  const float *restrict a2 = a + pk_min64(2, rows - 1)*lda;
  const float *restrict a3 = a + pk_min64(3, rows - 1)*lda;
  const float *restrict a4 = a + pk_min64(4, rows - 1)*lda;
  const float *restrict a5 = a + pk_min64(5, rows - 1)*lda;
  (void)ldb;
  __m512 c0_0 = _mm512_setzero_ps();
  __m512 c1_0 = _mm512_setzero_ps();
  __m512 c2_0 = _mm512_setzero_ps();
  __m512 c3_0 = _mm512_setzero_ps();
  __m512 c4_0 = _mm512_setzero_ps();
  __m512 c5_0 = _mm512_setzero_ps();
  __builtin_prefetch(c + 0*ldc + 0, 1, 3), __builtin_prefetch(c + 0*ldc + 15, 1, 3);
  __builtin_prefetch(c + 1*ldc + 0, 1, 3), __builtin_prefetch(c + 1*ldc + 15, 1, 3);
  __builtin_prefetch(c + 2*ldc + 0, 1, 3), __builtin_prefetch(c + 2*ldc + 15, 1, 3);
  __builtin_prefetch(c + 3*ldc + 0, 1, 3), __builtin_prefetch(c + 3*ldc + 15, 1, 3);
  __builtin_prefetch(c + 4*ldc + 0, 1, 3), __builtin_prefetch(c + 4*ldc + 15, 1, 3);
  __builtin_prefetch(c + 5*ldc + 0, 1, 3), __builtin_prefetch(c + 5*ldc + 15, 1, 3);
  for (int64_t g = 0; g < groups; g++) {
#pragma GCC unroll 4
    for (int64_t p = 0; p < kb; p++) {
      const __m512 b0 = _mm512_load_ps(b + 0);
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
      b += 64;
    }
    a0 += ga;
    a1 += ga;
    a2 += ga;
    a3 += ga;
    a4 += ga;
    a5 += ga;
  }
  if (rows == 6 && cols == 16) {
    if (!store) {
      c0_0 = _mm512_add_ps(_mm512_loadu_ps(c + 0*ldc + 0), c0_0);
      c1_0 = _mm512_add_ps(_mm512_loadu_ps(c + 1*ldc + 0), c1_0);
      c2_0 = _mm512_add_ps(_mm512_loadu_ps(c + 2*ldc + 0), c2_0);
      c3_0 = _mm512_add_ps(_mm512_loadu_ps(c + 3*ldc + 0), c3_0);
      c4_0 = _mm512_add_ps(_mm512_loadu_ps(c + 4*ldc + 0), c4_0);
      c5_0 = _mm512_add_ps(_mm512_loadu_ps(c + 5*ldc + 0), c5_0);
    }
    c0_0 = _mm512_add_ps(_mm512_mul_ps(c0_0, _mm512_loadu_ps(pk_e->f1 + pk_j0 + 0)), _mm512_loadu_ps(pk_e->f2 + (c - pk_e->c0) + 0*ldc + 0));
    c1_0 = _mm512_add_ps(_mm512_mul_ps(c1_0, _mm512_loadu_ps(pk_e->f1 + pk_j0 + 0)), _mm512_loadu_ps(pk_e->f2 + (c - pk_e->c0) + 1*ldc + 0));
    c2_0 = _mm512_add_ps(_mm512_mul_ps(c2_0, _mm512_loadu_ps(pk_e->f1 + pk_j0 + 0)), _mm512_loadu_ps(pk_e->f2 + (c - pk_e->c0) + 2*ldc + 0));
    c3_0 = _mm512_add_ps(_mm512_mul_ps(c3_0, _mm512_loadu_ps(pk_e->f1 + pk_j0 + 0)), _mm512_loadu_ps(pk_e->f2 + (c - pk_e->c0) + 3*ldc + 0));
    c4_0 = _mm512_add_ps(_mm512_mul_ps(c4_0, _mm512_loadu_ps(pk_e->f1 + pk_j0 + 0)), _mm512_loadu_ps(pk_e->f2 + (c - pk_e->c0) + 4*ldc + 0));
    c5_0 = _mm512_add_ps(_mm512_mul_ps(c5_0, _mm512_loadu_ps(pk_e->f1 + pk_j0 + 0)), _mm512_loadu_ps(pk_e->f2 + (c - pk_e->c0) + 5*ldc + 0));
    _mm512_storeu_ps(c + 0*ldc + 0, c0_0);
    _mm512_storeu_ps(c + 1*ldc + 0, c1_0);
    _mm512_storeu_ps(c + 2*ldc + 0, c2_0);
    _mm512_storeu_ps(c + 3*ldc + 0, c3_0);
    _mm512_storeu_ps(c + 4*ldc + 0, c4_0);
    _mm512_storeu_ps(c + 5*ldc + 0, c5_0);
    return;
  }
  const __mmask16 m0 = (__mmask16)((1u << (pk_edge_lanes(cols, 0, 16))) - 1u);
  { const __m512 pk_x = store ? c0_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 0*ldc + 0), c0_0); _mm512_mask_storeu_ps(c + 0*ldc + 0, m0, _mm512_add_ps(_mm512_mul_ps(pk_x, _mm512_maskz_loadu_ps(m0, pk_e->f1 + pk_j0 + 0)), _mm512_maskz_loadu_ps(m0, pk_e->f2 + (c - pk_e->c0) + 0*ldc + 0))); }
  if (rows == 1) return;
  { const __m512 pk_x = store ? c1_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 1*ldc + 0), c1_0); _mm512_mask_storeu_ps(c + 1*ldc + 0, m0, _mm512_add_ps(_mm512_mul_ps(pk_x, _mm512_maskz_loadu_ps(m0, pk_e->f1 + pk_j0 + 0)), _mm512_maskz_loadu_ps(m0, pk_e->f2 + (c - pk_e->c0) + 1*ldc + 0))); }
  if (rows == 2) return;
  { const __m512 pk_x = store ? c2_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 2*ldc + 0), c2_0); _mm512_mask_storeu_ps(c + 2*ldc + 0, m0, _mm512_add_ps(_mm512_mul_ps(pk_x, _mm512_maskz_loadu_ps(m0, pk_e->f1 + pk_j0 + 0)), _mm512_maskz_loadu_ps(m0, pk_e->f2 + (c - pk_e->c0) + 2*ldc + 0))); }
  if (rows == 3) return;
  { const __m512 pk_x = store ? c3_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 3*ldc + 0), c3_0); _mm512_mask_storeu_ps(c + 3*ldc + 0, m0, _mm512_add_ps(_mm512_mul_ps(pk_x, _mm512_maskz_loadu_ps(m0, pk_e->f1 + pk_j0 + 0)), _mm512_maskz_loadu_ps(m0, pk_e->f2 + (c - pk_e->c0) + 3*ldc + 0))); }
  if (rows == 4) return;
  { const __m512 pk_x = store ? c4_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 4*ldc + 0), c4_0); _mm512_mask_storeu_ps(c + 4*ldc + 0, m0, _mm512_add_ps(_mm512_mul_ps(pk_x, _mm512_maskz_loadu_ps(m0, pk_e->f1 + pk_j0 + 0)), _mm512_maskz_loadu_ps(m0, pk_e->f2 + (c - pk_e->c0) + 4*ldc + 0))); }
  if (rows == 5) return;
  { const __m512 pk_x = store ? c5_0 : _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c + 5*ldc + 0), c5_0); _mm512_mask_storeu_ps(c + 5*ldc + 0, m0, _mm512_add_ps(_mm512_mul_ps(pk_x, _mm512_maskz_loadu_ps(m0, pk_e->f1 + pk_j0 + 0)), _mm512_maskz_loadu_ps(m0, pk_e->f2 + (c - pk_e->c0) + 5*ldc + 0))); }
}

static void pk_ukr_gemm_f32_avx512_6x64_upg_kc_3_fused_g0(int64_t kb, int64_t groups, int64_t ga, const float *restrict a, int64_t lda, const float *restrict b, int64_t ldb,
    float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store, const void *pk_ectx, int64_t pk_i0, int64_t pk_j0) {
  if (rows > 5) {
    if (cols > 48) pk_ukr_gemm_f32_avx512_6x64_upg_kc_3_fused_g0_6x4(kb, groups, ga, a, lda, b, ldb, c, ldc, rows, cols, store, pk_ectx, pk_i0, pk_j0);
    else if (cols > 32) pk_ukr_gemm_f32_avx512_6x64_upg_kc_3_fused_g0_6x3(kb, groups, ga, a, lda, b, ldb, c, ldc, rows, cols, store, pk_ectx, pk_i0, pk_j0);
    else if (cols > 16) pk_ukr_gemm_f32_avx512_6x64_upg_kc_3_fused_g0_6x2(kb, groups, ga, a, lda, b, ldb, c, ldc, rows, cols, store, pk_ectx, pk_i0, pk_j0);
    else pk_ukr_gemm_f32_avx512_6x64_upg_kc_3_fused_g0_6x1(kb, groups, ga, a, lda, b, ldb, c, ldc, rows, cols, store, pk_ectx, pk_i0, pk_j0);
    return;
  }
  pk_ukr_gemm_f32_avx512_6x64_upg(kb, groups, ga, a, lda, b, ldb, c, ldc, rows, cols, store);
  const kc_3_fused_g0_ctx *pk_e = pk_ectx;
  for (int64_t pk_r = 0; pk_r < rows; pk_r++) {
    for (int64_t pk_v = 0; pk_v*16 < cols; pk_v++) {
      const __mmask16 pk_m = (__mmask16)((1u << (pk_edge_lanes(cols, pk_v*16, 16))) - 1u);
      const __m512 pk_x = _mm512_maskz_loadu_ps(pk_m, c + pk_r*ldc + pk_v*16);
      _mm512_mask_storeu_ps(c + pk_r*ldc + pk_v*16, pk_m, _mm512_add_ps(_mm512_mul_ps(pk_x, _mm512_maskz_loadu_ps(pk_m, pk_e->f1 + pk_j0 + pk_v*16)), _mm512_maskz_loadu_ps(pk_m, pk_e->f2 + (c - pk_e->c0) + pk_r*ldc + pk_v*16)));
    }
  }
}

PK_SHARED int kc_3_fused(const float *restrict I, const float *restrict F, const float *restrict scale, const float *restrict X, float *restrict O, int64_t N, int64_t H, int64_t W, int64_t C, int64_t K, int64_t P, int64_t Q) {
  const int64_t sO0 = P*Q*K;
  const int64_t sO1 = Q*K;
  const int64_t sI0 = H*W*C;
  const int64_t sI1 = W*C;
  const int64_t sF0 = 3*C*K;
  const int64_t sF1 = C*K;
  const int64_t sX0 = P*Q*K;
  const int64_t sX1 = Q*K;
  { /* convolution s0: gemm_f32_avx512_6x64, direct, mc 64 nc 96 kc 128, weight-stationary; through im2col on the cheapest of gemm_f32_avx512_8x48, gemm_f32_avx512_6x64, gemm_f32_avx512_7x64 */
    const kc_3_fused_e0_ctx pk_ectx = {scale, X, sX0, sX1, K, O, sO0, sO1};
    const kc_3_fused_g0_ctx pk_gectx = {O, scale, X};
    const pk_conv_desc pk_cv = {
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
      .l1 = 9216,
      .l2 = 262144,
      .weight_stationary = 1,
      .im2col = 0,
      .im2col_below = 12,
      .channels_first = 0,
      .pack_filter_from = 49,
      .gemm_kc = 1024,
      .zero_out = 1,
      .epilogue = kc_3_fused_e0,
      .epilogue_ctx = &pk_ectx,
      .final = (pk_conv_final)pk_ukr_gemm_f32_avx512_6x64_upg_kc_3_fused_g0,
      .final_ctx = &pk_gectx,
    };
    const pk_conv_driver pk_im2col[] = {
      {pk_conv_gemm_f32_avx512_8x48_im2col_cycles, pk_conv_gemm_f32_avx512_8x48_run},
      {pk_conv_gemm_f32_avx512_6x64_im2col_cycles, pk_conv_gemm_f32_avx512_6x64_run},
      {pk_conv_gemm_f32_avx512_7x64_im2col_cycles, pk_conv_gemm_f32_avx512_7x64_run},
    };
    if ((pk_conv_runs_im2col(&pk_cv) ? pk_conv_run_cheapest(&pk_cv, pk_im2col, 3) : pk_conv_gemm_f32_avx512_6x64_run(&pk_cv)) != PK_OK) {
      return PK_NO_MEMORY;
    }
  }
  return PK_OK;
}
