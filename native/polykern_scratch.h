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
#include "polykern_pool.h"

/* Slots 0 and 1 hold GEMM and convolution pack buffers; PK_ARENA_SLOT the temporaries of a kernel's chosen
   contraction path (emit/c.ts), which never call another kernel while theirs are live; PK_TABLE_SLOT a driver's
   small tables of one call (an im2col GEMM's tiles' live columns); PK_PARTIAL_SLOT the partial sums of C of a GEMM
   whose team splits k. */
#define PK_SCRATCH_SLOTS 5
#define PK_ARENA_SLOT 2
#define PK_TABLE_SLOT 3
#define PK_PARTIAL_SLOT 4

/* `count` elements of `size` bytes in this thread's buffer `slot`, 64-byte aligned, or NULL; valid until the
   thread's next pk_scratch call for that slot. */
PK_SHARED void *pk_scratch(int slot, int64_t count, size_t size);

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

#endif /* PK_RUNTIME_EXTERN */

#endif
