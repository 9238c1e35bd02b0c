/*
 * Vector math for the generated SIMD loops (emit/c-vector.ts), one function per operation and vector type, named
 * `pk_v<op>_<type>` (element-wise) and `pk_h<op>_<type>` (horizontal): ps512/pd512 for AVX-512F, ps256/pd256 for
 * AVX2. Each function carries its ISA's target attribute, so this header is included once, outside the per-ISA
 * regions, and inlines into that ISA's kernels only.
 *
 * exp/log/tanh/sigmoid follow Cephes: Cody-Waite range reduction and a polynomial (a rational function for f64 exp
 * and tanh) on the reduced argument, within a few ulp of the correctly rounded result over the whole domain,
 * ±0, denormals, ±Inf and NaN included. max/min are JavaScript's: NaN if either side is NaN, and +0 > -0.
 */
#ifndef POLYKERN_VMATH_H
#define POLYKERN_VMATH_H

#include <immintrin.h>
#include <math.h>
#include <stdint.h>
#include "polykern_math.h"

#define PK_AVX512 __attribute__((target("avx512f,avx2,fma")))
#define PK_AVX2 __attribute__((target("avx2,fma")))
#define PK_ROUND_NEAREST (_MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)

/* Cephes expf: exp(x) = 2^n · p(r), r = x - n·ln2 in [-ln2/2, ln2/2], ln2 split in two for an exact first step. */
#define PK_EXP_F32_HI 89.0f    /* exp(x) rounds to +Inf above ~88.72 */
#define PK_EXP_F32_LO -104.0f  /* and to +0 below ~-103.97 */
#define PK_LOG2E_F32 1.44269504088896341f
#define PK_LN2_HI_F32 0.693359375f
#define PK_LN2_LO_F32 -2.12194440e-4f
#define PK_EXP_F32_POLY(fma, set1, r)                                                                                 \
  fma(fma(fma(fma(fma(set1(1.9875691500e-4f), r, set1(1.3981999507e-3f)), r, set1(8.3334519073e-3f)), r,         \
              set1(4.1665795894e-2f)), r, set1(1.6666665459e-1f)), r, set1(5.0000001201e-1f))

/* Cephes logf on m in [sqrt(1/2), sqrt(2)) - 1. */
#define PK_LOG_F32_POLY(fma, set1, x)                                                                                 \
  fma(fma(fma(fma(fma(fma(fma(fma(set1(7.0376836292e-2f), x, set1(-1.1514610310e-1f)), x, set1(1.1676998740e-1f)), \
                          x, set1(-1.2420140846e-1f)), x, set1(1.4249322787e-1f)), x, set1(-1.6668057665e-1f)), x,   \
              set1(2.0000714765e-1f)), x, set1(-2.4999993993e-1f)), x, set1(3.3333331174e-1f))

/* Cephes tanhf below |x| = 0.625: x + x·z·p(z), z = x². */
#define PK_TANH_F32_POLY(fma, set1, z)                                                                                \
  fma(fma(fma(fma(set1(-5.70498872745e-3f), z, set1(2.06390887954e-2f)), z, set1(-5.37397155531e-2f)), z,          \
          set1(1.33314422036e-1f)), z, set1(-3.33332819422e-1f))

/* Cephes exp (f64): 2^n · (1 + 2·r·P(r²) / (Q(r²) - r·P(r²))). */
#define PK_EXP_F64_HI 710.0
#define PK_EXP_F64_LO -746.0
#define PK_LOG2E_F64 1.4426950408889634074
#define PK_LN2_HI_F64 6.93145751953125e-1
#define PK_LN2_LO_F64 1.42860682030941723212e-6
#define PK_EXP_F64_P(fma, set1, z)                                                                                   \
  fma(fma(set1(1.26177193074810590878e-4), z, set1(3.02994407707441961300e-2)), z, set1(9.99999999999999999910e-1))
#define PK_EXP_F64_Q(fma, set1, z)                                                                                   \
  fma(fma(fma(set1(3.00198505138664455042e-6), z, set1(2.52448340349684104192e-3)), z,                              \
          set1(2.27265548208155028766e-1)), z, set1(2.00000000000000000009e0))

/* log (f64) on m in [sqrt(1/2), sqrt(2)): 2·atanh(s), s = (m-1)/(m+1), |s| < 0.172, as s + s·w·A(w), w = s². */
#define PK_LN2_HI_LOG_F64 6.93147180369123816490e-1
#define PK_LN2_LO_LOG_F64 1.90821492927058770002e-10
#define PK_LOG_F64_POLY(fma, set1, w)                                                                                \
  fma(fma(fma(fma(fma(fma(fma(fma(fma(set1(2.0 / 21), w, set1(2.0 / 19)), w, set1(2.0 / 17)), w, set1(2.0 / 15)), w, \
                          set1(2.0 / 13)), w, set1(2.0 / 11)), w, set1(2.0 / 9)), w, set1(2.0 / 7)), w,             \
          set1(2.0 / 5)), w, set1(2.0 / 3))

