static int kc_1_batched(const double *restrict A, const double *restrict B, double *restrict C, int64_t Bt, int64_t M, int64_t K, int64_t N) {
  const int64_t sC0 = Bt*N;
  const int64_t sA0 = M*K;
  const int64_t sB0 = Bt*N;
  double *restrict T = pk_calloc(sizeof(double), 1, (const int64_t[]){M});
  if (T == NULL) {
    free(T);
    return PK_NO_MEMORY;
  }
  { /* contraction s0: gemm_f64_avx512_8x24, mc 224 nc 2712 kc 192, order nkm, parallel m */
    for (int64_t b = 0; b < Bt; b++) {
      const pk_gemm_f64 pk_g = {A + b*sA0, B + b*N, C + b*N, M, N, K, K, 1, sB0, 1, sC0, 224, 2712, 192};
      if (pk_gemm_f64_avx512_8x24_nkm_m(&pk_g) != PK_OK) {
        free(T);
        return PK_NO_MEMORY;
      }
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
