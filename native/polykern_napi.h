/*
 * The Node-API side of a polykern addon: checked napi calls and argument validation that C must never delegate to
 * JavaScript (the module's `__polykern` is in polykern_cpu.h). Errors carry the same `runtime_*` codes as the JS
 * runtime. The including file defines NAPI_VERSION first.
 */
#ifndef POLYKERN_NAPI_H
#define POLYKERN_NAPI_H

#include <node_api.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "polykern_attributes.h"

/* After node-addon-examples' NODE_API_CALL: on failure, throw (unless already pending) and return `ret`. */
#define PK_CALL_OR(env, call, ret)                                                                              \
  do {                                                                                                          \
    if ((call) != napi_ok) {                                                                                    \
      pk_throw_last_error(env);                                                                                 \
      return ret;                                                                                               \
    }                                                                                                           \
  } while (0)

#define PK_CALL(env, call) PK_CALL_OR(env, call, NULL)

/* 2^53: sizes must be below it, safe integers as the JS runtime checks (Number.isSafeInteger). */
#define PK_MAX_SIZE 9007199254740992.0

/* The most elements one tensor may have: MAX_ELEMENTS of runtime/validate.ts. */
#define PK_MAX_ELEMENTS 4294967296LL

typedef enum { PK_TYPE_ERROR, PK_RANGE_ERROR } pk_error_kind;

/* A typed-array argument, borrowed without copying. */
typedef struct {
  void *data;
  size_t length;
  size_t bytes;
} pk_array;

static inline void pk_throw_last_error(napi_env env) {
  bool pending = false;
  if (napi_is_exception_pending(env, &pending) == napi_ok && pending) return;
  const napi_extended_error_info *info = NULL;
  napi_get_last_error_info(env, &info);
  const char *message = info != NULL && info->error_message != NULL ? info->error_message : "unknown N-API error";
  napi_throw_error(env, "runtime_napi", message);
}

/*
 * A TypeError or RangeError with `code` and `message`, and the parameters at fault as properties `argument` (and
 * `other`, the second array of an overlap) when not NULL: the JS runtime names them as its own checks do. NULL when
 * Node-API fails (the environment is going away).
 */
static inline napi_value pk_error(napi_env env, pk_error_kind kind, const char *code, const char *argument,
                                  const char *other, const char *message) {
  napi_value code_value, message_value, error, name;
  if (napi_create_string_utf8(env, code, NAPI_AUTO_LENGTH, &code_value) != napi_ok) return NULL;
  if (napi_create_string_utf8(env, message, NAPI_AUTO_LENGTH, &message_value) != napi_ok) return NULL;
  napi_status status = kind == PK_TYPE_ERROR ? napi_create_type_error(env, code_value, message_value, &error)
                                             : napi_create_range_error(env, code_value, message_value, &error);
  if (status != napi_ok) return NULL;
  const char *const keys[] = {"argument", "other"};
  const char *const values[] = {argument, other};
  for (int i = 0; i < 2; i++) {
    if (values[i] == NULL) continue;
    if (napi_create_string_utf8(env, values[i], NAPI_AUTO_LENGTH, &name) != napi_ok) return NULL;
    if (napi_set_named_property(env, error, keys[i], name) != napi_ok) return NULL;
  }
  return error;
}

static inline napi_value pk_vthrow(napi_env env, pk_error_kind kind, const char *code, const char *argument,
                                   const char *other, const char *format, va_list args) {
  char message[512];
  vsnprintf(message, sizeof message, format, args);
  napi_value error = pk_error(env, kind, code, argument, other, message);
  if (error != NULL) napi_throw(env, error);
  else pk_throw_last_error(env);
  return NULL;
}

/* Throws a TypeError or RangeError with `code` and a printf-style message; returns NULL for `return pk_throw(...)`. */
static inline napi_value pk_throw(napi_env env, pk_error_kind kind, const char *code, const char *format, ...) {
  va_list args;
  va_start(args, format);
  pk_vthrow(env, kind, code, NULL, NULL, format, args);
  va_end(args);
  return NULL;
}

/* pk_throw for an error about parameter `argument`, which the error carries as its `argument` property. */
static inline napi_value pk_throw_arg(napi_env env, pk_error_kind kind, const char *code, const char *argument,
                                      const char *format, ...) {
  va_list args;
  va_start(args, format);
  pk_vthrow(env, kind, code, argument, NULL, format, args);
  va_end(args);
  return NULL;
}

