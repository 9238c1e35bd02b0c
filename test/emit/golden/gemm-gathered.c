PK_SHARED void pk_ukr_gemm_f32_avx2_6x16_pp(int64_t kb, const float *restrict a, int64_t lda, const float *restrict b, int64_t ldb,
    float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store);
PK_SHARED void pk_ukr_gemm_f32_avx2_6x16_pps(int64_t kb, const float *restrict a, int64_t lda, const float *restrict b, int64_t ldb,
    float *restrict c, const int64_t *restrict om, const pk_vector_place *restrict vp, int split, int64_t rows, int64_t cols, int store);
PK_SHARED void pk_ukr_gemm_f32_avx2_6x16_pu(int64_t kb, const float *restrict a, int64_t lda, const float *restrict b, int64_t ldb,
    float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store);
PK_SHARED void pk_ukr_gemm_f32_avx2_6x16_ppf(int64_t kb, const float *restrict a, int64_t lda, const float *restrict b, int64_t ldb,
    float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store);
static void pk_gather_a_gemm_f32_avx2_6x16(int64_t len, int64_t kb, const float *restrict src, const int64_t *restrict o_len,
    const int64_t *restrict o_k, float *restrict out) {


  for (int64_t x0 = 0; x0 < len; x0 += 6) {
    const int64_t n = pk_min64(6, len - x0);
    float *restrict to = out + x0*kb;
    int64_t start[7];
    const int64_t runs = pk_runs(o_len + x0, n, start);
    if (runs == 1 && n == 6) {
      int64_t span = 1;
      while (span < 42 && x0 + (span + 1)*6 <= len && pk_runs(o_len + x0 + span*6, 6, start) == 1
          && o_len[x0 + span*6] == o_len[x0] + span*6)
        span++;
      const float *restrict from = src + o_len[x0];
      for (int64_t p = 0; p < kb; p++)
        for (int64_t q = 0; q < span; q++)
          for (int64_t x = 0; x < 6; x++) to[q*6*kb + p*6 + x] = from[o_k[p] + q*6 + x];
      x0 += (span - 1)*6;
    } else if (4*runs <= n) {
      for (int64_t p = 0; p < kb; p++) {
        float *restrict row = to + p*6;
        if (kb >= 32 && p + 8 < kb)
          for (int64_t r = 0; r < runs; r++) {
            const float *ahead = src + o_k[p + 8] + o_len[x0 + start[r]];
            for (int64_t x = 0; x <= start[r + 1] - start[r]; x += 64 / sizeof(float)) __builtin_prefetch(ahead + x, 0, 3);
          }
        for (int64_t r = 0; r < runs; r++) {
          const float *restrict from = src + o_k[p] + o_len[x0 + start[r]] - start[r];
          int64_t x = start[r];
          for (; x + 8 <= start[r + 1]; x += 8) __builtin_memcpy(row + x, from + x, 8*sizeof(float));
          if (x < start[r + 1]) {
            const __m256i m = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(start[r + 1] - x)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
            _mm256_maskstore_ps(row + x, m, _mm256_maskload_ps(from + x, m));
          }
        }
        for (int64_t x = n; x < 6; x++) row[x] = 0;
      }
    } else {
      const float *row[6];
      for (int64_t x = 0; x < 6; x++) row[x] = src + o_len[x0 + (x < n ? x : n - 1)];
      if (n == 6) {
        // 6 rows at a time: each row is a stream along k, and all 6 are more than the prefetchers follow.
        for (int64_t xg = 0; xg < 6; xg += 6)
          for (int64_t p = 0; p < kb; p++)
            for (int64_t x = xg; x < xg + 6; x++) to[p*6 + x] = row[x][o_k[p]];
      } else {
        for (int64_t p = 0; p < kb; p++)
          for (int64_t x = 0; x < 6; x++) to[p*6 + x] = x < n ? row[x][o_k[p]] : 0;
      }
    }
  }
}

static void pk_gather_b_gemm_f32_avx2_6x16(int64_t len, int64_t kb, const float *restrict src, const int64_t *restrict o_len,
    const int64_t *restrict o_k, float *restrict out) {
  typedef float pk_vec __attribute__((vector_size(8 * sizeof(float))));
  typedef int32_t pk_lanes __attribute__((vector_size(8 * sizeof(float))));
  int32_t blk_start[kb > 0 ? kb : 1], blk_sigma[kb > 0 ? kb : 1], blk_steps[kb > 0 ? kb : 1], one[kb > 0 ? kb : 1];
  int64_t blocks = 0, ones = 0;
  int planned = 0;

  unsigned char done[len / 8 + 1];
  __builtin_memset(done, 0, sizeof done);
  const int64_t reach = 32;
  int found = 0;
  for (int64_t at = 0; at < len && !found; at += len/2 + 1) found = pk_step_group(o_len, at, len, reach) > 0;
  const int64_t pitch = found || len == 0 ? 0 : pk_step_group(o_len, 0, len, len);
  found |= pitch > 0;
  int64_t at_x[len / 8 + 1], at_group[len / 8 + 1], at_steps[len / 8 + 1], groups = 0;
  for (int64_t x = 0; found && x + 8 <= len;) {
    int64_t group = pk_step_group(o_len, x, len, reach);
    if (group == 0 && pitch > 0 && x + pitch < len && o_len[x + pitch] == o_len[x] + 1) group = pitch;
    int64_t steps = 0;
    for (int ok = 1; ok && steps < 8 && x + group*(steps + 1) <= len; steps += ok)
      for (int64_t i = 0; i < group && ok; i++) ok = o_len[x + group*steps + i] == o_len[x + i] + steps;
    int fits = group > 0 && (steps == 8 || (4*steps >= 8 && group*steps % 8 == 0)) && x % 8 == 0
      && (group % 8 == 0 || 4*(group % 8) >= 8);
    for (int64_t j = 0; fits && j < steps; j++)
      for (int64_t i0 = 0; fits && i0 < group; i0 += 8) fits = (x + group*j + i0) % 16 + pk_min64(8, group - i0) <= 16;
    if (!fits) {
      x += 8;
      continue;
    }
    at_x[groups] = x, at_group[groups] = group, at_steps[groups++] = steps;
    for (int64_t c = x; c < x + group*steps; c += 8) done[c/8] = 1;
    x += group*steps;
  }
  const int64_t apart = kb > 1 ? (o_k[1] > o_k[0] ? o_k[1] - o_k[0] : o_k[0] - o_k[1]) : 0;
  const int64_t pb = apart*(int64_t)sizeof(float) >= 4096 ? 1 : kb;
  if (pb == kb) {
    const int64_t p0 = 0, pe = kb;
    for (int64_t g = 0; g < groups; g++) {
      const int64_t x = at_x[g], group = at_group[g], steps = at_steps[g];
      const __m256i across = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(group % 8)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
      const __m256i along = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(steps)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
      for (int64_t i0 = 0; i0 < group; i0 += 8)
      for (int64_t p = p0; p < pe; p++) {
        int64_t ahead_g = g, ahead_i0 = i0, ahead_p = p + 4;
        if (ahead_p >= pe) ahead_p -= pe - p0, ahead_i0 += 8;
        if (ahead_i0 >= group) ahead_g++, ahead_i0 = 0;
        {
          const int64_t rows = pk_min64(8, group - i0);
          pk_vec v[8];
          for (int i = 0; i < 8; i++) {
            const float *row = src + o_k[p] + o_len[x + i0 + i];
            if (i < rows && ahead_p < kb && ahead_g < groups && ahead_i0 + i < at_group[ahead_g]) {
              const float *ahead = src + o_k[ahead_p] + o_len[at_x[ahead_g] + ahead_i0 + i];
              __builtin_prefetch(ahead), __builtin_prefetch(ahead + 7);
            }
            const __m256 r = i >= rows ? _mm256_setzero_ps() : steps == 8 ? _mm256_loadu_ps(row) : _mm256_maskload_ps(row, along);
            __builtin_memcpy(&v[i], &r, sizeof r);
          }
          for (int i = 0; i < 8; i++)
            if ((i & 1) == 0) {
              const pk_vec a = v[i], b = v[i + 1];
              v[i] = __builtin_shuffle(a, b, (pk_lanes){0, 8, 2, 10, 4, 12, 6, 14});
              v[i + 1] = __builtin_shuffle(a, b, (pk_lanes){1, 9, 3, 11, 5, 13, 7, 15});
            }
          for (int i = 0; i < 8; i++)
            if ((i & 2) == 0) {
              const pk_vec a = v[i], b = v[i + 2];
              v[i] = __builtin_shuffle(a, b, (pk_lanes){0, 1, 8, 9, 4, 5, 12, 13});
              v[i + 2] = __builtin_shuffle(a, b, (pk_lanes){2, 3, 10, 11, 6, 7, 14, 15});
            }
          for (int i = 0; i < 8; i++)
            if ((i & 4) == 0) {
              const pk_vec a = v[i], b = v[i + 4];
              v[i] = __builtin_shuffle(a, b, (pk_lanes){0, 1, 2, 3, 8, 9, 10, 11});
              v[i + 4] = __builtin_shuffle(a, b, (pk_lanes){4, 5, 6, 7, 12, 13, 14, 15});
            }
          for (int64_t j = 0; j < steps; j++) {
            const int64_t col = x + group*j + i0;
            const pk_vec out_j = v[j];
            __m256 o;
            __builtin_memcpy(&o, &out_j, sizeof o);
            float *to = out + (col/16)*16*kb + p*16 + col%16;
            if (rows == 8) _mm256_storeu_ps(to, o);
            else _mm256_maskstore_ps(to, across, o);
          }
        }
      }
    }
  } else {
    for (int64_t p0 = 0; p0 < kb; p0 += pb) {
      const int64_t pe = pk_min64(kb, p0 + pb);
      for (int64_t g = 0; g < groups; g++) {
        const int64_t x = at_x[g], group = at_group[g], steps = at_steps[g];
        const __m256i across = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(group % 8)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
        const __m256i along = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(steps)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
        for (int64_t p = p0; p < pe; p++) {
          const int64_t visit = g*(pe - p0) + p - p0 + 4;
          int64_t ahead_g = visit / (pe - p0), ahead_p = p0 + visit % (pe - p0);
          if (ahead_g >= groups) ahead_g -= groups, ahead_p += pe - p0;
          for (int64_t i0 = 0; i0 < group; i0 += 8) {
            const int64_t ahead_i0 = i0;
            const int64_t rows = pk_min64(8, group - i0);
            pk_vec v[8];
            for (int i = 0; i < 8; i++) {
              const float *row = src + o_k[p] + o_len[x + i0 + i];
              if (i < rows && ahead_p < kb && ahead_g < groups && ahead_i0 + i < at_group[ahead_g]) {
                const float *ahead = src + o_k[ahead_p] + o_len[at_x[ahead_g] + ahead_i0 + i];
                __builtin_prefetch(ahead), __builtin_prefetch(ahead + 7);
              }
              const __m256 r = i >= rows ? _mm256_setzero_ps() : steps == 8 ? _mm256_loadu_ps(row) : _mm256_maskload_ps(row, along);
              __builtin_memcpy(&v[i], &r, sizeof r);
            }
            for (int i = 0; i < 8; i++)
              if ((i & 1) == 0) {
                const pk_vec a = v[i], b = v[i + 1];
                v[i] = __builtin_shuffle(a, b, (pk_lanes){0, 8, 2, 10, 4, 12, 6, 14});
                v[i + 1] = __builtin_shuffle(a, b, (pk_lanes){1, 9, 3, 11, 5, 13, 7, 15});
              }
            for (int i = 0; i < 8; i++)
              if ((i & 2) == 0) {
                const pk_vec a = v[i], b = v[i + 2];
                v[i] = __builtin_shuffle(a, b, (pk_lanes){0, 1, 8, 9, 4, 5, 12, 13});
                v[i + 2] = __builtin_shuffle(a, b, (pk_lanes){2, 3, 10, 11, 6, 7, 14, 15});
              }
            for (int i = 0; i < 8; i++)
              if ((i & 4) == 0) {
                const pk_vec a = v[i], b = v[i + 4];
                v[i] = __builtin_shuffle(a, b, (pk_lanes){0, 1, 2, 3, 8, 9, 10, 11});
                v[i + 4] = __builtin_shuffle(a, b, (pk_lanes){4, 5, 6, 7, 12, 13, 14, 15});
              }
            for (int64_t j = 0; j < steps; j++) {
              const int64_t col = x + group*j + i0;
              const pk_vec out_j = v[j];
              __m256 o;
              __builtin_memcpy(&o, &out_j, sizeof o);
              float *to = out + (col/16)*16*kb + p*16 + col%16;
              if (rows == 8) _mm256_storeu_ps(to, o);
              else _mm256_maskstore_ps(to, across, o);
            }
          }
        }
      }
    }
  }
  for (int64_t x0 = 0; x0 < len; x0 += 16) {
    const int64_t n = pk_min64(16, len - x0);
    if (n == 16 && done[x0/8 + 0] && done[x0/8 + 1]) continue;
    float *restrict to = out + x0*kb;
    int64_t start[17];
    const int64_t runs = pk_runs(o_len + x0, n, start);
    if (runs == 1 && n == 16) {
      int64_t span = 1;
      while (span < 16 && x0 + (span + 1)*16 <= len && pk_runs(o_len + x0 + span*16, 16, start) == 1
          && o_len[x0 + span*16] == o_len[x0] + span*16)
        span++;
      const float *restrict from = src + o_len[x0];
      for (int64_t p = 0; p < kb; p++)
        for (int64_t q = 0; q < span; q++)
          for (int64_t x = 0; x < 16; x++) to[q*16*kb + p*16 + x] = from[o_k[p] + q*16 + x];
      x0 += (span - 1)*16;
    } else if (4*runs <= n) {
      for (int64_t p = 0; p < kb; p++) {
        float *restrict row = to + p*16;
        if (kb >= 32 && p + 8 < kb)
          for (int64_t r = 0; r < runs; r++) {
            const float *ahead = src + o_k[p + 8] + o_len[x0 + start[r]];
            for (int64_t x = 0; x <= start[r + 1] - start[r]; x += 64 / sizeof(float)) __builtin_prefetch(ahead + x, 0, 3);
          }
        for (int64_t r = 0; r < runs; r++) {
          const float *restrict from = src + o_k[p] + o_len[x0 + start[r]] - start[r];
          int64_t x = start[r];
          for (; x + 8 <= start[r + 1]; x += 8) __builtin_memcpy(row + x, from + x, 8*sizeof(float));
          if (x < start[r + 1]) {
            const __m256i m = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(start[r + 1] - x)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
            _mm256_maskstore_ps(row + x, m, _mm256_maskload_ps(from + x, m));
          }
        }
        for (int64_t x = n; x < 16; x++) row[x] = 0;
      }
    } else {
      const float *row[16];
      for (int64_t x = 0; x < 16; x++) row[x] = src + o_len[x0 + (x < n ? x : n - 1)];
      if (!planned) pk_k_blocks(o_k, kb, 8, blk_start, blk_sigma, blk_steps, &blocks, one, &ones), planned = 1;
      if (blocks > 0) {
        for (int64_t q = 0, qs = 0;; q++) {
          for (const int64_t until = q < blocks ? blk_start[q] : kb; qs < ones && one[qs] < until; qs++)
            for (int64_t x = 0; x < 16; x++) to[one[qs]*16 + x] = row[x][o_k[one[qs]]];
          if (q == blocks) break;
          const int64_t p0 = blk_start[q], s = blk_sigma[q], ks = blk_steps[q];
          const __m256i along = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(ks)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
          for (int64_t xg = 0; xg < 16; xg += 8) {
            pk_vec v[8];
            for (int i = 0; i < 8; i++) {
              const int64_t on = q + 2 - blocks, next = x0 + 16 + xg + i;
              const float *ahead = on < 0 ? row[xg + i] + o_k[blk_start[q + 2]]
                : next < len ? src + o_len[next] + o_k[blk_start[on < blocks ? on : blocks - 1]] : NULL;
              if (ahead != NULL) __builtin_prefetch(ahead), __builtin_prefetch(ahead + 7);
            }
            for (int i = 0; i < 8; i++) {
              const __m256 r = ks == 8 ? _mm256_loadu_ps(row[xg + i] + o_k[p0])
                : _mm256_maskload_ps(row[xg + i] + o_k[p0], along);
              __builtin_memcpy(&v[i], &r, sizeof r);
            }
            for (int i = 0; i < 8; i++)
              if ((i & 1) == 0) {
                const pk_vec a = v[i], b = v[i + 1];
                v[i] = __builtin_shuffle(a, b, (pk_lanes){0, 8, 2, 10, 4, 12, 6, 14});
                v[i + 1] = __builtin_shuffle(a, b, (pk_lanes){1, 9, 3, 11, 5, 13, 7, 15});
              }
            for (int i = 0; i < 8; i++)
              if ((i & 2) == 0) {
                const pk_vec a = v[i], b = v[i + 2];
                v[i] = __builtin_shuffle(a, b, (pk_lanes){0, 1, 8, 9, 4, 5, 12, 13});
                v[i + 2] = __builtin_shuffle(a, b, (pk_lanes){2, 3, 10, 11, 6, 7, 14, 15});
              }
            for (int i = 0; i < 8; i++)
              if ((i & 4) == 0) {
                const pk_vec a = v[i], b = v[i + 4];
                v[i] = __builtin_shuffle(a, b, (pk_lanes){0, 1, 2, 3, 8, 9, 10, 11});
                v[i + 4] = __builtin_shuffle(a, b, (pk_lanes){4, 5, 6, 7, 12, 13, 14, 15});
              }
            for (int i = 0; i < 8; i++) {
              const pk_vec out_i = v[i];
              if (i < ks) __builtin_memcpy(to + (p0 + s*i)*16 + xg, &out_i, sizeof out_i);
            }
          }
        }
      } else {
        // 16 rows at a time: each row is a stream along k, and all 16 are more than the prefetchers follow.
        for (int64_t xg = 0; xg < 16; xg += 16)
          for (int64_t p = 0; p < kb; p++)
            for (int64_t x = xg; x < xg + 16; x++) to[p*16 + x] = row[x][o_k[p]];
      }
      if (n < 16)
        for (int64_t p = 0; p < kb; p++)
          for (int64_t x = n; x < 16; x++) to[p*16 + x] = 0;
    }
  }
}

#define PK_PACK pk_pack_a_gemm_f32_avx2_6x16
#define PK_PACK_T float
#define PK_PACK_W 6
#define PK_PACK_SCALED 0
#include "polykern_pack.h"

#define PK_PACK pk_pack_b_gemm_f32_avx2_6x16
#define PK_PACK_T float
#define PK_PACK_W 16
#define PK_PACK_SCALED 0
#include "polykern_pack.h"

static const pk_gemm_f32_shape pk_gemm_f32_avx2_6x16_kmn_mn_n_pp_g = {
  .mr = 6, .nr = 16, .lanes = 8, .order = {PK_GEMM_K, PK_GEMM_M, PK_GEMM_N},
  .m_tiles_outer = 1, .parallel = PK_GEMM_N, .gather = 1, .masked = 0,
  .pack = {{.gather = pk_gather_a_gemm_f32_avx2_6x16}, {.gather = pk_gather_b_gemm_f32_avx2_6x16}},
  .tile = pk_ukr_gemm_f32_avx2_6x16_pp, .scatter = pk_ukr_gemm_f32_avx2_6x16_pps,
};

static const pk_gemm_f32_shape pk_gemm_f32_avx2_6x16_nkm_mn_none_pu = {
  .mr = 6, .nr = 16, .lanes = 8, .order = {PK_GEMM_N, PK_GEMM_K, PK_GEMM_M},
  .m_tiles_outer = 1, .parallel = PK_GEMM_NONE, .gather = 0, .masked = 0,
  .pack = {{.plain = pk_pack_a_gemm_f32_avx2_6x16}, {0}},
  .tile = pk_ukr_gemm_f32_avx2_6x16_pu,
};

static const pk_gemm_f32_shape pk_gemm_f32_avx2_6x16_nkm_nm_m_pp = {
  .mr = 6, .nr = 16, .lanes = 8, .order = {PK_GEMM_N, PK_GEMM_K, PK_GEMM_M},
  .m_tiles_outer = 0, .parallel = PK_GEMM_M, .gather = 0, .masked = 0,
  .pack = {{.plain = pk_pack_a_gemm_f32_avx2_6x16}, {.plain = pk_pack_b_gemm_f32_avx2_6x16}},
  .tile = pk_ukr_gemm_f32_avx2_6x16_pp,
  .first_tile = pk_ukr_gemm_f32_avx2_6x16_ppf,
};

static const pk_gemm_f32_shape pk_gemm_f32_avx2_6x16_nkm_nm_m_pu = {
  .mr = 6, .nr = 16, .lanes = 8, .order = {PK_GEMM_N, PK_GEMM_K, PK_GEMM_M},
  .m_tiles_outer = 0, .parallel = PK_GEMM_M, .gather = 0, .masked = 0,
  .pack = {{.plain = pk_pack_a_gemm_f32_avx2_6x16}, {0}},
  .tile = pk_ukr_gemm_f32_avx2_6x16_pu,
};

static const pk_gemm_f32_shape pk_gemm_f32_avx2_6x16_nkm_mn_m_pu = {
  .mr = 6, .nr = 16, .lanes = 8, .order = {PK_GEMM_N, PK_GEMM_K, PK_GEMM_M},
  .m_tiles_outer = 1, .parallel = PK_GEMM_M, .gather = 0, .masked = 0,
  .pack = {{.plain = pk_pack_a_gemm_f32_avx2_6x16}, {0}},
  .tile = pk_ukr_gemm_f32_avx2_6x16_pu,
};

static const pk_gemm_f32_shape pk_gemm_f32_avx2_6x16_mkn_nm_n_pp = {
  .mr = 6, .nr = 16, .lanes = 8, .order = {PK_GEMM_M, PK_GEMM_K, PK_GEMM_N},
  .m_tiles_outer = 0, .parallel = PK_GEMM_N, .gather = 0, .masked = 0,
  .pack = {{.plain = pk_pack_a_gemm_f32_avx2_6x16}, {.plain = pk_pack_b_gemm_f32_avx2_6x16}},
  .tile = pk_ukr_gemm_f32_avx2_6x16_pp,
  .first_tile = pk_ukr_gemm_f32_avx2_6x16_ppf,
};

static const pk_gemm_f32_shape pk_gemm_f32_avx2_6x16_nkm_mn_n_pu = {
  .mr = 6, .nr = 16, .lanes = 8, .order = {PK_GEMM_N, PK_GEMM_K, PK_GEMM_M},
  .m_tiles_outer = 1, .parallel = PK_GEMM_N, .gather = 0, .masked = 0,
  .pack = {{.plain = pk_pack_a_gemm_f32_avx2_6x16}, {0}},
  .tile = pk_ukr_gemm_f32_avx2_6x16_pu,
};

static const pk_gemm_f32_shape pk_gemm_f32_avx2_6x16_mkn_nm_none_pp = {
  .mr = 6, .nr = 16, .lanes = 8, .order = {PK_GEMM_M, PK_GEMM_K, PK_GEMM_N},
  .m_tiles_outer = 0, .parallel = PK_GEMM_NONE, .gather = 0, .masked = 0,
  .pack = {{.plain = pk_pack_a_gemm_f32_avx2_6x16}, {.plain = pk_pack_b_gemm_f32_avx2_6x16}},
  .tile = pk_ukr_gemm_f32_avx2_6x16_pp,
  .first_tile = pk_ukr_gemm_f32_avx2_6x16_ppf,
};

