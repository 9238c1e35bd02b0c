/**
 * Contractions as blocked GEMMs (BLIS / PolyDL structure). Per ISA, `emitGemmSupport` prints the tile functions of
 * each microkernel and operand layout used, its packing routines, and one shape per blocking structure (loop orders,
 * threads, packing: data, run by the one loop nest of native/polykern_gemm_member.h); a kernel's call site picks a
 * blocking from the call's sizes (the schedule's `special` guards, then its own fields) and hands the descriptor (base
 * pointers, sizes, strides read off the access maps, block sizes) with the batch's extents and strides and the
 * blocking's shape to pk_gemm_<t>_run (native/polykern_gemm_run.h).
 */
import { KernelInternalError } from '../diagnostics.ts'
import { coeffOf, constant, lastIndex, substitute } from '../ir/affine.ts'
import { equal } from '../ir/affine.ts'
import type {
  Access, Affine, Constraint, Contraction, ContractionSchedule, GemmBlocking, IndexRange, Kernel, OperandScale, SizeGuard, Stmt,
} from '../ir/nodes.ts'
import { DTYPE_BYTES } from '../analysis/loop-nest.ts'
import { slicedOf, walkStmts, zeroFillsBefore } from '../ir/walk.ts'
import { describeBlocking } from '../schedule/describe.ts'
import type { Isa } from '../targets/isa.ts'
import type { Microkernel } from '../targets/microkernel.ts'
import { C_TYPE, cConst, cExpr } from './c-expr.ts'
import { microkernelDeclaration, microkernelSymbol, type CSupport, type MicrokernelUse } from './c-microkernel.ts'
import type { RegisterEpilogue } from './c-tile-epilogue.ts'
import {
  emitGatherA, emitGatherB, emitPackA, emitPackB, emitScaledGatherA, emitScaledPackA, emitWeightedGather, gatherASymbol,
  gatherBSymbol, packASymbol, packBSymbol, scaledGatherASymbol, scaledPackASymbol, weightedGatherSymbol,
} from './c-pack.ts'
import { blockCode, isTiled, orderCostTerms, roleOrders, slabCode, type RoleOrder, type RoleOrders } from '../schedule/role-orders.ts'
import type { Layout } from './layout.ts'
import type { Names } from './names.ts'
import { PREC, affineCode, operand } from './syntax.ts'

export interface GemmPlan {
  readonly schedule: ContractionSchedule
  readonly mk: Microkernel
}

/** The largest register tile the loop nest holds (PK_GEMM_MAX_MR, PK_GEMM_MAX_NR in native/polykern_gemm_member.h). */
const MAX_TILE = { mr: 16, nr: 64 }

/** The schedule of `s` for `isa` and its microkernel, or undefined when `isa` runs the loop nest. */
export function gemmPlan(s: Contraction, isa: Isa): GemmPlan | undefined {
  const schedule = s.schedules.find((x) => x.isa === isa.name)
  if (schedule === undefined) return undefined
  for (const { blocking: x, mk } of blockings(s, isa, schedule)) {
    if (x.mc % mk.mr !== 0 || x.nc % mk.nr !== 0) {
      throw new KernelInternalError('emit', `contraction ${s.id}: mc ${x.mc} / nc ${x.nc} not whole tiles`)
    }
    if ([...x.order].sort().join('') !== 'kmn') {
      throw new KernelInternalError('emit', `contraction ${s.id}: block loop order ${x.order.join('')}`)
    }
  }
  return { schedule, mk: microkernelOf(s, isa, schedule.microkernel) }
}

