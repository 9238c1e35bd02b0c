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
  uint64_t hash;
  size_t key_bytes;
  unsigned char key[];
} pk_form;

/* A bound array's forms, chained in a hash table of `bucket_count` (a power of two, or 0) buckets: a blocked call
   asks for one form per block, thousands of them for a large operand in small blocks, every call. */
typedef struct pk_bound_range {
  struct pk_bound_range *next;
  uint64_t id;
  const char *begin;
  size_t bytes;
  int users, unbound;
  pk_form **buckets;
  size_t bucket_count, form_count;
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
  for (size_t b = 0; b < r->bucket_count; b++)
    for (pk_form *f = r->buckets[b], *next; f != NULL; f = next) next = f->next, free(f->data), free(f);
  free(r->buckets);
  free(r);
}

/* The key's hash, eight bytes a step (keys are structs of pointers and sizes), high bits folded into the low ones
   that pick a bucket. */
static uint64_t pk_form_hash(const void *key, size_t key_bytes) {
  const unsigned char *k = key;
  uint64_t h = 0x9e3779b97f4a7c15ull ^ key_bytes;
  size_t i = 0;
  for (uint64_t word; i + 8 <= key_bytes; i += 8) {
    memcpy(&word, k + i, 8);
    h = (h ^ word) * 0xff51afd7ed558ccdull;
    h ^= h >> 32;
  }
  for (; i < key_bytes; i++) h = (h ^ k[i]) * 0x100000001b3ull;
  return h ^ (h >> 29);
}

static pk_form *pk_form_find(const pk_bound_range *r, uint64_t hash, const void *key, size_t key_bytes) {
  if (r->bucket_count == 0) return NULL;
  pk_form *f = r->buckets[hash & (r->bucket_count - 1)];
  while (f != NULL && (f->hash != hash || f->key_bytes != key_bytes || memcmp(f->key, key, key_bytes) != 0)) f = f->next;
  return f;
}

/* Adds `f` to r's table, doubling it first when it holds a form per bucket; 0 when memory is short. */
static int pk_form_add(pk_bound_range *r, pk_form *f) {
  if (r->form_count >= r->bucket_count) {
    const size_t count = r->bucket_count == 0 ? 64 : 2 * r->bucket_count;
    pk_form **buckets = calloc(count, sizeof *buckets);
    if (buckets == NULL) return 0;
    for (size_t b = 0; b < r->bucket_count; b++)
      for (pk_form *g = r->buckets[b], *next; g != NULL; g = next)
        next = g->next, g->next = buckets[g->hash & (count - 1)], buckets[g->hash & (count - 1)] = g;
    free(r->buckets);
    r->buckets = buckets, r->bucket_count = count;
  }
  pk_form **head = &r->buckets[f->hash & (r->bucket_count - 1)];
  f->next = *head, *head = f;
  r->form_count++;
  return 1;
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
  const uint64_t hash = r == NULL ? 0 : pk_form_hash(key, key_bytes);
  pk_form *f = r == NULL ? NULL : pk_form_find(r, hash, key, key_bytes);
  if (r != NULL && f == NULL && (f = malloc(sizeof *f + key_bytes)) != NULL) {
    /* Packed under the lock: a first call of a bound array packs once even when calls on other threads race it. */
    f->data = aligned_alloc(64, (bytes + 63) & ~(size_t)63);
    f->hash = hash, f->key_bytes = key_bytes;
    memcpy(f->key, key, key_bytes);
    if (f->data == NULL || !pk_form_add(r, f)) {
      free(f->data);
      free(f);
      f = NULL;
    } else {
      pack(ctx, f->data);
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
  for (pk_bound_range *r = pk_bound_ranges; r != NULL; r = r->next) n += (int64_t)r->form_count;
  pthread_mutex_unlock(&pk_bound_lock);
  return n;
}

#endif /* PK_RUNTIME_EXTERN */

#endif
