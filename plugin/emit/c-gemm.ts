/**
 * Contractions as packed, register-blocked GEMMs (BLIS / PolyDL structure). Per ISA, `emitGemmSupport` prints each
 * used microkernel, its packing routines and one blocked driver per (microkernel, loop order, parallel loop); a
 * kernel calls a driver once per point of the batch indices, with each operand's strides read off its access map.
 *
 * A driver runs the three cache-block loops of its schedule in order. The B panel (kc × nc) is packed as soon as its
 * n and k blocks are fixed, the A block (mc × kc) as soon as its m and k blocks are; the macro-kernel then walks NR
 * columns (outer: one B micro-panel stays in L1) by MR rows, calling the microkernel on each tile. The parallel loop
 * hands its blocks to pk_parallel_for; a buffer packed inside it is private to each task, one packed outside shared.
 */
import { KernelInternalError } from '../diagnostics.ts'
import { constant, substitute } from '../ir/affine.ts'
import type { Access, Affine, Contraction, ContractionSchedule, IndexRange, Kernel } from '../ir/nodes.ts'
import { walkStmts } from '../ir/walk.ts'
import type { Isa } from '../targets/isa.ts'
import type { Microkernel } from '../targets/microkernel.ts'
import { C_TYPE } from './c-expr.ts'
import { emitMicrokernel, microkernelSymbol } from './c-microkernel.ts'
import { emitPackA, emitPackB, packASymbol, packBSymbol } from './c-pack.ts'
import type { Layout } from './layout.ts'
import type { Names } from './names.ts'
import { affineCode } from './syntax.ts'

type BlockLoop = ContractionSchedule['order'][number]

/** A block loop's variable, its block's length, the extent it walks and its step. */
const LOOP: Readonly<Record<BlockLoop, { v: string; len: string; extent: string; step: string }>> = {
  n: { v: 'jc', len: 'nb', extent: 'g->n', step: 'nc' },
  k: { v: 'pc', len: 'kb', extent: 'g->k', step: 'kc' },
  m: { v: 'ic', len: 'mb', extent: 'g->m', step: 'mc' },
}

/** The schedule of `s` for `isa` and its microkernel, or undefined when `isa` runs the loop nest. */
export function gemmPlan(s: Contraction, isa: Isa): { schedule: ContractionSchedule; mk: Microkernel } | undefined {
  const schedule = s.schedules.find((x) => x.isa === isa.name)
  if (schedule === undefined) return undefined
  const mk = isa.microkernels.find((m) => m.name === schedule.microkernel)
  if (mk === undefined || mk.dtype !== s.roles.dtype) {
    throw new KernelInternalError('emit', `${isa.name} has no ${s.roles.dtype} microkernel '${schedule.microkernel}'`)
  }
  if (schedule.mc % mk.mr !== 0 || schedule.nc % mk.nr !== 0) {
    throw new KernelInternalError('emit', `contraction ${s.id}: mc ${schedule.mc} / nc ${schedule.nc} not whole tiles`)
  }
  return { schedule, mk }
}

export const driverSymbol = (mk: Microkernel, x: ContractionSchedule): string =>
  `pk_${mk.name}_${x.order.join('')}_${x.parallel}`

/** The static helpers `isa`'s contractions in `kernels` call, each printed once. */
export function emitGemmSupport(kernels: readonly Kernel[], isa: Isa): string {
  const microkernels = new Map<string, Microkernel>()
  const drivers = new Map<string, string>()
  for (const kernel of kernels) {
    walkStmts(kernel.body, (s) => {
      if (s.kind !== 'contraction') return
      const plan = gemmPlan(s, isa)
      if (plan === undefined) return
      microkernels.set(plan.mk.name, plan.mk)
      const symbol = driverSymbol(plan.mk, plan.schedule)
      if (!drivers.has(symbol)) drivers.set(symbol, emitDriver(plan.mk, plan.schedule))
    })
  }
  const helpers = [...microkernels.values()].flatMap((mk) => [emitMicrokernel(mk), emitPackA(mk), emitPackB(mk)])
  return [...helpers, ...drivers.values()].join('\n')
}

type Buffer = 'a' | 'b'