/** `isa`'s microkernel `name`, checked against the contraction's dtype and the loop nest's largest tile. */
function microkernelOf(s: Contraction, isa: Isa, name: string): Microkernel {
  const mk = isa.microkernels.find((m) => m.name === name)
  if (mk === undefined || mk.dtype !== s.roles.dtype) {
    throw new KernelInternalError('emit', `${isa.name} has no ${s.roles.dtype} microkernel '${name}'`)
  }
  if (mk.mr > MAX_TILE.mr || mk.nr > MAX_TILE.nr) {
    throw new KernelInternalError('emit', `microkernel ${mk.name}: ${mk.mr}x${mk.nr} tiles exceed the loop nest's ${MAX_TILE.mr}x${MAX_TILE.nr}`)
  }
  return mk
}

/** The special blockings, then the schedule's own, each with its microkernel: the order the call site tries them in. */
const blockings = (s: Contraction, isa: Isa, x: ContractionSchedule): readonly { blocking: GemmBlocking; mk: Microkernel }[] => [
  ...(x.special ?? []).map((y) => ({ blocking: y.blocking, mk: microkernelOf(s, isa, y.microkernel ?? x.microkernel) })),
  { blocking: x, mk: microkernelOf(s, isa, x.microkernel) },
]

/** A blocking's loop nest: the blocking without its block sizes, with the packing the operands allow. */
interface GemmShape {
  readonly mk: Microkernel
  readonly order: GemmBlocking['order']
  readonly inner: GemmBlocking['inner']
  /** `batch` runs whole GEMMs on the threads, so its loop nest is serial. */
  readonly parallel: 'm' | 'n' | 'none'
  readonly packA: boolean
  readonly packB: boolean
  /** Operands packed through the roles' offset tables and C stored through them (a `gathered` contraction). */
  readonly gather: boolean
  /** A is multiplied by the product's constant factor while packed (ContractionRoles.alpha). */
  readonly scaled: boolean
  /** C's tiles are masked by a triangular domain (ContractionRoles.domain). */
  readonly masked: boolean
  /** Each operand's tensor factor, multiplied or divided while gathered (ContractionRoles.scaleA / scaleB). */
  readonly weighted: Readonly<Record<Operand, OperandScale | undefined>>
}

/** A role's innermost index: the one whose stride is the role's (ContractionRoles). */
const inner = (role: readonly IndexRange[]): IndexRange => role[role.length - 1]

function gemmShape(s: Contraction, mk: Microkernel, x: GemmBlocking): GemmShape {
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
    weighted: { a: r.scaleA, b: r.scaleB },
  }
}

const weightCode = (d: GemmShape, o: Operand): string => (d.weighted[o] === undefined ? '' : `_${d.weighted[o].divides ? 'd' : 'w'}${o}`)

const shapeSymbol = (d: GemmShape): string =>
  `pk_${d.mk.name}_${d.order.join('')}_${d.inner}_${d.parallel}_${d.packA ? 'p' : 'u'}${d.packB ? 'p' : 'u'}${d.gather ? '_g' : ''}` +
  (d.scaled ? '_s' : '') + (d.masked ? '_t' : '') + weightCode(d, 'a') + weightCode(d, 'b')

/** The helpers `isa`'s contractions in `kernels` call, each once: packs and shapes printed, tile families declared. */
export function emitGemmSupport(kernels: readonly Kernel[], isa: Isa): CSupport {
  const uses = new Map<string, MicrokernelUse>()
  const packs = new Map<string, string>()
  const shapes = new Map<string, string>()
  function addSupport(s: Contraction): void {
    const plan = gemmPlan(s, isa)
    if (plan === undefined) return
    for (const { blocking: x, mk } of blockings(s, isa, plan.schedule)) {
      const d = gemmShape(s, mk, x)
      for (const scatterC of d.gather ? [false, true] : [false]) {
        const use = { mk: d.mk, packA: d.packA, packB: d.packB, scatterC }
        uses.set(microkernelSymbol(use), use)
      }
      const first = firstTileUse(d)
      if (first !== undefined) uses.set(microkernelSymbol(first), first)
      for (const o of ['a', 'b'] as const) {
        const pack = packOf(d, o)
        if (pack !== undefined) packs.set(pack.symbol, pack.emit(d.mk))
      }
      const symbol = shapeSymbol(d)
      if (!shapes.has(symbol)) shapes.set(symbol, emitShape(d))
    }
  }
  for (const kernel of kernels) {
    walkStmts(kernel.body, (stmt) => {
      if (stmt.kind !== 'contraction') return
      for (const s of [stmt, ...(stmt.sliced ? [slicedOf(stmt)] : [])]) addSupport(s)
    })
  }
  const families = [...uses.values()]
  return { code: [...families.map(microkernelDeclaration), ...packs.values(), ...shapes.values()].join('\n'), families }
}

