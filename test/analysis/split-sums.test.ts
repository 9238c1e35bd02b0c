/**
 * lint_split_sum: a sum whose reduced indices each sit in one factor alone computes a product of separate sums,
 * almost always a typo (`B[kk, j]` for `B[k, j]`). Warned with the index it resembles, silenced per kernel.
 */
import { describe, expect, it } from 'vitest'
import { findKernelSites } from '../../plugin/find/annotations.ts'
import { resolveOptions } from '../../plugin/options.ts'
import { compileKernel, kernelWarnings } from '../../plugin/pipeline.ts'

const opts = resolveOptions({ root: '/project' })
const MATMUL = 'A: Float32Array, B: Float32Array, C: Float32Array, M: number, N: number, K: number'

function warnings(spec: string, params = MATMUL, extra = '') {
  const code = `/* @kernel\n${spec}${extra}\n*/\nexport function f(${params}) {}\n`
  const [site] = findKernelSites('/project/k.ts', code)
  return kernelWarnings(compileKernel(site, code, opts)).filter((d) => d.code === 'lint_split_sum')
}

describe('warned', () => {
  it('a typo in a reduced index: the message, the index it resembles, where the statement is', () => {
    const [d, ...rest] = warnings('A: f32[M, K]\nB: f32[K, N]\nC: f32[M, N]\nC[i, j] +=! A[i, k] * B[kk, j]')
    expect(rest).toEqual([])
    expect(d.message).toBe("`C[i, j] +=! A[i, k] * B[kk, j]` sums 'k' over A alone and 'kk' over B alone: it computes (Σk A) · (Σkk B), a product of two separate sums")
    expect(d.notes.map((n) => n.text)).toEqual([
      "did you mean 'k' for 'kk'?",
      'if the separate sums are meant, write each in a statement of its own, or silence this with a line `@allow-split-sum <why>`',
    ])
    expect(d.kernel).toBe('f')
    expect(d.span).toMatchObject({ file: '/project/k.ts' })
    const code = `/* @kernel\nA: f32[M, K]\nB: f32[K, N]\nC: f32[M, N]\nC[i, j] +=! A[i, k] * B[kk, j]\n*/`
    expect(code.slice(d.span!.start, d.span!.end)).toBe('C[i, j] +=! A[i, k] * B[kk, j]')
  })

  it('an unrelated name: no guess', () => {
    const [d] = warnings('x: f32[N]\ny: f32[N]\ns: f32[]\ns[] +=! x[i] * y[j]', 'x: Float32Array, y: Float32Array, s: Float32Array, N: number')
    expect(d.notes.map((n) => n.text)).toEqual([expect.stringContaining('write each in a statement of its own')])
  })
})

describe('not warned', () => {
  it('a matrix product, a row sum scaled by a vector, an element-wise product', () => {
    expect(warnings('A: f32[M, K]\nB: f32[K, N]\nC: f32[M, N]\nC[i, j] +=! A[i, k] * B[k, j]')).toEqual([])
    expect(warnings('A: f32[N, N]\nb: f32[N]\ny: f32[N]\ny[i] +=! A[i, j] * b[i]', 'A: Float32Array, b: Float32Array, y: Float32Array, N: number')).toEqual([])
    expect(warnings('x: f32[N]\ny: f32[N]\nz: f32[N]\nz[i] = x[i] * y[i]', 'x: Float32Array, y: Float32Array, z: Float32Array, N: number')).toEqual([])
  })

  it('silenced by @allow-split-sum', () => {
    expect(warnings('A: f32[M, K]\nB: f32[K, N]\nC: f32[M, N]\nC[i, j] +=! A[i, k] * B[kk, j]', MATMUL, '\n@allow-split-sum the outer product of two row sums')).toEqual([])
  })
})