/* Cephes tanh (f64) below |x| = 0.625: x + x·z·P(z)/Q(z), z = x². */
#define PK_TANH_F64_P(fma, set1, z)                                                                                  \
  fma(fma(set1(-9.64399179425052238628e-1), z, set1(-9.92877231001918586564e1)), z, set1(-1.61468768441708447952e3))
#define PK_TANH_F64_Q(fma, set1, z)                                                                                  \
  fma(fma(fma(z, set1(1.0), set1(1.12811678491632931402e2)), z, set1(2.23548839060100448583e3)), z,                  \
      set1(4.84406305325125486048e3))

#define PK_TANH_SMALL 0.625

/* ------------------------------------------------------------------------------------------------------------ */
/* AVX-512F, f32 x 16 */

PK_AVX512 static inline __m512 pk_vneg_ps512(__m512 x) {
  return _mm512_castsi512_ps(_mm512_xor_si512(_mm512_castps_si512(x), _mm512_set1_epi32(INT32_MIN)));
}

PK_AVX512 static inline __m512 pk_vabs_ps512(__m512 x) {
  return _mm512_castsi512_ps(_mm512_and_si512(_mm512_castps_si512(x), _mm512_set1_epi32(INT32_MAX)));
}

/* MAXPS returns its second operand when either is NaN or both are zero: fix NaN in `a` and the sign of zero. */
PK_AVX512 static inline __m512 pk_vmax_ps512(__m512 a, __m512 b) {
  __m512 m = _mm512_max_ps(a, b);
  __m512 both = _mm512_castsi512_ps(_mm512_and_si512(_mm512_castps_si512(a), _mm512_castps_si512(b)));
  m = _mm512_mask_mov_ps(m, _mm512_cmp_ps_mask(a, b, _CMP_EQ_OQ), both);
  return _mm512_mask_add_ps(m, _mm512_cmp_ps_mask(a, b, _CMP_UNORD_Q), a, b);
}

PK_AVX512 static inline __m512 pk_vmin_ps512(__m512 a, __m512 b) {
  __m512 m = _mm512_min_ps(a, b);
  __m512 either = _mm512_castsi512_ps(_mm512_or_si512(_mm512_castps_si512(a), _mm512_castps_si512(b)));
  m = _mm512_mask_mov_ps(m, _mm512_cmp_ps_mask(a, b, _CMP_EQ_OQ), either);
  return _mm512_mask_add_ps(m, _mm512_cmp_ps_mask(a, b, _CMP_UNORD_Q), a, b);
}

PK_AVX512 static inline __m512 pk_vexp_ps512(__m512 x) {
  /* MINPS/MAXPS return the second operand on NaN, so a NaN x stays NaN through the clamp and the rest. */
  x = _mm512_max_ps(_mm512_set1_ps(PK_EXP_F32_LO), _mm512_min_ps(_mm512_set1_ps(PK_EXP_F32_HI), x));
  __m512 n = _mm512_roundscale_ps(_mm512_mul_ps(x, _mm512_set1_ps(PK_LOG2E_F32)), PK_ROUND_NEAREST);
  __m512 r = _mm512_fnmadd_ps(n, _mm512_set1_ps(PK_LN2_HI_F32), x);
  r = _mm512_fnmadd_ps(n, _mm512_set1_ps(PK_LN2_LO_F32), r);
  __m512 p = PK_EXP_F32_POLY(_mm512_fmadd_ps, _mm512_set1_ps, r);
  p = _mm512_add_ps(_mm512_fmadd_ps(p, _mm512_mul_ps(r, r), r), _mm512_set1_ps(1.0f));
  return _mm512_scalef_ps(p, n); /* p · 2^n, rounded once: denormal results and overflow to +Inf included */
}

