/**
 * Epilogue fusion's legality (fuse-epilogue.ts): the statements it must leave alone, each with the reason it logs, and
 * after a contraction where the epilogue runs (analysis/tile-epilogue.ts). Fused kernels' results are checked in
 * test/native/conv.test.ts and gemm-epilogue.test.ts, against the unfused spec.
 */
import { describe, expect, it } from 'vitest'
import type { Contraction, Kernel } from '../../plugin/ir/nodes.ts'
import { lowerSpec } from '../../plugin/pipeline.ts'
import { paramsOf } from '../support/contractions.ts'
import { fusedConvolutionKernel } from '../support/convolutions.ts'
import { specOf } from '../support/examples.ts'

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
    expect(log.join('\n')).toContain('k s0: s1 fused as the epilogue, applied in registers to the tiles a direct call sums whole, else on each finished output block in place on O')
  })

  const refused: readonly (readonly [string, string, string])[] = [
    ['T read again later', conv(`${O}\nX: f32[N, P, Q, K]`, 'O[n, p, q, k] = T[n, p, q, k]\nX[n, p, q, k] = T[n, p, q, k]'), 'T is also used by s2'],
    ['the statement reads O', conv(O, 'O[n, p, q, k] = T[n, p, q, k] + O[n, p, q, k]'), 'the statement reads O, which the epilogue overwrites'],
    ['T read at another element', conv(O, 'O[n, p, q, k] = T[n, p, q, k] - T[n, 0, q, k]'), 'the statement reads T away from the element it writes'],
    ['T read transposed', conv('O: f32[N, Q, P, K]', 'O[n, q, p, k] = T[n, p, q, k]'), 'the statement reads T away from the element it writes'],
    ['a reduction after', conv('O: f32[N, P, K]\nX: f32[Q]', 'O[n, p, k] += T[n, p, q, k] * X[q]'), 'not an assignment'],
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

/** The messages of the fuse-epilogue step, and the IR, of a spec through the whole pipeline. */
function throughPipeline(spec: string): { kernel: Kernel; log: string[] } {
  const log: string[] = []
  const { ir } = lowerSpec(specOf(spec, paramsOf(spec)), (e) => {
    if (e.kind === 'step' && e.name === 'fuse-epilogue') log.push(...e.messages.map((m) => m.text))
  })
  return { kernel: ir, log }
}

describe('epilogue fusion after a contraction', () => {
  const product = 'A: f32[M, K]\nB: f32[K, N]\nC: f32[M, N]\nlet T: f32[M, N]\nT[i, j] +=! A[i, k] * B[k, j]\n'
  const contraction = (k: Kernel) => k.body.find((s) => s.kind === 'contraction') as Contraction | undefined

  it('fuses bias + ReLU into the GEMM, applied in its register tiles, and T is gone', () => {
    const { kernel, log } = throughPipeline(`bias: f32[N]\n${product}C[i, j] = max(T[i, j] + bias[j], 0)`)
    expect(contraction(kernel)?.epilogue).toBe(1)
    expect(kernel.tensors.map((t) => t.name)).not.toContain('T')
    expect(log.join('\n')).toContain('s0: s1 fused as the epilogue, applied in registers to each GEMM tile of the last k block in place on C')
  })

  const afterwards: readonly (readonly [string, string, string])[] = [
    ['a transposed read', `U: f32[N, M]\n${product}C[i, j] = T[i, j] + U[j, i]`, 'it reads U at indices a tile cannot address'],
    ['an index as a value', `${product}C[i, j] = T[i, j] * i`, 'it reads the index i as a value'],
    ['a power', `${product}C[i, j] = pow(T[i, j], 2)`, 'its expression has no f32 vector form'],
    ['a triangular domain', 'A: f32[M, K]\nC: f32[M, M]\nlet T: f32[M, M]\nT[i, j] +=! A[i, k] * A[j, k] where j <= i\nC[i, j] = T[i, j] * 2',
      'a triangular domain leaves part of C to the fill'],
  ]
  for (const [what, spec, reason] of afterwards) {
    it(`fuses it as loops after the GEMM when the tiles cannot apply it: ${what}`, () => {
      const { kernel, log } = throughPipeline(spec)
      expect(contraction(kernel)?.epilogue).toBe(1)
      expect(log.join('\n')).toContain(`run as loops over the output after the GEMM (${reason}`)
    })
  }

  it('fuses a statement in place on the fresh sum as it is: C keeps its fill, no temporary', () => {
    const spec = 'P: f32[S, T]\nV: f32[T, E]\nz: f32[S]\nO: f32[S, E]\nO[s, e] +=! P[s, t] * V[t, e]\nO[s, e] = O[s, e] / z[s]'
    const { kernel, log } = throughPipeline(spec)
    expect(contraction(kernel)?.epilogue).toBe(1)
    expect(kernel.body.map((s) => s.kind)).toEqual(['fill', 'contraction'])
    expect(log.join('\n')).toContain('s0: s1 fused as the epilogue, applied in registers to each GEMM tile of the last k block in place on O')
  })

  it('leaves an in-place statement alone after a sum that adds to what C held', () => {
    const { kernel, log } = throughPipeline('A: f32[M, K]\nB: f32[K, N]\nC: f32[M, N]\nC[i, j] += A[i, k] * B[k, j]\nC[i, j] = max(C[i, j], 0)')
    expect(contraction(kernel)?.epilogue ?? 0).toBe(0)
    expect(log.join('\n')).toContain('the statement works in place on C, which the contraction does not sum from zero')
  })

  it('leaves the statement alone when it reads an operand of the product', () => {
    const { kernel, log } = throughPipeline('A: f32[M, N]\nB: f32[N, N]\nlet T: f32[M, N]\nT[i, j] +=! A[i, k] * B[k, j]\nA[i, j] = T[i, j]')
    expect(contraction(kernel)?.epilogue ?? 0).toBe(0)
    expect(log.join('\n')).toContain('A is an operand of the contraction')
  })
})
