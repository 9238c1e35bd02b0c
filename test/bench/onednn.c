/*
 * The bench's `onednn` system: a Node-API addon over Debian's oneDNN 2.x (libdnnl, OpenMP runtime), built with gcc at
 * bench time by onednn.ts. An addon rather than a process of its own, so that oneDNN is timed exactly as the other
 * systems are: in the bench's process, by measure.ts (warm-up, then the fastest of several rounds of single calls),
 * in the same passes that alternate the systems.
 *
 * `gemm(...)` and `conv(...)` build a primitive once, as an inference engine does: weights described with
 * dnnl_format_tag_any and reordered once into the layout the primitive chose, bias copied. They return a handle whose
 * `run(input, output)` is the timed call. Activations come and go in the plain layout the polykern kernels use
 * (row-major for matmul, NHWC for convolution). matmul reads and writes them in place; a convolution's src and dst
 * are `any`, so where oneDNN prefers a blocked layout, the reorder into it and the one back are part of `run`.
 * Each handle owns its thread count: OpenMP's, set before the primitive is created (oneDNN sizes its work split
 * then) and again before every call (another handle may have changed it). OpenMP's wait policy stays at its default,
 * as an application linking Debian's libdnnl gets it.
 */
#include <node_api.h>
#include <oneapi/dnnl/dnnl.h>
#include <oneapi/dnnl/dnnl_debug.h>
#include <omp.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

