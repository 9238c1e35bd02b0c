/*
 * What the generated blocked GEMMs share across ISAs: the call descriptor each kernel fills in, and 64-byte aligned
 * pack buffers. The microkernels, packing routines and drivers themselves are generated per ISA (emit/c-gemm.ts)
 * inside that ISA's `#pragma GCC target` region; <immintrin.h> declares every intrinsic for any target.
 */
#ifndef POLYKERN_SIMD_H
#define POLYKERN_SIMD_H

#include <immintrin.h>
#include <stdint.h>
#include <stdlib.h>

/*
 * C[m, n] += A[m, k] * B[k, n] on strided operands (element strides: A along m and k, B along k and n, C along m;
 * C is contiguous along n), run in mc × nc × kc cache blocks.
 */
typedef struct {
  const float *a, *b;
  float *c;
  int64_t m, n, k, a_m, a_k, b_k, b_n, c_m, mc, nc, kc;
} pk_gemm_f32;

typedef struct {
  const double *a, *b;
  double *c;
  int64_t m, n, k, a_m, a_k, b_k, b_n, c_m, mc, nc, kc;
} pk_gemm_f64;

/* `count` elements of `size` bytes, 64-byte aligned (one cache line, one zmm), or NULL; release with free(). */
static inline void *pk_alloc_aligned(int64_t count, size_t size) {
  if (count <= 0 || (uint64_t)count > (SIZE_MAX - 63) / size) return NULL;
  return aligned_alloc(64, ((size_t)count * size + 63) & ~(size_t)63);
}

static inline int64_t pk_min64(int64_t a, int64_t b) { return a < b ? a : b; }

/* How many of the `lanes` lanes starting at column `from` lie below `cols`: the edge mask width. */
static inline int pk_edge_lanes(int64_t cols, int64_t from, int lanes) {
  return cols >= from + lanes ? lanes : cols > from ? (int)(cols - from) : 0;
}

/* ceil(x / r) * r for x >= 0, r > 0. */
static inline int64_t pk_round_up(int64_t x, int64_t r) { return (x + r - 1) / r * r; }

#endif
