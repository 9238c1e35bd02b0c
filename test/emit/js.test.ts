import { describe, expect, it } from 'vitest'
import { KernelInternalError } from '../../plugin/diagnostics.ts'
import { emitJs } from '../../plugin/emit/js.ts'
import type { Kernel, Stmt } from '../../plugin/ir/nodes.ts'
import { maxRelErr, randomArray, rng } from '../support/random.ts'
import { vectorize } from '../../plugin/passes/vectorize.ts'
import { contractionKernel } from '../support/contractions.ts'
import { CONV_SPECS } from '../support/convolutions.ts'
import * as K from './kernels.ts'

type Fn = (...args: unknown[]) => void
const compile = (kernel: Kernel): Fn => new Function(`'use strict'; return ${emitJs(kernel)}`)() as Fn

/** 1, primes, and sizes that are not multiples of 8 or 16. */
const SIZES = [1, 2, 3, 7, 13, 17, 31, 33]
const next = rng(0x5eed)
const pick = (): number => SIZES[Math.floor(next() * SIZES.length)]
const f32 = (n: number): Float32Array => randomArray('f32', n, next) as Float32Array
const garbage = (n: number): Float32Array => new Float32Array(n).fill(NaN)

const INT_SPECIALS = [0, 1, -1, 2, -2, 3, 7, -7, 2147483647, -2147483648, 2147483646, -2147483647, 65536, 46341]

