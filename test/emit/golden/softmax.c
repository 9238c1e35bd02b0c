/* Iterations [pk_begin, pk_end) of the parallel loop over i, counted from its first (pk_lo). */
typedef struct {
  const float *restrict X;
  float *restrict m;
  int64_t D;
  int64_t pk_lo;
} kc_1_softmax_p0_ctx;

__attribute__((noinline)) static void kc_1_softmax_p0(void *pk_ctx, int64_t pk_begin, int64_t pk_end) {
  const kc_1_softmax_p0_ctx *pk_c = pk_ctx;
  const float *restrict X = pk_c->X;
  float *restrict m = pk_c->m;
  int64_t D = pk_c->D;
  const int64_t pk_first = pk_c->pk_lo + pk_begin, pk_last = pk_c->pk_lo + pk_end;
  for (int64_t i = pk_first; i < pk_last; i++) {
    for (int64_t j = 0; j < D; j++) {
      m[i] = pk_max_f32(m[i], X[i*D + j]);
    }
  }
}

/* Iterations [pk_begin, pk_end) of the parallel loop over i, counted from its first (pk_lo). */
typedef struct {
  const float *restrict X;
  float *restrict Y;
  float *restrict m;
  int64_t D;
  int64_t pk_lo;
} kc_1_softmax_p1_ctx;

__attribute__((noinline)) static void kc_1_softmax_p1(void *pk_ctx, int64_t pk_begin, int64_t pk_end) {
  const kc_1_softmax_p1_ctx *pk_c = pk_ctx;
  const float *restrict X = pk_c->X;
  float *restrict Y = pk_c->Y;
  float *restrict m = pk_c->m;
  int64_t D = pk_c->D;
  const int64_t pk_first = pk_c->pk_lo + pk_begin, pk_last = pk_c->pk_lo + pk_end;
  for (int64_t i = pk_first; i < pk_last; i++) {
    for (int64_t j = 0; j < D; j++) {
      Y[i*D + j] = expf(X[i*D + j] - m[i]);
    }
  }
}

/* Iterations [pk_begin, pk_end) of the parallel loop over j, counted from its first (pk_lo). */
typedef struct {
  const float *restrict X;
  float *restrict Y;
  float *restrict m;
  int64_t D;
  int64_t i;
  int64_t pk_lo;
} kc_1_softmax_p2_ctx;

__attribute__((noinline)) static void kc_1_softmax_p2(void *pk_ctx, int64_t pk_begin, int64_t pk_end) {
  const kc_1_softmax_p2_ctx *pk_c = pk_ctx;
  const float *restrict X = pk_c->X;
  float *restrict Y = pk_c->Y;
  float *restrict m = pk_c->m;
  int64_t D = pk_c->D;
  int64_t i = pk_c->i;
  const int64_t pk_first = pk_c->pk_lo + pk_begin, pk_last = pk_c->pk_lo + pk_end;
  for (int64_t j = pk_first; j < pk_last; j++) {
    Y[i*D + j] = expf(X[i*D + j] - m[i]);
  }
}

/* Iterations [pk_begin, pk_end) of the parallel loop over i, counted from its first (pk_lo). */
typedef struct {
  float *restrict Y;
  float *restrict z;
  int64_t D;
  int64_t pk_lo;
} kc_1_softmax_p3_ctx;

__attribute__((noinline)) static void kc_1_softmax_p3(void *pk_ctx, int64_t pk_begin, int64_t pk_end) {
  const kc_1_softmax_p3_ctx *pk_c = pk_ctx;
  float *restrict Y = pk_c->Y;
  float *restrict z = pk_c->z;
  int64_t D = pk_c->D;
  const int64_t pk_first = pk_c->pk_lo + pk_begin, pk_last = pk_c->pk_lo + pk_end;
  for (int64_t i = pk_first; i < pk_last; i++) {
    for (int64_t j = 0; j < D; j++) {
      z[i] += Y[i*D + j];
    }
  }
}

/* Iterations [pk_begin, pk_end) of the parallel loop over i, counted from its first (pk_lo). */
typedef struct {
  float *restrict Y;
  float *restrict z;
  int64_t D;
  int64_t pk_lo;
} kc_1_softmax_p4_ctx;

__attribute__((noinline)) static void kc_1_softmax_p4(void *pk_ctx, int64_t pk_begin, int64_t pk_end) {
  const kc_1_softmax_p4_ctx *pk_c = pk_ctx;
  float *restrict Y = pk_c->Y;
  float *restrict z = pk_c->z;
  int64_t D = pk_c->D;
  const int64_t pk_first = pk_c->pk_lo + pk_begin, pk_last = pk_c->pk_lo + pk_end;
  for (int64_t i = pk_first; i < pk_last; i++) {
    for (int64_t j = 0; j < D; j++) {
      Y[i*D + j] = Y[i*D + j] / z[i];
    }
  }
}

