/**
 * Fusion (plugin/passes/fuse.ts): what it must fuse, what it must leave apart (legality from the access maps), what
 * it localizes, and that the interpreter computes the same outputs before and after it, on random shapes.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { analyzeKernel } from '../../plugin/analysis/deps.ts'
import { buildKernel } from '../../plugin/spec/build-ir.ts'
import { interpret } from '../../plugin/ir/interp.ts'
import type { Block, Kernel, Stmt } from '../../plugin/ir/nodes.ts'
import { printKernel } from '../../plugin/ir/print.ts'
import { verifyKernel } from '../../plugin/ir/verify.ts'
import { FUSED_TAG, factsAfterFusion, fuse } from '../../plugin/passes/fuse.ts'
import { lowerBlocks } from '../../plugin/passes/lower-blocks.ts'
import { reorder } from '../../plugin/passes/reorder.ts'
import { vectorize } from '../../plugin/passes/vectorize.ts'
import type { KernelSpec } from '../../plugin/spec/checked.ts'
import { copyArgs, irArgs } from '../support/kernel-args.ts'
import { maxRelErr, rngOf, type TensorArray } from '../support/random.ts'
import { ROOT, specOf, specsOf } from '../support/examples.ts'

const nn = new Map(specsOf('nn.ts', readFileSync(path.join(ROOT, 'examples/kernels/nn.ts'), 'utf8')).map((s) => [s.name, s]))
const bench = new Map(specsOf('rowwise.ts', readFileSync(path.join(ROOT, 'test/bench/rowwise-kernels.ts'), 'utf8')).map((s) => [s.name, s]))

/** Ad-hoc kernels: name → [spec, parameters]. */
const ADHOC: Record<string, [string, string[]]> = {
  // A consumer reading the neighbour of the produced element along the fused index.
  nextColumn: ['X: f32[N, M]\nY: f32[N, M]\nlet T: f32[N, M]\nT[i, j] = X[i, j] * 2\nY[i, j] = T[i, j + 1]', ['X', 'Y', 'N', 'M']],
  nextRow: ['X: f32[N, M]\nY: f32[N, M]\nlet T: f32[N, M]\nT[i, j] = X[i, j] * 2\nY[i, j] = T[i + 1, j]', ['X', 'Y', 'N', 'M']],
  // A row reduction of a produced tensor: pointwise in the row index, then through the transpose (column i).
  rowOfProduct: ['X: f32[N, N]\nz: f32[N]\nlet T: f32[N, N]\nT[i, j] = exp(X[i, j])\nz[i] +=! T[i, j]', ['X', 'z', 'N']],
  columnOfProduct: ['X: f32[N, N]\nz: f32[N]\nlet T: f32[N, N]\nT[i, j] = exp(X[i, j])\nz[i] +=! T[j, i]', ['X', 'z', 'N']],
  // A triangular row sum (a `where` constraint inside the row) consumed element-wise.
  triangular: ['X: f32[N, N]\nY: f32[N, N]\nlet s: f32[N]\ns[i] +=! X[i, j] where j <= i\nY[i, j] = X[i, j] - s[i]', ['X', 'Y', 'N']],
  // A temporary accumulated without `!`: it relies on starting at zero, so it must keep one row per row.
  accumulated: [
    'X: f32[N, M]\nY: f32[N, M]\nlet T: f32[N, M]\nlet z: f32[N]\nT[i, j] += X[i, j]\nz[i] +=! T[i, j]\nY[i, j] = T[i, j] / z[i]',
    ['X', 'Y', 'N', 'M'],
  ],
  // A whole-row temporary set before each row reads it: it shrinks to one row.
  rowBuffer: ['X: f32[N, M]\nY: f32[N, M]\nlet T: f32[N, M]\nlet z: f32[N]\nT[i, j] +=! X[i, j] * X[i, j]\nz[i] +=! T[i, j]\nY[i, j] = T[i, j] / z[i]', ['X', 'Y', 'N', 'M']],
  // A temporary whose inputs change before it is read: it stays a tensor.
  clobbered: ['X: f32[N]\nY: f32[N]\nZ: f32[N]\nlet T: f32[N]\nT[i] = Y[i] * 2\nY[i] = X[i]\nZ[i] = T[i] + 1', ['X', 'Y', 'Z', 'N']],
  // Statements over different rows (the second walks columns outermost): nothing fuses across them.
  columns: ['X: f32[N, M]\nc: f32[M]\nY: f32[N, M]\nc[j] +=! X[i, j]\nY[i, j] = X[i, j] / c[j]', ['X', 'c', 'Y', 'N', 'M']],
}
const adhoc = new Map(Object.entries(ADHOC).map(([name, [text, params]]) => [name, { ...specOf(text, params), name }]))

