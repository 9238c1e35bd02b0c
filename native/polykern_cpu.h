/*
 * CPU dispatch and the module's `__polykern`: every kernel is compiled once per ISA (best first, the last one
 * needing no CPU feature), and module init points each kernel at the version of the best level the CPU supports,
 * or the lower one POLYKERN_ISA names. POLYKERN_THREADS, a positive integer up to the CPUs the process may use, sets
 * the pool's thread count at load. Both are read once per process; a value that is not accepted is replaced by the
 * default, or clamped, and described in `__polykern.takeEnvWarnings()` for the loader to warn about.
 * `__polykern.setIsa(name)` and `__polykern.setThreads(n)` change them later, for every kernel of the addon. The
 * generated file describes itself in a pk_addon and calls pk_addon_init from its module init.
 */
#ifndef POLYKERN_CPU_H
#define POLYKERN_CPU_H

#include <stdlib.h>
#include <string.h>
#include "polykern_bound_napi.h"
#include "polykern_napi.h"
#include "polykern_pool.h"

typedef struct {
  /* ISA names, best first; `supported(level)` tests the CPU, `use(level)` points every kernel at that version. */
  const char *const *isas;
  int isa_count;
  bool (*supported)(int level);
  void (*use)(int level);
  const char *const *kernels;
  size_t kernel_count;
} pk_addon;

static int pk_isa_level = -1;

/* The first level at or after `requested` (a lower one) that the CPU supports; the last level always is. */
static int pk_isa_from(const pk_addon *addon, int requested) {
  for (int level = requested; level < addon->isa_count - 1; level++) {
    if (addon->supported(level)) return level;
  }
  return addon->isa_count - 1;
}

static int pk_isa_index(const pk_addon *addon, const char *name) {
  for (int level = 0; level < addon->isa_count; level++) {
    if (strcmp(name, addon->isas[level]) == 0) return level;
  }
  return -1;
}

static void pk_isa_select(const pk_addon *addon, int requested) {
  pk_isa_level = pk_isa_from(addon, requested);
  addon->use(pk_isa_level);
}

static const pk_addon *pk_addon_of(napi_env env, napi_callback_info info, size_t *argc, napi_value *argv) {
  void *data = NULL;
  PK_CALL(env, napi_get_cb_info(env, info, argc, argv, NULL, &data));
  return (const pk_addon *)data;
}

static napi_value pk_get_isa(napi_env env, napi_callback_info info) {
  size_t argc = 0;
  const pk_addon *addon = pk_addon_of(env, info, &argc, NULL);
  if (addon == NULL) return NULL;
  napi_value value;
  PK_CALL(env, napi_create_string_utf8(env, addon->isas[pk_isa_level], NAPI_AUTO_LENGTH, &value));
  return value;
}

static napi_value pk_get_threads(napi_env env, napi_callback_info info) {
  napi_value value;
  (void)info;
  PK_CALL(env, napi_create_int32(env, pk_threads(), &value));
  return value;
}

/* setIsa(name): switches every kernel to `name`'s version, or the best supported one below it; returns the choice. */
static napi_value pk_set_isa_js(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  const pk_addon *addon = pk_addon_of(env, info, &argc, argv);
  if (addon == NULL) return NULL;
  char name[32] = "";
  size_t length = 0;
  napi_valuetype type = napi_undefined;
  if (argc >= 1) PK_CALL(env, napi_typeof(env, argv[0], &type));
  if (type == napi_string) PK_CALL(env, napi_get_value_string_utf8(env, argv[0], name, sizeof name, &length));
  int level = type == napi_string ? pk_isa_index(addon, name) : -1;
  if (level < 0) {
    return pk_throw(env, PK_RANGE_ERROR, "runtime_isa_invalid",
                    "polykern: setIsa() takes the name of an ISA this addon holds (%s ... %s), got '%s'",
                    addon->isas[0], addon->isas[addon->isa_count - 1], name);
  }
  pk_isa_select(addon, level);
  return pk_get_isa(env, info);
}

