/*
 * A small portable pthread pool, created lazily once per addon and reused by every kernel of it. Work is split
 * into contiguous chunks of [0, n), one per thread, the caller included; or it runs as a team, one member per
 * thread, whose members may wait for each other at a barrier (a GEMM's threads packing one shared panel).
 *
 * Design: a job is published under a lock with a new generation number; workers spin briefly on it after each job
 * (kernels come in bursts), then sleep on a condition variable. Threads claim chunks from an atomic counter rather
 * than by their number, so when a worker is slow to wake (a busy machine) the caller runs its chunk too instead of
 * waiting for it. No allocation per call; workers start on first use and when the thread count grows, and never stop
 * (a smaller count leaves some idle). State is static-initialized: loading the addon runs no constructor. Workers
 * that never stop need code that is never unmapped: the addon is linked with `-z nodelete` (binding.gyp), so Node's
 * dlclose when a worker_threads environment that loaded it ends leaves it in place.
 *
 * Kernels run on the JS thread that called them. Two Node threads (worker_threads share the loaded addon) may call
 * kernels at once: the pool has one owner at a time, and a caller that finds it busy, or a nested call from inside
 * a chunk, runs its loop inline instead of waiting.
 */
#ifndef POLYKERN_POOL_H
#define POLYKERN_POOL_H

/* sched_getaffinity and CPU_COUNT are GNU extensions, declared only when _GNU_SOURCE is defined before the first
   system header: the build defines it on the command line (binding.gyp), which a header included later cannot. */
#if defined(__linux__) && !defined(_GNU_SOURCE)
#error "polykern_pool.h needs _GNU_SOURCE defined on the command line, as binding.gyp does"
#endif

#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>

/*
 * An addon is compiled from several C files (one per ISA, in parallel) that share one runtime: polykern.c defines
 * the pool (and polykern_scratch.h's buffers), a per-ISA file defines PK_RUNTIME_EXTERN and only declares them.
 * Hidden: each addon loaded in a process keeps a pool of its own, as when it was one file.
 */
#define PK_SHARED __attribute__((visibility("hidden")))

/* Runs fn(ctx, begin, end) over a partition of [0, n); returns when every chunk is done. Inline when 1 thread. */
typedef void (*pk_task_fn)(void *ctx, int64_t begin, int64_t end);
PK_SHARED void pk_parallel_for(int64_t n, pk_task_fn fn, void *ctx);

/* Runs fn(ctx, member, members) once for each of up to `most` members, all at the same time on distinct threads, so
   members may wait for each other (pk_barrier_wait); members is 1 when the pool is busy, nested or single-threaded. */
typedef void (*pk_team_fn)(void *ctx, int member, int members);
PK_SHARED void pk_parallel_team(int most, pk_team_fn fn, void *ctx);

/* A reusable barrier for the members of one team; zero-initialized. */
typedef struct {
  int arrived;
  int phase;
} pk_barrier;
PK_SHARED void pk_barrier_wait(pk_barrier *b, int members);

/* The CPUs this process may run on: its affinity mask (taskset, a container's cpuset), else the online CPUs. */
PK_SHARED int pk_usable_cpus(void);
/* Threads used by pk_parallel_for: default PK_DEFAULT_THREADS, or pk_usable_cpus() when it is 0. */
PK_SHARED int pk_threads(void);
/* Sets the thread count, clamped to [1, PK_MAX_THREADS]. Call between kernel calls. */
PK_SHARED void pk_set_threads(int n);
/* Whether the workers a job of pk_threads() would use all still spin after their last job: handed a job now, they
   start within a few pauses, where a sleeping worker takes microseconds to wake. */
PK_SHARED int pk_pool_warm(void);
/* Wakes (or starts) the workers without a job when the previous nudge came less than PK_NUDGE_GAP_NS ago (a run of
   calls), unless they spin already or the pool is busy: a caller running small work alone on a cold pool, so that
   the next calls of the run find them warm. A lone call does not wake them: in a VM that wake took it from 21-35 µs
   to 49-95 µs (64³ GEMM). */
PK_SHARED void pk_pool_nudge(void);

