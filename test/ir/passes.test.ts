/**
 * Each pass against the interpreter: the IR before and after every pass must compute the same thing, so a failure
 * names the pass. Plus what the passes promise about shape: lowered IR has no blocks, padding becomes loop bounds.
 */
import { describe, expect, it } from 'vitest'
import { analyzeKernel } from '../../plugin/analysis/deps.ts'
import { buildKernel } from '../../plugin/spec/build-ir.ts'
import { interpret } from '../../plugin/ir/interp.ts'
import type { Kernel } from '../../plugin/ir/nodes.ts'
import { printKernel } from '../../plugin/ir/print.ts'
import { verifyKernel } from '../../plugin/ir/verify.ts'
import { lowerBlocks } from '../../plugin/passes/lower-blocks.ts'
import { reorder } from '../../plugin/passes/reorder.ts'
import { copyArgs, irArgs } from '../support/kernel-args.ts'
import { maxRelErr, rngOf, type TensorArray } from '../support/random.ts'
import { exampleSpecs, specOf } from '../support/examples.ts'

const PASSES: readonly [string, (k: Kernel) => Kernel][] = [
  ['reorder', reorder],
  ['lower-blocks', (k) => lowerBlocks(k)],
]

describe('every pass preserves the meaning of every example kernel', () => {
  for (const { name, spec } of exampleSpecs()) {
    it(name, () => {
      const next = rngOf(name)
      let ir = verifyKernel(buildKernel(spec), 'build')
      const sizes = new Map(spec.sizes.map((s) => [s, [1, 3, 5, 7, 8][Math.floor(next() * 5)]]))
      const args = irArgs(spec, sizes, next)
      const run = (k: Kernel) => {
        const copy = copyArgs(args)
        interpret(k, copy)
        return copy
      }
      const before = run(ir)
      for (const [pass, f] of PASSES) {
        ir = verifyKernel(f(ir), pass, { lowered: pass === 'lower-blocks' })
        const after = run(ir)
        args.forEach((a, n) => {
          if (ArrayBuffer.isView(a)) expect(maxRelErr(before[n] as TensorArray, after[n] as TensorArray), `${pass}: ${spec.params[n].name}`).toBeLessThan(1e-5)
        })
      }
    })
  }
})

describe('reorder', () => {
  const byName = new Map(exampleSpecs().map((e) => [e.name, e.spec]))
  const order = (name: string) => {
    const k = reorder(buildKernel(byName.get(name)!))
    const b = k.body.find((s) => s.kind === 'block')!
    return b.kind === 'block' ? b.indices.map((ix) => ix.name) : []
  }
  it('puts the contiguous index innermost (matmul i-k-j)', () => expect(order('matmul')).toEqual(['i', 'k', 'j']))
  it('keeps a row reduction reading along rows (rowSum i-j)', () => expect(order('rowSum')).toEqual(['i', 'j']))
  it('walks the output contiguously in a transpose', () => expect(order('transpose').at(-1)).toBe('i'))
})

describe('lower-blocks', () => {
  const spec = exampleSpecs().find((e) => e.name === 'depthwise3x3')!.spec
  const lowered = lowerBlocks(reorder(buildKernel(spec)))
  const text = printKernel(lowered)
  it('leaves no blocks', () => expect(text).not.toMatch(/\bblock\b/))
  it('keeps every statement of a block without indices', () => {
    // No pass makes such a block of two statements today (scalar statements are never fused): put two in one by hand.
    const spec = specOf('A: f32[N]\nlet s: f32[]\nlet t: f32[]\ns = A[0] + 1\nt = s * 2\nA[i] = A[i] + t', ['A', 'N'])
    const kernel = buildKernel(spec)
    const [first, second, ...rest] = kernel.body
    if (first.kind !== 'block' || second.kind !== 'block') throw new Error('expected blocks')
    const merged: Kernel = { ...kernel, body: [{ ...first, body: [...first.body, ...second.body] }, ...rest] }
    const args = irArgs(spec, new Map([['N', 5]]), rngOf('index-free'))
    const [want, got] = [kernel, verifyKernel(lowerBlocks(merged), 'lower-blocks', { lowered: true })].map((k) => {
      const copy = copyArgs(args)
      interpret(k, copy)
      return copy[0] as TensorArray
    })
    expect(maxRelErr(want, got)).toBeLessThan(1e-6)
  })
  it('turns padding constraints into loop bounds instead of guards', () => {
    expect(text).not.toMatch(/\bif\b/)
    expect(text).toMatch(/for r in \[max\(0, [^\]]*\), min\(3, [^\]]*\)\)/)
    expect(text).toMatch(/for s in \[max\(0, [^\]]*\), min\(3, [^\]]*\)\)/)
  })
})

describe('dependences', () => {
  const facts = analyzeKernel(buildKernel(exampleSpecs().find((e) => e.name === 'softmax')!.spec))
  it('finds the chain of RAW dependences of softmax', () => {
    const raw = facts.dependences.filter((d) => d.kind === 'raw').map((d) => `${d.from}->${d.to}:${d.tensor}`)
    expect(raw).toEqual(expect.arrayContaining(['s0->s1:m', 's1->s2:Y', 's2->s3:z', 's1->s3:Y']))
  })
  it('separates reduction indices from parallel ones', () => {
    expect(facts.blocks.get('s0')).toMatchObject({ reductionIndices: ['j'], parallelIndices: ['i'] })
    expect(facts.blocks.get('s1')).toMatchObject({ reductionIndices: [], parallelIndices: ['i', 'j'] })
  })
  it('marks an element-wise consumer as pointwise and a neighbour read as not', () => {
    const y = facts.dependences.find((d) => d.kind === 'raw' && d.from === 's1' && d.to === 's3')!
    expect(y.pointwise).toBe(true)
    const shifted = analyzeKernel(buildKernel(specOf(`
      X: f32[N]
      Y: f32[N]
      let t: f32[N]
      t[i] = X[i] * 2
      Y[i] = t[i + 1] - t[i]
    `, ['X', 'Y', 'N'])))
    expect(shifted.dependences.find((d) => d.kind === 'raw' && d.tensor === 't')!.pointwise).toBe(false)
  })
})
