/**
 * Packing routines of a microkernel (BLIS): operand blocks copied into the panel layout its k loop streams through,
 * zero-padded to whole panels. A transposed operand is the same routine with its strides swapped. A block stored
 * along the panels (stride 1 along them) is read once in order, a row at a time dealt out to its panels as plain
 * copies gcc vectorizes: reading a panel's few columns down all of its rows instead leaves the prefetchers a short
 * stream per row (measured: 128 × 2048 × 4096 ran 7% faster). Otherwise whole panels are written in order (k outer),
 * which measured up to 2x faster than reading in order when rows are far apart.
 */
import { C_TYPE } from './c-expr.ts'
import type { Microkernel } from '../targets/microkernel.ts'

export const packASymbol = (mk: Microkernel): string => `pk_pack_a_${mk.name}`
export const packBSymbol = (mk: Microkernel): string => `pk_pack_b_${mk.name}`
export const gatherASymbol = (mk: Microkernel): string => `pk_gather_a_${mk.name}`
export const gatherBSymbol = (mk: Microkernel): string => `pk_gather_b_${mk.name}`

/**
 * `pack(len, kb, src, s_len, s_k, out)`: the `len` × `kb` block at `src` (element (x, p) at src[x·s_len + p·s_k])
 * into panels of `w` = MR (for A) or NR (for B) along x: out[(x / w)·w·kb + p·w + x % w], x rounded up to w with
 * zeros.
 */
function emitPack(symbol: string, w: number, mk: Microkernel): string {
  const t = C_TYPE[mk.dtype]
  return `static void ${symbol}(int64_t len, int64_t kb, const ${t} *restrict src, int64_t s_len, int64_t s_k,
    ${t} *restrict out) {
  if (s_len == 1) {
    for (int64_t p = 0; p < kb; p++)
      for (int64_t x0 = 0; x0 < len; x0 += ${w}) {
        const int64_t n = pk_min64(${w}, len - x0);
        const ${t} *restrict from = src + p*s_k + x0;
        ${t} *restrict to = out + x0*kb + p*${w};
        if (n == ${w})
          for (int64_t x = 0; x < ${w}; x++) to[x] = from[x];
        else
          for (int64_t x = 0; x < ${w}; x++) to[x] = x < n ? from[x] : 0;
      }
    return;
  }
  for (int64_t x0 = 0; x0 < len; x0 += ${w}) {
    const int64_t n = pk_min64(${w}, len - x0);
    const ${t} *restrict from = src + x0*s_len;
    ${t} *restrict to = out + x0*kb;
    if (n == ${w}) {
      for (int64_t p = 0; p < kb; p++)
        for (int64_t x = 0; x < ${w}; x++) to[p*${w} + x] = from[x*s_len + p*s_k];
    } else {
      for (int64_t p = 0; p < kb; p++)
        for (int64_t x = 0; x < ${w}; x++) to[p*${w} + x] = x < n ? from[x*s_len + p*s_k] : 0;
    }
  }
}
`
}

export const emitPackA = (mk: Microkernel): string => emitPack(packASymbol(mk), mk.mr, mk)
export const emitPackB = (mk: Microkernel): string => emitPack(packBSymbol(mk), mk.nr, mk)

/**
 * `gather(len, kb, src, o_len, o_k, out)`: the same panels from an operand whose roles are not one stride each
 * (GETT/TBLIS): element (x, p) at src[o_len[x] + o_k[p]], through the roles' offset tables. A whole panel whose rows
 * are contiguous in memory (the operand's stride-1 index runs along it, TBLIS's block scatter) is copied as the
 * strided pack copies it, w elements from one offset per k step, which gcc vectorizes; any other has its rows fixed
 * first, so the k loop adds one offset to `w` row pointers; rows past `len` are zeros.
 */
function emitGather(symbol: string, w: number, mk: Microkernel): string {
  const t = C_TYPE[mk.dtype]
  return `static void ${symbol}(int64_t len, int64_t kb, const ${t} *restrict src, const int64_t *restrict o_len,
    const int64_t *restrict o_k, ${t} *restrict out) {
  for (int64_t x0 = 0; x0 < len; x0 += ${w}) {
    const int64_t n = pk_min64(${w}, len - x0);
    const ${t} *row[${w}];
    for (int64_t x = 0; x < ${w}; x++) row[x] = src + o_len[x0 + (x < n ? x : n - 1)];
    ${t} *restrict to = out + x0*kb;
    if (n == ${w} && pk_uniform_stride(o_len + x0, ${w}) == 1) {
      for (int64_t p = 0; p < kb; p++)
        for (int64_t x = 0; x < ${w}; x++) to[p*${w} + x] = row[0][o_k[p] + x];
    } else if (n == ${w}) {
      for (int64_t p = 0; p < kb; p++)
        for (int64_t x = 0; x < ${w}; x++) to[p*${w} + x] = row[x][o_k[p]];
    } else {
      for (int64_t p = 0; p < kb; p++)
        for (int64_t x = 0; x < ${w}; x++) to[p*${w} + x] = x < n ? row[x][o_k[p]] : 0;
    }
  }
}
`
}

export const emitGatherA = (mk: Microkernel): string => emitGather(gatherASymbol(mk), mk.mr, mk)
export const emitGatherB = (mk: Microkernel): string => emitGather(gatherBSymbol(mk), mk.nr, mk)