/** One blocked driver: `static int <symbol>(const pk_gemm_<dtype> *g)`, plus its task function when threaded. */
function emitDriver(mk: Microkernel, x: ContractionSchedule): string {
  const t = C_TYPE[mk.dtype]
  const symbol = driverSymbol(mk, x)
  const ctxType = `${symbol}_ctx`
  const at = (l: BlockLoop) => x.order.indexOf(l)
  const p = x.parallel === 'none' ? -1 : at(x.parallel)
  // Each buffer is packed in the loop at this depth, the inner of its two block loops.
  const packDepth: Record<Buffer, number> = { a: Math.max(at('m'), at('k')), b: Math.max(at('n'), at('k')) }
  const isPrivate = (buf: Buffer) => p >= 0 && packDepth[buf] >= p
  const shared = (['a', 'b'] as const).filter((buf) => !isPrivate(buf))
  const own = (['a', 'b'] as const).filter(isPrivate)
  const size: Record<Buffer, string> = { a: 'mc*kc', b: 'kc*nc' }
  const blocks = (l: BlockLoop) => `(${LOOP[l].extent} + ${LOOP[l].step} - 1) / ${LOOP[l].step}`
  // The block loops outside the parallel one: their current blocks travel to the task in the context.
  const outer = x.order.slice(0, Math.max(p, 0)).map((l) => LOOP[l])

  const alloc = (bufs: readonly Buffer[], onFail: readonly string[], pad: string): string[] =>
    bufs.length === 0 ? [] : [
      ...bufs.map((buf) => `${pad}p${buf} = pk_alloc_aligned(${size[buf]}, sizeof(${t}));`),
      `${pad}if (${bufs.map((buf) => `p${buf} == NULL`).join(' || ')}) {`,
      ...[...bufs.map((buf) => `free(p${buf});`), ...onFail].map((l) => `${pad}  ${l}`),
      `${pad}}`,
    ]
  const blockHead = (l: BlockLoop, pad: string) =>
    `${pad}const int64_t ${LOOP[l].len} = pk_min64(${LOOP[l].step}, ${LOOP[l].extent} - ${LOOP[l].v});`
  const packCall: Record<Buffer, string> = {
    a: `${packASymbol(mk)}(mb, kb, g->a + ic*g->a_m + pc*g->a_k, g->a_m, g->a_k, pa);`,
    b: `${packBSymbol(mk)}(nb, kb, g->b + pc*g->b_k + jc*g->b_n, g->b_n, g->b_k, pb);`,
  }
  const packs = (depth: number, pad: string): string[] =>
    (['b', 'a'] as const).filter((buf) => packDepth[buf] === depth).map((buf) => pad + packCall[buf])
  // Columns outside, rows inside: one kb × NR micro-panel of B stays in L1 while the A block streams from L2.
  const macroKernel = (pad: string): string[] => [
    `${pad}for (int64_t jr = 0; jr < nb; jr += ${mk.nr})`,
    `${pad}  for (int64_t ir = 0; ir < mb; ir += ${mk.mr})`,
    `${pad}    ${microkernelSymbol(mk)}(kb, pa + ir*kb, pb + jr*kb, g->c + (ic + ir)*g->c_m + jc + jr, g->c_m,`,
    `${pad}        pk_min64(${mk.mr}, mb - ir), pk_min64(${mk.nr}, nb - jr));`,
  ]
  /** The block loops from `depth` inward; the parallel one hands its blocks to the task function. */
  const nest = (depth: number, pad: string): string[] => {
    if (depth === 3) return macroKernel(pad)
    const l = x.order[depth]
    const { v, extent, step } = LOOP[l]
    if (depth === p) {
      return [
        ...outer.map(({ v, len }) => `${pad}ctx.${v} = ${v}, ctx.${len} = ${len};`),
        `${pad}if (threaded) pk_parallel_for(${blocks(l)}, ${symbol}_task, &ctx);`,
        `${pad}else ${symbol}_task(&ctx, 0, ${blocks(l)});`,
        `${pad}if (ctx.failed) goto done;`,
      ]
    }
    return [
      `${pad}for (int64_t ${v} = 0; ${v} < ${extent}; ${v} += ${step}) {`,
      blockHead(l, pad + '  '),
      ...packs(depth, pad + '  '),
      ...nest(depth + 1, pad + '  '),
      `${pad}}`,
    ]
  }

  const lines: string[] = []
  if (p >= 0) {
    const l = x.order[p]
    lines.push(
      'typedef struct {',
      `  const pk_gemm_${mk.dtype} *g;`,
      `  ${t} *pa, *pb;`,
      '  int64_t mc, nc, kc, jc, nb, pc, kb, ic, mb;',
      '  int failed;',
      `} ${ctxType};`,
      '',
      `static void ${symbol}_task(void *arg, int64_t begin, int64_t end) {`,
      `  ${ctxType} *x = arg;`,
      `  const pk_gemm_${mk.dtype} *g = x->g;`,
      '  const int64_t mc = x->mc, nc = x->nc, kc = x->kc;',
      ...outer.map(({ v, len }) => `  const int64_t ${v} = x->${v}, ${len} = x->${len};`),
      `  ${t} *pa = x->pa, *pb = x->pb;`,
      ...alloc(own, ['__atomic_store_n(&x->failed, 1, __ATOMIC_RELAXED);', 'return;'], '  '),
      '  for (int64_t blk = begin; blk < end; blk++) {',
      `    const int64_t ${LOOP[l].v} = blk*${LOOP[l].step};`,
      blockHead(l, '    '),
      ...packs(p, '    '),
      ...nest(p + 1, '    '),
      '  }',
      ...own.map((buf) => `  free(p${buf});`),
      '}',
      '',
    )
  }
  lines.push(
    `static int ${symbol}(const pk_gemm_${mk.dtype} *g) {`,
    '  if (g->m <= 0 || g->n <= 0 || g->k <= 0) return PK_OK;',
    '  const int64_t kc = pk_min64(g->kc, g->k);',
    `  int64_t mc = pk_min64(g->mc, pk_round_up(g->m, ${mk.mr}));`,
    `  int64_t nc = pk_min64(g->nc, pk_round_up(g->n, ${mk.nr}));`,
  )
  if (x.parallel !== 'none') {
    // Small calls never wake the pool (as in c-parallel.ts). Large ones split the parallel extent into a multiple
    // of the thread count of blocks, as even as whole tiles allow: chunks are whole blocks, so 3 blocks on 2 threads
    // would leave one thread idle a third of the time.
    const [block, extent, unit] = x.parallel === 'm' ? ['mc', 'g->m', mk.mr] : ['nc', 'g->n', mk.nr]
    lines.push(
      '  const double work = (double)g->m * (double)g->n * (double)g->k;',
      '  const int64_t threads = pk_threads();',
      '  const int threaded = work >= PK_PARALLEL_MIN_WORK && threads > 1;',
      '  if (threaded) {',
      `    const int64_t blocks = pk_round_up((${extent} + ${block} - 1) / ${block}, threads);`,
      `    ${block} = pk_round_up((${extent} + blocks - 1) / blocks, ${unit});`,
      '  }',
    )
  }
  lines.push(`  ${t} *pa = NULL, *pb = NULL;`, ...alloc(shared, ['return PK_NO_MEMORY;'], '  '))
  if (p >= 0) lines.push(`  ${ctxType} ctx = {g, pa, pb, mc, nc, kc, 0, 0, 0, 0, 0, 0, 0};`)
  lines.push(...nest(0, '  '))
  if (p >= 0) lines.push('done:;')
  lines.push(...shared.map((buf) => `  free(p${buf});`))
  lines.push(p >= 0 ? '  return ctx.failed ? PK_NO_MEMORY : PK_OK;' : '  return PK_OK;', '}')
  return lines.join('\n') + '\n'
}

