/**
 * A `vector` loop as explicit SIMD code for one ISA (Vyasa's vector code, not GCC's auto-vectorizer): a full
 * register of lanes (16 f32 / 8 f64 on AVX-512, 8 / 4 on AVX2), loop-invariant subexpressions computed once and
 * broadcast, unit-stride loads and stores, reductions into vector accumulators (two per reduction, for the adder's
 * latency) combined horizontally after the loop, and one masked iteration for the tail (AVX-512 lane masks; AVX2
 * maskload/maskstore). Math functions and NaN-propagating max/min come from native/polykern_vmath.h.
 * Reductions are reassociated and exp/log/tanh/sigmoid are within a few ulp of libm; the rest is the scalar loop's
 * arithmetic, lane by lane, bit for bit (one rounding per operation, no FMA, a division stays a division).
 * Undefined, so c.ts prints the loop serially, when the ISA has no vector unit or the body needs something this file
 * has no vector form of (i32 lanes, mixed element types, `%`, `pow`).
 */
import { coeffOf, varsOf } from '../ir/affine.ts'
import { identityOf } from '../spec/build-ir.ts'
import type { Access, AssignOp, BinOp, Bound, DType, Expr, Kernel, Loop, Store } from '../ir/nodes.ts'
import { perfectNest, walkExpr, walkStmts } from '../ir/walk.ts'
import type { Isa, IsaName } from '../targets/isa.ts'
import { instantiate } from '../targets/microkernel.ts'
import { C_TYPE, cConst, cExpr } from './c-expr.ts'
import type { Layout } from './layout.ts'
import type { Names } from './names.ts'
import type { Code } from './syntax.ts'

/** C templates over `$a $b` (vectors), `$p` (a pointer), `$m` (a lane mask), `$n` (a lane count), `$x` (a scalar). */
interface SimdOps {
  readonly lanes: number
  readonly vector: string
  readonly mask: string
  /** Suffix of the polykern_vmath.h helpers for this vector type: `pk_vexp_ps512`. */
  readonly suffix: string
  readonly set1: string
  readonly load: string
  readonly store: string
  readonly maskedLoad: string
  readonly maskedStore: string
  /** The mask of lanes [0, $n). */
  readonly firstLanes: string
  /** A scalar condition as an all-lanes or no-lanes mask. */
  readonly broadcastMask: string
  readonly arith: Readonly<Record<'add' | 'sub' | 'mul' | 'div', string>>
  readonly sqrt: string
  /** `$a $op $b` into a mask, `$c` the _CMP_ predicate. */
  readonly compare: string
  readonly and: string
  readonly or: string
  readonly not: string
  /** Lanes of `$b` where `$m` is set, of `$a` elsewhere. */
  readonly blend: string
}

const AVX512_PS: SimdOps = {
  lanes: 16, vector: '__m512', mask: '__mmask16', suffix: 'ps512',
  set1: '_mm512_set1_ps($x)', load: '_mm512_loadu_ps($p)', store: '_mm512_storeu_ps($p, $a)',
  maskedLoad: '_mm512_maskz_loadu_ps($m, $p)', maskedStore: '_mm512_mask_storeu_ps($p, $m, $a)',
  firstLanes: '(__mmask16)((1u << ($n)) - 1u)', broadcastMask: '(__mmask16)(($x) ? 0xffffu : 0u)',
  arith: { add: '_mm512_add_ps($a, $b)', sub: '_mm512_sub_ps($a, $b)', mul: '_mm512_mul_ps($a, $b)', div: '_mm512_div_ps($a, $b)' },
  sqrt: '_mm512_sqrt_ps($a)', compare: '_mm512_cmp_ps_mask($a, $b, $c)',
  and: '(__mmask16)($a & $b)', or: '(__mmask16)($a | $b)', not: '(__mmask16)~$a', blend: '_mm512_mask_blend_ps($m, $a, $b)',
}

