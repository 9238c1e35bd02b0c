/**
 * How a contraction's blocked GEMM reaches each tensor, for `explain`: per operand and role, the role's indices and
 * either the one stride its flattened indices share (row-major: the product of the dimensions after its innermost),
 * or the offset table a gathered contraction reads them through.
 */
import { format } from '../ir/affine.ts'
import type { Access, ContractionRoles, IndexRange, Tensor } from '../ir/nodes.ts'
import { printRole } from '../ir/print.ts'

export function describePanels(r: ContractionRoles, tensors: readonly Tensor[]): string {
  const shape = (a: Access) => tensors.find((t) => t.name === a.tensor)?.shape ?? []
  const stride = (a: Access, role: readonly IndexRange[]): string => {
    const dim = a.index.findIndex((ix) => ix.terms[0]?.v === role[role.length - 1].name)
    const after = shape(a).slice(dim + 1).map((d) => (d.terms.length + (d.constant === 0 ? 0 : 1) > 1 ? `(${format(d)})` : format(d)))
    return after.length === 0 ? '1' : after.join('·')
  }
  const how = (a: Access, role: readonly IndexRange[], name: string): string =>
    r.layout === 'flattened' ? `${name} ${printRole(role)} flattened (stride ${stride(a, role)})` : `${name} ${printRole(role)}`
  const operand = (label: string, a: Access, roles: readonly [readonly IndexRange[], string][]): string => {
    const parts = roles.map(([role, name]) => how(a, role, name)).join(', ')
    return r.layout === 'flattened' ? `${label} ${a.tensor}: ${parts}` : `${label} ${a.tensor} gathered through offset tables of ${parts}`
  }
  const panels = [
    operand('A', r.a, [[r.m, 'm'], [r.k, 'k']]),
    operand('B', r.b, [[r.k, 'k'], [r.n, 'n']]),
    operand('C', r.c, [[r.m, 'm'], [r.n, 'n']]),
  ]
  const tiles = r.layout === 'gathered' ? '; a C tile in place where the columns of each of its vectors are contiguous' : ''
  return `${panels.join('; ')}${tiles}`
}