/**
 * The statements running contraction `s` through its driver: loops over the batch indices, each filling a call
 * descriptor (base pointers at m = n = k = 0, strides from the shapes) and calling the driver; `onNoMemory` are the
 * statements that release the kernel's temporaries and return PK_NO_MEMORY.
 */
export function emitGemmCall(
  s: Contraction,
  plan: { schedule: ContractionSchedule; mk: Microkernel },
  names: Names,
  layout: Layout,
  depth: number,
  onNoMemory: readonly string[],
): string[] {
  const { roles: r } = s
  const { schedule: x, mk } = plan
  const atZero = (ix: Affine) => [r.m, r.n, r.k].reduce((e, role) => substitute(e, role.name, constant(0)), ix)
  const base = (a: Access): string =>
    `${names.of(a.tensor)} + ${layout.offset({ ...a, index: a.index.map(atZero) }).text}`.replace(/ \+ 0$/, '')
  // Roles' accesses are plain (verify.ts): the dimension holding index `v` is the one whose only term is `v`.
  const stride = (a: Access, v: IndexRange): string =>
    layout.stride(a.tensor, a.index.findIndex((ix) => ix.terms[0].v === v.name)).text
  const extent = (ix: IndexRange) => affineCode(ix.extent, names.of).text
  const fields = [
    base(r.a), base(r.b), base(r.c), extent(r.m), extent(r.n), extent(r.k),
    stride(r.a, r.m), stride(r.a, r.k), stride(r.b, r.k), stride(r.b, r.n), stride(r.c, r.m),
    x.mc, x.nc, x.kc,
  ]
  const pad0 = '  '.repeat(depth)
  const about = `${mk.name}, mc ${x.mc} nc ${x.nc} kc ${x.kc}, order ${x.order.join('')}, parallel ${x.parallel}`
  const lines = [`${pad0}{ /* contraction ${s.id}: ${about} */`]
  let pad = pad0 + '  '
  for (const b of r.batch) {
    const v = names.of(b.name)
    lines.push(`${pad}for (int64_t ${v} = 0; ${v} < ${extent(b)}; ${v}++) {`)
    pad += '  '
  }
  lines.push(
    `${pad}const pk_gemm_${r.dtype} pk_g = {${fields.join(', ')}};`,
    `${pad}if (${driverSymbol(mk, x)}(&pk_g) != PK_OK) {`,
    ...onNoMemory.map((l) => `${pad}  ${l}`),
    `${pad}}`,
  )
  for (let n = r.batch.length; n >= 0; n--) lines.push(`${pad0}${'  '.repeat(n)}}`)
  return lines
}