static const pk_gemm_f32_shape pk_gemm_f32_avx2_6x16_nkm_nm_none_pp = {
  .mr = 6, .nr = 16, .lanes = 8, .order = {PK_GEMM_N, PK_GEMM_K, PK_GEMM_M},
  .m_tiles_outer = 0, .parallel = PK_GEMM_NONE, .gather = 0, .masked = 0,
  .pack = {{.plain = pk_pack_a_gemm_f32_avx2_6x16}, {.plain = pk_pack_b_gemm_f32_avx2_6x16}},
  .tile = pk_ukr_gemm_f32_avx2_6x16_pp,
  .first_tile = pk_ukr_gemm_f32_avx2_6x16_ppf,
};

static const pk_gemm_f32_shape pk_gemm_f32_avx2_6x16_nkm_mn_none_pp = {
  .mr = 6, .nr = 16, .lanes = 8, .order = {PK_GEMM_N, PK_GEMM_K, PK_GEMM_M},
  .m_tiles_outer = 1, .parallel = PK_GEMM_NONE, .gather = 0, .masked = 0,
  .pack = {{.plain = pk_pack_a_gemm_f32_avx2_6x16}, {.plain = pk_pack_b_gemm_f32_avx2_6x16}},
  .tile = pk_ukr_gemm_f32_avx2_6x16_pp,
  .first_tile = pk_ukr_gemm_f32_avx2_6x16_ppf,
};

static const pk_gemm_f32_shape pk_gemm_f32_avx2_6x16_mkn_mn_n_pp = {
  .mr = 6, .nr = 16, .lanes = 8, .order = {PK_GEMM_M, PK_GEMM_K, PK_GEMM_N},
  .m_tiles_outer = 1, .parallel = PK_GEMM_N, .gather = 0, .masked = 0,
  .pack = {{.plain = pk_pack_a_gemm_f32_avx2_6x16}, {.plain = pk_pack_b_gemm_f32_avx2_6x16}},
  .tile = pk_ukr_gemm_f32_avx2_6x16_pp,
  .first_tile = pk_ukr_gemm_f32_avx2_6x16_ppf,
};

static inline void pk_ukr_gemm_f32_avx2_6x16_pp_6x2(int64_t kb, const float *restrict a, int64_t lda,
    const float *restrict b, int64_t ldb, float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store) {
  (void)lda;
  (void)ldb;
  __m256 c0_0 = _mm256_setzero_ps(), c0_1 = _mm256_setzero_ps();
  __m256 c1_0 = _mm256_setzero_ps(), c1_1 = _mm256_setzero_ps();
  __m256 c2_0 = _mm256_setzero_ps(), c2_1 = _mm256_setzero_ps();
  __m256 c3_0 = _mm256_setzero_ps(), c3_1 = _mm256_setzero_ps();
  __m256 c4_0 = _mm256_setzero_ps(), c4_1 = _mm256_setzero_ps();
  __m256 c5_0 = _mm256_setzero_ps(), c5_1 = _mm256_setzero_ps();
  __builtin_prefetch(c + 0*ldc + 0, 1, 3), __builtin_prefetch(c + 0*ldc + 15, 1, 3);
  __builtin_prefetch(c + 1*ldc + 0, 1, 3), __builtin_prefetch(c + 1*ldc + 15, 1, 3);
  __builtin_prefetch(c + 2*ldc + 0, 1, 3), __builtin_prefetch(c + 2*ldc + 15, 1, 3);
  __builtin_prefetch(c + 3*ldc + 0, 1, 3), __builtin_prefetch(c + 3*ldc + 15, 1, 3);
  __builtin_prefetch(c + 4*ldc + 0, 1, 3), __builtin_prefetch(c + 4*ldc + 15, 1, 3);
  __builtin_prefetch(c + 5*ldc + 0, 1, 3), __builtin_prefetch(c + 5*ldc + 15, 1, 3);
#pragma GCC unroll 4
  for (int64_t p = 0; p < kb; p++) {
    const __m256 b0 = _mm256_load_ps(b + 0);
    const __m256 b1 = _mm256_load_ps(b + 8);
    const __m256 a0v = _mm256_broadcast_ss(a + 0);
    c0_0 = _mm256_fmadd_ps(a0v, b0, c0_0);
    c0_1 = _mm256_fmadd_ps(a0v, b1, c0_1);
    const __m256 a1v = _mm256_broadcast_ss(a + 1);
    c1_0 = _mm256_fmadd_ps(a1v, b0, c1_0);
    c1_1 = _mm256_fmadd_ps(a1v, b1, c1_1);
    const __m256 a2v = _mm256_broadcast_ss(a + 2);
    c2_0 = _mm256_fmadd_ps(a2v, b0, c2_0);
    c2_1 = _mm256_fmadd_ps(a2v, b1, c2_1);
    const __m256 a3v = _mm256_broadcast_ss(a + 3);
    c3_0 = _mm256_fmadd_ps(a3v, b0, c3_0);
    c3_1 = _mm256_fmadd_ps(a3v, b1, c3_1);
    const __m256 a4v = _mm256_broadcast_ss(a + 4);
    c4_0 = _mm256_fmadd_ps(a4v, b0, c4_0);
    c4_1 = _mm256_fmadd_ps(a4v, b1, c4_1);
    const __m256 a5v = _mm256_broadcast_ss(a + 5);
    c5_0 = _mm256_fmadd_ps(a5v, b0, c5_0);
    c5_1 = _mm256_fmadd_ps(a5v, b1, c5_1);
    a += 6;
    b += 16;
  }
  if (rows == 6 && cols == 16) {
    if (!store) {
      c0_0 = _mm256_add_ps(_mm256_loadu_ps(c + 0*ldc + 0), c0_0);
      c0_1 = _mm256_add_ps(_mm256_loadu_ps(c + 0*ldc + 8), c0_1);
      c1_0 = _mm256_add_ps(_mm256_loadu_ps(c + 1*ldc + 0), c1_0);
      c1_1 = _mm256_add_ps(_mm256_loadu_ps(c + 1*ldc + 8), c1_1);
      c2_0 = _mm256_add_ps(_mm256_loadu_ps(c + 2*ldc + 0), c2_0);
      c2_1 = _mm256_add_ps(_mm256_loadu_ps(c + 2*ldc + 8), c2_1);
      c3_0 = _mm256_add_ps(_mm256_loadu_ps(c + 3*ldc + 0), c3_0);
      c3_1 = _mm256_add_ps(_mm256_loadu_ps(c + 3*ldc + 8), c3_1);
      c4_0 = _mm256_add_ps(_mm256_loadu_ps(c + 4*ldc + 0), c4_0);
      c4_1 = _mm256_add_ps(_mm256_loadu_ps(c + 4*ldc + 8), c4_1);
      c5_0 = _mm256_add_ps(_mm256_loadu_ps(c + 5*ldc + 0), c5_0);
      c5_1 = _mm256_add_ps(_mm256_loadu_ps(c + 5*ldc + 8), c5_1);
    }
    _mm256_storeu_ps(c + 0*ldc + 0, c0_0);
    _mm256_storeu_ps(c + 0*ldc + 8, c0_1);
    _mm256_storeu_ps(c + 1*ldc + 0, c1_0);
    _mm256_storeu_ps(c + 1*ldc + 8, c1_1);
    _mm256_storeu_ps(c + 2*ldc + 0, c2_0);
    _mm256_storeu_ps(c + 2*ldc + 8, c2_1);
    _mm256_storeu_ps(c + 3*ldc + 0, c3_0);
    _mm256_storeu_ps(c + 3*ldc + 8, c3_1);
    _mm256_storeu_ps(c + 4*ldc + 0, c4_0);
    _mm256_storeu_ps(c + 4*ldc + 8, c4_1);
    _mm256_storeu_ps(c + 5*ldc + 0, c5_0);
    _mm256_storeu_ps(c + 5*ldc + 8, c5_1);
    return;
  }
  const __m256i m0 = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_edge_lanes(cols, 0, 8))), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  const __m256i m1 = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_edge_lanes(cols, 8, 8))), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  _mm256_maskstore_ps(c + 0*ldc + 0, m0, store ? c0_0 : _mm256_add_ps(_mm256_maskload_ps(c + 0*ldc + 0, m0), c0_0));
  _mm256_maskstore_ps(c + 0*ldc + 8, m1, store ? c0_1 : _mm256_add_ps(_mm256_maskload_ps(c + 0*ldc + 8, m1), c0_1));
  if (rows == 1) return;
  _mm256_maskstore_ps(c + 1*ldc + 0, m0, store ? c1_0 : _mm256_add_ps(_mm256_maskload_ps(c + 1*ldc + 0, m0), c1_0));
  _mm256_maskstore_ps(c + 1*ldc + 8, m1, store ? c1_1 : _mm256_add_ps(_mm256_maskload_ps(c + 1*ldc + 8, m1), c1_1));
  if (rows == 2) return;
  _mm256_maskstore_ps(c + 2*ldc + 0, m0, store ? c2_0 : _mm256_add_ps(_mm256_maskload_ps(c + 2*ldc + 0, m0), c2_0));
  _mm256_maskstore_ps(c + 2*ldc + 8, m1, store ? c2_1 : _mm256_add_ps(_mm256_maskload_ps(c + 2*ldc + 8, m1), c2_1));
  if (rows == 3) return;
  _mm256_maskstore_ps(c + 3*ldc + 0, m0, store ? c3_0 : _mm256_add_ps(_mm256_maskload_ps(c + 3*ldc + 0, m0), c3_0));
  _mm256_maskstore_ps(c + 3*ldc + 8, m1, store ? c3_1 : _mm256_add_ps(_mm256_maskload_ps(c + 3*ldc + 8, m1), c3_1));
  if (rows == 4) return;
  _mm256_maskstore_ps(c + 4*ldc + 0, m0, store ? c4_0 : _mm256_add_ps(_mm256_maskload_ps(c + 4*ldc + 0, m0), c4_0));
  _mm256_maskstore_ps(c + 4*ldc + 8, m1, store ? c4_1 : _mm256_add_ps(_mm256_maskload_ps(c + 4*ldc + 8, m1), c4_1));
  if (rows == 5) return;
  _mm256_maskstore_ps(c + 5*ldc + 0, m0, store ? c5_0 : _mm256_add_ps(_mm256_maskload_ps(c + 5*ldc + 0, m0), c5_0));
  _mm256_maskstore_ps(c + 5*ldc + 8, m1, store ? c5_1 : _mm256_add_ps(_mm256_maskload_ps(c + 5*ldc + 8, m1), c5_1));
}

static inline void pk_ukr_gemm_f32_avx2_6x16_pp_6x1(int64_t kb, const float *restrict a, int64_t lda,
    const float *restrict b, int64_t ldb, float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store) {
  (void)lda;
  (void)ldb;
  __m256 c0_0 = _mm256_setzero_ps();
  __m256 c1_0 = _mm256_setzero_ps();
  __m256 c2_0 = _mm256_setzero_ps();
  __m256 c3_0 = _mm256_setzero_ps();
  __m256 c4_0 = _mm256_setzero_ps();
  __m256 c5_0 = _mm256_setzero_ps();
  __builtin_prefetch(c + 0*ldc + 0, 1, 3), __builtin_prefetch(c + 0*ldc + 7, 1, 3);
  __builtin_prefetch(c + 1*ldc + 0, 1, 3), __builtin_prefetch(c + 1*ldc + 7, 1, 3);
  __builtin_prefetch(c + 2*ldc + 0, 1, 3), __builtin_prefetch(c + 2*ldc + 7, 1, 3);
  __builtin_prefetch(c + 3*ldc + 0, 1, 3), __builtin_prefetch(c + 3*ldc + 7, 1, 3);
  __builtin_prefetch(c + 4*ldc + 0, 1, 3), __builtin_prefetch(c + 4*ldc + 7, 1, 3);
  __builtin_prefetch(c + 5*ldc + 0, 1, 3), __builtin_prefetch(c + 5*ldc + 7, 1, 3);
#pragma GCC unroll 4
  for (int64_t p = 0; p < kb; p++) {
    const __m256 b0 = _mm256_load_ps(b + 0);
    const __m256 a0v = _mm256_broadcast_ss(a + 0);
    c0_0 = _mm256_fmadd_ps(a0v, b0, c0_0);
    const __m256 a1v = _mm256_broadcast_ss(a + 1);
    c1_0 = _mm256_fmadd_ps(a1v, b0, c1_0);
    const __m256 a2v = _mm256_broadcast_ss(a + 2);
    c2_0 = _mm256_fmadd_ps(a2v, b0, c2_0);
    const __m256 a3v = _mm256_broadcast_ss(a + 3);
    c3_0 = _mm256_fmadd_ps(a3v, b0, c3_0);
    const __m256 a4v = _mm256_broadcast_ss(a + 4);
    c4_0 = _mm256_fmadd_ps(a4v, b0, c4_0);
    const __m256 a5v = _mm256_broadcast_ss(a + 5);
    c5_0 = _mm256_fmadd_ps(a5v, b0, c5_0);
    a += 6;
    b += 16;
  }
  if (rows == 6 && cols == 8) {
    if (!store) {
      c0_0 = _mm256_add_ps(_mm256_loadu_ps(c + 0*ldc + 0), c0_0);
      c1_0 = _mm256_add_ps(_mm256_loadu_ps(c + 1*ldc + 0), c1_0);
      c2_0 = _mm256_add_ps(_mm256_loadu_ps(c + 2*ldc + 0), c2_0);
      c3_0 = _mm256_add_ps(_mm256_loadu_ps(c + 3*ldc + 0), c3_0);
      c4_0 = _mm256_add_ps(_mm256_loadu_ps(c + 4*ldc + 0), c4_0);
      c5_0 = _mm256_add_ps(_mm256_loadu_ps(c + 5*ldc + 0), c5_0);
    }
    _mm256_storeu_ps(c + 0*ldc + 0, c0_0);
    _mm256_storeu_ps(c + 1*ldc + 0, c1_0);
    _mm256_storeu_ps(c + 2*ldc + 0, c2_0);
    _mm256_storeu_ps(c + 3*ldc + 0, c3_0);
    _mm256_storeu_ps(c + 4*ldc + 0, c4_0);
    _mm256_storeu_ps(c + 5*ldc + 0, c5_0);
    return;
  }
  const __m256i m0 = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_edge_lanes(cols, 0, 8))), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  _mm256_maskstore_ps(c + 0*ldc + 0, m0, store ? c0_0 : _mm256_add_ps(_mm256_maskload_ps(c + 0*ldc + 0, m0), c0_0));
  if (rows == 1) return;
  _mm256_maskstore_ps(c + 1*ldc + 0, m0, store ? c1_0 : _mm256_add_ps(_mm256_maskload_ps(c + 1*ldc + 0, m0), c1_0));
  if (rows == 2) return;
  _mm256_maskstore_ps(c + 2*ldc + 0, m0, store ? c2_0 : _mm256_add_ps(_mm256_maskload_ps(c + 2*ldc + 0, m0), c2_0));
  if (rows == 3) return;
  _mm256_maskstore_ps(c + 3*ldc + 0, m0, store ? c3_0 : _mm256_add_ps(_mm256_maskload_ps(c + 3*ldc + 0, m0), c3_0));
  if (rows == 4) return;
  _mm256_maskstore_ps(c + 4*ldc + 0, m0, store ? c4_0 : _mm256_add_ps(_mm256_maskload_ps(c + 4*ldc + 0, m0), c4_0));
  if (rows == 5) return;
  _mm256_maskstore_ps(c + 5*ldc + 0, m0, store ? c5_0 : _mm256_add_ps(_mm256_maskload_ps(c + 5*ldc + 0, m0), c5_0));
}

static inline void pk_ukr_gemm_f32_avx2_6x16_pp_4x2(int64_t kb, const float *restrict a, int64_t lda,
    const float *restrict b, int64_t ldb, float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store) {
  (void)lda;
  (void)ldb;
  __m256 c0_0 = _mm256_setzero_ps(), c0_1 = _mm256_setzero_ps();
  __m256 c1_0 = _mm256_setzero_ps(), c1_1 = _mm256_setzero_ps();
  __m256 c2_0 = _mm256_setzero_ps(), c2_1 = _mm256_setzero_ps();
  __m256 c3_0 = _mm256_setzero_ps(), c3_1 = _mm256_setzero_ps();
  __builtin_prefetch(c + 0*ldc + 0, 1, 3), __builtin_prefetch(c + 0*ldc + 15, 1, 3);
  __builtin_prefetch(c + 1*ldc + 0, 1, 3), __builtin_prefetch(c + 1*ldc + 15, 1, 3);
  __builtin_prefetch(c + 2*ldc + 0, 1, 3), __builtin_prefetch(c + 2*ldc + 15, 1, 3);
  __builtin_prefetch(c + 3*ldc + 0, 1, 3), __builtin_prefetch(c + 3*ldc + 15, 1, 3);
#pragma GCC unroll 4
  for (int64_t p = 0; p < kb; p++) {
    const __m256 b0 = _mm256_load_ps(b + 0);
    const __m256 b1 = _mm256_load_ps(b + 8);
    const __m256 a0v = _mm256_broadcast_ss(a + 0);
    c0_0 = _mm256_fmadd_ps(a0v, b0, c0_0);
    c0_1 = _mm256_fmadd_ps(a0v, b1, c0_1);
    const __m256 a1v = _mm256_broadcast_ss(a + 1);
    c1_0 = _mm256_fmadd_ps(a1v, b0, c1_0);
    c1_1 = _mm256_fmadd_ps(a1v, b1, c1_1);
    const __m256 a2v = _mm256_broadcast_ss(a + 2);
    c2_0 = _mm256_fmadd_ps(a2v, b0, c2_0);
    c2_1 = _mm256_fmadd_ps(a2v, b1, c2_1);
    const __m256 a3v = _mm256_broadcast_ss(a + 3);
    c3_0 = _mm256_fmadd_ps(a3v, b0, c3_0);
    c3_1 = _mm256_fmadd_ps(a3v, b1, c3_1);
    a += 6;
    b += 16;
  }
  if (rows == 4 && cols == 16) {
    if (!store) {
      c0_0 = _mm256_add_ps(_mm256_loadu_ps(c + 0*ldc + 0), c0_0);
      c0_1 = _mm256_add_ps(_mm256_loadu_ps(c + 0*ldc + 8), c0_1);
      c1_0 = _mm256_add_ps(_mm256_loadu_ps(c + 1*ldc + 0), c1_0);
      c1_1 = _mm256_add_ps(_mm256_loadu_ps(c + 1*ldc + 8), c1_1);
      c2_0 = _mm256_add_ps(_mm256_loadu_ps(c + 2*ldc + 0), c2_0);
      c2_1 = _mm256_add_ps(_mm256_loadu_ps(c + 2*ldc + 8), c2_1);
      c3_0 = _mm256_add_ps(_mm256_loadu_ps(c + 3*ldc + 0), c3_0);
      c3_1 = _mm256_add_ps(_mm256_loadu_ps(c + 3*ldc + 8), c3_1);
    }
    _mm256_storeu_ps(c + 0*ldc + 0, c0_0);
    _mm256_storeu_ps(c + 0*ldc + 8, c0_1);
    _mm256_storeu_ps(c + 1*ldc + 0, c1_0);
    _mm256_storeu_ps(c + 1*ldc + 8, c1_1);
    _mm256_storeu_ps(c + 2*ldc + 0, c2_0);
    _mm256_storeu_ps(c + 2*ldc + 8, c2_1);
    _mm256_storeu_ps(c + 3*ldc + 0, c3_0);
    _mm256_storeu_ps(c + 3*ldc + 8, c3_1);
    return;
  }
  const __m256i m0 = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_edge_lanes(cols, 0, 8))), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  const __m256i m1 = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_edge_lanes(cols, 8, 8))), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  _mm256_maskstore_ps(c + 0*ldc + 0, m0, store ? c0_0 : _mm256_add_ps(_mm256_maskload_ps(c + 0*ldc + 0, m0), c0_0));
  _mm256_maskstore_ps(c + 0*ldc + 8, m1, store ? c0_1 : _mm256_add_ps(_mm256_maskload_ps(c + 0*ldc + 8, m1), c0_1));
  if (rows == 1) return;
  _mm256_maskstore_ps(c + 1*ldc + 0, m0, store ? c1_0 : _mm256_add_ps(_mm256_maskload_ps(c + 1*ldc + 0, m0), c1_0));
  _mm256_maskstore_ps(c + 1*ldc + 8, m1, store ? c1_1 : _mm256_add_ps(_mm256_maskload_ps(c + 1*ldc + 8, m1), c1_1));
  if (rows == 2) return;
  _mm256_maskstore_ps(c + 2*ldc + 0, m0, store ? c2_0 : _mm256_add_ps(_mm256_maskload_ps(c + 2*ldc + 0, m0), c2_0));
  _mm256_maskstore_ps(c + 2*ldc + 8, m1, store ? c2_1 : _mm256_add_ps(_mm256_maskload_ps(c + 2*ldc + 8, m1), c2_1));
  if (rows == 3) return;
  _mm256_maskstore_ps(c + 3*ldc + 0, m0, store ? c3_0 : _mm256_add_ps(_mm256_maskload_ps(c + 3*ldc + 0, m0), c3_0));
  _mm256_maskstore_ps(c + 3*ldc + 8, m1, store ? c3_1 : _mm256_add_ps(_mm256_maskload_ps(c + 3*ldc + 8, m1), c3_1));
}

static inline void pk_ukr_gemm_f32_avx2_6x16_pp_4x1(int64_t kb, const float *restrict a, int64_t lda,
    const float *restrict b, int64_t ldb, float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store) {
  (void)lda;
  (void)ldb;
  __m256 c0_0 = _mm256_setzero_ps();
  __m256 c1_0 = _mm256_setzero_ps();
  __m256 c2_0 = _mm256_setzero_ps();
  __m256 c3_0 = _mm256_setzero_ps();
  __builtin_prefetch(c + 0*ldc + 0, 1, 3), __builtin_prefetch(c + 0*ldc + 7, 1, 3);
  __builtin_prefetch(c + 1*ldc + 0, 1, 3), __builtin_prefetch(c + 1*ldc + 7, 1, 3);
  __builtin_prefetch(c + 2*ldc + 0, 1, 3), __builtin_prefetch(c + 2*ldc + 7, 1, 3);
  __builtin_prefetch(c + 3*ldc + 0, 1, 3), __builtin_prefetch(c + 3*ldc + 7, 1, 3);
#pragma GCC unroll 4
  for (int64_t p = 0; p < kb; p++) {
    const __m256 b0 = _mm256_load_ps(b + 0);
    const __m256 a0v = _mm256_broadcast_ss(a + 0);
    c0_0 = _mm256_fmadd_ps(a0v, b0, c0_0);
    const __m256 a1v = _mm256_broadcast_ss(a + 1);
    c1_0 = _mm256_fmadd_ps(a1v, b0, c1_0);
    const __m256 a2v = _mm256_broadcast_ss(a + 2);
    c2_0 = _mm256_fmadd_ps(a2v, b0, c2_0);
    const __m256 a3v = _mm256_broadcast_ss(a + 3);
    c3_0 = _mm256_fmadd_ps(a3v, b0, c3_0);
    a += 6;
    b += 16;
  }
  if (rows == 4 && cols == 8) {
    if (!store) {
      c0_0 = _mm256_add_ps(_mm256_loadu_ps(c + 0*ldc + 0), c0_0);
      c1_0 = _mm256_add_ps(_mm256_loadu_ps(c + 1*ldc + 0), c1_0);
      c2_0 = _mm256_add_ps(_mm256_loadu_ps(c + 2*ldc + 0), c2_0);
      c3_0 = _mm256_add_ps(_mm256_loadu_ps(c + 3*ldc + 0), c3_0);
    }
    _mm256_storeu_ps(c + 0*ldc + 0, c0_0);
    _mm256_storeu_ps(c + 1*ldc + 0, c1_0);
    _mm256_storeu_ps(c + 2*ldc + 0, c2_0);
    _mm256_storeu_ps(c + 3*ldc + 0, c3_0);
    return;
  }
  const __m256i m0 = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_edge_lanes(cols, 0, 8))), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  _mm256_maskstore_ps(c + 0*ldc + 0, m0, store ? c0_0 : _mm256_add_ps(_mm256_maskload_ps(c + 0*ldc + 0, m0), c0_0));
  if (rows == 1) return;
  _mm256_maskstore_ps(c + 1*ldc + 0, m0, store ? c1_0 : _mm256_add_ps(_mm256_maskload_ps(c + 1*ldc + 0, m0), c1_0));
  if (rows == 2) return;
  _mm256_maskstore_ps(c + 2*ldc + 0, m0, store ? c2_0 : _mm256_add_ps(_mm256_maskload_ps(c + 2*ldc + 0, m0), c2_0));
  if (rows == 3) return;
  _mm256_maskstore_ps(c + 3*ldc + 0, m0, store ? c3_0 : _mm256_add_ps(_mm256_maskload_ps(c + 3*ldc + 0, m0), c3_0));
}