/** The family the first tile over each packed B panel runs (MicrokernelUse.fetchB), for shapes that tile plainly. */
const firstTileUse = (d: GemmShape): MicrokernelUse | undefined =>
  d.packB && !d.gather && !d.masked ? { mk: d.mk, packA: d.packA, packB: true, fetchB: true } : undefined

type Operand = 'a' | 'b'

/** An operand's packing routine: its symbol, its C, and its field in the shape's packs (polykern_gemm_member.h). */
interface Pack {
  readonly symbol: string
  readonly emit: (mk: Microkernel) => string
  readonly kind: 'plain' | 'scaled' | 'gather' | 'scaled_gather' | 'weighted'
}

/**
 * An operand's packing routine, or undefined when it is read in place: gathered or strided; A scaled by the
 * constant factor; either weighted by a tensor factor (gathered only; A's weighted gather applies alpha too).
 */
function packOf(d: GemmShape, o: Operand): Pack | undefined {
  const weight = d.weighted[o]
  if (weight !== undefined) {
    return { symbol: weightedGatherSymbol(d.mk, o, weight.divides), emit: (mk) => emitWeightedGather(mk, o, weight.divides), kind: 'weighted' }
  }
  if (o === 'b') {
    if (d.gather) return { symbol: gatherBSymbol(d.mk), emit: emitGatherB, kind: 'gather' }
    return d.packB ? { symbol: packBSymbol(d.mk), emit: emitPackB, kind: 'plain' } : undefined
  }
  if (d.gather) {
    return d.scaled
      ? { symbol: scaledGatherASymbol(d.mk), emit: emitScaledGatherA, kind: 'scaled_gather' }
      : { symbol: gatherASymbol(d.mk), emit: emitGatherA, kind: 'gather' }
  }
  if (d.scaled) return { symbol: scaledPackASymbol(d.mk), emit: emitScaledPackA, kind: 'scaled' }
  return d.packA ? { symbol: packASymbol(d.mk), emit: emitPackA, kind: 'plain' } : undefined
}

const DIM_CODE = { m: 'PK_GEMM_M', n: 'PK_GEMM_N', k: 'PK_GEMM_K', none: 'PK_GEMM_NONE' } as const

/** An operand's packs as the shape's designated initializer ({0}: read in place). */
function packsCode(d: GemmShape, o: Operand): string {
  const pack = packOf(d, o)
  return pack === undefined ? '{0}' : `{.${pack.kind} = ${pack.symbol}}`
}

/**
 * A blocking's loop nest as data: `static const pk_gemm_<t>_shape <symbol>`, run by native/polykern_gemm_member.h
 * (block loops in its order, operands packed by its routines, tiles by its microkernels).
 */
