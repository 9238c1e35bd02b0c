/* Iterations [pk_begin, pk_end) of the parallel loop over i, counted from its first (pk_lo). */
typedef struct {
  const float *restrict A;
  const float *restrict B;
  float *restrict C;
  int64_t N;
  int64_t K;
  int64_t pk_lo;
} kc_0_matmul_p0_ctx;

__attribute__((noinline)) static void kc_0_matmul_p0(void *pk_ctx, int64_t pk_begin, int64_t pk_end) {
  const kc_0_matmul_p0_ctx *pk_c = pk_ctx;
  const float *restrict A = pk_c->A;
  const float *restrict B = pk_c->B;
  float *restrict C = pk_c->C;
  int64_t N = pk_c->N;
  int64_t K = pk_c->K;
  const int64_t pk_first = pk_c->pk_lo + pk_begin, pk_last = pk_c->pk_lo + pk_end;
  for (int64_t i = pk_first; i < pk_last; i++) {
    for (int64_t k = 0; k < K; k++) {
      for (int64_t j = 0; j < N; j++) {
        C[i*N + j] += A[i*K + k] * B[k*N + j];
      }
    }
  }
}

PK_SHARED int kc_0_matmul(const float *restrict A, const float *restrict B, float *restrict C, int64_t M, int64_t N, int64_t K) {
  for (int64_t q = 0; q < M*N; q++) C[q] = 0.0f;
  {
    const int64_t pk_lo = 0, pk_n = M - pk_lo;
    kc_0_matmul_p0_ctx pk_ctx = {A, B, C, N, K, pk_lo};
    if ((double)pk_n * ((double)K * (double)N) >= PK_PARALLEL_MIN_WORK) pk_parallel_for(pk_n, kc_0_matmul_p0, &pk_ctx);
    else kc_0_matmul_p0(&pk_ctx, 0, pk_n);
  }
  return PK_OK;
}