static inline void pk_ukr_gemm_f32_avx2_6x16_pp_2x2(int64_t kb, const float *restrict a, int64_t lda,
    const float *restrict b, int64_t ldb, float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store) {
  (void)lda;
  (void)ldb;
  __m256 c0_0 = _mm256_setzero_ps(), c0_1 = _mm256_setzero_ps();
  __m256 c1_0 = _mm256_setzero_ps(), c1_1 = _mm256_setzero_ps();
  __m256 c0_0_1 = _mm256_setzero_ps(), c0_1_1 = _mm256_setzero_ps();
  __m256 c1_0_1 = _mm256_setzero_ps(), c1_1_1 = _mm256_setzero_ps();
  __builtin_prefetch(c + 0*ldc + 0, 1, 3), __builtin_prefetch(c + 0*ldc + 15, 1, 3);
  __builtin_prefetch(c + 1*ldc + 0, 1, 3), __builtin_prefetch(c + 1*ldc + 15, 1, 3);
  int64_t p = 0;
  for (; p + 2 <= kb; p += 2) {
    const __m256 b0 = _mm256_load_ps(b + 0);
    const __m256 b1 = _mm256_load_ps(b + 8);
    const __m256 a0v = _mm256_broadcast_ss(a + 0);
    c0_0 = _mm256_fmadd_ps(a0v, b0, c0_0);
    c0_1 = _mm256_fmadd_ps(a0v, b1, c0_1);
    const __m256 a1v = _mm256_broadcast_ss(a + 1);
    c1_0 = _mm256_fmadd_ps(a1v, b0, c1_0);
    c1_1 = _mm256_fmadd_ps(a1v, b1, c1_1);
    const __m256 b0_1 = _mm256_load_ps(b + 16);
    const __m256 b1_1 = _mm256_load_ps(b + 24);
    const __m256 a0v_1 = _mm256_broadcast_ss(a + 6);
    c0_0_1 = _mm256_fmadd_ps(a0v_1, b0_1, c0_0_1);
    c0_1_1 = _mm256_fmadd_ps(a0v_1, b1_1, c0_1_1);
    const __m256 a1v_1 = _mm256_broadcast_ss(a + 7);
    c1_0_1 = _mm256_fmadd_ps(a1v_1, b0_1, c1_0_1);
    c1_1_1 = _mm256_fmadd_ps(a1v_1, b1_1, c1_1_1);
    a += 12;
    b += 32;
  }
  for (; p < kb; p++) {
    const __m256 b0 = _mm256_load_ps(b + 0);
    const __m256 b1 = _mm256_load_ps(b + 8);
    const __m256 a0v = _mm256_broadcast_ss(a + 0);
    c0_0 = _mm256_fmadd_ps(a0v, b0, c0_0);
    c0_1 = _mm256_fmadd_ps(a0v, b1, c0_1);
    const __m256 a1v = _mm256_broadcast_ss(a + 1);
    c1_0 = _mm256_fmadd_ps(a1v, b0, c1_0);
    c1_1 = _mm256_fmadd_ps(a1v, b1, c1_1);
    a += 6;
    b += 16;
  }
  c0_0 = _mm256_add_ps(c0_0, c0_0_1);
  c0_1 = _mm256_add_ps(c0_1, c0_1_1);
  c1_0 = _mm256_add_ps(c1_0, c1_0_1);
  c1_1 = _mm256_add_ps(c1_1, c1_1_1);
  if (rows == 2 && cols == 16) {
    if (!store) {
      c0_0 = _mm256_add_ps(_mm256_loadu_ps(c + 0*ldc + 0), c0_0);
      c0_1 = _mm256_add_ps(_mm256_loadu_ps(c + 0*ldc + 8), c0_1);
      c1_0 = _mm256_add_ps(_mm256_loadu_ps(c + 1*ldc + 0), c1_0);
      c1_1 = _mm256_add_ps(_mm256_loadu_ps(c + 1*ldc + 8), c1_1);
    }
    _mm256_storeu_ps(c + 0*ldc + 0, c0_0);
    _mm256_storeu_ps(c + 0*ldc + 8, c0_1);
    _mm256_storeu_ps(c + 1*ldc + 0, c1_0);
    _mm256_storeu_ps(c + 1*ldc + 8, c1_1);
    return;
  }
  const __m256i m0 = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_edge_lanes(cols, 0, 8))), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  const __m256i m1 = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_edge_lanes(cols, 8, 8))), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  _mm256_maskstore_ps(c + 0*ldc + 0, m0, store ? c0_0 : _mm256_add_ps(_mm256_maskload_ps(c + 0*ldc + 0, m0), c0_0));
  _mm256_maskstore_ps(c + 0*ldc + 8, m1, store ? c0_1 : _mm256_add_ps(_mm256_maskload_ps(c + 0*ldc + 8, m1), c0_1));
  if (rows == 1) return;
  _mm256_maskstore_ps(c + 1*ldc + 0, m0, store ? c1_0 : _mm256_add_ps(_mm256_maskload_ps(c + 1*ldc + 0, m0), c1_0));
  _mm256_maskstore_ps(c + 1*ldc + 8, m1, store ? c1_1 : _mm256_add_ps(_mm256_maskload_ps(c + 1*ldc + 8, m1), c1_1));
}

static inline void pk_ukr_gemm_f32_avx2_6x16_pp_2x1(int64_t kb, const float *restrict a, int64_t lda,
    const float *restrict b, int64_t ldb, float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store) {
  (void)lda;
  (void)ldb;
  __m256 c0_0 = _mm256_setzero_ps();
  __m256 c1_0 = _mm256_setzero_ps();
  __m256 c0_0_1 = _mm256_setzero_ps();
  __m256 c1_0_1 = _mm256_setzero_ps();
  __m256 c0_0_2 = _mm256_setzero_ps();
  __m256 c1_0_2 = _mm256_setzero_ps();
  __m256 c0_0_3 = _mm256_setzero_ps();
  __m256 c1_0_3 = _mm256_setzero_ps();
  __builtin_prefetch(c + 0*ldc + 0, 1, 3), __builtin_prefetch(c + 0*ldc + 7, 1, 3);
  __builtin_prefetch(c + 1*ldc + 0, 1, 3), __builtin_prefetch(c + 1*ldc + 7, 1, 3);
  int64_t p = 0;
  for (; p + 4 <= kb; p += 4) {
    const __m256 b0 = _mm256_load_ps(b + 0);
    const __m256 a0v = _mm256_broadcast_ss(a + 0);
    c0_0 = _mm256_fmadd_ps(a0v, b0, c0_0);
    const __m256 a1v = _mm256_broadcast_ss(a + 1);
    c1_0 = _mm256_fmadd_ps(a1v, b0, c1_0);
    const __m256 b0_1 = _mm256_load_ps(b + 16);
    const __m256 a0v_1 = _mm256_broadcast_ss(a + 6);
    c0_0_1 = _mm256_fmadd_ps(a0v_1, b0_1, c0_0_1);
    const __m256 a1v_1 = _mm256_broadcast_ss(a + 7);
    c1_0_1 = _mm256_fmadd_ps(a1v_1, b0_1, c1_0_1);
    const __m256 b0_2 = _mm256_load_ps(b + 32);
    const __m256 a0v_2 = _mm256_broadcast_ss(a + 12);
    c0_0_2 = _mm256_fmadd_ps(a0v_2, b0_2, c0_0_2);
    const __m256 a1v_2 = _mm256_broadcast_ss(a + 13);
    c1_0_2 = _mm256_fmadd_ps(a1v_2, b0_2, c1_0_2);
    const __m256 b0_3 = _mm256_load_ps(b + 48);
    const __m256 a0v_3 = _mm256_broadcast_ss(a + 18);
    c0_0_3 = _mm256_fmadd_ps(a0v_3, b0_3, c0_0_3);
    const __m256 a1v_3 = _mm256_broadcast_ss(a + 19);
    c1_0_3 = _mm256_fmadd_ps(a1v_3, b0_3, c1_0_3);
    a += 24;
    b += 64;
  }
  for (; p < kb; p++) {
    const __m256 b0 = _mm256_load_ps(b + 0);
    const __m256 a0v = _mm256_broadcast_ss(a + 0);
    c0_0 = _mm256_fmadd_ps(a0v, b0, c0_0);
    const __m256 a1v = _mm256_broadcast_ss(a + 1);
    c1_0 = _mm256_fmadd_ps(a1v, b0, c1_0);
    a += 6;
    b += 16;
  }
  c0_0 = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(c0_0, c0_0_1), c0_0_2), c0_0_3);
  c1_0 = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(c1_0, c1_0_1), c1_0_2), c1_0_3);
  if (rows == 2 && cols == 8) {
    if (!store) {
      c0_0 = _mm256_add_ps(_mm256_loadu_ps(c + 0*ldc + 0), c0_0);
      c1_0 = _mm256_add_ps(_mm256_loadu_ps(c + 1*ldc + 0), c1_0);
    }
    _mm256_storeu_ps(c + 0*ldc + 0, c0_0);
    _mm256_storeu_ps(c + 1*ldc + 0, c1_0);
    return;
  }
  const __m256i m0 = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_edge_lanes(cols, 0, 8))), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  _mm256_maskstore_ps(c + 0*ldc + 0, m0, store ? c0_0 : _mm256_add_ps(_mm256_maskload_ps(c + 0*ldc + 0, m0), c0_0));
  if (rows == 1) return;
  _mm256_maskstore_ps(c + 1*ldc + 0, m0, store ? c1_0 : _mm256_add_ps(_mm256_maskload_ps(c + 1*ldc + 0, m0), c1_0));
}

static inline void pk_ukr_gemm_f32_avx2_6x16_pp_1x2(int64_t kb, const float *restrict a, int64_t lda,
    const float *restrict b, int64_t ldb, float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store) {
  (void)lda;
  (void)ldb;
  __m256 c0_0 = _mm256_setzero_ps(), c0_1 = _mm256_setzero_ps();
  __m256 c0_0_1 = _mm256_setzero_ps(), c0_1_1 = _mm256_setzero_ps();
  __m256 c0_0_2 = _mm256_setzero_ps(), c0_1_2 = _mm256_setzero_ps();
  __m256 c0_0_3 = _mm256_setzero_ps(), c0_1_3 = _mm256_setzero_ps();
  __builtin_prefetch(c + 0*ldc + 0, 1, 3), __builtin_prefetch(c + 0*ldc + 15, 1, 3);
  const int64_t pk_seg = kb / 4;
  int64_t p = 0;
  for (; p < pk_seg; p++) {
    const __m256 b0 = _mm256_load_ps(b + 0);
    const __m256 b1 = _mm256_load_ps(b + 8);
    const __m256 a0v = _mm256_broadcast_ss(a + 0);
    c0_0 = _mm256_fmadd_ps(a0v, b0, c0_0);
    c0_1 = _mm256_fmadd_ps(a0v, b1, c0_1);
    const __m256 b0_1 = _mm256_load_ps(b + (1*pk_seg)*16);
    const __m256 b1_1 = _mm256_load_ps(b + (1*pk_seg)*16 + 8);
    const __m256 a0v_1 = _mm256_broadcast_ss(a + (1*pk_seg)*6);
    c0_0_1 = _mm256_fmadd_ps(a0v_1, b0_1, c0_0_1);
    c0_1_1 = _mm256_fmadd_ps(a0v_1, b1_1, c0_1_1);
    const __m256 b0_2 = _mm256_load_ps(b + (2*pk_seg)*16);
    const __m256 b1_2 = _mm256_load_ps(b + (2*pk_seg)*16 + 8);
    const __m256 a0v_2 = _mm256_broadcast_ss(a + (2*pk_seg)*6);
    c0_0_2 = _mm256_fmadd_ps(a0v_2, b0_2, c0_0_2);
    c0_1_2 = _mm256_fmadd_ps(a0v_2, b1_2, c0_1_2);
    const __m256 b0_3 = _mm256_load_ps(b + (3*pk_seg)*16);
    const __m256 b1_3 = _mm256_load_ps(b + (3*pk_seg)*16 + 8);
    const __m256 a0v_3 = _mm256_broadcast_ss(a + (3*pk_seg)*6);
    c0_0_3 = _mm256_fmadd_ps(a0v_3, b0_3, c0_0_3);
    c0_1_3 = _mm256_fmadd_ps(a0v_3, b1_3, c0_1_3);
    a += 6;
    b += 16;
  }
  a += (3*pk_seg)*6;
  b += (3*pk_seg)*16;
  for (p = 4*pk_seg; p < kb; p++) {
    const __m256 b0 = _mm256_load_ps(b + 0);
    const __m256 b1 = _mm256_load_ps(b + 8);
    const __m256 a0v = _mm256_broadcast_ss(a + 0);
    c0_0 = _mm256_fmadd_ps(a0v, b0, c0_0);
    c0_1 = _mm256_fmadd_ps(a0v, b1, c0_1);
    a += 6;
    b += 16;
  }
  c0_0 = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(c0_0, c0_0_1), c0_0_2), c0_0_3);
  c0_1 = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(c0_1, c0_1_1), c0_1_2), c0_1_3);
  if (rows == 1 && cols == 16) {
    if (!store) {
      c0_0 = _mm256_add_ps(_mm256_loadu_ps(c + 0*ldc + 0), c0_0);
      c0_1 = _mm256_add_ps(_mm256_loadu_ps(c + 0*ldc + 8), c0_1);
    }
    _mm256_storeu_ps(c + 0*ldc + 0, c0_0);
    _mm256_storeu_ps(c + 0*ldc + 8, c0_1);
    return;
  }
  const __m256i m0 = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_edge_lanes(cols, 0, 8))), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  const __m256i m1 = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_edge_lanes(cols, 8, 8))), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  _mm256_maskstore_ps(c + 0*ldc + 0, m0, store ? c0_0 : _mm256_add_ps(_mm256_maskload_ps(c + 0*ldc + 0, m0), c0_0));
  _mm256_maskstore_ps(c + 0*ldc + 8, m1, store ? c0_1 : _mm256_add_ps(_mm256_maskload_ps(c + 0*ldc + 8, m1), c0_1));
}

static inline void pk_ukr_gemm_f32_avx2_6x16_pp_1x1(int64_t kb, const float *restrict a, int64_t lda,
    const float *restrict b, int64_t ldb, float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store) {
  (void)lda;
  (void)ldb;
  __m256 c0_0 = _mm256_setzero_ps();
  __m256 c0_0_1 = _mm256_setzero_ps();
  __m256 c0_0_2 = _mm256_setzero_ps();
  __m256 c0_0_3 = _mm256_setzero_ps();
  __builtin_prefetch(c + 0*ldc + 0, 1, 3), __builtin_prefetch(c + 0*ldc + 7, 1, 3);
  const int64_t pk_seg = kb / 4;
  int64_t p = 0;
  for (; p < pk_seg; p++) {
    const __m256 b0 = _mm256_load_ps(b + 0);
    const __m256 a0v = _mm256_broadcast_ss(a + 0);
    c0_0 = _mm256_fmadd_ps(a0v, b0, c0_0);
    const __m256 b0_1 = _mm256_load_ps(b + (1*pk_seg)*16);
    const __m256 a0v_1 = _mm256_broadcast_ss(a + (1*pk_seg)*6);
    c0_0_1 = _mm256_fmadd_ps(a0v_1, b0_1, c0_0_1);
    const __m256 b0_2 = _mm256_load_ps(b + (2*pk_seg)*16);
    const __m256 a0v_2 = _mm256_broadcast_ss(a + (2*pk_seg)*6);
    c0_0_2 = _mm256_fmadd_ps(a0v_2, b0_2, c0_0_2);
    const __m256 b0_3 = _mm256_load_ps(b + (3*pk_seg)*16);
    const __m256 a0v_3 = _mm256_broadcast_ss(a + (3*pk_seg)*6);
    c0_0_3 = _mm256_fmadd_ps(a0v_3, b0_3, c0_0_3);
    a += 6;
    b += 16;
  }
  a += (3*pk_seg)*6;
  b += (3*pk_seg)*16;
  for (p = 4*pk_seg; p < kb; p++) {
    const __m256 b0 = _mm256_load_ps(b + 0);
    const __m256 a0v = _mm256_broadcast_ss(a + 0);
    c0_0 = _mm256_fmadd_ps(a0v, b0, c0_0);
    a += 6;
    b += 16;
  }
  c0_0 = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(c0_0, c0_0_1), c0_0_2), c0_0_3);
  if (rows == 1 && cols == 8) {
    if (!store) {
      c0_0 = _mm256_add_ps(_mm256_loadu_ps(c + 0*ldc + 0), c0_0);
    }
    _mm256_storeu_ps(c + 0*ldc + 0, c0_0);
    return;
  }
  const __m256i m0 = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_edge_lanes(cols, 0, 8))), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  _mm256_maskstore_ps(c + 0*ldc + 0, m0, store ? c0_0 : _mm256_add_ps(_mm256_maskload_ps(c + 0*ldc + 0, m0), c0_0));
}

PK_SHARED void pk_ukr_gemm_f32_avx2_6x16_pp(int64_t kb, const float *restrict a, int64_t lda, const float *restrict b, int64_t ldb,
    float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store) {
  if (rows > 4) {
    if (cols > 8) pk_ukr_gemm_f32_avx2_6x16_pp_6x2(kb, a, lda, b, ldb, c, ldc, rows, cols, store);
    else pk_ukr_gemm_f32_avx2_6x16_pp_6x1(kb, a, lda, b, ldb, c, ldc, rows, cols, store);
  } else if (rows > 2) {
    if (cols > 8) pk_ukr_gemm_f32_avx2_6x16_pp_4x2(kb, a, lda, b, ldb, c, ldc, rows, cols, store);
    else pk_ukr_gemm_f32_avx2_6x16_pp_4x1(kb, a, lda, b, ldb, c, ldc, rows, cols, store);
  } else if (rows > 1) {
    if (cols > 8) pk_ukr_gemm_f32_avx2_6x16_pp_2x2(kb, a, lda, b, ldb, c, ldc, rows, cols, store);
    else pk_ukr_gemm_f32_avx2_6x16_pp_2x1(kb, a, lda, b, ldb, c, ldc, rows, cols, store);
  } else {
    if (cols > 8) pk_ukr_gemm_f32_avx2_6x16_pp_1x2(kb, a, lda, b, ldb, c, ldc, rows, cols, store);
    else pk_ukr_gemm_f32_avx2_6x16_pp_1x1(kb, a, lda, b, ldb, c, ldc, rows, cols, store);
  }
}

