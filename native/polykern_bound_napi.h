/*
 * `__polykern.bindConstant(array)` and `__polykern.unbindConstant(handle)`: the runtime's side of polykern_bound.h.
 * A bound array must sit on a SharedArrayBuffer (never detached or shrunk); the addon holds a strong reference to it
 * while it is bound, so its memory cannot be freed under a packed form. The handle is an external: unbound by
 * unbindConstant, or when it is collected or its environment ends (Node-API runs its finalizer then too).
 * `__polykern.boundForms`: how many packed forms the addon holds, for tests and memory accounting.
 */
#ifndef POLYKERN_BOUND_NAPI_H
#define POLYKERN_BOUND_NAPI_H

#include "polykern_bound.h"
#include "polykern_napi.h"

typedef struct {
  uint64_t id;
  napi_ref array;
} pk_binding;

/* Marks the handles bindConstant makes, so unbindConstant never reads another addon's external as one. */
static const napi_type_tag pk_binding_tag = {0x706f6c796b65726eULL, 0x626f756e64000001ULL};

static inline void pk_binding_end(napi_env env, pk_binding *b) {
  if (b->id == 0) return;
  pk_unbind_range(b->id);
  b->id = 0;
  napi_delete_reference(env, b->array);
}

static inline void pk_binding_finalize(napi_env env, void *data, void *hint) {
  (void)hint;
  pk_binding_end(env, data);
  free(data);
}

static inline napi_value pk_bind_constant_js(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1], buffer, handle;
  PK_CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  bool typed = false, ordinary = true;
  if (argc >= 1) PK_CALL(env, napi_is_typedarray(env, argv[0], &typed));
  void *data = NULL;
  size_t length = 0;
  napi_typedarray_type type;
  if (typed) PK_CALL(env, napi_get_typedarray_info(env, argv[0], &type, &length, &data, &buffer, NULL));
  if (typed) PK_CALL(env, napi_is_arraybuffer(env, buffer, &ordinary));
  if (!typed || ordinary) {
    return pk_throw(env, PK_TYPE_ERROR, "runtime_bind_invalid",
                    "polykern: bindConstant() takes a typed array on a SharedArrayBuffer");
  }
  pk_binding *b = calloc(1, sizeof *b);
  if (b == NULL || (b->id = pk_bind_range(data, length * pk_element_size(type))) == 0) {
    free(b);
    return pk_throw(env, PK_RANGE_ERROR, "runtime_out_of_memory", "polykern: out of memory binding a constant");
  }
  if (napi_create_reference(env, argv[0], 1, &b->array) != napi_ok) {
    pk_unbind_range(b->id);
    free(b);
    pk_throw_last_error(env);
    return NULL;
  }
  if (napi_create_external(env, b, pk_binding_finalize, NULL, &handle) != napi_ok) {
    pk_binding_finalize(env, b, NULL);
    pk_throw_last_error(env);
    return NULL;
  }
  PK_CALL(env, napi_type_tag_object(env, handle, &pk_binding_tag));
  return handle;
}

static inline napi_value pk_unbind_constant_js(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  PK_CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  napi_valuetype kind = napi_undefined;
  if (argc >= 1) PK_CALL(env, napi_typeof(env, argv[0], &kind));
  bool ours = false;
  void *b = NULL;
  if (kind == napi_external) PK_CALL(env, napi_check_object_type_tag(env, argv[0], &pk_binding_tag, &ours));
  if (ours) PK_CALL(env, napi_get_value_external(env, argv[0], &b));
  if (b == NULL) {
    return pk_throw(env, PK_TYPE_ERROR, "runtime_bind_invalid",
                    "polykern: unbindConstant() takes what bindConstant() returned");
  }
  pk_binding_end(env, b);
  return NULL;
}

static inline napi_value pk_get_bound_forms(napi_env env, napi_callback_info info) {
  (void)info;
  napi_value value;
  PK_CALL(env, napi_create_int64(env, pk_bound_form_count(), &value));
  return value;
}

#endif
