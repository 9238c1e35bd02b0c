PK_SHARED int kc_2_reshaped(const double *restrict X, const double *restrict Y, double *restrict Z, int64_t A, int64_t B, int64_t C, int64_t D, int64_t E, int64_t F) {
  const int64_t sZ1 = E*F;
  const int64_t sX1 = C*D;
  const int64_t sY1 = E*F;
  { /* contraction s0: gemm_f64_avx512_8x24 */
    const int64_t pk_m = A*B, pk_n = E*F, pk_k = C*D;
    const pk_gemm_f64_shape *pk_shape;
    int64_t pk_mc, pk_nc, pk_kc;
    /* mc 96 nc 480 kc 256, order nkm, inner mn, parallel m, pack AB */
    pk_shape = &pk_gemm_f64_avx512_8x24_nkm_mn_m_pp, pk_mc = 96, pk_nc = 480, pk_kc = 256;
    const int pk_status = pk_gemm_f64_run(&(const pk_gemm_f64){.a = X, .b = Y, .c = Z, .m = pk_m, .n = pk_n, .k = pk_k, .a_m = sX1, .a_k = 1, .b_k = sY1, .b_n = 1, .c_m = sZ1, .mc = pk_mc, .nc = pk_nc, .kc = pk_kc, .overwrite = 1}, NULL, pk_shape, 0);
    if (pk_status != PK_OK) {
      return PK_NO_MEMORY;
    }
  }
  return PK_OK;
}
