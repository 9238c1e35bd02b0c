/*
 * A call's blocked GEMMs for one element type: the descriptor each kernel fills in, the entry of the drivers
 * emit/c-gemm.ts generates (PK_GEMM(blocked): block sizes, team, pack buffers), and the loop over a call's batch of
 * GEMMs (PK_GEMM(run)). A template, without an include guard: polykern_simd.h, whose declarations it uses, includes
 * it for f32 and f64, having defined
 *   PK_GEMM_T     the element type;
 *   PK_GEMM_DESC  the descriptor's name (pk_gemm_<t>);
 *   PK_GEMM(name) `name` with the element type's prefix (pk_gemm_<t>_, ## in the definition).
 * It undefines them at its end.
 */

/*
 * C[m, n] += A[m, k] * B[k, n] on strided operands (element strides: A along m and k, B along k and n, C along m;
 * C is contiguous along n), run in mc × nc × kc cache blocks; `overwrite`: C = A·B, C's old content never read.
 * A gathered GEMM (a driver built for it) addresses its operands through offset tables instead, one per role and
 * tensor (o_am[i] + o_ak[p] is A(i, p), and so on); NULL otherwise, where the strides apply.
 */
typedef struct {
  const PK_GEMM_T *a, *b;
  PK_GEMM_T *c;
  int64_t m, n, k, a_m, a_k, b_k, b_n, c_m, mc, nc, kc;
  int overwrite;
  const int64_t *o_am, *o_ak, *o_bk, *o_bn, *o_cm, *o_cn;
  PK_GEMM_T alpha; /* read by scaled and weighted packs only (a constant factor of the product) */
  const PK_GEMM_T *s_a, *s_b; /* tensor factors weighting A and B, through their offset tables (weighted packs only) */
  const int64_t *o_sam, *o_sak, *o_sbk, *o_sbn;
  int ndom; /* read by masked drivers only */
  pk_domain dom[PK_MAX_DOMAIN];
} PK_GEMM_DESC;

/* What the members of a generated driver's team share: the call, its block sizes (clamped to it), each member's own
   pack buffers one after another, and the two buffers of the panel the members pack together. */
typedef struct {
  const PK_GEMM_DESC *g;
  int64_t mc, nc, kc;
  PK_GEMM_T *own_a, *own_b, *shared[2];
  pk_barrier bar;
} PK_GEMM(team);

/* An operand's pack buffers in scratch slot `slot`: n elements for each of `team` members (own), or two of n for the
   team (shared); 0 when they cannot be allocated. */
static inline int PK_GEMM(buffers)(PK_GEMM_T **own, PK_GEMM_T **shared, int slot, pk_gemm_packing packing, int team,
                                   int64_t n) {
  if (packing == PK_GEMM_OWN) return (*own = pk_scratch(slot, team * n, sizeof(PK_GEMM_T))) != NULL;
  if (packing == PK_GEMM_SHARED) {
    if ((shared[0] = pk_scratch(slot, 2 * n, sizeof(PK_GEMM_T))) == NULL) return 0;
    shared[1] = shared[0] + n;
  }
  return 1;
}

/*
 * A generated driver on mr × nr tiles: the call's team (the threads when `parallel` and the call has work enough
 * for the pool, else 1) runs `member` on a PK_GEMM(team), with A's pack buffers in scratch slot 0 and B's in slot 1
 * as `a` and `b` say. PK_NO_MEMORY when a buffer cannot be allocated.
 */
static inline int PK_GEMM(blocked)(const PK_GEMM_DESC *g, int threads, int64_t mr, int64_t nr, int parallel,
                                   pk_gemm_packing a, pk_gemm_packing b, pk_team_fn member) {
  if (g->m <= 0 || g->n <= 0 || g->k <= 0) return PK_OK;
  PK_GEMM(team) x = {g, pk_min64(g->mc, pk_round_up(g->m, mr)), pk_min64(g->nc, pk_round_up(g->n, nr)),
                     pk_min64(g->kc, g->k), NULL, NULL, {NULL, NULL}, {0, 0}};
  const double work = (double)g->m * (double)g->n * (double)g->k;
  const int team = parallel && threads > 1 && work >= PK_GEMM_PARALLEL_MIN_WORK ? threads : 1;
  if (!PK_GEMM(buffers)(&x.own_a, x.shared, 0, a, team, x.mc * x.kc)) return PK_NO_MEMORY;
  if (!PK_GEMM(buffers)(&x.own_b, x.shared, 1, b, team, x.kc * x.nc)) return PK_NO_MEMORY;
  if (team > 1) pk_parallel_team(team, member, &x);
  else member(&x, 0, 1);
  return PK_OK;
}