static inline void pk_ukr_gemm_f32_avx2_6x16_pps_6x2(int64_t kb, const float *restrict a, int64_t lda,
    const float *restrict b, int64_t ldb, float *restrict c, const int64_t *restrict om, const pk_vector_place *restrict vp, int split, int64_t rows, int64_t cols, int store) {
  (void)lda;
  (void)ldb;
  __m256 c0_0 = _mm256_setzero_ps(), c0_1 = _mm256_setzero_ps();
  __m256 c1_0 = _mm256_setzero_ps(), c1_1 = _mm256_setzero_ps();
  __m256 c2_0 = _mm256_setzero_ps(), c2_1 = _mm256_setzero_ps();
  __m256 c3_0 = _mm256_setzero_ps(), c3_1 = _mm256_setzero_ps();
  __m256 c4_0 = _mm256_setzero_ps(), c4_1 = _mm256_setzero_ps();
  __m256 c5_0 = _mm256_setzero_ps(), c5_1 = _mm256_setzero_ps();
  __builtin_prefetch(c + om[0] + vp[0].lo, 1, 3), __builtin_prefetch(c + om[0] + vp[0].hi + 7, 1, 3), __builtin_prefetch(c + om[0] + vp[1].lo, 1, 3), __builtin_prefetch(c + om[0] + vp[1].hi + 7, 1, 3);
  __builtin_prefetch(c + om[pk_min64(1, rows - 1)] + vp[0].lo, 1, 3), __builtin_prefetch(c + om[pk_min64(1, rows - 1)] + vp[0].hi + 7, 1, 3), __builtin_prefetch(c + om[pk_min64(1, rows - 1)] + vp[1].lo, 1, 3), __builtin_prefetch(c + om[pk_min64(1, rows - 1)] + vp[1].hi + 7, 1, 3);
  __builtin_prefetch(c + om[pk_min64(2, rows - 1)] + vp[0].lo, 1, 3), __builtin_prefetch(c + om[pk_min64(2, rows - 1)] + vp[0].hi + 7, 1, 3), __builtin_prefetch(c + om[pk_min64(2, rows - 1)] + vp[1].lo, 1, 3), __builtin_prefetch(c + om[pk_min64(2, rows - 1)] + vp[1].hi + 7, 1, 3);
  __builtin_prefetch(c + om[pk_min64(3, rows - 1)] + vp[0].lo, 1, 3), __builtin_prefetch(c + om[pk_min64(3, rows - 1)] + vp[0].hi + 7, 1, 3), __builtin_prefetch(c + om[pk_min64(3, rows - 1)] + vp[1].lo, 1, 3), __builtin_prefetch(c + om[pk_min64(3, rows - 1)] + vp[1].hi + 7, 1, 3);
  __builtin_prefetch(c + om[pk_min64(4, rows - 1)] + vp[0].lo, 1, 3), __builtin_prefetch(c + om[pk_min64(4, rows - 1)] + vp[0].hi + 7, 1, 3), __builtin_prefetch(c + om[pk_min64(4, rows - 1)] + vp[1].lo, 1, 3), __builtin_prefetch(c + om[pk_min64(4, rows - 1)] + vp[1].hi + 7, 1, 3);
  __builtin_prefetch(c + om[pk_min64(5, rows - 1)] + vp[0].lo, 1, 3), __builtin_prefetch(c + om[pk_min64(5, rows - 1)] + vp[0].hi + 7, 1, 3), __builtin_prefetch(c + om[pk_min64(5, rows - 1)] + vp[1].lo, 1, 3), __builtin_prefetch(c + om[pk_min64(5, rows - 1)] + vp[1].hi + 7, 1, 3);
#pragma GCC unroll 4
  for (int64_t p = 0; p < kb; p++) {
    const __m256 b0 = _mm256_load_ps(b + 0);
    const __m256 b1 = _mm256_load_ps(b + 8);
    const __m256 a0v = _mm256_broadcast_ss(a + 0);
    c0_0 = _mm256_fmadd_ps(a0v, b0, c0_0);
    c0_1 = _mm256_fmadd_ps(a0v, b1, c0_1);
    const __m256 a1v = _mm256_broadcast_ss(a + 1);
    c1_0 = _mm256_fmadd_ps(a1v, b0, c1_0);
    c1_1 = _mm256_fmadd_ps(a1v, b1, c1_1);
    const __m256 a2v = _mm256_broadcast_ss(a + 2);
    c2_0 = _mm256_fmadd_ps(a2v, b0, c2_0);
    c2_1 = _mm256_fmadd_ps(a2v, b1, c2_1);
    const __m256 a3v = _mm256_broadcast_ss(a + 3);
    c3_0 = _mm256_fmadd_ps(a3v, b0, c3_0);
    c3_1 = _mm256_fmadd_ps(a3v, b1, c3_1);
    const __m256 a4v = _mm256_broadcast_ss(a + 4);
    c4_0 = _mm256_fmadd_ps(a4v, b0, c4_0);
    c4_1 = _mm256_fmadd_ps(a4v, b1, c4_1);
    const __m256 a5v = _mm256_broadcast_ss(a + 5);
    c5_0 = _mm256_fmadd_ps(a5v, b0, c5_0);
    c5_1 = _mm256_fmadd_ps(a5v, b1, c5_1);
    a += 6;
    b += 16;
  }
  __asm__("" : "+r"(om), "+r"(vp));
  if (split) {
    const __m256i lo0 = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(vp[0].split)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)), hi0 = _mm256_cmpgt_epi32(_mm256_setr_epi32(1, 2, 3, 4, 5, 6, 7, 8), _mm256_set1_epi32((int)(vp[0].split)));
    const __m256i lo1 = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(vp[1].split)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)), hi1 = _mm256_cmpgt_epi32(_mm256_setr_epi32(1, 2, 3, 4, 5, 6, 7, 8), _mm256_set1_epi32((int)(vp[1].split)));
    if (!store) c0_0 = _mm256_add_ps(_mm256_add_ps(_mm256_maskload_ps(c + om[0] + vp[0].lo, lo0), _mm256_maskload_ps(c + om[0] + vp[0].hi, hi0)), c0_0);
    _mm256_maskstore_ps(c + om[0] + vp[0].lo, lo0, c0_0);
    _mm256_maskstore_ps(c + om[0] + vp[0].hi, hi0, c0_0);
    if (!store) c0_1 = _mm256_add_ps(_mm256_add_ps(_mm256_maskload_ps(c + om[0] + vp[1].lo, lo1), _mm256_maskload_ps(c + om[0] + vp[1].hi, hi1)), c0_1);
    _mm256_maskstore_ps(c + om[0] + vp[1].lo, lo1, c0_1);
    _mm256_maskstore_ps(c + om[0] + vp[1].hi, hi1, c0_1);
    if (rows == 1) return;
    if (!store) c1_0 = _mm256_add_ps(_mm256_add_ps(_mm256_maskload_ps(c + om[1] + vp[0].lo, lo0), _mm256_maskload_ps(c + om[1] + vp[0].hi, hi0)), c1_0);
    _mm256_maskstore_ps(c + om[1] + vp[0].lo, lo0, c1_0);
    _mm256_maskstore_ps(c + om[1] + vp[0].hi, hi0, c1_0);
    if (!store) c1_1 = _mm256_add_ps(_mm256_add_ps(_mm256_maskload_ps(c + om[1] + vp[1].lo, lo1), _mm256_maskload_ps(c + om[1] + vp[1].hi, hi1)), c1_1);
    _mm256_maskstore_ps(c + om[1] + vp[1].lo, lo1, c1_1);
    _mm256_maskstore_ps(c + om[1] + vp[1].hi, hi1, c1_1);
    if (rows == 2) return;
    if (!store) c2_0 = _mm256_add_ps(_mm256_add_ps(_mm256_maskload_ps(c + om[2] + vp[0].lo, lo0), _mm256_maskload_ps(c + om[2] + vp[0].hi, hi0)), c2_0);
    _mm256_maskstore_ps(c + om[2] + vp[0].lo, lo0, c2_0);
    _mm256_maskstore_ps(c + om[2] + vp[0].hi, hi0, c2_0);
    if (!store) c2_1 = _mm256_add_ps(_mm256_add_ps(_mm256_maskload_ps(c + om[2] + vp[1].lo, lo1), _mm256_maskload_ps(c + om[2] + vp[1].hi, hi1)), c2_1);
    _mm256_maskstore_ps(c + om[2] + vp[1].lo, lo1, c2_1);
    _mm256_maskstore_ps(c + om[2] + vp[1].hi, hi1, c2_1);
    if (rows == 3) return;
    if (!store) c3_0 = _mm256_add_ps(_mm256_add_ps(_mm256_maskload_ps(c + om[3] + vp[0].lo, lo0), _mm256_maskload_ps(c + om[3] + vp[0].hi, hi0)), c3_0);
    _mm256_maskstore_ps(c + om[3] + vp[0].lo, lo0, c3_0);
    _mm256_maskstore_ps(c + om[3] + vp[0].hi, hi0, c3_0);
    if (!store) c3_1 = _mm256_add_ps(_mm256_add_ps(_mm256_maskload_ps(c + om[3] + vp[1].lo, lo1), _mm256_maskload_ps(c + om[3] + vp[1].hi, hi1)), c3_1);
    _mm256_maskstore_ps(c + om[3] + vp[1].lo, lo1, c3_1);
    _mm256_maskstore_ps(c + om[3] + vp[1].hi, hi1, c3_1);
    if (rows == 4) return;
    if (!store) c4_0 = _mm256_add_ps(_mm256_add_ps(_mm256_maskload_ps(c + om[4] + vp[0].lo, lo0), _mm256_maskload_ps(c + om[4] + vp[0].hi, hi0)), c4_0);
    _mm256_maskstore_ps(c + om[4] + vp[0].lo, lo0, c4_0);
    _mm256_maskstore_ps(c + om[4] + vp[0].hi, hi0, c4_0);
    if (!store) c4_1 = _mm256_add_ps(_mm256_add_ps(_mm256_maskload_ps(c + om[4] + vp[1].lo, lo1), _mm256_maskload_ps(c + om[4] + vp[1].hi, hi1)), c4_1);
    _mm256_maskstore_ps(c + om[4] + vp[1].lo, lo1, c4_1);
    _mm256_maskstore_ps(c + om[4] + vp[1].hi, hi1, c4_1);
    if (rows == 5) return;
    if (!store) c5_0 = _mm256_add_ps(_mm256_add_ps(_mm256_maskload_ps(c + om[5] + vp[0].lo, lo0), _mm256_maskload_ps(c + om[5] + vp[0].hi, hi0)), c5_0);
    _mm256_maskstore_ps(c + om[5] + vp[0].lo, lo0, c5_0);
    _mm256_maskstore_ps(c + om[5] + vp[0].hi, hi0, c5_0);
    if (!store) c5_1 = _mm256_add_ps(_mm256_add_ps(_mm256_maskload_ps(c + om[5] + vp[1].lo, lo1), _mm256_maskload_ps(c + om[5] + vp[1].hi, hi1)), c5_1);
    _mm256_maskstore_ps(c + om[5] + vp[1].lo, lo1, c5_1);
    _mm256_maskstore_ps(c + om[5] + vp[1].hi, hi1, c5_1);
    return;
  }
  if (rows == 6 && cols == 16) {
    if (!store) {
      c0_0 = _mm256_add_ps(_mm256_loadu_ps(c + om[0] + vp[0].lo), c0_0);
      c0_1 = _mm256_add_ps(_mm256_loadu_ps(c + om[0] + vp[1].lo), c0_1);
      c1_0 = _mm256_add_ps(_mm256_loadu_ps(c + om[1] + vp[0].lo), c1_0);
      c1_1 = _mm256_add_ps(_mm256_loadu_ps(c + om[1] + vp[1].lo), c1_1);
      c2_0 = _mm256_add_ps(_mm256_loadu_ps(c + om[2] + vp[0].lo), c2_0);
      c2_1 = _mm256_add_ps(_mm256_loadu_ps(c + om[2] + vp[1].lo), c2_1);
      c3_0 = _mm256_add_ps(_mm256_loadu_ps(c + om[3] + vp[0].lo), c3_0);
      c3_1 = _mm256_add_ps(_mm256_loadu_ps(c + om[3] + vp[1].lo), c3_1);
      c4_0 = _mm256_add_ps(_mm256_loadu_ps(c + om[4] + vp[0].lo), c4_0);
      c4_1 = _mm256_add_ps(_mm256_loadu_ps(c + om[4] + vp[1].lo), c4_1);
      c5_0 = _mm256_add_ps(_mm256_loadu_ps(c + om[5] + vp[0].lo), c5_0);
      c5_1 = _mm256_add_ps(_mm256_loadu_ps(c + om[5] + vp[1].lo), c5_1);
    }
    _mm256_storeu_ps(c + om[0] + vp[0].lo, c0_0);
    _mm256_storeu_ps(c + om[0] + vp[1].lo, c0_1);
    _mm256_storeu_ps(c + om[1] + vp[0].lo, c1_0);
    _mm256_storeu_ps(c + om[1] + vp[1].lo, c1_1);
    _mm256_storeu_ps(c + om[2] + vp[0].lo, c2_0);
    _mm256_storeu_ps(c + om[2] + vp[1].lo, c2_1);
    _mm256_storeu_ps(c + om[3] + vp[0].lo, c3_0);
    _mm256_storeu_ps(c + om[3] + vp[1].lo, c3_1);
    _mm256_storeu_ps(c + om[4] + vp[0].lo, c4_0);
    _mm256_storeu_ps(c + om[4] + vp[1].lo, c4_1);
    _mm256_storeu_ps(c + om[5] + vp[0].lo, c5_0);
    _mm256_storeu_ps(c + om[5] + vp[1].lo, c5_1);
    return;
  }
  const __m256i m0 = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_edge_lanes(cols, 0, 8))), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  const __m256i m1 = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_edge_lanes(cols, 8, 8))), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  _mm256_maskstore_ps(c + om[0] + vp[0].lo, m0, store ? c0_0 : _mm256_add_ps(_mm256_maskload_ps(c + om[0] + vp[0].lo, m0), c0_0));
  _mm256_maskstore_ps(c + om[0] + vp[1].lo, m1, store ? c0_1 : _mm256_add_ps(_mm256_maskload_ps(c + om[0] + vp[1].lo, m1), c0_1));
  if (rows == 1) return;
  _mm256_maskstore_ps(c + om[1] + vp[0].lo, m0, store ? c1_0 : _mm256_add_ps(_mm256_maskload_ps(c + om[1] + vp[0].lo, m0), c1_0));
  _mm256_maskstore_ps(c + om[1] + vp[1].lo, m1, store ? c1_1 : _mm256_add_ps(_mm256_maskload_ps(c + om[1] + vp[1].lo, m1), c1_1));
  if (rows == 2) return;
  _mm256_maskstore_ps(c + om[2] + vp[0].lo, m0, store ? c2_0 : _mm256_add_ps(_mm256_maskload_ps(c + om[2] + vp[0].lo, m0), c2_0));
  _mm256_maskstore_ps(c + om[2] + vp[1].lo, m1, store ? c2_1 : _mm256_add_ps(_mm256_maskload_ps(c + om[2] + vp[1].lo, m1), c2_1));
  if (rows == 3) return;
  _mm256_maskstore_ps(c + om[3] + vp[0].lo, m0, store ? c3_0 : _mm256_add_ps(_mm256_maskload_ps(c + om[3] + vp[0].lo, m0), c3_0));
  _mm256_maskstore_ps(c + om[3] + vp[1].lo, m1, store ? c3_1 : _mm256_add_ps(_mm256_maskload_ps(c + om[3] + vp[1].lo, m1), c3_1));
  if (rows == 4) return;
  _mm256_maskstore_ps(c + om[4] + vp[0].lo, m0, store ? c4_0 : _mm256_add_ps(_mm256_maskload_ps(c + om[4] + vp[0].lo, m0), c4_0));
  _mm256_maskstore_ps(c + om[4] + vp[1].lo, m1, store ? c4_1 : _mm256_add_ps(_mm256_maskload_ps(c + om[4] + vp[1].lo, m1), c4_1));
  if (rows == 5) return;
  _mm256_maskstore_ps(c + om[5] + vp[0].lo, m0, store ? c5_0 : _mm256_add_ps(_mm256_maskload_ps(c + om[5] + vp[0].lo, m0), c5_0));
  _mm256_maskstore_ps(c + om[5] + vp[1].lo, m1, store ? c5_1 : _mm256_add_ps(_mm256_maskload_ps(c + om[5] + vp[1].lo, m1), c5_1));
}

static inline void pk_ukr_gemm_f32_avx2_6x16_pps_6x1(int64_t kb, const float *restrict a, int64_t lda,
    const float *restrict b, int64_t ldb, float *restrict c, const int64_t *restrict om, const pk_vector_place *restrict vp, int split, int64_t rows, int64_t cols, int store) {
  (void)lda;
  (void)ldb;
  __m256 c0_0 = _mm256_setzero_ps();
  __m256 c1_0 = _mm256_setzero_ps();
  __m256 c2_0 = _mm256_setzero_ps();
  __m256 c3_0 = _mm256_setzero_ps();
  __m256 c4_0 = _mm256_setzero_ps();
  __m256 c5_0 = _mm256_setzero_ps();
  __builtin_prefetch(c + om[0] + vp[0].lo, 1, 3), __builtin_prefetch(c + om[0] + vp[0].hi + 7, 1, 3);
  __builtin_prefetch(c + om[pk_min64(1, rows - 1)] + vp[0].lo, 1, 3), __builtin_prefetch(c + om[pk_min64(1, rows - 1)] + vp[0].hi + 7, 1, 3);
  __builtin_prefetch(c + om[pk_min64(2, rows - 1)] + vp[0].lo, 1, 3), __builtin_prefetch(c + om[pk_min64(2, rows - 1)] + vp[0].hi + 7, 1, 3);
  __builtin_prefetch(c + om[pk_min64(3, rows - 1)] + vp[0].lo, 1, 3), __builtin_prefetch(c + om[pk_min64(3, rows - 1)] + vp[0].hi + 7, 1, 3);
  __builtin_prefetch(c + om[pk_min64(4, rows - 1)] + vp[0].lo, 1, 3), __builtin_prefetch(c + om[pk_min64(4, rows - 1)] + vp[0].hi + 7, 1, 3);
  __builtin_prefetch(c + om[pk_min64(5, rows - 1)] + vp[0].lo, 1, 3), __builtin_prefetch(c + om[pk_min64(5, rows - 1)] + vp[0].hi + 7, 1, 3);
#pragma GCC unroll 4
  for (int64_t p = 0; p < kb; p++) {
    const __m256 b0 = _mm256_load_ps(b + 0);
    const __m256 a0v = _mm256_broadcast_ss(a + 0);
    c0_0 = _mm256_fmadd_ps(a0v, b0, c0_0);
    const __m256 a1v = _mm256_broadcast_ss(a + 1);
    c1_0 = _mm256_fmadd_ps(a1v, b0, c1_0);
    const __m256 a2v = _mm256_broadcast_ss(a + 2);
    c2_0 = _mm256_fmadd_ps(a2v, b0, c2_0);
    const __m256 a3v = _mm256_broadcast_ss(a + 3);
    c3_0 = _mm256_fmadd_ps(a3v, b0, c3_0);
    const __m256 a4v = _mm256_broadcast_ss(a + 4);
    c4_0 = _mm256_fmadd_ps(a4v, b0, c4_0);
    const __m256 a5v = _mm256_broadcast_ss(a + 5);
    c5_0 = _mm256_fmadd_ps(a5v, b0, c5_0);
    a += 6;
    b += 16;
  }
  __asm__("" : "+r"(om), "+r"(vp));
  (void)split;
  if (rows == 6 && cols == 8) {
    if (!store) {
      c0_0 = _mm256_add_ps(_mm256_loadu_ps(c + om[0] + vp[0].lo), c0_0);
      c1_0 = _mm256_add_ps(_mm256_loadu_ps(c + om[1] + vp[0].lo), c1_0);
      c2_0 = _mm256_add_ps(_mm256_loadu_ps(c + om[2] + vp[0].lo), c2_0);
      c3_0 = _mm256_add_ps(_mm256_loadu_ps(c + om[3] + vp[0].lo), c3_0);
      c4_0 = _mm256_add_ps(_mm256_loadu_ps(c + om[4] + vp[0].lo), c4_0);
      c5_0 = _mm256_add_ps(_mm256_loadu_ps(c + om[5] + vp[0].lo), c5_0);
    }
    _mm256_storeu_ps(c + om[0] + vp[0].lo, c0_0);
    _mm256_storeu_ps(c + om[1] + vp[0].lo, c1_0);
    _mm256_storeu_ps(c + om[2] + vp[0].lo, c2_0);
    _mm256_storeu_ps(c + om[3] + vp[0].lo, c3_0);
    _mm256_storeu_ps(c + om[4] + vp[0].lo, c4_0);
    _mm256_storeu_ps(c + om[5] + vp[0].lo, c5_0);
    return;
  }
  const __m256i m0 = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_edge_lanes(cols, 0, 8))), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  _mm256_maskstore_ps(c + om[0] + vp[0].lo, m0, store ? c0_0 : _mm256_add_ps(_mm256_maskload_ps(c + om[0] + vp[0].lo, m0), c0_0));
  if (rows == 1) return;
  _mm256_maskstore_ps(c + om[1] + vp[0].lo, m0, store ? c1_0 : _mm256_add_ps(_mm256_maskload_ps(c + om[1] + vp[0].lo, m0), c1_0));
  if (rows == 2) return;
  _mm256_maskstore_ps(c + om[2] + vp[0].lo, m0, store ? c2_0 : _mm256_add_ps(_mm256_maskload_ps(c + om[2] + vp[0].lo, m0), c2_0));
  if (rows == 3) return;
  _mm256_maskstore_ps(c + om[3] + vp[0].lo, m0, store ? c3_0 : _mm256_add_ps(_mm256_maskload_ps(c + om[3] + vp[0].lo, m0), c3_0));
  if (rows == 4) return;
  _mm256_maskstore_ps(c + om[4] + vp[0].lo, m0, store ? c4_0 : _mm256_add_ps(_mm256_maskload_ps(c + om[4] + vp[0].lo, m0), c4_0));
  if (rows == 5) return;
  _mm256_maskstore_ps(c + om[5] + vp[0].lo, m0, store ? c5_0 : _mm256_add_ps(_mm256_maskload_ps(c + om[5] + vp[0].lo, m0), c5_0));
}

static inline void pk_ukr_gemm_f32_avx2_6x16_pps_4x2(int64_t kb, const float *restrict a, int64_t lda,
    const float *restrict b, int64_t ldb, float *restrict c, const int64_t *restrict om, const pk_vector_place *restrict vp, int split, int64_t rows, int64_t cols, int store) {
  (void)lda;
  (void)ldb;
  __m256 c0_0 = _mm256_setzero_ps(), c0_1 = _mm256_setzero_ps();
  __m256 c1_0 = _mm256_setzero_ps(), c1_1 = _mm256_setzero_ps();
  __m256 c2_0 = _mm256_setzero_ps(), c2_1 = _mm256_setzero_ps();
  __m256 c3_0 = _mm256_setzero_ps(), c3_1 = _mm256_setzero_ps();
  __builtin_prefetch(c + om[0] + vp[0].lo, 1, 3), __builtin_prefetch(c + om[0] + vp[0].hi + 7, 1, 3), __builtin_prefetch(c + om[0] + vp[1].lo, 1, 3), __builtin_prefetch(c + om[0] + vp[1].hi + 7, 1, 3);
  __builtin_prefetch(c + om[pk_min64(1, rows - 1)] + vp[0].lo, 1, 3), __builtin_prefetch(c + om[pk_min64(1, rows - 1)] + vp[0].hi + 7, 1, 3), __builtin_prefetch(c + om[pk_min64(1, rows - 1)] + vp[1].lo, 1, 3), __builtin_prefetch(c + om[pk_min64(1, rows - 1)] + vp[1].hi + 7, 1, 3);
  __builtin_prefetch(c + om[pk_min64(2, rows - 1)] + vp[0].lo, 1, 3), __builtin_prefetch(c + om[pk_min64(2, rows - 1)] + vp[0].hi + 7, 1, 3), __builtin_prefetch(c + om[pk_min64(2, rows - 1)] + vp[1].lo, 1, 3), __builtin_prefetch(c + om[pk_min64(2, rows - 1)] + vp[1].hi + 7, 1, 3);
  __builtin_prefetch(c + om[pk_min64(3, rows - 1)] + vp[0].lo, 1, 3), __builtin_prefetch(c + om[pk_min64(3, rows - 1)] + vp[0].hi + 7, 1, 3), __builtin_prefetch(c + om[pk_min64(3, rows - 1)] + vp[1].lo, 1, 3), __builtin_prefetch(c + om[pk_min64(3, rows - 1)] + vp[1].hi + 7, 1, 3);
#pragma GCC unroll 4
  for (int64_t p = 0; p < kb; p++) {
    const __m256 b0 = _mm256_load_ps(b + 0);
    const __m256 b1 = _mm256_load_ps(b + 8);
    const __m256 a0v = _mm256_broadcast_ss(a + 0);
    c0_0 = _mm256_fmadd_ps(a0v, b0, c0_0);
    c0_1 = _mm256_fmadd_ps(a0v, b1, c0_1);
    const __m256 a1v = _mm256_broadcast_ss(a + 1);
    c1_0 = _mm256_fmadd_ps(a1v, b0, c1_0);
    c1_1 = _mm256_fmadd_ps(a1v, b1, c1_1);
    const __m256 a2v = _mm256_broadcast_ss(a + 2);
    c2_0 = _mm256_fmadd_ps(a2v, b0, c2_0);
    c2_1 = _mm256_fmadd_ps(a2v, b1, c2_1);
    const __m256 a3v = _mm256_broadcast_ss(a + 3);
    c3_0 = _mm256_fmadd_ps(a3v, b0, c3_0);
    c3_1 = _mm256_fmadd_ps(a3v, b1, c3_1);
    a += 6;
    b += 16;
  }
  __asm__("" : "+r"(om), "+r"(vp));
  if (split) {
    const __m256i lo0 = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(vp[0].split)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)), hi0 = _mm256_cmpgt_epi32(_mm256_setr_epi32(1, 2, 3, 4, 5, 6, 7, 8), _mm256_set1_epi32((int)(vp[0].split)));
    const __m256i lo1 = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(vp[1].split)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)), hi1 = _mm256_cmpgt_epi32(_mm256_setr_epi32(1, 2, 3, 4, 5, 6, 7, 8), _mm256_set1_epi32((int)(vp[1].split)));
    if (!store) c0_0 = _mm256_add_ps(_mm256_add_ps(_mm256_maskload_ps(c + om[0] + vp[0].lo, lo0), _mm256_maskload_ps(c + om[0] + vp[0].hi, hi0)), c0_0);
    _mm256_maskstore_ps(c + om[0] + vp[0].lo, lo0, c0_0);
    _mm256_maskstore_ps(c + om[0] + vp[0].hi, hi0, c0_0);
    if (!store) c0_1 = _mm256_add_ps(_mm256_add_ps(_mm256_maskload_ps(c + om[0] + vp[1].lo, lo1), _mm256_maskload_ps(c + om[0] + vp[1].hi, hi1)), c0_1);
    _mm256_maskstore_ps(c + om[0] + vp[1].lo, lo1, c0_1);
    _mm256_maskstore_ps(c + om[0] + vp[1].hi, hi1, c0_1);
    if (rows == 1) return;
    if (!store) c1_0 = _mm256_add_ps(_mm256_add_ps(_mm256_maskload_ps(c + om[1] + vp[0].lo, lo0), _mm256_maskload_ps(c + om[1] + vp[0].hi, hi0)), c1_0);
    _mm256_maskstore_ps(c + om[1] + vp[0].lo, lo0, c1_0);
    _mm256_maskstore_ps(c + om[1] + vp[0].hi, hi0, c1_0);
    if (!store) c1_1 = _mm256_add_ps(_mm256_add_ps(_mm256_maskload_ps(c + om[1] + vp[1].lo, lo1), _mm256_maskload_ps(c + om[1] + vp[1].hi, hi1)), c1_1);
    _mm256_maskstore_ps(c + om[1] + vp[1].lo, lo1, c1_1);
    _mm256_maskstore_ps(c + om[1] + vp[1].hi, hi1, c1_1);
    if (rows == 2) return;
    if (!store) c2_0 = _mm256_add_ps(_mm256_add_ps(_mm256_maskload_ps(c + om[2] + vp[0].lo, lo0), _mm256_maskload_ps(c + om[2] + vp[0].hi, hi0)), c2_0);
    _mm256_maskstore_ps(c + om[2] + vp[0].lo, lo0, c2_0);
    _mm256_maskstore_ps(c + om[2] + vp[0].hi, hi0, c2_0);
    if (!store) c2_1 = _mm256_add_ps(_mm256_add_ps(_mm256_maskload_ps(c + om[2] + vp[1].lo, lo1), _mm256_maskload_ps(c + om[2] + vp[1].hi, hi1)), c2_1);
    _mm256_maskstore_ps(c + om[2] + vp[1].lo, lo1, c2_1);
    _mm256_maskstore_ps(c + om[2] + vp[1].hi, hi1, c2_1);
    if (rows == 3) return;
    if (!store) c3_0 = _mm256_add_ps(_mm256_add_ps(_mm256_maskload_ps(c + om[3] + vp[0].lo, lo0), _mm256_maskload_ps(c + om[3] + vp[0].hi, hi0)), c3_0);
    _mm256_maskstore_ps(c + om[3] + vp[0].lo, lo0, c3_0);
    _mm256_maskstore_ps(c + om[3] + vp[0].hi, hi0, c3_0);
    if (!store) c3_1 = _mm256_add_ps(_mm256_add_ps(_mm256_maskload_ps(c + om[3] + vp[1].lo, lo1), _mm256_maskload_ps(c + om[3] + vp[1].hi, hi1)), c3_1);
    _mm256_maskstore_ps(c + om[3] + vp[1].lo, lo1, c3_1);
    _mm256_maskstore_ps(c + om[3] + vp[1].hi, hi1, c3_1);
    return;
  }
  if (rows == 4 && cols == 16) {
    if (!store) {
      c0_0 = _mm256_add_ps(_mm256_loadu_ps(c + om[0] + vp[0].lo), c0_0);
      c0_1 = _mm256_add_ps(_mm256_loadu_ps(c + om[0] + vp[1].lo), c0_1);
      c1_0 = _mm256_add_ps(_mm256_loadu_ps(c + om[1] + vp[0].lo), c1_0);
      c1_1 = _mm256_add_ps(_mm256_loadu_ps(c + om[1] + vp[1].lo), c1_1);
      c2_0 = _mm256_add_ps(_mm256_loadu_ps(c + om[2] + vp[0].lo), c2_0);
      c2_1 = _mm256_add_ps(_mm256_loadu_ps(c + om[2] + vp[1].lo), c2_1);
      c3_0 = _mm256_add_ps(_mm256_loadu_ps(c + om[3] + vp[0].lo), c3_0);
      c3_1 = _mm256_add_ps(_mm256_loadu_ps(c + om[3] + vp[1].lo), c3_1);
    }
    _mm256_storeu_ps(c + om[0] + vp[0].lo, c0_0);
    _mm256_storeu_ps(c + om[0] + vp[1].lo, c0_1);
    _mm256_storeu_ps(c + om[1] + vp[0].lo, c1_0);
    _mm256_storeu_ps(c + om[1] + vp[1].lo, c1_1);
    _mm256_storeu_ps(c + om[2] + vp[0].lo, c2_0);
    _mm256_storeu_ps(c + om[2] + vp[1].lo, c2_1);
    _mm256_storeu_ps(c + om[3] + vp[0].lo, c3_0);
    _mm256_storeu_ps(c + om[3] + vp[1].lo, c3_1);
    return;
  }
  const __m256i m0 = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_edge_lanes(cols, 0, 8))), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  const __m256i m1 = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_edge_lanes(cols, 8, 8))), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  _mm256_maskstore_ps(c + om[0] + vp[0].lo, m0, store ? c0_0 : _mm256_add_ps(_mm256_maskload_ps(c + om[0] + vp[0].lo, m0), c0_0));
  _mm256_maskstore_ps(c + om[0] + vp[1].lo, m1, store ? c0_1 : _mm256_add_ps(_mm256_maskload_ps(c + om[0] + vp[1].lo, m1), c0_1));
  if (rows == 1) return;
  _mm256_maskstore_ps(c + om[1] + vp[0].lo, m0, store ? c1_0 : _mm256_add_ps(_mm256_maskload_ps(c + om[1] + vp[0].lo, m0), c1_0));
  _mm256_maskstore_ps(c + om[1] + vp[1].lo, m1, store ? c1_1 : _mm256_add_ps(_mm256_maskload_ps(c + om[1] + vp[1].lo, m1), c1_1));
  if (rows == 2) return;
  _mm256_maskstore_ps(c + om[2] + vp[0].lo, m0, store ? c2_0 : _mm256_add_ps(_mm256_maskload_ps(c + om[2] + vp[0].lo, m0), c2_0));
  _mm256_maskstore_ps(c + om[2] + vp[1].lo, m1, store ? c2_1 : _mm256_add_ps(_mm256_maskload_ps(c + om[2] + vp[1].lo, m1), c2_1));
  if (rows == 3) return;
  _mm256_maskstore_ps(c + om[3] + vp[0].lo, m0, store ? c3_0 : _mm256_add_ps(_mm256_maskload_ps(c + om[3] + vp[0].lo, m0), c3_0));
  _mm256_maskstore_ps(c + om[3] + vp[1].lo, m1, store ? c3_1 : _mm256_add_ps(_mm256_maskload_ps(c + om[3] + vp[1].lo, m1), c3_1));
}

