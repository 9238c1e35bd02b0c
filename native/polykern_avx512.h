/*
 * AVX-512F: ps512 vectors (f32 x 16) and pd512 (f64 x 8). The vector math of the generated SIMD code, named in
 * plugin/targets/x86-avx512.ts's vector tables: one function per operation and vector type, `pk_v<op>_<type>`
 * element-wise and `pk_h<op>_<type>` across lanes (polykern_vmath.h says how they round). Each function carries the
 * ISA's target attribute, so this header compiles in any file and inlines into the ISA's code only. Its
 * <immintrin.h> declares the intrinsics the tables print.
 */
#ifndef POLYKERN_AVX512_H
#define POLYKERN_AVX512_H

#include <immintrin.h>
#include <stdint.h>
#include "polykern_vmath.h"

#define PK_AVX512 __attribute__((target("avx512f,avx2,fma")))

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
/* Tiles of a transposing copy (emit/c-transpose.ts): dst[c·ld + r] = src[r·ls + c] for r < rows, c < cols, both at
 * most one vector's lanes. Rows are read whole and written whole through the register transpose; masked lanes are
 * never touched, so a tile at a tensor's edge reads and writes nothing past it. */

PK_AVX512 static inline void pk_transpose_ps512(const float *src, int64_t ls, float *dst, int64_t ld, int64_t rows, int64_t cols) {
  __m512 r[16], t[16];
  __mmask16 in = (__mmask16)((1u << cols) - 1u), out = (__mmask16)((1u << rows) - 1u);
  for (int i = 0; i < 16; i++) r[i] = i < rows ? _mm512_maskz_loadu_ps(in, src + i * ls) : _mm512_setzero_ps();
  for (int i = 0; i < 16; i += 2) {
    t[i] = _mm512_unpacklo_ps(r[i], r[i + 1]);
    t[i + 1] = _mm512_unpackhi_ps(r[i], r[i + 1]);
  }
  for (int i = 0; i < 16; i += 4) {
    r[i] = _mm512_shuffle_ps(t[i], t[i + 2], 0x44);
    r[i + 1] = _mm512_shuffle_ps(t[i], t[i + 2], 0xEE);
    r[i + 2] = _mm512_shuffle_ps(t[i + 1], t[i + 3], 0x44);
    r[i + 3] = _mm512_shuffle_ps(t[i + 1], t[i + 3], 0xEE);
  }
  for (int i = 0; i < 4; i++) {
    t[i] = _mm512_shuffle_f32x4(r[i], r[i + 4], 0x88);
    t[i + 4] = _mm512_shuffle_f32x4(r[i], r[i + 4], 0xDD);
    t[i + 8] = _mm512_shuffle_f32x4(r[i + 8], r[i + 12], 0x88);
    t[i + 12] = _mm512_shuffle_f32x4(r[i + 8], r[i + 12], 0xDD);
  }
  for (int i = 0; i < 4; i++) {
    r[i] = _mm512_shuffle_f32x4(t[i], t[i + 8], 0x88);
    r[i + 8] = _mm512_shuffle_f32x4(t[i], t[i + 8], 0xDD);
    r[i + 4] = _mm512_shuffle_f32x4(t[i + 4], t[i + 12], 0x88);
    r[i + 12] = _mm512_shuffle_f32x4(t[i + 4], t[i + 12], 0xDD);
  }
  for (int c = 0; c < cols; c++) _mm512_mask_storeu_ps(dst + c * ld, out, r[c]);
}

PK_AVX512 static inline void pk_transpose_pd512(const double *src, int64_t ls, double *dst, int64_t ld, int64_t rows, int64_t cols) {
  __m512d r[8], t[8];
  __mmask8 in = (__mmask8)((1u << cols) - 1u), out = (__mmask8)((1u << rows) - 1u);
  for (int i = 0; i < 8; i++) r[i] = i < rows ? _mm512_maskz_loadu_pd(in, src + i * ls) : _mm512_setzero_pd();
  for (int i = 0; i < 8; i += 2) {
    t[i] = _mm512_unpacklo_pd(r[i], r[i + 1]);
    t[i + 1] = _mm512_unpackhi_pd(r[i], r[i + 1]);
  }
  for (int i = 0; i < 8; i += 4) {
    r[i] = _mm512_shuffle_f64x2(t[i], t[i + 2], 0x88);
    r[i + 1] = _mm512_shuffle_f64x2(t[i], t[i + 2], 0xDD);
    r[i + 2] = _mm512_shuffle_f64x2(t[i + 1], t[i + 3], 0x88);
    r[i + 3] = _mm512_shuffle_f64x2(t[i + 1], t[i + 3], 0xDD);
  }
  /* r[0..3] hold columns {0,4}, {2,6}, {1,5}, {3,7} of rows 0-3 in their 128-bit lanes; r[4..7] of rows 4-7. */
  static const int pick[8] = {0, 2, 1, 3, 0, 2, 1, 3};
  for (int c = 0; c < cols; c++) {
    int i = pick[c];
    _mm512_mask_storeu_pd(dst + c * ld, out, c < 4 ? _mm512_shuffle_f64x2(r[i], r[i + 4], 0x88) : _mm512_shuffle_f64x2(r[i], r[i + 4], 0xDD));
  }
}

#endif
