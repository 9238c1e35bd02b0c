/*
 * Helpers the generated kernel functions call: the IR's arithmetic where C's own operators and libm differ from it
 * (NaN-propagating max/min, JavaScript's pow, sigmoid without overflow, total i32 division), integer loop-bound
 * rounding, and checked temporary allocation.
 * Everything is `static inline` so unused helpers cost nothing and the header can be included once per addon.
 */
#ifndef POLYKERN_MATH_H
#define POLYKERN_MATH_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

/* Kernel return codes. */
#define PK_OK 0
#define PK_NO_MEMORY 1

/* max/min as JavaScript's Math.max/Math.min: NaN if either side is NaN, and +0 > -0 (fmax/fmin drop NaNs). */
static inline float pk_max_f32(float a, float b) {
  if (a > b) return a;
  if (b > a) return b;
  if (a == b) return signbit(a) ? b : a;
  return a + b; /* at least one NaN */
}

static inline float pk_min_f32(float a, float b) {
  if (a < b) return a;
  if (b < a) return b;
  if (a == b) return signbit(a) ? a : b;
  return a + b;
}

static inline double pk_max_f64(double a, double b) {
  if (a > b) return a;
  if (b > a) return b;
  if (a == b) return signbit(a) ? b : a;
  return a + b;
}

static inline double pk_min_f64(double a, double b) {
  if (a < b) return a;
  if (b < a) return b;
  if (a == b) return signbit(a) ? a : b;
  return a + b;
}

static inline int32_t pk_max_i32(int32_t a, int32_t b) { return a > b ? a : b; }
static inline int32_t pk_min_i32(int32_t a, int32_t b) { return a < b ? a : b; }

/* i32 division is total: x / 0 = 0 and INT32_MIN / -1 wraps to INT32_MIN instead of trapping (SIGFPE). */
static inline int32_t pk_div_i32(int32_t a, int32_t b) {
  if (b == 0) return 0;
  if (b == -1) return (int32_t)(0u - (uint32_t)a);
  return a / b;
}

/* x % 0 = 0 and x % -1 = 0 (INT32_MIN % -1 traps on x86). */
static inline int32_t pk_mod_i32(int32_t a, int32_t b) {
  if (b == 0 || b == -1) return 0;
  return a % b;
}

/* abs(INT32_MIN) wraps to INT32_MIN. */
static inline int32_t pk_abs_i32(int32_t a) { return a < 0 ? (int32_t)(0u - (uint32_t)a) : a; }

/*
 * 1 / (1 + exp(-x)) from e = exp(-|x|), which cannot overflow: e / (1 + e) for x < 0. exp(-x) itself overflows for
 * x below about -88 (f32), where the value is a denormal, not 0.
 */
static inline float pk_sigmoid_f32(float x) {
  const float e = expf(-fabsf(x));
  return (x < 0 ? e : 1.0f) / (1.0f + e);
}

static inline double pk_sigmoid_f64(double x) {
  const double e = exp(-fabs(x));
  return (x < 0 ? e : 1.0) / (1.0 + e);
}

/* pow as JavaScript's Math.pow: C's pow(±1, y) is 1 for every y, JavaScript's is NaN when y is NaN or ±Inf. */
static inline float pk_pow_f32(float a, float b) { return fabsf(a) == 1.0f && !isfinite(b) ? NAN : powf(a, b); }
static inline double pk_pow_f64(double a, double b) { return fabs(a) == 1.0 && !isfinite(b) ? NAN : pow(a, b); }

/* Loop bounds. Division rounds toward -infinity / +infinity for any sign (C's `/` truncates); `b` > 0. */
static inline int64_t pk_max_i64(int64_t a, int64_t b) { return a > b ? a : b; }
static inline int64_t pk_min_i64(int64_t a, int64_t b) { return a < b ? a : b; }

static inline int64_t pk_floordiv_i64(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && a < 0) ? q - 1 : q;
}

static inline int64_t pk_ceildiv_i64(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && a > 0) ? q + 1 : q;
}

/*
 * A zeroed temporary of `rank` dimensions: NULL when a dimension is negative, the byte size overflows, or calloc
 * fails. Never NULL for an empty tensor, so NULL always means failure.
 */
static inline void *pk_calloc(size_t elem_size, int rank, const int64_t *dims) {
  uint64_t count = 1;
  for (int d = 0; d < rank; d++) {
    if (dims[d] < 0 || __builtin_mul_overflow(count, (uint64_t)dims[d], &count)) return NULL;
  }
  uint64_t bytes;
  if (__builtin_mul_overflow(count, (uint64_t)elem_size, &bytes) || bytes > (uint64_t)SIZE_MAX) return NULL;
  return calloc(count == 0 ? 1 : (size_t)count, elem_size);
}

#endif
