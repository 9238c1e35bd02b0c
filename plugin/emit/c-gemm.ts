/**
 * Contractions as blocked GEMMs (BLIS / PolyDL structure). Per ISA, `emitGemmSupport` prints the tile functions of
 * each microkernel and operand layout used, its packing routines, and one driver per blocking structure (loop
 * orders, threads, packing); a kernel's call site picks a blocking from the call's sizes (the schedule's `special`
 * guards, then its own fields) and hands the descriptor (base pointers, sizes, strides read off the access maps,
 * block sizes) with the batch's extents and strides to pk_gemm_<t>_run (native/polykern_gemm_run.h).
 *
 * A driver runs as a team of threads (pk_gemm_<t>_blocked sizes the team and its pack buffers), each member on its
 * share of the parallel range (all of it when serial); the member is generated here. Each
 * member runs the three block loops of its order; an operand is packed as soon as its two block loops are fixed.
 * When the parallel range's loop is the innermost block loop, the other operand's packed panel is the same for
 * every member: the members pack it together, each a share of its panels, into one of two buffers, and meet at a
 * barrier before reading it (two buffers: a member that passes the next barrier knows all have finished the panel
 * before). The macro-kernel walks the block in register tiles in the blocking's `inner` order.
 */
import { KernelInternalError } from '../diagnostics.ts'
import { coeffOf, constant, lastIndex, substitute } from '../ir/affine.ts'
import { equal } from '../ir/affine.ts'
import type {
  Access, Affine, Constraint, Contraction, ContractionSchedule, GemmBlocking, IndexRange, Kernel, SizeGuard, Stmt,
} from '../ir/nodes.ts'
import { walkStmts } from '../ir/walk.ts'
import { describeBlocking } from '../schedule/describe.ts'
import type { Isa } from '../targets/isa.ts'
import type { Microkernel } from '../targets/microkernel.ts'
import { C_TYPE, cConst } from './c-expr.ts'
import { emitMicrokernel, microkernelSymbol, type MicrokernelUse } from './c-microkernel.ts'
import {
  emitGatherA, emitGatherB, emitPackA, emitPackB, emitScaledGatherA, emitScaledPackA, emitWeightedGather, gatherASymbol,
  gatherBSymbol, packASymbol, packBSymbol, scaledGatherASymbol, scaledPackASymbol, weightedGatherSymbol,
} from './c-pack.ts'
import { isTiled, orderCostCode, roleOrders, type RoleOrder, type RoleOrders } from '../schedule/role-orders.ts'
import type { Layout } from './layout.ts'
import type { Names } from './names.ts'
import { PREC, affineCode, operand } from './syntax.ts'

export interface GemmPlan {
  readonly schedule: ContractionSchedule
  readonly mk: Microkernel
}

/** The schedule of `s` for `isa` and its microkernel, or undefined when `isa` runs the loop nest. */
export function gemmPlan(s: Contraction, isa: Isa): GemmPlan | undefined {
  const schedule = s.schedules.find((x) => x.isa === isa.name)
  if (schedule === undefined) return undefined
  const mk = isa.microkernels.find((m) => m.name === schedule.microkernel)
  if (mk === undefined || mk.dtype !== s.roles.dtype) {
    throw new KernelInternalError('emit', `${isa.name} has no ${s.roles.dtype} microkernel '${schedule.microkernel}'`)
  }
  for (const x of blockings(schedule)) {
    if (x.mc % mk.mr !== 0 || x.nc % mk.nr !== 0) {
      throw new KernelInternalError('emit', `contraction ${s.id}: mc ${x.mc} / nc ${x.nc} not whole tiles`)
    }
    if ([...x.order].sort().join('') !== 'kmn') {
      throw new KernelInternalError('emit', `contraction ${s.id}: block loop order ${x.order.join('')}`)
    }
  }
  return { schedule, mk }
}

/** The special blockings, then the schedule's own: the order the call site tries them in. */
const blockings = (x: ContractionSchedule): readonly GemmBlocking[] => [...(x.special ?? []).map((s) => s.blocking), x]

/** What a driver's code depends on: the blocking without its block sizes, with the packing the operands allow. */
interface DriverShape {
  readonly mk: Microkernel
  readonly order: GemmBlocking['order']
  readonly inner: GemmBlocking['inner']
  /** `batch` runs whole GEMMs on the threads, so its driver is serial. */
  readonly parallel: 'm' | 'n' | 'none'
  readonly packA: boolean
  readonly packB: boolean
  /** Operands packed through the roles' offset tables and C stored through them (a `gathered` contraction). */
  readonly gather: boolean
  /** A is multiplied by the product's constant factor while packed (ContractionRoles.alpha). */
  readonly scaled: boolean
  /** C's tiles are masked by a triangular domain (ContractionRoles.domain). */
  readonly masked: boolean
  /** Each operand is multiplied by a tensor factor while gathered (ContractionRoles.scaleA / scaleB). */
  readonly weighted: Readonly<Record<Operand, boolean>>
}