const fused = (spec: KernelSpec): Kernel => verifyKernel(fuse(verifyKernel(reorder(buildKernel(spec)), 'reorder')), 'fuse')
const topBlocks = (k: Kernel): Block[] => k.body.filter((s): s is Block => s.kind === 'block')
const blockIds = (stmts: readonly Stmt[]): string[] => stmts.filter((s): s is Block => s.kind === 'block').map((b) => b.id)

describe('fuse: what fuses', () => {
  it('softmax: one block per row; exp and the row sum share a pass; m and z stay per-row values', () => {
    const k = fused(nn.get('softmax')!)
    const [row] = topBlocks(k)
    expect(topBlocks(k).map((b) => b.id)).toEqual(['s0+s1+s2+s3'])
    expect(row.tags).toContain(FUSED_TAG)
    expect(row.indices.map((ix) => ix.name)).toEqual(['i'])
    expect(blockIds(row.body)).toEqual(['s0', 's1+s2', 's3'])
    expect(k.tensors.find((t) => t.name === 'z')!.shape).toHaveLength(1)
    expect(k.body.some((s) => s.kind === 'fill'), 'fills become per-row initialisations').toBe(false)
  })

  it('layer norm: one block per row, the rstd statement spliced between the row passes', () => {
    const [row, ...rest] = topBlocks(fused(nn.get('layerNorm')!))
    expect(rest).toEqual([])
    expect(row.id).toBe('s0+s1+s2+s3')
    expect(blockIds(row.body)).toEqual(['s0', 's1', 's3'])
    expect(row.body.some((s) => s.kind === 'store' && printKernel({ ...fused(nn.get('layerNorm')!), body: [s] }).includes('sqrt'))).toBe(true)
  })

  it('batch-norm + ReLU: the element-wise pair shares one body and its temporary becomes an expression', () => {
    const k = fused(bench.get('batchNormRelu')!)
    expect(k.tensors.map((t) => t.name)).not.toContain('T')
    const apply = topBlocks(k).find((b) => b.indices.length === 4)!
    expect(apply.tags).toContain(FUSED_TAG)
    expect(apply.body).toHaveLength(1)
    expect(printKernel({ ...k, body: apply.body })).toMatch(/Y\[n, h, w, c\] = max\(\(\(X\[n, h, w, c\] \* s\[c\]\) \+ b\[c\]\), 0\)/)
  })

  it('a row sum of a produced tensor fuses per row when the row index is pointwise', () => {
    const k = fused(adhoc.get('rowOfProduct')!)
    expect(topBlocks(k).map((b) => b.id)).toEqual(['s0+s1'])
    expect(blockIds(topBlocks(k)[0].body)).toEqual(['s0+s1'])
    expect(k.tensors.map((t) => t.name)).not.toContain('T')
  })

  it('attention: per-row fusion shrinks scores to one row, which keeps the row loop serial', () => {
    const k = fused(nn.get('attention')!)
    expect(k.tensors.find((t) => t.name === 'scores')!.shape.map((d) => d.terms[0]?.v)).toEqual(['T'])
    const [row] = topBlocks(k)
    const facts = factsAfterFusion(analyzeKernel(buildKernel(nn.get('attention')!)), k)
    expect(facts.blocks.get(row.id)!.parallelIndices).toEqual([])
    expect(facts.blocks.has('s0'), 'blocks inside a fused one get no parallel loop').toBe(false)
  })

  it('a temporary whose inputs are rewritten before it is read is not substituted', () => {
    const k = fused(adhoc.get('clobbered')!)
    expect(topBlocks(k).map((b) => b.id)).toEqual(['s0+s1+s2'])
    expect(k.tensors.map((t) => t.name)).toContain('T')
  })

  it('a whole-row temporary set before each row shrinks; one relying on its zero start does not', () => {
    expect(fused(adhoc.get('rowBuffer')!).tensors.find((t) => t.name === 'T')!.shape).toHaveLength(1)
    expect(fused(adhoc.get('accumulated')!).tensors.find((t) => t.name === 'T')!.shape).toHaveLength(2)
  })

  it('softmax rows run in parallel: every store inside the fused block writes row i', () => {
    const k = fused(nn.get('softmax')!)
    const facts = factsAfterFusion(analyzeKernel(buildKernel(nn.get('softmax')!)), k)
    expect(facts.blocks.get('s0+s1+s2+s3')!.parallelIndices).toEqual(['i'])
  })
})

