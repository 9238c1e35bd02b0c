/**
 * The extreme-value fuzz: does the native addon compute what the JS fallback computes, where float arithmetic is
 * least forgiving? Random element-wise kernels (mostly f32, some f64) over ±1e20, denormals, ±0, NaN, ±Infinity,
 * the largest floats and integers around 2^24 (2^53 in f64), as data and as literals, with every operation whose
 * result is defined to the bit: + - * / sqrt abs neg max min, comparisons, `&& || !` and selects, index and size
 * values, and `max=`/`min=` reductions (order-independent). A statement may end in one transcendental built-in
 * (exp log tanh sigmoid pow) of such an expression, whose argument is then the same on every path.
 *
 * Each case runs the generated JS (the fallback), the interpreter before and after the passes, the naive evaluator,
 * and the addon at every ISA level this CPU has at 1, 2 and 3 threads. Everything must equal the fallback bit for bit
 * (any NaN equal to any NaN), but a transcendental statement's native output, which must be within MAX_ULPS.
 */
import type { Kernel, Stmt } from '../../plugin/ir/nodes.ts'
import type { Builtin } from '../../plugin/spec/ast.ts'
import { elementsOf } from '../../plugin/verify/random-args.ts'
import type { KernelAbi } from '../../runtime/abi.ts'
import { copyArgs } from '../support/kernel-args.ts'
import { type TensorArray } from '../support/random.ts'
import { MAX_ULPS, firstDifference, ulps, type Transcendental } from '../support/ulps.ts'
import { THREADS, type FuzzAddon, type FuzzCompiled, type Mismatch } from './differential.ts'
import { random, type Random } from './generate.ts'
import { plain, readsOf, type GenExpr, type GenKernel, type GenStmt, type GenTensor } from './model.ts'
import { naiveEvaluate } from './naive.ts'
import { interpret } from '../../plugin/ir/interp.ts'

type FloatType = 'f32' | 'f64'

/** Values where f32 arithmetic differs from double's: overflow, underflow, denormals, ±0, NaN, ±Inf, 2^24 ± 1. */
const F32_DATA = [
  1e20, -1e20, 1e-20, 1e-40, -1e-40, 2 ** -149, -(2 ** -149), 1.1754942e-38, 1.17549435e-38, 0, -0, NaN, Infinity,
  -Infinity, 16777216, 16777217, 16777215, 16777218, -16777217, 3.4028235e38, -3.4028235e38, 1e8, 1, -1, 0.5, 3, 0.1,
  88.8, -103, 1e30, 2 ** 64,
]
const F64_DATA = [
  1e300, -1e300, 1e-300, 1e-310, -1e-310, 5e-324, -5e-324, 2.2250738585072014e-308, 0, -0, NaN, Infinity, -Infinity,
  2 ** 53, 2 ** 53 + 2, 2 ** 53 - 1, -(2 ** 53 + 2), 1.7976931348623157e308, -1.7976931348623157e308, 1e16, 1, -1, 0.5,
  3, 0.1, 710, -746, 1e160, 1e-160,
]
/** Literals: positive (a minus sign is a `neg`) and finite in the dtype, or the spec refuses them. */
const F32_LITERALS = [0, 0.5, 1, 2, 3, 0.1, 1e20, 1e-40, 1e-30, 16777216, 16777217, 100000000, 3e38]
const F64_LITERALS = [0, 0.5, 1, 2, 3, 0.1, 1e300, 1e-310, 1e160, 9007199254740992, 9007199254740993, 1e16]

const TRANSCENDENTAL: readonly Transcendental[] = ['exp', 'log', 'tanh', 'sigmoid', 'pow']

/** Kernels of up to three statements, each into its own output, over X, Z: [N, M], b: [M], r: [N]. */
export function generateExtremeKernels(seed: number, count: number): GenKernel[] {
  const r = random(seed)
  return Array.from({ length: count }, (_, n) => extremeKernel(r, `xk${n}`))
}

