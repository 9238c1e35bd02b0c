/*
 * What every ISA's vector math (polykern_<isa>.h, named by the ISA's table in plugin/targets/) shares: the Cephes
 * constants and polynomials, written over the ISA's own fma and set1, and the horizontal reductions' shape.
 *
 * exp/log/tanh/sigmoid follow Cephes: Cody-Waite range reduction and a polynomial (a rational function for f64 exp
 * and tanh) on the reduced argument, within a few ulp of the correctly rounded result over the whole domain,
 * ±0, denormals, ±Inf and NaN included. max/min are JavaScript's: NaN if either side is NaN, and +0 > -0.
 */
#ifndef POLYKERN_VMATH_H
#define POLYKERN_VMATH_H

#include <math.h>
#include <stdint.h>
#include "polykern_math.h"

/* The round-to-nearest immediate of the x86 ISAs' round instructions (their <immintrin.h> defines the names). */
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

#endif
