/** reorder (plugin/passes/reorder.ts): which index goes innermost, from the access maps and the extents. */
import { describe, expect, it } from 'vitest'
import { buildKernel } from '../../plugin/spec/build-ir.ts'
import type { Block } from '../../plugin/ir/nodes.ts'
import { reorder } from '../../plugin/passes/reorder.ts'
import { specOf } from '../support/examples.ts'

const orderOf = (spec: string, params: string[]): string[] => {
  const kernel = reorder(buildKernel(specOf(spec, params)))
  const block = kernel.body.find((s): s is Block => s.kind === 'block')!
  return block.indices.map((ix) => ix.name)
}

describe('reorder', () => {
  it('puts the index that walks C and B contiguously innermost in a matmul', () => {
    expect(orderOf('A: f32[M, K]\nB: f32[K, N]\nC: f32[M, N]\nC[i, j] += A[i, k] * B[k, j]', ['A', 'B', 'C', 'M', 'N', 'K']))
      .toEqual(['i', 'k', 'j'])
  })

  it('keeps a short filter tap outside the long contiguous image index its window slides along', () => {
    const blur = 'I: f32[H, W]\nF: f32[5, 5]\nS: f32[H, W]\nS[y, x] += I[y + r - 2, x + c - 2] * F[r, c]'
    expect(orderOf(blur, ['I', 'F', 'S', 'H', 'W'])).toEqual(['y', 'r', 'c', 'x'])
    // A tap as long as a vector counts in full again: the filter's contiguous index goes innermost.
    const wide = 'I: f32[H, W]\nF: f32[5, 16]\nS: f32[H, W]\nS[y, x] += I[y + r - 2, x + c - 8] * F[r, c]'
    expect(orderOf(wide, ['I', 'F', 'S', 'H', 'W']).at(-1)).toBe('c')
  })

  it('runs reductions inside the loops of the stored element, which then accumulates in place', () => {
    const depthwise = 'I: f32[N, H, W, C]\nF: f32[3, 3, C]\nO: f32[N, P, Q, C]\nO[n, p, q, c] += I[n, p + r - 1, q + s - 1, c] * F[r, s, c]'
    expect(orderOf(depthwise, ['I', 'F', 'O', 'N', 'H', 'W', 'C', 'P', 'Q'])).toEqual(['n', 'p', 'q', 'c', 'r', 's'])
    // A long reduction (k, a size parameter) keeps the contiguous stored index innermost: i-k-j, as plain loops want.
    expect(orderOf('A: f32[M, K]\nB: f32[K, N]\nC: f32[M, N]\nC[i, j] += A[i, k] * B[k, j]', ['A', 'B', 'C', 'M', 'N', 'K']))
      .toEqual(['i', 'k', 'j'])
    // A reduction index that walks neither operand contiguously would otherwise go outermost (a whole C per k).
    expect(orderOf('A: f32[K, M]\nB: f32[K, N]\nC: f32[M, N]\nC[i, j] += A[k, i] * B[k, j]', ['A', 'B', 'C', 'M', 'N', 'K']))
      .toEqual(['i', 'k', 'j'])
  })

  it('sums a row along its contiguous index', () => {
    expect(orderOf('X: f32[M, N]\ns: f32[M]\ns[i] += X[i, j]', ['X', 's', 'M', 'N'])).toEqual(['i', 'j'])
  })
})
