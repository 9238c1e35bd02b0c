static int kc_1_softmax(const float *restrict X, float *restrict Y, int64_t N, int64_t D) {
  float *restrict m = pk_calloc(sizeof(float), 1, (const int64_t[]){N});
  float *restrict z = pk_calloc(sizeof(float), 1, (const int64_t[]){N});
  if (m == NULL || z == NULL) {
    free(m);
    free(z);
    return PK_NO_MEMORY;
  }
  for (int64_t q = 0; q < N; q++) m[q] = -INFINITY;
  for (int64_t i = 0; i < N; i++) {
    for (int64_t j = 0; j < D; j++) {
      m[i] = pk_max_f32(m[i], X[i*D + j]);
    }
  }
  for (int64_t i = 0; i < N; i++) {
    for (int64_t j = 0; j < D; j++) {
      Y[i*D + j] = expf(X[i*D + j] - m[i]);
    }
  }
  for (int64_t q = 0; q < N; q++) z[q] = 0.0f;
  for (int64_t i = 0; i < N; i++) {
    for (int64_t j = 0; j < D; j++) {
      z[i] += Y[i*D + j];
    }
  }
  for (int64_t i = 0; i < N; i++) {
    for (int64_t j = 0; j < D; j++) {
      Y[i*D + j] = Y[i*D + j] / z[i];
    }
  }
  free(m);
  free(z);
  return PK_OK;
}
