PK_SHARED int kc_2_nchw(const float *restrict I, const float *restrict F, float *restrict O, int64_t N, int64_t C, int64_t H, int64_t W, int64_t K, int64_t P, int64_t Q) {
  const int64_t sO0 = K*P*Q;
  const int64_t sO1 = P*Q;
  const int64_t sI0 = C*H*W;
  const int64_t sI1 = H*W;
  const int64_t sF0 = 9*C;
  { /* convolution s0: gemm_f32_avx512_8x48, direct, mc 64 nc 96 kc 128, weight-stationary */
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
      .stride = {1, 1, 0},
      .dil = {1, 1, 0},
      .off = {-1, -1, 0},
      .in_s = {W, 1, 0},
      .out_s = {Q, 1, 0},
      .flt_s = {3, 1, 0},
      .C = C,
      .K = K,
      .flt_c = 9,
      .flt_k = sF0,
      .in_c = sI1,
      .out_k = sO1,
      .mc = 64,
      .nc = 96,
      .kc = 128,
      .l1 = 9216,
      .l2 = 262144,
      .weight_stationary = 1,
      .im2col = 0,
      .im2col_below = 0,
      .channels_first = 1,
      .pack_filter_from = 49,
      .gemm_kc = 128,
      .zero_out = 1,
    };
    if (pk_conv_gemm_f32_avx512_8x48_run(&pk_cv) != PK_OK) {
      return PK_NO_MEMORY;
    }
  }
  return PK_OK;
}