static inline void pk_ukr_gemm_f32_avx2_6x16_pps_4x1(int64_t kb, const float *restrict a, int64_t lda,
    const float *restrict b, int64_t ldb, float *restrict c, const int64_t *restrict om, const pk_vector_place *restrict vp, int split, int64_t rows, int64_t cols, int store) {
  (void)lda;
  (void)ldb;
  __m256 c0_0 = _mm256_setzero_ps();
  __m256 c1_0 = _mm256_setzero_ps();
  __m256 c2_0 = _mm256_setzero_ps();
  __m256 c3_0 = _mm256_setzero_ps();
  __builtin_prefetch(c + om[0] + vp[0].lo, 1, 3), __builtin_prefetch(c + om[0] + vp[0].hi + 7, 1, 3);
  __builtin_prefetch(c + om[pk_min64(1, rows - 1)] + vp[0].lo, 1, 3), __builtin_prefetch(c + om[pk_min64(1, rows - 1)] + vp[0].hi + 7, 1, 3);
  __builtin_prefetch(c + om[pk_min64(2, rows - 1)] + vp[0].lo, 1, 3), __builtin_prefetch(c + om[pk_min64(2, rows - 1)] + vp[0].hi + 7, 1, 3);
  __builtin_prefetch(c + om[pk_min64(3, rows - 1)] + vp[0].lo, 1, 3), __builtin_prefetch(c + om[pk_min64(3, rows - 1)] + vp[0].hi + 7, 1, 3);
#pragma GCC unroll 4
  for (int64_t p = 0; p < kb; p++) {
    const __m256 b0 = _mm256_load_ps(b + 0);
    const __m256 a0v = _mm256_broadcast_ss(a + 0);
    c0_0 = _mm256_fmadd_ps(a0v, b0, c0_0);
    const __m256 a1v = _mm256_broadcast_ss(a + 1);
    c1_0 = _mm256_fmadd_ps(a1v, b0, c1_0);
    const __m256 a2v = _mm256_broadcast_ss(a + 2);
    c2_0 = _mm256_fmadd_ps(a2v, b0, c2_0);
    const __m256 a3v = _mm256_broadcast_ss(a + 3);
    c3_0 = _mm256_fmadd_ps(a3v, b0, c3_0);
    a += 6;
    b += 16;
  }
  __asm__("" : "+r"(om), "+r"(vp));
  (void)split;
  if (rows == 4 && cols == 8) {
    if (!store) {
      c0_0 = _mm256_add_ps(_mm256_loadu_ps(c + om[0] + vp[0].lo), c0_0);
      c1_0 = _mm256_add_ps(_mm256_loadu_ps(c + om[1] + vp[0].lo), c1_0);
      c2_0 = _mm256_add_ps(_mm256_loadu_ps(c + om[2] + vp[0].lo), c2_0);
      c3_0 = _mm256_add_ps(_mm256_loadu_ps(c + om[3] + vp[0].lo), c3_0);
    }
    _mm256_storeu_ps(c + om[0] + vp[0].lo, c0_0);
    _mm256_storeu_ps(c + om[1] + vp[0].lo, c1_0);
    _mm256_storeu_ps(c + om[2] + vp[0].lo, c2_0);
    _mm256_storeu_ps(c + om[3] + vp[0].lo, c3_0);
    return;
  }
  const __m256i m0 = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_edge_lanes(cols, 0, 8))), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  _mm256_maskstore_ps(c + om[0] + vp[0].lo, m0, store ? c0_0 : _mm256_add_ps(_mm256_maskload_ps(c + om[0] + vp[0].lo, m0), c0_0));
  if (rows == 1) return;
  _mm256_maskstore_ps(c + om[1] + vp[0].lo, m0, store ? c1_0 : _mm256_add_ps(_mm256_maskload_ps(c + om[1] + vp[0].lo, m0), c1_0));
  if (rows == 2) return;
  _mm256_maskstore_ps(c + om[2] + vp[0].lo, m0, store ? c2_0 : _mm256_add_ps(_mm256_maskload_ps(c + om[2] + vp[0].lo, m0), c2_0));
  if (rows == 3) return;
  _mm256_maskstore_ps(c + om[3] + vp[0].lo, m0, store ? c3_0 : _mm256_add_ps(_mm256_maskload_ps(c + om[3] + vp[0].lo, m0), c3_0));
}

static inline void pk_ukr_gemm_f32_avx2_6x16_pps_2x2(int64_t kb, const float *restrict a, int64_t lda,
    const float *restrict b, int64_t ldb, float *restrict c, const int64_t *restrict om, const pk_vector_place *restrict vp, int split, int64_t rows, int64_t cols, int store) {
  (void)lda;
  (void)ldb;
  __m256 c0_0 = _mm256_setzero_ps(), c0_1 = _mm256_setzero_ps();
  __m256 c1_0 = _mm256_setzero_ps(), c1_1 = _mm256_setzero_ps();
  __m256 c0_0_1 = _mm256_setzero_ps(), c0_1_1 = _mm256_setzero_ps();
  __m256 c1_0_1 = _mm256_setzero_ps(), c1_1_1 = _mm256_setzero_ps();
  __builtin_prefetch(c + om[0] + vp[0].lo, 1, 3), __builtin_prefetch(c + om[0] + vp[0].hi + 7, 1, 3), __builtin_prefetch(c + om[0] + vp[1].lo, 1, 3), __builtin_prefetch(c + om[0] + vp[1].hi + 7, 1, 3);
  __builtin_prefetch(c + om[pk_min64(1, rows - 1)] + vp[0].lo, 1, 3), __builtin_prefetch(c + om[pk_min64(1, rows - 1)] + vp[0].hi + 7, 1, 3), __builtin_prefetch(c + om[pk_min64(1, rows - 1)] + vp[1].lo, 1, 3), __builtin_prefetch(c + om[pk_min64(1, rows - 1)] + vp[1].hi + 7, 1, 3);
  int64_t p = 0;
  for (; p + 2 <= kb; p += 2) {
    const __m256 b0 = _mm256_load_ps(b + 0);
    const __m256 b1 = _mm256_load_ps(b + 8);
    const __m256 a0v = _mm256_broadcast_ss(a + 0);
    c0_0 = _mm256_fmadd_ps(a0v, b0, c0_0);
    c0_1 = _mm256_fmadd_ps(a0v, b1, c0_1);
    const __m256 a1v = _mm256_broadcast_ss(a + 1);
    c1_0 = _mm256_fmadd_ps(a1v, b0, c1_0);
    c1_1 = _mm256_fmadd_ps(a1v, b1, c1_1);
    const __m256 b0_1 = _mm256_load_ps(b + 16);
    const __m256 b1_1 = _mm256_load_ps(b + 24);
    const __m256 a0v_1 = _mm256_broadcast_ss(a + 6);
    c0_0_1 = _mm256_fmadd_ps(a0v_1, b0_1, c0_0_1);
    c0_1_1 = _mm256_fmadd_ps(a0v_1, b1_1, c0_1_1);
    const __m256 a1v_1 = _mm256_broadcast_ss(a + 7);
    c1_0_1 = _mm256_fmadd_ps(a1v_1, b0_1, c1_0_1);
    c1_1_1 = _mm256_fmadd_ps(a1v_1, b1_1, c1_1_1);
    a += 12;
    b += 32;
  }
  for (; p < kb; p++) {
    const __m256 b0 = _mm256_load_ps(b + 0);
    const __m256 b1 = _mm256_load_ps(b + 8);
    const __m256 a0v = _mm256_broadcast_ss(a + 0);
    c0_0 = _mm256_fmadd_ps(a0v, b0, c0_0);
    c0_1 = _mm256_fmadd_ps(a0v, b1, c0_1);
    const __m256 a1v = _mm256_broadcast_ss(a + 1);
    c1_0 = _mm256_fmadd_ps(a1v, b0, c1_0);
    c1_1 = _mm256_fmadd_ps(a1v, b1, c1_1);
    a += 6;
    b += 16;
  }
  c0_0 = _mm256_add_ps(c0_0, c0_0_1);
  c0_1 = _mm256_add_ps(c0_1, c0_1_1);
  c1_0 = _mm256_add_ps(c1_0, c1_0_1);
  c1_1 = _mm256_add_ps(c1_1, c1_1_1);
  __asm__("" : "+r"(om), "+r"(vp));
  if (split) {
    const __m256i lo0 = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(vp[0].split)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)), hi0 = _mm256_cmpgt_epi32(_mm256_setr_epi32(1, 2, 3, 4, 5, 6, 7, 8), _mm256_set1_epi32((int)(vp[0].split)));
    const __m256i lo1 = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(vp[1].split)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)), hi1 = _mm256_cmpgt_epi32(_mm256_setr_epi32(1, 2, 3, 4, 5, 6, 7, 8), _mm256_set1_epi32((int)(vp[1].split)));
    if (!store) c0_0 = _mm256_add_ps(_mm256_add_ps(_mm256_maskload_ps(c + om[0] + vp[0].lo, lo0), _mm256_maskload_ps(c + om[0] + vp[0].hi, hi0)), c0_0);
    _mm256_maskstore_ps(c + om[0] + vp[0].lo, lo0, c0_0);
    _mm256_maskstore_ps(c + om[0] + vp[0].hi, hi0, c0_0);
    if (!store) c0_1 = _mm256_add_ps(_mm256_add_ps(_mm256_maskload_ps(c + om[0] + vp[1].lo, lo1), _mm256_maskload_ps(c + om[0] + vp[1].hi, hi1)), c0_1);
    _mm256_maskstore_ps(c + om[0] + vp[1].lo, lo1, c0_1);
    _mm256_maskstore_ps(c + om[0] + vp[1].hi, hi1, c0_1);
    if (rows == 1) return;
    if (!store) c1_0 = _mm256_add_ps(_mm256_add_ps(_mm256_maskload_ps(c + om[1] + vp[0].lo, lo0), _mm256_maskload_ps(c + om[1] + vp[0].hi, hi0)), c1_0);
    _mm256_maskstore_ps(c + om[1] + vp[0].lo, lo0, c1_0);
    _mm256_maskstore_ps(c + om[1] + vp[0].hi, hi0, c1_0);
    if (!store) c1_1 = _mm256_add_ps(_mm256_add_ps(_mm256_maskload_ps(c + om[1] + vp[1].lo, lo1), _mm256_maskload_ps(c + om[1] + vp[1].hi, hi1)), c1_1);
    _mm256_maskstore_ps(c + om[1] + vp[1].lo, lo1, c1_1);
    _mm256_maskstore_ps(c + om[1] + vp[1].hi, hi1, c1_1);
    return;
  }
  if (rows == 2 && cols == 16) {
    if (!store) {
      c0_0 = _mm256_add_ps(_mm256_loadu_ps(c + om[0] + vp[0].lo), c0_0);
      c0_1 = _mm256_add_ps(_mm256_loadu_ps(c + om[0] + vp[1].lo), c0_1);
      c1_0 = _mm256_add_ps(_mm256_loadu_ps(c + om[1] + vp[0].lo), c1_0);
      c1_1 = _mm256_add_ps(_mm256_loadu_ps(c + om[1] + vp[1].lo), c1_1);
    }
    _mm256_storeu_ps(c + om[0] + vp[0].lo, c0_0);
    _mm256_storeu_ps(c + om[0] + vp[1].lo, c0_1);
    _mm256_storeu_ps(c + om[1] + vp[0].lo, c1_0);
    _mm256_storeu_ps(c + om[1] + vp[1].lo, c1_1);
    return;
  }
  const __m256i m0 = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_edge_lanes(cols, 0, 8))), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  const __m256i m1 = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_edge_lanes(cols, 8, 8))), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  _mm256_maskstore_ps(c + om[0] + vp[0].lo, m0, store ? c0_0 : _mm256_add_ps(_mm256_maskload_ps(c + om[0] + vp[0].lo, m0), c0_0));
  _mm256_maskstore_ps(c + om[0] + vp[1].lo, m1, store ? c0_1 : _mm256_add_ps(_mm256_maskload_ps(c + om[0] + vp[1].lo, m1), c0_1));
  if (rows == 1) return;
  _mm256_maskstore_ps(c + om[1] + vp[0].lo, m0, store ? c1_0 : _mm256_add_ps(_mm256_maskload_ps(c + om[1] + vp[0].lo, m0), c1_0));
  _mm256_maskstore_ps(c + om[1] + vp[1].lo, m1, store ? c1_1 : _mm256_add_ps(_mm256_maskload_ps(c + om[1] + vp[1].lo, m1), c1_1));
}

static inline void pk_ukr_gemm_f32_avx2_6x16_pps_2x1(int64_t kb, const float *restrict a, int64_t lda,
    const float *restrict b, int64_t ldb, float *restrict c, const int64_t *restrict om, const pk_vector_place *restrict vp, int split, int64_t rows, int64_t cols, int store) {
  (void)lda;
  (void)ldb;
  __m256 c0_0 = _mm256_setzero_ps();
  __m256 c1_0 = _mm256_setzero_ps();
  __m256 c0_0_1 = _mm256_setzero_ps();
  __m256 c1_0_1 = _mm256_setzero_ps();
  __m256 c0_0_2 = _mm256_setzero_ps();
  __m256 c1_0_2 = _mm256_setzero_ps();
  __m256 c0_0_3 = _mm256_setzero_ps();
  __m256 c1_0_3 = _mm256_setzero_ps();
  __builtin_prefetch(c + om[0] + vp[0].lo, 1, 3), __builtin_prefetch(c + om[0] + vp[0].hi + 7, 1, 3);
  __builtin_prefetch(c + om[pk_min64(1, rows - 1)] + vp[0].lo, 1, 3), __builtin_prefetch(c + om[pk_min64(1, rows - 1)] + vp[0].hi + 7, 1, 3);
  int64_t p = 0;
  for (; p + 4 <= kb; p += 4) {
    const __m256 b0 = _mm256_load_ps(b + 0);
    const __m256 a0v = _mm256_broadcast_ss(a + 0);
    c0_0 = _mm256_fmadd_ps(a0v, b0, c0_0);
    const __m256 a1v = _mm256_broadcast_ss(a + 1);
    c1_0 = _mm256_fmadd_ps(a1v, b0, c1_0);
    const __m256 b0_1 = _mm256_load_ps(b + 16);
    const __m256 a0v_1 = _mm256_broadcast_ss(a + 6);
    c0_0_1 = _mm256_fmadd_ps(a0v_1, b0_1, c0_0_1);
    const __m256 a1v_1 = _mm256_broadcast_ss(a + 7);
    c1_0_1 = _mm256_fmadd_ps(a1v_1, b0_1, c1_0_1);
    const __m256 b0_2 = _mm256_load_ps(b + 32);
    const __m256 a0v_2 = _mm256_broadcast_ss(a + 12);
    c0_0_2 = _mm256_fmadd_ps(a0v_2, b0_2, c0_0_2);
    const __m256 a1v_2 = _mm256_broadcast_ss(a + 13);
    c1_0_2 = _mm256_fmadd_ps(a1v_2, b0_2, c1_0_2);
    const __m256 b0_3 = _mm256_load_ps(b + 48);
    const __m256 a0v_3 = _mm256_broadcast_ss(a + 18);
    c0_0_3 = _mm256_fmadd_ps(a0v_3, b0_3, c0_0_3);
    const __m256 a1v_3 = _mm256_broadcast_ss(a + 19);
    c1_0_3 = _mm256_fmadd_ps(a1v_3, b0_3, c1_0_3);
    a += 24;
    b += 64;
  }
  for (; p < kb; p++) {
    const __m256 b0 = _mm256_load_ps(b + 0);
    const __m256 a0v = _mm256_broadcast_ss(a + 0);
    c0_0 = _mm256_fmadd_ps(a0v, b0, c0_0);
    const __m256 a1v = _mm256_broadcast_ss(a + 1);
    c1_0 = _mm256_fmadd_ps(a1v, b0, c1_0);
    a += 6;
    b += 16;
  }
  c0_0 = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(c0_0, c0_0_1), c0_0_2), c0_0_3);
  c1_0 = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(c1_0, c1_0_1), c1_0_2), c1_0_3);
  __asm__("" : "+r"(om), "+r"(vp));
  (void)split;
  if (rows == 2 && cols == 8) {
    if (!store) {
      c0_0 = _mm256_add_ps(_mm256_loadu_ps(c + om[0] + vp[0].lo), c0_0);
      c1_0 = _mm256_add_ps(_mm256_loadu_ps(c + om[1] + vp[0].lo), c1_0);
    }
    _mm256_storeu_ps(c + om[0] + vp[0].lo, c0_0);
    _mm256_storeu_ps(c + om[1] + vp[0].lo, c1_0);
    return;
  }
  const __m256i m0 = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_edge_lanes(cols, 0, 8))), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  _mm256_maskstore_ps(c + om[0] + vp[0].lo, m0, store ? c0_0 : _mm256_add_ps(_mm256_maskload_ps(c + om[0] + vp[0].lo, m0), c0_0));
  if (rows == 1) return;
  _mm256_maskstore_ps(c + om[1] + vp[0].lo, m0, store ? c1_0 : _mm256_add_ps(_mm256_maskload_ps(c + om[1] + vp[0].lo, m0), c1_0));
}

