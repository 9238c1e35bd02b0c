/*
 * A microkernel's strided pack (BLIS): PK_PACK(len, kb, src, s_len, s_k, out[, alpha]) copies the len × kb block at
 * src (element (x, p) at src[x·s_len + p·s_k]) into panels of PK_PACK_W (MR for A, NR for B) along x:
 * out[(x / W)·W·kb + p·W + x % W], x rounded up to W with zeros; a scaled pack multiplies each element by alpha (a
 * constant factor of the product). A transposed operand is the same routine with its strides swapped. A block stored
 * along the panels (s_len == 1) is read once in order, a row (or a band of rows) at a time dealt out to its panels as
 * plain copies gcc vectorizes: reading a panel's few columns down all of its rows instead leaves the prefetchers a
 * short stream per row (measured: 128 × 2048 × 4096 ran 7% faster). Otherwise whole panels are written in order (k
 * outer), which measured up to 2x faster than reading in order when rows are far apart.
 *
 * A template, without an include guard: emit/c-pack.ts includes it once per pack, inside the microkernel's ISA
 * region, having defined PK_PACK (the function's name), PK_PACK_T (the element type), PK_PACK_W and PK_PACK_SCALED
 * (1 or 0); it undefines them at its end.
 */
#include <stdint.h>
#include "polykern_simd.h"

#if PK_PACK_SCALED
#define PK_PACK_ALPHA , PK_PACK_T alpha
#define PK_PACK_OF(x) (alpha * (x))
#else
#define PK_PACK_ALPHA
#define PK_PACK_OF(x) (x)
#endif

#define PK_PACK_BAND 8

/* Row p of the block from x0 on, into its panel (zeros past len). */
#define PK_PACK_ROW(p, x0)                                                                      \
  do {                                                                                          \
    const int64_t n_ = pk_min64(PK_PACK_W, len - (x0));                                         \
    const PK_PACK_T *restrict from_ = src + (p) * s_k + (x0);                                   \
    PK_PACK_T *restrict to_ = out + (x0) * kb + (p) * PK_PACK_W;                                \
    if (n_ == PK_PACK_W)                                                                        \
      for (int64_t x = 0; x < PK_PACK_W; x++) to_[x] = PK_PACK_OF(from_[x]);                    \
    else                                                                                        \
      for (int64_t x = 0; x < PK_PACK_W; x++) to_[x] = x < n_ ? PK_PACK_OF(from_[x]) : 0;       \
  } while (0)

static void PK_PACK(int64_t len, int64_t kb, const PK_PACK_T *restrict src, int64_t s_len, int64_t s_k,
                    PK_PACK_T *restrict out PK_PACK_ALPHA) {
  if (s_len == 1 && PK_PACK_W * sizeof(PK_PACK_T) < 64) {
    /* Panels narrower than a cache line take a band of PK_PACK_BAND rows per visit: row by row, each visit wrote a
       part of a line, and the panels, kb·W apart, fall in few L1 sets (A^T of 1024² on 6 × 64, W = 6, kb = 256: two
       sets); the transposed 1024³ GEMM ran 1.04x at 1 thread and 1.08x at 2 (Intel AVX-512). Wider panels write
       whole lines row by row (banded, the 35 × 8457 × 2560 GEMM, a third of it B's pack, ran 8% slower). */
    for (int64_t p0 = 0; p0 < kb; p0 += PK_PACK_BAND)
      for (int64_t x0 = 0; x0 < len; x0 += PK_PACK_W)
        for (int64_t p = p0; p < pk_min64(kb, p0 + PK_PACK_BAND); p++) PK_PACK_ROW(p, x0);
    return;
  }
  if (s_len == 1) {
    for (int64_t p = 0; p < kb; p++)
      for (int64_t x0 = 0; x0 < len; x0 += PK_PACK_W) PK_PACK_ROW(p, x0);
    return;
  }
  for (int64_t x0 = 0; x0 < len; x0 += PK_PACK_W) {
    const int64_t n = pk_min64(PK_PACK_W, len - x0);
    const PK_PACK_T *restrict from = src + x0 * s_len;
    PK_PACK_T *restrict to = out + x0 * kb;
    if (n == PK_PACK_W) {
      for (int64_t p = 0; p < kb; p++)
        for (int64_t x = 0; x < PK_PACK_W; x++) to[p * PK_PACK_W + x] = PK_PACK_OF(from[x * s_len + p * s_k]);
    } else {
      for (int64_t p = 0; p < kb; p++)
        for (int64_t x = 0; x < PK_PACK_W; x++) to[p * PK_PACK_W + x] = x < n ? PK_PACK_OF(from[x * s_len + p * s_k]) : 0;
    }
  }
}

#undef PK_PACK_ALPHA
#undef PK_PACK_OF
#undef PK_PACK_ROW
#undef PK_PACK_BAND
#undef PK_PACK
#undef PK_PACK_T
#undef PK_PACK_W
#undef PK_PACK_SCALED