const AVX512_PD: SimdOps = {
  lanes: 8, vector: '__m512d', mask: '__mmask8', suffix: 'pd512',
  set1: '_mm512_set1_pd($x)', load: '_mm512_loadu_pd($p)', store: '_mm512_storeu_pd($p, $a)',
  maskedLoad: '_mm512_maskz_loadu_pd($m, $p)', maskedStore: '_mm512_mask_storeu_pd($p, $m, $a)',
  firstLanes: '(__mmask8)((1u << ($n)) - 1u)', broadcastMask: '(__mmask8)(($x) ? 0xffu : 0u)',
  arith: { add: '_mm512_add_pd($a, $b)', sub: '_mm512_sub_pd($a, $b)', mul: '_mm512_mul_pd($a, $b)', div: '_mm512_div_pd($a, $b)' },
  sqrt: '_mm512_sqrt_pd($a)', compare: '_mm512_cmp_pd_mask($a, $b, $c)',
  and: '(__mmask8)($a & $b)', or: '(__mmask8)($a | $b)', not: '(__mmask8)~$a', blend: '_mm512_mask_blend_pd($m, $a, $b)',
}

const AVX2_PS: SimdOps = {
  lanes: 8, vector: '__m256', mask: '__m256', suffix: 'ps256',
  set1: '_mm256_set1_ps($x)', load: '_mm256_loadu_ps($p)', store: '_mm256_storeu_ps($p, $a)',
  maskedLoad: '_mm256_maskload_ps($p, _mm256_castps_si256($m))',
  maskedStore: '_mm256_maskstore_ps($p, _mm256_castps_si256($m), $a)',
  firstLanes: '_mm256_castsi256_ps(_mm256_cmpgt_epi32(_mm256_set1_epi32((int)($n)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)))',
  broadcastMask: '_mm256_castsi256_ps(_mm256_set1_epi32(($x) ? -1 : 0))',
  arith: { add: '_mm256_add_ps($a, $b)', sub: '_mm256_sub_ps($a, $b)', mul: '_mm256_mul_ps($a, $b)', div: '_mm256_div_ps($a, $b)' },
  sqrt: '_mm256_sqrt_ps($a)', compare: '_mm256_cmp_ps($a, $b, $c)',
  and: '_mm256_and_ps($a, $b)', or: '_mm256_or_ps($a, $b)', not: '_mm256_xor_ps($a, _mm256_castsi256_ps(_mm256_set1_epi32(-1)))',
  blend: '_mm256_blendv_ps($a, $b, $m)',
}

const AVX2_PD: SimdOps = {
  lanes: 4, vector: '__m256d', mask: '__m256d', suffix: 'pd256',
  set1: '_mm256_set1_pd($x)', load: '_mm256_loadu_pd($p)', store: '_mm256_storeu_pd($p, $a)',
  maskedLoad: '_mm256_maskload_pd($p, _mm256_castpd_si256($m))',
  maskedStore: '_mm256_maskstore_pd($p, _mm256_castpd_si256($m), $a)',
  firstLanes: '_mm256_castsi256_pd(_mm256_cmpgt_epi64(_mm256_set1_epi64x($n), _mm256_setr_epi64x(0, 1, 2, 3)))',
  broadcastMask: '_mm256_castsi256_pd(_mm256_set1_epi64x(($x) ? -1 : 0))',
  arith: { add: '_mm256_add_pd($a, $b)', sub: '_mm256_sub_pd($a, $b)', mul: '_mm256_mul_pd($a, $b)', div: '_mm256_div_pd($a, $b)' },
  sqrt: '_mm256_sqrt_pd($a)', compare: '_mm256_cmp_pd($a, $b, $c)',
  and: '_mm256_and_pd($a, $b)', or: '_mm256_or_pd($a, $b)', not: '_mm256_xor_pd($a, _mm256_castsi256_pd(_mm256_set1_epi64x(-1)))',
  blend: '_mm256_blendv_pd($a, $b, $m)',
}