/** A role's innermost index: the one whose stride is the role's (ContractionRoles). */
const inner = (role: readonly IndexRange[]): IndexRange => role[role.length - 1]

function driverShape(s: Contraction, mk: Microkernel, x: GemmBlocking): DriverShape {
  const { roles: r } = s
  const gather = r.layout === 'gathered'
  const scaled = r.alpha !== undefined
  return {
    mk,
    order: x.order,
    inner: x.inner,
    parallel: x.parallel === 'batch' ? 'none' : x.parallel,
    packA: gather || scaled || x.packA || lastIndex(r.a) !== inner(r.k).name,
    packB: gather || x.packB || lastIndex(r.b) !== inner(r.n).name,
    gather,
    scaled,
    masked: r.domain !== undefined,
    weighted: { a: r.scaleA !== undefined, b: r.scaleB !== undefined },
  }
}

export const driverSymbol = (d: DriverShape): string =>
  `pk_${d.mk.name}_${d.order.join('')}_${d.inner}_${d.parallel}_${d.packA ? 'p' : 'u'}${d.packB ? 'p' : 'u'}${d.gather ? '_g' : ''}` +
  (d.scaled ? '_s' : '') + (d.masked ? '_t' : '') + (d.weighted.a ? '_wa' : '') + (d.weighted.b ? '_wb' : '')

/** The static helpers `isa`'s contractions in `kernels` call, each printed once. */
export function emitGemmSupport(kernels: readonly Kernel[], isa: Isa): string {
  const uses = new Map<string, MicrokernelUse>()
  const packs = new Map<string, string>()
  const drivers = new Map<string, string>()
  for (const kernel of kernels) {
    walkStmts(kernel.body, (s) => {
      if (s.kind !== 'contraction') return
      const plan = gemmPlan(s, isa)
      if (plan === undefined) return
      for (const x of blockings(plan.schedule)) {
        const d = driverShape(s, plan.mk, x)
        for (const scatterC of d.gather ? [false, true] : [false]) {
          const use = { mk: d.mk, packA: d.packA, packB: d.packB, scatterC }
          uses.set(microkernelSymbol(use), use)
        }
        for (const o of ['a', 'b'] as const) {
          const pack = packOf(d, o)
          if (pack !== undefined) packs.set(pack.symbol, pack.emit(d.mk))
        }
        const symbol = driverSymbol(d)
        if (!drivers.has(symbol)) drivers.set(symbol, emitDriver(d))
      }
    })
  }
  return [...[...uses.values()].map(emitMicrokernel), ...packs.values(), ...drivers.values()].join('\n')
}

/**
 * An operand's packing routine, or undefined when it is read in place: gathered or strided; A scaled by the
 * constant factor; either weighted by a tensor factor (gathered only; A's weighted gather applies alpha too).
 */
function packOf(d: DriverShape, o: Operand): { readonly symbol: string; readonly emit: (mk: Microkernel) => string } | undefined {
  if (d.weighted[o]) return { symbol: weightedGatherSymbol(d.mk, o), emit: (mk) => emitWeightedGather(mk, o) }
  if (o === 'b') {
    if (d.gather) return { symbol: gatherBSymbol(d.mk), emit: emitGatherB }
    return d.packB ? { symbol: packBSymbol(d.mk), emit: emitPackB } : undefined
  }
  if (d.gather) return d.scaled ? { symbol: scaledGatherASymbol(d.mk), emit: emitScaledGatherA } : { symbol: gatherASymbol(d.mk), emit: emitGatherA }
  if (d.scaled) return { symbol: scaledPackASymbol(d.mk), emit: emitScaledPackA }
  return d.packA ? { symbol: packASymbol(d.mk), emit: emitPackA } : undefined
}

type Dim = 'm' | 'n' | 'k'
type Operand = 'a' | 'b'

/** A block loop's variable (its range is [v0, v1)), its block's length and its block size. */
const LOOP: Readonly<Record<Dim, { v: string; len: string; step: string }>> = {
  m: { v: 'ic', len: 'mb', step: 'mc' },
  n: { v: 'jc', len: 'nb', step: 'nc' },
  k: { v: 'pc', len: 'kb', step: 'kc' },
}

/** Each operand's dimensions: the panel width dimension first, then k. */
const DIMS: Readonly<Record<Operand, readonly [Dim, Dim]>> = { a: ['m', 'k'], b: ['n', 'k'] }

/**
 * `static int <symbol>(const pk_gemm_<dtype> *g, int threads)`: pk_gemm_<dtype>_blocked (native/polykern_gemm_run.h:
 * block sizes, team, pack buffers) on the driver's team member, which runs this blocking's loop nest.
 */
