/*
 * A gathered operand's pack weighted by a tensor factor (ContractionRoles.scaleA / scaleB):
 * PK_PACK(len, kb, src, o_len, o_k, out, alpha, wt, ow_len, ow_k) writes the panels of PK_PACK_W along x that the
 * gather (emit/c-pack.ts) writes, element (x, p) src[o_len[x] + o_k[p]] multiplied by alpha and by
 * wt[ow_len[x] + ow_k[p]] (the factor's offset tables over the same roles, stride 0 along the indices it lacks), or
 * divided by that where PK_PACK_DIVIDES is 1 (`/ z[i]`: a division, not a multiplication by a rounded reciprocal).
 * A plain loop: the factor's reads have no runs to follow, and the pack is a small part of the work.
 *
 * A template, without an include guard: emit/c-pack.ts includes it once per pack, inside the microkernel's ISA
 * region, having defined PK_PACK (the function's name), PK_PACK_T (the element type), PK_PACK_W and PK_PACK_DIVIDES;
 * it undefines them at its end.
 */
#include <stdint.h>
#include "polykern_simd.h"

static void PK_PACK(int64_t len, int64_t kb, const PK_PACK_T *restrict src, const int64_t *restrict o_len,
                    const int64_t *restrict o_k, PK_PACK_T *restrict out, PK_PACK_T alpha,
                    const PK_PACK_T *restrict wt, const int64_t *restrict ow_len, const int64_t *restrict ow_k) {
  for (int64_t x0 = 0; x0 < len; x0 += PK_PACK_W) {
    const int64_t n = pk_min64(PK_PACK_W, len - x0);
    PK_PACK_T *restrict to = out + x0 * kb;
    for (int64_t p = 0; p < kb; p++) {
      for (int64_t x = 0; x < n; x++)
#if PK_PACK_DIVIDES
        to[p * PK_PACK_W + x] = alpha * src[o_len[x0 + x] + o_k[p]] / wt[ow_len[x0 + x] + ow_k[p]];
#else
        to[p * PK_PACK_W + x] = alpha * src[o_len[x0 + x] + o_k[p]] * wt[ow_len[x0 + x] + ow_k[p]];
#endif
      for (int64_t x = n; x < PK_PACK_W; x++) to[p * PK_PACK_W + x] = 0;
    }
  }
}

#undef PK_PACK
#undef PK_PACK_T
#undef PK_PACK_W
#undef PK_PACK_DIVIDES
