static int kc_0_matmul(const float *restrict A, const float *restrict B, float *restrict C, int64_t M, int64_t N, int64_t K) {
  for (int64_t q = 0; q < M*N; q++) C[q] = 0.0f;
  for (int64_t i = 0; i < M; i++) {
    for (int64_t k = 0; k < K; k++) {
      for (int64_t j = 0; j < N; j++) {
        C[i*N + j] += A[i*K + k] * B[k*N + j];
      }
    }
  }
  return PK_OK;
}