function emitDriver(d: DriverShape): string {
  const { mk } = d
  const t = C_TYPE[mk.dtype]
  const symbol = driverSymbol(d)
  const at = (l: Dim) => d.order.indexOf(l)
  const packed: Record<Operand, boolean> = { a: d.packA, b: d.packB }
  // Each operand is packed in the loop at this depth, the inner of its two block loops.
  const packDepth = (o: Operand) => Math.max(at(DIMS[o][0]), at(DIMS[o][1]))
  // The operand not split between members, when all of them walk its block loops in step.
  const shared: Operand | undefined =
    d.parallel === 'none' || at(d.parallel) !== 2 ? undefined : d.parallel === 'm' ? 'b' : 'a'
  const isShared = (o: Operand) => packed[o] && o === shared
  const width: Record<Operand, number> = { a: mk.mr, b: mk.nr }
  const size: Record<Operand, string> = { a: 'mc*kc', b: 'kc*nc' }
  const src: Record<Operand, string> = { a: 'g->a + ic*g->a_m + pc*g->a_k', b: 'g->b + pc*g->b_k + jc*g->b_n' }
  const strides: Record<Operand, string> = { a: 'g->a_m, g->a_k', b: 'g->b_n, g->b_k' }
  const packSymbol: Record<Operand, string> = { a: packOf(d, 'a')?.symbol ?? '', b: packOf(d, 'b')?.symbol ?? '' }
  // After the panel buffer: alpha for a scaled A; for a weighted operand alpha (1 for B), its factor and tables.
  const weight: Record<Operand, (lo: string) => string> = {
    a: (lo) => `, g->alpha, g->s_a, g->o_sam + ic${lo}, g->o_sak + pc`,
    b: (lo) => `, 1, g->s_b, g->o_sbn + jc${lo}, g->o_sbk + pc`,
  }
  const extraArgs = (o: Operand, lo: boolean) =>
    d.weighted[o] ? weight[o](lo ? ' + lo' : '') : o === 'a' && d.scaled ? ', g->alpha' : ''
  const stepOf = (o: Operand) => (o === 'a' ? 'a_m' : 'b_n')
  // A gathered pack's source: the operand's base and its offset tables from the block's first row and k.
  const tables: Record<Operand, (lo: string) => string> = {
    a: (lo) => `g->a, g->o_am + ic${lo}, g->o_ak + pc`,
    b: (lo) => `g->b, g->o_bn + jc${lo}, g->o_bk + pc`,
  }
  const source = (o: Operand, lo: boolean): string =>
    d.gather ? tables[o](lo ? ' + lo' : '') : `${src[o]}${lo ? ` + lo*g->${stepOf(o)}` : ''}, ${strides[o]}`

  // A plain pack into a member's own buffer may read a bound operand's form instead (pk_gemm_<t>_packed); a shared
  // panel never does, as the members must agree on where it is.
  const plain = (o: Operand) => !d.gather && !d.weighted[o] && !(o === 'a' && d.scaled)
  const mayBind = (['a', 'b'] as const).filter((o) => packed[o] && !isShared(o) && plain(o))
  const pack = (o: Operand, pad: string): string[] => {
    if (!packed[o]) return []
    const len = LOOP[DIMS[o][0]].len
    if (mayBind.includes(o)) {
      return [`${pad}p${o} = pk_gemm_${mk.dtype}_packed(${packSymbol[o]}, ${width[o]}, ${len}, kb, ${source(o, false)}, own_${o}, &use_${o});`]
    }
    if (!isShared(o)) return [`${pad}${packSymbol[o]}(${len}, kb, ${source(o, false)}, p${o}${extraArgs(o, false)});`]
    return [
      `${pad}p${o} = x->shared[step++ & 1];`,
      `${pad}{`,
      `${pad}  int64_t lo, hi;`,
      `${pad}  pk_share(${len}, ${width[o]}, t, nt, &lo, &hi);`,
      `${pad}  if (hi > lo) {`,
      `${pad}    ${packSymbol[o]}(hi - lo, kb, ${source(o, true)}, p${o} + lo*kb${extraArgs(o, true)});`,
      `${pad}  }`,
      `${pad}}`,
      `${pad}pk_barrier_wait(&x->bar, nt);`,
    ]
  }
  const aTile = d.packA ? 'pa + ir*kb' : 'g->a + (ic + ir)*g->a_m + pc*g->a_k'
  const bTile = d.packB ? 'pb + jr*kb' : 'g->b + pc*g->b_k + (jc + jr)*g->b_n'
  const tileLoops = {
    m: `for (int64_t ir = 0; ir < mb; ir += ${mk.mr})`,
    n: `for (int64_t jr = 0; jr < nb; jr += ${mk.nr})`,
  }
  const [outerTile, innerTile] = d.inner === 'mn' ? [tileLoops.m, tileLoops.n] : [tileLoops.n, tileLoops.m]
  const ukr = microkernelSymbol({ mk, packA: d.packA, packB: d.packB })
  const scatterUkr = microkernelSymbol({ mk, packA: d.packA, packB: d.packB, scatterC: true })
  // TBLIS's block scatter, at vector granularity: a tile whose vectors each lie in one run of C's columns (or in two,
  // at full width) is stored in place through C's row offsets and its vectors' places (the scattering microkernel);
  // any other is computed into a local tile, then added (or, overwriting, stored) row by row, each row in the runs
  // its columns make in C. What a tile needs of its columns is worked out once per tile column, of its rows once per
  // tile row: per tile, it cost 8% of ccsd_t's time.
  const gatheredSetup: Record<'m' | 'n', string[]> = {
    m: [`const int64_t rows = pk_min64(${mk.mr}, mb - ir), *om = g->o_cm + ic + ir;`],
    n: [
      `const int64_t cols = pk_min64(${mk.nr}, nb - jr), *on = g->o_cn + jc + jr;`,
      `pk_vector_place vp[${mk.nr / mk.lanes}];`,
      `const int split = pk_vector_places(on, cols, ${mk.lanes}, ${mk.nr}, vp);`,
      `int64_t start[${mk.nr + 1}];`,
      `const int64_t runs = split < 0 ? pk_runs(on, cols, start) : 0;`,
    ],
  }
  const gatheredTile = (pad: string): string[] => [
    `${pad}const int store = g->overwrite && pc == 0;`,
    `${pad}if (split >= 0) {`,
    `${pad}  ${scatterUkr}(kb, pa + ir*kb, 0, pb + jr*kb, 0, g->c, om, vp, split, rows, cols, store);`,
    `${pad}} else {`,
    `${pad}  ${t} tile[${mk.mr * mk.nr}] __attribute__((aligned(64)));`,
    // The microkernel prefetches the C tile it stores to; this one goes to a local tile, so fetch C's lines for
    // writing first: their misses overlap the k loop instead of stalling the stores after it.
    `${pad}  for (int64_t r = 0; r < rows; r++)`,
    `${pad}    for (int64_t u = 0; u < runs; u++) {`,
    `${pad}      ${t} *to = g->c + om[r] + on[start[u]] - start[u];`,
    `${pad}      for (int64_t j = start[u]; j < start[u + 1]; j += ${64 / (t === 'float' ? 4 : 8)}) __builtin_prefetch(to + j, 1, 3);`,
    `${pad}      __builtin_prefetch(to + start[u + 1] - 1, 1, 3);`,
    `${pad}    }`,
    `${pad}  ${ukr}(kb, pa + ir*kb, 0, pb + jr*kb, 0, tile, ${mk.nr}, rows, cols, 1);`,
    `${pad}  for (int64_t r = 0; r < rows; r++)`,
    `${pad}    for (int64_t u = 0; u < runs; u++) {`,
    `${pad}      ${t} *restrict to = g->c + om[r] + on[start[u]] - start[u];`,
    `${pad}      const ${t} *restrict from = tile + r*${mk.nr};`,
    // A lone element is stored as one: gcc makes the copy loop a memmove call, which costs a run, not an element.
    `${pad}      if (start[u + 1] - start[u] == 1) to[start[u]] = store ? from[start[u]] : to[start[u]] + from[start[u]];`,
    `${pad}      else if (store) for (int64_t j = start[u]; j < start[u + 1]; j++) to[j] = from[j];`,
    `${pad}      else for (int64_t j = start[u]; j < start[u + 1]; j++) to[j] += from[j];`,
    `${pad}    }`,
    `${pad}}`,
  ]
  const [outerDim, innerDim] = d.inner === 'mn' ? (['m', 'n'] as const) : (['n', 'm'] as const)
  const gatheredMacroKernel = (pad: string): string[] => [
    `${pad}${outerTile} {`,
    ...gatheredSetup[outerDim].map((l) => `${pad}  ${l}`),
    `${pad}  ${innerTile} {`,
    ...gatheredSetup[innerDim].map((l) => `${pad}    ${l}`),
    ...gatheredTile(`${pad}    `),
    `${pad}  }`,
    `${pad}}`,
  ]
  const plainMacroKernel = (pad: string): string[] => [
    `${pad}${outerTile}`,
    `${pad}  ${innerTile}`,
    `${pad}    ${ukr}(kb, ${aTile}, g->a_m, ${bTile}, g->b_k,`,
    `${pad}        g->c + (ic + ir)*g->c_m + jc + jr, g->c_m,`,
    `${pad}        pk_min64(${mk.mr}, mb - ir), pk_min64(${mk.nr}, nb - jr), g->overwrite && pc == 0);`,
  ]
  // A triangular domain (ContractionRoles.domain): tiles wholly outside it are skipped; a tile on its edge is
  // computed into a local tile and only the elements inside are added. The rest run as without a domain: the
  // unmasked macro-kernel's body, inside the tile loops.
  const operands = d.gather ? 'pa + ir*kb, 0, pb + jr*kb, 0' : `${aTile}, g->a_m, ${bTile}, g->b_k`
  const element = d.gather ? 'g->c + g->o_cm[ic + ir + r] + g->o_cn[jc + jr + j]' : 'g->c + (ic + ir + r)*g->c_m + jc + jr + j'
  const maskedMacroKernel = (pad: string): string[] => {
    // Inside the tile: the gathered tile with its setup (it declares rows and cols again), or the plain call.
    const body = d.gather
      ? [...gatheredSetup.n, ...gatheredSetup.m].map((l) => `${pad}    ${l}`).concat(gatheredTile(`${pad}    `))
      : plainMacroKernel(pad).slice(2)
    return [
      `${pad}${outerTile}`,
      `${pad}  ${innerTile} {`,
      `${pad}    const int64_t rows = pk_min64(${mk.mr}, mb - ir), cols = pk_min64(${mk.nr}, nb - jr);`,
      `${pad}    const int place = pk_tile_in_domain(g->dom, g->ndom, ic + ir, rows, jc + jr, cols);`,
      `${pad}    if (place == 0) continue;`,
      `${pad}    if (place < 0) {`,
      `${pad}      ${t} tile[${mk.mr * mk.nr}] __attribute__((aligned(64)));`,
      `${pad}      const int store = g->overwrite && pc == 0;`,
      `${pad}      ${ukr}(kb, ${operands}, tile, ${mk.nr}, rows, cols, 1);`,
      `${pad}      for (int64_t r = 0; r < rows; r++)`,
      `${pad}        for (int64_t j = 0; j < cols; j++)`,
      `${pad}          if (pk_in_domain(g->dom, g->ndom, ic + ir + r, jc + jr + j)) {`,
      `${pad}            ${t} *to = ${element};`,
      `${pad}            *to = store ? tile[r*${mk.nr} + j] : *to + tile[r*${mk.nr} + j];`,
      `${pad}          }`,
      `${pad}      continue;`,
      `${pad}    }`,
      `${pad}    {`,
      ...body.map((l) => `  ${l}`),
      `${pad}    }`,
      `${pad}  }`,
    ]
  }
  const macroKernel = (pad: string): string[] =>
    d.masked ? maskedMacroKernel(pad) : d.gather ? gatheredMacroKernel(pad) : plainMacroKernel(pad)
  const nest = (depth: number, pad: string): string[] => {
    if (depth === 3) return macroKernel(pad)
    const { v, len, step } = LOOP[d.order[depth]]
    return [
      `${pad}for (int64_t ${v} = ${v}0; ${v} < ${v}1; ${v} += ${step}) {`,
      `${pad}  const int64_t ${len} = pk_min64(${step}, ${v}1 - ${v});`,
      ...(['b', 'a'] as const).filter((o) => packDepth(o) === depth).flatMap((o) => pack(o, pad + '  ')),
      ...nest(depth + 1, pad + '  '),
      `${pad}}`,
    ]
  }
  const share = (l: 'm' | 'n') => {
    const { v } = LOOP[l]
    return d.parallel === l ? [`  pk_share(g->${l}, ${l === 'm' ? mk.mr : mk.nr}, t, nt, &${v}0, &${v}1);`] : []
  }
  const own = (o: Operand) => packed[o] && !isShared(o)

  const packing = (o: Operand): string => (!packed[o] ? 'PK_GEMM_IN_PLACE' : isShared(o) ? 'PK_GEMM_SHARED' : 'PK_GEMM_OWN')

  return [
    `static void ${symbol}_member(void *arg, int t, int nt) {`,
    `  pk_gemm_${mk.dtype}_team *x = arg;`,
    `  const pk_gemm_${mk.dtype} *g = x->g;`,
    '  int64_t ic0 = 0, ic1 = g->m, jc0 = 0, jc1 = g->n, pc0 = 0, pc1 = g->k;',
    ...share('m'),
    ...share('n'),
    // Blocks as even as this member's ranges allow, never over the buffers' (the team's) sizes.
    `  const int64_t mc = pk_even_block(ic1 - ic0, x->mc, ${mk.mr}), nc = pk_even_block(jc1 - jc0, x->nc, ${mk.nr});`,
    '  const int64_t kc = pk_even_block(pc1 - pc0, x->kc, 1);',
    `  ${t} *pa = ${own('a') ? `x->own_a + t*x->${size.a.replace('*', '*x->')}` : 'NULL'}, ` +
      `*pb = ${own('b') ? `x->own_b + t*x->${size.b.replace('*', '*x->')}` : 'NULL'};`,
    ...mayBind.flatMap((o) => [`  ${t} *const own_${o} = p${o};`, `  pk_bound_use use_${o} = {NULL};`]),
    ...(shared !== undefined && packed[shared] ? ['  int64_t step = 0;'] : []),
    '  (void)pa, (void)pb, (void)nt;',
    ...nest(0, '  '),
    ...mayBind.map((o) => `  pk_bound_done(&use_${o});`),
    '}',
    '',
    `static int ${symbol}(const pk_gemm_${mk.dtype} *g, int threads) {`,
    `  return pk_gemm_${mk.dtype}_blocked(g, threads, ${mk.mr}, ${mk.nr}, ${d.parallel === 'none' ? 0 : 1}, ${packing('a')}, ${packing('b')},`,
    `      ${symbol}_member);`,
    '}',
    '',
  ].join('\n')
}