/* Iterations [pk_begin, pk_end) of the parallel loop over j, counted from its first (pk_lo). */
typedef struct {
  float *restrict Y;
  float *restrict z;
  int64_t D;
  int64_t i;
  int64_t pk_lo;
} kc_1_softmax_p5_ctx;

__attribute__((noinline)) static void kc_1_softmax_p5(void *pk_ctx, int64_t pk_begin, int64_t pk_end) {
  const kc_1_softmax_p5_ctx *pk_c = pk_ctx;
  float *restrict Y = pk_c->Y;
  float *restrict z = pk_c->z;
  int64_t D = pk_c->D;
  int64_t i = pk_c->i;
  const int64_t pk_first = pk_c->pk_lo + pk_begin, pk_last = pk_c->pk_lo + pk_end;
  for (int64_t j = pk_first; j < pk_last; j++) {
    Y[i*D + j] = Y[i*D + j] / z[i];
  }
}

PK_SHARED int kc_1_softmax(const float *restrict X, float *restrict Y, int64_t N, int64_t D) {
  float *restrict m = pk_calloc(sizeof(float), 1, (const int64_t[]){N});
  float *restrict z = pk_calloc(sizeof(float), 1, (const int64_t[]){N});
  if (m == NULL || z == NULL) {
    free(m);
    free(z);
    return PK_NO_MEMORY;
  }
  for (int64_t q = 0; q < N; q++) m[q] = -INFINITY;
  {
    const int64_t pk_lo = 0, pk_n = N - pk_lo;
    kc_1_softmax_p0_ctx pk_ctx = {X, m, D, pk_lo};
    if ((double)pk_n * ((double)D) >= PK_PARALLEL_MIN_WORK) pk_parallel_for(pk_n, kc_1_softmax_p0, &pk_ctx);
    else kc_1_softmax_p0(&pk_ctx, 0, pk_n);
  }
  {
    const int64_t pk_lo = 0, pk_n = N - pk_lo;
    if (pk_n < pk_threads()) {
      for (int64_t i = pk_lo; i < pk_lo + pk_n; i++)
      {
        const int64_t pk_lo = 0, pk_n = D - pk_lo;
        kc_1_softmax_p2_ctx pk_ctx = {X, Y, m, D, i, pk_lo};
        if ((double)pk_n >= PK_PARALLEL_MIN_WORK) pk_parallel_for(pk_n, kc_1_softmax_p2, &pk_ctx);
        else kc_1_softmax_p2(&pk_ctx, 0, pk_n);
      }
    } else {
      kc_1_softmax_p1_ctx pk_ctx = {X, Y, m, D, pk_lo};
      if ((double)pk_n * ((double)D) >= PK_PARALLEL_MIN_WORK) pk_parallel_for(pk_n, kc_1_softmax_p1, &pk_ctx);
      else kc_1_softmax_p1(&pk_ctx, 0, pk_n);
    }
  }
  for (int64_t q = 0; q < N; q++) z[q] = 0.0f;
  {
    const int64_t pk_lo = 0, pk_n = N - pk_lo;
    kc_1_softmax_p3_ctx pk_ctx = {Y, z, D, pk_lo};
    if ((double)pk_n * ((double)D) >= PK_PARALLEL_MIN_WORK) pk_parallel_for(pk_n, kc_1_softmax_p3, &pk_ctx);
    else kc_1_softmax_p3(&pk_ctx, 0, pk_n);
  }
  {
    const int64_t pk_lo = 0, pk_n = N - pk_lo;
    if (pk_n < pk_threads()) {
      for (int64_t i = pk_lo; i < pk_lo + pk_n; i++)
      {
        const int64_t pk_lo = 0, pk_n = D - pk_lo;
        kc_1_softmax_p5_ctx pk_ctx = {Y, z, D, i, pk_lo};
        if ((double)pk_n >= PK_PARALLEL_MIN_WORK) pk_parallel_for(pk_n, kc_1_softmax_p5, &pk_ctx);
        else kc_1_softmax_p5(&pk_ctx, 0, pk_n);
      }
    } else {
      kc_1_softmax_p4_ctx pk_ctx = {Y, z, D, pk_lo};
      if ((double)pk_n * ((double)D) >= PK_PARALLEL_MIN_WORK) pk_parallel_for(pk_n, kc_1_softmax_p4, &pk_ctx);
      else kc_1_softmax_p4(&pk_ctx, 0, pk_n);
    }
  }
  free(m);
  free(z);
  return PK_OK;
}
