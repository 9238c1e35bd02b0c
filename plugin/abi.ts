/** The runtime's view of a kernel: parameter order, dtypes, shapes by size name, roles, and what it returns. */
import type { AbiParam, KernelAbi, WorkMonomial } from '../runtime/abi.ts'
import { internalAssert } from './diagnostics.ts'
import type { Affine, Kernel } from './ir/nodes.ts'
import type { KernelSpec } from './spec/checked.ts'

/** `blocks`: the kernel in block form (ir/build output), whose extents give the ABI's `work` (see workOf). */
export function abiOf(spec: KernelSpec, loc: string, blocks?: Kernel): KernelAbi {
  const tensors = new Map(spec.tensors.map((t) => [t.name, t]))
  const params: AbiParam[] = spec.params.map((p) => {
    if (p.kind === 'size') return p
    const t = tensors.get(p.name)
    internalAssert(t && t.role !== 'temp', 'abi', `parameter ${p.name} is not a tensor of the spec`)
    return { kind: 'tensor', name: t.name, dtype: t.dtype, shape: t.shape.map(dimOf), role: t.role }
  })
  const outputs = params.flatMap((p, n) => (p.kind === 'tensor' && p.role !== 'in' ? [n] : []))
  const temps = spec.tensors.filter((t) => t.role === 'temp').map((t) => ({ name: t.name, dtype: t.dtype, shape: t.shape.map(dimOf) }))
  const abi: KernelAbi = {
    name: spec.name, loc, params, returns: outputs.length === 1 ? outputs[0] : -1, ...(temps.length > 0 ? { temps } : {}),
  }
  return blocks === undefined ? abi : { ...abi, work: workOf(blocks) }
}

/**
 * Σ over the top-level blocks of the product of their extents, expanded into monomials over size names (extents
 * are affine in the sizes, usually one size each), like terms merged: what the runtime weighs a call by.
 */
export function workOf(kernel: Kernel): WorkMonomial[] {
  // A monomial as its sorted size names joined by spaces ('' is the constant term), mapped to its coefficient.
  const total = new Map<string, number>()
  for (const s of kernel.body) {
    if (s.kind !== 'block') continue
    let product = new Map([['', 1]])
    for (const ix of s.indices) {
      const factor = [...ix.extent.terms.map((t) => [[t.v], t.coeff] as const), [[], ix.extent.constant] as const]
      const next = new Map<string, number>()
      for (const [key, c] of product) {
        for (const [v, k] of factor) {
          const merged = [...(key === '' ? [] : key.split(' ')), ...v].sort().join(' ')
          next.set(merged, (next.get(merged) ?? 0) + c * k)
        }
      }
      product = next
    }
    for (const [key, c] of product) total.set(key, (total.get(key) ?? 0) + c)
  }
  // A size choice's candidates are blocks inside ifs: count its first candidate (the best at representative sizes).
  for (const [c, ...sizes] of (kernel.choices ?? []).flatMap((x) => x.costs[0])) {
    const key = [...sizes].sort().join(' ')
    total.set(key, (total.get(key) ?? 0) + c)
  }
  const monomials = [...total].filter(([, c]) => c !== 0)
  return monomials.map(([key, c]): WorkMonomial => [c, ...(key === '' ? [] : key.split(' '))])
}

/** A declared dimension is a size symbol or a literal, never a general affine form. */
function dimOf(a: Affine): string | number {
  if (a.terms.length === 0) return a.constant
  internalAssert(a.terms.length === 1 && a.terms[0].coeff === 1 && a.constant === 0, 'abi', 'a dimension is not a size or a literal')
  return a.terms[0].v
}
