/* Convolution s0's epilogue on the output block pk_lo .. pk_hi (batch, spatial, channel indices). */
typedef struct {
  const float *restrict scale;
  const float *restrict X;
  int64_t sX0;
  int64_t sX1;
  int64_t K;
  float *restrict O;
  int64_t sO0;
  int64_t sO1;
} kc_3_fused_e0_ctx;

static void kc_3_fused_e0(const void *pk_ctx, const int64_t *pk_lo, const int64_t *pk_hi) {
  const kc_3_fused_e0_ctx *pk_c = pk_ctx;
  const float *restrict scale = pk_c->scale;
  const float *restrict X = pk_c->X;
  int64_t sX0 = pk_c->sX0;
  int64_t sX1 = pk_c->sX1;
  int64_t K = pk_c->K;
  float *restrict O = pk_c->O;
  int64_t sO0 = pk_c->sO0;
  int64_t sO1 = pk_c->sO1;
  for (int64_t a = pk_lo[0]; a < pk_hi[0]; a++) {
    for (int64_t b = pk_lo[1]; b < pk_hi[1]; b++) {
      for (int64_t e = pk_lo[2]; e < pk_hi[2]; e++) {
        {
          const int64_t pk_vlo = pk_lo[3], pk_vhi = pk_hi[3];
          if (pk_vlo < pk_vhi) {
            int64_t d = pk_vlo;
            for (; d <= pk_vhi - 16; d += 16) {
              __builtin_prefetch(scale + d + 512, 0, 3);
              __builtin_prefetch(X + a*sX0 + b*sX1 + e*K + d + 512, 0, 3);
              _mm512_storeu_ps(O + a*sO0 + b*sO1 + e*K + d, _mm512_add_ps(_mm512_mul_ps(_mm512_loadu_ps(O + a*sO0 + b*sO1 + e*K + d), _mm512_loadu_ps(scale + d)), _mm512_loadu_ps(X + a*sX0 + b*sX1 + e*K + d)));
            }
            if (d < pk_vhi) {
              const __mmask16 pk_vm = (__mmask16)((1u << (pk_vhi - d)) - 1u);
              _mm512_mask_storeu_ps(O + a*sO0 + b*sO1 + e*K + d, pk_vm, _mm512_add_ps(_mm512_mul_ps(_mm512_maskz_loadu_ps(pk_vm, O + a*sO0 + b*sO1 + e*K + d), _mm512_maskz_loadu_ps(pk_vm, scale + d)), _mm512_maskz_loadu_ps(pk_vm, X + a*sX0 + b*sX1 + e*K + d)));
            }
          }
        }
      }
    }
  }
}

PK_SHARED int kc_3_fused(const float *restrict I, const float *restrict F, const float *restrict scale, const float *restrict X, float *restrict O, int64_t N, int64_t H, int64_t W, int64_t C, int64_t K, int64_t P, int64_t Q) {
  const int64_t sO0 = P*Q*K;
  const int64_t sO1 = Q*K;
  const int64_t sI0 = H*W*C;
  const int64_t sI1 = W*C;
  const int64_t sF0 = 3*C*K;
  const int64_t sF1 = C*K;
  const int64_t sX0 = P*Q*K;
  const int64_t sX1 = Q*K;
  { /* convolution s0: gemm_f32_avx512_6x64, direct, mc 64 nc 96 kc 128, weight-stationary; through im2col on the cheapest of gemm_f32_avx512_8x48, gemm_f32_avx512_6x64, gemm_f32_avx512_7x64 */
    const kc_3_fused_e0_ctx pk_ectx = {scale, X, sX0, sX1, K, O, sO0, sO1};
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
      .epilogue = kc_3_fused_e0,
      .epilogue_ctx = &pk_ectx,
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
