/**
 * A parallel loop whose iterations reduce into the same elements (pipeline.ts runs a block's outermost reduction
 * index in parallel when the index it stores along is inside it: a column sum, xᵀA, a channel's maximum; and
 * passes/strip-reductions.ts a dot product's strips).
 * Threads split its iterations: member 0 reduces into the outputs themselves, every other member into a copy of them
 * started at the operation's identity; after a barrier each member combines a share of the elements, the copies in
 * member order. So sums change order with the thread count (docs/language.md allows it for `+=` and `*=`), never from
 * one call to the next at the same count (but for a call that finds the pool busy: one thread runs it all); `max=`
 * and `min=` give the same bits.
 */
import { KernelInternalError } from '../diagnostics.ts'
import { coeffOf } from '../ir/affine.ts'
import type { AssignOp, DType, Loop } from '../ir/nodes.ts'
import { identityOf } from '../spec/build-ir.ts'
import { loadsOf, walkStmts } from '../ir/walk.ts'
import { C_TYPE, cConst } from './c-expr.ts'
import type { Layout } from './layout.ts'
import type { Names } from './names.ts'

/** A tensor the loop's iterations reduce into, with the one operation they all use on it. */
export interface Reduced {
  readonly tensor: string
  readonly op: Exclude<AssignOp, '='>
}

/**
 * The tensors `loop`'s iterations reduce into, when every store of its body reduces into an element the loop does not
 * move and nothing in the body reads them (or fills, or runs its own threads); else undefined.
 */
export function reductionsAcross(loop: Loop): readonly Reduced[] | undefined {
  const ops = new Map<string, AssignOp>()
  const read = new Set<string>()
  let splittable = true
  walkStmts(loop.body, (s) => {
    if (s.kind === 'fill' || s.kind === 'contraction' || s.kind === 'convolution' || s.kind === 'block') splittable = false
    if (s.kind !== 'store') return
    for (const l of loadsOf(s.value)) read.add(l.access.tensor)
    const op = ops.get(s.access.tensor) ?? s.op
    splittable &&= s.op !== '=' && op === s.op && s.access.index.every((e) => coeffOf(e, loop.v) === 0)
    ops.set(s.access.tensor, s.op)
  })
  if (!splittable || ops.size === 0 || [...ops.keys()].some((t) => read.has(t))) return undefined
  return [...ops].map(([tensor, op]) => ({ tensor, op: op as Reduced['op'] }))
}

/** The C of one split: the helper functions for chunk function `fn`, and the call that runs them. */
export interface Split {
  readonly helpers: string
  /** The condition that runs the split, true when it ran; false when its copies could not be allocated. */
  readonly call: (work: string) => string
}