/** Vector forms per ISA and element type; an ISA or type missing here runs its vector loops serially. */
const SIMD: Readonly<Record<IsaName, Partial<Record<DType, SimdOps>>>> = {
  avx512: { f32: AVX512_PS, f64: AVX512_PD },
  avx2: { f32: AVX2_PS, f64: AVX2_PD },
  scalar: {},
}

/** IR comparisons as ordered predicates (false on NaN), but `!=`, which is true on NaN as in JS and C. */
const PREDICATE: Partial<Record<BinOp, string>> = {
  lt: '_CMP_LT_OQ', le: '_CMP_LE_OQ', gt: '_CMP_GT_OQ', ge: '_CMP_GE_OQ', eq: '_CMP_EQ_OQ', ne: '_CMP_NEQ_UQ',
}

const HORIZONTAL: Readonly<Record<Exclude<AssignOp, '='>, string>> = { '+=': 'sum', '*=': 'prod', 'max=': 'max', 'min=': 'min' }

/** Whether any kernel has a vector loop, so the vector ISAs' files need polykern_vmath.h. */
export const usesVectorLoops = (kernels: readonly Kernel[]): boolean =>
  kernels.some((k) => {
    let found = false
    walkStmts(k.body, (s) => void (found ||= s.kind === 'loop' && s.mode === 'vector'))
    return found
  })

export interface VectorLoopContext {
  readonly isa: Isa
  readonly names: Names
  readonly layout: Layout
  readonly bound: (b: Bound) => Code
}

