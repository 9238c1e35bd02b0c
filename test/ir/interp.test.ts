/**
 * The interpreter's meaning of the IR, node by node, on kernels built by hand: each value below is worked out from
 * nodes.ts's definitions (f32 rounded after every operation, i32 wrapping, x/0 = 0 in i32), not read from a run. The
 * other tests check every emitter against the interpreter; these check the interpreter itself, in both forms (blocks
 * and loops), and its errors.
 */
import { describe, expect, it } from 'vitest'
import { KernelInternalError } from '../../plugin/diagnostics.ts'
import { constant, variable } from '../../plugin/ir/affine.ts'
import { interpret } from '../../plugin/ir/interp.ts'
import type { Affine, BinOp, DType, Expr, Kernel, Stmt, Tensor, ValueType } from '../../plugin/ir/nodes.ts'

const tensor = (name: string, dtype: DType, shape: readonly Affine[], role: Tensor['role'] = 'inout'): Tensor => ({ name, dtype, shape, role })
const load = (name: string, dtype: DType, index: readonly Affine[], zeroOutside = false): Expr =>
  ({ kind: 'load', access: { tensor: name, index }, type: dtype, zeroOutside })
const lit = (value: number, type: ValueType): Expr => ({ kind: 'const', value, type })
const bin = (op: BinOp, a: Expr, b: Expr, type: ValueType): Expr => ({ kind: 'binary', op, a, b, type })
const store = (name: string, index: readonly Affine[], value: Expr, op: '=' | '+=' | 'max=' = '='): Stmt =>
  ({ kind: 'store', access: { tensor: name, index }, op, value })

/** A kernel of one statement over `out[0]` with tensors `x` (an input) and `out`. */
function scalarKernel(dtype: DType, value: Expr, x: readonly number[] = []): { run: () => number } {
  const kernel: Kernel = {
    name: 'k',
    params: [{ kind: 'tensor', name: 'x' }, { kind: 'tensor', name: 'out' }],
    tensors: [tensor('x', dtype, [constant(Math.max(1, x.length))], 'in'), tensor('out', dtype, [constant(1)], 'out')],
    sizes: [],
    body: [store('out', [constant(0)], value)],
  }
  const array = { f32: Float32Array, f64: Float64Array, i32: Int32Array }[dtype]
  return {
    run: () => {
      const out = new array(1)
      interpret(kernel, [array.from(x.length > 0 ? x : [0]), out])
      return out[0]
    },
  }
}

describe('values', () => {
  it('rounds f32 arithmetic to f32 after each operation, and leaves f64 alone', () => {
    const third = bin('div', lit(1, 'f32'), lit(3, 'f32'), 'f32')
    expect(scalarKernel('f32', third).run()).toBe(Math.fround(1 / 3))
    // 1 + 2^-30 is 1 in f32, so the difference is 0; rounded only where it is stored, it would be 2^-30.
    const lost = bin('sub', bin('add', lit(1, 'f32'), lit(2 ** -30, 'f32'), 'f32'), lit(1, 'f32'), 'f32')
    expect(scalarKernel('f32', lost).run()).toBe(0)
    const sum64 = bin('add', bin('add', lit(0.1, 'f64'), lit(0.2, 'f64'), 'f64'), lit(0.3, 'f64'), 'f64')
    expect(scalarKernel('f64', sum64).run()).toBe(0.1 + 0.2 + 0.3)
    const root = { kind: 'call', fn: 'sqrt', arg: lit(2, 'f32'), type: 'f32' } as const
    expect(scalarKernel('f32', root).run()).toBe(Math.fround(Math.SQRT2))
  })

  it('wraps i32 arithmetic, truncates its division and makes x / 0 and x % 0 zero', () => {
    const i = (v: number) => lit(v, 'i32')
    expect(scalarKernel('i32', bin('add', i(2147483647), i(1), 'i32')).run()).toBe(-2147483648)
    expect(scalarKernel('i32', bin('mul', i(65536), i(65537), 'i32')).run()).toBe(65536)
    expect(scalarKernel('i32', bin('div', i(-7), i(2), 'i32')).run()).toBe(-3)
    expect(scalarKernel('i32', bin('div', i(7), i(0), 'i32')).run()).toBe(0)
    expect(scalarKernel('i32', bin('mod', i(-7), i(0), 'i32')).run()).toBe(0)
    expect(scalarKernel('i32', bin('mod', i(-7), i(3), 'i32')).run()).toBe(-1)
    expect(scalarKernel('i32', { kind: 'unary', op: 'neg', arg: i(-2147483648), type: 'i32' }).run()).toBe(-2147483648)
  })

  it('keeps the sign of a zero literal, NaN and the infinities', () => {
    expect(Object.is(scalarKernel('f64', lit(-0, 'f64')).run(), -0)).toBe(true)
    expect(scalarKernel('f64', lit(NaN, 'f64')).run()).toBeNaN()
    expect(scalarKernel('f32', lit(-Infinity, 'f32')).run()).toBe(-Infinity)
    expect(scalarKernel('f64', bin('max', lit(-Infinity, 'f64'), lit(-2, 'f64'), 'f64')).run()).toBe(-2)
  })

  it('evaluates only the arm a select picks, and comparisons as 0 or 1', () => {
    const x0 = load('x', 'f64', [constant(0)])
    // The arm not taken reads outside x: evaluated, it would be an error.
    const outside = load('x', 'f64', [constant(5)])
    const pick = { kind: 'select', cond: bin('gt', x0, lit(0, 'f64'), 'bool'), a: x0, b: outside, type: 'f64' } as const
    expect(scalarKernel('f64', pick, [4]).run()).toBe(4)
    expect(() => scalarKernel('f64', pick, [-4]).run()).toThrow(/read of x outside its bounds/)
    expect(scalarKernel('f64', bin('le', x0, lit(1, 'f64'), 'bool'), [1]).run()).toBe(1)
  })

  it('reads 0 outside a zero-padded access, and refuses a plain one', () => {
    const padded = load('x', 'f32', [constant(-1)], true)
    expect(scalarKernel('f32', bin('add', padded, lit(1.5, 'f32'), 'f32'), [7]).run()).toBe(1.5)
    expect(() => scalarKernel('f32', load('x', 'f32', [constant(1)]), [7]).run()).toThrow(KernelInternalError)
  })

  it('refuses an operator its type does not define where it is evaluated, not before', () => {
    const pow = bin('pow', lit(2, 'i32'), lit(3, 'i32'), 'i32')
    const unused = { kind: 'select', cond: lit(0, 'i32'), a: pow, b: lit(5, 'i32'), type: 'i32' } as const
    expect(scalarKernel('i32', unused).run()).toBe(5)
    expect(() => scalarKernel('i32', pow).run()).toThrow(/operator pow is not defined on i32/)
  })
})