/* A plain strided pack of a microkernel (polykern_pack.h): len × kb at src into panels of `width` along len. */
typedef void (*PK_GEMM(pack_fn))(int64_t len, int64_t kb, const PK_GEMM_T *restrict src, int64_t s_len, int64_t s_k,
                                 PK_GEMM_T *restrict out);

/* One block's pack, as the key of a bound operand's form (polykern_bound.h): zeroed first, so padding compares. */
typedef struct {
  PK_GEMM(pack_fn) pack;
  const PK_GEMM_T *src;
  int64_t len, kb, s_len, s_k;
} PK_GEMM(pack_key);

static void PK_GEMM(pack_form)(const void *ctx, void *out) {
  const PK_GEMM(pack_key) *k = ctx;
  k->pack(k->len, k->kb, k->src, k->s_len, k->s_k, out);
}

/*
 * The len × kb block at src packed by `pack`: when src lies in a bound operand (a constant bound once), that block's
 * form, packed on the first call and kept (released by pk_bound_done(use)); otherwise packed into `own`.
 */
static inline PK_GEMM_T *PK_GEMM(packed)(PK_GEMM(pack_fn) pack, int64_t width, int64_t len, int64_t kb,
                                         const PK_GEMM_T *src, int64_t s_len, int64_t s_k, PK_GEMM_T *own,
                                         pk_bound_use *use) {
  pk_bound_done(use);
  PK_GEMM(pack_key) key;
  memset(&key, 0, sizeof key);
  key.pack = pack, key.src = src, key.len = len, key.kb = kb, key.s_len = s_len, key.s_k = s_k;
  const size_t bytes = (size_t)(pk_round_up(len, width) * kb) * sizeof(PK_GEMM_T);
  /* The form is only read: the tiles take packed operands as const. */
  PK_GEMM_T *form = (PK_GEMM_T *)pk_bound_form(src, &key, sizeof key, bytes, PK_GEMM(pack_form), &key, use);
  if (form != NULL) return form;
  pack(len, kb, src, s_len, s_k, own);
  return own;
}

/* A generated driver: PK_GEMM(blocked) on its own member, taking the threads it may use, for m, n, k > 0. */
typedef int (*PK_GEMM(driver))(const PK_GEMM_DESC *g, int threads);

typedef struct {
  const PK_GEMM_DESC *g;
  const pk_batch *bt;
  PK_GEMM(driver) driver;
  int threads, failed;
} PK_GEMM(batch_ctx);

static int PK_GEMM(one)(const PK_GEMM_DESC *g, PK_GEMM(driver) driver, int threads) {
  if (g->m <= 0 || g->n <= 0) return PK_OK;
  if (g->k > 0) return driver(g, threads);
  for (int64_t i = 0; i < g->m && g->overwrite; i++) {
    for (int64_t j = 0; j < g->n; j++) g->c[g->o_cm ? g->o_cm[i] + g->o_cn[j] : i * g->c_m + j] = 0;
  }
  return PK_OK;
}

static void PK_GEMM(points)(void *arg, int64_t begin, int64_t end) {
  PK_GEMM(batch_ctx) *x = arg;
  for (int64_t point = begin; point < end; point++) {
    PK_GEMM_DESC g = *x->g;
    for (int64_t d = x->bt->dims - 1, rest = point; d >= 0; d--) {
      const int64_t i = rest % x->bt->extent[d];
      rest /= x->bt->extent[d];
      g.a += i * x->bt->a[d], g.b += i * x->bt->b[d], g.c += i * x->bt->c[d];
    }
    if (PK_GEMM(one)(&g, x->driver, x->threads) != PK_OK) __atomic_store_n(&x->failed, 1, __ATOMIC_RELAXED);
  }
}

/*
 * One call's GEMMs, one per point of its batch (bt NULL: one GEMM), each through `driver`. `across` runs whole GEMMs
 * on the threads instead, each serially, when the call has work enough for the pool.
 */
static inline int PK_GEMM(run)(const PK_GEMM_DESC *g, const pk_batch *bt, PK_GEMM(driver) driver, int across) {
  if (bt == NULL) return PK_GEMM(one)(g, driver, pk_threads());
  int64_t points = 1;
  for (int d = 0; d < bt->dims; d++) points *= bt->extent[d];
  const double work = (double)points * (double)g->m * (double)g->n * (double)g->k;
  across = across && points > 1 && pk_threads() > 1 && work >= PK_GEMM_PARALLEL_MIN_WORK;
  PK_GEMM(batch_ctx) ctx = {g, bt, driver, across ? 1 : pk_threads(), 0};
  if (across) pk_parallel_for(points, PK_GEMM(points), &ctx);
  else PK_GEMM(points)(&ctx, 0, points);
  return ctx.failed ? PK_NO_MEMORY : PK_OK;
}

#undef PK_GEMM
#undef PK_GEMM_T
#undef PK_GEMM_DESC
