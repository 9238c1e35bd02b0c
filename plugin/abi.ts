/** The runtime's view of a kernel: parameter order, dtypes, shapes by size name, roles, and what it returns. */
import type { AbiParam, KernelAbi } from '../runtime/abi.ts'
import { internalAssert } from './diagnostics.ts'
import type { Affine } from './ir/nodes.ts'
import type { KernelSpec } from './spec/checked.ts'

export function abiOf(spec: KernelSpec, loc: string): KernelAbi {
  const tensors = new Map(spec.tensors.map((t) => [t.name, t]))
  const params: AbiParam[] = spec.params.map((p) => {
    if (p.kind === 'size') return p
    const t = tensors.get(p.name)
    internalAssert(t && t.role !== 'temp', 'abi', `parameter ${p.name} is not a tensor of the spec`)
    return { kind: 'tensor', name: t.name, dtype: t.dtype, shape: t.shape.map(dimOf), role: t.role }
  })
  const outputs = params.flatMap((p, n) => (p.kind === 'tensor' && p.role !== 'in' ? [n] : []))
  return { name: spec.name, loc, params, returns: outputs.length === 1 ? outputs[0] : -1 }
}

/** A declared dimension is a size symbol or a literal, never a general affine form. */
function dimOf(a: Affine): string | number {
  if (a.terms.length === 0) return a.constant
  internalAssert(a.terms.length === 1 && a.terms[0].coeff === 1 && a.constant === 0, 'abi', 'a dimension is not a size or a literal')
  return a.terms[0].v
}
