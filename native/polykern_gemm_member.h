/*
 * A blocked GEMM's loop nest (BLIS / PolyDL structure), one for every blocking: the blocking's shape is data
 * (PK_GEMM(shape), a static constant emit/c-gemm.ts writes per blocking), so an addon compiles this nest once per
 * element type and ISA instead of one printed nest per blocking (they were half of a large addon's object code).
 *
 * A team of threads (PK_GEMM(drive) sizes it and its pack buffers) runs PK_GEMM(member), each member on its share of
 * the parallel range (all of it when serial), or of k where that range is short and k long (PK_GEMM(splits_k)). A
 * member runs the three block loops in the shape's order; an operand is packed as soon as its two block loops are
 * fixed. When the parallel range's loop is the innermost block loop, the other operand's packed panel is the same for
 * every member: over enough tiles per member (PK_GEMM(shared_operand)) the members pack it together, each a share of
 * its panels, into one of two buffers, and meet at a barrier before reading it (two buffers: a member that passes the
 * next barrier knows all have finished the panel before). The macro-kernel walks the block in register tiles in the
 * shape's tile order.
 *
 * A template, without an include guard: polykern_gemm_run.h includes it under its PK_GEMM, PK_GEMM_T and PK_GEMM_DESC.
 */

/* An operand's packs (polykern_pack.h, emit/c-pack.ts, polykern_gather_weighted.h): at most one is set, none when the
   operand is read in place. Strided: from src along the block's rows and k; gathered: through the roles' offset
   tables; scaled: times the product's constant factor (A only); weighted: times alpha and a tensor factor. */
typedef void (*PK_GEMM(scaled_pack_fn))(int64_t len, int64_t kb, const PK_GEMM_T *src, int64_t s_len, int64_t s_k,
                                        PK_GEMM_T *out, PK_GEMM_T alpha);
typedef void (*PK_GEMM(gather_fn))(int64_t len, int64_t kb, const PK_GEMM_T *src, const int64_t *o_len,
                                   const int64_t *o_k, PK_GEMM_T *out);
typedef void (*PK_GEMM(scaled_gather_fn))(int64_t len, int64_t kb, const PK_GEMM_T *src, const int64_t *o_len,
                                          const int64_t *o_k, PK_GEMM_T *out, PK_GEMM_T alpha);
typedef void (*PK_GEMM(weighted_fn))(int64_t len, int64_t kb, const PK_GEMM_T *src, const int64_t *o_len,
                                     const int64_t *o_k, PK_GEMM_T *out, PK_GEMM_T alpha, const PK_GEMM_T *wt,
                                     const int64_t *ow_len, const int64_t *ow_k);
typedef struct {
  PK_GEMM(pack_fn) plain;
  PK_GEMM(scaled_pack_fn) scaled;
  PK_GEMM(gather_fn) gather;
  PK_GEMM(scaled_gather_fn) scaled_gather;
  PK_GEMM(weighted_fn) weighted;
} PK_GEMM(packs);

/* A microkernel on its operands' layouts (emit/c-microkernel.ts): C's rows `ldc` apart, or (scattering) placed
   through C's row offsets and its vectors' places. */
typedef void (*PK_GEMM(tile_fn))(int64_t kb, const PK_GEMM_T *a, int64_t lda, const PK_GEMM_T *b, int64_t ldb,
                                 PK_GEMM_T *c, int64_t ldc, int64_t rows, int64_t cols, int store);
typedef void (*PK_GEMM(scatter_fn))(int64_t kb, const PK_GEMM_T *a, int64_t lda, const PK_GEMM_T *b, int64_t ldb,
                                    PK_GEMM_T *c, const int64_t *om, const pk_vector_place *vp, int split,
                                    int64_t rows, int64_t cols, int store);

/* A blocking's loop nest as data: what it depends on besides the call's sizes and block sizes. */
typedef struct {
  int64_t mr, nr, lanes;
  /* The block loops, outermost first (PK_GEMM_M, _N, _K). */
  int order[3];
  /* The macro-kernel's tile loops: m outer (1) or n outer (0). */
  int m_tiles_outer;
  /* The block loop the team's members split (PK_GEMM_M or _N), or PK_GEMM_NONE: serial. */
  int parallel;
  /* A gathered contraction: operands packed and C stored through the descriptor's offset tables. */
  int gather;
  /* C's tiles masked by the descriptor's triangular domain. */
  int masked;
  /* A's packs, then B's. */
  PK_GEMM(packs) pack[2];
  PK_GEMM(tile_fn) tile;
  /* The scattering microkernel (gathered shapes only). */
  PK_GEMM(scatter_fn) scatter;
  /* The first row of tiles over each packed B panel, fetching the panel ahead (`tile` when NULL): it reads the panel
     first, from memory when B was packed once for many calls. */
  PK_GEMM(tile_fn) first_tile;
} PK_GEMM(shape);

