// Zero fills dropped before register nests that start their sums at zero (emit/zero-started.ts), and kept wherever
// the nest does not write every element once or reads what it writes. Native runs of both: test/native/vector.test.ts
// (taps32, tapsFromRow1).
import { describe, expect, it } from 'vitest'
import { emitC } from '../../plugin/emit/c.ts'
import { add, constant } from '../../plugin/ir/affine.ts'
import { zeroStartedNests } from '../../plugin/emit/zero-started.ts'
import type { Kernel, Stmt } from '../../plugin/ir/nodes.ts'
import { mapStmts } from '../../plugin/ir/walk.ts'
import { vectorize } from '../../plugin/passes/vectorize.ts'
import type { Isa } from '../../plugin/targets/isa.ts'
import { AVX2, AVX512, SCALAR } from '../../plugin/targets/index.ts'
import { contractionKernel } from '../support/contractions.ts'
import { CONV_SPECS } from '../support/convolutions.ts'

const kernelOf = (spec: string): Kernel => vectorize(contractionKernel(spec, 'k'))
const dropped = (kernel: Kernel, isa: Isa): Stmt['kind'][] => [...zeroStartedNests(kernel.body, kernel, isa)].map((s) => s.kind)
const FILL = /O\[\w+\] = 0\.0f;/

describe('zero fills made redundant by register nests', () => {
  const depthwise = kernelOf(CONV_SPECS.depthwise)

  it('a depthwise 3×3 (`+=!`) starts its sums at zero on each vector ISA and drops the fill; scalar keeps it', () => {
    for (const isa of [AVX2, AVX512]) {
      expect(dropped(depthwise, isa), isa.name).toEqual(['fill', 'loop'])
      const c = emitC(depthwise, 'kc_0_k', isa)
      expect(c, isa.name).not.toMatch(FILL)
      expect(c, isa.name).toMatch(/pk_vacc0_0 = _mm(256|512)_set1_ps\(0\.0f\)/)
      expect(c, isa.name).not.toMatch(/pk_vacc0_0 = _mm(256|512)_(mask)?_?loadu?_ps\(O/)
    }
    expect(dropped(depthwise, SCALAR)).toEqual([])
    expect(emitC(depthwise, 'kc_0_k', SCALAR)).toMatch(FILL)
  })

  it('keeps the fill when the loops leave elements out (a `where` on an output index)', () => {
    const partial = kernelOf(CONV_SPECS.depthwise.replace(/$/, ' where q >= 1'))
    expect(dropped(partial, AVX2)).toEqual([])
    expect(emitC(partial, 'kc_0_k', AVX2)).toMatch(FILL)
  })

  it('keeps the fill when the sum reads the tensor it writes', () => {
    // O[...] += I·F + O[...]: the nest would read elements the fill has not zeroed.
    const reads = mapStmts(depthwise.body, {
      store: (s) => ({ ...s, value: { kind: 'binary', op: 'add', a: s.value, b: { kind: 'load', access: s.access, type: 'f32', zeroOutside: false }, type: 'f32' } }),
    })
    const kernel = { ...depthwise, body: reads }
    expect(dropped(kernel, AVX2)).toEqual([])
    expect(emitC(kernel, 'kc_0_k', AVX2)).toMatch(FILL)
  })

  it('keeps the fill when a loop stops short of its dimension (O one channel wider than the loop over it)', () => {
    const wider = {
      ...depthwise,
      tensors: depthwise.tensors.map((t) => (t.name === 'O' ? { ...t, shape: [...t.shape.slice(0, -1), add(t.shape[3], constant(1))] } : t)),
    }
    expect(dropped(wider, AVX2)).toEqual([])
  })
})