/* A oneDNN call that fails sets `error` and leaves the function: the caller throws it as a JS error. */
#define TRY(call)                                                                                         \
  do {                                                                                                    \
    dnnl_status_t status_ = (call);                                                                       \
    if (status_ != dnnl_success) {                                                                        \
      snprintf(error, ERROR_SIZE, "oneDNN: %s failed: %s", #call, dnnl_status2str(status_));              \
      return false;                                                                                       \
    }                                                                                                     \
  } while (0)
#define ERROR_SIZE 256

typedef struct {
  int threads;
  dnnl_engine_t engine;
  dnnl_stream_t stream;
  dnnl_primitive_t primitive;
  /* The caller's activations: their data handles are set on every call. */
  dnnl_memory_t src_plain, dst_plain;
  /* The primitive's own src and dst, and the reorders between them and the plain ones: where the primitive takes
     the plain layout, the reorder is NULL and src or dst is src_plain or dst_plain itself. */
  dnnl_memory_t src, dst;
  dnnl_primitive_t src_reorder, dst_reorder;
  dnnl_memory_t weights, bias;
  size_t src_elements, dst_elements;
  char impl[64];
} handle;

static void destroy(handle *h) {
  dnnl_primitive_t primitives[] = {h->primitive, h->src_reorder, h->dst_reorder};
  for (size_t i = 0; i < sizeof primitives / sizeof *primitives; i++) if (primitives[i]) dnnl_primitive_destroy(primitives[i]);
  if (h->src && h->src != h->src_plain) dnnl_memory_destroy(h->src);
  if (h->dst && h->dst != h->dst_plain) dnnl_memory_destroy(h->dst);
  dnnl_memory_t memories[] = {h->src_plain, h->dst_plain, h->weights, h->bias};
  for (size_t i = 0; i < sizeof memories / sizeof *memories; i++) if (memories[i]) dnnl_memory_destroy(memories[i]);
  if (h->stream) dnnl_stream_destroy(h->stream);
  if (h->engine) dnnl_engine_destroy(h->engine);
  *h = (handle){0};
}

static bool reorder_once(dnnl_memory_t from, dnnl_memory_t to, handle *h, char *error) {
  const dnnl_memory_desc_t *from_md, *to_md;
  TRY(dnnl_memory_get_memory_desc(from, &from_md));
  TRY(dnnl_memory_get_memory_desc(to, &to_md));
  dnnl_primitive_desc_t pd;
  TRY(dnnl_reorder_primitive_desc_create(&pd, from_md, h->engine, to_md, h->engine, NULL));
  dnnl_primitive_t reorder;
  dnnl_status_t created = dnnl_primitive_create(&reorder, pd);
  dnnl_primitive_desc_destroy(pd);
  TRY(created);
  dnnl_exec_arg_t args[] = {{DNNL_ARG_FROM, from}, {DNNL_ARG_TO, to}};
  dnnl_status_t ran = dnnl_primitive_execute(reorder, h->stream, 2, args);
  if (ran == dnnl_success) ran = dnnl_stream_wait(h->stream);
  dnnl_primitive_destroy(reorder);
  TRY(ran);
  return true;
}

/* `*memory`: `plain` itself when the primitive's layout `wanted` is the plain one, else a buffer in `wanted` and in
   `*reorder` the reorder between them (plain to wanted when `into`, back when not). */
static bool activation(const dnnl_memory_desc_t *plain_md, const dnnl_memory_desc_t *wanted, bool into, handle *h,
                       dnnl_memory_t plain, dnnl_memory_t *memory, dnnl_primitive_t *reorder, char *error) {
  if (dnnl_memory_desc_equal(plain_md, wanted)) {
    *memory = plain;
    return true;
  }
  TRY(dnnl_memory_create(memory, wanted, h->engine, DNNL_MEMORY_ALLOCATE));
  dnnl_primitive_desc_t pd;
  TRY(into ? dnnl_reorder_primitive_desc_create(&pd, plain_md, h->engine, wanted, h->engine, NULL)
           : dnnl_reorder_primitive_desc_create(&pd, wanted, h->engine, plain_md, h->engine, NULL));
  dnnl_status_t created = dnnl_primitive_create(reorder, pd);
  dnnl_primitive_desc_destroy(pd);
  TRY(created);
  return true;
}

/* A buffer in `md` holding a copy of `data` (in `given_md`), reordered: the constant operands, prepared once. */
static bool constant(dnnl_memory_t *memory, const dnnl_memory_desc_t *md, const dnnl_memory_desc_t *given_md, void *data,
                     handle *h, char *error) {
  TRY(dnnl_memory_create(memory, md, h->engine, DNNL_MEMORY_ALLOCATE));
  dnnl_memory_t given;
  TRY(dnnl_memory_create(&given, given_md, h->engine, data));
  bool ok = reorder_once(given, *memory, h, error);
  dnnl_memory_destroy(given);
  return ok;
}

static bool build_from(handle *h, const_dnnl_primitive_desc_t pd, const dnnl_memory_desc_t *src_md,
                       const dnnl_memory_desc_t *weights_md, void *weights, const dnnl_memory_desc_t *bias_md, void *bias,
                       const dnnl_memory_desc_t *dst_md, char *error) {
  const char *impl = "?";
  dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &impl);
  snprintf(h->impl, sizeof h->impl, "%s", impl);
  TRY(dnnl_primitive_create(&h->primitive, pd));
  TRY(dnnl_memory_create(&h->src_plain, src_md, h->engine, DNNL_MEMORY_NONE));
  TRY(dnnl_memory_create(&h->dst_plain, dst_md, h->engine, DNNL_MEMORY_NONE));
  h->src_elements = dnnl_memory_desc_get_size(src_md) / sizeof(float);
  h->dst_elements = dnnl_memory_desc_get_size(dst_md) / sizeof(float);
  return activation(src_md, dnnl_primitive_desc_query_md(pd, dnnl_query_src_md, 0), true, h, h->src_plain, &h->src,
                    &h->src_reorder, error) &&
         activation(dst_md, dnnl_primitive_desc_query_md(pd, dnnl_query_dst_md, 0), false, h, h->dst_plain, &h->dst,
                    &h->dst_reorder, error) &&
         constant(&h->weights, dnnl_primitive_desc_query_md(pd, dnnl_query_weights_md, 0), weights_md, weights, h, error) &&
         (!bias || constant(&h->bias, bias_md, bias_md, bias, h, error));
}

