PK_SHARED int kc_2_conv1d(const float *restrict x, const float *restrict w, float *restrict y1, float *restrict y2, float *restrict y3, int64_t N) {
  for (int64_t q = 0; q < N; q++) y1[q] = 0.0f;
  for (int64_t i = 0; i < N; i++) {
    for (int64_t r = 0; r < 3; r++) {
      if (i + r >= 1 && N >= i + r) {
        y1[i] += x[i + r - 1] * w[r];
      }
    }
  }
  for (int64_t q = 0; q < N; q++) y2[q] = 0.0f;
  for (int64_t i = 0; i < N; i++) {
    for (int64_t r = 0; r < 3; r++) {
      y2[i] += (i + r - 1 >= 0 && i + r - 1 < N ? x[i + r - 1] : 0.0f) * w[r];
    }
  }
  for (int64_t q = 0; q < N; q++) y3[q] = 0.0f;
  for (int64_t i = 0; i < N; i++) {
    for (int64_t r = pk_max_i64(0, -i + 1), r_end = pk_min_i64(3, N - i + 1); r < r_end; r++) {
      y3[i] += x[i + r - 1] * w[r];
    }
  }
  return PK_OK;
}