/** `pk_pm`, `pk_pn` and `pk_pk`: the candidate orders (schedule/role-orders.ts) that cost least at the call's extents. */
function emitOrderChoice(
  r: Contraction['roles'],
  orders: RoleOrders,
  extent: (ix: IndexRange) => string,
  blocks: GemmBlocking,
  mk: Microkernel,
  pad: string,
): string[] {
  const sizes = { ...blocks, mr: mk.mr, nr: mk.nr }
  const triples = orders.m.flatMap((m, h) => orders.n.flatMap((n, i) =>
    orders.k.map((k, j) => ({ h, i, j, cost: orderCostCode(r, m, n, k, extent, sizes) }))))
  if (triples.length === 1) return []
  return [
    `${pad}int pk_pm = 0, pk_pn = 0, pk_pk = 0;`,
    `${pad}double pk_least = ${triples[0].cost}, pk_cost;`,
    ...triples.slice(1).map(({ h, i, j, cost }) =>
      `${pad}if ((pk_cost = ${cost}) < pk_least) pk_least = pk_cost, pk_pm = ${h}, pk_pn = ${i}, pk_pk = ${j};`),
    `${pad}(void)pk_pm, (void)pk_pn, (void)pk_pk;`,
  ]
}

/** A guard as a C condition on the call's sizes; '' when it always holds. */
function guardCode(w: SizeGuard): string {
  const tests = [
    w.maxM === undefined ? '' : `pk_m <= ${w.maxM}`,
    w.maxN === undefined ? '' : `pk_n <= ${w.maxN}`,
    w.maxK === undefined ? '' : `pk_k <= ${w.maxK}`,
    w.maxWork === undefined ? '' : `(double)pk_m*(double)pk_n*(double)pk_k <= ${w.maxWork}`,
    w.minBatch === undefined ? '' : `pk_batches >= ${w.minBatch}`,
  ]
  return tests.filter((x) => x !== '').join(' && ')
}