PK_AVX512 static inline __m512 pk_vlog_ps512(__m512 x) {
  /* x = m · 2^e, m in [1/2, 1): getexp/getmant see through denormals. */
  __m512 e = _mm512_add_ps(_mm512_getexp_ps(x), _mm512_set1_ps(1.0f));
  __m512 m = _mm512_getmant_ps(x, _MM_MANT_NORM_p5_1, _MM_MANT_SIGN_zero);
  __mmask16 low = _mm512_cmp_ps_mask(m, _mm512_set1_ps(0.707106781186547524f), _CMP_LT_OQ);
  e = _mm512_mask_sub_ps(e, low, e, _mm512_set1_ps(1.0f));
  m = _mm512_sub_ps(_mm512_mask_add_ps(m, low, m, m), _mm512_set1_ps(1.0f));
  __m512 z = _mm512_mul_ps(m, m);
  __m512 y = _mm512_mul_ps(_mm512_mul_ps(PK_LOG_F32_POLY(_mm512_fmadd_ps, _mm512_set1_ps, m), m), z);
  y = _mm512_fmadd_ps(e, _mm512_set1_ps(PK_LN2_LO_F32), y);
  y = _mm512_fnmadd_ps(z, _mm512_set1_ps(0.5f), y);
  y = _mm512_fmadd_ps(e, _mm512_set1_ps(PK_LN2_HI_F32), _mm512_add_ps(m, y));
  y = _mm512_mask_mov_ps(y, _mm512_cmp_ps_mask(x, _mm512_setzero_ps(), _CMP_EQ_OQ), _mm512_set1_ps(-INFINITY));
  y = _mm512_mask_mov_ps(y, _mm512_cmp_ps_mask(x, _mm512_set1_ps(INFINITY), _CMP_EQ_OQ), x);
  return _mm512_mask_mov_ps(y, _mm512_cmp_ps_mask(x, _mm512_setzero_ps(), _CMP_NGE_UQ), _mm512_set1_ps(NAN));
}

PK_AVX512 static inline __m512 pk_vtanh_ps512(__m512 x) {
  __m512 a = pk_vabs_ps512(x);
  __m512 z = _mm512_mul_ps(a, a);
  __m512 small = _mm512_fmadd_ps(_mm512_mul_ps(PK_TANH_F32_POLY(_mm512_fmadd_ps, _mm512_set1_ps, z), z), a, a);
  __m512 e = pk_vexp_ps512(_mm512_add_ps(a, a));
  __m512 large = _mm512_sub_ps(_mm512_set1_ps(1.0f), _mm512_div_ps(_mm512_set1_ps(2.0f), _mm512_add_ps(e, _mm512_set1_ps(1.0f))));
  __m512 t = _mm512_mask_mov_ps(small, _mm512_cmp_ps_mask(a, _mm512_set1_ps((float)PK_TANH_SMALL), _CMP_GT_OQ), large);
  return _mm512_castsi512_ps(_mm512_or_si512(_mm512_castps_si512(t),
    _mm512_and_si512(_mm512_castps_si512(x), _mm512_set1_epi32(INT32_MIN))));
}

/* (x < 0 ? e : 1) / (1 + e), e = exp(-|x|): exp(-x) would overflow below x = -88.7, where the value is denormal. */
PK_AVX512 static inline __m512 pk_vsigmoid_ps512(__m512 x) {
  const __m512 one = _mm512_set1_ps(1.0f);
  __m512 e = pk_vexp_ps512(pk_vneg_ps512(pk_vabs_ps512(x)));
  __m512 num = _mm512_mask_mov_ps(one, _mm512_cmp_ps_mask(x, _mm512_setzero_ps(), _CMP_LT_OQ), e);
  return _mm512_div_ps(num, _mm512_add_ps(one, e));
}

/* Horizontal reductions, once per loop: lanes in order through the scalar operation. */
#define PK_HORIZONTAL(attr, name, type, vec, lanes, store, op)                                                      \
  attr static inline type name(vec v) {                                                                             \
    type lane[lanes];                                                                                                 \
    store(lane, v);                                                                                                   \
    type acc = lane[0];                                                                                               \
    for (int k = 1; k < lanes; k++) acc = op(acc, lane[k]);                                                           \
    return acc;                                                                                                       \
  }
#define PK_ADD(a, b) ((a) + (b))
#define PK_MUL(a, b) ((a) * (b))

PK_HORIZONTAL(PK_AVX512, pk_hsum_ps512, float, __m512, 16, _mm512_storeu_ps, PK_ADD)
PK_HORIZONTAL(PK_AVX512, pk_hprod_ps512, float, __m512, 16, _mm512_storeu_ps, PK_MUL)
PK_HORIZONTAL(PK_AVX512, pk_hmax_ps512, float, __m512, 16, _mm512_storeu_ps, pk_max_f32)
PK_HORIZONTAL(PK_AVX512, pk_hmin_ps512, float, __m512, 16, _mm512_storeu_ps, pk_min_f32)

/* ------------------------------------------------------------------------------------------------------------ */
/* AVX-512F, f64 x 8 */

PK_AVX512 static inline __m512d pk_vneg_pd512(__m512d x) {
  return _mm512_castsi512_pd(_mm512_xor_si512(_mm512_castpd_si512(x), _mm512_set1_epi64(INT64_MIN)));
}

