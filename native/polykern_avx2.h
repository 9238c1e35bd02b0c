/*
 * AVX2 + FMA: ps256 vectors (f32 x 8) and pd256 (f64 x 4). The vector math of the generated SIMD code, named in
 * plugin/targets/x86-avx2.ts's vector tables: one function per operation and vector type, `pk_v<op>_<type>`
 * element-wise and `pk_h<op>_<type>` across lanes (polykern_vmath.h says how they round). Each function carries the
 * ISA's target attribute, so this header compiles in any file and inlines into the ISA's code only. Its
 * <immintrin.h> declares the intrinsics the tables print.
 */
#ifndef POLYKERN_AVX2_H
#define POLYKERN_AVX2_H

#include <immintrin.h>
#include <stdint.h>
#include "polykern_vmath.h"

#define PK_AVX2 __attribute__((target("avx2,fma")))

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

/* ------------------------------------------------------------------------------------------------------------ */
/* Tiles of a transposing copy (emit/c-transpose.ts): dst[c·ld + r] = src[r·ls + c] for r < rows, c < cols, both at
 * most one cache line's elements (16 f32, 8 f64), as register transposes of 8 × 8 (4 × 4) blocks. Only a block cut
 * short at a tensor's edge uses the masked moves (VMASKMOV, its stores far slower than plain ones on AMD Zen: with
 * them on every block, a 1000² f64 transpose ran 0.55× the scalar tiles); masked lanes are never touched. */

PK_AVX2 static inline __m256i pk_first_lanes_256(int64_t n, int lanes) {
  const __m256i index = lanes == 8 ? _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7) : _mm256_setr_epi32(0, 0, 1, 1, 2, 2, 3, 3);
  return _mm256_cmpgt_epi32(_mm256_set1_epi32((int)n), index);
}

PK_AVX2 static inline void pk_transpose8_ps256(const float *src, int64_t ls, float *dst, int64_t ld, int64_t rows, int64_t cols) {
  __m256 r[8], t[8];
  __m256i in = pk_first_lanes_256(cols, 8), out = pk_first_lanes_256(rows, 8);
  for (int i = 0; i < 8; i++) r[i] = i >= rows ? _mm256_setzero_ps() : cols == 8 ? _mm256_loadu_ps(src + i * ls) : _mm256_maskload_ps(src + i * ls, in);
  for (int i = 0; i < 8; i += 2) {
    t[i] = _mm256_unpacklo_ps(r[i], r[i + 1]);
    t[i + 1] = _mm256_unpackhi_ps(r[i], r[i + 1]);
  }
  for (int i = 0; i < 8; i += 4) {
    r[i] = _mm256_shuffle_ps(t[i], t[i + 2], 0x44);
    r[i + 1] = _mm256_shuffle_ps(t[i], t[i + 2], 0xEE);
    r[i + 2] = _mm256_shuffle_ps(t[i + 1], t[i + 3], 0x44);
    r[i + 3] = _mm256_shuffle_ps(t[i + 1], t[i + 3], 0xEE);
  }
  for (int c = 0; c < cols; c++) {
    int i = c & 3;
    __m256 column = c < 4 ? _mm256_permute2f128_ps(r[i], r[i + 4], 0x20) : _mm256_permute2f128_ps(r[i], r[i + 4], 0x31);
    if (rows == 8) _mm256_storeu_ps(dst + c * ld, column);
    else _mm256_maskstore_ps(dst + c * ld, out, column);
  }
}

PK_AVX2 static inline void pk_transpose_ps256(const float *src, int64_t ls, float *dst, int64_t ld, int64_t rows, int64_t cols) {
  for (int64_t r = 0; r < rows; r += 8)
    for (int64_t c = 0; c < cols; c += 8)
      pk_transpose8_ps256(src + r * ls + c, ls, dst + c * ld + r, ld, rows - r < 8 ? rows - r : 8, cols - c < 8 ? cols - c : 8);
}

PK_AVX2 static inline void pk_transpose4_pd256(const double *src, int64_t ls, double *dst, int64_t ld, int64_t rows, int64_t cols) {
  __m256d r[4], t[4];
  __m256i in = pk_first_lanes_256(cols, 4), out = pk_first_lanes_256(rows, 4);
  for (int i = 0; i < 4; i++) r[i] = i >= rows ? _mm256_setzero_pd() : cols == 4 ? _mm256_loadu_pd(src + i * ls) : _mm256_maskload_pd(src + i * ls, in);
  t[0] = _mm256_unpacklo_pd(r[0], r[1]);
  t[1] = _mm256_unpackhi_pd(r[0], r[1]);
  t[2] = _mm256_unpacklo_pd(r[2], r[3]);
  t[3] = _mm256_unpackhi_pd(r[2], r[3]);
  for (int c = 0; c < cols; c++) {
    int i = c & 1;
    __m256d column = c < 2 ? _mm256_permute2f128_pd(t[i], t[i + 2], 0x20) : _mm256_permute2f128_pd(t[i], t[i + 2], 0x31);
    if (rows == 4) _mm256_storeu_pd(dst + c * ld, column);
    else _mm256_maskstore_pd(dst + c * ld, out, column);
  }
}

PK_AVX2 static inline void pk_transpose_pd256(const double *src, int64_t ls, double *dst, int64_t ld, int64_t rows, int64_t cols) {
  for (int64_t r = 0; r < rows; r += 4)
    for (int64_t c = 0; c < cols; c += 4)
      pk_transpose4_pd256(src + r * ls + c, ls, dst + c * ld + r, ld, rows - r < 4 ? rows - r : 4, cols - c < 4 ? cols - c : 4);
}

#endif