#ifndef PK_DEFAULT_THREADS
#define PK_DEFAULT_THREADS 0
#endif
#define PK_MAX_THREADS 256
/* Pause instructions a worker spins before it sleeps, and the caller before it blocks: tens of microseconds. */
#define PK_SPIN_LIMIT 2000
/* Pauses a team member spins at a barrier before it yields its core (a few microseconds): members are usually
   microseconds apart, and one that waits longer is likely waiting for a member the OS has not scheduled. */
#define PK_BARRIER_SPIN 500
/* The longest gap between two nudges of one run of calls (pk_pool_nudge). */
#define PK_NUDGE_GAP_NS 50000
/* The least work (loop iterations, inner ones included) a parallel loop needs before it uses the pool. */
#ifndef PK_PARALLEL_MIN_WORK
#define PK_PARALLEL_MIN_WORK 32768
#endif

static inline int pk_clamp_threads(long n) { return n < 1 ? 1 : n > PK_MAX_THREADS ? PK_MAX_THREADS : (int)n; }

/* Member `t` of `nt`'s share [*lo, *hi) of [0, total), in whole units but the last: as even as units allow. */
static inline void pk_share(int64_t total, int64_t unit, int t, int nt, int64_t *lo, int64_t *hi) {
  const int64_t units = (total + unit - 1) / unit, from = units * t / nt * unit, to = units * (t + 1) / nt * unit;
  *lo = from < total ? from : total;
  *hi = to < total ? to : total;
}

#ifndef PK_RUNTIME_EXTERN

typedef struct {
  pthread_mutex_t lock;
  pthread_cond_t wake; /* workers: a new generation was published */
  pthread_cond_t done; /* the caller: every chunk of the job finished */
  int threads;         /* configured count; 0 until first read */
  int started;         /* workers running (the caller is not one of them) */
  uint64_t birth;      /* `generation` when the latest workers were started: the first job they may take is after it */
  int owned;           /* 1 while a pk_parallel_for runs on the pool */
  uint64_t generation; /* incremented (under `lock`) for every job */
  /* The job's low 32 generation bits, then its next unclaimed chunk: a worker late for a job cannot claim a chunk
     of the next one with the old job's function. */
  uint64_t claim;
  int finished; /* chunks of the current job done */
  /* The current job: written under `lock` before `generation` moves. */
  pk_task_fn fn;
  void *ctx;
  int64_t n;
  int chunks;
  int spinning;     /* workers spinning after their last job (pk_pool_warm) */
  int64_t nudged;   /* CLOCK_MONOTONIC ns of the last pk_pool_nudge */
} pk_pool_state;

static pk_pool_state pk_pool = {
    .lock = PTHREAD_MUTEX_INITIALIZER, .wake = PTHREAD_COND_INITIALIZER, .done = PTHREAD_COND_INITIALIZER};
static _Thread_local bool pk_in_chunk = false;

static inline void pk_spin_pause(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  __asm__ __volatile__("yield");
#endif
}

PK_SHARED int pk_usable_cpus(void) {
#ifdef __linux__
  cpu_set_t allowed;
  if (sched_getaffinity(0, sizeof allowed, &allowed) == 0 && CPU_COUNT(&allowed) > 0) return CPU_COUNT(&allowed);
#endif
  long online = sysconf(_SC_NPROCESSORS_ONLN);
  return online < 1 ? 1 : (int)online;
}

PK_SHARED int pk_threads(void) {
  int n = __atomic_load_n(&pk_pool.threads, __ATOMIC_RELAXED);
  if (n > 0) return n;
  n = pk_clamp_threads(PK_DEFAULT_THREADS > 0 ? PK_DEFAULT_THREADS : pk_usable_cpus());
  __atomic_store_n(&pk_pool.threads, n, __ATOMIC_RELAXED);
  return n;
}

PK_SHARED void pk_set_threads(int n) { __atomic_store_n(&pk_pool.threads, pk_clamp_threads(n), __ATOMIC_RELAXED); }

PK_SHARED int pk_pool_warm(void) {
  const int helpers = pk_threads() - 1;
  return helpers > 0 && __atomic_load_n(&pk_pool.spinning, __ATOMIC_RELAXED) >= helpers;
}