static inline void pk_ukr_gemm_f32_avx2_6x16_pps_1x2(int64_t kb, const float *restrict a, int64_t lda,
    const float *restrict b, int64_t ldb, float *restrict c, const int64_t *restrict om, const pk_vector_place *restrict vp, int split, int64_t rows, int64_t cols, int store) {
  (void)lda;
  (void)ldb;
  __m256 c0_0 = _mm256_setzero_ps(), c0_1 = _mm256_setzero_ps();
  __m256 c0_0_1 = _mm256_setzero_ps(), c0_1_1 = _mm256_setzero_ps();
  __m256 c0_0_2 = _mm256_setzero_ps(), c0_1_2 = _mm256_setzero_ps();
  __m256 c0_0_3 = _mm256_setzero_ps(), c0_1_3 = _mm256_setzero_ps();
  __builtin_prefetch(c + om[0] + vp[0].lo, 1, 3), __builtin_prefetch(c + om[0] + vp[0].hi + 7, 1, 3), __builtin_prefetch(c + om[0] + vp[1].lo, 1, 3), __builtin_prefetch(c + om[0] + vp[1].hi + 7, 1, 3);
  const int64_t pk_seg = kb / 4;
  int64_t p = 0;
  for (; p < pk_seg; p++) {
    const __m256 b0 = _mm256_load_ps(b + 0);
    const __m256 b1 = _mm256_load_ps(b + 8);
    const __m256 a0v = _mm256_broadcast_ss(a + 0);
    c0_0 = _mm256_fmadd_ps(a0v, b0, c0_0);
    c0_1 = _mm256_fmadd_ps(a0v, b1, c0_1);
    const __m256 b0_1 = _mm256_load_ps(b + (1*pk_seg)*16);
    const __m256 b1_1 = _mm256_load_ps(b + (1*pk_seg)*16 + 8);
    const __m256 a0v_1 = _mm256_broadcast_ss(a + (1*pk_seg)*6);
    c0_0_1 = _mm256_fmadd_ps(a0v_1, b0_1, c0_0_1);
    c0_1_1 = _mm256_fmadd_ps(a0v_1, b1_1, c0_1_1);
    const __m256 b0_2 = _mm256_load_ps(b + (2*pk_seg)*16);
    const __m256 b1_2 = _mm256_load_ps(b + (2*pk_seg)*16 + 8);
    const __m256 a0v_2 = _mm256_broadcast_ss(a + (2*pk_seg)*6);
    c0_0_2 = _mm256_fmadd_ps(a0v_2, b0_2, c0_0_2);
    c0_1_2 = _mm256_fmadd_ps(a0v_2, b1_2, c0_1_2);
    const __m256 b0_3 = _mm256_load_ps(b + (3*pk_seg)*16);
    const __m256 b1_3 = _mm256_load_ps(b + (3*pk_seg)*16 + 8);
    const __m256 a0v_3 = _mm256_broadcast_ss(a + (3*pk_seg)*6);
    c0_0_3 = _mm256_fmadd_ps(a0v_3, b0_3, c0_0_3);
    c0_1_3 = _mm256_fmadd_ps(a0v_3, b1_3, c0_1_3);
    a += 6;
    b += 16;
  }
  a += (3*pk_seg)*6;
  b += (3*pk_seg)*16;
  for (p = 4*pk_seg; p < kb; p++) {
    const __m256 b0 = _mm256_load_ps(b + 0);
    const __m256 b1 = _mm256_load_ps(b + 8);
    const __m256 a0v = _mm256_broadcast_ss(a + 0);
    c0_0 = _mm256_fmadd_ps(a0v, b0, c0_0);
    c0_1 = _mm256_fmadd_ps(a0v, b1, c0_1);
    a += 6;
    b += 16;
  }
  c0_0 = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(c0_0, c0_0_1), c0_0_2), c0_0_3);
  c0_1 = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(c0_1, c0_1_1), c0_1_2), c0_1_3);
  __asm__("" : "+r"(om), "+r"(vp));
  if (split) {
    const __m256i lo0 = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(vp[0].split)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)), hi0 = _mm256_cmpgt_epi32(_mm256_setr_epi32(1, 2, 3, 4, 5, 6, 7, 8), _mm256_set1_epi32((int)(vp[0].split)));
    const __m256i lo1 = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(vp[1].split)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)), hi1 = _mm256_cmpgt_epi32(_mm256_setr_epi32(1, 2, 3, 4, 5, 6, 7, 8), _mm256_set1_epi32((int)(vp[1].split)));
    if (!store) c0_0 = _mm256_add_ps(_mm256_add_ps(_mm256_maskload_ps(c + om[0] + vp[0].lo, lo0), _mm256_maskload_ps(c + om[0] + vp[0].hi, hi0)), c0_0);
    _mm256_maskstore_ps(c + om[0] + vp[0].lo, lo0, c0_0);
    _mm256_maskstore_ps(c + om[0] + vp[0].hi, hi0, c0_0);
    if (!store) c0_1 = _mm256_add_ps(_mm256_add_ps(_mm256_maskload_ps(c + om[0] + vp[1].lo, lo1), _mm256_maskload_ps(c + om[0] + vp[1].hi, hi1)), c0_1);
    _mm256_maskstore_ps(c + om[0] + vp[1].lo, lo1, c0_1);
    _mm256_maskstore_ps(c + om[0] + vp[1].hi, hi1, c0_1);
    return;
  }
  if (rows == 1 && cols == 16) {
    if (!store) {
      c0_0 = _mm256_add_ps(_mm256_loadu_ps(c + om[0] + vp[0].lo), c0_0);
      c0_1 = _mm256_add_ps(_mm256_loadu_ps(c + om[0] + vp[1].lo), c0_1);
    }
    _mm256_storeu_ps(c + om[0] + vp[0].lo, c0_0);
    _mm256_storeu_ps(c + om[0] + vp[1].lo, c0_1);
    return;
  }
  const __m256i m0 = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_edge_lanes(cols, 0, 8))), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  const __m256i m1 = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_edge_lanes(cols, 8, 8))), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  _mm256_maskstore_ps(c + om[0] + vp[0].lo, m0, store ? c0_0 : _mm256_add_ps(_mm256_maskload_ps(c + om[0] + vp[0].lo, m0), c0_0));
  _mm256_maskstore_ps(c + om[0] + vp[1].lo, m1, store ? c0_1 : _mm256_add_ps(_mm256_maskload_ps(c + om[0] + vp[1].lo, m1), c0_1));
}

static inline void pk_ukr_gemm_f32_avx2_6x16_pps_1x1(int64_t kb, const float *restrict a, int64_t lda,
    const float *restrict b, int64_t ldb, float *restrict c, const int64_t *restrict om, const pk_vector_place *restrict vp, int split, int64_t rows, int64_t cols, int store) {
  (void)lda;
  (void)ldb;
  __m256 c0_0 = _mm256_setzero_ps();
  __m256 c0_0_1 = _mm256_setzero_ps();
  __m256 c0_0_2 = _mm256_setzero_ps();
  __m256 c0_0_3 = _mm256_setzero_ps();
  __builtin_prefetch(c + om[0] + vp[0].lo, 1, 3), __builtin_prefetch(c + om[0] + vp[0].hi + 7, 1, 3);
  const int64_t pk_seg = kb / 4;
  int64_t p = 0;
  for (; p < pk_seg; p++) {
    const __m256 b0 = _mm256_load_ps(b + 0);
    const __m256 a0v = _mm256_broadcast_ss(a + 0);
    c0_0 = _mm256_fmadd_ps(a0v, b0, c0_0);
    const __m256 b0_1 = _mm256_load_ps(b + (1*pk_seg)*16);
    const __m256 a0v_1 = _mm256_broadcast_ss(a + (1*pk_seg)*6);
    c0_0_1 = _mm256_fmadd_ps(a0v_1, b0_1, c0_0_1);
    const __m256 b0_2 = _mm256_load_ps(b + (2*pk_seg)*16);
    const __m256 a0v_2 = _mm256_broadcast_ss(a + (2*pk_seg)*6);
    c0_0_2 = _mm256_fmadd_ps(a0v_2, b0_2, c0_0_2);
    const __m256 b0_3 = _mm256_load_ps(b + (3*pk_seg)*16);
    const __m256 a0v_3 = _mm256_broadcast_ss(a + (3*pk_seg)*6);
    c0_0_3 = _mm256_fmadd_ps(a0v_3, b0_3, c0_0_3);
    a += 6;
    b += 16;
  }
  a += (3*pk_seg)*6;
  b += (3*pk_seg)*16;
  for (p = 4*pk_seg; p < kb; p++) {
    const __m256 b0 = _mm256_load_ps(b + 0);
    const __m256 a0v = _mm256_broadcast_ss(a + 0);
    c0_0 = _mm256_fmadd_ps(a0v, b0, c0_0);
    a += 6;
    b += 16;
  }
  c0_0 = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(c0_0, c0_0_1), c0_0_2), c0_0_3);
  __asm__("" : "+r"(om), "+r"(vp));
  (void)split;
  if (rows == 1 && cols == 8) {
    if (!store) {
      c0_0 = _mm256_add_ps(_mm256_loadu_ps(c + om[0] + vp[0].lo), c0_0);
    }
    _mm256_storeu_ps(c + om[0] + vp[0].lo, c0_0);
    return;
  }
  const __m256i m0 = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_edge_lanes(cols, 0, 8))), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  _mm256_maskstore_ps(c + om[0] + vp[0].lo, m0, store ? c0_0 : _mm256_add_ps(_mm256_maskload_ps(c + om[0] + vp[0].lo, m0), c0_0));
}

PK_SHARED void pk_ukr_gemm_f32_avx2_6x16_pps(int64_t kb, const float *restrict a, int64_t lda, const float *restrict b, int64_t ldb,
    float *restrict c, const int64_t *restrict om, const pk_vector_place *restrict vp, int split, int64_t rows, int64_t cols, int store) {
  if (rows > 4) {
    if (cols > 8) pk_ukr_gemm_f32_avx2_6x16_pps_6x2(kb, a, lda, b, ldb, c, om, vp, split, rows, cols, store);
    else pk_ukr_gemm_f32_avx2_6x16_pps_6x1(kb, a, lda, b, ldb, c, om, vp, split, rows, cols, store);
  } else if (rows > 2) {
    if (cols > 8) pk_ukr_gemm_f32_avx2_6x16_pps_4x2(kb, a, lda, b, ldb, c, om, vp, split, rows, cols, store);
    else pk_ukr_gemm_f32_avx2_6x16_pps_4x1(kb, a, lda, b, ldb, c, om, vp, split, rows, cols, store);
  } else if (rows > 1) {
    if (cols > 8) pk_ukr_gemm_f32_avx2_6x16_pps_2x2(kb, a, lda, b, ldb, c, om, vp, split, rows, cols, store);
    else pk_ukr_gemm_f32_avx2_6x16_pps_2x1(kb, a, lda, b, ldb, c, om, vp, split, rows, cols, store);
  } else {
    if (cols > 8) pk_ukr_gemm_f32_avx2_6x16_pps_1x2(kb, a, lda, b, ldb, c, om, vp, split, rows, cols, store);
    else pk_ukr_gemm_f32_avx2_6x16_pps_1x1(kb, a, lda, b, ldb, c, om, vp, split, rows, cols, store);
  }
}

static inline void pk_ukr_gemm_f32_avx2_6x16_pu_6x2(int64_t kb, const float *restrict a, int64_t lda,
    const float *restrict b, int64_t ldb, float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store) {
  (void)lda;
  const __m256i bm = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_edge_lanes(cols, 8, 8))), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  __m256 c0_0 = _mm256_setzero_ps(), c0_1 = _mm256_setzero_ps();
  __m256 c1_0 = _mm256_setzero_ps(), c1_1 = _mm256_setzero_ps();
  __m256 c2_0 = _mm256_setzero_ps(), c2_1 = _mm256_setzero_ps();
  __m256 c3_0 = _mm256_setzero_ps(), c3_1 = _mm256_setzero_ps();
  __m256 c4_0 = _mm256_setzero_ps(), c4_1 = _mm256_setzero_ps();
  __m256 c5_0 = _mm256_setzero_ps(), c5_1 = _mm256_setzero_ps();
  __builtin_prefetch(c + 0*ldc + 0, 1, 3), __builtin_prefetch(c + 0*ldc + 15, 1, 3);
  __builtin_prefetch(c + 1*ldc + 0, 1, 3), __builtin_prefetch(c + 1*ldc + 15, 1, 3);
  __builtin_prefetch(c + 2*ldc + 0, 1, 3), __builtin_prefetch(c + 2*ldc + 15, 1, 3);
  __builtin_prefetch(c + 3*ldc + 0, 1, 3), __builtin_prefetch(c + 3*ldc + 15, 1, 3);
  __builtin_prefetch(c + 4*ldc + 0, 1, 3), __builtin_prefetch(c + 4*ldc + 15, 1, 3);
  __builtin_prefetch(c + 5*ldc + 0, 1, 3), __builtin_prefetch(c + 5*ldc + 15, 1, 3);
#pragma GCC unroll 4
  for (int64_t p = 0; p < kb; p++) {
    const __m256 b0 = _mm256_loadu_ps(b + p*ldb + 0);
    const __m256 b1 = _mm256_maskload_ps(b + p*ldb + 8, bm);
    __builtin_prefetch(b + p*ldb + 16, 0, 3);
    const __m256 a0v = _mm256_broadcast_ss(a + 0);
    c0_0 = _mm256_fmadd_ps(a0v, b0, c0_0);
    c0_1 = _mm256_fmadd_ps(a0v, b1, c0_1);
    const __m256 a1v = _mm256_broadcast_ss(a + 1);
    c1_0 = _mm256_fmadd_ps(a1v, b0, c1_0);
    c1_1 = _mm256_fmadd_ps(a1v, b1, c1_1);
    const __m256 a2v = _mm256_broadcast_ss(a + 2);
    c2_0 = _mm256_fmadd_ps(a2v, b0, c2_0);
    c2_1 = _mm256_fmadd_ps(a2v, b1, c2_1);
    const __m256 a3v = _mm256_broadcast_ss(a + 3);
    c3_0 = _mm256_fmadd_ps(a3v, b0, c3_0);
    c3_1 = _mm256_fmadd_ps(a3v, b1, c3_1);
    const __m256 a4v = _mm256_broadcast_ss(a + 4);
    c4_0 = _mm256_fmadd_ps(a4v, b0, c4_0);
    c4_1 = _mm256_fmadd_ps(a4v, b1, c4_1);
    const __m256 a5v = _mm256_broadcast_ss(a + 5);
    c5_0 = _mm256_fmadd_ps(a5v, b0, c5_0);
    c5_1 = _mm256_fmadd_ps(a5v, b1, c5_1);
    a += 6;
  }
  if (rows == 6 && cols == 16) {
    if (!store) {
      c0_0 = _mm256_add_ps(_mm256_loadu_ps(c + 0*ldc + 0), c0_0);
      c0_1 = _mm256_add_ps(_mm256_loadu_ps(c + 0*ldc + 8), c0_1);
      c1_0 = _mm256_add_ps(_mm256_loadu_ps(c + 1*ldc + 0), c1_0);
      c1_1 = _mm256_add_ps(_mm256_loadu_ps(c + 1*ldc + 8), c1_1);
      c2_0 = _mm256_add_ps(_mm256_loadu_ps(c + 2*ldc + 0), c2_0);
      c2_1 = _mm256_add_ps(_mm256_loadu_ps(c + 2*ldc + 8), c2_1);
      c3_0 = _mm256_add_ps(_mm256_loadu_ps(c + 3*ldc + 0), c3_0);
      c3_1 = _mm256_add_ps(_mm256_loadu_ps(c + 3*ldc + 8), c3_1);
      c4_0 = _mm256_add_ps(_mm256_loadu_ps(c + 4*ldc + 0), c4_0);
      c4_1 = _mm256_add_ps(_mm256_loadu_ps(c + 4*ldc + 8), c4_1);
      c5_0 = _mm256_add_ps(_mm256_loadu_ps(c + 5*ldc + 0), c5_0);
      c5_1 = _mm256_add_ps(_mm256_loadu_ps(c + 5*ldc + 8), c5_1);
    }
    _mm256_storeu_ps(c + 0*ldc + 0, c0_0);
    _mm256_storeu_ps(c + 0*ldc + 8, c0_1);
    _mm256_storeu_ps(c + 1*ldc + 0, c1_0);
    _mm256_storeu_ps(c + 1*ldc + 8, c1_1);
    _mm256_storeu_ps(c + 2*ldc + 0, c2_0);
    _mm256_storeu_ps(c + 2*ldc + 8, c2_1);
    _mm256_storeu_ps(c + 3*ldc + 0, c3_0);
    _mm256_storeu_ps(c + 3*ldc + 8, c3_1);
    _mm256_storeu_ps(c + 4*ldc + 0, c4_0);
    _mm256_storeu_ps(c + 4*ldc + 8, c4_1);
    _mm256_storeu_ps(c + 5*ldc + 0, c5_0);
    _mm256_storeu_ps(c + 5*ldc + 8, c5_1);
    return;
  }
  const __m256i m0 = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_edge_lanes(cols, 0, 8))), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  const __m256i m1 = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_edge_lanes(cols, 8, 8))), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  _mm256_maskstore_ps(c + 0*ldc + 0, m0, store ? c0_0 : _mm256_add_ps(_mm256_maskload_ps(c + 0*ldc + 0, m0), c0_0));
  _mm256_maskstore_ps(c + 0*ldc + 8, m1, store ? c0_1 : _mm256_add_ps(_mm256_maskload_ps(c + 0*ldc + 8, m1), c0_1));
  if (rows == 1) return;
  _mm256_maskstore_ps(c + 1*ldc + 0, m0, store ? c1_0 : _mm256_add_ps(_mm256_maskload_ps(c + 1*ldc + 0, m0), c1_0));
  _mm256_maskstore_ps(c + 1*ldc + 8, m1, store ? c1_1 : _mm256_add_ps(_mm256_maskload_ps(c + 1*ldc + 8, m1), c1_1));
  if (rows == 2) return;
  _mm256_maskstore_ps(c + 2*ldc + 0, m0, store ? c2_0 : _mm256_add_ps(_mm256_maskload_ps(c + 2*ldc + 0, m0), c2_0));
  _mm256_maskstore_ps(c + 2*ldc + 8, m1, store ? c2_1 : _mm256_add_ps(_mm256_maskload_ps(c + 2*ldc + 8, m1), c2_1));
  if (rows == 3) return;
  _mm256_maskstore_ps(c + 3*ldc + 0, m0, store ? c3_0 : _mm256_add_ps(_mm256_maskload_ps(c + 3*ldc + 0, m0), c3_0));
  _mm256_maskstore_ps(c + 3*ldc + 8, m1, store ? c3_1 : _mm256_add_ps(_mm256_maskload_ps(c + 3*ldc + 8, m1), c3_1));
  if (rows == 4) return;
  _mm256_maskstore_ps(c + 4*ldc + 0, m0, store ? c4_0 : _mm256_add_ps(_mm256_maskload_ps(c + 4*ldc + 0, m0), c4_0));
  _mm256_maskstore_ps(c + 4*ldc + 8, m1, store ? c4_1 : _mm256_add_ps(_mm256_maskload_ps(c + 4*ldc + 8, m1), c4_1));
  if (rows == 5) return;
  _mm256_maskstore_ps(c + 5*ldc + 0, m0, store ? c5_0 : _mm256_add_ps(_mm256_maskload_ps(c + 5*ldc + 0, m0), c5_0));
  _mm256_maskstore_ps(c + 5*ldc + 8, m1, store ? c5_1 : _mm256_add_ps(_mm256_maskload_ps(c + 5*ldc + 8, m1), c5_1));
}

static inline void pk_ukr_gemm_f32_avx2_6x16_pu_6x1(int64_t kb, const float *restrict a, int64_t lda,
    const float *restrict b, int64_t ldb, float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store) {
  (void)lda;
  const __m256i bm = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_edge_lanes(cols, 0, 8))), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  __m256 c0_0 = _mm256_setzero_ps();
  __m256 c1_0 = _mm256_setzero_ps();
  __m256 c2_0 = _mm256_setzero_ps();
  __m256 c3_0 = _mm256_setzero_ps();
  __m256 c4_0 = _mm256_setzero_ps();
  __m256 c5_0 = _mm256_setzero_ps();
  __builtin_prefetch(c + 0*ldc + 0, 1, 3), __builtin_prefetch(c + 0*ldc + 7, 1, 3);
  __builtin_prefetch(c + 1*ldc + 0, 1, 3), __builtin_prefetch(c + 1*ldc + 7, 1, 3);
  __builtin_prefetch(c + 2*ldc + 0, 1, 3), __builtin_prefetch(c + 2*ldc + 7, 1, 3);
  __builtin_prefetch(c + 3*ldc + 0, 1, 3), __builtin_prefetch(c + 3*ldc + 7, 1, 3);
  __builtin_prefetch(c + 4*ldc + 0, 1, 3), __builtin_prefetch(c + 4*ldc + 7, 1, 3);
  __builtin_prefetch(c + 5*ldc + 0, 1, 3), __builtin_prefetch(c + 5*ldc + 7, 1, 3);
#pragma GCC unroll 4
  for (int64_t p = 0; p < kb; p++) {
    const __m256 b0 = _mm256_maskload_ps(b + p*ldb + 0, bm);
    const __m256 a0v = _mm256_broadcast_ss(a + 0);
    c0_0 = _mm256_fmadd_ps(a0v, b0, c0_0);
    const __m256 a1v = _mm256_broadcast_ss(a + 1);
    c1_0 = _mm256_fmadd_ps(a1v, b0, c1_0);
    const __m256 a2v = _mm256_broadcast_ss(a + 2);
    c2_0 = _mm256_fmadd_ps(a2v, b0, c2_0);
    const __m256 a3v = _mm256_broadcast_ss(a + 3);
    c3_0 = _mm256_fmadd_ps(a3v, b0, c3_0);
    const __m256 a4v = _mm256_broadcast_ss(a + 4);
    c4_0 = _mm256_fmadd_ps(a4v, b0, c4_0);
    const __m256 a5v = _mm256_broadcast_ss(a + 5);
    c5_0 = _mm256_fmadd_ps(a5v, b0, c5_0);
    a += 6;
  }
  if (rows == 6 && cols == 8) {
    if (!store) {
      c0_0 = _mm256_add_ps(_mm256_loadu_ps(c + 0*ldc + 0), c0_0);
      c1_0 = _mm256_add_ps(_mm256_loadu_ps(c + 1*ldc + 0), c1_0);
      c2_0 = _mm256_add_ps(_mm256_loadu_ps(c + 2*ldc + 0), c2_0);
      c3_0 = _mm256_add_ps(_mm256_loadu_ps(c + 3*ldc + 0), c3_0);
      c4_0 = _mm256_add_ps(_mm256_loadu_ps(c + 4*ldc + 0), c4_0);
      c5_0 = _mm256_add_ps(_mm256_loadu_ps(c + 5*ldc + 0), c5_0);
    }
    _mm256_storeu_ps(c + 0*ldc + 0, c0_0);
    _mm256_storeu_ps(c + 1*ldc + 0, c1_0);
    _mm256_storeu_ps(c + 2*ldc + 0, c2_0);
    _mm256_storeu_ps(c + 3*ldc + 0, c3_0);
    _mm256_storeu_ps(c + 4*ldc + 0, c4_0);
    _mm256_storeu_ps(c + 5*ldc + 0, c5_0);
    return;
  }
  const __m256i m0 = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_edge_lanes(cols, 0, 8))), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  _mm256_maskstore_ps(c + 0*ldc + 0, m0, store ? c0_0 : _mm256_add_ps(_mm256_maskload_ps(c + 0*ldc + 0, m0), c0_0));
  if (rows == 1) return;
  _mm256_maskstore_ps(c + 1*ldc + 0, m0, store ? c1_0 : _mm256_add_ps(_mm256_maskload_ps(c + 1*ldc + 0, m0), c1_0));
  if (rows == 2) return;
  _mm256_maskstore_ps(c + 2*ldc + 0, m0, store ? c2_0 : _mm256_add_ps(_mm256_maskload_ps(c + 2*ldc + 0, m0), c2_0));
  if (rows == 3) return;
  _mm256_maskstore_ps(c + 3*ldc + 0, m0, store ? c3_0 : _mm256_add_ps(_mm256_maskload_ps(c + 3*ldc + 0, m0), c3_0));
  if (rows == 4) return;
  _mm256_maskstore_ps(c + 4*ldc + 0, m0, store ? c4_0 : _mm256_add_ps(_mm256_maskload_ps(c + 4*ldc + 0, m0), c4_0));
  if (rows == 5) return;
  _mm256_maskstore_ps(c + 5*ldc + 0, m0, store ? c5_0 : _mm256_add_ps(_mm256_maskload_ps(c + 5*ldc + 0, m0), c5_0));
}