function extremeKernel(r: Random, name: string): GenKernel {
  const dtype: FloatType = r.chance(0.8) ? 'f32' : 'f64'
  const inputs: Record<string, readonly (string | number)[]> = { X: ['N', 'M'], Z: ['N', 'M'], b: ['M'], r: ['N'] }
  const stmts: GenStmt[] = []
  const outputs: GenTensor[] = []
  for (let s = 0, count = r.int(1, 3); s < count; s++) {
    const reduce = r.chance(0.2)
    const target = reduce ? `s${s}` : `Y${s}`
    // The value must use every index of the statement, and a reduction's j must come from a read (its extent).
    const fits = (e: GenExpr) =>
      indicesOf(e).has('i') && (reduce ? readsOf(e).some((x) => x.index.some((ix) => ix.terms.some((t) => t.v === 'j'))) : indicesOf(e).has('j'))
    let value = expression(r, dtype, 3)
    while (!fits(value)) value = expression(r, dtype, 3)
    // At most one transcendental, at the root: its argument is then the same on every path.
    if (!reduce && r.chance(0.35)) value = transcendental(r, dtype, value)
    outputs.push({ name: target, dtype, dims: reduce ? ['N'] : ['N', 'M'], local: false })
    stmts.push({ target, indices: reduce ? ['i'] : ['i', 'j'], op: reduce ? r.pick(['max=', 'min='] as const) : '=', init: reduce, value, where: [] })
  }
  const read = new Set(stmts.flatMap((s) => readsOf(s.value).map((x) => x.tensor)))
  const tensors = [
    ...Object.entries(inputs).filter(([t]) => read.has(t)).map(([t, dims]): GenTensor => ({ name: t, dtype, dims, local: false })),
    ...outputs,
  ]
  return { name, tensors, params: [...tensors.map((t) => t.name), 'N', 'M'], stmts }
}

/** The indices `e` reads with or uses as values. */
function indicesOf(e: GenExpr): Set<string> {
  const found = new Set<string>()
  const visit = (x: GenExpr): void => {
    if (x.kind === 'read') for (const ix of x.index) for (const t of ix.terms) found.add(t.v)
    else if (x.kind === 'var') found.add(x.name)
    else if (x.kind === 'unary') visit(x.a)
    else if (x.kind === 'bin') [x.a, x.b].forEach(visit)
    else if (x.kind === 'select') [x.c, x.a, x.b].forEach(visit)
    else if (x.kind === 'call') x.args.forEach(visit)
  }
  visit(e)
  return found
}

function transcendental(r: Random, dtype: FloatType, arg: GenExpr): GenExpr {
  const fn = r.pick(TRANSCENDENTAL)
  return { kind: 'call', fn, args: fn === 'pow' ? [arg, expression(r, dtype, 1)] : [arg] }
}

/** An expression of exact operations, at most `depth` deep. */
function expression(r: Random, dtype: FloatType, depth: number): GenExpr {
  if (depth === 0 || r.chance(0.25)) return leaf(r, dtype)
  const sub = () => expression(r, dtype, depth - 1)
  switch (r.weighted([4, 2, 1, 1, 2, 2])) {
    case 0:
      return { kind: 'bin', op: r.pick(['+', '-', '*', '/'] as const), a: sub(), b: sub() }
    case 1:
      return { kind: 'call', fn: r.pick(['max', 'min'] as const satisfies readonly Builtin[]), args: [sub(), sub()] }
    case 2:
      return { kind: 'call', fn: r.pick(['abs', 'sqrt'] as const), args: [sub()] }
    case 3:
      return { kind: 'unary', op: '-', a: sub() }
    default:
      return { kind: 'select', c: condition(r, dtype, depth - 1), a: sub(), b: sub() }
  }
}

function condition(r: Random, dtype: FloatType, depth: number): GenExpr {
  const compare: GenExpr = {
    kind: 'bin', op: r.pick(['<', '<=', '>', '>=', '==', '!='] as const), a: expression(r, dtype, depth), b: expression(r, dtype, depth),
  }
  if (r.chance(0.2)) return { kind: 'unary', op: '!', a: compare }
  if (r.chance(0.2)) return { kind: 'bin', op: r.pick(['&&', '||'] as const), a: compare, b: condition(r, dtype, 0) }
  return compare
}

function leaf(r: Random, dtype: FloatType): GenExpr {
  switch (r.weighted([6, 3, 1])) {
    case 0: {
      const [tensor, index] = r.pick([['X', ['i', 'j']], ['Z', ['i', 'j']], ['b', ['j']], ['r', ['i']]] as const)
      return { kind: 'read', tensor, index: index.map(plain) }
    }
    case 1:
      // Printed as JavaScript prints the number (3e+38): integer literals take the statement's dtype.
      return { kind: 'lit', value: r.pick(dtype === 'f32' ? F32_LITERALS : F64_LITERALS), float: false }
    default:
      return { kind: 'var', name: r.pick(['i', 'j', 'N', 'M']) }
  }
}

/** Arguments: sizes as given, every array (outputs too) a mix of the extreme values, ordinary ones and random bits. */
export function extremeArgs(abi: KernelAbi, sizes: ReadonlyMap<string, number>, next: () => number): unknown[] {
  const shape = Object.fromEntries(sizes)
  return abi.params.map((p) => {
    if (p.kind === 'size') return sizes.get(p.name)!
    const a = p.dtype === 'f32' ? new Float32Array(elementsOf(p, shape)) : new Float64Array(elementsOf(p, shape))
    const bits = new Uint32Array(a.buffer)
    const data = p.dtype === 'f32' ? F32_DATA : F64_DATA
    for (let k = 0; k < a.length; k++) {
      const x = next()
      if (x < 0.45) a[k] = data[Math.floor(next() * data.length)]
      else if (x < 0.85) a[k] = (next() * 2 - 1) * 8
      else for (let w = 0; w < bits.length / a.length; w++) bits[k * (bits.length / a.length) + w] = Math.floor(next() * 2 ** 32)
    }
    return a
  })
}