PK_AVX512 static inline __m512d pk_vabs_pd512(__m512d x) {
  return _mm512_castsi512_pd(_mm512_and_si512(_mm512_castpd_si512(x), _mm512_set1_epi64(INT64_MAX)));
}

PK_AVX512 static inline __m512d pk_vmax_pd512(__m512d a, __m512d b) {
  __m512d m = _mm512_max_pd(a, b);
  __m512d both = _mm512_castsi512_pd(_mm512_and_si512(_mm512_castpd_si512(a), _mm512_castpd_si512(b)));
  m = _mm512_mask_mov_pd(m, _mm512_cmp_pd_mask(a, b, _CMP_EQ_OQ), both);
  return _mm512_mask_add_pd(m, _mm512_cmp_pd_mask(a, b, _CMP_UNORD_Q), a, b);
}

PK_AVX512 static inline __m512d pk_vmin_pd512(__m512d a, __m512d b) {
  __m512d m = _mm512_min_pd(a, b);
  __m512d either = _mm512_castsi512_pd(_mm512_or_si512(_mm512_castpd_si512(a), _mm512_castpd_si512(b)));
  m = _mm512_mask_mov_pd(m, _mm512_cmp_pd_mask(a, b, _CMP_EQ_OQ), either);
  return _mm512_mask_add_pd(m, _mm512_cmp_pd_mask(a, b, _CMP_UNORD_Q), a, b);
}

PK_AVX512 static inline __m512d pk_vexp_pd512(__m512d x) {
  x = _mm512_max_pd(_mm512_set1_pd(PK_EXP_F64_LO), _mm512_min_pd(_mm512_set1_pd(PK_EXP_F64_HI), x));
  __m512d n = _mm512_roundscale_pd(_mm512_mul_pd(x, _mm512_set1_pd(PK_LOG2E_F64)), PK_ROUND_NEAREST);
  __m512d r = _mm512_fnmadd_pd(n, _mm512_set1_pd(PK_LN2_HI_F64), x);
  r = _mm512_fnmadd_pd(n, _mm512_set1_pd(PK_LN2_LO_F64), r);
  __m512d z = _mm512_mul_pd(r, r);
  __m512d px = _mm512_mul_pd(r, PK_EXP_F64_P(_mm512_fmadd_pd, _mm512_set1_pd, z));
  __m512d q = _mm512_sub_pd(PK_EXP_F64_Q(_mm512_fmadd_pd, _mm512_set1_pd, z), px);
  __m512d y = _mm512_fmadd_pd(_mm512_set1_pd(2.0), _mm512_div_pd(px, q), _mm512_set1_pd(1.0));
  return _mm512_scalef_pd(y, n);
}

PK_AVX512 static inline __m512d pk_vlog_pd512(__m512d x) {
  __m512d e = _mm512_add_pd(_mm512_getexp_pd(x), _mm512_set1_pd(1.0));
  __m512d m = _mm512_getmant_pd(x, _MM_MANT_NORM_p5_1, _MM_MANT_SIGN_zero);
  __mmask8 low = _mm512_cmp_pd_mask(m, _mm512_set1_pd(0.707106781186547524), _CMP_LT_OQ);
  e = _mm512_mask_sub_pd(e, low, e, _mm512_set1_pd(1.0));
  m = _mm512_mask_add_pd(m, low, m, m);
  __m512d s = _mm512_div_pd(_mm512_sub_pd(m, _mm512_set1_pd(1.0)), _mm512_add_pd(m, _mm512_set1_pd(1.0)));
  __m512d w = _mm512_mul_pd(s, s);
  __m512d t = _mm512_mul_pd(_mm512_mul_pd(s, w), PK_LOG_F64_POLY(_mm512_fmadd_pd, _mm512_set1_pd, w));
  __m512d lo = _mm512_fmadd_pd(e, _mm512_set1_pd(PK_LN2_LO_LOG_F64), t);
  __m512d y = _mm512_fmadd_pd(e, _mm512_set1_pd(PK_LN2_HI_LOG_F64), _mm512_fmadd_pd(_mm512_set1_pd(2.0), s, lo));
  y = _mm512_mask_mov_pd(y, _mm512_cmp_pd_mask(x, _mm512_setzero_pd(), _CMP_EQ_OQ), _mm512_set1_pd(-INFINITY));
  y = _mm512_mask_mov_pd(y, _mm512_cmp_pd_mask(x, _mm512_set1_pd(INFINITY), _CMP_EQ_OQ), x);
  return _mm512_mask_mov_pd(y, _mm512_cmp_pd_mask(x, _mm512_setzero_pd(), _CMP_NGE_UQ), _mm512_set1_pd(NAN));
}