static inline void pk_ukr_gemm_f32_avx2_6x16_pu_4x2(int64_t kb, const float *restrict a, int64_t lda,
    const float *restrict b, int64_t ldb, float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store) {
  (void)lda;
  const __m256i bm = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_edge_lanes(cols, 8, 8))), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  __m256 c0_0 = _mm256_setzero_ps(), c0_1 = _mm256_setzero_ps();
  __m256 c1_0 = _mm256_setzero_ps(), c1_1 = _mm256_setzero_ps();
  __m256 c2_0 = _mm256_setzero_ps(), c2_1 = _mm256_setzero_ps();
  __m256 c3_0 = _mm256_setzero_ps(), c3_1 = _mm256_setzero_ps();
  __builtin_prefetch(c + 0*ldc + 0, 1, 3), __builtin_prefetch(c + 0*ldc + 15, 1, 3);
  __builtin_prefetch(c + 1*ldc + 0, 1, 3), __builtin_prefetch(c + 1*ldc + 15, 1, 3);
  __builtin_prefetch(c + 2*ldc + 0, 1, 3), __builtin_prefetch(c + 2*ldc + 15, 1, 3);
  __builtin_prefetch(c + 3*ldc + 0, 1, 3), __builtin_prefetch(c + 3*ldc + 15, 1, 3);
#pragma GCC unroll 4
  for (int64_t p = 0; p < kb; p++) {
    const __m256 b0 = _mm256_loadu_ps(b + p*ldb + 0);
    const __m256 b1 = _mm256_maskload_ps(b + p*ldb + 8, bm);
    __builtin_prefetch(b + p*ldb + 16, 0, 3);
    const __m256 a0v = _mm256_broadcast_ss(a + 0);
    c0_0 = _mm256_fmadd_ps(a0v, b0, c0_0);
    c0_1 = _mm256_fmadd_ps(a0v, b1, c0_1);
    const __m256 a1v = _mm256_broadcast_ss(a + 1);
    c1_0 = _mm256_fmadd_ps(a1v, b0, c1_0);
    c1_1 = _mm256_fmadd_ps(a1v, b1, c1_1);
    const __m256 a2v = _mm256_broadcast_ss(a + 2);
    c2_0 = _mm256_fmadd_ps(a2v, b0, c2_0);
    c2_1 = _mm256_fmadd_ps(a2v, b1, c2_1);
    const __m256 a3v = _mm256_broadcast_ss(a + 3);
    c3_0 = _mm256_fmadd_ps(a3v, b0, c3_0);
    c3_1 = _mm256_fmadd_ps(a3v, b1, c3_1);
    a += 6;
  }
  if (rows == 4 && cols == 16) {
    if (!store) {
      c0_0 = _mm256_add_ps(_mm256_loadu_ps(c + 0*ldc + 0), c0_0);
      c0_1 = _mm256_add_ps(_mm256_loadu_ps(c + 0*ldc + 8), c0_1);
      c1_0 = _mm256_add_ps(_mm256_loadu_ps(c + 1*ldc + 0), c1_0);
      c1_1 = _mm256_add_ps(_mm256_loadu_ps(c + 1*ldc + 8), c1_1);
      c2_0 = _mm256_add_ps(_mm256_loadu_ps(c + 2*ldc + 0), c2_0);
      c2_1 = _mm256_add_ps(_mm256_loadu_ps(c + 2*ldc + 8), c2_1);
      c3_0 = _mm256_add_ps(_mm256_loadu_ps(c + 3*ldc + 0), c3_0);
      c3_1 = _mm256_add_ps(_mm256_loadu_ps(c + 3*ldc + 8), c3_1);
    }
    _mm256_storeu_ps(c + 0*ldc + 0, c0_0);
    _mm256_storeu_ps(c + 0*ldc + 8, c0_1);
    _mm256_storeu_ps(c + 1*ldc + 0, c1_0);
    _mm256_storeu_ps(c + 1*ldc + 8, c1_1);
    _mm256_storeu_ps(c + 2*ldc + 0, c2_0);
    _mm256_storeu_ps(c + 2*ldc + 8, c2_1);
    _mm256_storeu_ps(c + 3*ldc + 0, c3_0);
    _mm256_storeu_ps(c + 3*ldc + 8, c3_1);
    return;
  }
  const __m256i m0 = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_edge_lanes(cols, 0, 8))), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  const __m256i m1 = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_edge_lanes(cols, 8, 8))), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  _mm256_maskstore_ps(c + 0*ldc + 0, m0, store ? c0_0 : _mm256_add_ps(_mm256_maskload_ps(c + 0*ldc + 0, m0), c0_0));
  _mm256_maskstore_ps(c + 0*ldc + 8, m1, store ? c0_1 : _mm256_add_ps(_mm256_maskload_ps(c + 0*ldc + 8, m1), c0_1));
  if (rows == 1) return;
  _mm256_maskstore_ps(c + 1*ldc + 0, m0, store ? c1_0 : _mm256_add_ps(_mm256_maskload_ps(c + 1*ldc + 0, m0), c1_0));
  _mm256_maskstore_ps(c + 1*ldc + 8, m1, store ? c1_1 : _mm256_add_ps(_mm256_maskload_ps(c + 1*ldc + 8, m1), c1_1));
  if (rows == 2) return;
  _mm256_maskstore_ps(c + 2*ldc + 0, m0, store ? c2_0 : _mm256_add_ps(_mm256_maskload_ps(c + 2*ldc + 0, m0), c2_0));
  _mm256_maskstore_ps(c + 2*ldc + 8, m1, store ? c2_1 : _mm256_add_ps(_mm256_maskload_ps(c + 2*ldc + 8, m1), c2_1));
  if (rows == 3) return;
  _mm256_maskstore_ps(c + 3*ldc + 0, m0, store ? c3_0 : _mm256_add_ps(_mm256_maskload_ps(c + 3*ldc + 0, m0), c3_0));
  _mm256_maskstore_ps(c + 3*ldc + 8, m1, store ? c3_1 : _mm256_add_ps(_mm256_maskload_ps(c + 3*ldc + 8, m1), c3_1));
}

static inline void pk_ukr_gemm_f32_avx2_6x16_pu_4x1(int64_t kb, const float *restrict a, int64_t lda,
    const float *restrict b, int64_t ldb, float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store) {
  (void)lda;
  const __m256i bm = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_edge_lanes(cols, 0, 8))), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  __m256 c0_0 = _mm256_setzero_ps();
  __m256 c1_0 = _mm256_setzero_ps();
  __m256 c2_0 = _mm256_setzero_ps();
  __m256 c3_0 = _mm256_setzero_ps();
  __builtin_prefetch(c + 0*ldc + 0, 1, 3), __builtin_prefetch(c + 0*ldc + 7, 1, 3);
  __builtin_prefetch(c + 1*ldc + 0, 1, 3), __builtin_prefetch(c + 1*ldc + 7, 1, 3);
  __builtin_prefetch(c + 2*ldc + 0, 1, 3), __builtin_prefetch(c + 2*ldc + 7, 1, 3);
  __builtin_prefetch(c + 3*ldc + 0, 1, 3), __builtin_prefetch(c + 3*ldc + 7, 1, 3);
#pragma GCC unroll 4
  for (int64_t p = 0; p < kb; p++) {
    const __m256 b0 = _mm256_maskload_ps(b + p*ldb + 0, bm);
    const __m256 a0v = _mm256_broadcast_ss(a + 0);
    c0_0 = _mm256_fmadd_ps(a0v, b0, c0_0);
    const __m256 a1v = _mm256_broadcast_ss(a + 1);
    c1_0 = _mm256_fmadd_ps(a1v, b0, c1_0);
    const __m256 a2v = _mm256_broadcast_ss(a + 2);
    c2_0 = _mm256_fmadd_ps(a2v, b0, c2_0);
    const __m256 a3v = _mm256_broadcast_ss(a + 3);
    c3_0 = _mm256_fmadd_ps(a3v, b0, c3_0);
    a += 6;
  }
  if (rows == 4 && cols == 8) {
    if (!store) {
      c0_0 = _mm256_add_ps(_mm256_loadu_ps(c + 0*ldc + 0), c0_0);
      c1_0 = _mm256_add_ps(_mm256_loadu_ps(c + 1*ldc + 0), c1_0);
      c2_0 = _mm256_add_ps(_mm256_loadu_ps(c + 2*ldc + 0), c2_0);
      c3_0 = _mm256_add_ps(_mm256_loadu_ps(c + 3*ldc + 0), c3_0);
    }
    _mm256_storeu_ps(c + 0*ldc + 0, c0_0);
    _mm256_storeu_ps(c + 1*ldc + 0, c1_0);
    _mm256_storeu_ps(c + 2*ldc + 0, c2_0);
    _mm256_storeu_ps(c + 3*ldc + 0, c3_0);
    return;
  }
  const __m256i m0 = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_edge_lanes(cols, 0, 8))), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  _mm256_maskstore_ps(c + 0*ldc + 0, m0, store ? c0_0 : _mm256_add_ps(_mm256_maskload_ps(c + 0*ldc + 0, m0), c0_0));
  if (rows == 1) return;
  _mm256_maskstore_ps(c + 1*ldc + 0, m0, store ? c1_0 : _mm256_add_ps(_mm256_maskload_ps(c + 1*ldc + 0, m0), c1_0));
  if (rows == 2) return;
  _mm256_maskstore_ps(c + 2*ldc + 0, m0, store ? c2_0 : _mm256_add_ps(_mm256_maskload_ps(c + 2*ldc + 0, m0), c2_0));
  if (rows == 3) return;
  _mm256_maskstore_ps(c + 3*ldc + 0, m0, store ? c3_0 : _mm256_add_ps(_mm256_maskload_ps(c + 3*ldc + 0, m0), c3_0));
}

static inline void pk_ukr_gemm_f32_avx2_6x16_pu_2x2(int64_t kb, const float *restrict a, int64_t lda,
    const float *restrict b, int64_t ldb, float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store) {
  (void)lda;
  const __m256i bm = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_edge_lanes(cols, 8, 8))), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  __m256 c0_0 = _mm256_setzero_ps(), c0_1 = _mm256_setzero_ps();
  __m256 c1_0 = _mm256_setzero_ps(), c1_1 = _mm256_setzero_ps();
  __m256 c0_0_1 = _mm256_setzero_ps(), c0_1_1 = _mm256_setzero_ps();
  __m256 c1_0_1 = _mm256_setzero_ps(), c1_1_1 = _mm256_setzero_ps();
  __builtin_prefetch(c + 0*ldc + 0, 1, 3), __builtin_prefetch(c + 0*ldc + 15, 1, 3);
  __builtin_prefetch(c + 1*ldc + 0, 1, 3), __builtin_prefetch(c + 1*ldc + 15, 1, 3);
  int64_t p = 0;
  for (; p + 2 <= kb; p += 2) {
    const __m256 b0 = _mm256_loadu_ps(b + p*ldb + 0);
    const __m256 b1 = _mm256_maskload_ps(b + p*ldb + 8, bm);
    __builtin_prefetch(b + p*ldb + 16, 0, 3);
    const __m256 a0v = _mm256_broadcast_ss(a + 0);
    c0_0 = _mm256_fmadd_ps(a0v, b0, c0_0);
    c0_1 = _mm256_fmadd_ps(a0v, b1, c0_1);
    const __m256 a1v = _mm256_broadcast_ss(a + 1);
    c1_0 = _mm256_fmadd_ps(a1v, b0, c1_0);
    c1_1 = _mm256_fmadd_ps(a1v, b1, c1_1);
    const __m256 b0_1 = _mm256_loadu_ps(b + (p + 1)*ldb + 0);
    const __m256 b1_1 = _mm256_maskload_ps(b + (p + 1)*ldb + 8, bm);
    __builtin_prefetch(b + (p + 1)*ldb + 16, 0, 3);
    const __m256 a0v_1 = _mm256_broadcast_ss(a + 6);
    c0_0_1 = _mm256_fmadd_ps(a0v_1, b0_1, c0_0_1);
    c0_1_1 = _mm256_fmadd_ps(a0v_1, b1_1, c0_1_1);
    const __m256 a1v_1 = _mm256_broadcast_ss(a + 7);
    c1_0_1 = _mm256_fmadd_ps(a1v_1, b0_1, c1_0_1);
    c1_1_1 = _mm256_fmadd_ps(a1v_1, b1_1, c1_1_1);
    a += 12;
  }
  for (; p < kb; p++) {
    const __m256 b0 = _mm256_loadu_ps(b + p*ldb + 0);
    const __m256 b1 = _mm256_maskload_ps(b + p*ldb + 8, bm);
    __builtin_prefetch(b + p*ldb + 16, 0, 3);
    const __m256 a0v = _mm256_broadcast_ss(a + 0);
    c0_0 = _mm256_fmadd_ps(a0v, b0, c0_0);
    c0_1 = _mm256_fmadd_ps(a0v, b1, c0_1);
    const __m256 a1v = _mm256_broadcast_ss(a + 1);
    c1_0 = _mm256_fmadd_ps(a1v, b0, c1_0);
    c1_1 = _mm256_fmadd_ps(a1v, b1, c1_1);
    a += 6;
  }
  c0_0 = _mm256_add_ps(c0_0, c0_0_1);
  c0_1 = _mm256_add_ps(c0_1, c0_1_1);
  c1_0 = _mm256_add_ps(c1_0, c1_0_1);
  c1_1 = _mm256_add_ps(c1_1, c1_1_1);
  if (rows == 2 && cols == 16) {
    if (!store) {
      c0_0 = _mm256_add_ps(_mm256_loadu_ps(c + 0*ldc + 0), c0_0);
      c0_1 = _mm256_add_ps(_mm256_loadu_ps(c + 0*ldc + 8), c0_1);
      c1_0 = _mm256_add_ps(_mm256_loadu_ps(c + 1*ldc + 0), c1_0);
      c1_1 = _mm256_add_ps(_mm256_loadu_ps(c + 1*ldc + 8), c1_1);
    }
    _mm256_storeu_ps(c + 0*ldc + 0, c0_0);
    _mm256_storeu_ps(c + 0*ldc + 8, c0_1);
    _mm256_storeu_ps(c + 1*ldc + 0, c1_0);
    _mm256_storeu_ps(c + 1*ldc + 8, c1_1);
    return;
  }
  const __m256i m0 = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_edge_lanes(cols, 0, 8))), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  const __m256i m1 = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_edge_lanes(cols, 8, 8))), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  _mm256_maskstore_ps(c + 0*ldc + 0, m0, store ? c0_0 : _mm256_add_ps(_mm256_maskload_ps(c + 0*ldc + 0, m0), c0_0));
  _mm256_maskstore_ps(c + 0*ldc + 8, m1, store ? c0_1 : _mm256_add_ps(_mm256_maskload_ps(c + 0*ldc + 8, m1), c0_1));
  if (rows == 1) return;
  _mm256_maskstore_ps(c + 1*ldc + 0, m0, store ? c1_0 : _mm256_add_ps(_mm256_maskload_ps(c + 1*ldc + 0, m0), c1_0));
  _mm256_maskstore_ps(c + 1*ldc + 8, m1, store ? c1_1 : _mm256_add_ps(_mm256_maskload_ps(c + 1*ldc + 8, m1), c1_1));
}

static inline void pk_ukr_gemm_f32_avx2_6x16_pu_2x1(int64_t kb, const float *restrict a, int64_t lda,
    const float *restrict b, int64_t ldb, float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store) {
  (void)lda;
  const __m256i bm = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_edge_lanes(cols, 0, 8))), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  __m256 c0_0 = _mm256_setzero_ps();
  __m256 c1_0 = _mm256_setzero_ps();
  __m256 c0_0_1 = _mm256_setzero_ps();
  __m256 c1_0_1 = _mm256_setzero_ps();
  __m256 c0_0_2 = _mm256_setzero_ps();
  __m256 c1_0_2 = _mm256_setzero_ps();
  __m256 c0_0_3 = _mm256_setzero_ps();
  __m256 c1_0_3 = _mm256_setzero_ps();
  __builtin_prefetch(c + 0*ldc + 0, 1, 3), __builtin_prefetch(c + 0*ldc + 7, 1, 3);
  __builtin_prefetch(c + 1*ldc + 0, 1, 3), __builtin_prefetch(c + 1*ldc + 7, 1, 3);
  int64_t p = 0;
  for (; p + 4 <= kb; p += 4) {
    const __m256 b0 = _mm256_maskload_ps(b + p*ldb + 0, bm);
    const __m256 a0v = _mm256_broadcast_ss(a + 0);
    c0_0 = _mm256_fmadd_ps(a0v, b0, c0_0);
    const __m256 a1v = _mm256_broadcast_ss(a + 1);
    c1_0 = _mm256_fmadd_ps(a1v, b0, c1_0);
    const __m256 b0_1 = _mm256_maskload_ps(b + (p + 1)*ldb + 0, bm);
    const __m256 a0v_1 = _mm256_broadcast_ss(a + 6);
    c0_0_1 = _mm256_fmadd_ps(a0v_1, b0_1, c0_0_1);
    const __m256 a1v_1 = _mm256_broadcast_ss(a + 7);
    c1_0_1 = _mm256_fmadd_ps(a1v_1, b0_1, c1_0_1);
    const __m256 b0_2 = _mm256_maskload_ps(b + (p + 2)*ldb + 0, bm);
    const __m256 a0v_2 = _mm256_broadcast_ss(a + 12);
    c0_0_2 = _mm256_fmadd_ps(a0v_2, b0_2, c0_0_2);
    const __m256 a1v_2 = _mm256_broadcast_ss(a + 13);
    c1_0_2 = _mm256_fmadd_ps(a1v_2, b0_2, c1_0_2);
    const __m256 b0_3 = _mm256_maskload_ps(b + (p + 3)*ldb + 0, bm);
    const __m256 a0v_3 = _mm256_broadcast_ss(a + 18);
    c0_0_3 = _mm256_fmadd_ps(a0v_3, b0_3, c0_0_3);
    const __m256 a1v_3 = _mm256_broadcast_ss(a + 19);
    c1_0_3 = _mm256_fmadd_ps(a1v_3, b0_3, c1_0_3);
    a += 24;
  }
  for (; p < kb; p++) {
    const __m256 b0 = _mm256_maskload_ps(b + p*ldb + 0, bm);
    const __m256 a0v = _mm256_broadcast_ss(a + 0);
    c0_0 = _mm256_fmadd_ps(a0v, b0, c0_0);
    const __m256 a1v = _mm256_broadcast_ss(a + 1);
    c1_0 = _mm256_fmadd_ps(a1v, b0, c1_0);
    a += 6;
  }
  c0_0 = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(c0_0, c0_0_1), c0_0_2), c0_0_3);
  c1_0 = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(c1_0, c1_0_1), c1_0_2), c1_0_3);
  if (rows == 2 && cols == 8) {
    if (!store) {
      c0_0 = _mm256_add_ps(_mm256_loadu_ps(c + 0*ldc + 0), c0_0);
      c1_0 = _mm256_add_ps(_mm256_loadu_ps(c + 1*ldc + 0), c1_0);
    }
    _mm256_storeu_ps(c + 0*ldc + 0, c0_0);
    _mm256_storeu_ps(c + 1*ldc + 0, c1_0);
    return;
  }
  const __m256i m0 = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_edge_lanes(cols, 0, 8))), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  _mm256_maskstore_ps(c + 0*ldc + 0, m0, store ? c0_0 : _mm256_add_ps(_mm256_maskload_ps(c + 0*ldc + 0, m0), c0_0));
  if (rows == 1) return;
  _mm256_maskstore_ps(c + 1*ldc + 0, m0, store ? c1_0 : _mm256_add_ps(_mm256_maskload_ps(c + 1*ldc + 0, m0), c1_0));
}

static inline void pk_ukr_gemm_f32_avx2_6x16_pu_1x2(int64_t kb, const float *restrict a, int64_t lda,
    const float *restrict b, int64_t ldb, float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store) {
  (void)lda;
  const __m256i bm = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_edge_lanes(cols, 8, 8))), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  __m256 c0_0 = _mm256_setzero_ps(), c0_1 = _mm256_setzero_ps();
  __m256 c0_0_1 = _mm256_setzero_ps(), c0_1_1 = _mm256_setzero_ps();
  __m256 c0_0_2 = _mm256_setzero_ps(), c0_1_2 = _mm256_setzero_ps();
  __m256 c0_0_3 = _mm256_setzero_ps(), c0_1_3 = _mm256_setzero_ps();
  __builtin_prefetch(c + 0*ldc + 0, 1, 3), __builtin_prefetch(c + 0*ldc + 15, 1, 3);
  const int64_t pk_seg = kb / 4;
  int64_t p = 0;
  for (; p < pk_seg; p++) {
    const __m256 b0 = _mm256_loadu_ps(b + p*ldb + 0);
    const __m256 b1 = _mm256_maskload_ps(b + p*ldb + 8, bm);
    __builtin_prefetch(b + p*ldb + 16, 0, 3);
    const __m256 a0v = _mm256_broadcast_ss(a + 0);
    c0_0 = _mm256_fmadd_ps(a0v, b0, c0_0);
    c0_1 = _mm256_fmadd_ps(a0v, b1, c0_1);
    const __m256 b0_1 = _mm256_loadu_ps(b + (p + 1*pk_seg)*ldb + 0);
    const __m256 b1_1 = _mm256_maskload_ps(b + (p + 1*pk_seg)*ldb + 8, bm);
    __builtin_prefetch(b + (p + 1*pk_seg)*ldb + 16, 0, 3);
    const __m256 a0v_1 = _mm256_broadcast_ss(a + (1*pk_seg)*6);
    c0_0_1 = _mm256_fmadd_ps(a0v_1, b0_1, c0_0_1);
    c0_1_1 = _mm256_fmadd_ps(a0v_1, b1_1, c0_1_1);
    const __m256 b0_2 = _mm256_loadu_ps(b + (p + 2*pk_seg)*ldb + 0);
    const __m256 b1_2 = _mm256_maskload_ps(b + (p + 2*pk_seg)*ldb + 8, bm);
    __builtin_prefetch(b + (p + 2*pk_seg)*ldb + 16, 0, 3);
    const __m256 a0v_2 = _mm256_broadcast_ss(a + (2*pk_seg)*6);
    c0_0_2 = _mm256_fmadd_ps(a0v_2, b0_2, c0_0_2);
    c0_1_2 = _mm256_fmadd_ps(a0v_2, b1_2, c0_1_2);
    const __m256 b0_3 = _mm256_loadu_ps(b + (p + 3*pk_seg)*ldb + 0);
    const __m256 b1_3 = _mm256_maskload_ps(b + (p + 3*pk_seg)*ldb + 8, bm);
    __builtin_prefetch(b + (p + 3*pk_seg)*ldb + 16, 0, 3);
    const __m256 a0v_3 = _mm256_broadcast_ss(a + (3*pk_seg)*6);
    c0_0_3 = _mm256_fmadd_ps(a0v_3, b0_3, c0_0_3);
    c0_1_3 = _mm256_fmadd_ps(a0v_3, b1_3, c0_1_3);
    a += 6;
  }
  a += (3*pk_seg)*6;
  for (p = 4*pk_seg; p < kb; p++) {
    const __m256 b0 = _mm256_loadu_ps(b + p*ldb + 0);
    const __m256 b1 = _mm256_maskload_ps(b + p*ldb + 8, bm);
    __builtin_prefetch(b + p*ldb + 16, 0, 3);
    const __m256 a0v = _mm256_broadcast_ss(a + 0);
    c0_0 = _mm256_fmadd_ps(a0v, b0, c0_0);
    c0_1 = _mm256_fmadd_ps(a0v, b1, c0_1);
    a += 6;
  }
  c0_0 = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(c0_0, c0_0_1), c0_0_2), c0_0_3);
  c0_1 = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(c0_1, c0_1_1), c0_1_2), c0_1_3);
  if (rows == 1 && cols == 16) {
    if (!store) {
      c0_0 = _mm256_add_ps(_mm256_loadu_ps(c + 0*ldc + 0), c0_0);
      c0_1 = _mm256_add_ps(_mm256_loadu_ps(c + 0*ldc + 8), c0_1);
    }
    _mm256_storeu_ps(c + 0*ldc + 0, c0_0);
    _mm256_storeu_ps(c + 0*ldc + 8, c0_1);
    return;
  }
  const __m256i m0 = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_edge_lanes(cols, 0, 8))), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  const __m256i m1 = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_edge_lanes(cols, 8, 8))), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  _mm256_maskstore_ps(c + 0*ldc + 0, m0, store ? c0_0 : _mm256_add_ps(_mm256_maskload_ps(c + 0*ldc + 0, m0), c0_0));
  _mm256_maskstore_ps(c + 0*ldc + 8, m1, store ? c0_1 : _mm256_add_ps(_mm256_maskload_ps(c + 0*ldc + 8, m1), c0_1));
}