/** The transcendental at the root of each output's statement, if any: its native value may differ by MAX_ULPS. */
function transcendentalOutputs(reference: Kernel): Map<string, Transcendental> {
  const found = new Map<string, Transcendental>()
  const visit = (stmts: readonly Stmt[]) => {
    for (const s of stmts) {
      if (s.kind === 'store') {
        const v = s.value
        const fn = v.kind === 'call' ? v.fn : v.kind === 'binary' && v.op === 'pow' ? 'pow' : undefined
        if (fn !== undefined && fn in MAX_ULPS) found.set(s.access.tensor, fn as Transcendental)
      } else if ('body' in s) visit(s.body)
    }
  }
  visit(reference.body)
  return found
}

/** What one run of the fuzz compared, for the README's hardening table. */
export interface FidelityTally {
  cases: number
  nativeRuns: number
  /** Output tensors compared with the fallback's, and their elements. */
  comparisons: number
  elements: number
  mismatches: number
  /** The largest native-vs-fallback distance seen, per transcendental and dtype. */
  readonly worstUlps: Map<string, number>
}

export const newTally = (): FidelityTally => ({ cases: 0, nativeRuns: 0, comparisons: 0, elements: 0, mismatches: 0, worstUlps: new Map() })

/** Runs one case through every system; returns what differs from the JS fallback (empty: all agree). */
export function checkExtremeCase(
  c: Extract<FuzzCompiled, { ok: true }>,
  sizes: ReadonlyMap<string, number>,
  next: () => number,
  tally: FidelityTally,
  addon?: FuzzAddon,
): Mismatch[] {
  const abi = c.compiled.abi
  const args = extremeArgs(abi, sizes, next)
  const run = (f: (...a: unknown[]) => unknown): unknown[] => {
    const copy = copyArgs(args)
    f(...copy)
    return copy
  }
  const fallback = run(c.js)
  const loose = transcendentalOutputs(c.reference)
  const mismatches: Mismatch[] = []
  tally.cases++
  const compare = (system: string, f: (...a: unknown[]) => unknown, native: boolean) => {
    const got = run(f)
    abi.params.forEach((p, n) => {
      if (p.kind !== 'tensor' || p.role === 'in') return
      const [want, have] = [fallback[n] as TensorArray, got[n] as TensorArray]
      tally.comparisons++
      tally.elements += want.length
      const fn = native ? loose.get(p.name) : undefined
      const detail = fn === undefined ? exactDifference(want, have) : ulpDifference(want, have, fn, p.dtype as FloatType, tally)
      if (detail !== undefined) {
        tally.mismatches++
        mismatches.push({ system, detail: `output '${p.name}': ${detail}` })
      }
    })
  }
  const byName = (a: unknown[]) => new Map(abi.params.map((p, n) => [p.name, a[n] as TensorArray | number]))
  compare('interpreter', (...a) => interpret(c.reference, a), false)
  compare('interpreter after the passes', (...a) => interpret(c.compiled.ir, a), false)
  compare('naive evaluator', (...a) => naiveEvaluate(c.ast, byName(a)), false)
  if (addon) {
    const meta = addon.__polykern
    for (const isa of meta.isas) {
      if (meta.setIsa(isa) !== isa) continue // this CPU lacks it
      for (const threads of THREADS) {
        meta.setThreads(threads)
        tally.nativeRuns++
        compare(`native ${isa}, ${threads} thread${threads > 1 ? 's' : ''}`, addon[abi.name], true)
      }
    }
  }
  return mismatches
}

function exactDifference(want: TensorArray, got: TensorArray): string | undefined {
  const at = firstDifference(want, got)
  return at < 0 ? undefined : `element ${at} is ${got[at]}, the fallback's ${want[at]}`
}

function ulpDifference(want: TensorArray, got: TensorArray, fn: Transcendental, dtype: FloatType, tally: FidelityTally): string | undefined {
  let [worst, at] = [0, -1]
  for (let k = 0; k < want.length; k++) {
    const u = ulps(want[k], got[k], dtype)
    if (u > worst) [worst, at] = [u, k]
  }
  const key = `${fn} ${dtype}`
  tally.worstUlps.set(key, Math.max(tally.worstUlps.get(key) ?? 0, worst))
  if (worst <= MAX_ULPS[fn][dtype]) return undefined
  return `${fn} is ${worst} ulp from the fallback's at element ${at} (${got[at]}, want ${want[at]}; bound ${MAX_ULPS[fn][dtype]})`
}
