/**
 * A gathered contraction keeps its offset tables for its next call on the same thread (native pk_table_memo): a call
 * must rebuild them whenever any value they are built from differs. Each kernel runs at a base shape, then with each
 * size alone moved, then at the base again; then both in turn, the slot changing hands. At every ISA and 1, 2
 * threads, against the interpreter. One kernel's m indices are apart in A around a batch index, so A's strides along
 * them move with the batch's extent, which no offset table's role holds (a key of extents alone fails here).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { interpret } from '../../plugin/ir/interp.ts'
import type { Kernel } from '../../plugin/ir/nodes.ts'
import { buildKernel } from '../../plugin/spec/build-ir.ts'
import { walkStmts } from '../../plugin/ir/walk.ts'
import { contractionKernel, paramsOf } from '../support/contractions.ts'
import { specOf } from '../support/examples.ts'
import { copyArgs, irArgs } from '../support/kernel-args.ts'
import { maxRelErr, rngOf, tolerance, type TensorArray } from '../support/random.ts'
import { loadTestAddon, onEveryIsaAndThreads, testAddonSource, type KernelCall, type TestAddon } from '../support/test-addon.ts'

const SPECS = {
  // TCCG's abc-bda-dc (intensli), column-major: C's stride-1 index and A's are different n indices.
  transposed: `A: f32[SA, SD, SB]
B: f32[SC, SD]
C: f32[SC, SB, SA]
C[c, b, a] +=! A[a, d, b] * B[c, d]`,
  // i and l play m, apart in A around the batch index e.
  batched: `A: f32[SI, SE, SL, SK]
B: f32[SE, SK, SJ]
C: f32[SE, SI, SL, SJ]
C[e, i, l, j] +=! A[i, e, l, k] * B[e, k, j]`,
} as const

const KERNELS = Object.entries(SPECS).map(([name, spec]) => ({
  kernel: contractionKernel(spec, name),
  reference: buildKernel(specOf(spec, paramsOf(spec))),
}))

let addon: TestAddon
let remove = () => {}
beforeAll(async () => {
  ;({ addon, remove } = await loadTestAddon(testAddonSource(KERNELS.map((k) => k.kernel), 'test/native/table-memo.test.ts'), 'table-memo'))
}, 300_000)
afterAll(() => remove())

const layoutOf = (kernel: Kernel): string[] => {
  const layouts: string[] = []
  walkStmts(kernel.body, (s) => {
    if (s.kind === 'contraction') layouts.push(s.roles.layout)
  })
  return layouts
}

/** The base sizes (odd, past a tile), then each size moved alone and the base again. */
function shapes(kernel: Kernel): ReadonlyMap<string, number>[] {
  const base = new Map(kernel.sizes.map((s, n) => [s, [7, 5, 9, 6, 11][n % 5]]))
  return [base, ...kernel.sizes.flatMap((s) => [new Map([...base, [s, base.get(s)! + 3]]), base])]
}

describe('offset tables kept between calls', () => {
  it('both kernels are gathered contractions', () => {
    for (const { kernel } of KERNELS) expect(layoutOf(kernel), kernel.name).toEqual(['gathered'])
  })

  /** One call of kernel n at `sizes` on the addon's current ISA and threads, against the interpreter. */
  const check = (n: number, sizes: ReadonlyMap<string, number>, where: string) => {
    const { kernel, reference } = KERNELS[n]
    const args = irArgs(kernel, sizes, rngOf(`${kernel.name} ${[...sizes.values()].join(' ')}`))
    const want = copyArgs(args)
    interpret(reference, want)
    const got = copyArgs(args)
    ;(addon[kernel.name] as KernelCall)(...got)
    const out = kernel.params.findIndex((p) => p.name === 'C')
    const at = `${kernel.name} at ${[...sizes].map(([s, v]) => `${s}=${v}`).join(' ')} on ${where}`
    expect(maxRelErr(got[out] as TensorArray, want[out] as TensorArray), at).toBeLessThan(tolerance('f32', 16))
  }

  it('calls one after another, each with one size moved, = the interpreter', () => {
    onEveryIsaAndThreads(addon, (isa, threads) =>
      KERNELS.forEach(({ kernel }, n) => shapes(kernel).forEach((sizes) => check(n, sizes, `${isa}, ${threads} thread(s)`))))
  })

  it('two kernels called in turn (the slot changing hands) = the interpreter', () => {
    const same = (n: number) => new Map(KERNELS[n].kernel.sizes.map((s) => [s, 5]))
    onEveryIsaAndThreads(addon, (isa, threads) => {
      for (const n of [0, 1, 0, 1, 1, 0]) check(n, same(n), `${isa}, ${threads} thread(s), in turn`)
    })
  })
})
