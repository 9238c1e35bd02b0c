// Hand-built LOWERED IR for the emitter tests (the JS, C-golden and native suites share it), with reference
// implementations written as plain loops, independent of the emitters.
import type { AbiParam, KernelAbi } from '../../runtime/abi.ts'
import { add, constant, variable } from '../../plugin/ir/affine.ts'
import type {
  Access, Affine, BinOp, Bound, CallFn, Constraint, DType, Expr, Kernel, Stmt, Tensor, TensorRole, ValueType,
} from '../../plugin/ir/nodes.ts'

/** `'2*p + r - 1'` → Affine. */
export function af(text: string | number): Affine {
  if (typeof text === 'number') return constant(text)
  let a = constant(0)
  for (const m of text.replace(/\s+/g, '').matchAll(/([+-]?)(?:(\d+)\*)?([A-Za-z_]\w*|\d+)/g)) {
    const sign = m[1] === '-' ? -1 : 1
    const k = m[2] === undefined ? 1 : Number(m[2])
    a = add(a, /^\d/.test(m[3]) ? constant(sign * Number(m[3])) : variable(m[3], sign * k))
  }
  return a
}

export const b = (x: string | number): Bound => ({ kind: 'affine', a: af(x) })
export const bmax = (...args: Bound[]): Bound => ({ kind: 'max', args })
export const bmin = (...args: Bound[]): Bound => ({ kind: 'min', args })
export const floordiv = (arg: Bound, by: number): Bound => ({ kind: 'floordiv', arg, by })
export const ceildiv = (arg: Bound, by: number): Bound => ({ kind: 'ceildiv', arg, by })

const access = (tensor: string, index: (string | number)[]): Access => ({ tensor, index: index.map(af) })
export const ld = (tensor: string, index: (string | number)[], type: DType = 'f32', zeroOutside = false): Expr => ({
  kind: 'load', access: access(tensor, index), type, zeroOutside,
})
export const k = (value: number, type: ValueType = 'f32'): Expr => ({ kind: 'const', value, type })
export const v = (name: string, type: DType): Expr => ({ kind: 'var', name, type })
export const bin = (op: BinOp, a: Expr, b: Expr, type: ValueType): Expr => ({ kind: 'binary', op, a, b, type })
export const cmp = (op: BinOp, a: Expr, b: Expr): Expr => ({ kind: 'binary', op, a, b, type: 'bool' })
export const neg = (arg: Expr, type: ValueType): Expr => ({ kind: 'unary', op: 'neg', arg, type })
export const not = (arg: Expr): Expr => ({ kind: 'unary', op: 'not', arg, type: 'bool' })
export const call = (fn: CallFn, arg: Expr, type: DType): Expr => ({ kind: 'call', fn, arg, type })
export const sel = (cond: Expr, a: Expr, b: Expr, type: DType): Expr => ({ kind: 'select', cond, a, b, type })

type Op = '=' | '+=' | '*=' | 'max=' | 'min='
export const store = (tensor: string, index: (string | number)[], op: Op, value: Expr): Stmt => ({
  kind: 'store', access: access(tensor, index), op, value,
})
export const fill = (tensor: string, value: Expr): Stmt => ({ kind: 'fill', tensor, value })
type BoundLike = Bound | string | number
const bound = (x: BoundLike): Bound => (typeof x === 'object' ? x : b(x))
export const loop = (name: string, lo: BoundLike, hi: BoundLike, body: Stmt[], mode: 'serial' | 'parallel' = 'serial'): Stmt => ({
  kind: 'loop', v: name, lo: bound(lo), hi: bound(hi), mode, body,
})
export const ge = (x: string): Constraint => ({ expr: af(x), op: '>=' })
export const iff = (conds: Constraint[], body: Stmt[]): Stmt => ({ kind: 'if', conds, body })

export const tensor = (name: string, dtype: DType, shape: (string | number)[], role: TensorRole): Tensor => ({
  name, dtype, shape: shape.map(af), role,
})

export function kernel(name: string, params: string[], tensors: Tensor[], sizes: string[], body: Stmt[]): Kernel {
  return {
    name,
    params: params.map((p) => (sizes.includes(p) ? { kind: 'size', name: p } : { kind: 'tensor', name: p })),
    tensors,
    sizes,
    body,
  }
}

