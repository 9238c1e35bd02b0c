/*
 * Pack buffers, per thread and slot, kept between calls: a call allocates (and the OS faults in) megabytes of panels
 * only when it needs more than any call before it on that thread. Freed when the thread exits. Like the pool, defined
 * once per addon, in polykern.c (see PK_SHARED in polykern_pool.h).
 */
#ifndef POLYKERN_SCRATCH_H
#define POLYKERN_SCRATCH_H

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include "polykern_pool.h"

#define PK_SCRATCH_SLOTS 2

/* `count` elements of `size` bytes in this thread's buffer `slot`, 64-byte aligned, or NULL; valid until the
   thread's next pk_scratch call for that slot. */
PK_SHARED void *pk_scratch(int slot, int64_t count, size_t size);

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
