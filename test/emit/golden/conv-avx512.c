/* Direct and im2col convolutions on gemm_f32_avx512_6x64. */
#define PK_CONV(name) pk_conv_gemm_f32_avx512_6x64_##name
#define PK_CONV_T float
#define PK_CONV_MR 6
#define PK_CONV_NR 64
#define PK_CONV_TILE pk_ukr_gemm_f32_avx512_6x64_upg
#define PK_CONV_LANES 16
#define PK_CONV_HEIGHTS {6, 5, 4, 2, 1}
#define PK_CONV_STEP_CYCLES {3.5, 6, 9, 12, 3, 5, 7.5, 10, 2.5, 4, 6, 8, 1.5, 2, 3, 4, 1, 1.5, 2, 2.5}
#define PK_CONV_CALL_CYCLES {28, 40, 52, 64, 26, 36, 46, 56, 24, 32, 40, 48, 20, 24, 28, 32, 18, 20, 22, 24}
#define PK_CONV_TILE_IN_PLACE pk_ukr_gemm_f32_avx512_6x64_uu
#define PK_CONV_TILE_FIRST pk_ukr_gemm_f32_avx512_6x64_pu
#define PK_CONV_PACK_A pk_pack_a_gemm_f32_avx512_6x64
#include "polykern_conv_driver.h"

/* Direct and im2col convolutions on gemm_f32_avx512_8x48. */
#define PK_CONV(name) pk_conv_gemm_f32_avx512_8x48_##name
#define PK_CONV_T float
#define PK_CONV_MR 8
#define PK_CONV_NR 48
#define PK_CONV_TILE pk_ukr_gemm_f32_avx512_8x48_upg
#define PK_CONV_LANES 16
#define PK_CONV_HEIGHTS {8, 7, 4, 2, 1}
#define PK_CONV_STEP_CYCLES {4.5, 8, 12, 4, 7, 10.5, 2.5, 4, 6, 1.5, 2, 3, 1, 1.5, 2}
#define PK_CONV_CALL_CYCLES {32, 48, 64, 30, 44, 58, 24, 32, 40, 20, 24, 28, 18, 20, 22}
#define PK_CONV_TILE_IN_PLACE pk_ukr_gemm_f32_avx512_8x48_uu
#define PK_CONV_TILE_FIRST pk_ukr_gemm_f32_avx512_8x48_pu
#define PK_CONV_PACK_A pk_pack_a_gemm_f32_avx512_8x48
#include "polykern_conv_driver.h"

/* Direct and im2col convolutions on gemm_f32_avx512_7x64. */
#define PK_CONV(name) pk_conv_gemm_f32_avx512_7x64_##name
#define PK_CONV_T float
#define PK_CONV_MR 7
#define PK_CONV_NR 64
#define PK_CONV_TILE pk_ukr_gemm_f32_avx512_7x64_upg
#define PK_CONV_LANES 16
#define PK_CONV_HEIGHTS {7, 6, 4, 2, 1}
#define PK_CONV_STEP_CYCLES {4, 7, 10.5, 14, 3.5, 6, 9, 12, 2.5, 4, 6, 8, 1.5, 2, 3, 4, 1, 1.5, 2, 2.5}
#define PK_CONV_CALL_CYCLES {30, 44, 58, 72, 28, 40, 52, 64, 24, 32, 40, 48, 20, 24, 28, 32, 18, 20, 22, 24}
#define PK_CONV_TILE_IN_PLACE pk_ukr_gemm_f32_avx512_7x64_uu
#define PK_CONV_TILE_FIRST pk_ukr_gemm_f32_avx512_7x64_pu
#define PK_CONV_PACK_A pk_pack_a_gemm_f32_avx512_7x64
#include "polykern_conv_driver.h"

PK_SHARED int kc_0_conv(const float *restrict I, const float *restrict F, float *restrict O, int64_t N, int64_t H, int64_t W, int64_t C, int64_t K, int64_t P, int64_t Q) {
  const int64_t sO0 = P*Q*K;
  const int64_t sO1 = Q*K;
  const int64_t sI0 = H*W*C;
  const int64_t sI1 = W*C;
  const int64_t sF0 = 3*C*K;
  const int64_t sF1 = C*K;
  { /* convolution s0: gemm_f32_avx512_6x64, direct, mc 64 nc 96 kc 128, weight-stationary; through im2col on the cheapest of gemm_f32_avx512_8x48, gemm_f32_avx512_6x64, gemm_f32_avx512_7x64 */
    const pk_conv_desc pk_cv = {
      .in = I,
      .flt = F,
      .out = O,
      .nb = 1,
      .nd = 2,
      .b_ext = {N, 0, 0, 0},
      .b_in = {sI0, 0, 0, 0},
      .b_out = {sO0, 0, 0, 0},
      .b_flt = {0, 0, 0, 0},
      .p_ext = {P, Q, 0},
      .r_ext = {3, 3, 0},
      .h_ext = {H, W, 0},
      .stride = {2, 2, 0},
      .dil = {1, 1, 0},
      .off = {-1, -1, 0},
      .in_s = {sI1, C, 0},
      .out_s = {sO1, K, 0},
      .flt_s = {sF0, sF1, 0},
      .C = C,
      .K = K,
      .flt_c = K,
      .flt_k = 1,
      .in_c = 1,
      .out_k = 1,
      .mc = 64,
      .nc = 96,
      .kc = 128,
      .l1 = 9216,
      .l2 = 262144,
      .weight_stationary = 1,
      .im2col = 0,
      .im2col_below = 12,
      .channels_first = 0,
      .pack_filter_from = 49,
      .gemm_kc = 1024,
      .zero_out = 1,
    };
    const pk_conv_driver pk_im2col[] = {
      {pk_conv_gemm_f32_avx512_8x48_im2col_cycles, pk_conv_gemm_f32_avx512_8x48_run},
      {pk_conv_gemm_f32_avx512_6x64_im2col_cycles, pk_conv_gemm_f32_avx512_6x64_run},
      {pk_conv_gemm_f32_avx512_7x64_im2col_cycles, pk_conv_gemm_f32_avx512_7x64_run},
    };
    if ((pk_conv_runs_im2col(&pk_cv) ? pk_conv_run_cheapest(&pk_cv, pk_im2col, 3) : pk_conv_gemm_f32_avx512_6x64_run(&pk_cv)) != PK_OK) {
      return PK_NO_MEMORY;
    }
  }
  return PK_OK;
}