static inline void pk_ukr_gemm_f32_avx2_6x16_pu_1x1(int64_t kb, const float *restrict a, int64_t lda,
    const float *restrict b, int64_t ldb, float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store) {
  (void)lda;
  const __m256i bm = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_edge_lanes(cols, 0, 8))), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  __m256 c0_0 = _mm256_setzero_ps();
  __m256 c0_0_1 = _mm256_setzero_ps();
  __m256 c0_0_2 = _mm256_setzero_ps();
  __m256 c0_0_3 = _mm256_setzero_ps();
  __builtin_prefetch(c + 0*ldc + 0, 1, 3), __builtin_prefetch(c + 0*ldc + 7, 1, 3);
  const int64_t pk_seg = kb / 4;
  int64_t p = 0;
  for (; p < pk_seg; p++) {
    const __m256 b0 = _mm256_maskload_ps(b + p*ldb + 0, bm);
    const __m256 a0v = _mm256_broadcast_ss(a + 0);
    c0_0 = _mm256_fmadd_ps(a0v, b0, c0_0);
    const __m256 b0_1 = _mm256_maskload_ps(b + (p + 1*pk_seg)*ldb + 0, bm);
    const __m256 a0v_1 = _mm256_broadcast_ss(a + (1*pk_seg)*6);
    c0_0_1 = _mm256_fmadd_ps(a0v_1, b0_1, c0_0_1);
    const __m256 b0_2 = _mm256_maskload_ps(b + (p + 2*pk_seg)*ldb + 0, bm);
    const __m256 a0v_2 = _mm256_broadcast_ss(a + (2*pk_seg)*6);
    c0_0_2 = _mm256_fmadd_ps(a0v_2, b0_2, c0_0_2);
    const __m256 b0_3 = _mm256_maskload_ps(b + (p + 3*pk_seg)*ldb + 0, bm);
    const __m256 a0v_3 = _mm256_broadcast_ss(a + (3*pk_seg)*6);
    c0_0_3 = _mm256_fmadd_ps(a0v_3, b0_3, c0_0_3);
    a += 6;
  }
  a += (3*pk_seg)*6;
  for (p = 4*pk_seg; p < kb; p++) {
    const __m256 b0 = _mm256_maskload_ps(b + p*ldb + 0, bm);
    const __m256 a0v = _mm256_broadcast_ss(a + 0);
    c0_0 = _mm256_fmadd_ps(a0v, b0, c0_0);
    a += 6;
  }
  c0_0 = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(c0_0, c0_0_1), c0_0_2), c0_0_3);
  if (rows == 1 && cols == 8) {
    if (!store) {
      c0_0 = _mm256_add_ps(_mm256_loadu_ps(c + 0*ldc + 0), c0_0);
    }
    _mm256_storeu_ps(c + 0*ldc + 0, c0_0);
    return;
  }
  const __m256i m0 = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_edge_lanes(cols, 0, 8))), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  _mm256_maskstore_ps(c + 0*ldc + 0, m0, store ? c0_0 : _mm256_add_ps(_mm256_maskload_ps(c + 0*ldc + 0, m0), c0_0));
}

PK_SHARED void pk_ukr_gemm_f32_avx2_6x16_pu(int64_t kb, const float *restrict a, int64_t lda, const float *restrict b, int64_t ldb,
    float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store) {
  if (rows > 4) {
    if (cols > 8) pk_ukr_gemm_f32_avx2_6x16_pu_6x2(kb, a, lda, b, ldb, c, ldc, rows, cols, store);
    else pk_ukr_gemm_f32_avx2_6x16_pu_6x1(kb, a, lda, b, ldb, c, ldc, rows, cols, store);
  } else if (rows > 2) {
    if (cols > 8) pk_ukr_gemm_f32_avx2_6x16_pu_4x2(kb, a, lda, b, ldb, c, ldc, rows, cols, store);
    else pk_ukr_gemm_f32_avx2_6x16_pu_4x1(kb, a, lda, b, ldb, c, ldc, rows, cols, store);
  } else if (rows > 1) {
    if (cols > 8) pk_ukr_gemm_f32_avx2_6x16_pu_2x2(kb, a, lda, b, ldb, c, ldc, rows, cols, store);
    else pk_ukr_gemm_f32_avx2_6x16_pu_2x1(kb, a, lda, b, ldb, c, ldc, rows, cols, store);
  } else {
    if (cols > 8) pk_ukr_gemm_f32_avx2_6x16_pu_1x2(kb, a, lda, b, ldb, c, ldc, rows, cols, store);
    else pk_ukr_gemm_f32_avx2_6x16_pu_1x1(kb, a, lda, b, ldb, c, ldc, rows, cols, store);
  }
}

PK_SHARED void pk_ukr_gemm_f32_avx2_6x16_pp(int64_t kb, const float *restrict a, int64_t lda, const float *restrict b, int64_t ldb,
    float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store);
static inline void pk_ukr_gemm_f32_avx2_6x16_ppf_6x2(int64_t kb, const float *restrict a, int64_t lda,
    const float *restrict b, int64_t ldb, float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store) {
  (void)lda;
  (void)ldb;
  __m256 c0_0 = _mm256_setzero_ps(), c0_1 = _mm256_setzero_ps();
  __m256 c1_0 = _mm256_setzero_ps(), c1_1 = _mm256_setzero_ps();
  __m256 c2_0 = _mm256_setzero_ps(), c2_1 = _mm256_setzero_ps();
  __m256 c3_0 = _mm256_setzero_ps(), c3_1 = _mm256_setzero_ps();
  __m256 c4_0 = _mm256_setzero_ps(), c4_1 = _mm256_setzero_ps();
  __m256 c5_0 = _mm256_setzero_ps(), c5_1 = _mm256_setzero_ps();
  __builtin_prefetch(c + 0*ldc + 0, 1, 3), __builtin_prefetch(c + 0*ldc + 15, 1, 3);
  __builtin_prefetch(c + 1*ldc + 0, 1, 3), __builtin_prefetch(c + 1*ldc + 15, 1, 3);
  __builtin_prefetch(c + 2*ldc + 0, 1, 3), __builtin_prefetch(c + 2*ldc + 15, 1, 3);
  __builtin_prefetch(c + 3*ldc + 0, 1, 3), __builtin_prefetch(c + 3*ldc + 15, 1, 3);
  __builtin_prefetch(c + 4*ldc + 0, 1, 3), __builtin_prefetch(c + 4*ldc + 15, 1, 3);
  __builtin_prefetch(c + 5*ldc + 0, 1, 3), __builtin_prefetch(c + 5*ldc + 15, 1, 3);
#pragma GCC unroll 4
  for (int64_t p = 0; p < kb; p++) {
    const __m256 b0 = _mm256_load_ps(b + 0);
    const __m256 b1 = _mm256_load_ps(b + 8);
    __builtin_prefetch(b + 256, 0, 3);
    const __m256 a0v = _mm256_broadcast_ss(a + 0);
    c0_0 = _mm256_fmadd_ps(a0v, b0, c0_0);
    c0_1 = _mm256_fmadd_ps(a0v, b1, c0_1);
    const __m256 a1v = _mm256_broadcast_ss(a + 1);
    c1_0 = _mm256_fmadd_ps(a1v, b0, c1_0);
    c1_1 = _mm256_fmadd_ps(a1v, b1, c1_1);
    const __m256 a2v = _mm256_broadcast_ss(a + 2);
    c2_0 = _mm256_fmadd_ps(a2v, b0, c2_0);
    c2_1 = _mm256_fmadd_ps(a2v, b1, c2_1);
    const __m256 a3v = _mm256_broadcast_ss(a + 3);
    c3_0 = _mm256_fmadd_ps(a3v, b0, c3_0);
    c3_1 = _mm256_fmadd_ps(a3v, b1, c3_1);
    const __m256 a4v = _mm256_broadcast_ss(a + 4);
    c4_0 = _mm256_fmadd_ps(a4v, b0, c4_0);
    c4_1 = _mm256_fmadd_ps(a4v, b1, c4_1);
    const __m256 a5v = _mm256_broadcast_ss(a + 5);
    c5_0 = _mm256_fmadd_ps(a5v, b0, c5_0);
    c5_1 = _mm256_fmadd_ps(a5v, b1, c5_1);
    a += 6;
    b += 16;
  }
  if (rows == 6 && cols == 16) {
    if (!store) {
      c0_0 = _mm256_add_ps(_mm256_loadu_ps(c + 0*ldc + 0), c0_0);
      c0_1 = _mm256_add_ps(_mm256_loadu_ps(c + 0*ldc + 8), c0_1);
      c1_0 = _mm256_add_ps(_mm256_loadu_ps(c + 1*ldc + 0), c1_0);
      c1_1 = _mm256_add_ps(_mm256_loadu_ps(c + 1*ldc + 8), c1_1);
      c2_0 = _mm256_add_ps(_mm256_loadu_ps(c + 2*ldc + 0), c2_0);
      c2_1 = _mm256_add_ps(_mm256_loadu_ps(c + 2*ldc + 8), c2_1);
      c3_0 = _mm256_add_ps(_mm256_loadu_ps(c + 3*ldc + 0), c3_0);
      c3_1 = _mm256_add_ps(_mm256_loadu_ps(c + 3*ldc + 8), c3_1);
      c4_0 = _mm256_add_ps(_mm256_loadu_ps(c + 4*ldc + 0), c4_0);
      c4_1 = _mm256_add_ps(_mm256_loadu_ps(c + 4*ldc + 8), c4_1);
      c5_0 = _mm256_add_ps(_mm256_loadu_ps(c + 5*ldc + 0), c5_0);
      c5_1 = _mm256_add_ps(_mm256_loadu_ps(c + 5*ldc + 8), c5_1);
    }
    _mm256_storeu_ps(c + 0*ldc + 0, c0_0);
    _mm256_storeu_ps(c + 0*ldc + 8, c0_1);
    _mm256_storeu_ps(c + 1*ldc + 0, c1_0);
    _mm256_storeu_ps(c + 1*ldc + 8, c1_1);
    _mm256_storeu_ps(c + 2*ldc + 0, c2_0);
    _mm256_storeu_ps(c + 2*ldc + 8, c2_1);
    _mm256_storeu_ps(c + 3*ldc + 0, c3_0);
    _mm256_storeu_ps(c + 3*ldc + 8, c3_1);
    _mm256_storeu_ps(c + 4*ldc + 0, c4_0);
    _mm256_storeu_ps(c + 4*ldc + 8, c4_1);
    _mm256_storeu_ps(c + 5*ldc + 0, c5_0);
    _mm256_storeu_ps(c + 5*ldc + 8, c5_1);
    return;
  }
  const __m256i m0 = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_edge_lanes(cols, 0, 8))), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  const __m256i m1 = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_edge_lanes(cols, 8, 8))), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  _mm256_maskstore_ps(c + 0*ldc + 0, m0, store ? c0_0 : _mm256_add_ps(_mm256_maskload_ps(c + 0*ldc + 0, m0), c0_0));
  _mm256_maskstore_ps(c + 0*ldc + 8, m1, store ? c0_1 : _mm256_add_ps(_mm256_maskload_ps(c + 0*ldc + 8, m1), c0_1));
  if (rows == 1) return;
  _mm256_maskstore_ps(c + 1*ldc + 0, m0, store ? c1_0 : _mm256_add_ps(_mm256_maskload_ps(c + 1*ldc + 0, m0), c1_0));
  _mm256_maskstore_ps(c + 1*ldc + 8, m1, store ? c1_1 : _mm256_add_ps(_mm256_maskload_ps(c + 1*ldc + 8, m1), c1_1));
  if (rows == 2) return;
  _mm256_maskstore_ps(c + 2*ldc + 0, m0, store ? c2_0 : _mm256_add_ps(_mm256_maskload_ps(c + 2*ldc + 0, m0), c2_0));
  _mm256_maskstore_ps(c + 2*ldc + 8, m1, store ? c2_1 : _mm256_add_ps(_mm256_maskload_ps(c + 2*ldc + 8, m1), c2_1));
  if (rows == 3) return;
  _mm256_maskstore_ps(c + 3*ldc + 0, m0, store ? c3_0 : _mm256_add_ps(_mm256_maskload_ps(c + 3*ldc + 0, m0), c3_0));
  _mm256_maskstore_ps(c + 3*ldc + 8, m1, store ? c3_1 : _mm256_add_ps(_mm256_maskload_ps(c + 3*ldc + 8, m1), c3_1));
  if (rows == 4) return;
  _mm256_maskstore_ps(c + 4*ldc + 0, m0, store ? c4_0 : _mm256_add_ps(_mm256_maskload_ps(c + 4*ldc + 0, m0), c4_0));
  _mm256_maskstore_ps(c + 4*ldc + 8, m1, store ? c4_1 : _mm256_add_ps(_mm256_maskload_ps(c + 4*ldc + 8, m1), c4_1));
  if (rows == 5) return;
  _mm256_maskstore_ps(c + 5*ldc + 0, m0, store ? c5_0 : _mm256_add_ps(_mm256_maskload_ps(c + 5*ldc + 0, m0), c5_0));
  _mm256_maskstore_ps(c + 5*ldc + 8, m1, store ? c5_1 : _mm256_add_ps(_mm256_maskload_ps(c + 5*ldc + 8, m1), c5_1));
}

PK_SHARED void pk_ukr_gemm_f32_avx2_6x16_ppf(int64_t kb, const float *restrict a, int64_t lda, const float *restrict b, int64_t ldb,
    float *restrict c, int64_t ldc, int64_t rows, int64_t cols, int store) {
  if (rows == 6 && cols == 16) pk_ukr_gemm_f32_avx2_6x16_ppf_6x2(kb, a, lda, b, ldb, c, ldc, rows, cols, store);
  else pk_ukr_gemm_f32_avx2_6x16_pp(kb, a, lda, b, ldb, c, ldc, rows, cols, store);
}

PK_SHARED int kc_3_transC(const float *restrict X, const float *restrict Y, float *restrict Z, int64_t K, int64_t B, int64_t C, int64_t A) {
  const int64_t sZ0 = B*A;
  const int64_t sY0 = K*A;
  if (B <= 96) {
    { /* contraction s0: gemm_f32_avx2_6x16 */
      const int64_t pk_m = B, pk_n = A, pk_k = K;
      const pk_batch pk_bt = {1, {C}, {0}, {sY0}, {sZ0}};
      const int64_t pk_batches = (C);
      const pk_gemm_f32_shape *pk_shape;
      int64_t pk_mc, pk_nc, pk_kc;
      int pk_across;
      if ((double)pk_m*(double)pk_n*(double)pk_k <= 2097152 && pk_batches >= 2) /* mc 24 nc 128 kc 64, order nkm, inner mn, parallel batch, pack A */
        pk_shape = &pk_gemm_f32_avx2_6x16_nkm_mn_none_pu, pk_mc = 24, pk_nc = 128, pk_kc = 64, pk_across = 1;
      else if ((double)pk_m*(double)pk_n*(double)pk_k <= 1048576 && pk_bound_holds(Y)) /* mc 66 nc 64 kc 64, order nkm, inner nm, parallel m, pack AB */
        pk_shape = &pk_gemm_f32_avx2_6x16_nkm_nm_m_pp, pk_mc = 66, pk_nc = 64, pk_kc = 64, pk_across = 0;
      else if ((double)pk_m*(double)pk_n*(double)pk_k <= 1048576) /* mc 6 nc 64 kc 64, order nkm, inner nm, parallel m, pack A */
        pk_shape = &pk_gemm_f32_avx2_6x16_nkm_nm_m_pu, pk_mc = 6, pk_nc = 64, pk_kc = 64, pk_across = 0;
      else if ((double)pk_m*(double)pk_n*(double)pk_k <= 2097152) /* mc 24 nc 128 kc 64, order nkm, inner mn, parallel m, pack A */
        pk_shape = &pk_gemm_f32_avx2_6x16_nkm_mn_m_pu, pk_mc = 24, pk_nc = 128, pk_kc = 64, pk_across = 0;
      else if (pk_m <= 6 && pk_bound_holds(Y)) /* mc 6 nc 2048 kc 512, order mkn, inner nm, parallel n, pack AB */
        pk_shape = &pk_gemm_f32_avx2_6x16_mkn_nm_n_pp, pk_mc = 6, pk_nc = 2048, pk_kc = 512, pk_across = 0;
      else if (pk_m <= 6 && pk_batches >= 8) /* mc 6 nc 4096 kc 8, order nkm, inner mn, parallel batch, pack A */
        pk_shape = &pk_gemm_f32_avx2_6x16_nkm_mn_none_pu, pk_mc = 6, pk_nc = 4096, pk_kc = 8, pk_across = 1;
      else if (pk_m <= 6) /* mc 6 nc 2048 kc 8, order nkm, inner mn, parallel n, pack A */
        pk_shape = &pk_gemm_f32_avx2_6x16_nkm_mn_n_pu, pk_mc = 6, pk_nc = 2048, pk_kc = 8, pk_across = 0;
      else if (pk_m <= 48 && pk_batches >= 8) /* mc 48 nc 256 kc 256, order mkn, inner nm, parallel batch, pack AB */
        pk_shape = &pk_gemm_f32_avx2_6x16_mkn_nm_none_pp, pk_mc = 48, pk_nc = 256, pk_kc = 256, pk_across = 1;
      else if (pk_m <= 48) /* mc 48 nc 512 kc 256, order mkn, inner nm, parallel n, pack AB */
        pk_shape = &pk_gemm_f32_avx2_6x16_mkn_nm_n_pp, pk_mc = 48, pk_nc = 512, pk_kc = 256, pk_across = 0;
      else if (pk_n <= 64 && pk_batches >= 8) /* mc 24 nc 64 kc 512, order nkm, inner nm, parallel batch, pack AB */
        pk_shape = &pk_gemm_f32_avx2_6x16_nkm_nm_none_pp, pk_mc = 24, pk_nc = 64, pk_kc = 512, pk_across = 1;
      else if (pk_n <= 64) /* mc 24 nc 64 kc 512, order nkm, inner nm, parallel m, pack AB */
        pk_shape = &pk_gemm_f32_avx2_6x16_nkm_nm_m_pp, pk_mc = 24, pk_nc = 64, pk_kc = 512, pk_across = 0;
      else if (pk_k <= 64 && pk_batches >= 8) /* mc 24 nc 1024 kc 64, order nkm, inner mn, parallel batch, pack AB */
        pk_shape = &pk_gemm_f32_avx2_6x16_nkm_mn_none_pp, pk_mc = 24, pk_nc = 1024, pk_kc = 64, pk_across = 1;
      else if (pk_k <= 64) /* mc 96 nc 1024 kc 64, order mkn, inner mn, parallel n, pack AB */
        pk_shape = &pk_gemm_f32_avx2_6x16_mkn_mn_n_pp, pk_mc = 96, pk_nc = 1024, pk_kc = 64, pk_across = 0;
      else if (pk_m <= 288 && pk_batches >= 8) /* mc 24 nc 256 kc 512, order nkm, inner nm, parallel batch, pack AB */
        pk_shape = &pk_gemm_f32_avx2_6x16_nkm_nm_none_pp, pk_mc = 24, pk_nc = 256, pk_kc = 512, pk_across = 1;
      else if (pk_m <= 288) /* mc 96 nc 256 kc 512, order mkn, inner nm, parallel n, pack AB */
        pk_shape = &pk_gemm_f32_avx2_6x16_mkn_nm_n_pp, pk_mc = 96, pk_nc = 256, pk_kc = 512, pk_across = 0;
      else if (pk_batches >= 8) /* mc 96 nc 256 kc 256, order mkn, inner nm, parallel batch, pack AB */
        pk_shape = &pk_gemm_f32_avx2_6x16_mkn_nm_none_pp, pk_mc = 96, pk_nc = 256, pk_kc = 256, pk_across = 1;
      else /* mc 96 nc 256 kc 256, order mkn, inner nm, parallel n, pack AB */
        pk_shape = &pk_gemm_f32_avx2_6x16_mkn_nm_n_pp, pk_mc = 96, pk_nc = 256, pk_kc = 256, pk_across = 0;
      const int pk_status = pk_gemm_f32_run(&(const pk_gemm_f32){.a = X, .b = Y, .c = Z, .m = pk_m, .n = pk_n, .k = pk_k, .a_m = 1, .a_k = B, .b_k = A, .b_n = 1, .c_m = A, .mc = pk_mc, .nc = pk_nc, .kc = pk_kc}, &pk_bt, pk_shape, pk_across);
      if (pk_status != PK_OK) {
        return PK_NO_MEMORY;
      }
    }
  } else {
    { /* contraction s0: gemm_f32_avx2_6x16 */
      const int64_t pk_m = B, pk_n = C*A, pk_k = K;
      static char pk_tables_owner;
      const int64_t pk_key[] = {B, 1, K, B, K, A, C, sY0, A, 1, B, A, C, sZ0, A, 1};
      int pk_fresh;
      int64_t *const pk_o = pk_table_memo(&pk_tables_owner, 16, pk_key, 2*(pk_m + pk_n + pk_k) + 1, &pk_fresh);
      if (pk_o == NULL) {
        return PK_NO_MEMORY;
      }
      if (pk_fresh) {
        pk_offsets(pk_o, 1, (const int64_t[]){B}, (const int64_t[]){1});
        pk_offsets(pk_o + pk_m, 1, (const int64_t[]){K}, (const int64_t[]){B});
        pk_offsets(pk_o + pk_m + pk_k, 1, (const int64_t[]){K}, (const int64_t[]){A});
        pk_offsets(pk_o + pk_m + 2*pk_k, 2, (const int64_t[]){C, A}, (const int64_t[]){sY0, 1});
        pk_offsets(pk_o + pk_m + 2*pk_k + pk_n, 1, (const int64_t[]){B}, (const int64_t[]){A});
        pk_offsets(pk_o + 2*pk_m + 2*pk_k + pk_n, 2, (const int64_t[]){C, A}, (const int64_t[]){sZ0, 1});
      }
      const pk_gemm_f32_shape *pk_shape;
      int64_t pk_mc, pk_nc, pk_kc;
      /* mc 96 nc 480 kc 256, order kmn, inner mn, parallel n, pack AB */
      pk_shape = &pk_gemm_f32_avx2_6x16_kmn_mn_n_pp_g, pk_mc = 96, pk_nc = 480, pk_kc = 256;
      const int pk_status = pk_gemm_f32_run(&(const pk_gemm_f32){.a = X, .b = Y, .c = Z, .m = pk_m, .n = pk_n, .k = pk_k, .mc = pk_mc, .nc = pk_nc, .kc = pk_kc, .o_am = pk_o, .o_ak = pk_o + pk_m, .o_bk = pk_o + pk_m + pk_k, .o_bn = pk_o + pk_m + 2*pk_k, .o_cm = pk_o + pk_m + 2*pk_k + pk_n, .o_cn = pk_o + 2*pk_m + 2*pk_k + pk_n}, NULL, pk_shape, 0);
      if (pk_status != PK_OK) {
        return PK_NO_MEMORY;
      }
    }
  }
  return PK_OK;
}