/* The primitive of `op` with its weights (given in `weights_md`, in the caller's buffer) reordered once and its bias
   copied once; src and dst as `activation` says. */
static bool build(handle *h, const_dnnl_op_desc_t op, const_dnnl_primitive_attr_t attr, const dnnl_memory_desc_t *src_md,
                  const dnnl_memory_desc_t *weights_md, void *weights, const dnnl_memory_desc_t *bias_md, void *bias,
                  const dnnl_memory_desc_t *dst_md, char *error) {
  omp_set_num_threads(h->threads);
  TRY(dnnl_engine_create(&h->engine, dnnl_cpu, 0));
  TRY(dnnl_stream_create(&h->stream, h->engine, dnnl_stream_default_flags));
  dnnl_primitive_desc_t pd;
  TRY(dnnl_primitive_desc_create(&pd, op, attr, h->engine, NULL));
  bool ok = build_from(h, pd, src_md, weights_md, weights, bias_md, bias, dst_md, error);
  dnnl_primitive_desc_destroy(pd);
  return ok;
}

/* The timed call: (input, output), both Float32Arrays in the plain layout. */
static bool run(handle *h, float *input, float *output, char *error) {
  omp_set_num_threads(h->threads);
  TRY(dnnl_memory_set_data_handle_v2(h->src_plain, input, h->stream));
  TRY(dnnl_memory_set_data_handle_v2(h->dst_plain, output, h->stream));
  if (h->src_reorder) {
    dnnl_exec_arg_t args[] = {{DNNL_ARG_FROM, h->src_plain}, {DNNL_ARG_TO, h->src}};
    TRY(dnnl_primitive_execute(h->src_reorder, h->stream, 2, args));
  }
  dnnl_exec_arg_t args[] = {{DNNL_ARG_SRC, h->src}, {DNNL_ARG_WEIGHTS, h->weights}, {DNNL_ARG_DST, h->dst}, {DNNL_ARG_BIAS, h->bias}};
  TRY(dnnl_primitive_execute(h->primitive, h->stream, h->bias ? 4 : 3, args));
  if (h->dst_reorder) {
    dnnl_exec_arg_t back[] = {{DNNL_ARG_FROM, h->dst}, {DNNL_ARG_TO, h->dst_plain}};
    TRY(dnnl_primitive_execute(h->dst_reorder, h->stream, 2, back));
  }
  TRY(dnnl_stream_wait(h->stream));
  return true;
}

/* ---- Node-API glue ---- */

static napi_value throw_error(napi_env env, const char *message) {
  napi_throw_error(env, NULL, message);
  return NULL;
}

static bool float32_array(napi_env env, napi_value value, float **data, size_t *length) {
  bool is_typed;
  napi_typedarray_type type;
  if (napi_is_typedarray(env, value, &is_typed) != napi_ok || !is_typed) return false;
  return napi_get_typedarray_info(env, value, &type, length, (void **)data, NULL, NULL) == napi_ok && type == napi_float32_array;
}

static handle *this_handle(napi_env env, napi_callback_info info, size_t *argc, napi_value *argv) {
  napi_value self;
  handle *h = NULL;
  if (napi_get_cb_info(env, info, argc, argv, &self, NULL) != napi_ok || napi_unwrap(env, self, (void **)&h) != napi_ok) return NULL;
  return h;
}