/* setThreads(n): the pool's thread count for every later kernel call of this addon. */
static napi_value pk_set_threads_js(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  if (pk_addon_of(env, info, &argc, argv) == NULL) return NULL;
  double n = 0;
  napi_valuetype type = napi_undefined;
  if (argc >= 1) PK_CALL(env, napi_typeof(env, argv[0], &type));
  if (type == napi_number) PK_CALL(env, napi_get_value_double(env, argv[0], &n));
  if (type != napi_number || n != floor(n) || n < 1 || n > PK_MAX_THREADS) {
    return pk_throw(env, PK_RANGE_ERROR, "runtime_threads_invalid",
                    "polykern: setThreads() takes an integer from 1 to %d", PK_MAX_THREADS);
  }
  pk_set_threads((int)n);
  return NULL;
}

/* What was wrong with the environment's settings, written once by pk_addon_configure, taken once per process. */
#define PK_ENV_WARNINGS 2
static char pk_env_warnings[PK_ENV_WARNINGS][512];
static int pk_env_warning_count = 0;
static int pk_env_warnings_taken = 0;

static void pk_env_warn(const char *format, ...) {
  if (pk_env_warning_count == PK_ENV_WARNINGS) return;
  va_list args;
  va_start(args, format);
  vsnprintf(pk_env_warnings[pk_env_warning_count++], sizeof pk_env_warnings[0], format, args);
  va_end(args);
}

/* A value quoted for a message: at most 40 bytes of it, so a long variable cannot swallow the rest. */
static const char *pk_env_quote(const char *text, char out[48]) {
  snprintf(out, 48, "%.40s%s", text, strlen(text) > 40 ? "..." : "");
  return out;
}

/* POLYKERN_ISA: one of the addon's ISA names, exactly; the best level the CPU runs when unset or not one. */
static int pk_env_isa(const pk_addon *addon) {
  const char *text = getenv("POLYKERN_ISA");
  if (text == NULL || *text == '\0') return 0;
  int level = pk_isa_index(addon, text);
  char quoted[48], names[256] = "";
  if (level < 0) {
    for (int i = 0; i < addon->isa_count; i++) {
      size_t used = strlen(names);
      snprintf(names + used, sizeof names - used, "%s%s", i > 0 ? ", " : "", addon->isas[i]);
    }
    pk_env_warn("POLYKERN_ISA='%s' names no ISA of this addon; accepted: %s (as written); using %s, the best this CPU runs",
                pk_env_quote(text, quoted), names, addon->isas[pk_isa_from(addon, 0)]);
    return 0;
  }
  int runs = pk_isa_from(addon, level);
  if (runs != level) {
    pk_env_warn("POLYKERN_ISA='%s' needs CPU features this CPU lacks; using %s", text, addon->isas[runs]);
  }
  return level;
}

/* POLYKERN_THREADS: a whole number from 1 to the CPUs the process may use (more is clamped to them); 0 when unset
   or not one, for the default. */
static int pk_env_threads(void) {
  const char *text = getenv("POLYKERN_THREADS");
  if (text == NULL || *text == '\0') return 0;
  const int usable = pk_usable_cpus();
  char quoted[48];
  bool digits = strspn(text, "0123456789") == strlen(text);
  long n = digits ? strtol(text, NULL, 10) : 0; /* strtol saturates at LONG_MAX: still more than `usable` */
  if (n < 1) {
    pk_env_warn("POLYKERN_THREADS='%s' is not a number of threads; accepted: a whole number from 1 to %d (the CPUs "
                "this process may use); using %d",
                pk_env_quote(text, quoted), usable, pk_threads());
    return 0;
  }
  if (n > usable) {
    pk_env_warn("POLYKERN_THREADS='%s' is more than the %d CPUs this process may use; accepted: 1 to %d; using %d",
                pk_env_quote(text, quoted), usable, usable, usable);
    return usable;
  }
  return (int)n;
}

/* The environment's choices, once per process (worker threads load the addon again). */
static void pk_addon_configure(const pk_addon *addon) {
  static int configured = 0;
  if (__atomic_exchange_n(&configured, 1, __ATOMIC_ACQ_REL)) return;
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
#endif
  pk_isa_select(addon, pk_env_isa(addon));
  int threads = pk_env_threads();
  if (threads > 0) pk_set_threads(threads);
}