/** The lines of a `vector` loop at indentation `depth`, or undefined when this ISA runs it serially. */
export function emitVectorLoop(loop: Loop, depth: number, ctx: VectorLoopContext): string[] | undefined {
  // Around a nest of reduction loops, each stored element's lanes accumulate in a register across the nest.
  const nest = perfectNest(loop)
  const stores = nest?.stores ?? (loop.body as readonly Store[])
  const dtype = elementType(stores)
  const ops = dtype && SIMD[ctx.isa.name][dtype]
  if (!ops || !stores.every((s) => supported(s.value))) return undefined
  const { names, layout } = ctx
  const v = names.of(loop.v)
  const t = instantiate
  const movesWith = (a: Access) => a.index.some((ix) => coeffOf(ix, loop.v) !== 0)
  const moves = (e: Expr) => {
    let moving = false
    walkExpr(e, (x) => void (moving ||= x.kind === 'load' && movesWith(x.access)))
    return moving
  }
  // What the nest's loops change cannot be hoisted before the vector loop: it is broadcast where it is used.
  const nestVars = new Set(nest?.loops.map((l) => l.v) ?? [])
  const inNest = (e: Expr) => {
    let found = false
    walkExpr(e, (x) => {
      if (x.kind === 'var' && nestVars.has(x.name)) found = true
      if (x.kind === 'load' && x.access.index.some((ix) => varsOf(ix).some((n) => nestVars.has(n)))) found = true
    })
    return found
  }

  // Loop-invariant subexpressions: evaluated once, before the loop, as the scalar code would, then broadcast.
  const hoisted: string[] = []
  const hoistedNames = new Map<string, string>()
  const hoist = (key: string, declare: (name: string) => string): string => {
    let name = hoistedNames.get(key)
    if (name === undefined) {
      hoistedNames.set(key, (name = `pk_vc${hoistedNames.size}`))
      hoisted.push(declare(name))
    }
    return name
  }
  const scalar = (e: Expr) => {
    const x = cExpr(e, names, layout).text
    return hoist(`scalar ${x}`, (n) => `const ${C_TYPE[dtype]} ${n} = ${x};`)
  }
  const invariant = (e: Expr): string => {
    if (e.type !== 'bool') {
      const x = scalar(e)
      return hoist(`vector ${x}`, (n) => `const ${ops.vector} ${n} = ${t(ops.set1, { x })};`)
    }
    const x = cExpr(e, names, layout).text
    return hoist(`mask ${x}`, (n) => `const ${ops.mask} ${n} = ${t(ops.broadcastMask, { x })};`)
  }

  const pointer = (a: Access, lane: number) => `${names.of(a.tensor)} + ${layout.offset(a).text}${lane ? ` + ${lane}` : ''}`

  // Inputs streamed through the loop are prefetched a little ahead: a row ends on a page boundary (1024 floats),
  // where the hardware prefetcher stops, so the next row would otherwise start with a miss.
  const streams = new Map<string, Access>()
  for (const s of stores) {
    walkExpr(s.value, (x) => {
      if (x.kind === 'load' && movesWith(x.access) && layout.tensor(x.access.tensor).role === 'in') streams.set(pointer(x.access, 0), x.access)
    })
  }
  const ahead = PREFETCH_BYTES / (dtype === 'f32' ? 4 : 8)
  const prefetches = (lane: number) =>
    [...streams.values()].map((a) => `_mm_prefetch((const char *)(${pointer(a, lane + ahead)}), _MM_HINT_T0);`)

  /** One vector of `e` at lanes `lane`.. past `v`; `mask` in the tail. */
  const vexpr = (e: Expr, lane: number, mask: string | undefined): string => {
    if (!moves(e) && inNest(e)) {
      const x = cExpr(e, names, layout).text
      return e.type === 'bool' ? t(ops.broadcastMask, { x }) : t(ops.set1, { x })
    }
    if (!moves(e)) return invariant(e)
    const sub = (x: Expr) => vexpr(x, lane, mask)
    switch (e.kind) {
      case 'load': {
        const p = pointer(e.access, lane)
        return mask ? t(ops.maskedLoad, { m: mask, p }) : t(ops.load, { p })
      }
      case 'unary':
        return e.op === 'not' ? t(ops.not, { a: sub(e.arg) }) : `pk_vneg_${ops.suffix}(${sub(e.arg)})`
      case 'call':
        return e.fn === 'sqrt' ? t(ops.sqrt, { a: sub(e.arg) }) : `pk_v${e.fn}_${ops.suffix}(${sub(e.arg)})`
      case 'select':
        return t(ops.blend, { m: sub(e.cond), a: sub(e.b), b: sub(e.a) })
      case 'binary': {
        const [a, b] = [sub(e.a), sub(e.b)]
        if (e.op === 'and' || e.op === 'or') return t(ops[e.op], { a, b })
        if (e.op === 'max' || e.op === 'min') return `pk_v${e.op}_${ops.suffix}(${a}, ${b})`
        const predicate = PREDICATE[e.op]
        if (predicate) return t(ops.compare, { a, b, c: predicate })
        return t(ops.arith[e.op as keyof SimdOps['arith']], { a, b })
      }
      default:
        return invariant(e)
    }
  }

  const combine = (op: AssignOp, a: string, b: string): string => {
    if (op === 'max=' || op === 'min=') return `pk_v${op.slice(0, 3)}_${ops.suffix}(${a}, ${b})`
    return t(ops.arith[op === '*=' ? 'mul' : 'add'], { a, b })
  }

  // Reductions into elements the loop does not move: UNROLL accumulators each, from the operation's identity.
  const reductions = stores.map((s, n) => (movesWith(s.access) ? undefined : `pk_vacc${n}`))
  const unroll = reductions.some((r) => r !== undefined) ? UNROLL : 1
  const L = ops.lanes

  const flatLines = (): string[] => {
    /** The statements of one vector step, at `lane` past `v`, into accumulator copy `u`. */
    const step = (lane: number, u: number, mask?: string): string[] => [
      ...(mask ? [] : prefetches(lane)),
      ...stores.map((s, n) => {
        const value = vexpr(s.value, lane, mask)
        const acc = reductions[n]
        if (acc !== undefined) {
          const next = combine(s.op, `${acc}_${u}`, value)
          return `${acc}_${u} = ${mask ? t(ops.blend, { m: mask, a: `${acc}_${u}`, b: next }) : next};`
        }
        const p = pointer(s.access, lane)
        const old = mask ? t(ops.maskedLoad, { m: mask, p }) : t(ops.load, { p })
        const stored = s.op === '=' ? value : combine(s.op, old, value)
        return `${mask ? t(ops.maskedStore, { p, m: mask, a: stored }) : t(ops.store, { p, a: stored })};`
      }),
    ]
    const accumulators = stores.flatMap((s, n) => {
      const acc = reductions[n]
      if (acc === undefined) return []
      // -0, not build's +0, for `+=`: x + -0 is x for every x, -0 included.
      const start = s.op === '+=' ? cConst(-0, dtype) : cExpr(identityOf(s.op, dtype), names, layout)
      return Array.from({ length: unroll }, (_, u) => `${ops.vector} ${acc}_${u} = ${t(ops.set1, { x: start.text })};`)
    })
    const finish = stores.flatMap((s, n) => {
      const acc = reductions[n]
      if (acc === undefined) return []
      const total = Array.from({ length: unroll }, (_, u) => `${acc}_${u}`).reduce((a, b) => combine(s.op, a, b))
      const reduced = `pk_h${HORIZONTAL[s.op as Exclude<AssignOp, '='>]}_${ops.suffix}(${total})`
      const element = `${names.of(s.access.tensor)}[${layout.offset(s.access).text}]`
      if (s.op !== 'max=' && s.op !== 'min=') return [`${element} ${s.op} ${reduced};`]
      return [`${element} = pk_${s.op.slice(0, 3)}_${dtype}(${element}, ${reduced});`]
    })
    const unrolled = Array.from({ length: unroll }, (_, u) => step(u * L, u)).flat().map(indent)
    const W = unroll * L
    return [
      ...accumulators,
      `int64_t ${v} = pk_vlo;`,
      ...(unroll > 1 ? [`for (; ${v} <= pk_vhi - ${W}; ${v} += ${W}) {`, ...unrolled, '}'] : []),
      `for (; ${v} <= pk_vhi - ${L}; ${v} += ${L}) {`,
      ...step(0, 0).map(indent),
      '}',
      `if (${v} < pk_vhi) {`,
      `  const ${ops.mask} pk_vm = ${t(ops.firstLanes, { n: `pk_vhi - ${v}` })};`,
      ...step(0, 0, 'pk_vm').map(indent),
      '}',
      ...finish,
    ]
  }

  /**
   * Around the nest: a register per stored tensor and vector, loaded before the nest, updated in it, stored after it.
   * NEST_UNROLL vectors at a time share the nest's loop overhead and give the core independent sums to overlap.
   */
  const nestLines = (): string[] => {
    const tensors = [...new Set(stores.map((s) => s.access.tensor))]
    const accOf = (tensor: string, u: number) => `pk_vacc${tensors.indexOf(tensor)}_${u}`
    const atOf = (tensor: string) => stores.find((s) => s.access.tensor === tensor)!.access
    const step = (vectors: number, mask?: string): string[] => {
      const lanes = Array.from({ length: vectors }, (_, u) => u)
      const opens = nest!.loops.map((l, d) => {
        const x = names.of(l.v)
        const [lo, hi] = [ctx.bound(l.lo).text, ctx.bound(l.hi).text]
        const end = l.hi.kind === 'affine' ? undefined : names.fresh(`${x}_end`)
        const init = end === undefined ? `int64_t ${x} = ${lo}` : `int64_t ${x} = ${lo}, ${end} = ${hi}`
        return '  '.repeat(d) + `for (${init}; ${x} < ${end ?? hi}; ${x}++) {`
      })
      const deep = '  '.repeat(nest!.loops.length)
      const updates = lanes.flatMap((u) =>
        stores.map((s) => {
          const acc = accOf(s.access.tensor, u)
          return `${deep}${acc} = ${combine(s.op, acc, vexpr(s.value, u * ops.lanes, mask))};`
        }),
      )
      const closes = nest!.loops.map((_, d) => '  '.repeat(nest!.loops.length - 1 - d) + '}')
      const each = (f: (tensor: string, u: number, p: string) => string) =>
        lanes.flatMap((u) => tensors.map((tensor) => f(tensor, u, pointer(atOf(tensor), u * ops.lanes))))
      return [
        ...each((tensor, u, p) => `${ops.vector} ${accOf(tensor, u)} = ${mask ? t(ops.maskedLoad, { m: mask, p }) : t(ops.load, { p })};`),
        ...opens, ...updates, ...closes,
        ...each((tensor, u, p) => `${mask ? t(ops.maskedStore, { p, m: mask, a: accOf(tensor, u) }) : t(ops.store, { p, a: accOf(tensor, u) })};`),
      ]
    }
    const W = NEST_UNROLL * ops.lanes
    return [
      `int64_t ${v} = pk_vlo;`,
      `for (; ${v} <= pk_vhi - ${W}; ${v} += ${W}) {`,
      ...step(NEST_UNROLL).map(indent),
      '}',
      `for (; ${v} <= pk_vhi - ${ops.lanes}; ${v} += ${ops.lanes}) {`,
      ...step(1).map(indent),
      '}',
      `if (${v} < pk_vhi) {`,
      `  const ${ops.mask} pk_vm = ${t(ops.firstLanes, { n: `pk_vhi - ${v}` })};`,
      ...step(1, 'pk_vm').map(indent),
      '}',
    ]
  }
  // Printed before `hoisted` is read: printing the loop fills it.
  const core = nest === undefined ? flatLines() : nestLines()
  // Hoisted loads sit inside the non-empty check: the scalar loop reads nothing when it runs no iteration.
  const lines = [
    '{',
    `  const int64_t pk_vlo = ${ctx.bound(loop.lo).text}, pk_vhi = ${ctx.bound(loop.hi).text};`,
    '  if (pk_vlo < pk_vhi) {',
    ...[...hoisted, ...core].map((l) => `    ${l}`),
    '  }',
    '}',
  ]
  return lines.map((l) => '  '.repeat(depth) + l)
}

