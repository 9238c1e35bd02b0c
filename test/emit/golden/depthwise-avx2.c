PK_SHARED int kc_3_depthwise(const float *restrict I, const float *restrict F, float *restrict O, int64_t N, int64_t H, int64_t W, int64_t C, int64_t P, int64_t Q) {
  const int64_t sO0 = P*Q*C;
  const int64_t sO1 = Q*C;
  const int64_t sI0 = H*W*C;
  const int64_t sI1 = W*C;
  const int64_t sF0 = 3*C;
  for (int64_t n = 0; n < N; n++) {
    for (int64_t p = 0; p < P; p++) {
      for (int64_t q = 0, q_end2 = pk_max_i64(0, pk_min_i64(Q, 1)); q < q_end2; q++) {
        {
          const int64_t pk_vlo = 0, pk_vhi = C;
          if (pk_vlo < pk_vhi) {
            int64_t c = pk_vlo;
            for (; c <= pk_vhi - 32; c += 32) {
              __m256 pk_vacc0_0 = _mm256_set1_ps(0.0f);
              __m256 pk_vacc0_1 = _mm256_set1_ps(0.0f);
              __m256 pk_vacc0_2 = _mm256_set1_ps(0.0f);
              __m256 pk_vacc0_3 = _mm256_set1_ps(0.0f);
              for (int64_t r = pk_max_i64(0, -p + 1), r_end = pk_min_i64(3, H - p + 1); r < r_end; r++) {
                for (int64_t s = pk_max_i64(0, -q + 1), s_end = pk_min_i64(3, W - q + 1); s < s_end; s++) {
                  pk_vacc0_0 = _mm256_add_ps(pk_vacc0_0, _mm256_mul_ps(_mm256_loadu_ps(I + n*sI0 + (p + r - 1)*sI1 + (q + s - 1)*C + c), _mm256_loadu_ps(F + r*sF0 + s*C + c)));
                  pk_vacc0_1 = _mm256_add_ps(pk_vacc0_1, _mm256_mul_ps(_mm256_loadu_ps(I + n*sI0 + (p + r - 1)*sI1 + (q + s - 1)*C + c + 8), _mm256_loadu_ps(F + r*sF0 + s*C + c + 8)));
                  pk_vacc0_2 = _mm256_add_ps(pk_vacc0_2, _mm256_mul_ps(_mm256_loadu_ps(I + n*sI0 + (p + r - 1)*sI1 + (q + s - 1)*C + c + 16), _mm256_loadu_ps(F + r*sF0 + s*C + c + 16)));
                  pk_vacc0_3 = _mm256_add_ps(pk_vacc0_3, _mm256_mul_ps(_mm256_loadu_ps(I + n*sI0 + (p + r - 1)*sI1 + (q + s - 1)*C + c + 24), _mm256_loadu_ps(F + r*sF0 + s*C + c + 24)));
                }
              }
              _mm256_storeu_ps(O + n*sO0 + p*sO1 + q*C + c, pk_vacc0_0);
              _mm256_storeu_ps(O + n*sO0 + p*sO1 + q*C + c + 8, pk_vacc0_1);
              _mm256_storeu_ps(O + n*sO0 + p*sO1 + q*C + c + 16, pk_vacc0_2);
              _mm256_storeu_ps(O + n*sO0 + p*sO1 + q*C + c + 24, pk_vacc0_3);
            }
            for (; c <= pk_vhi - 16; c += 16) {
              __m256 pk_vacc0_0 = _mm256_set1_ps(0.0f);
              __m256 pk_vacc0_1 = _mm256_set1_ps(0.0f);
              for (int64_t r = pk_max_i64(0, -p + 1), r_end2 = pk_min_i64(3, H - p + 1); r < r_end2; r++) {
                for (int64_t s = pk_max_i64(0, -q + 1), s_end2 = pk_min_i64(3, W - q + 1); s < s_end2; s++) {
                  pk_vacc0_0 = _mm256_add_ps(pk_vacc0_0, _mm256_mul_ps(_mm256_loadu_ps(I + n*sI0 + (p + r - 1)*sI1 + (q + s - 1)*C + c), _mm256_loadu_ps(F + r*sF0 + s*C + c)));
                  pk_vacc0_1 = _mm256_add_ps(pk_vacc0_1, _mm256_mul_ps(_mm256_loadu_ps(I + n*sI0 + (p + r - 1)*sI1 + (q + s - 1)*C + c + 8), _mm256_loadu_ps(F + r*sF0 + s*C + c + 8)));
                }
              }
              _mm256_storeu_ps(O + n*sO0 + p*sO1 + q*C + c, pk_vacc0_0);
              _mm256_storeu_ps(O + n*sO0 + p*sO1 + q*C + c + 8, pk_vacc0_1);
            }
            for (; c <= pk_vhi - 8; c += 8) {
              __m256 pk_vacc0_0 = _mm256_set1_ps(0.0f);
              for (int64_t r = pk_max_i64(0, -p + 1), r_end3 = pk_min_i64(3, H - p + 1); r < r_end3; r++) {
                for (int64_t s = pk_max_i64(0, -q + 1), s_end3 = pk_min_i64(3, W - q + 1); s < s_end3; s++) {
                  pk_vacc0_0 = _mm256_add_ps(pk_vacc0_0, _mm256_mul_ps(_mm256_loadu_ps(I + n*sI0 + (p + r - 1)*sI1 + (q + s - 1)*C + c), _mm256_loadu_ps(F + r*sF0 + s*C + c)));
                }
              }
              _mm256_storeu_ps(O + n*sO0 + p*sO1 + q*C + c, pk_vacc0_0);
            }
            if (c < pk_vhi) {
              const __m256i pk_vm = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_vhi - c)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
              __m256 pk_vacc0_0 = _mm256_set1_ps(0.0f);
              for (int64_t r = pk_max_i64(0, -p + 1), r_end4 = pk_min_i64(3, H - p + 1); r < r_end4; r++) {
                for (int64_t s = pk_max_i64(0, -q + 1), s_end4 = pk_min_i64(3, W - q + 1); s < s_end4; s++) {
                  pk_vacc0_0 = _mm256_add_ps(pk_vacc0_0, _mm256_mul_ps(_mm256_maskload_ps(I + n*sI0 + (p + r - 1)*sI1 + (q + s - 1)*C + c, pk_vm), _mm256_maskload_ps(F + r*sF0 + s*C + c, pk_vm)));
                }
              }
              _mm256_maskstore_ps(O + n*sO0 + p*sO1 + q*C + c, pk_vm, pk_vacc0_0);
            }
          }
        }
      }
      {
        int64_t q = pk_max_i64(0, pk_min_i64(Q, 1)), q_end = pk_max_i64(pk_max_i64(0, pk_min_i64(Q, 1)), pk_min_i64(Q, W - 1));
        {
          const int64_t pk_vlo = 0, pk_vhi = C;
          if (pk_vlo < pk_vhi) {
            const int64_t pk_per = pk_vhi / 8;
            if (pk_vhi % 8 == 0 && (pk_per & (pk_per - 1)) == 0 && pk_per <= 2 && q < q_end && 9*C <= 4096) {
              int64_t pk_rf = q * pk_vhi;
              const int64_t pk_rend = q_end * pk_vhi;
              const int64_t pk_head = pk_min_i64(pk_rend - pk_rf, (int64_t)(((uintptr_t)0 - ((uintptr_t)I + (uintptr_t)(n*sI0 + (p - 1)*sI1 + -1*C + pk_rf) * 4)) % 32) / 4);
              if (pk_head > 0) {
                const __m256i pk_vm = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_head)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
                __m256 pk_vacc0_0 = _mm256_set1_ps(0.0f);
                for (int64_t r = pk_max_i64(0, -p + 1), r_end5 = pk_min_i64(3, H - p + 1); r < r_end5; r++) {
                  for (int64_t s = 0; s < 3; s++) {
                    pk_vacc0_0 = _mm256_add_ps(pk_vacc0_0, _mm256_mul_ps(_mm256_maskload_ps(I + n*sI0 + (p + r - 1)*sI1 + (s - 1)*C + pk_rf, pk_vm), _mm256_maskload_ps(F + r*sF0 + s*C, pk_vm)));
                  }
                }
                _mm256_maskstore_ps(O + n*sO0 + p*sO1 + pk_rf, pk_vm, pk_vacc0_0);
              }
              pk_rf += pk_head;
              const int64_t pk_ra = pk_rf;
              _Alignas(64) float pk_run_F[4096];
              for (int64_t pk_row = 0; pk_row < 9*C; pk_row += pk_vhi) {
                int64_t pk_j = 0;
                for (; pk_j < pk_vhi - pk_head; pk_j++) pk_run_F[pk_row + pk_j] = F[pk_row + pk_head + pk_j];
                for (; pk_j < pk_vhi; pk_j++) pk_run_F[pk_row + pk_j] = F[pk_row + pk_head + pk_j - pk_vhi];
              }
              if (pk_per == 1) {
                for (; pk_rf <= pk_rend - 64; pk_rf += 64) {
                  __m256 pk_vacc0_0 = _mm256_set1_ps(0.0f);
                  __m256 pk_vacc0_1 = _mm256_set1_ps(0.0f);
                  __m256 pk_vacc0_2 = _mm256_set1_ps(0.0f);
                  __m256 pk_vacc0_3 = _mm256_set1_ps(0.0f);
                  __m256 pk_vacc0_4 = _mm256_set1_ps(0.0f);
                  __m256 pk_vacc0_5 = _mm256_set1_ps(0.0f);
                  __m256 pk_vacc0_6 = _mm256_set1_ps(0.0f);
                  __m256 pk_vacc0_7 = _mm256_set1_ps(0.0f);
                  for (int64_t r = pk_max_i64(0, -p + 1), r_end6 = pk_min_i64(3, H - p + 1); r < r_end6; r++) {
                    for (int64_t s = 0; s < 3; s++) {
                      pk_vacc0_0 = _mm256_add_ps(pk_vacc0_0, _mm256_mul_ps(_mm256_loadu_ps(I + n*sI0 + (p + r - 1)*sI1 + (s - 1)*C + pk_rf), _mm256_load_ps(pk_run_F + r*sF0 + s*C + 0)));
                      pk_vacc0_1 = _mm256_add_ps(pk_vacc0_1, _mm256_mul_ps(_mm256_loadu_ps(I + n*sI0 + (p + r - 1)*sI1 + (s - 1)*C + pk_rf + 8), _mm256_load_ps(pk_run_F + r*sF0 + s*C + 0)));
                      pk_vacc0_2 = _mm256_add_ps(pk_vacc0_2, _mm256_mul_ps(_mm256_loadu_ps(I + n*sI0 + (p + r - 1)*sI1 + (s - 1)*C + pk_rf + 16), _mm256_load_ps(pk_run_F + r*sF0 + s*C + 0)));
                      pk_vacc0_3 = _mm256_add_ps(pk_vacc0_3, _mm256_mul_ps(_mm256_loadu_ps(I + n*sI0 + (p + r - 1)*sI1 + (s - 1)*C + pk_rf + 24), _mm256_load_ps(pk_run_F + r*sF0 + s*C + 0)));
                      pk_vacc0_4 = _mm256_add_ps(pk_vacc0_4, _mm256_mul_ps(_mm256_loadu_ps(I + n*sI0 + (p + r - 1)*sI1 + (s - 1)*C + pk_rf + 32), _mm256_load_ps(pk_run_F + r*sF0 + s*C + 0)));
                      pk_vacc0_5 = _mm256_add_ps(pk_vacc0_5, _mm256_mul_ps(_mm256_loadu_ps(I + n*sI0 + (p + r - 1)*sI1 + (s - 1)*C + pk_rf + 40), _mm256_load_ps(pk_run_F + r*sF0 + s*C + 0)));
                      pk_vacc0_6 = _mm256_add_ps(pk_vacc0_6, _mm256_mul_ps(_mm256_loadu_ps(I + n*sI0 + (p + r - 1)*sI1 + (s - 1)*C + pk_rf + 48), _mm256_load_ps(pk_run_F + r*sF0 + s*C + 0)));
                      pk_vacc0_7 = _mm256_add_ps(pk_vacc0_7, _mm256_mul_ps(_mm256_loadu_ps(I + n*sI0 + (p + r - 1)*sI1 + (s - 1)*C + pk_rf + 56), _mm256_load_ps(pk_run_F + r*sF0 + s*C + 0)));
                    }
                  }
                  _mm256_storeu_ps(O + n*sO0 + p*sO1 + pk_rf, pk_vacc0_0);
                  _mm256_storeu_ps(O + n*sO0 + p*sO1 + pk_rf + 8, pk_vacc0_1);
                  _mm256_storeu_ps(O + n*sO0 + p*sO1 + pk_rf + 16, pk_vacc0_2);
                  _mm256_storeu_ps(O + n*sO0 + p*sO1 + pk_rf + 24, pk_vacc0_3);
                  _mm256_storeu_ps(O + n*sO0 + p*sO1 + pk_rf + 32, pk_vacc0_4);
                  _mm256_storeu_ps(O + n*sO0 + p*sO1 + pk_rf + 40, pk_vacc0_5);
                  _mm256_storeu_ps(O + n*sO0 + p*sO1 + pk_rf + 48, pk_vacc0_6);
                  _mm256_storeu_ps(O + n*sO0 + p*sO1 + pk_rf + 56, pk_vacc0_7);
                }
              }
              if (pk_per == 2) {
                for (; pk_rf <= pk_rend - 64; pk_rf += 64) {
                  __m256 pk_vacc0_0 = _mm256_set1_ps(0.0f);
                  __m256 pk_vacc0_1 = _mm256_set1_ps(0.0f);
                  __m256 pk_vacc0_2 = _mm256_set1_ps(0.0f);
                  __m256 pk_vacc0_3 = _mm256_set1_ps(0.0f);
                  __m256 pk_vacc0_4 = _mm256_set1_ps(0.0f);
                  __m256 pk_vacc0_5 = _mm256_set1_ps(0.0f);
                  __m256 pk_vacc0_6 = _mm256_set1_ps(0.0f);
                  __m256 pk_vacc0_7 = _mm256_set1_ps(0.0f);
                  for (int64_t r = pk_max_i64(0, -p + 1), r_end7 = pk_min_i64(3, H - p + 1); r < r_end7; r++) {
                    for (int64_t s = 0; s < 3; s++) {
                      pk_vacc0_0 = _mm256_add_ps(pk_vacc0_0, _mm256_mul_ps(_mm256_loadu_ps(I + n*sI0 + (p + r - 1)*sI1 + (s - 1)*C + pk_rf), _mm256_load_ps(pk_run_F + r*sF0 + s*C + 0)));
                      pk_vacc0_1 = _mm256_add_ps(pk_vacc0_1, _mm256_mul_ps(_mm256_loadu_ps(I + n*sI0 + (p + r - 1)*sI1 + (s - 1)*C + pk_rf + 8), _mm256_load_ps(pk_run_F + r*sF0 + s*C + 8)));
                      pk_vacc0_2 = _mm256_add_ps(pk_vacc0_2, _mm256_mul_ps(_mm256_loadu_ps(I + n*sI0 + (p + r - 1)*sI1 + (s - 1)*C + pk_rf + 16), _mm256_load_ps(pk_run_F + r*sF0 + s*C + 0)));
                      pk_vacc0_3 = _mm256_add_ps(pk_vacc0_3, _mm256_mul_ps(_mm256_loadu_ps(I + n*sI0 + (p + r - 1)*sI1 + (s - 1)*C + pk_rf + 24), _mm256_load_ps(pk_run_F + r*sF0 + s*C + 8)));
                      pk_vacc0_4 = _mm256_add_ps(pk_vacc0_4, _mm256_mul_ps(_mm256_loadu_ps(I + n*sI0 + (p + r - 1)*sI1 + (s - 1)*C + pk_rf + 32), _mm256_load_ps(pk_run_F + r*sF0 + s*C + 0)));
                      pk_vacc0_5 = _mm256_add_ps(pk_vacc0_5, _mm256_mul_ps(_mm256_loadu_ps(I + n*sI0 + (p + r - 1)*sI1 + (s - 1)*C + pk_rf + 40), _mm256_load_ps(pk_run_F + r*sF0 + s*C + 8)));
                      pk_vacc0_6 = _mm256_add_ps(pk_vacc0_6, _mm256_mul_ps(_mm256_loadu_ps(I + n*sI0 + (p + r - 1)*sI1 + (s - 1)*C + pk_rf + 48), _mm256_load_ps(pk_run_F + r*sF0 + s*C + 0)));
                      pk_vacc0_7 = _mm256_add_ps(pk_vacc0_7, _mm256_mul_ps(_mm256_loadu_ps(I + n*sI0 + (p + r - 1)*sI1 + (s - 1)*C + pk_rf + 56), _mm256_load_ps(pk_run_F + r*sF0 + s*C + 8)));
                    }
                  }
                  _mm256_storeu_ps(O + n*sO0 + p*sO1 + pk_rf, pk_vacc0_0);
                  _mm256_storeu_ps(O + n*sO0 + p*sO1 + pk_rf + 8, pk_vacc0_1);
                  _mm256_storeu_ps(O + n*sO0 + p*sO1 + pk_rf + 16, pk_vacc0_2);
                  _mm256_storeu_ps(O + n*sO0 + p*sO1 + pk_rf + 24, pk_vacc0_3);
                  _mm256_storeu_ps(O + n*sO0 + p*sO1 + pk_rf + 32, pk_vacc0_4);
                  _mm256_storeu_ps(O + n*sO0 + p*sO1 + pk_rf + 40, pk_vacc0_5);
                  _mm256_storeu_ps(O + n*sO0 + p*sO1 + pk_rf + 48, pk_vacc0_6);
                  _mm256_storeu_ps(O + n*sO0 + p*sO1 + pk_rf + 56, pk_vacc0_7);
                }
              }
              for (; pk_rf <= pk_rend - 8; pk_rf += 8) {
                __m256 pk_vacc0_0 = _mm256_set1_ps(0.0f);
                for (int64_t r = pk_max_i64(0, -p + 1), r_end8 = pk_min_i64(3, H - p + 1); r < r_end8; r++) {
                  for (int64_t s = 0; s < 3; s++) {
                    pk_vacc0_0 = _mm256_add_ps(pk_vacc0_0, _mm256_mul_ps(_mm256_loadu_ps(I + n*sI0 + (p + r - 1)*sI1 + (s - 1)*C + pk_rf), _mm256_load_ps(pk_run_F + r*sF0 + s*C + (pk_rf - pk_ra) % pk_vhi)));
                  }
                }
                _mm256_storeu_ps(O + n*sO0 + p*sO1 + pk_rf, pk_vacc0_0);
              }
              if (pk_rf < pk_rend) {
                const __m256i pk_vm = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_rend - pk_rf)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
                __m256 pk_vacc0_0 = _mm256_set1_ps(0.0f);
                for (int64_t r = pk_max_i64(0, -p + 1), r_end9 = pk_min_i64(3, H - p + 1); r < r_end9; r++) {
                  for (int64_t s = 0; s < 3; s++) {
                    pk_vacc0_0 = _mm256_add_ps(pk_vacc0_0, _mm256_mul_ps(_mm256_maskload_ps(I + n*sI0 + (p + r - 1)*sI1 + (s - 1)*C + pk_rf, pk_vm), _mm256_maskload_ps(pk_run_F + r*sF0 + s*C + (pk_rf - pk_ra) % pk_vhi, pk_vm)));
                  }
                }
                _mm256_maskstore_ps(O + n*sO0 + p*sO1 + pk_rf, pk_vm, pk_vacc0_0);
              }
              q = q_end;
            }
          }
        }
        for (; q <= q_end - 8; q += 8) {
          {
            const int64_t pk_vlo = 0, pk_vhi = C;
            if (pk_vlo < pk_vhi) {
              int64_t c = pk_vlo;
              for (; c <= pk_vhi - 8; c += 8) {
                __m256 pk_vacc0_0 = _mm256_set1_ps(0.0f);
                __m256 pk_vacc0_0_1 = _mm256_set1_ps(0.0f);
                __m256 pk_vacc0_0_2 = _mm256_set1_ps(0.0f);
                __m256 pk_vacc0_0_3 = _mm256_set1_ps(0.0f);
                __m256 pk_vacc0_0_4 = _mm256_set1_ps(0.0f);
                __m256 pk_vacc0_0_5 = _mm256_set1_ps(0.0f);
                __m256 pk_vacc0_0_6 = _mm256_set1_ps(0.0f);
                __m256 pk_vacc0_0_7 = _mm256_set1_ps(0.0f);
                for (int64_t r = pk_max_i64(0, -p + 1), r_end10 = pk_min_i64(3, H - p + 1); r < r_end10; r++) {
                  for (int64_t s = 0; s < 3; s++) {
                    pk_vacc0_0 = _mm256_add_ps(pk_vacc0_0, _mm256_mul_ps(_mm256_loadu_ps(I + n*sI0 + (p + r - 1)*sI1 + (q + s - 1)*C + c), _mm256_loadu_ps(F + r*sF0 + s*C + c)));
                    pk_vacc0_0_1 = _mm256_add_ps(pk_vacc0_0_1, _mm256_mul_ps(_mm256_loadu_ps(I + n*sI0 + (p + r - 1)*sI1 + (q + s)*C + c), _mm256_loadu_ps(F + r*sF0 + s*C + c)));
                    pk_vacc0_0_2 = _mm256_add_ps(pk_vacc0_0_2, _mm256_mul_ps(_mm256_loadu_ps(I + n*sI0 + (p + r - 1)*sI1 + (q + s + 1)*C + c), _mm256_loadu_ps(F + r*sF0 + s*C + c)));
                    pk_vacc0_0_3 = _mm256_add_ps(pk_vacc0_0_3, _mm256_mul_ps(_mm256_loadu_ps(I + n*sI0 + (p + r - 1)*sI1 + (q + s + 2)*C + c), _mm256_loadu_ps(F + r*sF0 + s*C + c)));
                    pk_vacc0_0_4 = _mm256_add_ps(pk_vacc0_0_4, _mm256_mul_ps(_mm256_loadu_ps(I + n*sI0 + (p + r - 1)*sI1 + (q + s + 3)*C + c), _mm256_loadu_ps(F + r*sF0 + s*C + c)));
                    pk_vacc0_0_5 = _mm256_add_ps(pk_vacc0_0_5, _mm256_mul_ps(_mm256_loadu_ps(I + n*sI0 + (p + r - 1)*sI1 + (q + s + 4)*C + c), _mm256_loadu_ps(F + r*sF0 + s*C + c)));
                    pk_vacc0_0_6 = _mm256_add_ps(pk_vacc0_0_6, _mm256_mul_ps(_mm256_loadu_ps(I + n*sI0 + (p + r - 1)*sI1 + (q + s + 5)*C + c), _mm256_loadu_ps(F + r*sF0 + s*C + c)));
                    pk_vacc0_0_7 = _mm256_add_ps(pk_vacc0_0_7, _mm256_mul_ps(_mm256_loadu_ps(I + n*sI0 + (p + r - 1)*sI1 + (q + s + 6)*C + c), _mm256_loadu_ps(F + r*sF0 + s*C + c)));
                  }
                }
                _mm256_storeu_ps(O + n*sO0 + p*sO1 + q*C + c, pk_vacc0_0);
                _mm256_storeu_ps(O + n*sO0 + p*sO1 + (q + 1)*C + c, pk_vacc0_0_1);
                _mm256_storeu_ps(O + n*sO0 + p*sO1 + (q + 2)*C + c, pk_vacc0_0_2);
                _mm256_storeu_ps(O + n*sO0 + p*sO1 + (q + 3)*C + c, pk_vacc0_0_3);
                _mm256_storeu_ps(O + n*sO0 + p*sO1 + (q + 4)*C + c, pk_vacc0_0_4);
                _mm256_storeu_ps(O + n*sO0 + p*sO1 + (q + 5)*C + c, pk_vacc0_0_5);
                _mm256_storeu_ps(O + n*sO0 + p*sO1 + (q + 6)*C + c, pk_vacc0_0_6);
                _mm256_storeu_ps(O + n*sO0 + p*sO1 + (q + 7)*C + c, pk_vacc0_0_7);
              }
              if (c < pk_vhi) {
                const __m256i pk_vm = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_vhi - c)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
                __m256 pk_vacc0_0 = _mm256_set1_ps(0.0f);
                __m256 pk_vacc0_0_1 = _mm256_set1_ps(0.0f);
                __m256 pk_vacc0_0_2 = _mm256_set1_ps(0.0f);
                __m256 pk_vacc0_0_3 = _mm256_set1_ps(0.0f);
                __m256 pk_vacc0_0_4 = _mm256_set1_ps(0.0f);
                __m256 pk_vacc0_0_5 = _mm256_set1_ps(0.0f);
                __m256 pk_vacc0_0_6 = _mm256_set1_ps(0.0f);
                __m256 pk_vacc0_0_7 = _mm256_set1_ps(0.0f);
                for (int64_t r = pk_max_i64(0, -p + 1), r_end11 = pk_min_i64(3, H - p + 1); r < r_end11; r++) {
                  for (int64_t s = 0; s < 3; s++) {
                    pk_vacc0_0 = _mm256_add_ps(pk_vacc0_0, _mm256_mul_ps(_mm256_maskload_ps(I + n*sI0 + (p + r - 1)*sI1 + (q + s - 1)*C + c, pk_vm), _mm256_maskload_ps(F + r*sF0 + s*C + c, pk_vm)));
                    pk_vacc0_0_1 = _mm256_add_ps(pk_vacc0_0_1, _mm256_mul_ps(_mm256_maskload_ps(I + n*sI0 + (p + r - 1)*sI1 + (q + s)*C + c, pk_vm), _mm256_maskload_ps(F + r*sF0 + s*C + c, pk_vm)));
                    pk_vacc0_0_2 = _mm256_add_ps(pk_vacc0_0_2, _mm256_mul_ps(_mm256_maskload_ps(I + n*sI0 + (p + r - 1)*sI1 + (q + s + 1)*C + c, pk_vm), _mm256_maskload_ps(F + r*sF0 + s*C + c, pk_vm)));
                    pk_vacc0_0_3 = _mm256_add_ps(pk_vacc0_0_3, _mm256_mul_ps(_mm256_maskload_ps(I + n*sI0 + (p + r - 1)*sI1 + (q + s + 2)*C + c, pk_vm), _mm256_maskload_ps(F + r*sF0 + s*C + c, pk_vm)));
                    pk_vacc0_0_4 = _mm256_add_ps(pk_vacc0_0_4, _mm256_mul_ps(_mm256_maskload_ps(I + n*sI0 + (p + r - 1)*sI1 + (q + s + 3)*C + c, pk_vm), _mm256_maskload_ps(F + r*sF0 + s*C + c, pk_vm)));
                    pk_vacc0_0_5 = _mm256_add_ps(pk_vacc0_0_5, _mm256_mul_ps(_mm256_maskload_ps(I + n*sI0 + (p + r - 1)*sI1 + (q + s + 4)*C + c, pk_vm), _mm256_maskload_ps(F + r*sF0 + s*C + c, pk_vm)));
                    pk_vacc0_0_6 = _mm256_add_ps(pk_vacc0_0_6, _mm256_mul_ps(_mm256_maskload_ps(I + n*sI0 + (p + r - 1)*sI1 + (q + s + 5)*C + c, pk_vm), _mm256_maskload_ps(F + r*sF0 + s*C + c, pk_vm)));
                    pk_vacc0_0_7 = _mm256_add_ps(pk_vacc0_0_7, _mm256_mul_ps(_mm256_maskload_ps(I + n*sI0 + (p + r - 1)*sI1 + (q + s + 6)*C + c, pk_vm), _mm256_maskload_ps(F + r*sF0 + s*C + c, pk_vm)));
                  }
                }
                _mm256_maskstore_ps(O + n*sO0 + p*sO1 + q*C + c, pk_vm, pk_vacc0_0);
                _mm256_maskstore_ps(O + n*sO0 + p*sO1 + (q + 1)*C + c, pk_vm, pk_vacc0_0_1);
                _mm256_maskstore_ps(O + n*sO0 + p*sO1 + (q + 2)*C + c, pk_vm, pk_vacc0_0_2);
                _mm256_maskstore_ps(O + n*sO0 + p*sO1 + (q + 3)*C + c, pk_vm, pk_vacc0_0_3);
                _mm256_maskstore_ps(O + n*sO0 + p*sO1 + (q + 4)*C + c, pk_vm, pk_vacc0_0_4);
                _mm256_maskstore_ps(O + n*sO0 + p*sO1 + (q + 5)*C + c, pk_vm, pk_vacc0_0_5);
                _mm256_maskstore_ps(O + n*sO0 + p*sO1 + (q + 6)*C + c, pk_vm, pk_vacc0_0_6);
                _mm256_maskstore_ps(O + n*sO0 + p*sO1 + (q + 7)*C + c, pk_vm, pk_vacc0_0_7);
              }
            }
          }
        }
        for (; q < q_end; q++) {
          {
            const int64_t pk_vlo = 0, pk_vhi = C;
            if (pk_vlo < pk_vhi) {
              int64_t c = pk_vlo;
              for (; c <= pk_vhi - 32; c += 32) {
                __m256 pk_vacc0_0 = _mm256_set1_ps(0.0f);
                __m256 pk_vacc0_1 = _mm256_set1_ps(0.0f);
                __m256 pk_vacc0_2 = _mm256_set1_ps(0.0f);
                __m256 pk_vacc0_3 = _mm256_set1_ps(0.0f);
                for (int64_t r = pk_max_i64(0, -p + 1), r_end12 = pk_min_i64(3, H - p + 1); r < r_end12; r++) {
                  for (int64_t s = 0; s < 3; s++) {
                    pk_vacc0_0 = _mm256_add_ps(pk_vacc0_0, _mm256_mul_ps(_mm256_loadu_ps(I + n*sI0 + (p + r - 1)*sI1 + (q + s - 1)*C + c), _mm256_loadu_ps(F + r*sF0 + s*C + c)));
                    pk_vacc0_1 = _mm256_add_ps(pk_vacc0_1, _mm256_mul_ps(_mm256_loadu_ps(I + n*sI0 + (p + r - 1)*sI1 + (q + s - 1)*C + c + 8), _mm256_loadu_ps(F + r*sF0 + s*C + c + 8)));
                    pk_vacc0_2 = _mm256_add_ps(pk_vacc0_2, _mm256_mul_ps(_mm256_loadu_ps(I + n*sI0 + (p + r - 1)*sI1 + (q + s - 1)*C + c + 16), _mm256_loadu_ps(F + r*sF0 + s*C + c + 16)));
                    pk_vacc0_3 = _mm256_add_ps(pk_vacc0_3, _mm256_mul_ps(_mm256_loadu_ps(I + n*sI0 + (p + r - 1)*sI1 + (q + s - 1)*C + c + 24), _mm256_loadu_ps(F + r*sF0 + s*C + c + 24)));
                  }
                }
                _mm256_storeu_ps(O + n*sO0 + p*sO1 + q*C + c, pk_vacc0_0);
                _mm256_storeu_ps(O + n*sO0 + p*sO1 + q*C + c + 8, pk_vacc0_1);
                _mm256_storeu_ps(O + n*sO0 + p*sO1 + q*C + c + 16, pk_vacc0_2);
                _mm256_storeu_ps(O + n*sO0 + p*sO1 + q*C + c + 24, pk_vacc0_3);
              }
              for (; c <= pk_vhi - 16; c += 16) {
                __m256 pk_vacc0_0 = _mm256_set1_ps(0.0f);
                __m256 pk_vacc0_1 = _mm256_set1_ps(0.0f);
                for (int64_t r = pk_max_i64(0, -p + 1), r_end13 = pk_min_i64(3, H - p + 1); r < r_end13; r++) {
                  for (int64_t s = 0; s < 3; s++) {
                    pk_vacc0_0 = _mm256_add_ps(pk_vacc0_0, _mm256_mul_ps(_mm256_loadu_ps(I + n*sI0 + (p + r - 1)*sI1 + (q + s - 1)*C + c), _mm256_loadu_ps(F + r*sF0 + s*C + c)));
                    pk_vacc0_1 = _mm256_add_ps(pk_vacc0_1, _mm256_mul_ps(_mm256_loadu_ps(I + n*sI0 + (p + r - 1)*sI1 + (q + s - 1)*C + c + 8), _mm256_loadu_ps(F + r*sF0 + s*C + c + 8)));
                  }
                }
                _mm256_storeu_ps(O + n*sO0 + p*sO1 + q*C + c, pk_vacc0_0);
                _mm256_storeu_ps(O + n*sO0 + p*sO1 + q*C + c + 8, pk_vacc0_1);
              }
              for (; c <= pk_vhi - 8; c += 8) {
                __m256 pk_vacc0_0 = _mm256_set1_ps(0.0f);
                for (int64_t r = pk_max_i64(0, -p + 1), r_end14 = pk_min_i64(3, H - p + 1); r < r_end14; r++) {
                  for (int64_t s = 0; s < 3; s++) {
                    pk_vacc0_0 = _mm256_add_ps(pk_vacc0_0, _mm256_mul_ps(_mm256_loadu_ps(I + n*sI0 + (p + r - 1)*sI1 + (q + s - 1)*C + c), _mm256_loadu_ps(F + r*sF0 + s*C + c)));
                  }
                }
                _mm256_storeu_ps(O + n*sO0 + p*sO1 + q*C + c, pk_vacc0_0);
              }
              if (c < pk_vhi) {
                const __m256i pk_vm = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_vhi - c)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
                __m256 pk_vacc0_0 = _mm256_set1_ps(0.0f);
                for (int64_t r = pk_max_i64(0, -p + 1), r_end15 = pk_min_i64(3, H - p + 1); r < r_end15; r++) {
                  for (int64_t s = 0; s < 3; s++) {
                    pk_vacc0_0 = _mm256_add_ps(pk_vacc0_0, _mm256_mul_ps(_mm256_maskload_ps(I + n*sI0 + (p + r - 1)*sI1 + (q + s - 1)*C + c, pk_vm), _mm256_maskload_ps(F + r*sF0 + s*C + c, pk_vm)));
                  }
                }
                _mm256_maskstore_ps(O + n*sO0 + p*sO1 + q*C + c, pk_vm, pk_vacc0_0);
              }
            }
          }
        }
      }
      for (int64_t q = pk_max_i64(pk_max_i64(0, pk_min_i64(Q, 1)), pk_min_i64(Q, W - 1)); q < Q; q++) {
        {
          const int64_t pk_vlo = 0, pk_vhi = C;
          if (pk_vlo < pk_vhi) {
            int64_t c = pk_vlo;
            for (; c <= pk_vhi - 32; c += 32) {
              __m256 pk_vacc0_0 = _mm256_set1_ps(0.0f);
              __m256 pk_vacc0_1 = _mm256_set1_ps(0.0f);
              __m256 pk_vacc0_2 = _mm256_set1_ps(0.0f);
              __m256 pk_vacc0_3 = _mm256_set1_ps(0.0f);
              for (int64_t r = pk_max_i64(0, -p + 1), r_end16 = pk_min_i64(3, H - p + 1); r < r_end16; r++) {
                for (int64_t s = pk_max_i64(0, -q + 1), s_end5 = pk_min_i64(3, W - q + 1); s < s_end5; s++) {
                  pk_vacc0_0 = _mm256_add_ps(pk_vacc0_0, _mm256_mul_ps(_mm256_loadu_ps(I + n*sI0 + (p + r - 1)*sI1 + (q + s - 1)*C + c), _mm256_loadu_ps(F + r*sF0 + s*C + c)));
                  pk_vacc0_1 = _mm256_add_ps(pk_vacc0_1, _mm256_mul_ps(_mm256_loadu_ps(I + n*sI0 + (p + r - 1)*sI1 + (q + s - 1)*C + c + 8), _mm256_loadu_ps(F + r*sF0 + s*C + c + 8)));
                  pk_vacc0_2 = _mm256_add_ps(pk_vacc0_2, _mm256_mul_ps(_mm256_loadu_ps(I + n*sI0 + (p + r - 1)*sI1 + (q + s - 1)*C + c + 16), _mm256_loadu_ps(F + r*sF0 + s*C + c + 16)));
                  pk_vacc0_3 = _mm256_add_ps(pk_vacc0_3, _mm256_mul_ps(_mm256_loadu_ps(I + n*sI0 + (p + r - 1)*sI1 + (q + s - 1)*C + c + 24), _mm256_loadu_ps(F + r*sF0 + s*C + c + 24)));
                }
              }
              _mm256_storeu_ps(O + n*sO0 + p*sO1 + q*C + c, pk_vacc0_0);
              _mm256_storeu_ps(O + n*sO0 + p*sO1 + q*C + c + 8, pk_vacc0_1);
              _mm256_storeu_ps(O + n*sO0 + p*sO1 + q*C + c + 16, pk_vacc0_2);
              _mm256_storeu_ps(O + n*sO0 + p*sO1 + q*C + c + 24, pk_vacc0_3);
            }
            for (; c <= pk_vhi - 16; c += 16) {
              __m256 pk_vacc0_0 = _mm256_set1_ps(0.0f);
              __m256 pk_vacc0_1 = _mm256_set1_ps(0.0f);
              for (int64_t r = pk_max_i64(0, -p + 1), r_end17 = pk_min_i64(3, H - p + 1); r < r_end17; r++) {
                for (int64_t s = pk_max_i64(0, -q + 1), s_end6 = pk_min_i64(3, W - q + 1); s < s_end6; s++) {
                  pk_vacc0_0 = _mm256_add_ps(pk_vacc0_0, _mm256_mul_ps(_mm256_loadu_ps(I + n*sI0 + (p + r - 1)*sI1 + (q + s - 1)*C + c), _mm256_loadu_ps(F + r*sF0 + s*C + c)));
                  pk_vacc0_1 = _mm256_add_ps(pk_vacc0_1, _mm256_mul_ps(_mm256_loadu_ps(I + n*sI0 + (p + r - 1)*sI1 + (q + s - 1)*C + c + 8), _mm256_loadu_ps(F + r*sF0 + s*C + c + 8)));
                }
              }
              _mm256_storeu_ps(O + n*sO0 + p*sO1 + q*C + c, pk_vacc0_0);
              _mm256_storeu_ps(O + n*sO0 + p*sO1 + q*C + c + 8, pk_vacc0_1);
            }
            for (; c <= pk_vhi - 8; c += 8) {
              __m256 pk_vacc0_0 = _mm256_set1_ps(0.0f);
              for (int64_t r = pk_max_i64(0, -p + 1), r_end18 = pk_min_i64(3, H - p + 1); r < r_end18; r++) {
                for (int64_t s = pk_max_i64(0, -q + 1), s_end7 = pk_min_i64(3, W - q + 1); s < s_end7; s++) {
                  pk_vacc0_0 = _mm256_add_ps(pk_vacc0_0, _mm256_mul_ps(_mm256_loadu_ps(I + n*sI0 + (p + r - 1)*sI1 + (q + s - 1)*C + c), _mm256_loadu_ps(F + r*sF0 + s*C + c)));
                }
              }
              _mm256_storeu_ps(O + n*sO0 + p*sO1 + q*C + c, pk_vacc0_0);
            }
            if (c < pk_vhi) {
              const __m256i pk_vm = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(pk_vhi - c)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
              __m256 pk_vacc0_0 = _mm256_set1_ps(0.0f);
              for (int64_t r = pk_max_i64(0, -p + 1), r_end19 = pk_min_i64(3, H - p + 1); r < r_end19; r++) {
                for (int64_t s = pk_max_i64(0, -q + 1), s_end8 = pk_min_i64(3, W - q + 1); s < s_end8; s++) {
                  pk_vacc0_0 = _mm256_add_ps(pk_vacc0_0, _mm256_mul_ps(_mm256_maskload_ps(I + n*sI0 + (p + r - 1)*sI1 + (q + s - 1)*C + c, pk_vm), _mm256_maskload_ps(F + r*sF0 + s*C + c, pk_vm)));
                }
              }
              _mm256_maskstore_ps(O + n*sO0 + p*sO1 + q*C + c, pk_vm, pk_vacc0_0);
            }
          }
        }
      }
    }
  }
  return PK_OK;
}
