/** Random arguments for a compiled kernel and bounds on its reference run, shared by the differential suites. */
import { analyzeKernel } from '../../plugin/analysis/deps.ts'
import { evaluate } from '../../plugin/ir/affine.ts'
import type { Kernel, Tensor } from '../../plugin/ir/nodes.ts'
import type { KernelAbi } from '../../runtime/abi.ts'
import { argsOf, randomArray } from '../../plugin/verify/random-args.ts'
import type { TensorArray } from './random.ts'

/** Arguments in the ABI's order: random arrays of the right length and dtype, and the given sizes. */
export function makeArgs(abi: KernelAbi, sizes: ReadonlyMap<string, number>, next: () => number): unknown[] {
  return argsOf(abi, Object.fromEntries(sizes), next)
}

/** Elements of tensor `t` at `sizes`. */
const tensorElements = (t: Tensor, sizes: ReadonlyMap<string, number>): number =>
  t.shape.reduce((m, d) => m * evaluate(d, sizes), 1)

/** Arguments of IR kernel `k` in its parameters' order: a random array for each tensor at `sizes`, each size's value. */
export function irArgs(k: Pick<Kernel, 'params' | 'tensors'>, sizes: ReadonlyMap<string, number>, next: () => number): unknown[] {
  return k.params.map((p) => {
    if (p.kind === 'size') return sizes.get(p.name)!
    const t = k.tensors.find((x) => x.name === p.name)!
    return randomArray(t.dtype, tensorElements(t, sizes), next)
  })
}

/** Kernel arguments with every array copied and the sizes as they are: one run's inputs kept for another. */
export function copyArgs(args: readonly unknown[]): unknown[] {
  return args.map((a) => (ArrayBuffer.isView(a) ? (a as TensorArray).slice() : a))
}

/** A copy of `from` that starts `at` elements into a longer array of its type (a view, as `subarray` gives). */
export function copyAtOffset<T extends TensorArray>(from: T, at: number): T {
  const view = new (from.constructor as new (n: number) => T)(from.length + at).subarray(at) as T
  view.set(from as never)
  return view
}

/**
 * Kernel arguments with every array copied at an odd element offset (1, 3, 5, ...; copyAtOffset): views that no vector
 * width divides, as `subarray` and pooled buffers give, where a fresh array is 16-byte aligned or more.
 */
export function copyArgsAtOddOffsets(args: readonly unknown[]): unknown[] {
  let at = -1
  return args.map((a) => (ArrayBuffer.isView(a) ? copyAtOffset(a as TensorArray, (at += 2)) : a))
}

/** Iteration points of every block: a bound on the interpreter's work. */
export function points(k: Kernel, sizes: ReadonlyMap<string, number>): number {
  return k.body.reduce((n, s) => (s.kind === 'block' ? n + s.indices.reduce((m, ix) => m * evaluate(ix.extent, sizes), 1) : n), 0)
}

/** Elements of every tensor, temporaries included: what the arguments and the interpreter's arrays hold. */
export function elements(k: Kernel, sizes: ReadonlyMap<string, number>): number {
  return k.tensors.reduce((n, t) => n + tensorElements(t, sizes), 0)
}

/** The longest reduction of any block, which scales the floating-point tolerance. */
export function reductionLength(k: Kernel, sizes: ReadonlyMap<string, number>): number {
  const facts = analyzeKernel(k)
  let longest = 1
  for (const s of k.body) {
    if (s.kind !== 'block') continue
    const reduced = facts.blocks.get(s.id)!.reductionIndices
    const extents = s.indices.filter((ix) => reduced.includes(ix.name)).map((ix) => evaluate(ix.extent, sizes))
    longest = Math.max(longest, extents.reduce((m, e) => m * e, 1))
  }
  return longest
}