/* Reads exactly `expected` arguments into argv. */
PK_CALLED bool pk_get_args(napi_env env, napi_callback_info info, const char *kernel, size_t expected,
                           napi_value *argv) {
  size_t argc = expected;
  PK_CALL_OR(env, napi_get_cb_info(env, info, &argc, argv, NULL, NULL), false);
  if (argc != expected) {
    pk_throw(env, PK_TYPE_ERROR, "runtime_arg_count", "polykern: kernel '%s' expects %zu arguments but received %zu",
             kernel, expected, argc);
    return false;
  }
  return true;
}

static inline const char *pk_array_type_name(napi_typedarray_type type) {
  switch (type) {
    case napi_float32_array: return "Float32Array";
    case napi_float64_array: return "Float64Array";
    case napi_int32_array: return "Int32Array";
    default: return "typed array";
  }
}

static inline size_t pk_element_size(napi_typedarray_type type) { return type == napi_float64_array ? 8 : 4; }

/* A tensor argument: must be a typed array of exactly `type`. */
PK_CALLED bool pk_array_arg(napi_env env, napi_value value, napi_typedarray_type type, const char *kernel,
                            const char *name, pk_array *out) {
  /* napi_invalid_arg for anything but a typed array (one call fewer than asking first: a small call's time). */
  napi_typedarray_type actual = type;
  napi_status status = napi_get_typedarray_info(env, value, &actual, &out->length, &out->data, NULL, NULL);
  if (status != napi_ok && status != napi_invalid_arg) {
    pk_throw_last_error(env);
    return false;
  }
  if (status == napi_invalid_arg || actual != type) {
    pk_throw_arg(env, PK_TYPE_ERROR, "runtime_arg_type", name, "polykern: kernel '%s': argument '%s' must be a %s",
                 kernel, name, pk_array_type_name(type));
    return false;
  }
  out->bytes = out->length * pk_element_size(type);
  return true;
}

/* A size argument: a finite, integral, non-negative number below 2^53. */
PK_CALLED bool pk_size_arg(napi_env env, napi_value value, const char *kernel, const char *name, int64_t *out) {
  double x;
  napi_status status = napi_get_value_double(env, value, &x);
  if (status == napi_number_expected) {
    pk_throw_arg(env, PK_TYPE_ERROR, "runtime_size_invalid", name, "polykern: kernel '%s': size '%s' must be a number",
                 kernel, name);
    return false;
  }
  PK_CALL_OR(env, status, false);
  if (!isfinite(x) || x < 0 || x != floor(x) || x >= PK_MAX_SIZE) {
    pk_throw_arg(env, PK_RANGE_ERROR, "runtime_size_invalid", name,
                 "polykern: kernel '%s': size '%s' must be a non-negative integer below 2^53, got %.17g", kernel, name,
                 x);
    return false;
  }
  *out = (int64_t)x;
  return true;
}

/* The array's length must equal the product of its shape's dimensions, computed without overflow. */
PK_CALLED bool pk_check_length(napi_env env, const char *kernel, const char *name, const char *shape,
                               const pk_array *array, int rank, const int64_t *dims) {
  /* As the JS check computes it: any zero dimension means no elements; otherwise at most 2^32 of them. */
  bool empty = false;
  for (int d = 0; d < rank; d++) empty |= dims[d] == 0;
  int64_t count = empty ? 0 : 1;
  bool overflow = false;
  for (int d = 0; d < rank && !empty && !overflow; d++) {
    overflow = dims[d] < 0 || __builtin_mul_overflow(count, dims[d], &count) || count > PK_MAX_ELEMENTS;
  }
  if (overflow) {
    pk_throw_arg(env, PK_RANGE_ERROR, "runtime_size_overflow", name,
                 "polykern: kernel '%s': argument '%s' would have more than 2^32 elements (shape %s)", kernel, name,
                 shape);
    return false;
  }
  if ((uint64_t)count != (uint64_t)array->length) {
    pk_throw_arg(env, PK_RANGE_ERROR, "runtime_arg_length", name,
                 "polykern: kernel '%s': argument '%s' has length %zu but its shape %s needs %lld", kernel, name,
                 array->length, shape, (long long)count);
    return false;
  }
  return true;
}