/* What a team's members share: the call, its shape, its block sizes (clamped to it), how each operand is packed, each
   member's own pack buffers one after another, and the two buffers of the panel the members pack together. */
typedef struct {
  const PK_GEMM_DESC *g;
  const PK_GEMM(shape) *s;
  int64_t mc, nc, kc;
  pk_gemm_packing packing[2];
  PK_GEMM_T *own_a, *own_b, *shared[2];
  pk_barrier bar;
  /* Members split k (PK_GEMM(splits_k)): member t > 0 sums its share into partial + (t - 1)·m·n, C's rows n apart. */
  int split_k;
  PK_GEMM_T *partial;
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

/* An operand as its packs read it from the descriptor: strided, through offset tables, with its factors. */
typedef struct {
  const PK_GEMM_T *src;
  int64_t s_len, s_k;
  const int64_t *o_len, *o_k;
  PK_GEMM_T alpha;
  const PK_GEMM_T *wt;
  const int64_t *ow_len, *ow_k;
} PK_GEMM(operand);

/* One member's walk of the block loops: its ranges, block sizes, the current blocks and packed panels. */
typedef struct {
  PK_GEMM(team) *x;
  const PK_GEMM(shape) *s;
  const PK_GEMM_DESC *g;
  int t, nt;
  PK_GEMM(operand) operand[2];
  int64_t lo[3], hi[3], step[3], at[3], len[3];
  /* The loop depth at which each operand is packed, the inner of its two block loops (-1: read in place). */
  int pack_depth[2];
  /* Each operand's panel (NULL: read in place), its own buffer, and whether a bound form may stand for it. */
  PK_GEMM_T *panel[2], *own[2];
  int bind[2];
  pk_bound_use use[2];
  /* Shared panels packed so far: the next one goes to buffer `shared_panels & 1`. */
  int64_t shared_panels;
} PK_GEMM(walk);

/*
 * Which operand's panel a team of `team` packs together (0 A, 1 B), or -1. Only when the parallel loop is the
 * innermost block loop is the other operand's panel the same for every member; and sharing it pays only over many
 * tiles per member, as each member reads the others' parts from their caches once per panel (measured, Intel Xeon,
 * f32 on 2 threads: 128³, 8 tile rows each, shared 225 GFLOP/s, each member packing all of B 347; 256³, 16 rows,
 * 300 and 323; 512³, 32 rows, sharing ahead). Otherwise each member packs the whole panel into its own buffer, where
 * a bound operand's form may stand in (a team of one too).
 */
static inline int PK_GEMM(shared_operand)(const PK_GEMM(shape) *s, const PK_GEMM_DESC *g, int team) {
  if (team <= 1 || s->parallel == PK_GEMM_NONE || s->order[2] != s->parallel) return -1;
  const int64_t tiles = s->parallel == PK_GEMM_M ? g->m / s->mr : g->n / s->nr;
  if (tiles < PK_GEMM_SHARED_MIN_TILES * team) return -1;
  const int o = s->parallel == PK_GEMM_M ? 1 : 0;
  /* A bound operand's packed form stands in for its panels in every member: there is nothing to pack together. */
  if (s->pack[o].plain != NULL && pk_bound_holds(o == 0 ? (const void *)g->a : (const void *)g->b)) return -1;
  return o;
}

/*
 * Whether a team of `team` splits k instead of the shape's parallel range: where that range is too short for the
 * members to share the other operand's panel (shared_operand), each member packs all of the other operand, and over
 * a long k that is most of the call: a contraction of 204 × 200 over 40,800 (TCCG's ab-acd-dbc) read both of its
 * 32 MiB operands once per member. Split along k, each member packs and reads only its share of both; members after
 * the first sum theirs into a C of their own, added into C at the end. That costs about (team + 1)·m·n against the
 * (team - 1)·k·(the other dimension) elements no longer packed again, a gain from k above (team + 1) / (team - 1)
 * times the range's extent: PK_GEMM_SPLIT_K_RATIO times leaves margin. C must stay in each member's cache over its k
 * blocks (PK_GEMM_SPLIT_K_MOST_C_BYTES). Not with an epilogue or a domain (each needs the whole sum), nor with the
 * other operand bound (its packed form is read, not packed, by every member). Sums then differ from one thread's in
 * rounding (taken in another order). Measured in one process alternating builds, AMD EPYC Zen 5 AVX-512, 2 threads:
 * ab-acd-dbc 1.11x, ab-cad-dcb 1.12x (C of 160 KB); the other TCCG contractions, which do not split, within noise.
 * With C larger than a core's cache the split lost: DeepBench's 1760 × 128 × 1760 (C of 900 KB) with B bound ran 288
 * GFLOP/s split, 426 not (one bench run each).
 */
static inline int PK_GEMM(splits_k)(const PK_GEMM(shape) *s, const PK_GEMM_DESC *g, int team) {
  if (team <= 1 || s->parallel == PK_GEMM_NONE || s->masked || g->final != NULL) return 0;
  if (PK_GEMM(shared_operand)(s, g, team) >= 0) return 0;
  const int64_t extent = s->parallel == PK_GEMM_M ? g->m : g->n;
  const int other = s->parallel == PK_GEMM_M ? 1 : 0;
  if (s->pack[other].plain != NULL && pk_bound_holds(other == 0 ? (const void *)g->a : (const void *)g->b)) return 0;
  return g->k >= PK_GEMM_SPLIT_K_RATIO * extent && g->k >= team * PK_GEMM_SPLIT_K_UNIT &&
         g->m * g->n * (int64_t)sizeof(PK_GEMM_T) <= PK_GEMM_SPLIT_K_MOST_C_BYTES;
}

/* After a split k's members have all summed their shares: member t of nt adds the other members' partial sums of its
   share of C's rows into C (the first member's share is in C already). */
static void PK_GEMM(add_partials)(const PK_GEMM(team) *x, int t, int nt) {
  const PK_GEMM_DESC *g = x->g;
  int64_t lo, hi;
  pk_share(g->m, 1, t, nt, &lo, &hi);
  for (int u = 1; u < nt; u++) {
    int64_t k_lo, k_hi;
    pk_share(g->k, PK_GEMM_SPLIT_K_UNIT, u, nt, &k_lo, &k_hi);
    if (k_hi <= k_lo) continue;
    const PK_GEMM_T *part = x->partial + (u - 1) * g->m * g->n;
    for (int64_t i = lo; i < hi; i++) {
      const PK_GEMM_T *restrict from = part + i * g->n;
      if (g->o_cm != NULL) {
        PK_GEMM_T *c = g->c + g->o_cm[i];
        for (int64_t j = 0; j < g->n; j++) c[g->o_cn[j]] += from[j];
      } else {
        PK_GEMM_T *restrict c = g->c + i * g->c_m;
        for (int64_t j = 0; j < g->n; j++) c[j] += from[j];
      }
    }
  }
}

static inline int PK_GEMM(is_packed)(const PK_GEMM(packs) *p) {
  return p->plain || p->scaled || p->gather || p->scaled_gather || p->weighted;
}

/* Rows [x0, x0 + len) of operand o's block at k block p0, packed into out by its pack. */
static void PK_GEMM(pack_rows)(const PK_GEMM(walk) *w, int o, int64_t x0, int64_t len, PK_GEMM_T *out) {
  const PK_GEMM(packs) *p = &w->s->pack[o];
  const PK_GEMM(operand) *v = &w->operand[o];
  const int64_t p0 = w->at[PK_GEMM_K], kb = w->len[PK_GEMM_K];
  if (p->weighted) p->weighted(len, kb, v->src, v->o_len + x0, v->o_k + p0, out, v->alpha, v->wt, v->ow_len + x0, v->ow_k + p0);
  else if (p->scaled_gather) p->scaled_gather(len, kb, v->src, v->o_len + x0, v->o_k + p0, out, v->alpha);
  else if (p->gather) p->gather(len, kb, v->src, v->o_len + x0, v->o_k + p0, out);
  else if (p->scaled) p->scaled(len, kb, v->src + x0 * v->s_len + p0 * v->s_k, v->s_len, v->s_k, out, v->alpha);
  else p->plain(len, kb, v->src + x0 * v->s_len + p0 * v->s_k, v->s_len, v->s_k, out);
}

/* Operand o's panel for the current blocks: its bound form, its own buffer, or the team's shared buffer (each
   member packing its share of the panels, then waiting for the others). */
static void PK_GEMM(pack)(PK_GEMM(walk) *w, int o) {
  const int dim = o == 0 ? PK_GEMM_M : PK_GEMM_N;
  const int64_t width = o == 0 ? w->s->mr : w->s->nr, x0 = w->at[dim], len = w->len[dim], kb = w->len[PK_GEMM_K];
  const PK_GEMM(operand) *v = &w->operand[o];
  if (w->bind[o]) {
    const PK_GEMM_T *src = v->src + x0 * v->s_len + w->at[PK_GEMM_K] * v->s_k;
    w->panel[o] = PK_GEMM(packed)(w->s->pack[o].plain, width, len, kb, src, v->s_len, v->s_k, w->own[o], &w->use[o]);
  } else if (w->x->packing[o] != PK_GEMM_SHARED) {
    PK_GEMM(pack_rows)(w, o, x0, len, w->panel[o]);
  } else {
    w->panel[o] = w->x->shared[w->shared_panels++ & 1];
    int64_t lo, hi;
    pk_share(len, width, w->t, w->nt, &lo, &hi);
    if (hi > lo) PK_GEMM(pack_rows)(w, o, x0 + lo, hi - lo, w->panel[o] + lo * kb);
    pk_barrier_wait(&w->x->bar, w->nt);
  }
}

/* What a gathered tile needs of its columns (TBLIS's block scatter, at vector granularity): the vectors' places in
   C's columns, or, when they do not each lie in one run (or two, at full width), the runs its columns make. */
typedef struct {
  int64_t cols;
  const int64_t *on;
  pk_vector_place vp[PK_GEMM_MAX_NR];
  int split;
  int64_t start[PK_GEMM_MAX_NR + 1];
  int64_t runs;
} PK_GEMM(columns);

static void PK_GEMM(columns_at)(const PK_GEMM(walk) *w, int64_t jr, PK_GEMM(columns) *c) {
  const int64_t jc = w->at[PK_GEMM_N];
  c->cols = pk_min64(w->s->nr, w->len[PK_GEMM_N] - jr);
  c->on = w->g->o_cn + jc + jr;
  c->split = pk_vector_places(c->on, c->cols, w->s->lanes, w->s->nr, c->vp);
  c->runs = c->split < 0 ? pk_runs(c->on, c->cols, c->start) : 0;
}

/* A gathered tile: stored in place through C's row offsets and its vectors' places (the scattering microkernel), or
   computed into a local tile, then added (or, overwriting, stored) row by row, each row in the runs its columns
   make in C. */
static void PK_GEMM(gathered_tile)(const PK_GEMM(walk) *w, int64_t ir, int64_t jr, const PK_GEMM(columns) *c) {
  const PK_GEMM(shape) *s = w->s;
  const PK_GEMM_DESC *g = w->g;
  const int64_t kb = w->len[PK_GEMM_K], rows = pk_min64(s->mr, w->len[PK_GEMM_M] - ir);
  const int64_t *om = g->o_cm + w->at[PK_GEMM_M] + ir;
  const PK_GEMM_T *a = w->panel[0] + ir * kb, *b = w->panel[1] + jr * kb;
  const int store = g->overwrite && w->at[PK_GEMM_K] == w->lo[PK_GEMM_K];
  if (c->split >= 0) {
    s->scatter(kb, a, 0, b, 0, g->c, om, c->vp, c->split, rows, c->cols, store);
    return;
  }
  PK_GEMM_T tile[PK_GEMM_MAX_MR * PK_GEMM_MAX_NR] __attribute__((aligned(64)));
  /* The microkernel prefetches the C tile it stores to; this one goes to a local tile, so fetch C's lines for writing
     first: their misses overlap the k loop instead of stalling the stores after it. */
  for (int64_t r = 0; r < rows; r++)
    for (int64_t u = 0; u < c->runs; u++) {
      PK_GEMM_T *to = g->c + om[r] + c->on[c->start[u]] - c->start[u];
      for (int64_t j = c->start[u]; j < c->start[u + 1]; j += 64 / sizeof(PK_GEMM_T)) __builtin_prefetch(to + j, 1, 3);
      __builtin_prefetch(to + c->start[u + 1] - 1, 1, 3);
    }
  s->tile(kb, a, 0, b, 0, tile, s->nr, rows, c->cols, 1);
  for (int64_t r = 0; r < rows; r++)
    for (int64_t u = 0; u < c->runs; u++) {
      PK_GEMM_T *restrict to = g->c + om[r] + c->on[c->start[u]] - c->start[u];
      const PK_GEMM_T *restrict from = tile + r * s->nr;
      const int64_t j0 = c->start[u], j1 = c->start[u + 1];
      /* A lone element is stored as one: gcc makes the copy loop a memmove call, which costs a run, not an element. */
      if (j1 - j0 == 1) to[j0] = store ? from[j0] : to[j0] + from[j0];
      else if (store) for (int64_t j = j0; j < j1; j++) to[j] = from[j];
      else for (int64_t j = j0; j < j1; j++) to[j] += from[j];
    }
}

/* Where a tile's operands start: in their packed panels, or in place through the operands' strides. */
static inline const PK_GEMM_T *PK_GEMM(tile_a)(const PK_GEMM(walk) *w, int64_t ir) {
  const PK_GEMM_DESC *g = w->g;
  if (w->panel[0] != NULL) return w->panel[0] + ir * w->len[PK_GEMM_K];
  return g->a + (w->at[PK_GEMM_M] + ir) * g->a_m + w->at[PK_GEMM_K] * g->a_k;
}

static inline const PK_GEMM_T *PK_GEMM(tile_b)(const PK_GEMM(walk) *w, int64_t jr) {
  const PK_GEMM_DESC *g = w->g;
  if (w->panel[1] != NULL) return w->panel[1] + jr * w->len[PK_GEMM_K];
  return g->b + w->at[PK_GEMM_K] * g->b_k + (w->at[PK_GEMM_N] + jr) * g->b_n;
}

static inline void PK_GEMM(plain_tile)(const PK_GEMM(walk) *w, int64_t ir, int64_t jr) {
  const PK_GEMM_DESC *g = w->g;
  const int64_t mr = w->s->mr, nr = w->s->nr;
  w->s->tile(w->len[PK_GEMM_K], PK_GEMM(tile_a)(w, ir), g->a_m, PK_GEMM(tile_b)(w, jr), g->b_k,
             g->c + (w->at[PK_GEMM_M] + ir) * g->c_m + w->at[PK_GEMM_N] + jr, g->c_m,
             pk_min64(mr, w->len[PK_GEMM_M] - ir), pk_min64(nr, w->len[PK_GEMM_N] - jr),
             g->overwrite && w->at[PK_GEMM_K] == w->lo[PK_GEMM_K]);
}

/* A tile of a triangular domain (ContractionRoles.domain): skipped wholly outside it; on its edge computed into a
   local tile of which only the elements inside are added; inside, as without a domain. */
static void PK_GEMM(masked_tile)(const PK_GEMM(walk) *w, int64_t ir, int64_t jr) {
  const PK_GEMM(shape) *s = w->s;
  const PK_GEMM_DESC *g = w->g;
  const int64_t i0 = w->at[PK_GEMM_M] + ir, j0 = w->at[PK_GEMM_N] + jr;
  const int64_t rows = pk_min64(s->mr, w->len[PK_GEMM_M] - ir), cols = pk_min64(s->nr, w->len[PK_GEMM_N] - jr);
  const int place = pk_tile_in_domain(g->dom, g->ndom, i0, rows, j0, cols);
  if (place == 0) return;
  if (place > 0) {
    if (!s->gather) {
      PK_GEMM(plain_tile)(w, ir, jr);
      return;
    }
    PK_GEMM(columns) c;
    PK_GEMM(columns_at)(w, jr, &c);
    PK_GEMM(gathered_tile)(w, ir, jr, &c);
    return;
  }
  PK_GEMM_T tile[PK_GEMM_MAX_MR * PK_GEMM_MAX_NR] __attribute__((aligned(64)));
  const int store = g->overwrite && w->at[PK_GEMM_K] == w->lo[PK_GEMM_K];
  s->tile(w->len[PK_GEMM_K], PK_GEMM(tile_a)(w, ir), g->a_m, PK_GEMM(tile_b)(w, jr), g->b_k, tile, s->nr, rows, cols, 1);
  for (int64_t r = 0; r < rows; r++)
    for (int64_t j = 0; j < cols; j++)
      if (pk_in_domain(g->dom, g->ndom, i0 + r, j0 + j)) {
        PK_GEMM_T *to = s->gather ? g->c + g->o_cm[i0 + r] + g->o_cn[j0 + j] : g->c + (i0 + r) * g->c_m + j0 + j;
        *to = store ? tile[r * s->nr + j] : *to + tile[r * s->nr + j];
      }
}

/* The last k block's tiles of a call with an epilogue: plain_blocks' walk through the epilogue's family, which also
   takes each tile's first m and n positions. Apart from plain_blocks, whose loops stay as they were measured. */
static void PK_GEMM(final_blocks)(const PK_GEMM(walk) *w) {
  const PK_GEMM(shape) *s = w->s;
  const PK_GEMM_DESC *g = w->g;
  const int64_t mr = s->mr, nr = s->nr, mb = w->len[PK_GEMM_M], nb = w->len[PK_GEMM_N], kb = w->len[PK_GEMM_K];
  const PK_GEMM_T *a = PK_GEMM(tile_a)(w, 0), *b = PK_GEMM(tile_b)(w, 0);
  const int64_t a_step = w->panel[0] != NULL ? kb : g->a_m, b_step = w->panel[1] != NULL ? kb : g->b_n;
  const int64_t lda = g->a_m, ldb = g->b_k, ldc = g->c_m, i0 = w->at[PK_GEMM_M], j0 = w->at[PK_GEMM_N];
  PK_GEMM_T *c = g->c + i0 * ldc + j0;
  const int store = g->overwrite && w->at[PK_GEMM_K] == w->lo[PK_GEMM_K];
  const int64_t outer = s->m_tiles_outer ? mb : nb, outer_step = s->m_tiles_outer ? mr : nr;
  const int64_t inner = s->m_tiles_outer ? nb : mb, inner_step = s->m_tiles_outer ? nr : mr;
  for (int64_t u = 0; u < outer; u += outer_step)
    for (int64_t v = 0; v < inner; v += inner_step) {
      const int64_t ir = s->m_tiles_outer ? u : v, jr = s->m_tiles_outer ? v : u;
      g->final(kb, a + ir * a_step, lda, b + jr * b_step, ldb, c + ir * ldc + jr, ldc, pk_min64(mr, mb - ir),
               pk_min64(nr, nb - jr), store, g->final_ctx, i0 + ir, j0 + jr);
    }
}

/* The current blocks in register tiles, C stored through its strides: what the tiles read and write is worked out
   once per block, not per tile (at kc 8, a matrix-vector product's, a tile is 24 FMAs). */
static void PK_GEMM(plain_blocks)(const PK_GEMM(walk) *w) {
  const PK_GEMM(shape) *s = w->s;
  const PK_GEMM_DESC *g = w->g;
  const PK_GEMM(tile_fn) tile = s->tile, first = s->first_tile != NULL ? s->first_tile : s->tile;
  const int64_t mr = s->mr, nr = s->nr, mb = w->len[PK_GEMM_M], nb = w->len[PK_GEMM_N], kb = w->len[PK_GEMM_K];
  if (g->final != NULL && w->at[PK_GEMM_K] + kb == g->k) {
    PK_GEMM(final_blocks)(w);
    return;
  }
  const PK_GEMM_T *a = PK_GEMM(tile_a)(w, 0), *b = PK_GEMM(tile_b)(w, 0);
  const int64_t a_step = w->panel[0] != NULL ? kb : g->a_m, b_step = w->panel[1] != NULL ? kb : g->b_n;
  const int64_t lda = g->a_m, ldb = g->b_k, ldc = g->c_m;
  PK_GEMM_T *c = g->c + w->at[PK_GEMM_M] * ldc + w->at[PK_GEMM_N];
  const int store = g->overwrite && w->at[PK_GEMM_K] == w->lo[PK_GEMM_K];
  if (s->m_tiles_outer) {
    for (int64_t ir = 0; ir < mb; ir += mr)
      for (int64_t jr = 0; jr < nb; jr += nr)
        (ir == 0 ? first : tile)(kb, a + ir * a_step, lda, b + jr * b_step, ldb, c + ir * ldc + jr, ldc,
                                 pk_min64(mr, mb - ir), pk_min64(nr, nb - jr), store);
  } else {
    for (int64_t jr = 0; jr < nb; jr += nr)
      for (int64_t ir = 0; ir < mb; ir += mr)
        (ir == 0 ? first : tile)(kb, a + ir * a_step, lda, b + jr * b_step, ldb, c + ir * ldc + jr, ldc,
                                 pk_min64(mr, mb - ir), pk_min64(nr, nb - jr), store);
  }
}

/* Vector FMAs under which a tile's k loop is short (at two a cycle, well under a memory latency): storing C is then
   the walk's cost (ccsd_t, k of 16: C written once, its lines from memory). */
#define PK_SHORT_TILE_FMAS 512

/* Whether the block's tiles are short (PK_SHORT_TILE_FMAS). */
static inline int PK_GEMM(short_tiles)(const PK_GEMM(walk) *w) {
  return w->len[PK_GEMM_K] * w->s->mr * (w->s->nr / w->s->lanes) < PK_SHORT_TILE_FMAS;
}

/* The most panels a gathered block's short tiles are walked along C's rows over (row_panels). */
#define PK_ROW_PANELS 8

/* The panels that C's run along n from the block's first column spans (at most PK_ROW_PANELS): more than one where
   C's rows go on past a panel, as where C's two innermost indices play n. Short tiles are then walked along the rows
   over that many panels before going down, so that each row of a tile is written on from where the last tile left
   it, as one stream, instead of a panel's width of it at a time, the rest a column of tiles later. Measured in one
   process on ccsd_t (k = 16, C of 64 MiB written once), AMD EPYC AVX-512: the six whose C rows are runs of 256
   floats (4 panels of 64: gdab-efgc, dfgc-geab, degc-gfab, efgc-gdab, gfab-degc, geab-dfgc) 19-24% faster at 1
   thread, 11-24% at 2; the ten whose runs end inside a panel, walked along their rows all the same, 11-20% slower. */
static int64_t PK_GEMM(row_panels)(const PK_GEMM(walk) *w) {
  const int64_t *on = w->g->o_cn + w->at[PK_GEMM_N], nr = w->s->nr;
  const int64_t most = pk_min64(w->len[PK_GEMM_N], PK_ROW_PANELS * nr);
  int64_t run = 1;
  while (run < most && on[run] == on[run - 1] + 1) run++;
  return (run + nr - 1) / nr;
}

/* A gathered block walked over groups of `panels` panels: down the block's tiles for each group, along C's rows
   within it (row_panels); one panel a group walks down each panel in turn. Each group's columns are worked out once.
   (Down the panels, short tiles once fetched C's lines two tiles ahead; with the tiles whose rows go on past a panel
   walked along them, the other twelve ccsd_t cases ran 1.05-1.16x without the fetch at 1 thread, 1.06-1.16x at 2:
   AMD EPYC AVX-512, one process alternating builds.) */
static void PK_GEMM(gathered_by_panels)(const PK_GEMM(walk) *w, int64_t panels) {
  const PK_GEMM(shape) *s = w->s;
  const int64_t mb = w->len[PK_GEMM_M], nb = w->len[PK_GEMM_N], nr = s->nr;
  PK_GEMM(columns) c[PK_ROW_PANELS];
  for (int64_t j0 = 0; j0 < nb; j0 += panels * nr) {
    const int64_t count = pk_min64(panels, (nb - j0 + nr - 1) / nr);
    for (int64_t p = 0; p < count; p++) PK_GEMM(columns_at)(w, j0 + p * nr, &c[p]);
    for (int64_t ir = 0; ir < mb; ir += s->mr)
      for (int64_t p = 0; p < count; p++) PK_GEMM(gathered_tile)(w, ir, j0 + p * nr, &c[p]);
  }
}

/* The current blocks in register tiles, in the shape's tile order, through C's offset tables or masked by a domain.
   A gathered tile's columns are worked out once per tile column when n is the outer tile loop (gathered_by_panels),
   and per tile otherwise (per tile, they cost 8% of ccsd_t's time). */
static void PK_GEMM(macro_kernel)(const PK_GEMM(walk) *w) {
  const PK_GEMM(shape) *s = w->s;
  if ((!s->gather || w->g->o_cn == NULL) && !s->masked) {
    PK_GEMM(plain_blocks)(w);
    return;
  }
  if (!s->masked && !s->m_tiles_outer) {
    PK_GEMM(gathered_by_panels)(w, PK_GEMM(short_tiles)(w) ? PK_GEMM(row_panels)(w) : 1);
    return;
  }
  const int n_outer = !s->m_tiles_outer;
  const int64_t mb = w->len[PK_GEMM_M], nb = w->len[PK_GEMM_N];
  const int64_t outer = n_outer ? nb : mb, outer_step = n_outer ? s->nr : s->mr;
  const int64_t inner = n_outer ? mb : nb, inner_step = n_outer ? s->mr : s->nr;
  PK_GEMM(columns) c;
  for (int64_t u = 0; u < outer; u += outer_step)
    for (int64_t v = 0; v < inner; v += inner_step) {
      const int64_t ir = n_outer ? v : u, jr = n_outer ? u : v;
      if (s->masked) {
        PK_GEMM(masked_tile)(w, ir, jr);
      } else {
        PK_GEMM(columns_at)(w, jr, &c);
        PK_GEMM(gathered_tile)(w, ir, jr, &c);
      }
    }
}

/* The block loops from `depth` in: each fixes its block, packs the operands whose blocks it completes (B first). */
static void PK_GEMM(nest)(PK_GEMM(walk) *w, int depth) {
  if (depth == 3) {
    PK_GEMM(macro_kernel)(w);
    return;
  }
  const int d = w->s->order[depth];
  for (int64_t v = w->lo[d]; v < w->hi[d]; v += w->step[d]) {
    w->at[d] = v;
    w->len[d] = pk_min64(w->step[d], w->hi[d] - v);
    if (w->pack_depth[1] == depth) PK_GEMM(pack)(w, 1);
    if (w->pack_depth[0] == depth) PK_GEMM(pack)(w, 0);
    PK_GEMM(nest)(w, depth + 1);
  }
}

static inline int PK_GEMM(depth_of)(const PK_GEMM(shape) *s, int dim) {
  return s->order[0] == dim ? 0 : s->order[1] == dim ? 1 : 2;
}

/* Member t of nt: its share of the parallel range, blocks as even as its ranges allow (never over the team's buffer
   sizes), its own pack buffers; a plain pack into them may read a bound operand's form instead (PK_GEMM(packed)),
   a shared panel never does, as the members must agree on where it is. */
static void PK_GEMM(member)(void *arg, int t, int nt) {
  PK_GEMM(team) *x = arg;
  const PK_GEMM(shape) *s = x->s;
  const PK_GEMM_DESC *g = x->g;
  PK_GEMM(walk) w = {.x = x, .s = s, .g = g, .t = t, .nt = nt};
  w.operand[0] = (PK_GEMM(operand)){g->a, g->a_m, g->a_k, g->o_am, g->o_ak, g->alpha, g->s_a, g->o_sam, g->o_sak};
  w.operand[1] = (PK_GEMM(operand)){g->b, g->b_n, g->b_k, g->o_bn, g->o_bk, 1, g->s_b, g->o_sbn, g->o_sbk};
  w.hi[PK_GEMM_M] = g->m, w.hi[PK_GEMM_N] = g->n, w.hi[PK_GEMM_K] = g->k;
  const int split_k = x->split_k && nt > 1;
  /* A later member of a split k sums into its own C: rows n apart, overwritten at its first k block. */
  PK_GEMM_DESC partial;
  if (split_k) {
    pk_share(g->k, PK_GEMM_SPLIT_K_UNIT, t, nt, &w.lo[PK_GEMM_K], &w.hi[PK_GEMM_K]);
    if (t > 0) {
      partial = *g;
      partial.c = x->partial + (t - 1) * g->m * g->n, partial.c_m = g->n;
      partial.o_cm = partial.o_cn = NULL, partial.overwrite = 1;
      w.g = &partial;
    }
  } else if (s->parallel == PK_GEMM_M) {
    pk_share(g->m, s->mr, t, nt, &w.lo[PK_GEMM_M], &w.hi[PK_GEMM_M]);
  } else if (s->parallel == PK_GEMM_N) {
    pk_share(g->n, s->nr, t, nt, &w.lo[PK_GEMM_N], &w.hi[PK_GEMM_N]);
  }
  w.step[PK_GEMM_M] = pk_even_block(w.hi[PK_GEMM_M] - w.lo[PK_GEMM_M], x->mc, s->mr);
  w.step[PK_GEMM_N] = pk_even_block(w.hi[PK_GEMM_N] - w.lo[PK_GEMM_N], x->nc, s->nr);
  w.step[PK_GEMM_K] = pk_even_block(w.hi[PK_GEMM_K] - w.lo[PK_GEMM_K], x->kc, 1);
  for (int o = 0; o < 2; o++) {
    const int width = PK_GEMM(depth_of)(s, o == 0 ? PK_GEMM_M : PK_GEMM_N), k = PK_GEMM(depth_of)(s, PK_GEMM_K);
    w.pack_depth[o] = x->packing[o] == PK_GEMM_IN_PLACE ? -1 : width > k ? width : k;
  }
  w.own[0] = x->packing[0] == PK_GEMM_OWN ? x->own_a + t * x->mc * x->kc : NULL;
  w.own[1] = x->packing[1] == PK_GEMM_OWN ? x->own_b + t * x->kc * x->nc : NULL;
  for (int o = 0; o < 2; o++) {
    w.panel[o] = w.own[o];
    w.bind[o] = w.own[o] != NULL && s->pack[o].plain != NULL;
  }
  if (w.hi[PK_GEMM_K] > w.lo[PK_GEMM_K]) PK_GEMM(nest)(&w, 0);
  for (int o = 0; o < 2; o++)
    if (w.bind[o]) pk_bound_done(&w.use[o]);
  if (split_k) {
    pk_barrier_wait(&x->bar, nt);
    PK_GEMM(add_partials)(x, t, nt);
  }
}

/*
 * One GEMM of shape s (m, n, k > 0) on a team: the threads when the shape is parallel and the call has work enough
 * for the pool, else 1; A's pack buffers in scratch slot 0, B's in slot 1, a split k's partial sums in
 * PK_PARTIAL_SLOT. PK_NO_MEMORY when a buffer cannot be allocated.
 */
static int PK_GEMM(drive)(const PK_GEMM(shape) *s, const PK_GEMM_DESC *g, int threads) {
  if (g->m <= 0 || g->n <= 0 || g->k <= 0) return PK_OK;
  const double work = (double)g->m * (double)g->n * (double)g->k;
  const int team = s->parallel != PK_GEMM_NONE && threads > 1 && pk_gemm_team_pays(work) ? threads : 1;
  const int shared = PK_GEMM(shared_operand)(s, g, team);
  PK_GEMM(team) x = {g, s, pk_min64(g->mc, pk_round_up(g->m, s->mr)), pk_min64(g->nc, pk_round_up(g->n, s->nr)),
                     pk_min64(g->kc, g->k), {PK_GEMM_IN_PLACE, PK_GEMM_IN_PLACE}, NULL, NULL, {NULL, NULL}, {0, 0},
                     PK_GEMM(splits_k)(s, g, team), NULL};
  if (x.split_k && (x.partial = pk_scratch(PK_PARTIAL_SLOT, (team - 1) * g->m * g->n, sizeof(PK_GEMM_T))) == NULL)
    return PK_NO_MEMORY;
  for (int o = 0; o < 2; o++)
    if (PK_GEMM(is_packed)(&s->pack[o])) x.packing[o] = o == shared ? PK_GEMM_SHARED : PK_GEMM_OWN;
  if (!PK_GEMM(buffers)(&x.own_a, x.shared, 0, x.packing[0], team, x.mc * x.kc)) return PK_NO_MEMORY;
  if (!PK_GEMM(buffers)(&x.own_b, x.shared, 1, x.packing[1], team, x.kc * x.nc)) return PK_NO_MEMORY;
  if (team > 1) pk_parallel_team(team, PK_GEMM(member), &x);
  else PK_GEMM(member)(&x, 0, 1);
  return PK_OK;
}
