/*
 * The bench's fp32 FMA peak probe: independent FMA dependency chains, enough of them to cover the FMA latency (4
 * cycles) times the FMA ports (2), so the loop is bound by FMA throughput alone. Each ISA variant is compiled with a
 * target attribute, not a global -m flag, so the addon still loads (and reports "unsupported") on an older CPU.
 * JS times one call; flops per call = CHAINS * lanes * 2 * iterations.
 */
#include <node_api.h>
#include <immintrin.h>
#include <stdint.h>

#define CHAINS 12

/* acc = acc * m + c converges to c / (1 - m), so values stay finite however long the loop runs. */
__attribute__((target("avx512f,fma"), noinline)) static double fma_chains_avx512(int64_t iterations) {
  __m512 acc[CHAINS];
  for (int j = 0; j < CHAINS; j++) acc[j] = _mm512_set1_ps((float)j);
  const __m512 m = _mm512_set1_ps(0.999999f), c = _mm512_set1_ps(1e-6f);
  for (int64_t i = 0; i < iterations; i++)
    for (int j = 0; j < CHAINS; j++) acc[j] = _mm512_fmadd_ps(acc[j], m, c);
  __m512 sum = acc[0];
  for (int j = 1; j < CHAINS; j++) sum = _mm512_add_ps(sum, acc[j]);
  return _mm512_reduce_add_ps(sum);
}

__attribute__((target("avx2,fma"), noinline)) static double fma_chains_avx2(int64_t iterations) {
  __m256 acc[CHAINS];
  for (int j = 0; j < CHAINS; j++) acc[j] = _mm256_set1_ps((float)j);
  const __m256 m = _mm256_set1_ps(0.999999f), c = _mm256_set1_ps(1e-6f);
  for (int64_t i = 0; i < iterations; i++)
    for (int j = 0; j < CHAINS; j++) acc[j] = _mm256_fmadd_ps(acc[j], m, c);
  __m256 sum = acc[0];
  for (int j = 1; j < CHAINS; j++) sum = _mm256_add_ps(sum, acc[j]);
  float lanes[8];
  _mm256_storeu_ps(lanes, sum);
  double total = 0;
  for (int j = 0; j < 8; j++) total += lanes[j];
  return total;
}

typedef double (*probe_fn)(int64_t);

/* (iterations) -> checksum of the chains (so the loop is not dead code), or undefined when the CPU lacks the ISA. */
static napi_value run_probe(napi_env env, napi_callback_info info, probe_fn probe, int supported) {
  size_t argc = 1;
  napi_value argv[1], result;
  int64_t iterations = 0;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 1 ||
      napi_get_value_int64(env, argv[0], &iterations) != napi_ok || iterations < 0) {
    napi_throw_type_error(env, NULL, "peak probe: expected a non-negative iteration count");
    return NULL;
  }
  if (!supported) {
    napi_get_undefined(env, &result);
    return result;
  }
  napi_create_double(env, probe(iterations), &result);
  return result;
}

static napi_value avx512(napi_env env, napi_callback_info info) {
  return run_probe(env, info, fma_chains_avx512, __builtin_cpu_supports("avx512f"));
}

static napi_value avx2(napi_env env, napi_callback_info info) {
  return run_probe(env, info, fma_chains_avx2, __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"));
}

static napi_value init(napi_env env, napi_value exports) {
  napi_value fn, chains;
  napi_create_function(env, "avx512", NAPI_AUTO_LENGTH, avx512, NULL, &fn);
  napi_set_named_property(env, exports, "avx512", fn);
  napi_create_function(env, "avx2", NAPI_AUTO_LENGTH, avx2, NULL, &fn);
  napi_set_named_property(env, exports, "avx2", fn);
  napi_create_int32(env, CHAINS, &chains);
  napi_set_named_property(env, exports, "chains", chains);
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
