/**
 * Contractions through the blocked GEMM path, in a real addon (node-gyp): every ISA version (switched with
 * `__polykern.setIsa`), at 1 and 2 threads, against the interpreter running the same IR's loop nest. Shapes include
 * 1, primes and sizes that are not multiples of the register tile; small cache blocks push modest shapes through
 * every edge (partial mc, nc, kc blocks, partial MR×NR tiles) and through other loop orders and parallel loops.
 * The 1024³ throughput of each ISA is printed, never asserted.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildAddon } from '../../plugin/addon/build.ts'
import { emitAddonSource } from '../../plugin/emit/napi.ts'
import { evaluate } from '../../plugin/ir/affine.ts'
import { interpret } from '../../plugin/ir/interp.ts'
import type { ContractionSchedule, Kernel } from '../../plugin/ir/nodes.ts'
import { ISAS } from '../../plugin/targets/index.ts'
import { abiOf } from '../emit/kernels.ts'
import { contractionKernel } from '../support/contractions.ts'
import { maxRelErr, randomArray, rng, tolerance, type TensorArray } from '../support/random.ts'

const MM = 'A: f32[M, K]\nB: f32[K, N]\nC: f32[M, N]\nC[i, j] +=! A[i, k] * B[k, j]'
const MM64 = 'A: f64[M, K]\nB: f64[K, N]\nC: f64[M, N]\nC[i, j] +=! A[i, k] * B[k, j]'

const tile = (x: ContractionSchedule) => ISAS.flatMap((i) => i.microkernels).find((m) => m.name === x.microkernel)!

/** Two register tiles per cache block and kc = 16: every block loop takes several steps on small shapes. */
const small = (order: ContractionSchedule['order'], parallel: ContractionSchedule['parallel']) =>
  (x: ContractionSchedule): ContractionSchedule => ({ ...x, mc: 2 * tile(x).mr, nc: 2 * tile(x).nr, kc: 16, order, parallel })

const KERNELS: readonly Kernel[] = [
  contractionKernel(MM, 'mm'),
  contractionKernel(MM, 'mm_nkm_m', small(['n', 'k', 'm'], 'm')),
  contractionKernel(MM, 'mm_kmn_n', small(['k', 'm', 'n'], 'n')),
  contractionKernel(MM, 'mm_mnk_none', small(['m', 'n', 'k'], 'none')),
  contractionKernel(MM, 'mm_mkn_m', small(['m', 'k', 'n'], 'm')),
  contractionKernel(MM, 'mm_nmk_n', small(['n', 'm', 'k'], 'n')),
  // Both operands transposed, accumulating into C's old content (no `!`).
  contractionKernel('A: f32[K, M]\nB: f32[N, K]\nC: f32[M, N]\nC[i, j] += A[k, i] * B[j, k]', 'mm_tt', small(['n', 'k', 'm'], 'm')),
  // A transposed output: run as Cᵀ = Bᵀ·Aᵀ.
  contractionKernel('A: f32[M, K]\nB: f32[K, N]\nC: f32[N, M]\nC[j, i] +=! A[i, k] * B[k, j]', 'mm_ct'),
  contractionKernel('A: f32[Bt, M, K]\nB: f32[Bt, K, N]\nC: f32[Bt, M, N]\nC[b, i, j] +=! A[b, i, k] * B[b, k, j]', 'bmm', small(['n', 'k', 'm'], 'n')),
  contractionKernel('A: f32[Bt, M, K]\nB: f32[K, Bt, N]\nC: f32[M, Bt, N]\nC[i, b, j] += A[b, i, k] * B[k, b, j]', 'bmm_mid'),
  contractionKernel(MM64, 'mm64'),
  contractionKernel(MM64, 'mm64_kmn_m', small(['k', 'm', 'n'], 'm')),
  // A temporary as the GEMM's output, then a pointwise statement.
  contractionKernel('A: f32[M, K]\nB: f32[K, N]\nC: f32[M, N]\nlet T: f32[M, N]\nT[i, j] +=! A[i, k] * B[k, j]\nC[i, j] = 2 * T[i, j]', 'mm_temp'),
]

/** [M, N, K] (and Bt = 3 where there is one). */
const SHAPES: readonly (readonly [number, number, number])[] = [
  [1, 1, 1], [7, 17, 33], [33, 7, 1], [17, 33, 129], [129, 33, 17], [1000, 17, 129], [13, 1000, 31], [1, 129, 1000],
]