export function abiOf(kernel: Kernel): KernelAbi {
  const params = kernel.params.map((p): AbiParam => {
    if (p.kind === 'size') return p
    const t = kernel.tensors.find((x) => x.name === p.name)!
    const shape = t.shape.map((d) => (d.terms.length === 0 ? d.constant : d.terms[0].v))
    return { kind: 'tensor', name: t.name, dtype: t.dtype, shape, role: t.role as 'in' | 'out' | 'inout' }
  })
  return { name: kernel.name, loc: 'test.ts:1:1', params, returns: -1 }
}

// ---------------------------------------------------------------------------------------------------------------

export const matmul = kernel(
  'matmul',
  ['A', 'B', 'C', 'M', 'N', 'K'],
  [tensor('A', 'f32', ['M', 'K'], 'in'), tensor('B', 'f32', ['K', 'N'], 'in'), tensor('C', 'f32', ['M', 'N'], 'out')],
  ['M', 'N', 'K'],
  [
    fill('C', k(0)),
    loop('i', 0, 'M', [
      loop('k', 0, 'K', [
        loop('j', 0, 'N', [store('C', ['i', 'j'], '+=', bin('mul', ld('A', ['i', 'k']), ld('B', ['k', 'j']), 'f32'))]),
      ]),
    ], 'parallel'),
  ],
)

export function matmulRef(A: Float32Array, B: Float32Array, C: Float32Array, M: number, N: number, K: number): void {
  for (let i = 0; i < M; i++) {
    for (let j = 0; j < N; j++) {
      let s = 0
      for (let q = 0; q < K; q++) s += A[i * K + q] * B[q * N + j]
      C[i * N + j] = s
    }
  }
}

/** Padded 1-d convolution three ways: If guards (y1), zeroOutside loads (y2), tightened max/min bounds (y3). */
const conv = (r: string): Expr => bin('mul', ld('x', ['i + r - 1']), ld('w', [r]), 'f32')
export const conv1d = kernel(
  'conv1d',
  ['x', 'w', 'y1', 'y2', 'y3', 'N'],
  [
    tensor('x', 'f32', ['N'], 'in'), tensor('w', 'f32', [3], 'in'),
    tensor('y1', 'f32', ['N'], 'out'), tensor('y2', 'f32', ['N'], 'out'), tensor('y3', 'f32', ['N'], 'out'),
  ],
  ['N'],
  [
    fill('y1', k(0)),
    loop('i', 0, 'N', [loop('r', 0, 3, [iff([ge('i + r - 1'), ge('N - i - r')], [store('y1', ['i'], '+=', conv('r'))])])]),
    fill('y2', k(0)),
    loop('i', 0, 'N', [
      loop('r', 0, 3, [store('y2', ['i'], '+=', bin('mul', ld('x', ['i + r - 1'], 'f32', true), ld('w', ['r']), 'f32'))]),
    ]),
    fill('y3', k(0)),
    loop('i', 0, 'N', [loop('r', bmax(b(0), b('1 - i')), bmin(b(3), b('N - i + 1')), [store('y3', ['i'], '+=', conv('r'))])]),
  ],
)

export function conv1dRef(x: Float32Array, w: Float32Array, y: Float32Array, N: number): void {
  for (let i = 0; i < N; i++) {
    let s = 0
    for (let r = 0; r < 3; r++) if (i + r - 1 >= 0 && i + r - 1 < N) s += x[i + r - 1] * w[r]
    y[i] = s
  }
}

export const softmax = kernel(
  'softmax',
  ['X', 'Y', 'N', 'D'],
  [
    tensor('X', 'f32', ['N', 'D'], 'in'), tensor('Y', 'f32', ['N', 'D'], 'out'),
    tensor('m', 'f32', ['N'], 'temp'), tensor('z', 'f32', ['N'], 'temp'),
  ],
  ['N', 'D'],
  [
    fill('m', k(-Infinity)),
    loop('i', 0, 'N', [loop('j', 0, 'D', [store('m', ['i'], 'max=', ld('X', ['i', 'j']))])], 'parallel'),
    loop('i', 0, 'N', [
      loop('j', 0, 'D', [
        store('Y', ['i', 'j'], '=', call('exp', bin('sub', ld('X', ['i', 'j']), ld('m', ['i']), 'f32'), 'f32')),
      ]),
    ], 'parallel'),
    fill('z', k(0)),
    loop('i', 0, 'N', [loop('j', 0, 'D', [store('z', ['i'], '+=', ld('Y', ['i', 'j']))])], 'parallel'),
    loop('i', 0, 'N', [
      loop('j', 0, 'D', [store('Y', ['i', 'j'], '=', bin('div', ld('Y', ['i', 'j']), ld('z', ['i']), 'f32'))]),
    ], 'parallel'),
  ],
)