function emitShape(d: GemmShape): string {
  const { mk } = d
  const tile = microkernelSymbol({ mk, packA: d.packA, packB: d.packB })
  const fields = [
    `.mr = ${mk.mr}, .nr = ${mk.nr}, .lanes = ${mk.lanes}, .order = {${d.order.map((l) => DIM_CODE[l]).join(', ')}},`,
    `.m_tiles_outer = ${d.inner === 'mn' ? 1 : 0}, .parallel = ${DIM_CODE[d.parallel]}, .gather = ${d.gather ? 1 : 0}, .masked = ${d.masked ? 1 : 0},`,
    `.pack = {${packsCode(d, 'a')}, ${packsCode(d, 'b')}},`,
    `.tile = ${tile}${d.gather ? `, .scatter = ${microkernelSymbol({ mk, packA: d.packA, packB: d.packB, scatterC: true })}` : ''},`,
  ]
  const first = firstTileUse(d)
  if (first !== undefined) fields.push(`.first_tile = ${microkernelSymbol(first)},`)
  return [`static const pk_gemm_${mk.dtype}_shape ${shapeSymbol(d)} = {`, ...fields.map((f) => `  ${f}`), '};', ''].join('\n')
}

/**
 * `pk_pm`, `pk_pn` and `pk_pk`: the candidate orders (schedule/role-orders.ts) that cost least at the call's extents,
 * the first of least cost. Each tensor's term is priced once per pair of orders it depends on, in a table, then the
 * triples are summed in a loop: with one expression per triple, the TCCG bench's 51 kernels took 35 s to build cold,
 * with the tables 26 s (AMD Zen 5).
 */
function emitOrderChoice(
  r: Contraction['roles'],
  orders: RoleOrders,
  extent: (ix: IndexRange) => string,
  blocks: GemmBlocking,
  mk: Microkernel,
  pad: string,
): string[] {
  const { m: ms, n: ns, k: ks } = orders
  if (ms.length * ns.length * ks.length === 1) return []
  const sizes = { ...blocks, mr: mk.mr, nr: mk.nr, bytes: DTYPE_BYTES[mk.dtype], lanes: mk.lanes }
  const terms = (h: number, i: number, j: number) => orderCostTerms(r, ms[h], ns[i], ks[j], extent, sizes)
  const table = (name: string, rows: number, cols: number, term: (x: number, y: number) => string) =>
    `${pad}const double ${name}[${rows}][${cols}] = {${Array.from({ length: rows }, (_, x) =>
      `{${Array.from({ length: cols }, (_, y) => term(x, y)).join(', ')}}`).join(', ')}};`
  return [
    table('pk_cost_c', ms.length, ns.length, (h, i) => terms(h, i, 0).c),
    table('pk_cost_b', ns.length, ks.length, (i, j) => terms(0, i, j).b),
    table('pk_cost_a', ms.length, ks.length, (h, j) => terms(h, 0, j).a),
    `${pad}int pk_pm = 0, pk_pn = 0, pk_pk = 0;`,
    `${pad}double pk_least = pk_cost_c[0][0] + pk_cost_b[0][0] + pk_cost_a[0][0];`,
    `${pad}for (int h = 0; h < ${ms.length}; h++)`,
    `${pad}  for (int i = 0; i < ${ns.length}; i++)`,
    `${pad}    for (int j = 0; j < ${ks.length}; j++) {`,
    `${pad}      const double pk_cost = pk_cost_c[h][i] + pk_cost_b[i][j] + pk_cost_a[h][j];`,
    `${pad}      if (pk_cost < pk_least) pk_least = pk_cost, pk_pm = h, pk_pn = i, pk_pk = j;`,
    `${pad}    }`,
    `${pad}(void)pk_pm, (void)pk_pn, (void)pk_pk;`,
  ]
}

/**
 * A guard as a C condition on the call's sizes, `b` (its B operand) and `bRowBytes` (B's k stride in bytes); '' when
 * it always holds.
 */
