/**
 * output-factors.ts against the interpreter: a fresh sum's factors over the output's indices move to a statement
 * after it, and the IR before and after the pass computes the same outputs at random odd sizes; the sums it must
 * leave alone come back identical. Through the whole pipeline the split product runs as a flattened GEMM with the
 * factor as its epilogue in registers.
 */
import { describe, expect, it } from 'vitest'
import { interpret } from '../../plugin/ir/interp.ts'
import type { Contraction, Kernel } from '../../plugin/ir/nodes.ts'
import { printStmts } from '../../plugin/ir/print.ts'
import { verifyKernel } from '../../plugin/ir/verify.ts'
import { splitOutputFactors } from '../../plugin/passes/output-factors.ts'
import { lowerSpec } from '../../plugin/pipeline.ts'
import { buildKernel } from '../../plugin/spec/build-ir.ts'
import { paramsOf } from '../support/contractions.ts'
import { specOf } from '../support/examples.ts'
import { copyArgs, irArgs } from '../support/kernel-args.ts'
import { maxRelErr, rng, tolerance, type TensorArray } from '../support/random.ts'

const built = (text: string): Kernel => verifyKernel(buildKernel(specOf(text, paramsOf(text))), 'build')
const split = (k: Kernel): Kernel => verifyKernel(splitOutputFactors(k), 'output-factors')

/** Both kernels' outputs at random sizes from `sizes`, against each other. */
function expectSameOutputs(before: Kernel, after: Kernel, seed: number): void {
  const next = rng(seed)
  for (let trial = 0; trial < 4; trial++) {
    const sizes = new Map(before.params.filter((p) => p.kind === 'size').map((p) => [p.name, [1, 3, 5, 7, 13][Math.floor(next() * 5)]]))
    const args = irArgs(before, sizes, next)
    const [want, got] = [copyArgs(args), copyArgs(args)]
    interpret(before, want)
    interpret(after, got)
    const reduction = Math.max(...sizes.values())
    before.params.forEach((p, n) => {
      const t = before.tensors.find((x) => x.name === p.name)
      if (t?.role === 'out' || t?.role === 'inout') {
        expect(maxRelErr(got[n] as TensorArray, want[n] as TensorArray), `${p.name} at ${[...sizes]}`).toBeLessThanOrEqual(tolerance(t.dtype, reduction))
      }
    })
  }
}

describe('factors of the output\'s indices out of a fresh sum', () => {
  const moved: readonly (readonly [string, string, string])[] = [
    ['a row divisor (attention\'s normalisation)', 'P: f32[S, T]\nV: f32[T, E]\nz: f32[S]\nO: f32[S, E]\nO[s, e] +=! P[s, t] * V[t, e] / z[s] / sqrt(E)',
      'O[s, e] += ((P[s, t] * V[t, e]) / sqrt(E))\n  O[s, e] = (O[s, e] / z[s])'],
    ['a mask over the whole output and a column scale', 'A: f64[M, K]\nB: f64[K, N]\nW: f64[M, N]\nc: f64[N]\nC: f64[M, N]\nC[i, j] +=! c[j] * A[i, k] * W[i, j] * B[k, j]',
      'C[i, j] += (A[i, k] * B[k, j])\n  C[i, j] = ((C[i, j] * c[j]) * W[i, j])'],
    ['a batch scale, under a triangle of the output', 'A: f32[Q, M, K]\nB: f32[Q, M, K]\ns: f32[Q]\nC: f32[Q, M, M]\nC[q, i, j] +=! A[q, i, k] * B[q, j, k] * s[q] where j <= i',
      'C[q, i, j] += (A[q, i, k] * B[q, j, k])\n  C[q, i, j] = (C[q, i, j] * s[q])'],
    ['a divisor under a where clause on the summed index', 'A: f32[M, K]\nB: f32[K, N]\nz: f32[M]\nC: f32[M, N]\nC[i, j] +=! A[i, k] * B[k, j] / z[i] where k <= i',
      'C[i, j] += (A[i, k] * B[k, j])\n  block s0.out [i < M, j < N] {'],
  ]
  for (const [what, text, statements] of moved) {
    it(`${what}: moved to a statement after the sum, same outputs`, () => {
      const before = built(text)
      const after = split(before)
      const printed = printStmts(after.body)
      for (const line of statements.split('\n')) expect(printed).toContain(line.trim())
      expect(after.body.map((s) => s.kind)).toEqual(['fill', 'block', 'block'])
      expectSameOutputs(before, after, 7100 + text.length)
    })
  }

  const left: readonly (readonly [string, string])[] = [
    ['a sum onto what the output held (`+=`)', 'A: f32[M, K]\nB: f32[K, N]\nz: f32[M]\nC: f32[M, N]\nC[i, j] += A[i, k] * B[k, j] / z[i]'],
    ['a factor along the summed index', 'A: f32[M, K]\nB: f32[K, N]\nd: f32[K]\nC: f32[M, N]\nC[i, j] +=! A[i, k] * B[k, j] * d[k]'],
    ['one tensor factor left', 'A: f32[M, K]\nz: f32[M]\nC: f32[M]\nC[i] +=! A[i, k] / z[i]'],
    ['a product over the output\'s indices only', 'A: f32[M, N]\nB: f32[M, N]\nz: f32[M]\nC: f32[M, N]\nC[i, j] +=! A[i, j] * B[i, j] * z[i]'],
  ]
  for (const [what, text] of left) {
    it(`leaves alone ${what}`, () => {
      const before = built(text)
      expect(split(before)).toBe(before)
    })
  }

  it('through the pipeline: a flattened GEMM whose tiles divide by z in registers', () => {
    const text = 'P: f32[S, T]\nV: f32[T, E]\nz: f32[S]\nO: f32[S, E]\nO[s, e] +=! P[s, t] * V[t, e] / z[s]'
    const { ir } = lowerSpec(specOf(text, paramsOf(text)))
    const c = ir.body.find((s): s is Contraction => s.kind === 'contraction')
    expect(c?.roles.layout).toBe('flattened')
    expect(c?.roles.scaleA).toBeUndefined()
    expect(c?.epilogue).toBe(1)
  })

  it('through the pipeline: a convolution scaled per output channel, the scale its epilogue', () => {
    const text = 'I: f32[N, H, W, C]\nF: f32[3, 3, C, K]\ng: f32[K]\nO: f32[N, P, Q, K]\n' +
      'O[n, p, q, k] +=! I[n, p + r - 1, q + s - 1, c] * F[r, s, c, k] * g[k]'
    const { ir } = lowerSpec(specOf(text, paramsOf(text)))
    const conv = ir.body.find((s) => s.kind === 'convolution')
    expect(conv?.kind === 'convolution' && conv.epilogue).toBe(1)
  })
})
