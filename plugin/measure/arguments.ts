/** Arguments to time a kernel with: a value for every size parameter, and tensors filled to suit the timing. */
import { elementCount, type KernelAbi } from '../../runtime/abi.ts'

/**
 * How float tensors are filled. `random`: seeded values in [-0.5, 0.5), the same on every run, so that a wrong
 * index changes an output (tuning compares its candidates' outputs). `steady`: 0.5 to 0.9 in a cycle, so that
 * nothing cancels to a denormal as outputs accumulate (a denormal slows a call many times over, and calibration
 * times microsecond calls). Integers are -3 to 3 in a cycle either way: sums stay far from overflow.
 */
export type Fill = 'random' | 'steady'

/** Every size parameter of `abi` at `s`. */
export function uniformSizes(abi: KernelAbi, s: number): Map<string, number> {
  return new Map(abi.params.flatMap((p) => (p.kind === 'size' ? [[p.name, s] as const] : [])))
}

/** Elements of the largest tensor argument at `sizes`: what a caller bounds before allocating. */
export function largestTensor(abi: KernelAbi, sizes: ReadonlyMap<string, number>): number {
  return abi.params.reduce((most, p) => (p.kind === 'tensor' ? Math.max(most, elementCount(p.shape, sizeIn(sizes))) : most), 0)
}

/** Arguments in the ABI's order at `sizes`, which must give every size parameter. */
export function argumentsOf(abi: KernelAbi, sizes: ReadonlyMap<string, number>, fill: Fill): unknown[] {
  let seed = 12345
  const random = () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32) - 0.5
  const float = fill === 'random' ? random : (i: number) => 0.5 + (i % 5) / 10
  return abi.params.map((p) => {
    if (p.kind === 'size') return sizeIn(sizes)(p.name)
    const length = elementCount(p.shape, sizeIn(sizes))
    const array = new { f32: Float32Array, f64: Float64Array, i32: Int32Array }[p.dtype](length)
    for (let i = 0; i < length; i++) array[i] = p.dtype === 'i32' ? (i % 7) - 3 : float(i)
    return array
  })
}

const sizeIn = (sizes: ReadonlyMap<string, number>) => (name: string): number => {
  const n = sizes.get(name)
  if (n === undefined) throw new Error(`no value for size ${name}`)
  return n
}
