/** measure/arguments.ts: sizes in the ABI's order, tensors of the right length and dtype, each fill's values. */
import { describe, expect, it } from 'vitest'
import type { KernelAbi } from '../../runtime/abi.ts'
import { argumentsOf, largestTensor, uniformSizes } from '../../plugin/measure/arguments.ts'

const ABI: KernelAbi = {
  name: 'k',
  loc: 'k.ts:1:1',
  returns: -1,
  params: [
    { kind: 'tensor', name: 'A', dtype: 'f32', shape: ['M', 'K'], role: 'in' },
    { kind: 'tensor', name: 'I', dtype: 'i32', shape: [3, 'K'], role: 'in' },
    { kind: 'tensor', name: 'C', dtype: 'f64', shape: ['M'], role: 'out' },
    { kind: 'size', name: 'M' },
    { kind: 'size', name: 'K' },
  ],
}
const SIZES = new Map([['M', 5], ['K', 7]])

describe('argumentsOf', () => {
  it('gives sizes in their places and tensors of their shapes and dtypes', () => {
    const [A, I, C, M, K] = argumentsOf(ABI, SIZES, 'random')
    expect([A, I, C].map((a) => [a!.constructor.name, (a as Float32Array).length])).toEqual([
      ['Float32Array', 35],
      ['Int32Array', 21],
      ['Float64Array', 5],
    ])
    expect([M, K]).toEqual([5, 7])
  })

  it('fills random floats in [-0.5, 0.5), the same on every call, with both signs', () => {
    const [A] = argumentsOf(ABI, SIZES, 'random') as Float32Array[]
    expect(argumentsOf(ABI, SIZES, 'random')[0]).toEqual(A)
    expect(A.every((x) => x >= -0.5 && x < 0.5)).toBe(true)
    expect(A.some((x) => x < 0) && A.some((x) => x > 0)).toBe(true)
    expect(new Set(A).size).toBe(A.length)
    // The values tuning has always timed with (an LCG from seed 12345), so its cached winners stay comparable.
    const three: KernelAbi = { ...ABI, params: [{ kind: 'tensor', name: 'X', dtype: 'f64', shape: [3], role: 'in' }] }
    const lcg = new Float64Array([-0.4795973142609, -0.4834521517623216, 0.043155794497579336])
    expect(argumentsOf(three, new Map(), 'random')).toEqual([lcg])
  })

  it('fills steady floats from 0.5 to 0.9, and integers from -3 to 3, either way', () => {
    const [A, I] = argumentsOf(ABI, SIZES, 'steady') as [Float32Array, Int32Array]
    expect([...A.slice(0, 6)]).toEqual([0.5, 0.6, 0.7, 0.8, 0.9, 0.5].map(Math.fround))
    expect([...I.slice(0, 8)]).toEqual([-3, -2, -1, 0, 1, 2, 3, -3])
    expect(argumentsOf(ABI, SIZES, 'random')[1]).toEqual(I)
  })

  it('throws on a size parameter without a value', () => {
    expect(() => argumentsOf(ABI, new Map([['M', 5]]), 'random')).toThrow('no value for size K')
  })
})

describe('uniformSizes and largestTensor', () => {
  it('set every size parameter to one value, and count the largest tensor at given sizes', () => {
    expect(uniformSizes(ABI, 4)).toEqual(new Map([['M', 4], ['K', 4]]))
    expect(largestTensor(ABI, SIZES)).toBe(35)
    expect(largestTensor(ABI, new Map([['M', 1], ['K', 9]]))).toBe(27)
  })
})