/* An output must not share any byte with another argument: the kernels' pointers are `restrict`. */
PK_CALLED bool pk_check_disjoint(napi_env env, const char *kernel, const char *output, const pk_array *out,
                                 const char *other, const pk_array *arg) {
  uintptr_t a = (uintptr_t)out->data, b = (uintptr_t)arg->data;
  bool overlap = out->bytes > 0 && arg->bytes > 0 && a < b + arg->bytes && b < a + out->bytes;
  if (overlap) {
    char message[512];
    snprintf(message, sizeof message, "polykern: kernel '%s': output '%s' overlaps argument '%s' in memory", kernel,
             output, other);
    napi_value error = pk_error(env, PK_RANGE_ERROR, "runtime_alias", output, other, message);
    if (error != NULL) napi_throw(env, error);
    else pk_throw_last_error(env);
    return false;
  }
  return true;
}

PK_CALLED napi_value pk_throw_no_memory(napi_env env, const char *kernel) {
  return pk_throw(env, PK_RANGE_ERROR, "runtime_out_of_memory",
                  "polykern: kernel '%s': out of memory allocating its temporaries", kernel);
}

/*
 * Async kernel calls (`kernel.async(...)`): the arguments are validated on the JS thread exactly as for a sync call,
 * then the kernel runs on a libuv worker and the promise settles back on the JS thread. A reference holds each
 * argument object until then, but nothing in Node-API holds an ArrayBuffer's memory: the caller can still transfer
 * the buffer (postMessage, structuredClone with `transfer`) or resize it, and its memory is then freed or handed on
 * while the worker uses it. So every array on an ordinary ArrayBuffer is copied into the call's own memory when the
 * call is made, the kernel runs on the copies, and on completion the outputs are copied back, unless an array lost
 * its memory meanwhile (it no longer has the length it had): the promise then rejects with `runtime_arg_detached`
 * naming it, and nothing is written. Arrays on a SharedArrayBuffer, which can be neither detached nor shrunk and
 * whose memory lives as long as any object of it (the reference holds one), are used in place, without a copy.
 * The promise resolves with undefined (the JS runtime maps it to the kernel's output) or rejects with the sync
 * form's `runtime_out_of_memory` error.
 */

/* Runs a kernel on its validated arguments (a generated struct); returns PK_OK or an error status. */
typedef int (*pk_run_fn)(const void *args);

/* A tensor parameter of a kernel, for its async calls: where its pk_array sits in the generated args struct. */
typedef struct {
  const char *name;
  size_t arg;    /* its index in argv */
  size_t offset; /* offsetof(args struct, its pk_array) */
  bool output;   /* written by the kernel, so copied back */
} pk_async_tensor;

/* Copies start at multiples of this: whole cache lines, as the caller's arrays may not. */
#define PK_COPY_ALIGN 64

typedef struct {
  napi_async_work work;
  napi_deferred deferred;
  const char *kernel; /* a string literal of the generated code */
  pk_run_fn run;
  int status;
  size_t argc;
  const pk_async_tensor *tensors; /* static data of the generated code */
  size_t tensor_count;
  char *copies;   /* the copied arrays, one block; NULL when none is copied */
  napi_ref *refs; /* argc of them (NULL for a size), in the same allocation, after the job */
  void *args;     /* likewise, after the refs */
  bool *copied;   /* tensor_count of them, after the args: runs on a copy */
} pk_async_job;

static void pk_async_release(napi_env env, pk_async_job *job) {
  for (size_t i = 0; i < job->argc; i++) {
    if (job->refs[i] != NULL) napi_delete_reference(env, job->refs[i]);
  }
  free(job->copies);
  free(job);
}

static inline pk_array *pk_async_array(pk_async_job *job, size_t tensor) {
  return (pk_array *)((char *)job->args + job->tensors[tensor].offset);
}

/* The typed array behind tensor `i` of a settling call, as it is now; false if Node-API cannot say. */
static bool pk_async_current(napi_env env, pk_async_job *job, size_t i, void **data, size_t *length) {
  napi_value value;
  napi_typedarray_type type;
  if (napi_get_reference_value(env, job->refs[job->tensors[i].arg], &value) != napi_ok || value == NULL) return false;
  return napi_get_typedarray_info(env, value, &type, length, data, NULL, NULL) == napi_ok;
}

