PK_SHARED int kc_1_grouped(const float *restrict I, const float *restrict F, float *restrict O, int64_t N, int64_t H, int64_t W, int64_t G, int64_t C, int64_t K, int64_t P, int64_t Q) {
  const int64_t sO0 = P*Q*G*K;
  const int64_t sO1 = Q*G*K;
  const int64_t sO2 = G*K;
  const int64_t sI0 = H*W*G*C;
  const int64_t sI1 = W*G*C;
  const int64_t sI2 = G*C;
  const int64_t sF0 = 9*C*K;
  const int64_t sF1 = 3*C*K;
  const int64_t sF2 = C*K;
  { /* convolution s0: gemm_f32_avx2_6x16, im2col, mc 64 nc 96 kc 128, weight-stationary */
    const pk_conv_desc pk_cv = {
      .in = I,
      .flt = F,
      .out = O,
      .nb = 2,
      .nd = 2,
      .b_ext = {N, G, 0, 0},
      .b_in = {sI0, C, 0, 0},
      .b_out = {sO0, K, 0, 0},
      .b_flt = {0, sF0, 0, 0},
      .p_ext = {P, Q, 0},
      .r_ext = {3, 3, 0},
      .h_ext = {H, W, 0},
      .stride = {1, 1, 0},
      .dil = {1, 1, 0},
      .off = {-1, -1, 0},
      .in_s = {sI1, sI2, 0},
      .out_s = {sO1, sO2, 0},
      .flt_s = {sF1, sF2, 0},
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
      .im2col = 1,
      .im2col_below = 0,
      .channels_first = 0,
      .pack_filter_from = 49,
      .gemm_kc = 512,
      .zero_out = 1,
    };
    if (pk_conv_gemm_f32_avx2_6x16_run(&pk_cv) != PK_OK) {
      return PK_NO_MEMORY;
    }
  }
  return PK_OK;
}
