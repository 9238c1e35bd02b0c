/** Random shapes and arguments for a kernel's ABI, from a seeded generator: the same seed gives the same run. */
import { elementCount, type AbiDType, type AbiParam, type KernelAbi } from '../../runtime/abi.ts'
import { workOfCall } from '../../runtime/work.ts'

/** Sizes drawn for each size parameter: small, with odd ones, so tails and size 1 get exercised. */
const SIZES = [1, 2, 3, 4, 5, 7, 8, 9, 13, 16, 17, 31, 33]
/** A shape is redrawn when a call would do more work, or a tensor would have more elements: the body is plain JS. */
const MAX_WORK = 2 ** 20
const MAX_ELEMENTS = 2 ** 20

export type Shape = Readonly<Record<string, number>>

/** mulberry32. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** `count` distinct random shapes (fewer when the kernel has fewer), each within MAX_WORK and MAX_ELEMENTS. */
export function randomShapes(abi: KernelAbi, count: number, next: () => number): Shape[] {
  const sizes = abi.params.filter((p) => p.kind === 'size').map((p) => p.name)
  const work = workOfCall(abi)
  const shapes = new Map<string, Shape>()
  for (let tries = 0; shapes.size < count && tries < 200 * count; tries++) {
    const shape = Object.fromEntries(sizes.map((s) => [s, SIZES[Math.floor(next() * SIZES.length)]]))
    const tensors = abi.params.filter((p) => p.kind === 'tensor')
    if (tensors.some((t) => elementsOf(t, shape) > MAX_ELEMENTS)) continue
    if (work && work(sizeArgs(abi, shape)) > MAX_WORK) continue
    shapes.set(JSON.stringify(shape), shape)
  }
  return [...shapes.values()]
}

/** Arguments in the ABI's order: arrays of random values (outputs too, so an element left unwritten shows). */
export function argsOf(abi: KernelAbi, shape: Shape, next: () => number): unknown[] {
  return abi.params.map((p) => {
    if (p.kind === 'size') return shape[p.name]
    return randomArray(p.dtype, elementsOf(p, shape), next)
  })
}

/** `length` random values of `dtype`: integers in [-100, 100], floats in [-1, 1). */
export function randomArray(dtype: AbiDType, length: number, next: () => number): Float32Array | Float64Array | Int32Array {
  if (dtype === 'i32') return Int32Array.from({ length }, () => Math.floor(next() * 201) - 100)
  const array = dtype === 'f32' ? new Float32Array(length) : new Float64Array(length)
  for (let i = 0; i < length; i++) array[i] = next() * 2 - 1
  return array
}

/** Only the sizes, at their places in the argument list: what a call's work is computed from. */
const sizeArgs = (abi: KernelAbi, shape: Shape): unknown[] => abi.params.map((p) => (p.kind === 'size' ? shape[p.name] : undefined))

export function elementsOf(p: Extract<AbiParam, { kind: 'tensor' }>, shape: Shape): number {
  return elementCount(p.shape, (d) => shape[d])
}
