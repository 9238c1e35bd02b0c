/**
 * Epilogue fusion's legality (fuse-epilogue.ts): the statements it must leave alone, each with the reason it logs.
 * Fused kernels' results are checked in test/native/conv.test.ts, against the unfused spec.
 */
import { describe, expect, it } from 'vitest'
import type { Kernel } from '../../plugin/ir/nodes.ts'
import { fusedConvolutionKernel } from '../support/convolutions.ts'

/** A 3×3 convolution into the temporary T, then `after`; `decls` declares O and whatever else `after` names. */
const conv = (decls: string, after: string) => 'I: f32[N, H, W, C]\nF: f32[3, 3, C, K]\n' + decls +
  '\nlet T: f32[N, P, Q, K]\nT[n, p, q, k] +=! I[n, p + r - 1, q + s - 1, c] * F[r, s, c, k]\n' + after
const O = 'O: f32[N, P, Q, K]'

function fuse(spec: string): { kernel: Kernel; log: string[] } {
  const log: string[] = []
  const kernel = fusedConvolutionKernel(spec, 'k', 'direct', (p) => p, (m) => log.push(m))
  return { kernel, log }
}

const epilogueOf = (k: Kernel) => k.body.find((s) => s.kind === 'convolution')?.kind === 'convolution'
  ? (k.body.find((s) => s.kind === 'convolution') as { epilogue?: number }).epilogue ?? 0
  : 0

describe('epilogue fusion', () => {
  it('fuses bias + ReLU: the convolution sums into O, zeroed just before it, and T is gone', () => {
    const { kernel, log } = fuse(conv(`bias: f32[K]\n${O}`, 'O[n, p, q, k] = max(T[n, p, q, k] + bias[k], 0)'))
    expect(epilogueOf(kernel)).toBe(1)
    expect(kernel.tensors.map((t) => t.name)).not.toContain('T')
    expect(kernel.body[0]).toMatchObject({ kind: 'fill', tensor: 'O' })
    expect(log.join('\n')).toContain('k s0: s1 fused as the epilogue, run on each finished output block in place on O')
  })

  const refused: readonly (readonly [string, string, string])[] = [
    ['T read again later', conv(`${O}\nX: f32[N, P, Q, K]`, 'O[n, p, q, k] = T[n, p, q, k]\nX[n, p, q, k] = T[n, p, q, k]'), 'T is also used by s2'],
    ['the statement reads O', conv(O, 'O[n, p, q, k] = T[n, p, q, k] + O[n, p, q, k]'), 'the statement reads O, which the epilogue overwrites'],
    ['T read at another element', conv(O, 'O[n, p, q, k] = T[n, p, q, k] - T[n, 0, q, k]'), 'the statement reads T away from the element it writes'],
    ['T read transposed', conv('O: f32[N, Q, P, K]', 'O[n, q, p, k] = T[n, p, q, k]'), 'O and T differ in shape or type'],
    ['a reduction after', conv('O: f32[N, P, K]\nX: f32[Q]', 'O[n, p, k] += T[n, p, q, k] * X[q]'), 'not an assignment to another tensor'],
    ['a statement over part of O', conv(O, 'O[n, p, q, k] = T[n, p, q, k] where q < 3'), 'not one unconstrained element-wise store'],
  ]
  for (const [what, spec, reason] of refused) {
    it(`leaves the statement alone when ${what}`, () => {
      const { kernel, log } = fuse(spec)
      expect(epilogueOf(kernel)).toBe(0)
      expect(kernel.tensors.map((t) => t.name)).toContain('T')
      expect(log.join('\n')).toContain(reason)
    })
  }

  it('says so when the convolution writes an output, not a temporary', () => {
    const { kernel, log } = fuse('I: f32[N, H, W, C]\nF: f32[3, 3, C, K]\nO: f32[N, P, Q, K]\nY: f32[N, P, Q, K]\n' +
      'O[n, p, q, k] +=! I[n, p + r - 1, q + s - 1, c] * F[r, s, c, k]\nY[n, p, q, k] = max(O[n, p, q, k], 0)')
    expect(epilogueOf(kernel)).toBe(0)
    expect(log.join('\n')).toContain('the convolution writes O, not a temporary')
  })
})