describe('emitJs', () => {
  it('matmul matches plain loops on random shapes', () => {
    const run = compile(K.matmul)
    const shapes = [[1, 1, 1], [7, 17, 33], [33, 1, 13], [13, 31, 2]]
    for (let n = 0; n < 6; n++) shapes.push([pick(), pick(), pick()])
    for (const [M, N, K_] of shapes) {
      const [A, B, C, want] = [f32(M * K_), f32(K_ * N), garbage(M * N), new Float32Array(M * N)]
      run(A, B, C, M, N, K_)
      K.matmulRef(A, B, want, M, N, K_)
      expect(maxRelErr(C, want), `${M}x${N}x${K_}`).toBeLessThan(1e-6 * K_)
    }
  })

  it('padded conv1d: If guards, zeroOutside loads and max/min bounds all match the reference', () => {
    const run = compile(K.conv1d)
    for (const N of [...SIZES, 4, 5]) {
      const [x, w] = [f32(N), f32(3)]
      const ys = [garbage(N), garbage(N), garbage(N)]
      const want = new Float32Array(N)
      run(x, w, ...ys, N)
      K.conv1dRef(x, w, want, N)
      for (const y of ys) expect(maxRelErr(y, want), `N=${N}`).toBeLessThan(1e-6)
    }
  })

  it('softmax with temporaries and fills matches the reference', () => {
    const run = compile(K.softmax)
    for (const [N, D] of [[1, 1], [1, 33], [7, 17], [33, 3], [pick(), pick()]]) {
      const X = f32(N * D).map((x) => x * 20)
      const [Y, want] = [garbage(N * D), new Float32Array(N * D)]
      run(X, Y, N, D)
      K.softmaxRef(X, want, N, D)
      expect(maxRelErr(Y, want), `${N}x${D}`).toBeLessThan(1e-6 * D)
    }
  })

  it('i32 wraps like C: division/modulo by 0 and -1, INT32_MIN, multiplication overflow', () => {
    const run = compile(K.i32ops)
    const pairs = INT_SPECIALS.flatMap((a) => INT_SPECIALS.map((b) => [a, b]))
    for (let n = 0; n < 200; n++) pairs.push([(next() * 2 ** 32) | 0, (next() * 2 ** 32) | 0])
    const N = pairs.length
    const a = Int32Array.from(pairs, (p) => p[0])
    const b = Int32Array.from(pairs, (p) => p[1])
    const got = K.i32Outputs(N)
    run(a, b, got.q, got.r, got.p, got.s, got.t, got.c, got.mx, N)
    const want = K.i32opsRef(a, b, N)
    for (const key of Object.keys(want) as (keyof typeof want)[]) expect([...got[key]], key).toEqual([...want[key]])
  })

  it('i32 sums of sizes near 2^53 stay exact', () => {
    const run = compile(K.wide)
    for (const N of [2 ** 53 - 1, 2 ** 53 - 2, 2 ** 52 + 12345, 2 ** 31, 2 ** 32 + 7, 5]) {
      const out = new Int32Array(3).fill(-2147483000)
      run(out, N)
      expect([...out], `N=${N}`).toEqual([...K.wideRef(N, -2147483000)])
    }
  })

  it('i32 arithmetic wraps only where needed', () => {
    const src = emitJs(K.i32ops)
    expect(src).toContain('Math.imul(a[i], b[i])')
    expect(src).toContain('p[i] = Math.imul(p[i], a[i] + 3)') // imul wraps its own arguments
    expect(src).toContain('mx[0] = Math.max(mx[0], (a[i] + b[i]) | 0)') // max needs the wrapped value
    expect(emitJs(K.matmul)).not.toContain('|')
  })

  it('floordiv/ceildiv bounds round negative numerators correctly', () => {
    const run = compile(K.bounds)
    for (let N = 0; N <= 40; N++) {
      const out = new Int32Array(3).fill(99)
      run(out, N)
      expect([...out], `N=${N}`).toEqual([...K.boundsRef(N)])
    }
  })

  for (const dtype of ['f32', 'f64'] as const) {
    it(`${dtype} builtins, NaN-propagating max/min, ±0, ±Infinity and rank-0 reductions`, () => {
      const run = compile(K.pointwise(dtype))
      const Arr = dtype === 'f32' ? Float32Array : Float64Array
      const specials = [0, -0, 1, -1, 0.5, -2.5, NaN, Infinity, -Infinity, 3]
      const xs = new Arr([...specials.flatMap((s) => specials.map(() => s)), ...randomArray(dtype, 37, next)])
      const ys = new Arr([...specials.flatMap(() => specials), ...randomArray(dtype, 37, next)])
      const N = xs.length
      const outs = Array.from({ length: 5 }, () => new Arr(N).fill(7))
      const [tot, top] = [new Arr(1).fill(7), new Arr(1).fill(7)]
      run(xs, ys, ...outs, tot, top, N)
      const want = K.pointwiseRef(xs, ys, N)
      const keys = ['e', 'g', 'h', 'l', 'm'] as const
      keys.forEach((key, n) => expect(maxRelErr(outs[n], new Arr(want[key])), key).toBeLessThan(dtype === 'f32' ? 1e-6 : 1e-14))
      for (const [n, key] of [[2, 'h'], [3, 'l']] as const) {
        // max/min must agree on the sign of zero too.
        expect([...outs[n]].map((x) => Object.is(x, -0)), key).toEqual(want[key].map((x) => Object.is(Math.fround(x), -0)))
      }
      expect(Number.isNaN(tot[0])).toBe(true) // NaN in x propagates through +=
      expect(Number.isNaN(top[0])).toBe(true) // and through max=
    })
  }

  it('rank-0 reductions without NaN', () => {
    const run = compile(K.pointwise('f64'))
    const N = 17
    const [xs, ys] = [randomArray('f64', N, next), randomArray('f64', N, next)]
    const tot = new Float64Array(1)
    const top = new Float64Array(1)
    run(xs, ys, ...Array.from({ length: 5 }, () => new Float64Array(N)), tot, top, N)
    const want = K.pointwiseRef(xs, ys, N)
    expect(tot[0]).toBeCloseTo(want.tot[0], 12)
    expect(top[0]).toBe(want.top[0])
  })

  it('renames parameters and indices that clash with JS keywords or the globals it uses', () => {
    const square = K.ld('Math', ['in'], 'i32')
    const clash = K.kernel(
      'clash',
      ['Math', 'NaN', 'N'],
      [K.tensor('Math', 'i32', ['N'], 'in'), K.tensor('NaN', 'i32', ['N'], 'out')],
      ['N'],
      [K.loop('in', 0, 'N', [K.store('NaN', ['in'], '=', K.bin('mul', square, square, 'i32'))])],
    )
    const src = emitJs(clash)
    expect(src).toMatch(/^function \(Math_, NaN_, N\)/)
    const out = new Int32Array(3)
    ;(new Function(`return ${src}`)() as Fn)(new Int32Array([3, 65536, -5]), out, 3)
    expect([...out]).toEqual([9, 0, 25])
  })

  it('prints every constant so that it reads back exactly', () => {
    for (const dtype of ['f32', 'f64'] as const) {
      const out = dtype === 'f32' ? new Float32Array(K.TRICKY_CONSTANTS.length) : new Float64Array(K.TRICKY_CONSTANTS.length)
      compile(K.constants(dtype))(out)
      const want = dtype === 'f32' ? K.TRICKY_CONSTANTS.map(Math.fround) : K.TRICKY_CONSTANTS
      want.forEach((c, n) => expect(Object.is(out[n], c), `${dtype} ${c}`).toBe(true))
    }
  })

  it('allocates zeroed temporaries per call', () => {
    const run = compile(K.scratch)
    for (const Z of [0, 1, 7]) {
      const out = new Float64Array(1).fill(NaN)
      run(out, Z)
      expect(out[0]).toBe(Z * Z)
    }
  })

  it('keeps working when tensors shadow Math or use C keywords as names', () => {
    const n = 5
    const x = randomArray('f64', n, next)
    const [e, m] = [new Float64Array(n), new Int32Array(n)]
    compile(K.clash)(x, e, m, n)
    expect([...e]).toEqual([...x].map(Math.exp))
    expect([...m]).toEqual([0, 5, 10, 15, 20])
  })

  it('hoists products of sizes out of the loops as stride constants', () => {
    const nchw = K.kernel(
      'nchwToNhwc',
      ['X', 'Y', 'N', 'C', 'H', 'W'],
      [K.tensor('X', 'f32', ['N', 'C', 'H', 'W'], 'in'), K.tensor('Y', 'f32', ['N', 'H', 'W', 'C'], 'out')],
      ['N', 'C', 'H', 'W'],
      [
        K.loop('n', 0, 'N', [
          K.loop('h', 0, 'H', [
            K.loop('w', 0, 'W', [K.loop('c', 0, 'C', [K.store('Y', ['n', 'h', 'w', 'c'], '=', K.ld('X', ['n', 'c', 'h', 'w']))])]),
          ]),
        ]),
      ],
    )
    const src = emitJs(nchw)
    expect(src).toContain('const sX0 = C*H*W;')
    expect(src).toContain('Y[n*sY0 + h*sY1 + w*C + c] = X[n*sX0 + c*sX1 + h*W + w];')
    const [N, C, H, W] = [2, 3, 5, 7]
    const X = f32(N * C * H * W)
    const Y = new Float32Array(X.length)
    ;(new Function(`return ${src}`)() as Fn)(X, Y, N, C, H, W)
    for (let n = 0; n < N; n++) for (let c = 0; c < C; c++) for (let h = 0; h < H; h++) for (let w = 0; w < W; w++) {
      expect(Y[((n * H + h) * W + w) * C + c]).toBe(X[((n * C + c) * H + h) * W + w])
    }
  })

  it('runs a vector loop around a nest innermost, under the nest (JS has no lanes)', () => {
    const depthwise = vectorize(contractionKernel(CONV_SPECS.depthwise, 'depthwise'))
    const heads = emitJs(depthwise).split('\n').filter((l) => /^\s*for \(let /.test(l)).map((l) => /for \(let (\w+)/.exec(l)![1])
    expect(heads).toEqual(['n', 'p', 'q', 'r', 's', 'c'])
  })

  it('throws an internal error when a Block reaches it', () => {
    const block: Stmt = { kind: 'block', id: 's0', indices: [], constraints: [], body: [], tags: [] }
    const withBlock: Kernel = { ...K.matmul, body: [block] }
    expect(() => emitJs(withBlock)).toThrow(KernelInternalError)
  })
})
