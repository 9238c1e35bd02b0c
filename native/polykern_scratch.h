/*
 * Pack buffers and path temporaries, per thread and slot, kept between calls: a call allocates (and the OS faults in) megabytes of panels
 * only when it needs more than any call before it on that thread. Freed when the thread exits. Like the pool, defined
 * once per addon, in polykern.c (see PK_SHARED in polykern_pool.h).
 */
#ifndef POLYKERN_SCRATCH_H
#define POLYKERN_SCRATCH_H

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "polykern_pool.h"

/* Slots 0 and 1 hold GEMM and convolution pack buffers; PK_ARENA_SLOT the temporaries of a kernel's chosen
   contraction path (emit/c.ts), which never call another kernel while theirs are live; PK_TABLE_SLOT a driver's
   small tables of one call (an im2col GEMM's tiles' live columns); PK_PARTIAL_SLOT the partial sums of C of a GEMM
   whose team splits k; PK_MEMO_SLOT a gathered contraction's offset tables, kept for its next call (pk_table_memo). */
#define PK_SCRATCH_SLOTS 6
#define PK_ARENA_SLOT 2
#define PK_TABLE_SLOT 3
#define PK_PARTIAL_SLOT 4
#define PK_MEMO_SLOT 5

/* The most values a memo's key holds; a longer key is never kept. */
#define PK_MEMO_KEYS 64

/* `count` elements of `size` bytes in this thread's buffer `slot`, 64-byte aligned, or NULL; valid until the
   thread's next pk_scratch call for that slot. */
PK_SHARED void *pk_scratch(int slot, int64_t count, size_t size);

/* `count` int64 offsets in this thread's PK_MEMO_SLOT, or NULL. *fresh is 0 when the slot still holds what the last
   call here computed and that call had the same `owner` (a contraction's own static) and key: its tables are a
   function of the key (the extents and strides they are built from, which fix the order choice too), so an app
   calling a kernel on the same shapes builds them once per thread (TCCG's 24^5 transpositions spent 5-9% of each
   call on them). A key of more than PK_MEMO_KEYS values (nkey < 0 also) is never kept. Every use of the slot goes
   through here, so the record names the slot's content. */
PK_SHARED int64_t *pk_table_memo(const void *owner, int nkey, const int64_t *key, int64_t count, int *fresh);

/* Places an array of `rank` extents `dims` and elements of `size` bytes at the end of an arena of *end bytes and
   returns its offset; each array takes a multiple of 64 bytes, at least 64, so every offset stays aligned and a
   placed array makes the arena non-empty. A negative extent or an overflow sets *end to -1, where it stays. */
static inline int64_t pk_arena_place(int64_t *end, size_t size, int rank, const int64_t *dims) {
  uint64_t bytes = size;
  for (int d = 0; d < rank; d++) {
    if (dims[d] < 0 || __builtin_mul_overflow(bytes, (uint64_t)dims[d], &bytes)) *end = -1;
  }
  const int64_t at = *end;
  if (at < 0 || bytes > (uint64_t)INT64_MAX - 128 - (uint64_t)at) {
    *end = -1;
    return 0;
  }
  *end = at + (bytes == 0 ? 64 : (int64_t)((bytes + 63) & ~(uint64_t)63));
  return at;
}

#ifndef PK_RUNTIME_EXTERN

typedef struct {
  void *p[PK_SCRATCH_SLOTS];
  size_t bytes[PK_SCRATCH_SLOTS];
} pk_scratch_set;
static _Thread_local pk_scratch_set pk_scratch_tls;
static pthread_key_t pk_scratch_key;
static pthread_once_t pk_scratch_once = PTHREAD_ONCE_INIT;

static void pk_scratch_release(void *arg) {
  pk_scratch_set *s = arg;
  for (int i = 0; i < PK_SCRATCH_SLOTS; i++) free(s->p[i]), s->p[i] = NULL, s->bytes[i] = 0;
}
static void pk_scratch_key_create(void) { pthread_key_create(&pk_scratch_key, pk_scratch_release); }

PK_SHARED void *pk_scratch(int slot, int64_t count, size_t size) {
  if (count <= 0 || (uint64_t)count > (SIZE_MAX - 63) / size) return NULL;
  const size_t bytes = ((size_t)count * size + 63) & ~(size_t)63;
  pk_scratch_set *s = &pk_scratch_tls;
  if (bytes <= s->bytes[slot]) return s->p[slot];
  pthread_once(&pk_scratch_once, pk_scratch_key_create);
  pthread_setspecific(pk_scratch_key, s);
  free(s->p[slot]);
  s->p[slot] = aligned_alloc(64, bytes);
  s->bytes[slot] = s->p[slot] != NULL ? bytes : 0;
  return s->p[slot];
}

/* What PK_MEMO_SLOT holds: the tables of the last call of `owner` with `key` (owner NULL: nothing kept). */
static _Thread_local struct {
  const void *owner;
  int nkey;
  int64_t key[PK_MEMO_KEYS];
} pk_memo_tls;

PK_SHARED int64_t *pk_table_memo(const void *owner, int nkey, const int64_t *key, int64_t count, int *fresh) {
  const int keep = nkey >= 0 && nkey <= PK_MEMO_KEYS;
  *fresh = !(keep && pk_memo_tls.owner == owner && pk_memo_tls.nkey == nkey &&
             memcmp(pk_memo_tls.key, key, (size_t)nkey * sizeof(int64_t)) == 0);
  int64_t *tables = pk_scratch(PK_MEMO_SLOT, count, sizeof(int64_t));
  /* Recorded before the caller fills the tables: nothing runs on this thread in between. */
  pk_memo_tls.owner = keep && tables != NULL ? owner : NULL;
  if (pk_memo_tls.owner != NULL) {
    pk_memo_tls.nkey = nkey;
    memcpy(pk_memo_tls.key, key, (size_t)nkey * sizeof(int64_t));
  }
  return tables;
}

#endif /* PK_RUNTIME_EXTERN */

#endif