PK_AVX512 static inline __m512d pk_vtanh_pd512(__m512d x) {
  __m512d a = pk_vabs_pd512(x);
  __m512d z = _mm512_mul_pd(a, a);
  __m512d ratio = _mm512_div_pd(PK_TANH_F64_P(_mm512_fmadd_pd, _mm512_set1_pd, z), PK_TANH_F64_Q(_mm512_fmadd_pd, _mm512_set1_pd, z));
  __m512d small = _mm512_fmadd_pd(_mm512_mul_pd(a, z), ratio, a);
  __m512d e = pk_vexp_pd512(_mm512_add_pd(a, a));
  __m512d large = _mm512_sub_pd(_mm512_set1_pd(1.0), _mm512_div_pd(_mm512_set1_pd(2.0), _mm512_add_pd(e, _mm512_set1_pd(1.0))));
  __m512d t = _mm512_mask_mov_pd(small, _mm512_cmp_pd_mask(a, _mm512_set1_pd(PK_TANH_SMALL), _CMP_GT_OQ), large);
  return _mm512_castsi512_pd(_mm512_or_si512(_mm512_castpd_si512(t),
    _mm512_and_si512(_mm512_castpd_si512(x), _mm512_set1_epi64(INT64_MIN))));
}

PK_AVX512 static inline __m512d pk_vsigmoid_pd512(__m512d x) {
  const __m512d one = _mm512_set1_pd(1.0);
  __m512d e = pk_vexp_pd512(pk_vneg_pd512(pk_vabs_pd512(x)));
  __m512d num = _mm512_mask_mov_pd(one, _mm512_cmp_pd_mask(x, _mm512_setzero_pd(), _CMP_LT_OQ), e);
  return _mm512_div_pd(num, _mm512_add_pd(one, e));
}

PK_HORIZONTAL(PK_AVX512, pk_hsum_pd512, double, __m512d, 8, _mm512_storeu_pd, PK_ADD)
PK_HORIZONTAL(PK_AVX512, pk_hprod_pd512, double, __m512d, 8, _mm512_storeu_pd, PK_MUL)
PK_HORIZONTAL(PK_AVX512, pk_hmax_pd512, double, __m512d, 8, _mm512_storeu_pd, pk_max_f64)
PK_HORIZONTAL(PK_AVX512, pk_hmin_pd512, double, __m512d, 8, _mm512_storeu_pd, pk_min_f64)

/* ------------------------------------------------------------------------------------------------------------ */
/* AVX2, f32 x 8: no scalef, getexp or getmant; exponents are built and read in the integer lanes. */

PK_AVX2 static inline __m256 pk_vneg_ps256(__m256 x) {
  return _mm256_xor_ps(x, _mm256_castsi256_ps(_mm256_set1_epi32(INT32_MIN)));
}

PK_AVX2 static inline __m256 pk_vabs_ps256(__m256 x) {
  return _mm256_and_ps(x, _mm256_castsi256_ps(_mm256_set1_epi32(INT32_MAX)));
}

PK_AVX2 static inline __m256 pk_vmax_ps256(__m256 a, __m256 b) {
  __m256 m = _mm256_blendv_ps(_mm256_max_ps(a, b), _mm256_and_ps(a, b), _mm256_cmp_ps(a, b, _CMP_EQ_OQ));
  return _mm256_blendv_ps(m, _mm256_add_ps(a, b), _mm256_cmp_ps(a, b, _CMP_UNORD_Q));
}

PK_AVX2 static inline __m256 pk_vmin_ps256(__m256 a, __m256 b) {
  __m256 m = _mm256_blendv_ps(_mm256_min_ps(a, b), _mm256_or_ps(a, b), _mm256_cmp_ps(a, b, _CMP_EQ_OQ));
  return _mm256_blendv_ps(m, _mm256_add_ps(a, b), _mm256_cmp_ps(a, b, _CMP_UNORD_Q));
}

/* 2^k for integer lanes k in [-126, 127]. */
PK_AVX2 static inline __m256 pk_pow2i_ps256(__m256i k) {
  return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_add_epi32(k, _mm256_set1_epi32(127)), 23));
}

PK_AVX2 static inline __m256 pk_vexp_ps256(__m256 x) {
  x = _mm256_max_ps(_mm256_set1_ps(PK_EXP_F32_LO), _mm256_min_ps(_mm256_set1_ps(PK_EXP_F32_HI), x));
  __m256 n = _mm256_round_ps(_mm256_mul_ps(x, _mm256_set1_ps(PK_LOG2E_F32)), PK_ROUND_NEAREST);
  __m256 r = _mm256_fnmadd_ps(n, _mm256_set1_ps(PK_LN2_HI_F32), x);
  r = _mm256_fnmadd_ps(n, _mm256_set1_ps(PK_LN2_LO_F32), r);
  __m256 p = PK_EXP_F32_POLY(_mm256_fmadd_ps, _mm256_set1_ps, r);
  p = _mm256_add_ps(_mm256_fmadd_ps(p, _mm256_mul_ps(r, r), r), _mm256_set1_ps(1.0f));
  /* n in [-150, 128]: 2^n in two normal factors, so a denormal result is rounded once, by the last product. */
  __m256i k = _mm256_cvtps_epi32(n);
  __m256i half = _mm256_srai_epi32(k, 1);
  return _mm256_mul_ps(_mm256_mul_ps(p, pk_pow2i_ps256(half)), pk_pow2i_ps256(_mm256_sub_epi32(k, half)));
}

