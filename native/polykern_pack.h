/*
 * A microkernel's strided pack (BLIS): PK_PACK(len, kb, src, s_len, s_k, out[, alpha]) copies the len × kb block at
 * src (element (x, p) at src[x·s_len + p·s_k]) into panels of PK_PACK_W (MR for A, NR for B) along x:
 * out[(x / W)·W·kb + p·W + x % W], x rounded up to W with zeros; a scaled pack multiplies each element by alpha (a
 * constant factor of the product). A transposed operand is the same routine with its strides swapped. A block stored
 * along the panels (s_len == 1) is read once in order, a row at a time dealt out to its panels as plain copies gcc
 * vectorizes: reading a panel's few columns down all of its rows instead leaves the prefetchers a short stream per
 * row (measured: 128 × 2048 × 4096 ran 7% faster). Otherwise whole panels are written in order (k outer), which
 * measured up to 2x faster than reading in order when rows are far apart.
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

static void PK_PACK(int64_t len, int64_t kb, const PK_PACK_T *restrict src, int64_t s_len, int64_t s_k,
                    PK_PACK_T *restrict out PK_PACK_ALPHA) {
  if (s_len == 1) {
    for (int64_t p = 0; p < kb; p++)
      for (int64_t x0 = 0; x0 < len; x0 += PK_PACK_W) {
        const int64_t n = pk_min64(PK_PACK_W, len - x0);
        const PK_PACK_T *restrict from = src + p * s_k + x0;
        PK_PACK_T *restrict to = out + x0 * kb + p * PK_PACK_W;
        if (n == PK_PACK_W)
          for (int64_t x = 0; x < PK_PACK_W; x++) to[x] = PK_PACK_OF(from[x]);
        else
          for (int64_t x = 0; x < PK_PACK_W; x++) to[x] = x < n ? PK_PACK_OF(from[x]) : 0;
      }
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
#undef PK_PACK
#undef PK_PACK_T
#undef PK_PACK_W
#undef PK_PACK_SCALED
