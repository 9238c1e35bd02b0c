/* Planted bugs that AddressSanitizer and UndefinedBehaviorSanitizer must report: proof that a clean run under them
   means something. `overflow()` writes one element past a heap block; `shift(n)` shifts 1 by n bits (UB for n >= 32). */
#define NAPI_VERSION 8
#include <node_api.h>
#include <stdlib.h>

static napi_value overflow(napi_env env, napi_callback_info info) {
  (void)info;
  volatile int n = 8;
  int *block = malloc(n * sizeof *block);
  for (int i = 0; i <= n; i++) block[i] = i;
  napi_value result;
  napi_create_int32(env, block[n / 2], &result);
  free(block);
  return result;
}

static napi_value shift(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  int32_t n = 0;
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  napi_get_value_int32(env, argv[0], &n);
  napi_value result;
  napi_create_int32(env, 1 << n, &result);
  return result;
}

static napi_value init(napi_env env, napi_value exports) {
  napi_property_descriptor fns[] = {
    {"overflow", NULL, overflow, NULL, NULL, NULL, napi_enumerable, NULL},
    {"shift", NULL, shift, NULL, NULL, NULL, napi_enumerable, NULL},
  };
  napi_define_properties(env, exports, 2, fns);
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