export function softmaxRef(X: Float32Array, Y: Float32Array, N: number, D: number): void {
  for (let i = 0; i < N; i++) {
    let m = -Infinity
    for (let j = 0; j < D; j++) m = Math.max(m, X[i * D + j])
    let z = 0
    for (let j = 0; j < D; j++) z += Math.exp(X[i * D + j] - m)
    for (let j = 0; j < D; j++) Y[i * D + j] = Math.exp(X[i * D + j] - m) / z
  }
}

const INT32_MAX = 2147483647

/** i32 semantics: total division, wrapping arithmetic, INT32_MIN, comparisons, logic, max= into a rank-0 tensor. */
const ai = ld('a', ['i'], 'i32')
const bi = ld('b', ['i'], 'i32')
const i32 = (op: BinOp, x: Expr, y: Expr): Expr => bin(op, x, y, 'i32')
export const i32ops = kernel(
  'i32ops',
  ['a', 'b', 'q', 'r', 'p', 's', 't', 'c', 'mx', 'N'],
  [
    tensor('a', 'i32', ['N'], 'in'), tensor('b', 'i32', ['N'], 'in'),
    ...['q', 'r', 'p', 's', 't', 'c'].map((n) => tensor(n, 'i32', ['N'], 'out')),
    tensor('mx', 'i32', [], 'out'),
  ],
  ['N'],
  [
    fill('mx', k(-2147483648, 'i32')),
    loop('i', 0, 'N', [
      store('q', ['i'], '=', i32('div', ai, bi)),
      store('r', ['i'], '=', i32('mod', ai, bi)),
      store('p', ['i'], '=', i32('mul', ai, bi)),
      store('p', ['i'], '*=', i32('add', ai, k(3, 'i32'))),
      store('s', ['i'], '=', i32('div', i32('sub', i32('add', ai, bi), neg(ai, 'i32')), k(3, 'i32'))),
      store('s', ['i'], '+=', i32('mul', ai, k(-2147483648, 'i32'))),
      store('t', ['i'], '=', sel(cmp('lt', ai, bi), call('abs', ai, 'i32'), i32('add', v('i', 'i32'), k(INT32_MAX, 'i32')), 'i32')),
      store('t', ['i'], 'min=', i32('max', i32('add', ai, ai), i32('sub', bi, k(1, 'i32')))),
      store('c', ['i'], '=', sel(
        bin('and', cmp('ne', ai, k(0, 'i32')), not(cmp('lt', i32('add', ai, bi), k(0, 'i32'))), 'bool'),
        k(1, 'i32'),
        k(-1, 'i32'),
        'i32',
      )),
      store('mx', [], 'max=', i32('add', ai, bi)),
    ], 'parallel'),
  ],
)

export type I32Outputs = Record<'q' | 'r' | 'p' | 's' | 't' | 'c' | 'mx', Int32Array>
export const i32Outputs = (N: number): I32Outputs => ({
  q: new Int32Array(N), r: new Int32Array(N), p: new Int32Array(N), s: new Int32Array(N),
  t: new Int32Array(N), c: new Int32Array(N), mx: new Int32Array(1),
})

