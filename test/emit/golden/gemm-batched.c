PK_SHARED int kc_1_batched(const double *restrict A, const double *restrict B, double *restrict C, int64_t Bt, int64_t M, int64_t K, int64_t N) {
  const int64_t sC0 = Bt*N;
  const int64_t sA0 = M*K;
  const int64_t sB0 = Bt*N;
  double *restrict T = pk_calloc(sizeof(double), 1, (const int64_t[]){M});
  if (T == NULL) {
    free(T);
    return PK_NO_MEMORY;
  }
  { /* contraction s0: gemm_f64_avx512_8x24 */
    const int64_t pk_m = M, pk_n = N, pk_k = K;
    const pk_batch pk_bt = {1, {Bt}, {sA0}, {N}, {N}};
    const int64_t pk_batches = (Bt);
    const pk_gemm_f64_shape *pk_shape;
    int64_t pk_mc, pk_nc, pk_kc;
    int pk_across;
    if ((double)pk_m*(double)pk_n*(double)pk_k <= 2097152 && pk_batches >= 2) /* mc 96 nc 240 kc 256, order nkm, inner mn, parallel batch, pack AB */
      pk_shape = &pk_gemm_f64_avx512_8x24_nkm_mn_none_pp, pk_mc = 96, pk_nc = 240, pk_kc = 256, pk_across = 1;
    else /* mc 96 nc 240 kc 256, order nkm, inner nm, parallel m, pack AB */
      pk_shape = &pk_gemm_f64_avx512_8x24_nkm_nm_m_pp, pk_mc = 96, pk_nc = 240, pk_kc = 256, pk_across = 0;
    const int pk_status = pk_gemm_f64_run(&(const pk_gemm_f64){.a = A, .b = B, .c = C, .m = pk_m, .n = pk_n, .k = pk_k, .a_m = K, .a_k = 1, .b_k = sB0, .b_n = 1, .c_m = sC0, .mc = pk_mc, .nc = pk_nc, .kc = pk_kc}, &pk_bt, pk_shape, pk_across);
    if (pk_status != PK_OK) {
      free(T);
      return PK_NO_MEMORY;
    }
  }
  for (int64_t q = 0; q < M; q++) T[q] = 0.0;
  if (Bt >= 1 && K >= 1) {
    for (int64_t i = 0; i < M; i++) {
      T[i] += A[i*K];
    }
  }
  free(T);
  return PK_OK;
}