PK_AVX2 static inline __m256 pk_vlog_ps256(__m256 x) {
  /* Denormals are scaled by 2^23 first; other specials are patched at the end. */
  __m256 tiny = _mm256_cmp_ps(x, _mm256_set1_ps(1.17549435e-38f), _CMP_LT_OQ);
  __m256 xs = _mm256_blendv_ps(x, _mm256_mul_ps(x, _mm256_set1_ps(8388608.0f)), tiny);
  __m256i bits = _mm256_castps_si256(xs);
  __m256 e = _mm256_cvtepi32_ps(_mm256_sub_epi32(_mm256_srli_epi32(bits, 23), _mm256_set1_epi32(126)));
  e = _mm256_sub_ps(e, _mm256_and_ps(tiny, _mm256_set1_ps(23.0f)));
  __m256 m = _mm256_castsi256_ps(_mm256_or_si256(_mm256_and_si256(bits, _mm256_set1_epi32(0x007fffff)),
    _mm256_set1_epi32(0x3f000000)));
  __m256 low = _mm256_cmp_ps(m, _mm256_set1_ps(0.707106781186547524f), _CMP_LT_OQ);
  e = _mm256_sub_ps(e, _mm256_and_ps(low, _mm256_set1_ps(1.0f)));
  m = _mm256_sub_ps(_mm256_add_ps(m, _mm256_and_ps(low, m)), _mm256_set1_ps(1.0f));
  __m256 z = _mm256_mul_ps(m, m);
  __m256 y = _mm256_mul_ps(_mm256_mul_ps(PK_LOG_F32_POLY(_mm256_fmadd_ps, _mm256_set1_ps, m), m), z);
  y = _mm256_fmadd_ps(e, _mm256_set1_ps(PK_LN2_LO_F32), y);
  y = _mm256_fnmadd_ps(z, _mm256_set1_ps(0.5f), y);
  y = _mm256_fmadd_ps(e, _mm256_set1_ps(PK_LN2_HI_F32), _mm256_add_ps(m, y));
  y = _mm256_blendv_ps(y, _mm256_set1_ps(-INFINITY), _mm256_cmp_ps(x, _mm256_setzero_ps(), _CMP_EQ_OQ));
  y = _mm256_blendv_ps(y, x, _mm256_cmp_ps(x, _mm256_set1_ps(INFINITY), _CMP_EQ_OQ));
  return _mm256_blendv_ps(y, _mm256_set1_ps(NAN), _mm256_cmp_ps(x, _mm256_setzero_ps(), _CMP_NGE_UQ));
}

PK_AVX2 static inline __m256 pk_vtanh_ps256(__m256 x) {
  __m256 a = pk_vabs_ps256(x);
  __m256 z = _mm256_mul_ps(a, a);
  __m256 small = _mm256_fmadd_ps(_mm256_mul_ps(PK_TANH_F32_POLY(_mm256_fmadd_ps, _mm256_set1_ps, z), z), a, a);
  __m256 e = pk_vexp_ps256(_mm256_add_ps(a, a));
  __m256 large = _mm256_sub_ps(_mm256_set1_ps(1.0f), _mm256_div_ps(_mm256_set1_ps(2.0f), _mm256_add_ps(e, _mm256_set1_ps(1.0f))));
  __m256 t = _mm256_blendv_ps(small, large, _mm256_cmp_ps(a, _mm256_set1_ps((float)PK_TANH_SMALL), _CMP_GT_OQ));
  return _mm256_or_ps(t, _mm256_and_ps(x, _mm256_castsi256_ps(_mm256_set1_epi32(INT32_MIN))));
}

PK_AVX2 static inline __m256 pk_vsigmoid_ps256(__m256 x) {
  const __m256 one = _mm256_set1_ps(1.0f);
  __m256 e = pk_vexp_ps256(pk_vneg_ps256(pk_vabs_ps256(x)));
  __m256 num = _mm256_blendv_ps(one, e, _mm256_cmp_ps(x, _mm256_setzero_ps(), _CMP_LT_OQ));
  return _mm256_div_ps(num, _mm256_add_ps(one, e));
}