function guardCode(w: SizeGuard, b: string, bRowBytes: string): string {
  const tests = [
    w.minM === undefined ? '' : `pk_m >= ${w.minM}`,
    w.maxM === undefined ? '' : `pk_m <= ${w.maxM}`,
    w.maxN === undefined ? '' : `pk_n <= ${w.maxN}`,
    w.maxK === undefined ? '' : `pk_k <= ${w.maxK}`,
    w.maxWork === undefined ? '' : `(double)pk_m*(double)pk_n*(double)pk_k <= ${w.maxWork}`,
    w.minBatch === undefined ? '' : `pk_batches >= ${w.minBatch}`,
    w.boundB === undefined ? '' : `${w.boundB ? '' : '!'}pk_bound_holds(${b})`,
    w.spreadB === undefined ? '' : `!pk_rows_share_sets(${bRowBytes}, pk_min64(pk_k, ${w.spreadB.rows}), ${w.spreadB.lines})`,
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
  for (const { fill, next: s, shape } of zeroFillsBefore(body, kernel)) {
    if (s.kind !== 'contraction' || gemmPlan(s, isa) === undefined || fill.tensor !== s.roles.c.tensor) continue
    // A factor that is C itself would read the zeros.
    if (fill.tensor === s.roles.a.tensor || fill.tensor === s.roles.b.tensor) continue
    // A triangular domain leaves C outside it to the fill.
    if (s.roles.domain !== undefined) continue
    const extents = [...s.roles.m, ...s.roles.n, ...s.roles.batch]
    // C's index is its role indices in some order (verify.ts): every element is written when each dimension's
    // index runs over all of it.
    const extentOf = (ix: Affine) => extents.find((e) => e.name === ix.terms[0].v)!.extent
    const whole = s.roles.c.index.every((ix, d) => equal(extentOf(ix), shape[d]))
    if (whole) found.add(fill).add(s)
  }
  return found
}

/**
 * The statements running contraction `s`: with a sliced form that has a schedule for `isa`, its calls of few rows
 * run that and the others `s`'s own form (emitFormCall).
 */
export function emitGemmCall(
  s: Contraction,
  isa: Isa,
  plan: GemmPlan,
  names: Names,
  layout: Layout,
  depth: number,
  onNoMemory: readonly string[],
  overwrite = false,
  epilogue?: RegisterEpilogue,
): string[] {
  const site: CallSite = { names, layout, depth, onNoMemory, overwrite, epilogue }
  const sliced = s.sliced ? slicedOf(s) : undefined
  const slicedPlan = sliced && gemmPlan(sliced, isa)
  if (sliced === undefined || slicedPlan === undefined) return emitFormCall(s, isa, plan, site)
  const pad = '  '.repeat(depth)
  const rows = s.sliced!.maxRowTiles * plan.mk.mr
  const nested = { ...site, depth: depth + 1 }
  return [
    `${pad}if (${roleSize(s.roles.m, names)} <= ${rows}) {`,
    ...emitFormCall(sliced, isa, slicedPlan, nested),
    `${pad}} else {`,
    ...emitFormCall(s, isa, plan, nested),
    `${pad}}`,
  ]
}

/** Where a contraction's call is printed, and how (emitGemmCall's parameters). */
interface CallSite {
  readonly names: Names
  readonly layout: Layout
  readonly depth: number
  readonly onNoMemory: readonly string[]
  readonly overwrite: boolean
  readonly epilogue: RegisterEpilogue | undefined
}

/** A role's GEMM dimension as C: the product of its indices' extents. */
const roleSize = (role: readonly IndexRange[], names: Names): string =>
  role.length === 1
    ? affineCode(role[0].extent, names.of).text
    : role.map((ix) => operand(affineCode(ix.extent, names.of), PREC.unary)).join('*')

/**
 * The statements running one form of contraction `s`: the call's sizes, its batch (extents and each operand's
 * strides along them), and one pk_gemm_<t>_run with the first blocking whose guard holds; `overwrite`: C = A·B (the
 * zero fill before it dropped, see overwritingGemms); `onNoMemory` are the statements that release the kernel's
 * temporaries and return PK_NO_MEMORY; `epilogue`: the last k block's tiles apply it (c-tile-epilogue.ts).
 */
function emitFormCall(s: Contraction, isa: Isa, plan: GemmPlan, site: CallSite): string[] {
  const { names, layout, depth, onNoMemory, overwrite, epilogue } = site
  const { roles: r } = s
  const { schedule, mk } = plan
  const all = [...r.m, ...r.n, ...r.k, ...r.batch]
  if (r.batch.length > 8) throw new KernelInternalError('emit', `contraction ${s.id}: more than 8 batch indices`)
  const atZero = (ix: Affine) => all.reduce((e, role) => substitute(e, role.name, constant(0)), ix)
  const base = (a: Access): string =>
    `${names.of(a.tensor)} + ${layout.offset({ ...a, index: a.index.map(atZero) }).text}`.replace(/ \+ 0$/, '')
  // Roles' accesses are plain (verify.ts): the stride along index `v` is its one dimension's.
  // A tensor factor (scaleA / scaleB) lacks some of its roles' indices: it does not move along them.
  const stride = (a: Access, v: IndexRange): string => layout.strideAlong(a, v.name)?.text ?? '0'
  const extent = (ix: IndexRange) => affineCode(ix.extent, names.of).text
  // A role's GEMM dimension, its stride its innermost index's.
  const size = (role: readonly IndexRange[]) => roleSize(role, names)
  const t = r.dtype
  // A constraint as its coefficients of the m and n indices and the rest, evaluated at the call (pk_domain).
  const domainCode = (c: Constraint): string => {
    const [im, jn] = [r.m[0].name, r.n[0].name]
    const rest = { constant: c.expr.constant, terms: c.expr.terms.filter((x) => x.v !== im && x.v !== jn) }
    return `{${coeffOf(c.expr, im)}, ${coeffOf(c.expr, jn)}, ${affineCode(rest, names.of).text}, ${c.op === '==' ? 1 : 0}}`
  }
  const gather = r.layout === 'gathered'
  // A gathered call's offset tables, one after another in one allocation: [role, tensor, where it starts, descriptor field].
  const tables = [
    [r.m, r.a, 'pk_o', 'o_am'], [r.k, r.a, 'pk_o + pk_m', 'o_ak'], [r.k, r.b, 'pk_o + pk_m + pk_k', 'o_bk'],
    [r.n, r.b, 'pk_o + pk_m + 2*pk_k', 'o_bn'], [r.m, r.c, 'pk_o + pk_m + 2*pk_k + pk_n', 'o_cm'],
    [r.n, r.c, 'pk_o + 2*pk_m + 2*pk_k + pk_n', 'o_cn'],
  ] as const
  // The tensor factors' tables, after those: [role, factor, where it starts, descriptor field].
  const end = 'pk_o + 2*(pk_m + pk_k + pk_n)'
  const weightTables = [
    ...(r.scaleA ? [[r.m, r.scaleA.by, `${end}`, 'o_sam'], [r.k, r.scaleA.by, `${end} + pk_m`, 'o_sak']] as const : []),
    ...(r.scaleB ? [[r.k, r.scaleB.by, `${end} + 2*pk_m`, 'o_sbk'], [r.n, r.scaleB.by, `${end} + 2*pk_m + pk_k`, 'o_sbn']] as const : []),
  ]
  // Designated, each field named (the struct's others are zero): strides for a strided call, tables for a gathered one.
  const descriptorFields = [
    `.a = ${base(r.a)}`, `.b = ${base(r.b)}`, `.c = ${base(r.c)}`, '.m = pk_m', '.n = pk_n', '.k = pk_k',
    ...(gather ? [] : [
      `.a_m = ${stride(r.a, inner(r.m))}`, `.a_k = ${stride(r.a, inner(r.k))}`, `.b_k = ${stride(r.b, inner(r.k))}`,
      `.b_n = ${stride(r.b, inner(r.n))}`, `.c_m = ${stride(r.c, inner(r.m))}`,
    ]),
    '.mc = pk_mc', '.nc = pk_nc', '.kc = pk_kc',
    ...(overwrite ? ['.overwrite = 1'] : []),
    ...(gather ? tables.map(([, , at, field]) => `.${field} = ${at}`) : []),
    // The scaled and weighted packs read these; no other code does.
    ...(r.alpha !== undefined || r.scaleA !== undefined ? [`.alpha = ${r.alpha ? cExpr(r.alpha, names, layout).text : cConst(1, t).text}`] : []),
    ...(r.scaleA ? [`.s_a = ${base(r.scaleA.by)}`] : []),
    ...(r.scaleB ? [`.s_b = ${base(r.scaleB.by)}`] : []),
    ...weightTables.map(([, , at, field]) => `.${field} = ${at}`),
    ...(r.domain !== undefined ? [`.ndom = ${r.domain.length}`, `.dom = {${r.domain.map(domainCode).join(', ')}}`] : []),
    ...(epilogue ? ['.final = pk_final', '.final_ctx = &pk_gectx'] : []),
  ]
  const descriptor = `&(const pk_gemm_${t}){${descriptorFields.join(', ')}}`
  // The blockings differ only in their shape and block sizes: one call, after the guards chose those (one call site
  // instead of one per blocking keeps the function small enough for gcc; a 5-factor kernel's took 29 s to compile).
  const special = schedule.special ?? []
  const tried = blockings(s, isa, schedule)
  const across = tried.some(({ blocking: x }) => x.parallel === 'batch')
  // With an epilogue, the last k block's tiles are the family on the blocking's operand layouts that applies it.
  const finalOf = (d: GemmShape) => epilogue!.family({ mk: d.mk, packA: d.packA, packB: d.packB, epilogue: epilogue!.tiles })
  const choose = ({ blocking: x, mk: on }: { blocking: GemmBlocking; mk: Microkernel }) => {
    const d = gemmShape(s, on, x)
    return `pk_shape = &${shapeSymbol(d)}, pk_mc = ${x.mc}, pk_nc = ${x.nc}, pk_kc = ${x.kc}` +
      (across ? `, pk_across = ${x.parallel === 'batch' ? 1 : 0}` : '') + (epilogue ? `, pk_final = ${finalOf(d)}` : '') + ';'
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
  if (special.some((x) => x.when.minBatch !== undefined)) {
    lines.push(`${pad}const int64_t pk_batches = ${r.batch.map((b) => `(${extent(b)})`).join('*') || '1'};`)
  }
  if (gather) {
    const list = (xs: readonly string[]) => `(const int64_t[]){${xs.join(', ')}}`
    const orders = roleOrders(r)
    lines.push(...emitOrderChoice(r, orders, extent, schedule, mk, pad))
    // The tables are built from their indices' extents and strides alone (the order choice and the tiled orders'
    // blocks from the extents): kept for this contraction's next call with the same (native pk_table_memo).
    const key = [...tables, ...weightTables].flatMap(([role, a]) => role.flatMap((ix) => [extent(ix), stride(a, ix)]))
    lines.push(
      `${pad}static char pk_tables_owner;`,
      `${pad}const int64_t pk_key[] = {${key.join(', ')}};`,
      `${pad}int pk_fresh;`,
      // Room for the factors' tables too (2·m + 2·k + n at most past the six).
      `${pad}int64_t *const pk_o = pk_table_memo(&pk_tables_owner, ${key.length}, pk_key, ` +
        `2*(pk_m + pk_n + pk_k)${weightTables.length > 0 ? ' + 2*pk_m + 2*pk_k + pk_n' : ''} + 1, &pk_fresh);`,
    )
    lines.push(`${pad}if (pk_o == NULL) {`, ...onNoMemory.map((l) => `${pad}  ${l}`), `${pad}}`)
    const ints = (xs: readonly number[]) => `(const int[]){${xs.join(', ')}}`
    const offsets = (order: RoleOrder, a: Access, at: string) => {
      const [extents, strides] = [list(order.map((p) => extent(p.ix))), list(order.map((p) => stride(a, p.ix)))]
      if (!isTiled(order)) return `pk_offsets(${at}, ${order.length}, ${extents}, ${strides});`
      const parts = order.map((p) => ({ all: 0, blocks: 1, within: 2 })[p.part])
      const mates = order.map((p) => (p.part === 'within' ? order.findIndex((q) => q.ix === p.ix && q.part === 'blocks') : 0))
      const blocks = list(order.map((p) => (p.part === 'blocks' ? blockCode(r, p, extent, mk.lanes) : '0')))
      return `pk_offsets_tiled(${at}, ${order.length}, ${extents}, ${strides}, ${ints(parts)}, ${ints(mates)}, ${blocks});`
    }
    const chosen = (name: 'm' | 'n' | 'k', variable: string) => (role: readonly IndexRange[], a: Access, at: string): string[] =>
      orders[name].length === 1
        ? [offsets(orders[name][0], a, at)]
        : orders[name].map((o, i) => `${i === 0 ? '' : 'else '}if (${variable} == ${i}) ${offsets(o, a, at)}`)
    const table: Record<'m' | 'n' | 'k', (role: readonly IndexRange[], a: Access, at: string) => string[]> = {
      m: chosen('m', 'pk_pm'),
      n: chosen('n', 'pk_pn'),
      k: chosen('k', 'pk_pk'),
    }
    lines.push(`${pad}if (pk_fresh) {`)
    for (const [role, a, at] of [...tables, ...weightTables]) {
      const name = role === r.m ? 'm' : role === r.n ? 'n' : 'k'
      lines.push(...table[name](role, a, at).map((l) => `${pad}  ${l}`))
    }
    lines.push(`${pad}}`)
  }
  lines.push(`${pad}const pk_gemm_${t}_shape *pk_shape;`, `${pad}int64_t pk_mc, pk_nc, pk_kc;`)
  if (across) lines.push(`${pad}int pk_across;`)
  if (epilogue) lines.push(`${pad}pk_gemm_${t}_final_fn pk_final;`, ...epilogue.context.map((l) => `${pad}${l}`))
  special.forEach(({ when, blocking, microkernel }, i) => {
    const test = guardCode(when, base(r.b), `(int64_t)sizeof(${C_TYPE[t]})*(${stride(r.b, inner(r.k))})`) || '1'
    lines.push(`${pad}${i === 0 ? '' : 'else '}if (${test}) /* ${describeBlocking(blocking)}${microkernel ? `, on ${microkernel}` : ''} */`)
    lines.push(`${pad}  ${choose(tried[i])}`)
  })
  const otherwise = special.length > 0
  lines.push(`${pad}${otherwise ? 'else ' : ''}/* ${describeBlocking(schedule)} */`)
  lines.push(`${pad}${otherwise ? '  ' : ''}${choose(tried[tried.length - 1])}`)
  // A pitched n order's block is its slab (schedule/role-orders.ts pitched).
  const nOrders = gather ? roleOrders(r).n : []
  nOrders.forEach((o, i) => {
    const slab = slabCode(r, o, extent, mk.lanes)
    if (slab === undefined) return
    const when = nOrders.length === 1 ? '' : `if (pk_pn == ${i}) `
    lines.push(`${pad}${when}pk_nc = pk_slab_nc(pk_nc, ${slab}, ${mk.nr}, pk_min64(pk_k, pk_kc), sizeof(${C_TYPE[mk.dtype]}));`)
  })
  const batch = r.batch.length > 0 ? '&pk_bt' : 'NULL'
  lines.push(`${pad}const int pk_status = pk_gemm_${t}_run(${descriptor}, ${batch}, pk_shape, ${across ? 'pk_across' : 0});`)
  lines.push(`${pad}if (pk_status != PK_OK) {`, ...onNoMemory.map((l) => `${pad}  ${l}`), `${pad}}`)
  lines.push(`${'  '.repeat(depth)}}`)
  return lines
}