/* takeEnvWarnings(): the configuration's warnings the first time any environment of the process asks, then []. */
static napi_value pk_take_env_warnings(napi_env env, napi_callback_info info) {
  (void)info;
  const bool first = !__atomic_exchange_n(&pk_env_warnings_taken, 1, __ATOMIC_ACQ_REL);
  const int count = first ? pk_env_warning_count : 0;
  napi_value list, text;
  PK_CALL(env, napi_create_array_with_length(env, (size_t)count, &list));
  for (int i = 0; i < count; i++) {
    PK_CALL(env, napi_create_string_utf8(env, pk_env_warnings[i], NAPI_AUTO_LENGTH, &text));
    PK_CALL(env, napi_set_element(env, list, (uint32_t)i, text));
  }
  return list;
}

/* `exports.__polykern = { napiVersion, isa, isas, threads, boundForms, setIsa, setThreads, takeEnvWarnings,
   bindConstant, unbindConstant, kernels }`; `isa`, `threads` and `boundForms` are read live. The loader checks
   `kernels` before using the addon. */
static inline napi_value pk_addon_init(napi_env env, napi_value exports, const pk_addon *addon) {
  pk_addon_configure(addon);
  napi_value meta, value, list;
  void *data = (void *)addon;
  PK_CALL(env, napi_create_object(env, &meta));
  PK_CALL(env, napi_create_int32(env, NAPI_VERSION, &value));
  PK_CALL(env, napi_set_named_property(env, meta, "napiVersion", value));
#ifdef POLYKERN_IDENTITY
  /* `identity`: the hash of the sources the addon was built from (a define of the builder's kernels.gypi), which the
     loader compares with the one its bundle expects (runtime/identity.ts). */
  PK_CALL(env, napi_create_string_utf8(env, POLYKERN_IDENTITY, NAPI_AUTO_LENGTH, &value));
  PK_CALL(env, napi_set_named_property(env, meta, "identity", value));
#endif
  const napi_property_descriptor live[] = {
      {"isa", NULL, NULL, pk_get_isa, NULL, NULL, napi_enumerable, data},
      {"threads", NULL, NULL, pk_get_threads, NULL, NULL, napi_enumerable, data},
      {"boundForms", NULL, NULL, pk_get_bound_forms, NULL, NULL, napi_enumerable, data},
      {"setIsa", NULL, pk_set_isa_js, NULL, NULL, NULL, napi_enumerable, data},
      {"setThreads", NULL, pk_set_threads_js, NULL, NULL, NULL, napi_enumerable, data},
      {"takeEnvWarnings", NULL, pk_take_env_warnings, NULL, NULL, NULL, napi_enumerable, data},
      {"bindConstant", NULL, pk_bind_constant_js, NULL, NULL, NULL, napi_enumerable, data},
      {"unbindConstant", NULL, pk_unbind_constant_js, NULL, NULL, NULL, napi_enumerable, data},
  };
  PK_CALL(env, napi_define_properties(env, meta, sizeof live / sizeof live[0], live));
  PK_CALL(env, napi_create_array_with_length(env, (size_t)addon->isa_count, &list));
  for (int i = 0; i < addon->isa_count; i++) {
    PK_CALL(env, napi_create_string_utf8(env, addon->isas[i], NAPI_AUTO_LENGTH, &value));
    PK_CALL(env, napi_set_element(env, list, (uint32_t)i, value));
  }
  PK_CALL(env, napi_set_named_property(env, meta, "isas", list));
  PK_CALL(env, napi_create_array_with_length(env, addon->kernel_count, &list));
  for (size_t i = 0; i < addon->kernel_count; i++) {
    PK_CALL(env, napi_create_string_utf8(env, addon->kernels[i], NAPI_AUTO_LENGTH, &value));
    PK_CALL(env, napi_set_element(env, list, (uint32_t)i, value));
  }
  PK_CALL(env, napi_set_named_property(env, meta, "kernels", list));
  PK_CALL(env, napi_set_named_property(env, exports, "__polykern", meta));
  return exports;
}

#endif
