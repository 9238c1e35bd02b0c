/*
 * A call's blocked GEMMs for one element type: the descriptor each kernel fills in, a bound operand's packed blocks
 * (PK_GEMM(packed)), the loop nest every blocking runs (polykern_gemm_member.h, included here), and the loop over a
 * call's batch of GEMMs (PK_GEMM(run)). A template, without an include guard: polykern_simd.h, whose declarations it
 * uses, includes it for f32 and f64, having defined
 *   PK_GEMM_T     the element type;
 *   PK_GEMM_DESC  the descriptor's name (pk_gemm_<t>);
 *   PK_GEMM(name) `name` with the element type's prefix (pk_gemm_<t>_, ## in the definition).
 * It undefines them at its end.
 */

/*
 * C[m, n] += A[m, k] * B[k, n] on strided operands (element strides: A along m and k, B along k and n, C along m;
 * C is contiguous along n), run in mc × nc × kc cache blocks; `overwrite`: C = A·B, C's old content never read.
 * A gathered GEMM (a shape built for it) addresses its operands through offset tables instead, one per role and
 * tensor (o_am[i] + o_ak[p] is A(i, p), and so on); NULL otherwise, where the strides apply.
 */
/* A microkernel whose tiles pass each vector through a contraction's epilogue before storing it (emit/c-gemm-epilogue.ts):
   the last k block's tiles, from the tile's first m and n positions i0, j0 and the epilogue's context. */
typedef void (*PK_GEMM(final_fn))(int64_t kb, const PK_GEMM_T *a, int64_t lda, const PK_GEMM_T *b, int64_t ldb,
                                  PK_GEMM_T *c, int64_t ldc, int64_t rows, int64_t cols, int store, const void *ctx,
                                  int64_t i0, int64_t j0);

typedef struct {
  const PK_GEMM_T *a, *b;
  PK_GEMM_T *c;
  int64_t m, n, k, a_m, a_k, b_k, b_n, c_m, mc, nc, kc;
  int overwrite;
  const int64_t *o_am, *o_ak, *o_bk, *o_bn, *o_cm, *o_cn;
  PK_GEMM_T alpha; /* read by scaled and weighted packs only (a constant factor of the product) */
  const PK_GEMM_T *s_a, *s_b; /* tensor factors weighting A and B, through their offset tables (weighted packs only) */
  const int64_t *o_sam, *o_sak, *o_sbk, *o_sbn;
  int ndom; /* read by masked shapes only */
  pk_domain dom[PK_MAX_DOMAIN];
  PK_GEMM(final_fn) final; /* NULL: no epilogue (plain shapes only) */
  const void *final_ctx;
} PK_GEMM_DESC;

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

#include "polykern_gemm_member.h"

typedef struct {
  const PK_GEMM_DESC *g;
  const pk_batch *bt;
  const PK_GEMM(shape) *shape;
  int threads, failed;
} PK_GEMM(batch_ctx);

static int PK_GEMM(one)(const PK_GEMM_DESC *g, const PK_GEMM(shape) *shape, int threads) {
  if (g->m <= 0 || g->n <= 0) return PK_OK;
  if (g->k > 0) return PK_GEMM(drive)(shape, g, threads);
  /* No k: every sum is 0, through the epilogue when there is one (its tiles read no operand at kb 0). */
  for (int64_t i = 0; i < g->m && g->final != NULL; i += shape->mr)
    for (int64_t j = 0; j < g->n; j += shape->nr)
      g->final(0, g->c, 0, g->c, 0, g->c + i * g->c_m + j, g->c_m, pk_min64(shape->mr, g->m - i),
               pk_min64(shape->nr, g->n - j), g->overwrite, g->final_ctx, i, j);
  if (g->final != NULL) return PK_OK;
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
    if (PK_GEMM(one)(&g, x->shape, x->threads) != PK_OK) __atomic_store_n(&x->failed, 1, __ATOMIC_RELAXED);
  }
}

/*
 * One call's GEMMs, one per point of its batch (bt NULL: one GEMM), each in the loop nest of `shape`. `across` runs whole GEMMs
 * on the threads instead, each serially, when the call has work enough for the pool.
 */
PK_CALLED int PK_GEMM(run)(const PK_GEMM_DESC *g, const pk_batch *bt, const PK_GEMM(shape) *shape, int across) {
  if (bt == NULL) return PK_GEMM(one)(g, shape, pk_threads());
  int64_t points = 1;
  for (int d = 0; d < bt->dims; d++) points *= bt->extent[d];
  const double work = (double)points * (double)g->m * (double)g->n * (double)g->k;
  across = across && points > 1 && pk_gemm_team_pays(work);
  PK_GEMM(batch_ctx) ctx = {g, bt, shape, across ? 1 : pk_threads(), 0};
  if (across) pk_parallel_for(points, PK_GEMM(points), &ctx);
  else PK_GEMM(points)(&ctx, 0, points);
  return ctx.failed ? PK_NO_MEMORY : PK_OK;
}

#undef PK_GEMM
#undef PK_GEMM_T
#undef PK_GEMM_DESC
