/**
 * Reductions whose outermost loop is the one they reduce over (xᵀA, column sums, maxima and products), and whole
 * tensors reduced into one element (a dot product, a maximum) in strips (passes/strip-reductions.ts): the threads
 * split that loop, each reducing into its own copy of the output, then combine the copies
 * (emit/c-split-reduction.ts). Against the interpreter at every ISA and at 1, 2 and 3 threads, on extents that are
 * not multiples of the lanes or of the thread count, for every reducing operation and for an output that starts with
 * content (`+=` without `!`); the copies start at -0, so a sum of negative zeros stays -0 on every thread count.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { emitC } from '../../plugin/emit/c.ts'
import { interpret } from '../../plugin/ir/interp.ts'
import { AVX512 } from '../../plugin/targets/index.ts'
import { copyArgs, makeArgs } from '../support/kernel-args.ts'
import { pipelineKernel, type PipelineKernel } from '../support/pipeline-kernels.ts'
import { maxRelErr, rngOf, tolerance, type TensorArray } from '../support/random.ts'
import { loadTestAddon, testAddonSource, type TestAddon } from '../support/test-addon.ts'

interface Case {
  readonly kernel: PipelineKernel
  readonly output: string
  /** Extents to try: the reduced loop's long enough that every thread's share beats its copy (SPLIT_COPY_COST). */
  readonly sizes: readonly Record<string, number>[]
  /** The longest reduction, for the tolerance. */
  readonly reduced: (sizes: Record<string, number>) => number
}

const kernel = (name: string, text: string) => pipelineKernel({ name, text })

const CASES: readonly Case[] = [
  {
    kernel: kernel('xTA', 'A: f32[K, M]\nx: f32[K]\ny: f32[M]\ny[i] +=! A[k, i] * x[k]'),
    output: 'y',
    sizes: [{ K: 37, M: 45 }, { K: 101, M: 17 }, { K: 13, M: 1 }],
    reduced: (s) => s.K,
  },
  {
    kernel: kernel('columnSumInto', 'A: f64[R, C]\ns: f64[C]\ns[j] += A[i, j]'),
    output: 's',
    sizes: [{ R: 41, C: 9 }, { R: 64, C: 33 }],
    reduced: (s) => s.R + 1,
  },
  {
    kernel: kernel('channelMax', 'X: f32[N, H, C]\nm: f32[C]\nm[c] max=! X[n, h, c]'),
    output: 'm',
    sizes: [{ N: 3, H: 11, C: 19 }, { N: 1, H: 40, C: 5 }],
    reduced: (s) => s.N * s.H,
  },
  {
    kernel: kernel('columnProduct', 'A: f64[R, C]\np: f64[C]\np[j] *=! A[i, j]'),
    output: 'p',
    sizes: [{ R: 23, C: 7 }],
    reduced: (s) => s.R,
  },
  {
    kernel: kernel('dot', 'x: f32[N]\ny: f32[N]\ns: f32[]\ns +=! x[i] * y[i]'),
    output: 's',
    sizes: [{ N: 9001 }, { N: 40_000 }, { N: 5 }],
    reduced: (s) => s.N,
  },
  {
    kernel: kernel('largest', 'x: f64[N]\nm: f64[]\nm max=! x[i]'),
    output: 'm',
    sizes: [{ N: 12_345 }],
    reduced: (s) => s.N,
  },
  {
    kernel: kernel('countColumns', 'A: i32[R, C]\nc: i32[C]\nc[j] +=! A[i, j]'),
    output: 'c',
    sizes: [{ R: 57, C: 21 }],
    reduced: (s) => s.R,
  },
]

let addon: TestAddon
let remove: () => void
beforeAll(async () => {
  ;({ addon, remove } = await loadTestAddon(testAddonSource(CASES.map((c) => c.kernel.ir), 'split-reduction.ts'), 'split-reduction'))
}, 600_000)
afterAll(() => remove?.())

/** `run` at every ISA of the addon and at 1, 2 and 3 threads (3 splits unevenly and oversubscribes two cores). */
function everywhere(run: (where: string) => void): void {
  for (const isa of addon.__polykern.isas) {
    const ran = addon.__polykern.setIsa(isa)
    for (const threads of [1, 2, 3]) {
      addon.__polykern.setThreads(threads)
      run(`${ran}, ${threads} thread(s)`)
    }
  }
  addon.__polykern.setThreads(1)
}

describe('a reduction split between threads', () => {
  it.each(CASES.map((c) => [c.kernel.name, c] as const))('%s is split, and agrees with the interpreter everywhere', (_, c) => {
    expect(emitC(c.kernel.ir, c.kernel.name, AVX512), 'the reduction loop runs split').toContain(`${c.kernel.name}_p0_split(`)
    const next = rngOf(c.kernel.name)
    const dtype = c.kernel.reference.tensors.find((t) => t.name === c.output)!.dtype
    const out = c.kernel.reference.params.findIndex((p) => p.name === c.output)
    for (const size of c.sizes) {
      const args = makeArgs(c.kernel.abi, new Map(Object.entries(size)), next)
      const want = copyArgs(args)
      interpret(c.kernel.reference, want)
      everywhere((where) => {
        const got = copyArgs(args)
        ;(addon[c.kernel.name] as (...a: unknown[]) => unknown)(...got)
        expect(maxRelErr(got[out] as TensorArray, want[out] as TensorArray), `${JSON.stringify(size)} ${where}`)
          .toBeLessThanOrEqual(tolerance(dtype, c.reduced(size)))
      })
    }
  })

  it('a sum of negative zeros into a negative zero stays -0 at every thread count', () => {
    const R = 40, C = 9
    const A = new Float64Array(R * C).fill(-0)
    everywhere((where) => {
      const s = new Float64Array(C).fill(-0)
      ;(addon.columnSumInto as (...a: unknown[]) => unknown)(A, s, R, C)
      expect([...s].every((v) => Object.is(v, -0)), `${where}: ${[...s]}`).toBe(true)
    })
  })
})
