// What explain says about how a contraction's GEMM reaches each tensor: a stride per flattened role, offset tables
// for a gathered one.
import { describe, expect, it } from 'vitest'
import type { Contraction, Kernel } from '../../plugin/ir/nodes.ts'
import { walkStmts } from '../../plugin/ir/walk.ts'
import { describePanels } from '../../plugin/report/contraction-panels.ts'
import { contractionKernel } from '../support/contractions.ts'

function panelsOf(kernel: Kernel): string {
  let found: Contraction | undefined
  walkStmts(kernel.body, (s) => void (s.kind === 'contraction' && (found = s)))
  return describePanels(found!.roles, kernel.tensors)
}

describe('describePanels', () => {
  it('flattened roles: each with the stride its innermost index has in each tensor', () => {
    const k = contractionKernel('X: f64[A, B, C, D]\nY: f64[C, D, E, F]\nZ: f64[A, B, E, F]\nZ[a, b, e, f] +=! X[a, b, c, d] * Y[c, d, e, f]', 'r')
    expect(panelsOf(k)).toBe(
      'A X: m a·b flattened (stride C·D), k c·d flattened (stride 1); B Y: k c·d flattened (stride E·F), n e·f flattened ' +
        '(stride 1); C Z: m a·b flattened (stride E·F), n e·f flattened (stride 1)',
    )
  })

  it('a gathered contraction: every tensor through offset tables, and when a C tile is stored in place', () => {
    const k = contractionKernel('X: f32[K, B]\nY: f32[C, K, A]\nZ: f32[C, B, A]\nZ[c, b, a] += X[k, b] * Y[c, k, a]', 't')
    expect(panelsOf(k)).toBe(
      'A X gathered through offset tables of m b, k k; B Y gathered through offset tables of k k, n c·a; C Z gathered ' +
        'through offset tables of m b, n c·a; a C tile in place where the columns of each of its vectors are contiguous',
    )
  })
})