static napi_value run_js(napi_env env, napi_callback_info info) {
  size_t argc = 2, in_length = 0, out_length = 0;
  napi_value argv[2];
  float *input = NULL, *output = NULL;
  handle *h = this_handle(env, info, &argc, argv);
  if (!h || !h->primitive) return throw_error(env, "onednn: run on a released handle");
  if (argc < 2 || !float32_array(env, argv[0], &input, &in_length) || !float32_array(env, argv[1], &output, &out_length) ||
      in_length != h->src_elements || out_length != h->dst_elements) {
    return throw_error(env, "onednn: run(input, output) expects Float32Arrays of the case's sizes");
  }
  char error[ERROR_SIZE] = "";
  return run(h, input, output, error) ? NULL : throw_error(env, error);
}

static napi_value release_js(napi_env env, napi_callback_info info) {
  size_t argc = 0;
  handle *h = this_handle(env, info, &argc, NULL);
  if (h) destroy(h);
  return NULL;
}

static void finalize(napi_env env, void *data, void *hint) {
  (void)env, (void)hint;
  destroy(data);
  free(data);
}

/* { run, release, impl } around a built handle, or a thrown error (and the handle freed) when it did not build. */
static napi_value wrap(napi_env env, handle *h, bool built, const char *error) {
  if (!built) {
    destroy(h);
    free(h);
    return throw_error(env, error);
  }
  napi_value object, fn, impl;
  napi_create_object(env, &object);
  napi_create_function(env, "run", NAPI_AUTO_LENGTH, run_js, NULL, &fn);
  napi_set_named_property(env, object, "run", fn);
  napi_create_function(env, "release", NAPI_AUTO_LENGTH, release_js, NULL, &fn);
  napi_set_named_property(env, object, "release", fn);
  napi_create_string_utf8(env, h->impl, NAPI_AUTO_LENGTH, &impl);
  napi_set_named_property(env, object, "impl", impl);
  napi_wrap(env, object, h, finalize, NULL, NULL);
  return object;
}

/* Reads `count` integer arguments, then fills `arrays` (Float32Array or null) from the ones after them. */
static bool arguments(napi_env env, napi_callback_info info, size_t count, int64_t *ints, size_t arrays_count, float **arrays) {
  size_t argc = 16;
  napi_value argv[16];
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc != count + arrays_count) return false;
  for (size_t i = 0; i < count; i++) if (napi_get_value_int64(env, argv[i], &ints[i]) != napi_ok || ints[i] < 0) return false;
  for (size_t i = 0; i < arrays_count; i++) {
    napi_valuetype type;
    size_t length;
    napi_typeof(env, argv[count + i], &type);
    arrays[i] = NULL;
    if (type != napi_null && !float32_array(env, argv[count + i], &arrays[i], &length)) return false;
  }
  return true;
}

/* A primitive attribute with a ReLU post-op when relu, none otherwise; NULL when it cannot be made. */
static dnnl_primitive_attr_t relu_attr(bool relu) {
  dnnl_primitive_attr_t attr = NULL;
  dnnl_post_ops_t post_ops = NULL;
  const bool made = dnnl_primitive_attr_create(&attr) == dnnl_success && dnnl_post_ops_create(&post_ops) == dnnl_success &&
                    (!relu || dnnl_post_ops_append_eltwise(post_ops, 1.0f, dnnl_eltwise_relu, 0.0f, 0.0f) == dnnl_success) &&
                    dnnl_primitive_attr_set_post_ops(attr, post_ops) == dnnl_success;
  if (post_ops) dnnl_post_ops_destroy(post_ops);
  if (!made && attr) dnnl_primitive_attr_destroy(attr);
  return made ? attr : NULL;
}

/* gemm(threads, batch, M, N, K, transposed, relu, B, bias): C = A·B, per batch when batch > 0, A stored [K, M] and B
   [N, K] when transposed (C = Aᵀ·Bᵀ); plus bias [N] (or null) along each row, then ReLU when relu. run(A, C). */