/**
 * The zero fills of `body` that a GEMM on `isa` makes redundant, and those GEMMs: `T = 0` right before a contraction
 * into every element of T (`+=!`). Such a GEMM stores its first k block instead of adding it to C, which saves a
 * pass over C (a third of the memory traffic when K is small, a fifth of the time of a 64³ call).
 */
export function overwritingGemms(body: readonly Stmt[], kernel: Kernel, isa: Isa): ReadonlySet<Stmt> {
  const found = new Set<Stmt>()
  body.forEach((fill, i) => {
    const s = body[i + 1]
    if (fill.kind !== 'fill' || s?.kind !== 'contraction' || gemmPlan(s, isa) === undefined) return
    if (fill.value.kind !== 'const' || fill.value.value !== 0 || fill.tensor !== s.roles.c.tensor) return
    // A factor that is C itself would read the zeros.
    if (fill.tensor === s.roles.a.tensor || fill.tensor === s.roles.b.tensor) return
    // A triangular domain leaves C outside it to the fill.
    if (s.roles.domain !== undefined) return
    const shape = kernel.tensors.find((t) => t.name === fill.tensor)?.shape ?? []
    const extents = [...s.roles.m, ...s.roles.n, ...s.roles.batch]
    // C's index is its role indices in some order (verify.ts): every element is written when each dimension's
    // index runs over all of it.
    const extentOf = (ix: Affine) => extents.find((e) => e.name === ix.terms[0].v)!.extent
    const whole = s.roles.c.index.every((ix, d) => equal(extentOf(ix), shape[d]))
    if (whole) found.add(fill).add(s)
  })
  return found
}