/** The helpers splitting chunk function `fn` (context struct `<fn>_ctx`, its fields named as `names` prints them). */
export function splitReduction(fn: string, reduced: readonly Reduced[], names: Names, layout: Layout): Split {
  const ctx = `${fn}_ctx`
  const parts = reduced.map((r, n) => {
    const dtype = layout.tensor(r.tensor).dtype
    const elements = layout.count(r.tensor).text
    return { ...r, field: names.of(r.tensor), copies: `pk_copies${n}`, count: `pk_count${n}`, elements, type: C_TYPE[dtype], dtype }
  })
  const helpers = [
    `/* ${fn}'s loop split between the pool's threads, each reducing into its own copy of the outputs (c-split-reduction.ts). */`,
    'typedef struct {',
    `  const ${ctx} *pk_base;`,
    '  int64_t pk_n;',
    ...parts.flatMap((p) => [`  ${p.type} *${p.copies};`, `  int64_t ${p.count};`]),
    '  pk_barrier pk_barrier;',
    `} ${fn}_split_ctx;`,
    '',
    `static void ${fn}_member(void *pk_arg, int pk_member, int pk_members) {`,
    `  ${fn}_split_ctx *pk_s = pk_arg;`,
    `  ${ctx} pk_mine = *pk_s->pk_base;`,
    ...parts.map((p) => `  if (pk_member > 0) pk_mine.${p.field} = pk_s->${p.copies} + (pk_member - 1) * pk_s->${p.count};`),
    '  int64_t pk_begin, pk_end;',
    '  pk_share(pk_s->pk_n, 1, pk_member, pk_members, &pk_begin, &pk_end);',
    `  ${fn}(&pk_mine, pk_begin, pk_end);`,
    '  pk_barrier_wait(&pk_s->pk_barrier, pk_members);',
    ...parts.flatMap((p) => [
      '  {',
      `    ${p.type} *restrict pk_out = pk_s->pk_base->${p.field};`,
      '    int64_t pk_from, pk_to;',
      `    pk_share(pk_s->${p.count}, 1, pk_member, pk_members, &pk_from, &pk_to);`,
      '    for (int pk_m = 1; pk_m < pk_members; pk_m++) {',
      `      const ${p.type} *restrict pk_copy = pk_s->${p.copies} + (pk_m - 1) * pk_s->${p.count};`,
      `      for (int64_t pk_q = pk_from; pk_q < pk_to; pk_q++) pk_out[pk_q] = ${combine(p.op, p.dtype, 'pk_out[pk_q]', 'pk_copy[pk_q]')};`,
      '    }',
      '  }',
    ]),
    '}',
    '',
    `/* Runs ${fn} over [0, pk_n) split between the threads; false when the copies cannot be allocated. */`,
    `static bool ${fn}_split(const ${ctx} *pk_base, int64_t pk_n${parts.map((p) => `, int64_t ${p.count}`).join('')}) {`,
    '  const int64_t pk_others = pk_threads() - 1;',
    `  ${fn}_split_ctx pk_s = {pk_base, pk_n${parts.map((p) => `, NULL, ${p.count}`).join('')}, {0, 0}};`,
    ...parts.map((p) => `  pk_s.${p.copies} = malloc(sizeof(${p.type}) * (size_t)(pk_others * ${p.count}));`),
    `  if (${parts.map((p) => `pk_s.${p.copies} == NULL`).join(' || ')}) {`,
    ...parts.map((p) => `    free(pk_s.${p.copies});`),
    '    return false;',
    '  }',
    ...parts.map((p) => `  for (int64_t pk_q = 0; pk_q < pk_others * ${p.count}; pk_q++) pk_s.${p.copies}[pk_q] = ${startOf(p.op, p.dtype)};`),
    `  pk_parallel_team((int)pk_others + 1, ${fn}_member, &pk_s);`,
    ...parts.map((p) => `  free(pk_s.${p.copies});`),
    '  return true;',
    '}',
    '',
  ].join('\n')
  // Worth it when the work is the pool's and the copies (filled, then combined) are small beside it.
  const call = (work: string) => {
    const counts = parts.map((p) => `(double)(${p.elements})`).join(' + ')
    const worth = `pk_n > 1 && pk_threads() > 1 && ${work} >= ${SPLIT_MIN_WORK} * PK_PARALLEL_MIN_WORK && (${counts}) * pk_threads() * ${SPLIT_COPY_COST} <= ${work}`
    return `${worth} && ${fn}_split(&pk_ctx, pk_n${parts.map((p) => `, ${p.elements}`).join('')})`
  }
  return { helpers, call }
}

/**
 * How many times a parallel loop's least work (PK_PARALLEL_MIN_WORK) a split needs: a team, its copies and their
 * combination cost more than a pool job. A dot product at 2 threads against one (AMD EPYC Zen 5, the pool warm):
 * 0.65× at 32,768 points, 0.85× at 65,536, 1.79× at 262,144; xᵀA 1.12× at 65,536 multiply-adds, 0.91-1.65× at 131,072.
 */
const SPLIT_MIN_WORK = 4

/**
 * The work (loop iterations) a split needs per element of its copies: each copy is filled and then read once more.
 * A guess on the safe side, not measured at its edge: xᵀA (4096 × 4096) has 4096 iterations per element.
 */
const SPLIT_COPY_COST = 4

/** What a copy starts from: the operation's identity, -0 for a float sum (x + -0 is x, also for x = -0). */
function startOf(op: Reduced['op'], dtype: DType): string {
  const identity = identityOf(op, dtype)
  if (identity.kind !== 'const') throw new KernelInternalError('emit', `the identity of ${op} is not a constant`)
  return cConst(op === '+=' && dtype !== 'i32' ? -0 : identity.value, dtype).text
}

function combine(op: Reduced['op'], dtype: DType, a: string, b: string): string {
  switch (op) {
    case '+=':
      return `${a} + ${b}`
    case '*=':
      return `${a} * ${b}`
    case 'max=':
    case 'min=':
      return `pk_${op.slice(0, 3)}_${dtype}(${a}, ${b})`
  }
}