/** Independent i32 reference in BigInt: wrap(x) = x mod 2^32 as signed. */
export function i32opsRef(a: Int32Array, b: Int32Array, N: number): I32Outputs {
  const w = (x: bigint): number => Number(BigInt.asIntN(32, x))
  const div = (x: bigint, y: bigint): bigint => (y === 0n ? 0n : x / y) // BigInt division truncates
  const mod = (x: bigint, y: bigint): bigint => (y === 0n ? 0n : x % y)
  const out = i32Outputs(N)
  let mx = -2147483648
  for (let i = 0; i < N; i++) {
    const [x, y] = [BigInt(a[i]), BigInt(b[i])]
    out.q[i] = w(div(x, y))
    out.r[i] = w(mod(x, y))
    out.p[i] = w(BigInt(w(x * y)) * BigInt(w(x + 3n)))
    const s0 = BigInt(w(div(BigInt(w(BigInt(w(x + y)) - BigInt(w(-x)))), 3n)))
    out.s[i] = w(s0 + BigInt(w(x * -2147483648n)))
    const t0 = x < y ? w(x < 0n ? -x : x) : w(BigInt(i) + 2147483647n)
    const m = Math.max(w(2n * x), w(y - 1n))
    out.t[i] = Math.min(t0, m)
    out.c[i] = x !== 0n && !(w(x + y) < 0) ? 1 : -1
    mx = Math.max(mx, w(x + y))
  }
  out.mx[0] = mx
  return out
}

/** Loop bounds rounding negative numerators: out = [trip count, Σ t, trip count of a max/min nest]. */
export const bounds = kernel(
  'bounds',
  ['out', 'N'],
  [tensor('out', 'i32', [3], 'out')],
  ['N'],
  [
    fill('out', k(0, 'i32')),
    loop('t', floordiv(b('1 - N'), 3), ceildiv(b('N - 7'), 2), [
      store('out', [0], '+=', k(1, 'i32')),
      store('out', [1], '+=', v('t', 'i32')),
    ]),
    loop('u', bmax(floordiv(b('-N'), 2), b(-3)), bmin(ceildiv(b('N'), 4), b(5), b('N - 1')), [
      store('out', [2], '+=', k(1, 'i32')),
    ]),
  ],
)

export function boundsRef(N: number): Int32Array {
  const floorDiv = (x: number, y: number): number => (x - (((x % y) + y) % y)) / y
  const ceilDiv = (x: number, y: number): number => -floorDiv(-x, y)
  const out = new Int32Array(3)
  for (let t = floorDiv(1 - N, 3); t < ceilDiv(N - 7, 2); t++) {
    out[0]++
    out[1] += t
  }
  for (let u = Math.max(floorDiv(-N, 2), -3); u < Math.min(ceilDiv(N, 4), 5, N - 1); u++) out[2]++
  return out
}

/** Every float operation and builtin, NaN-propagating max/min, ±Infinity constants, rank-0 reductions. */
export function pointwise(dtype: 'f32' | 'f64'): Kernel {
  const x = ld('x', ['i'], dtype)
  const y = ld('y', ['i'], dtype)
  const f = (op: BinOp, a: Expr, c: Expr): Expr => bin(op, a, c, dtype)
  const fn = (name: CallFn, a: Expr): Expr => call(name, a, dtype)
  const c = (value: number): Expr => k(value, dtype)
  return kernel(
    `pointwise_${dtype}`,
    ['x', 'y', 'e', 'g', 'h', 'l', 'm', 'tot', 'top', 'N'],
    [
      tensor('x', dtype, ['N'], 'in'), tensor('y', dtype, ['N'], 'in'),
      ...['e', 'g', 'h', 'l', 'm'].map((n) => tensor(n, dtype, ['N'], 'out')),
      tensor('tot', dtype, [], 'out'), tensor('top', dtype, [], 'out'),
    ],
    ['N'],
    [
      fill('tot', c(0)),
      fill('top', c(-Infinity)),
      loop('i', 0, 'N', [
        store('e', ['i'], '=', f('add', sel(cmp('gt', x, c(0)), f('pow', x, c(1.5)), fn('sigmoid', x), dtype), fn('tanh', y))),
        store('g', ['i'], '=', f('sub',
          f('mul', fn('exp', neg(fn('abs', x), dtype)), fn('sqrt', fn('abs', y))),
          fn('log', f('add', fn('abs', x), c(1))),
        )),
        store('h', ['i'], '=', f('max', x, y)),
        store('l', ['i'], '=', f('min', x, neg(y, dtype))),
        store('m', ['i'], '=', f('div', f('mod', x, y), f('add', v('i', dtype), c(0.1)))),
        store('tot', [], '+=', f('mul', x, c(0.1))),
        store('top', [], 'max=', x),
      ]),
    ],
  )
}

