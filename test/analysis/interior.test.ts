/**
 * splitInterior against the interpreter: every loop it splits, replaced by its three pieces, computes bit for bit what
 * the loop did (the same iterations in the same order), at sizes where the interior is empty, partial and most of the
 * range; and the interior's inner bounds no longer read the split variable.
 */
import { describe, expect, it } from 'vitest'
import { splitInterior } from '../../plugin/analysis/interior.ts'
import { interpret } from '../../plugin/ir/interp.ts'
import type { Kernel, Loop, Stmt } from '../../plugin/ir/nodes.ts'
import { printKernel } from '../../plugin/ir/print.ts'
import { verifyKernel } from '../../plugin/ir/verify.ts'
import { boundVars, mapStmts, walkStmts } from '../../plugin/ir/walk.ts'
import { lowerBlocks } from '../../plugin/passes/lower-blocks.ts'
import { reorder } from '../../plugin/passes/reorder.ts'
import { buildKernel } from '../../plugin/spec/build-ir.ts'
import { exampleSpecs, specOf } from '../support/examples.ts'
import { copyArgs, irArgs } from '../support/kernel-args.ts'
import { rngOf } from '../support/random.ts'

const EDGED = [
  {
    name: 'strided convolution, padding a size',
    params: ['I', 'F', 'O', 'H', 'W', 'C', 'K', 'P', 'Q', 'pad'],
    text: `
      I: f32[H, W, C]
      F: f32[3, 3, C, K]
      O: f32[P, Q, K]
      O[p, q, k] +=! I[2*p + r - pad, 2*q + s - pad, c] * F[r, s, c, k]`,
  },
  {
    name: 'max pool 3x3 stride 2, pad 1',
    params: ['X', 'Y', 'H', 'W', 'C', 'P', 'Q'],
    text: `
      X: f32[H, W, C]
      Y: f32[P, Q, C]
      Y[p, q, c] max=! X[2*p + r - 1, 2*q + s - 1, c] where r < 3, s < 3`,
  },
  {
    name: 'dilated 1-D filter',
    params: ['X', 'G', 'Y', 'N', 'M'],
    text: `
      X: f32[N]
      G: f32[5]
      Y: f32[M]
      Y[i] +=! X[i + 2*t - 4] * G[t]`,
  },
]

const kernels = [
  ...exampleSpecs().map((e) => ({ name: e.name, spec: e.spec })),
  ...EDGED.map((e) => ({ name: e.name, spec: specOf(e.text, e.params) })),
]

/** Every loop splitInterior splits, replaced by its pieces (inner loops first); and how many it split. */
function splitAll(k: Kernel): { kernel: Kernel; splits: Loop[] } {
  const splits: Loop[] = []
  const body = mapStmts(k.body, {
    loop: (l, recurse) => {
      const inner: Loop = { ...l, body: recurse(l.body) }
      const split = splitInterior(inner)
      if (split === undefined) return inner
      splits.push(split.interior)
      return { kind: 'if', conds: [], body: [split.before, split.interior, split.after] } satisfies Stmt
    },
  })
  return { kernel: { ...k, body }, splits }
}

describe('splitInterior', () => {
  for (const { name, spec } of kernels) {
    const lowered = verifyKernel(lowerBlocks(reorder(buildKernel(spec))), 'lower-blocks', { lowered: true })
    const { kernel: split, splits } = splitAll(lowered)
    if (splits.length === 0) continue
    it(`${name}: the pieces compute what the loop did`, () => {
      verifyKernel(split, 'split', { lowered: true })
      const next = rngOf(`interior ${name}`)
      for (let trial = 0; trial < 12; trial++) {
        const sizes = new Map(spec.sizes.map((s) => [s, 1 + Math.floor(next() * 9)]))
        const args = irArgs(spec, sizes, next)
        const [before, after] = [copyArgs(args), copyArgs(args)]
        interpret(lowered, before)
        interpret(split, after)
        expect(after, `${name} at ${[...sizes].join(' ')}`).toEqual(before)
      }
    })
    it(`${name}: the interior's inner bounds do not read the split variable`, () => {
      for (const interior of splits) {
        walkStmts(interior.body, (s) => {
          if (s.kind === 'loop') expect([...boundVars(s.lo), ...boundVars(s.hi)]).not.toContain(interior.v)
        })
      }
    })
  }

  it('finds a padded 3x3 window constant inside [1, extent - 1)', () => {
    const spec = exampleSpecs().find((e) => e.name === 'depthwise3x3')!.spec
    const { kernel, splits } = splitAll(lowerBlocks(reorder(buildKernel(spec))))
    expect(splits.map((l) => l.v).sort()).toEqual(['h', 'w'])
    const text = printKernel(kernel)
    expect(text).toMatch(/for r in \[0, 3\)/)
    expect(text).toMatch(/for s in \[0, 3\)/)
  })

  it('leaves a loop whose inner bounds do not read it', () => {
    const spec = exampleSpecs().find((e) => e.name === 'matmul')!.spec
    expect(splitAll(lowerBlocks(reorder(buildKernel(spec)))).splits).toEqual([])
  })
})