PK_HORIZONTAL(PK_AVX2, pk_hsum_ps256, float, __m256, 8, _mm256_storeu_ps, PK_ADD)
PK_HORIZONTAL(PK_AVX2, pk_hprod_ps256, float, __m256, 8, _mm256_storeu_ps, PK_MUL)
PK_HORIZONTAL(PK_AVX2, pk_hmax_ps256, float, __m256, 8, _mm256_storeu_ps, pk_max_f32)
PK_HORIZONTAL(PK_AVX2, pk_hmin_ps256, float, __m256, 8, _mm256_storeu_ps, pk_min_f32)

/* ------------------------------------------------------------------------------------------------------------ */
/* AVX2, f64 x 4: no 64-bit conversions either; small integers go through the 2^52 + 2^51 rounding constant. */

#define PK_MAGIC_F64 6755399441055744.0 /* 2^52 + 2^51: x + it holds round(x) in the low mantissa bits */

PK_AVX2 static inline __m256d pk_vneg_pd256(__m256d x) {
  return _mm256_xor_pd(x, _mm256_castsi256_pd(_mm256_set1_epi64x(INT64_MIN)));
}

PK_AVX2 static inline __m256d pk_vabs_pd256(__m256d x) {
  return _mm256_and_pd(x, _mm256_castsi256_pd(_mm256_set1_epi64x(INT64_MAX)));
}

PK_AVX2 static inline __m256d pk_vmax_pd256(__m256d a, __m256d b) {
  __m256d m = _mm256_blendv_pd(_mm256_max_pd(a, b), _mm256_and_pd(a, b), _mm256_cmp_pd(a, b, _CMP_EQ_OQ));
  return _mm256_blendv_pd(m, _mm256_add_pd(a, b), _mm256_cmp_pd(a, b, _CMP_UNORD_Q));
}

PK_AVX2 static inline __m256d pk_vmin_pd256(__m256d a, __m256d b) {
  __m256d m = _mm256_blendv_pd(_mm256_min_pd(a, b), _mm256_or_pd(a, b), _mm256_cmp_pd(a, b, _CMP_EQ_OQ));
  return _mm256_blendv_pd(m, _mm256_add_pd(a, b), _mm256_cmp_pd(a, b, _CMP_UNORD_Q));
}

/* 2^k for integral lanes k in [-1022, 1023] held as doubles. */
PK_AVX2 static inline __m256d pk_pow2_pd256(__m256d k) {
  const __m256d magic = _mm256_set1_pd(PK_MAGIC_F64);
  __m256i i = _mm256_sub_epi64(_mm256_castpd_si256(_mm256_add_pd(k, magic)), _mm256_castpd_si256(magic));
  return _mm256_castsi256_pd(_mm256_slli_epi64(_mm256_add_epi64(i, _mm256_set1_epi64x(1023)), 52));
}

