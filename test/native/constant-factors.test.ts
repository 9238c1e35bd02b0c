/**
 * Issue 14's extra element-wise factors, the constant kind (`2.5 * A[i, k] * B[k, j]`): the whole pipeline must run
 * them as blocked GEMMs with A multiplied while it is packed (ContractionRoles.alpha), not as loops; flattened,
 * transposed, gathered and batched contractions, several constants, `+=!` and `+=`. Each built into a real addon and
 * run at every ISA this CPU runs and at 1 and 2 threads against the interpreter on the IR straight from the spec and
 * the emitted JS, at small odd sizes, a 1 and an empty sum.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { abiOf } from '../../plugin/abi.ts'
import { emitJs } from '../../plugin/emit/js.ts'
import { emitAddonSource } from '../../plugin/emit/napi.ts'
import { evaluate } from '../../plugin/ir/affine.ts'
import { buildKernel } from '../../plugin/ir/build.ts'
import { interpret } from '../../plugin/ir/interp.ts'
import type { Contraction, Kernel } from '../../plugin/ir/nodes.ts'
import { walkStmts } from '../../plugin/ir/walk.ts'
import { lowerSpec } from '../../plugin/pipeline.ts'
import { paramsOf } from '../support/contractions.ts'
import { specOf } from '../support/examples.ts'
import { maxRelErr, randomArray, rng, tolerance, type TensorArray } from '../support/random.ts'
import { loadTestAddon, onEveryIsaAndThreads, type TestAddon } from '../support/test-addon.ts'

const CASES: readonly { readonly name: string; readonly text: string; readonly alpha: number; readonly layout: string }[] = [
  { name: 'scaled', text: 'A: f32[M, K]\nB: f32[K, N]\nC: f32[M, N]\nC[i, j] +=! 2.5 * A[i, k] * B[k, j]', alpha: 2.5, layout: 'flattened' },
  { name: 'accumulated', text: 'A: f64[M, K]\nB: f64[K, N]\nC: f64[M, N]\nC[i, j] += A[i, k] * B[k, j] * 0.5', alpha: 0.5, layout: 'flattened' },
  { name: 'transposed', text: 'A: f32[K, M]\nB: f32[N, K]\nC: f32[M, N]\nC[i, j] +=! 3 * A[k, i] * B[j, k]', alpha: 3, layout: 'flattened' },
  { name: 'two_constants', text: 'A: f32[M, K]\nB: f32[K, N]\nC: f32[M, N]\nC[i, j] +=! 2 * A[i, k] * B[k, j] * 0.75', alpha: 1.5, layout: 'flattened' },
  { name: 'gathered', text: 'A: f32[M, K, N]\nB: f32[P, K]\nC: f32[P, N, M]\nC[p, n, m] +=! -2 * A[m, k, n] * B[p, k]', alpha: -2, layout: 'gathered' },
  { name: 'batched', text: 'A: f64[Q, M, K]\nB: f64[Q, K, N]\nC: f64[Q, M, N]\nC[q, i, j] +=! 0.25 * A[q, i, k] * B[q, k, j]', alpha: 0.25, layout: 'flattened' },
]

interface Built {
  readonly name: string
  readonly reference: Kernel
  readonly ir: Kernel
  readonly js: (...args: unknown[]) => unknown
}

const KERNELS: readonly Built[] = CASES.map((c) => {
  const spec = specOf(c.text, paramsOf(c.text))
  const { ir } = lowerSpec(spec)
  return { name: c.name, reference: buildKernel(spec), ir: { ...ir, name: c.name }, js: new Function(`'use strict'; return ${emitJs(ir)}`)() as Built['js'] }
})

const contractionOf = (k: Kernel): Contraction | undefined => {
  let found: Contraction | undefined
  walkStmts(k.body, (s) => {
    if (s.kind === 'contraction') found = s
  })
  return found
}

let addon: TestAddon
let remove = () => {}

beforeAll(async () => {
  const sources = emitAddonSource(
    KERNELS.map((k, n) => {
      const spec = specOf(CASES[n].text, paramsOf(CASES[n].text))
      return { kernel: k.ir, abi: { ...abiOf(spec, 'test'), name: k.name }, symbol: `kc_${n}_${k.name}` }
    }),
    { moduleId: 'test/native/constant-factors.test.ts', parallelMinWork: 1 },
  )
  ;({ addon, remove } = await loadTestAddon(sources, 'constant-factors-test'))
}, 600_000)

afterAll(() => remove())

const copy = (args: readonly unknown[]) => args.map((a) => (ArrayBuffer.isView(a) ? (a as TensorArray).slice() : a))

/** Per size symbol: odd sizes past a register tile, a 1, and an empty sum (K = 0: C is zeroed or left alone). */
const SHAPES: readonly ((size: string, n: number) => number)[] = [
  (_, n) => [37, 11, 29, 5][n % 4],
  (_, n) => [1, 9, 3, 17][n % 4],
  (s) => (s === 'K' ? 0 : 7),
]

describe('constant factors of a contraction, multiplied into A while it is packed', () => {
  for (const [n, k] of KERNELS.entries()) {
    it(`${k.name}: a GEMM with A × ${CASES[n].alpha}; native at every ISA and 1, 2 threads = JS = interpreter`, () => {
      const c = contractionOf(k.ir)
      expect(c?.roles.alpha, 'runs as a contraction with the constant factor').toBe(CASES[n].alpha)
      expect(c!.roles.layout).toBe(CASES[n].layout)
      expect(c!.schedules.length).toBeGreaterThan(0)
      const next = rng(5100 + n)
      const out = k.reference.params.findIndex((p) => p.name === 'C')
      const dtype = k.reference.tensors[0].dtype
      for (const shape of SHAPES) {
        const sizes = new Map(k.reference.sizes.map((s, i) => [s, shape(s, i)]))
        const args = k.reference.params.map((p) => {
          if (p.kind === 'size') return sizes.get(p.name)!
          const t = k.reference.tensors.find((x) => x.name === p.name)!
          return randomArray(t.dtype, t.shape.reduce((m, d) => m * evaluate(d, sizes), 1), next)
        })
        const want = copy(args)
        interpret(k.reference, want)
        const shown = [...sizes].map(([s, v]) => `${s}=${v}`).join(' ')
        const check = (got: unknown[], where: string) =>
          expect(maxRelErr(got[out] as TensorArray, want[out] as TensorArray), `${k.name} ${shown} ${where}`)
            .toBeLessThanOrEqual(tolerance(dtype, Math.max(1, sizes.get('K')!)))
        const viaJs = copy(args)
        k.js(...viaJs)
        check(viaJs, 'JS')
        onEveryIsaAndThreads(addon, (isa, threads) => {
          const got = copy(args)
          ;(addon[k.name] as (...a: unknown[]) => unknown)(...got)
          check(got, `${isa}, ${threads} thread(s)`)
        })
      }
    }, 600_000)
  }
})