describe('fuse: what must not fuse', () => {
  it('a consumer reading the next row of the produced tensor: nothing fuses', () => {
    const k = fused(adhoc.get('nextRow')!)
    expect(topBlocks(k).map((b) => b.id)).toEqual(['s0', 's1'])
    expect(k.tensors.map((t) => t.name)).toContain('T')
  })

  it('a consumer reading the next column: the rows fuse, the elements do not', () => {
    const [row, ...rest] = topBlocks(fused(adhoc.get('nextColumn')!))
    expect(rest).toEqual([])
    expect(row.indices.map((ix) => ix.name)).toEqual(['i'])
    expect(blockIds(row.body)).toEqual(['s0', 's1'])
  })

  it('a row reduction reading the produced tensor through its transpose: nothing fuses', () => {
    const k = fused(adhoc.get('columnOfProduct')!)
    expect(topBlocks(k).map((b) => b.id)).toEqual(['s0', 's1'])
    expect(topBlocks(k).some((b) => b.tags.includes(FUSED_TAG))).toBe(false)
  })

  it('a column reduction and its row-wise consumer: nothing fuses', () => {
    expect(topBlocks(fused(adhoc.get('columns')!)).map((b) => b.id)).toEqual(['s0', 's1'])
  })

  it('a row reduction is not fused with the statement reading its result', () => {
    const [row] = topBlocks(fused(adhoc.get('triangular')!))
    expect(blockIds(row.body)).toEqual(['s0', 's1'])
  })
})

describe('fuse, then lower and vectorize: the interpreter computes the same outputs', () => {
  const SIZES = [1, 7, 17, 33]
  const kernels: [string, KernelSpec][] = [
    ...['softmax', 'layerNorm', 'attention', 'biasRelu', 'maxPool2x2'].map((n): [string, KernelSpec] => [n, nn.get(n)!]),
    ...['batchNormRelu', 'softmax', 'layerNorm'].map((n): [string, KernelSpec] => [`bench ${n}`, bench.get(n)!]),
    ...[...adhoc].map(([n, s]): [string, KernelSpec] => [n, s]),
  ]
  for (const [name, spec] of kernels) {
    it(name, () => {
      const next = rngOf(name)
      const reference = buildKernel(spec)
      const facts = analyzeKernel(reference)
      const f = fused(spec)
      const lowered = verifyKernel(
        lowerBlocks(f, (b) => b.indices.find((ix) => factsAfterFusion(facts, f).blocks.get(b.id)?.parallelIndices.includes(ix.name))?.name),
        'lower-blocks', { lowered: true },
      )
      const vectorized = verifyKernel(vectorize(lowered), 'vectorize', { lowered: true })
      for (let shape = 0; shape < 4; shape++) {
        const sizes = new Map(spec.sizes.map((s) => [s, SIZES[Math.floor(next() * SIZES.length)]]))
        const args = irArgs(spec, sizes, next)
        const run = (k: Kernel) => {
          const copy = copyArgs(args)
          interpret(k, copy)
          return copy
        }
        const want = run(reference)
        for (const [stage, k] of [['fuse', f], ['lower-blocks', lowered], ['vectorize', vectorized]] as const) {
          const got = run(k)
          spec.params.forEach((p, n) => {
            if (p.kind !== 'tensor') return
            const label = `${stage}, ${[...sizes].map(([s, v]) => `${s}=${v}`).join(' ')}: ${p.name}`
            expect(maxRelErr(want[n] as TensorArray, got[n] as TensorArray), label).toBeLessThan(1e-6)
          })
        }
      }
    })
  }
})
