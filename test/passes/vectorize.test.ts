/**
 * vectorize (plugin/passes/vectorize.ts) and the `vector` mode's contract (ir/verify.ts: vectorLoopProblem): which
 * loops become SIMD loops, which must not, and that verify rejects a vector loop breaking the contract.
 */
import { describe, expect, it } from 'vitest'
import type { Kernel, Loop, Stmt } from '../../plugin/ir/nodes.ts'
import { printKernel } from '../../plugin/ir/print.ts'
import { vectorLoopProblem, verifyKernel } from '../../plugin/ir/verify.ts'
import { walkStmts } from '../../plugin/ir/walk.ts'
import { vectorize } from '../../plugin/passes/vectorize.ts'
import { bin, call, iff, k, kernel, ld, loop, softmax, store, tensor, v, ge } from '../emit/kernels.ts'

const loops = (kern: Kernel): Loop[] => {
  const found: Loop[] = []
  walkStmts(kern.body, (s) => void (s.kind === 'loop' && found.push(s)))
  return found
}
const modes = (kern: Kernel) => loops(vectorize(kern)).map((l) => `${l.v}:${l.mode}`)

/** A kernel over X, Y [N, M] and s [N] whose only statement is `body` inside `for i { for j {...} }`. */
const rows = (body: Stmt[], iBody: Stmt[] = []): Kernel =>
  kernel(
    'k',
    ['X', 'Y', 's', 'N', 'M'],
    [tensor('X', 'f32', ['N', 'M'], 'in'), tensor('Y', 'f32', ['N', 'M'], 'out'), tensor('s', 'f32', ['N'], 'out')],
    ['N', 'M'],
    [loop('i', 0, 'N', [...iBody, loop('j', 0, 'M', body)])],
  )
const X = ld('X', ['i', 'j'])

describe('vectorize marks', () => {
  it('the innermost loops of softmax, and keeps its parallel loops threaded', () => {
    expect(modes(softmax)).toEqual(['i:parallel', 'j:vector', 'i:parallel', 'j:vector', 'i:parallel', 'j:vector', 'i:parallel', 'j:vector'])
  })

  it('element-wise stores, reductions into an element j does not move, and reads of j-free elements', () => {
    expect(modes(rows([store('Y', ['i', 'j'], '=', bin('mul', X, ld('s', ['i']), 'f32'))]))).toEqual(['i:serial', 'j:vector'])
    expect(modes(rows([store('s', ['i'], 'max=', X)]))).toEqual(['i:serial', 'j:vector'])
    expect(modes(rows([store('Y', ['i', 'j'], '=', call('exp', X, 'f32')), store('s', ['i'], '+=', ld('Y', ['i', 'j']))])))
      .toEqual(['i:serial', 'j:vector'])
    expect(modes(rows([store('Y', ['i', 'j'], '+=', X), store('Y', ['i', 'j'], 'max=', k(0))]))).toEqual(['i:serial', 'j:vector'])
  })

  it('a loop around the taps of the element it stores, whose inner tap loop would vectorize too', () => {
    const taps = rows([loop('r', 0, 3, [store('Y', ['i', 'j'], '+=', bin('mul', ld('X', ['i', 'j + r']), ld('s', ['r']), 'f32'))])])
    expect(modes(taps)).toEqual(['i:serial', 'j:vector', 'r:serial'])
    expect(() => verifyKernel(vectorize(taps), 'vectorize', { lowered: true })).not.toThrow()
  })

  it('prints the mode', () => {
    expect(printKernel(vectorize(rows([store('s', ['i'], '+=', X)])))).toMatch(/for j in \[0, M\) vector \{/)
  })
})

describe('vectorize leaves serial', () => {
  const cases: [string, Kernel, RegExp][] = [
    ['a strided read (a column)', rows([store('Y', ['i', 'j'], '=', ld('X', ['j', 'i']))]), /stride other than 1/],
    ['a strided write', rows([store('Y', ['j', 'i'], '=', X)]), /written at a stride/],
    ['a read of the diagonal', rows([store('Y', ['i', 'j'], '=', ld('X', ['j', 'j']))]), /stride other than 1/],
    ['the element it reduces, read in the loop', rows([store('s', ['i'], '+=', X), store('Y', ['i', 'j'], '=', ld('s', ['i']))]), /read while it is reduced/],
    ['an assignment every iteration repeats', rows([store('s', ['i'], '=', X)]), /assigns the same element/],
    ['a read of the neighbour it writes', rows([store('Y', ['i', 'j'], '=', ld('Y', ['i', 'j + 1']))]), /another element/],
    ['the loop index as a value', rows([store('Y', ['i', 'j'], '=', v('j', 'f32'))]), /reads j as a value/],
    ['a guarded body', rows([iff([ge('j - 1')], [store('Y', ['i', 'j'], '=', X)])]), /more than stores/],
    ['a read past the edge', rows([store('Y', ['i', 'j'], '=', ld('X', ['i', 'j + 1'], 'f32', true))]), /past its edge/],
  ]
  const nested: [string, Kernel, RegExp][] = [
    ['a tap loop that moves the stored element', rows([loop('r', 0, 3, [store('Y', ['i', 'r'], '+=', X)])]), /not written at unit stride|moves inside/],
    ['an assignment inside a nest', rows([loop('r', 0, 3, [store('Y', ['i', 'j'], '=', X)])]), /assigned inside a loop nest/],
    ['a nest whose bounds depend on it', rows([loop('r', 0, 'j', [store('Y', ['i', 'j'], '+=', X)])]), /depends on j/],
    ['a nest reading what it reduces', rows([loop('r', 0, 3, [store('Y', ['i', 'j'], '+=', ld('Y', ['i', 'j']))])]), /read while it is reduced/],
  ]
  for (const [what, kern, why] of nested) {
    it(what, () => {
      expect(vectorLoopProblem(loops(kern).find((l) => l.v === 'j')!)).toMatch(why)
      expect(modes(kern).slice(0, 2)).toEqual(['i:serial', 'j:serial'])
    })
  }

  for (const [what, kern, why] of cases) {
    it(what, () => {
      const inner = loops(kern).find((l) => l.v === 'j')!
      expect(vectorLoopProblem(inner)).toMatch(why)
      expect(modes(kern)).toEqual(['i:serial', 'j:serial'])
    })
  }

  it('an outer loop, and a parallel innermost one', () => {
    const par = kernel('p', ['x', 'y', 'N'], [tensor('x', 'f32', ['N'], 'in'), tensor('y', 'f32', ['N'], 'out')], ['N'],
      [loop('i', 0, 'N', [store('y', ['i'], '=', ld('x', ['i']))], 'parallel')])
    expect(modes(par)).toEqual(['i:parallel'])
    expect(modes(rows([store('Y', ['i', 'j'], '=', X)]))[0]).toBe('i:serial')
  })
})

describe('verify', () => {
  it('rejects a vector loop that breaks the contract', () => {
    const bad = rows([store('Y', ['i', 'j'], '=', ld('X', ['j', 'i']))])
    const forced: Kernel = { ...bad, body: [loop('i', 0, 'N', [{ ...(loops(bad)[1]), mode: 'vector' }])] }
    expect(() => verifyKernel(forced, 'test', { lowered: true })).toThrow(/vector loop j: X is read at a stride other than 1/)
  })

  it('accepts what vectorize produces', () => {
    expect(() => verifyKernel(vectorize(softmax), 'vectorize', { lowered: true })).not.toThrow()
  })
})