static napi_value gemm_js(napi_env env, napi_callback_info info) {
  int64_t v[7];
  float *arrays[2];
  if (!arguments(env, info, 7, v, 2, arrays) || !arrays[0]) {
    return throw_error(env, "onednn: gemm(threads, batch, M, N, K, transposed, relu, B, bias)");
  }
  const int64_t batch = v[1], M = v[2], N = v[3], K = v[4];
  const bool transposed = v[5] != 0, relu = v[6] != 0, batched = batch > 0;
  const int ndims = batched ? 3 : 2;
  dnnl_memory_desc_t src_md, weights_md, weights_any, bias_md, dst_md;
  dnnl_dims_t src_dims = {M, K}, weights_dims = {K, N}, dst_dims = {M, N}, bias_dims = {1, N};
  if (batched) {
    dnnl_dims_t s = {batch, M, K}, w = {batch, K, N}, d = {batch, M, N}, b = {1, 1, N};
    for (int i = 0; i < 3; i++) src_dims[i] = s[i], weights_dims[i] = w[i], dst_dims[i] = d[i], bias_dims[i] = b[i];
  }
  /* Transposed: the kernel's A[k, i] and B[j, k] are oneDNN's src and weights in column-major (ba). */
  dnnl_format_tag_t plain = batched ? dnnl_abc : dnnl_ab, stored = transposed ? dnnl_ba : plain;
  handle *h = calloc(1, sizeof *h);
  h->threads = (int)v[0];
  char error[ERROR_SIZE] = "";
  dnnl_matmul_desc_t op;
  dnnl_primitive_attr_t attr = relu_attr(relu);
  bool built = attr != NULL && dnnl_memory_desc_init_by_tag(&src_md, ndims, src_dims, dnnl_f32, stored) == dnnl_success &&
               dnnl_memory_desc_init_by_tag(&weights_md, ndims, weights_dims, dnnl_f32, stored) == dnnl_success &&
               dnnl_memory_desc_init_by_tag(&weights_any, ndims, weights_dims, dnnl_f32, dnnl_format_tag_any) == dnnl_success &&
               dnnl_memory_desc_init_by_tag(&bias_md, ndims, bias_dims, dnnl_f32, plain) == dnnl_success &&
               dnnl_memory_desc_init_by_tag(&dst_md, ndims, dst_dims, dnnl_f32, plain) == dnnl_success &&
               dnnl_matmul_desc_init(&op, &src_md, &weights_any, arrays[1] ? &bias_md : NULL, &dst_md) == dnnl_success &&
               build(h, &op, attr, &src_md, &weights_md, arrays[0], &bias_md, arrays[1], &dst_md, error);
  if (attr) dnnl_primitive_attr_destroy(attr);
  if (!built && error[0] == '\0') snprintf(error, ERROR_SIZE, "oneDNN: no matmul for this case");
  return wrap(env, h, built, error);
}

/* conv(threads, N, H, W, C, K, R, S, stride, pad, groups, relu, F, bias): NHWC in and out, F [R, S, C, K] ([R, S, C]
   when depthwise, the only grouped case), bias [K] or null, then ReLU when relu. run(I, O). */