/** Accumulator copies per reduction: two adds in flight hide most of the adder's latency. */
const UNROLL = 2
/**
 * Vectors per step of a loop around a nest (measured on a 3×3 depthwise convolution of 112×112 × 32 on AVX2, 1
 * thread: one vector per step 16.1 GFLOP/s, four 21.3; the accumulator in memory, as before the nest form, 11.3).
 */
const NEST_UNROLL = 4
/** How far ahead input streams are prefetched (measured on softmax rows: 2-8 KiB all gain ~8%). */
const PREFETCH_BYTES = 2048

const indent = (l: string) => `  ${l}`

/** The one element type of every value in the loop (comparisons aside), or undefined when they mix. */
function elementType(stores: readonly Store[]): DType | undefined {
  const types = new Set<string>()
  for (const s of stores) walkExpr(s.value, (e) => void (e.type !== 'bool' && types.add(e.type)))
  if (types.size > 1) return undefined
  const [only] = types
  return only as DType | undefined
}

/** Every function has a vector form (sqrt an instruction, the rest polykern_vmath.h); `%` and `pow` have none. */
function supported(e: Expr): boolean {
  let ok = true
  walkExpr(e, (x) => void (ok &&= !(x.kind === 'binary' && (x.op === 'mod' || x.op === 'pow'))))
  return ok
}