type Fn = (...args: unknown[]) => unknown
interface Addon {
  readonly [kernel: string]: Fn | Addon['__polykern']
  readonly __polykern: { readonly isas: readonly string[]; setIsa(name: string): string; setThreads(n: number): void }
}

let cacheDir: string
let addon: Addon
const source = emitAddonSource(
  KERNELS.map((kernel, n) => ({ kernel, abi: abiOf(kernel), symbol: `kc_${n}_${kernel.name}` })),
  { moduleId: 'test/native/gemm.test.ts' },
)

beforeAll(async () => {
  cacheDir = mkdtempSync(path.join(os.tmpdir(), 'polykern-gemm-test-'))
  const built = await buildAddon({ source, cacheDir })
  if (!built.ok) throw new Error(`addon build failed:\n${built.error}`)
  addon = createRequire(import.meta.url)(built.path)
})

afterAll(() => rmSync(cacheDir, { recursive: true, force: true }))

/** Arguments of `kernel` for sizes M, N, K (Bt = 3), fresh random data; outputs prefilled with random values too. */
function argsOf(kernel: Kernel, [M, N, K]: readonly number[], next: () => number): unknown[] {
  const sizes = new Map([['M', M], ['N', N], ['K', K], ['Bt', 3]])
  return kernel.params.map((p) => {
    if (p.kind === 'size') return sizes.get(p.name)!
    const t = kernel.tensors.find((x) => x.name === p.name)!
    return randomArray(t.dtype, t.shape.reduce((n, d) => n * evaluate(d, sizes), 1), next)
  })
}

const copy = (args: readonly unknown[]) => args.map((a) => (ArrayBuffer.isView(a) ? (a as TensorArray).slice() : a))

describe('blocked GEMM', () => {
  it('every ISA version but scalar holds a driver per schedule', () => {
    for (const isa of ISAS.filter((i) => i.microkernels.length > 0)) {
      for (const mk of isa.microkernels) expect(source).toContain(`static void pk_ukr_${mk.name}(`)
      expect(source).toContain(`pk_${isa.microkernels[0].name}_nkm_m(&pk_g)`)
    }
  })

  for (const kernel of KERNELS) {
    it(`${kernel.name} matches the interpreter on every ISA, at 1 and 2 threads`, () => {
      const next = rng(kernel.name.length * 7919 + kernel.name.charCodeAt(kernel.name.length - 1))
      const dtype = kernel.tensors[0].dtype
      const out = kernel.params.findIndex((p) => p.name === 'C')
      for (const shape of SHAPES) {
        const args = argsOf(kernel, shape, next)
        const want = copy(args)
        interpret(kernel, want)
        for (const isa of addon.__polykern.isas) {
          const ran = addon.__polykern.setIsa(isa)
          for (const threads of [1, 2]) {
            addon.__polykern.setThreads(threads)
            const got = copy(args)
            ;(addon[kernel.name] as Fn)(...got)
            const what = `${kernel.name} ${shape.join('x')} on ${ran}, ${threads} thread(s)`
            expect(maxRelErr(got[out] as TensorArray, want[out] as TensorArray), what).toBeLessThan(tolerance(dtype, shape[2]))
          }
        }
      }
      addon.__polykern.setThreads(1)
    })
  }

  it('prints the 1024³ single-thread throughput of each ISA (not asserted)', () => {
    const n = 1024
    const next = rng(1024)
    const args = argsOf(KERNELS[0], [n, n, n], next)
    addon.__polykern.setThreads(1)
    const lines: string[] = []
    for (const isa of addon.__polykern.isas.filter((i) => i !== 'scalar')) {
      const ran = addon.__polykern.setIsa(isa)
      let best = Infinity
      for (let rep = 0; rep < 8; rep++) {
        const t0 = performance.now()
        ;(addon.mm as Fn)(...args)
        best = Math.min(best, performance.now() - t0)
      }
      lines.push(`${ran}: ${((2 * n ** 3) / best / 1e6).toFixed(1)} GFLOP/s`)
    }
    console.log(`[gemm] 1024³ f32, 1 thread, best of 8: ${lines.join(', ')}`)
    expect(lines.length).toBeGreaterThan(0)
  })
})