/* Points every array on an ordinary ArrayBuffer at a copy of its contents; false (and thrown) when that fails. */
static bool pk_async_copy_in(napi_env env, pk_async_job *job, const napi_value *argv) {
  size_t total = 0;
  for (size_t i = 0; i < job->tensor_count; i++) {
    pk_array *a = pk_async_array(job, i);
    if (a->bytes == 0) continue; /* nothing to read or write */
    napi_value buffer;
    bool ordinary = false;
    napi_typedarray_type type;
    PK_CALL_OR(env, napi_get_typedarray_info(env, argv[job->tensors[i].arg], &type, NULL, NULL, &buffer, NULL), false);
    PK_CALL_OR(env, napi_is_arraybuffer(env, buffer, &ordinary), false); /* false for a SharedArrayBuffer */
    job->copied[i] = ordinary;
    if (ordinary) total += (a->bytes + PK_COPY_ALIGN - 1) / PK_COPY_ALIGN * PK_COPY_ALIGN;
  }
  if (total == 0) return true;
  job->copies = (char *)aligned_alloc(PK_COPY_ALIGN, total);
  if (job->copies == NULL) {
    pk_throw(env, PK_RANGE_ERROR, "runtime_out_of_memory",
             "polykern: kernel '%s': out of memory copying its arrays for an async call", job->kernel);
    return false;
  }
  char *at = job->copies;
  for (size_t i = 0; i < job->tensor_count; i++) {
    if (!job->copied[i]) continue;
    pk_array *a = pk_async_array(job, i);
    memcpy(at, a->data, a->bytes);
    a->data = at;
    at += (a->bytes + PK_COPY_ALIGN - 1) / PK_COPY_ALIGN * PK_COPY_ALIGN;
  }
  return true;
}

/* The first copied argument whose array lost its memory during the call (or that Node-API cannot find), or NULL. */
static const char *pk_async_lost(napi_env env, pk_async_job *job) {
  for (size_t i = 0; i < job->tensor_count; i++) {
    void *data;
    size_t length;
    if (!job->copied[i]) continue;
    if (!pk_async_current(env, job, i, &data, &length) || length != pk_async_array(job, i)->length) {
      return job->tensors[i].name;
    }
  }
  return NULL;
}

/* Copies the outputs back into the caller's arrays (all checked by pk_async_lost just before). */
static void pk_async_copy_out(napi_env env, pk_async_job *job) {
  for (size_t i = 0; i < job->tensor_count; i++) {
    void *data;
    size_t length;
    if (!job->copied[i] || !job->tensors[i].output || !pk_async_current(env, job, i, &data, &length)) continue;
    const pk_array *a = pk_async_array(job, i);
    if (length == a->length) memcpy(data, a->data, a->bytes);
  }
}

/* On a libuv worker: no napi call is allowed here. */
static void pk_async_execute(napi_env env, void *data) {
  (void)env;
  pk_async_job *job = (pk_async_job *)data;
  job->status = job->run(job->args);
}

/*
 * On the JS thread, also while its environment is torn down (a worker terminated during the call): Node-API calls
 * may then fail, and whatever fails is skipped; the job is freed either way.
 */
static void pk_async_complete(napi_env env, napi_status status, void *data) {
  pk_async_job *job = (pk_async_job *)data;
  napi_value value = NULL;
  const char *lost = status == napi_ok && job->status == 0 ? pk_async_lost(env, job) : NULL;
  if (status == napi_ok && job->status == 0 && lost == NULL) {
    pk_async_copy_out(env, job);
    napi_get_undefined(env, &value);
    napi_resolve_deferred(env, job->deferred, value);
  } else {
    const bool cancelled = status != napi_ok;
    char text[320];
    if (lost != NULL) {
      snprintf(text, sizeof text,
               "polykern: kernel '%s': argument '%s' lost its memory during its async call (its ArrayBuffer was "
               "transferred, detached or resized); no output was written",
               job->kernel, lost);
      value = pk_error(env, PK_TYPE_ERROR, "runtime_arg_detached", lost, NULL, text);
    } else if (cancelled) {
      snprintf(text, sizeof text, "polykern: kernel '%s': its async call was cancelled", job->kernel);
      napi_value code = NULL, message = NULL;
      napi_create_string_utf8(env, "runtime_napi", NAPI_AUTO_LENGTH, &code);
      napi_create_string_utf8(env, text, NAPI_AUTO_LENGTH, &message);
      napi_create_error(env, code, message, &value);
    } else {
      snprintf(text, sizeof text, "polykern: kernel '%s': out of memory allocating its temporaries", job->kernel);
      value = pk_error(env, PK_RANGE_ERROR, "runtime_out_of_memory", NULL, NULL, text);
    }
    if (value == NULL) napi_get_undefined(env, &value);
    napi_reject_deferred(env, job->deferred, value);
  }
  napi_delete_async_work(env, job->work);
  pk_async_release(env, job);
}