static napi_value conv_js(napi_env env, napi_callback_info info) {
  int64_t v[12];
  float *arrays[2];
  if (!arguments(env, info, 12, v, 2, arrays) || !arrays[0]) {
    return throw_error(env, "onednn: conv(threads, N, H, W, C, K, R, S, stride, pad, groups, relu, F, bias)");
  }
  const int64_t N = v[1], H = v[2], W = v[3], C = v[4], K = v[5], R = v[6], S = v[7], stride = v[8], pad = v[9], groups = v[10];
  const bool relu = v[11] != 0, depthwise = groups > 1;
  if (depthwise && (groups != C || groups != K)) return throw_error(env, "onednn: grouped convolutions must be depthwise");
  const int64_t P = (H + 2 * pad - R) / stride + 1, Q = (W + 2 * pad - S) / stride + 1;
  dnnl_memory_desc_t src_md, src_any, weights_md, weights_any, bias_md, dst_md, dst_any;
  dnnl_dims_t src_dims = {N, C, H, W}, dst_dims = {N, K, P, Q}, bias_dims = {K};
  dnnl_dims_t weights_dims = {K, C, R, S}, grouped_dims = {groups, 1, 1, R, S};
  /* F[r, s, c] of a depthwise filter: group c, one output and one input channel each. */
  dnnl_dims_t grouped_strides = {1, 1, 1, S * C, C};
  dnnl_dims_t strides = {stride, stride}, padding = {pad, pad};
  handle *h = calloc(1, sizeof *h);
  h->threads = (int)v[0];
  char error[ERROR_SIZE] = "";
  dnnl_convolution_desc_t op;
  dnnl_primitive_attr_t attr = relu_attr(relu);
  const int weights_ndims = depthwise ? 5 : 4;
  bool built = attr != NULL && dnnl_memory_desc_init_by_tag(&src_md, 4, src_dims, dnnl_f32, dnnl_nhwc) == dnnl_success &&
               dnnl_memory_desc_init_by_tag(&src_any, 4, src_dims, dnnl_f32, dnnl_format_tag_any) == dnnl_success &&
               (depthwise ? dnnl_memory_desc_init_by_strides(&weights_md, 5, grouped_dims, dnnl_f32, grouped_strides)
                          : dnnl_memory_desc_init_by_tag(&weights_md, 4, weights_dims, dnnl_f32, dnnl_hwio)) == dnnl_success &&
               dnnl_memory_desc_init_by_tag(&weights_any, weights_ndims, depthwise ? grouped_dims : weights_dims, dnnl_f32,
                                            dnnl_format_tag_any) == dnnl_success &&
               dnnl_memory_desc_init_by_tag(&bias_md, 1, bias_dims, dnnl_f32, dnnl_a) == dnnl_success &&
               dnnl_memory_desc_init_by_tag(&dst_md, 4, dst_dims, dnnl_f32, dnnl_nhwc) == dnnl_success &&
               dnnl_memory_desc_init_by_tag(&dst_any, 4, dst_dims, dnnl_f32, dnnl_format_tag_any) == dnnl_success &&
               dnnl_convolution_forward_desc_init(&op, dnnl_forward_inference, dnnl_convolution_direct, &src_any, &weights_any,
                                                  arrays[1] ? &bias_md : NULL, &dst_any, strides, padding, padding) == dnnl_success &&
               build(h, &op, attr, &src_md, &weights_md, arrays[0], &bias_md, arrays[1], &dst_md, error);
  if (attr) dnnl_primitive_attr_destroy(attr);
  if (!built && error[0] == '\0') snprintf(error, ERROR_SIZE, "oneDNN: no convolution for this case");
  return wrap(env, h, built, error);
}

/* "2.6.3 (OpenMP)": the library the bench measured. */
static napi_value version_js(napi_env env, napi_callback_info info) {
  (void)info;
  const dnnl_version_t *v = dnnl_version();
  char text[64];
  snprintf(text, sizeof text, "%d.%d.%d (%s)", v->major, v->minor, v->patch,
           v->cpu_runtime == DNNL_RUNTIME_OMP ? "OpenMP" : "not OpenMP: thread counts not set");
  napi_value result;
  napi_create_string_utf8(env, text, NAPI_AUTO_LENGTH, &result);
  return result;
}

static napi_value init(napi_env env, napi_value exports) {
  const struct { const char *name; napi_callback fn; } exported[] = {{"gemm", gemm_js}, {"conv", conv_js}, {"version", version_js}};
  for (size_t i = 0; i < sizeof exported / sizeof *exported; i++) {
    napi_value fn;
    napi_create_function(env, exported[i].name, NAPI_AUTO_LENGTH, exported[i].fn, NULL, &fn);
    napi_set_named_property(env, exports, exported[i].name, fn);
  }
  return exports;
}

NAPI_MODULE(onednn, init)