/**
 * The statements running contraction `s`: the call's sizes, its batch (extents and each operand's strides along
 * them), and one pk_gemm_<t>_run per blocking, the first whose guard holds; `overwrite`: C = A·B (the zero fill
 * before it dropped, see overwritingGemms); `onNoMemory` are the statements that release the kernel's temporaries
 * and return PK_NO_MEMORY.
 */
export function emitGemmCall(
  s: Contraction,
  plan: GemmPlan,
  names: Names,
  layout: Layout,
  depth: number,
  onNoMemory: readonly string[],
  overwrite = false,
): string[] {
  const { roles: r } = s
  const { schedule, mk } = plan
  const all = [...r.m, ...r.n, ...r.k, ...r.batch]
  if (r.batch.length > 8) throw new KernelInternalError('emit', `contraction ${s.id}: more than 8 batch indices`)
  const atZero = (ix: Affine) => all.reduce((e, role) => substitute(e, role.name, constant(0)), ix)
  const base = (a: Access): string =>
    `${names.of(a.tensor)} + ${layout.offset({ ...a, index: a.index.map(atZero) }).text}`.replace(/ \+ 0$/, '')
  // Roles' accesses are plain (verify.ts): the dimension holding index `v` is the one whose only term is `v`.
  // A tensor factor (scaleA / scaleB) lacks some of its roles' indices: it does not move along them.
  const stride = (a: Access, v: IndexRange): string => {
    const dim = a.index.findIndex((ix) => ix.terms[0].v === v.name)
    return dim === -1 ? '0' : layout.stride(a.tensor, dim).text
  }
  const extent = (ix: IndexRange) => affineCode(ix.extent, names.of).text
  // A role's GEMM dimension: the product of its indices' extents, its stride its innermost index's.
  const size = (role: readonly IndexRange[]) =>
    role.length === 1 ? extent(role[0]) : role.map((ix) => operand(affineCode(ix.extent, names.of), PREC.unary)).join('*')
  const t = r.dtype
  // A constraint as its coefficients of the m and n indices and the rest, evaluated at the call (pk_domain).
  const domainCode = (c: Constraint): string => {
    const [im, jn] = [r.m[0].name, r.n[0].name]
    const rest = { constant: c.expr.constant, terms: c.expr.terms.filter((x) => x.v !== im && x.v !== jn) }
    return `{${coeffOf(c.expr, im)}, ${coeffOf(c.expr, jn)}, ${affineCode(rest, names.of).text}, ${c.op === '==' ? 1 : 0}}`
  }
  const gather = r.layout === 'gathered'
  // A gathered call's offset tables, one after another in one allocation: [role, tensor, where it starts].
  const tables = [
    [r.m, r.a, 'pk_o'], [r.k, r.a, 'pk_o + pk_m'], [r.k, r.b, 'pk_o + pk_m + pk_k'],
    [r.n, r.b, 'pk_o + pk_m + 2*pk_k'], [r.m, r.c, 'pk_o + pk_m + 2*pk_k + pk_n'], [r.n, r.c, 'pk_o + 2*pk_m + 2*pk_k + pk_n'],
  ] as const
  // The tensor factors' tables, after those: [role, factor, where it starts, descriptor field].
  const end = 'pk_o + 2*(pk_m + pk_k + pk_n)'
  const weightTables = [
    ...(r.scaleA ? [[r.m, r.scaleA, `${end}`, 'o_sam'], [r.k, r.scaleA, `${end} + pk_m`, 'o_sak']] as const : []),
    ...(r.scaleB ? [[r.k, r.scaleB, `${end} + 2*pk_m`, 'o_sbk'], [r.n, r.scaleB, `${end} + 2*pk_m + pk_k`, 'o_sbn']] as const : []),
  ]
  const descriptor = (x: GemmBlocking) => {
    const fields = [
      base(r.a), base(r.b), base(r.c), 'pk_m', 'pk_n', 'pk_k',
      ...(gather ? [0, 0, 0, 0, 0] : [
        stride(r.a, inner(r.m)), stride(r.a, inner(r.k)), stride(r.b, inner(r.k)), stride(r.b, inner(r.n)),
        stride(r.c, inner(r.m)),
      ]),
      x.mc, x.nc, x.kc,
      overwrite ? 1 : 0,
      ...(gather ? tables.map(([, , at]) => at) : []),
      // Designated, after the positional fields: the scaled and weighted packs read them; no other code does.
      ...(r.alpha !== undefined || r.scaleA !== undefined ? [`.alpha = ${cConst(r.alpha ?? 1, t).text}`] : []),
      ...(r.scaleA ? [`.s_a = ${base(r.scaleA)}`] : []),
      ...(r.scaleB ? [`.s_b = ${base(r.scaleB)}`] : []),
      ...weightTables.map(([, , at, field]) => `.${field} = ${at}`),
      ...(r.domain !== undefined ? [`.ndom = ${r.domain.length}`, `.dom = {${r.domain.map(domainCode).join(', ')}}`] : []),
    ]
    return `&(const pk_gemm_${t}){${fields.join(', ')}}`
  }
  const run = (x: GemmBlocking) => {
    const driver = driverSymbol(driverShape(s, mk, x))
    const batch = r.batch.length > 0 ? '&pk_bt' : 'NULL'
    return `pk_gemm_${t}_run(${descriptor(x)}, ${batch}, ${driver}, ${x.parallel === 'batch' ? 1 : 0})`
  }
  const list = (f: (b: IndexRange) => string) => `{${r.batch.map(f).join(', ')}}`

  const pad = '  '.repeat(depth + 1)
  const lines = [
    `${'  '.repeat(depth)}{ /* contraction ${s.id}: ${mk.name} */`,
    `${pad}const int64_t pk_m = ${size(r.m)}, pk_n = ${size(r.n)}, pk_k = ${size(r.k)};`,
  ]
  if (r.batch.length > 0) {
    lines.push(
      `${pad}const pk_batch pk_bt = {${r.batch.length}, ${list(extent)}, ${list((b) => stride(r.a, b))}, ` +
        `${list((b) => stride(r.b, b))}, ${list((b) => stride(r.c, b))}};`,
    )
  }
  const special = schedule.special ?? []
  if (special.some((x) => x.when.minBatch !== undefined)) {
    lines.push(`${pad}const int64_t pk_batches = ${r.batch.map((b) => `(${extent(b)})`).join('*') || '1'};`)
  }
  if (gather) {
    const list = (xs: readonly string[]) => `(const int64_t[]){${xs.join(', ')}}`
    // Room for the factors' tables too (2·m + 2·k + n at most past the six).
    lines.push(`${pad}int64_t *pk_o = malloc(sizeof(int64_t)*(2*(pk_m + pk_n + pk_k)${weightTables.length > 0 ? ' + 2*pk_m + 2*pk_k + pk_n' : ''} + 1));`)
    lines.push(`${pad}if (pk_o == NULL) {`, ...onNoMemory.map((l) => `${pad}  ${l}`), `${pad}}`)
    const orders = roleOrders(r)
    const ints = (xs: readonly number[]) => `(const int[]){${xs.join(', ')}}`
    const offsets = (order: RoleOrder, a: Access, at: string) => {
      const [extents, strides] = [list(order.map((p) => extent(p.ix))), list(order.map((p) => stride(a, p.ix)))]
      if (!isTiled(order)) return `pk_offsets(${at}, ${order.length}, ${extents}, ${strides});`
      const parts = order.map((p) => ({ all: 0, blocks: 1, within: 2 })[p.part])
      const mates = order.map((p) => (p.part === 'within' ? order.findIndex((q) => q.ix === p.ix && q.part === 'blocks') : 0))
      return `pk_offsets_tiled(${at}, ${order.length}, ${extents}, ${strides}, ${ints(parts)}, ${ints(mates)});`
    }
    lines.push(...emitOrderChoice(r, orders, extent, schedule, mk, pad))
    const chosen = (name: 'm' | 'n' | 'k', variable: string) => (role: readonly IndexRange[], a: Access, at: string): string[] =>
      orders[name].length === 1
        ? [offsets(orders[name][0], a, at)]
        : orders[name].map((o, i) => `${i === 0 ? '' : 'else '}if (${variable} == ${i}) ${offsets(o, a, at)}`)
    const table: Record<'m' | 'n' | 'k', (role: readonly IndexRange[], a: Access, at: string) => string[]> = {
      m: chosen('m', 'pk_pm'),
      n: chosen('n', 'pk_pn'),
      k: chosen('k', 'pk_pk'),
    }
    for (const [role, a, at] of [...tables, ...weightTables]) {
      const name = role === r.m ? 'm' : role === r.n ? 'n' : 'k'
      lines.push(...table[name](role, a, at).map((l) => `${pad}${l}`))
    }
  }
  lines.push(`${pad}int pk_status;`)
  special.forEach(({ when, blocking }, i) => {
    const test = guardCode(when) || '1'
    lines.push(`${pad}${i === 0 ? '' : 'else '}if (${test}) /* ${describeBlocking(blocking)} */`)
    lines.push(`${pad}  pk_status = ${run(blocking)};`)
  })
  const otherwise = special.length > 0
  lines.push(`${pad}${otherwise ? 'else ' : ''}/* ${describeBlocking(schedule)} */`)
  lines.push(`${pad}${otherwise ? '  ' : ''}pk_status = ${run(schedule)};`)
  if (gather) lines.push(`${pad}free(pk_o);`)
  lines.push(`${pad}if (pk_status != PK_OK) {`, ...onNoMemory.map((l) => `${pad}  ${l}`), `${pad}}`)
  lines.push(`${'  '.repeat(depth)}}`)
  return lines
}