/*
 * Queues `run` on a copy of `args` (`size` bytes, holding the pk_array of each of `tensors`) and returns its promise;
 * argv's objects are kept alive until it settles, and arrays on ordinary ArrayBuffers are copied (see above).
 * Throws (returns NULL) only when Node-API or an allocation fails, before anything is queued.
 */
PK_CALLED napi_value pk_queue_async(napi_env env, const char *kernel, const napi_value *argv, size_t argc,
                                    const void *args, size_t size, pk_run_fn run, const pk_async_tensor *tensors,
                                    size_t tensor_count) {
  /* args follows the refs: both are 8-byte aligned (pk_async_job and napi_ref are pointer-sized multiples). */
  pk_async_job *job = (pk_async_job *)calloc(1, sizeof(pk_async_job) + argc * sizeof(napi_ref) + size + tensor_count);
  if (job == NULL) return pk_throw_no_memory(env, kernel);
  job->refs = (napi_ref *)(job + 1);
  job->args = (void *)(job->refs + argc);
  job->copied = (bool *)((char *)job->args + size);
  memcpy(job->args, args, size);
  job->kernel = kernel;
  job->run = run;
  job->argc = argc;
  job->tensors = tensors;
  job->tensor_count = tensor_count;
  napi_value promise, name;
  for (size_t i = 0; i < argc; i++) {
    napi_valuetype type;
    if (napi_typeof(env, argv[i], &type) != napi_ok) goto failed;
    if (type != napi_object) continue; /* sizes are numbers, copied into args */
    if (napi_create_reference(env, argv[i], 1, &job->refs[i]) != napi_ok) goto failed;
  }
  if (!pk_async_copy_in(env, job, argv)) {
    pk_async_release(env, job);
    return NULL;
  }
  if (napi_create_string_utf8(env, kernel, NAPI_AUTO_LENGTH, &name) != napi_ok) goto failed;
  if (napi_create_async_work(env, NULL, name, pk_async_execute, pk_async_complete, job, &job->work) != napi_ok) {
    goto failed;
  }
  if (napi_create_promise(env, &job->deferred, &promise) != napi_ok) {
    napi_delete_async_work(env, job->work);
    goto failed;
  }
  if (napi_queue_async_work(env, job->work) != napi_ok) {
    /* The deferred must settle to be freed; the caller sees the thrown error, not this promise. */
    napi_value undefined;
    napi_get_undefined(env, &undefined);
    napi_reject_deferred(env, job->deferred, undefined);
    napi_throw_error(env, "runtime_napi", "polykern: could not queue an async kernel call");
    napi_delete_async_work(env, job->work);
    pk_async_release(env, job);
    return NULL;
  }
  return promise;
failed:
  pk_throw_last_error(env);
  pk_async_release(env, job);
  return NULL;
}

/* Makes `async` (a callback queuing `kernel`) the `.async` property of exports[kernel]. */
PK_CALLED bool pk_define_async(napi_env env, napi_value exports, const char *kernel, napi_callback async) {
  napi_value sync, fn;
  PK_CALL_OR(env, napi_get_named_property(env, exports, kernel, &sync), false);
  PK_CALL_OR(env, napi_create_function(env, "async", NAPI_AUTO_LENGTH, async, NULL, &fn), false);
  PK_CALL_OR(env, napi_set_named_property(env, sync, "async", fn), false);
  return true;
}

#endif