describe('iteration', () => {
  const M = variable('M')
  const [i, j] = [variable('i'), variable('j')]
  const sums = (body: readonly Stmt[]): Kernel => ({
    name: 'rows',
    params: [{ kind: 'tensor', name: 'A' }, { kind: 'tensor', name: 'r' }, { kind: 'size', name: 'M' }],
    tensors: [tensor('A', 'f64', [M, M], 'in'), tensor('r', 'f64', [M], 'out')],
    sizes: ['M'],
    body,
  })
  const A = Float64Array.from({ length: 16 }, (_, n) => n + 1)
  /** The lower triangle's row sums of the 4 × 4 matrix 1..16, worked out: 1, 5+6, 9+10+11, 13+14+15+16. */
  const lowerRowSums = [1, 11, 30, 58]
  const run = (k: Kernel) => {
    const r = new Float64Array(4).fill(-1)
    interpret(k, [A, r, 4])
    return [...r]
  }

  it('runs a block over its domain where its constraints hold, reducing into the output', () => {
    const block: Stmt = {
      kind: 'block', id: 's0', tags: [],
      indices: [{ name: 'i', extent: M }, { name: 'j', extent: M }],
      constraints: [{ expr: { terms: [{ v: 'i', coeff: 1 }, { v: 'j', coeff: -1 }], constant: 0 }, op: '>=' }],
      body: [store('r', [i], load('A', 'f64', [i, j]), '+=')],
    }
    expect(run(sums([{ kind: 'fill', tensor: 'r', value: lit(0, 'f64') }, block]))).toEqual(lowerRowSums)
  })

  it('runs loops between their bounds, min, max and divisions rounding as named', () => {
    const loops: Stmt = {
      kind: 'loop', v: 'i', mode: 'serial',
      lo: { kind: 'affine', a: constant(0) }, hi: { kind: 'affine', a: M },
      body: [{
        kind: 'loop', v: 'j', mode: 'serial',
        // j over [max(0, -1), min(i + 1, M)): the lower triangle again, through the bounds' forms.
        lo: { kind: 'max', args: [{ kind: 'affine', a: constant(0) }, { kind: 'affine', a: constant(-1) }] },
        hi: { kind: 'min', args: [{ kind: 'affine', a: { terms: [{ v: 'i', coeff: 1 }], constant: 1 } }, { kind: 'affine', a: M }] },
        body: [store('r', [i], load('A', 'f64', [i, j]), '+=')],
      }],
    }
    expect(run(sums([{ kind: 'fill', tensor: 'r', value: lit(0, 'f64') }, loops]))).toEqual(lowerRowSums)
    // ceil(7 / 2) = 4 iterations and floor(7 / 2) = 3: rows 0..3 and 0..2 of the first column, counted.
    const count = (kind: 'ceildiv' | 'floordiv'): Stmt => ({
      kind: 'loop', v: 'i', mode: 'serial', lo: { kind: 'affine', a: constant(0) },
      hi: { kind, arg: { kind: 'affine', a: constant(7) }, by: 2 },
      body: [store('r', [constant(0)], lit(1, 'f64'), '+=')],
    })
    expect(run(sums([{ kind: 'fill', tensor: 'r', value: lit(0, 'f64') }, count('ceildiv')]))[0]).toBe(4)
    expect(run(sums([{ kind: 'fill', tensor: 'r', value: lit(0, 'f64') }, count('floordiv')]))[0]).toBe(3)
  })

  it('refuses a store outside its tensor and an index with no value', () => {
    const outside = sums([store('r', [constant(4)], lit(1, 'f64'))])
    expect(() => run(outside)).toThrow(/store to r outside its bounds/)
    const unbound = sums([store('r', [variable('q')], lit(1, 'f64'))])
    expect(() => run(unbound)).toThrow(/affine variable 'q' has no value/)
  })

  it('runs a kernel again with other sizes', () => {
    const k = sums([{ kind: 'fill', tensor: 'r', value: lit(0, 'f64') }, {
      kind: 'block', id: 's0', tags: [], indices: [{ name: 'i', extent: M }, { name: 'j', extent: M }], constraints: [],
      body: [store('r', [i], load('A', 'f64', [i, j]), '+=')],
    }])
    expect(run(k)).toEqual([10, 26, 42, 58])
    const r = new Float64Array(2)
    interpret(k, [Float64Array.of(1, 2, 3, 4), r, 2])
    expect([...r]).toEqual([3, 7])
  })
})