type PointwiseOutputs = Record<'e' | 'g' | 'h' | 'l' | 'm' | 'tot' | 'top', number[]>
export function pointwiseRef(x: ArrayLike<number>, y: ArrayLike<number>, N: number): PointwiseOutputs {
  const out: PointwiseOutputs = { e: [], g: [], h: [], l: [], m: [], tot: [0], top: [-Infinity] }
  for (let i = 0; i < N; i++) {
    const [a, c] = [x[i], y[i]]
    out.e.push((a > 0 ? a ** 1.5 : 1 / (1 + Math.exp(-a))) + Math.tanh(c))
    out.g.push(Math.exp(-Math.abs(a)) * Math.sqrt(Math.abs(c)) - Math.log(Math.abs(a) + 1))
    out.h.push(Number.isNaN(a) || Number.isNaN(c) ? NaN : a > c ? a : c > a ? c : Object.is(a, -0) ? c : a)
    out.l.push(Math.min(a, -c))
    out.m.push((a % c) / (i + 0.1))
    out.tot[0] += a * 0.1
    out.top[0] = Math.max(out.top[0], a)
  }
  return out
}

/** Literals that are hard to print: shortest decimals, float midpoints, subnormals, overflow to ±Infinity, -0, NaN. */
export const TRICKY_CONSTANTS = [
  0.1, 1 / 3, -0, 0.30000000000000004, Math.PI, -1e-7, 123456789, 16777217, 1 + 2 ** -24, 1 + 2 ** -24 + 2 ** -60,
  2 ** -149, 1.401298464324817e-45, 1e-45, 1.17549435e-38, 3.4028234663852886e38, 3.4028235677973366e38, 1e39,
  5e-324, 2.2250738585072014e-308, 1.7976931348623157e308, 9007199254740993, NaN, Infinity, -Infinity, 100, -2.5,
]

export function constants(dtype: 'f32' | 'f64'): Kernel {
  return kernel(
    `constants_${dtype}`,
    ['out'],
    [tensor('out', dtype, [TRICKY_CONSTANTS.length], 'out')],
    [],
    TRICKY_CONSTANTS.map((c, n) => store('out', [n], '=', k(c, dtype))),
  )
}

/** A temporary whose size no argument bounds: Z*Z elements, all 1, summed into out[0]. */
export const scratch = kernel(
  'scratch',
  ['out', 'Z'],
  [tensor('out', 'f64', [1], 'out'), tensor('t', 'f64', ['Z', 'Z'], 'temp')],
  ['Z'],
  [
    fill('t', k(1, 'f64')),
    fill('out', k(0, 'f64')),
    loop('i', 0, 'Z', [loop('j', 0, 'Z', [store('out', [0], '+=', ld('t', ['i', 'j'], 'f64'))])]),
  ],
)

/** Names that are keywords or library functions in C (`exp` is also called) or globals in JS. */
export const clash = kernel(
  'clash',
  ['int', 'exp', 'Math', 'double'],
  [tensor('int', 'f64', ['double'], 'in'), tensor('exp', 'f64', ['double'], 'out'), tensor('Math', 'i32', ['double'], 'out')],
  ['double'],
  [
    loop('free', 0, 'double', [
      store('exp', ['free'], '=', call('exp', ld('int', ['free'], 'f64'), 'f64')),
      store('Math', ['free'], '=', bin('mul', v('free', 'i32'), v('double', 'i32'), 'i32')),
    ]),
  ],
)

/** i32 sums of sizes near 2^53, where an unwrapped JS sum would stop being exact. */
export const wide = kernel(
  'wide',
  ['out', 'N'],
  [tensor('out', 'i32', [3], 'out')],
  ['N'],
  [
    store('out', [0], '=', bin('add', v('N', 'i32'), v('N', 'i32'), 'i32')),
    store('out', [1], '=', bin('sub', bin('add', v('N', 'i32'), v('N', 'i32'), 'i32'), neg(v('N', 'i32'), 'i32'), 'i32')),
    store('out', [2], '+=', v('N', 'i32')),
  ],
)

export function wideRef(N: number, before: number): Int32Array {
  const n = BigInt.asIntN(32, BigInt(N))
  return Int32Array.from([2n * n, 3n * n, BigInt(before) + n], (x) => Number(BigInt.asIntN(32, x)))
}