/* Runs the chunks of job `generation` still unclaimed, one at a time; chunk t of `chunks` over [0, n) is contiguous
   and the first n % chunks chunks get one extra iteration. */
static void pk_run_chunks(uint64_t generation, pk_task_fn fn, void *ctx, int64_t n, int chunks) {
  const uint64_t tag = (generation & 0xffffffffu) << 32;
  uint64_t claim = __atomic_load_n(&pk_pool.claim, __ATOMIC_ACQUIRE);
  for (;;) {
    int64_t t = (int64_t)(claim & 0xffffffffu);
    if ((claim & ~(uint64_t)0xffffffffu) != tag || t >= chunks) return;
    if (!__atomic_compare_exchange_n(&pk_pool.claim, &claim, claim + 1, true, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
      continue;
    }
    int64_t base = n / chunks, extra = n % chunks;
    int64_t begin = t * base + (t < extra ? t : extra);
    fn(ctx, begin, begin + base + (t < extra ? 1 : 0));
    if (__atomic_add_fetch(&pk_pool.finished, 1, __ATOMIC_ACQ_REL) == chunks) {
      pthread_mutex_lock(&pk_pool.lock);
      pthread_cond_signal(&pk_pool.done);
      pthread_mutex_unlock(&pk_pool.lock);
    }
    claim = __atomic_load_n(&pk_pool.claim, __ATOMIC_ACQUIRE);
  }
}

static void *pk_worker(void *arg) {
  const int id = (int)(intptr_t)arg; /* 1-based, the caller being 0: workers past the job's chunk count sit out */
  pk_in_chunk = true;                /* a kernel called from a chunk never re-enters the pool */
  uint64_t seen = pk_pool.birth;    /* not `generation`: this thread may start after the job it is needed for */
  for (;;) {
    __atomic_add_fetch(&pk_pool.spinning, 1, __ATOMIC_RELAXED);
    for (int spin = 0; spin < PK_SPIN_LIMIT && __atomic_load_n(&pk_pool.generation, __ATOMIC_ACQUIRE) == seen; spin++) {
      pk_spin_pause();
    }
    __atomic_sub_fetch(&pk_pool.spinning, 1, __ATOMIC_RELAXED);
    pthread_mutex_lock(&pk_pool.lock);
    while (pk_pool.generation == seen) pthread_cond_wait(&pk_pool.wake, &pk_pool.lock);
    seen = pk_pool.generation;
    pk_task_fn fn = pk_pool.fn;
    void *ctx = pk_pool.ctx;
    int64_t n = pk_pool.n;
    int chunks = pk_pool.chunks;
    pthread_mutex_unlock(&pk_pool.lock);
    if (id < chunks) pk_run_chunks(seen, fn, ctx, n, chunks);
  }
  return NULL;
}

/* Starts workers up to `wanted`; returns how many may work (fewer if the system refuses threads). Owner only. */
static int pk_start_workers(int wanted) {
  if (pk_pool.started < wanted) pk_pool.birth = pk_pool.generation;
  while (pk_pool.started < wanted) {
    pthread_t thread;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    int failed = pthread_create(&thread, &attr, pk_worker, (void *)(intptr_t)(pk_pool.started + 1));
    pthread_attr_destroy(&attr);
    if (failed) break;
    pk_pool.started++;
  }
  return pk_pool.started < wanted ? pk_pool.started : wanted;
}

/* The job behind both entry points: `members`, when given, receives the chunk count before any chunk starts and
   turns the job into a team (one chunk per member, so a chunk never waits for a chunk its own thread must run). */
static void pk_pool_run(int64_t n, pk_task_fn fn, void *ctx, int *members) {
  if (n <= 0) return;
  int threads = pk_threads();
  int64_t wanted = threads < n ? threads : n;
  int expected = 0;
  if (wanted <= 1 || pk_in_chunk ||
      !__atomic_compare_exchange_n(&pk_pool.owned, &expected, 1, false, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
    if (members != NULL) *members = 1;
    fn(ctx, 0, members != NULL ? 1 : n);
    return;
  }
  int chunks = 1 + pk_start_workers((int)wanted - 1);
  if (members != NULL) *members = chunks, n = chunks;
  pthread_mutex_lock(&pk_pool.lock);
  const uint64_t generation = pk_pool.generation + 1;
  pk_pool.fn = fn;
  pk_pool.ctx = ctx;
  pk_pool.n = n;
  pk_pool.chunks = chunks;
  __atomic_store_n(&pk_pool.finished, 0, __ATOMIC_RELAXED);
  __atomic_store_n(&pk_pool.claim, (generation & 0xffffffffu) << 32, __ATOMIC_RELEASE);
  __atomic_store_n(&pk_pool.generation, generation, __ATOMIC_RELEASE);
  if (chunks > 1) pthread_cond_broadcast(&pk_pool.wake);
  pthread_mutex_unlock(&pk_pool.lock);

  pk_in_chunk = true;
  pk_run_chunks(generation, fn, ctx, n, chunks);
  pk_in_chunk = false;
  for (int spin = 0; spin < PK_SPIN_LIMIT && __atomic_load_n(&pk_pool.finished, __ATOMIC_ACQUIRE) != chunks; spin++) {
    pk_spin_pause();
  }
  pthread_mutex_lock(&pk_pool.lock);
  while (__atomic_load_n(&pk_pool.finished, __ATOMIC_ACQUIRE) != chunks) {
    pthread_cond_wait(&pk_pool.done, &pk_pool.lock);
  }
  pthread_mutex_unlock(&pk_pool.lock);
  __atomic_store_n(&pk_pool.owned, 0, __ATOMIC_RELEASE);
}

PK_SHARED void pk_parallel_for(int64_t n, pk_task_fn fn, void *ctx) { pk_pool_run(n, fn, ctx, NULL); }

/* A job of no chunks: the workers wake, find nothing to claim and spin for the next. */
PK_SHARED void pk_pool_nudge(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  const int64_t ns = (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
  const int64_t last = __atomic_exchange_n(&pk_pool.nudged, ns, __ATOMIC_RELAXED);
  const int helpers = pk_threads() - 1;
  int expected = 0;
  if (ns - last > PK_NUDGE_GAP_NS || helpers <= 0 || pk_in_chunk || pk_pool_warm() ||
      !__atomic_compare_exchange_n(&pk_pool.owned, &expected, 1, false, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
    return;
  }
  pk_start_workers(helpers);
  pthread_mutex_lock(&pk_pool.lock);
  pk_pool.chunks = 0;
  __atomic_store_n(&pk_pool.generation, pk_pool.generation + 1, __ATOMIC_RELEASE);
  pthread_cond_broadcast(&pk_pool.wake);
  pthread_mutex_unlock(&pk_pool.lock);
  __atomic_store_n(&pk_pool.owned, 0, __ATOMIC_RELEASE);
}

typedef struct {
  pk_team_fn fn;
  void *ctx;
  int members;
} pk_team_job;

static void pk_team_chunk(void *arg, int64_t begin, int64_t end) {
  pk_team_job *job = arg;
  for (int64_t member = begin; member < end; member++) job->fn(job->ctx, (int)member, job->members);
}

PK_SHARED void pk_parallel_team(int most, pk_team_fn fn, void *ctx) {
  pk_team_job job = {fn, ctx, 1};
  pk_pool_run(most, pk_team_chunk, &job, &job.members);
}

/* Spins, then yields: on a machine with more runnable threads than cores, the member waited for needs the core. */
PK_SHARED void pk_barrier_wait(pk_barrier *b, int members) {
  if (members <= 1) return;
  const int phase = __atomic_load_n(&b->phase, __ATOMIC_ACQUIRE);
  if (__atomic_add_fetch(&b->arrived, 1, __ATOMIC_ACQ_REL) == members) {
    __atomic_store_n(&b->arrived, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&b->phase, phase + 1, __ATOMIC_RELEASE);
    return;
  }
  for (int spin = 0; __atomic_load_n(&b->phase, __ATOMIC_ACQUIRE) == phase; spin++) {
    if (spin < PK_BARRIER_SPIN) pk_spin_pause();
    else sched_yield();
  }
}

#endif /* PK_RUNTIME_EXTERN */

#endif