PK_AVX2 static inline __m256d pk_vexp_pd256(__m256d x) {
  x = _mm256_max_pd(_mm256_set1_pd(PK_EXP_F64_LO), _mm256_min_pd(_mm256_set1_pd(PK_EXP_F64_HI), x));
  __m256d n = _mm256_round_pd(_mm256_mul_pd(x, _mm256_set1_pd(PK_LOG2E_F64)), PK_ROUND_NEAREST);
  __m256d r = _mm256_fnmadd_pd(n, _mm256_set1_pd(PK_LN2_HI_F64), x);
  r = _mm256_fnmadd_pd(n, _mm256_set1_pd(PK_LN2_LO_F64), r);
  __m256d z = _mm256_mul_pd(r, r);
  __m256d px = _mm256_mul_pd(r, PK_EXP_F64_P(_mm256_fmadd_pd, _mm256_set1_pd, z));
  __m256d q = _mm256_sub_pd(PK_EXP_F64_Q(_mm256_fmadd_pd, _mm256_set1_pd, z), px);
  __m256d y = _mm256_fmadd_pd(_mm256_set1_pd(2.0), _mm256_div_pd(px, q), _mm256_set1_pd(1.0));
  __m256d half = _mm256_round_pd(_mm256_mul_pd(n, _mm256_set1_pd(0.5)), _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
  return _mm256_mul_pd(_mm256_mul_pd(y, pk_pow2_pd256(half)), pk_pow2_pd256(_mm256_sub_pd(n, half)));
}

PK_AVX2 static inline __m256d pk_vlog_pd256(__m256d x) {
  __m256d tiny = _mm256_cmp_pd(x, _mm256_set1_pd(2.2250738585072014e-308), _CMP_LT_OQ);
  __m256d xs = _mm256_blendv_pd(x, _mm256_mul_pd(x, _mm256_set1_pd(18014398509481984.0 /* 2^54 */)), tiny);
  __m256i bits = _mm256_castpd_si256(xs);
  const __m256d magic = _mm256_set1_pd(4503599627370496.0); /* 2^52: OR-ing a small integer into it gives 2^52 + k */
  __m256i field = _mm256_srli_epi64(bits, 52);
  __m256d e = _mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(field, _mm256_castpd_si256(magic))), magic);
  e = _mm256_sub_pd(_mm256_sub_pd(e, _mm256_set1_pd(1022.0)), _mm256_and_pd(tiny, _mm256_set1_pd(54.0)));
  __m256d m = _mm256_castsi256_pd(_mm256_or_si256(_mm256_and_si256(bits, _mm256_set1_epi64x(0x000fffffffffffffLL)),
    _mm256_set1_epi64x(0x3fe0000000000000LL)));
  __m256d low = _mm256_cmp_pd(m, _mm256_set1_pd(0.707106781186547524), _CMP_LT_OQ);
  e = _mm256_sub_pd(e, _mm256_and_pd(low, _mm256_set1_pd(1.0)));
  m = _mm256_add_pd(m, _mm256_and_pd(low, m));
  __m256d s = _mm256_div_pd(_mm256_sub_pd(m, _mm256_set1_pd(1.0)), _mm256_add_pd(m, _mm256_set1_pd(1.0)));
  __m256d w = _mm256_mul_pd(s, s);
  __m256d t = _mm256_mul_pd(_mm256_mul_pd(s, w), PK_LOG_F64_POLY(_mm256_fmadd_pd, _mm256_set1_pd, w));
  __m256d lo = _mm256_fmadd_pd(e, _mm256_set1_pd(PK_LN2_LO_LOG_F64), t);
  __m256d y = _mm256_fmadd_pd(e, _mm256_set1_pd(PK_LN2_HI_LOG_F64), _mm256_fmadd_pd(_mm256_set1_pd(2.0), s, lo));
  y = _mm256_blendv_pd(y, _mm256_set1_pd(-INFINITY), _mm256_cmp_pd(x, _mm256_setzero_pd(), _CMP_EQ_OQ));
  y = _mm256_blendv_pd(y, x, _mm256_cmp_pd(x, _mm256_set1_pd(INFINITY), _CMP_EQ_OQ));
  return _mm256_blendv_pd(y, _mm256_set1_pd(NAN), _mm256_cmp_pd(x, _mm256_setzero_pd(), _CMP_NGE_UQ));
}

PK_AVX2 static inline __m256d pk_vtanh_pd256(__m256d x) {
  __m256d a = pk_vabs_pd256(x);
  __m256d z = _mm256_mul_pd(a, a);
  __m256d ratio = _mm256_div_pd(PK_TANH_F64_P(_mm256_fmadd_pd, _mm256_set1_pd, z), PK_TANH_F64_Q(_mm256_fmadd_pd, _mm256_set1_pd, z));
  __m256d small = _mm256_fmadd_pd(_mm256_mul_pd(a, z), ratio, a);
  __m256d e = pk_vexp_pd256(_mm256_add_pd(a, a));
  __m256d large = _mm256_sub_pd(_mm256_set1_pd(1.0), _mm256_div_pd(_mm256_set1_pd(2.0), _mm256_add_pd(e, _mm256_set1_pd(1.0))));
  __m256d t = _mm256_blendv_pd(small, large, _mm256_cmp_pd(a, _mm256_set1_pd(PK_TANH_SMALL), _CMP_GT_OQ));
  return _mm256_or_pd(t, _mm256_and_pd(x, _mm256_castsi256_pd(_mm256_set1_epi64x(INT64_MIN))));
}

PK_AVX2 static inline __m256d pk_vsigmoid_pd256(__m256d x) {
  const __m256d one = _mm256_set1_pd(1.0);
  __m256d e = pk_vexp_pd256(pk_vneg_pd256(pk_vabs_pd256(x)));
  __m256d num = _mm256_blendv_pd(one, e, _mm256_cmp_pd(x, _mm256_setzero_pd(), _CMP_LT_OQ));
  return _mm256_div_pd(num, _mm256_add_pd(one, e));
}

PK_HORIZONTAL(PK_AVX2, pk_hsum_pd256, double, __m256d, 4, _mm256_storeu_pd, PK_ADD)
PK_HORIZONTAL(PK_AVX2, pk_hprod_pd256, double, __m256d, 4, _mm256_storeu_pd, PK_MUL)
PK_HORIZONTAL(PK_AVX2, pk_hmax_pd256, double, __m256d, 4, _mm256_storeu_pd, pk_max_f64)
PK_HORIZONTAL(PK_AVX2, pk_hmin_pd256, double, __m256d, 4, _mm256_storeu_pd, pk_min_f64)

#endif
