/*
 * Constant operands: arrays bound to a kernel function (`f.bind({ F })` in the runtime), which the runtime promises
 * not to change or free while they are bound, and the packed forms kernels made of them. The runtime binds its own
 * copy of the caller's array, on a SharedArrayBuffer (never detached, and used in place by `.async`), and unbinds it
 * before that copy can be freed: on `release()`, when the bound function is collected, and when its environment (a
 * worker) ends. A kernel that packs an operand asks for the form of a key naming everything its packing reads; the
 * first call packs it, later ones read it. Forms are freed when their array is unbound and no call uses them.
 * Defined once per addon, in polykern.c (see PK_SHARED in polykern_pool.h).
 */
#ifndef POLYKERN_BOUND_H
#define POLYKERN_BOUND_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "polykern_pool.h"

/* Packs a form into `out`, from what `ctx` describes. */
typedef void (*pk_pack_fn)(const void *ctx, void *out);

/* A form in use by a call: what pk_bound_form returned, handed back to pk_bound_done when the call ends. */
typedef struct {
  void *range;
} pk_bound_use;

/* Binds `bytes` bytes from `begin`; returns its id (0: out of memory). */
PK_SHARED uint64_t pk_bind_range(const void *begin, size_t bytes);
/* Unbinds an id pk_bind_range returned; its forms go when no call uses them. Unknown ids are ignored. */
PK_SHARED void pk_unbind_range(uint64_t id);
/*
 * The form `key` (key_bytes of it, compared bytewise) of the bound array holding `p`, of `bytes` bytes, made by
 * pack(ctx, form) on first use; NULL when no bound array holds `p` or memory is short, and the caller packs as
 * for any array. A form returned stays valid until pk_bound_done(use).
 */
PK_SHARED const void *pk_bound_form(const void *p, const void *key, size_t key_bytes, size_t bytes, pk_pack_fn pack,
                                    const void *ctx, pk_bound_use *use);
PK_SHARED void pk_bound_done(pk_bound_use *use);
/* Whether a bound array holds `p`: a call's choice of blocking (a bound operand's packs are free after its first). */
PK_SHARED int pk_bound_holds(const void *p);
/* The packed forms held now, of every bound array: what `__polykern.boundForms` reports. */
PK_SHARED int64_t pk_bound_form_count(void);

#ifndef PK_RUNTIME_EXTERN

typedef struct pk_form {
  struct pk_form *next;
  void *data;
  size_t key_bytes;
  unsigned char key[];
} pk_form;

typedef struct pk_bound_range {
  struct pk_bound_range *next;
  uint64_t id;
  const char *begin;
  size_t bytes;
  int users, unbound;
  pk_form *forms;
} pk_bound_range;

static pthread_mutex_t pk_bound_lock = PTHREAD_MUTEX_INITIALIZER;
static pk_bound_range *pk_bound_ranges;
static uint64_t pk_bound_last_id;

/* The bound (not yet unbound) range holding `p`, or NULL; called with the lock held. */
static pk_bound_range *pk_bound_range_of(const void *p) {
  const char *at = p;
  pk_bound_range *r = pk_bound_ranges;
  while (r != NULL && (r->unbound || at < r->begin || at >= r->begin + r->bytes)) r = r->next;
  return r;
}

static void pk_bound_free(pk_bound_range *r) {
  for (pk_form *f = r->forms, *next; f != NULL; f = next) next = f->next, free(f->data), free(f);
  free(r);
}

/* Unlinks and frees `r` once it is unbound and unused; called with the lock held. */
static void pk_bound_collect(pk_bound_range *r) {
  if (!r->unbound || r->users > 0) return;
  for (pk_bound_range **at = &pk_bound_ranges; *at != NULL; at = &(*at)->next) {
    if (*at == r) {
      __atomic_store_n(at, r->next, __ATOMIC_RELEASE); /* the head is read without the lock */
      break;
    }
  }
  pk_bound_free(r);
}

PK_SHARED uint64_t pk_bind_range(const void *begin, size_t bytes) {
  pk_bound_range *r = calloc(1, sizeof *r);
  if (r == NULL) return 0;
  r->begin = begin, r->bytes = bytes;
  pthread_mutex_lock(&pk_bound_lock);
  r->id = ++pk_bound_last_id;
  r->next = pk_bound_ranges;
  __atomic_store_n(&pk_bound_ranges, r, __ATOMIC_RELEASE);
  pthread_mutex_unlock(&pk_bound_lock);
  return r->id;
}

PK_SHARED void pk_unbind_range(uint64_t id) {
  pthread_mutex_lock(&pk_bound_lock);
  for (pk_bound_range *r = pk_bound_ranges; r != NULL; r = r->next) {
    if (r->id == id && !r->unbound) {
      r->unbound = 1;
      pk_bound_collect(r);
      break;
    }
  }
  pthread_mutex_unlock(&pk_bound_lock);
}

PK_SHARED const void *pk_bound_form(const void *p, const void *key, size_t key_bytes, size_t bytes, pk_pack_fn pack,
                                    const void *ctx, pk_bound_use *use) {
  use->range = NULL;
  /* Nothing bound (the usual call): no lock. A bound array is bound before any call that passes it starts. */
  if (__atomic_load_n(&pk_bound_ranges, __ATOMIC_ACQUIRE) == NULL) return NULL;
  pthread_mutex_lock(&pk_bound_lock);
  pk_bound_range *r = pk_bound_range_of(p);
  pk_form *f = r == NULL ? NULL : r->forms;
  while (f != NULL && (f->key_bytes != key_bytes || memcmp(f->key, key, key_bytes) != 0)) f = f->next;
  if (r != NULL && f == NULL && (f = malloc(sizeof *f + key_bytes)) != NULL) {
    /* Packed under the lock: a first call of a bound array packs once even when calls on other threads race it. */
    f->data = aligned_alloc(64, (bytes + 63) & ~(size_t)63);
    if (f->data == NULL) {
      free(f);
      f = NULL;
    } else {
      pack(ctx, f->data);
      f->key_bytes = key_bytes;
      memcpy(f->key, key, key_bytes);
      f->next = r->forms, r->forms = f;
    }
  }
  if (f != NULL) r->users++, use->range = r;
  pthread_mutex_unlock(&pk_bound_lock);
  return f == NULL ? NULL : f->data;
}

PK_SHARED void pk_bound_done(pk_bound_use *use) {
  pk_bound_range *r = use->range;
  if (r == NULL) return;
  pthread_mutex_lock(&pk_bound_lock);
  r->users--;
  pk_bound_collect(r);
  pthread_mutex_unlock(&pk_bound_lock);
  use->range = NULL;
}

PK_SHARED int pk_bound_holds(const void *p) {
  if (__atomic_load_n(&pk_bound_ranges, __ATOMIC_ACQUIRE) == NULL) return 0;
  pthread_mutex_lock(&pk_bound_lock);
  const int held = pk_bound_range_of(p) != NULL;
  pthread_mutex_unlock(&pk_bound_lock);
  return held;
}

PK_SHARED int64_t pk_bound_form_count(void) {
  int64_t n = 0;
  pthread_mutex_lock(&pk_bound_lock);
  for (pk_bound_range *r = pk_bound_ranges; r != NULL; r = r->next)
    for (pk_form *f = r->forms; f != NULL; f = f->next) n++;
  pthread_mutex_unlock(&pk_bound_lock);
  return n;
}

#endif /* PK_RUNTIME_EXTERN */

#endif
