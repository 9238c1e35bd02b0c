/**
 * Contractions through the blocked GEMM path, in a real addon (node-gyp): every ISA version (switched with
 * `__polykern.setIsa`), at 1 and 2 threads, against the interpreter running the same IR's loop nest. Shapes include
 * 1, primes and sizes that are not multiples of the register tile; small cache blocks push modest shapes through
 * every edge (partial mc, nc, kc blocks, partial MR×NR tiles of every height and width) and every blocking choice:
 * loop orders, both register-tile orders, each operand packed or read in place, each parallel range (with a panel
 * the threads pack together, or not), k split between the threads, whole GEMMs of a batch on the threads, and
 * call-time specializations. The
 * addon wakes the pool for any GEMM of 32 FMAs or more, so 2 threads really run as a team on every shape.
 * The 1024³ throughput of each ISA is printed, never asserted.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildAddon } from '../../plugin/addon/build.ts'
import { emitAddonSource } from '../../plugin/emit/napi.ts'
import { interpret } from '../../plugin/ir/interp.ts'
import type { Contraction, ContractionSchedule, GemmBlocking, Kernel } from '../../plugin/ir/nodes.ts'
import { walkStmts } from '../../plugin/ir/walk.ts'
import { timeCalls } from '../../plugin/measure/timing.ts'
import { ISAS, microkernelNamed } from '../../plugin/targets/index.ts'
import { abiOf } from '../emit/kernels.ts'
import { contractionKernel as specKernel } from '../support/contractions.ts'
import { copyArgs, copyArgsAtOddOffsets, irArgs } from '../support/kernel-args.ts'
import { maxRelErr, rng, rngOf, tolerance, type TensorArray } from '../support/random.ts'
import type { KernelCall as Fn, TestAddon as Addon } from '../support/test-addon.ts'

const MM = 'A: f32[M, K]\nB: f32[K, N]\nC: f32[M, N]\nC[i, j] +=! A[i, k] * B[k, j]'
const MM64 = 'A: f64[M, K]\nB: f64[K, N]\nC: f64[M, N]\nC[i, j] +=! A[i, k] * B[k, j]'
const BMM = 'A: f32[Bt, M, K]\nB: f32[Bt, K, N]\nC: f32[Bt, M, N]\nC[b, i, j] +=! A[b, i, k] * B[b, k, j]'

const tile = (x: ContractionSchedule) => microkernelNamed(x.microkernel)!

/** Two register tiles per cache block and kc = 16, so every block loop takes several steps on small shapes. */
const smallBlocks = (x: ContractionSchedule, b: Partial<GemmBlocking>): GemmBlocking => ({
  mc: 2 * tile(x).mr, nc: 2 * tile(x).nr, kc: 16, order: ['n', 'k', 'm'], inner: 'nm', parallel: 'm', packA: true,
  packB: true, ...b,
})

/** Every call with small blocks and `b`'s choices, whatever the ranking picked for its sizes. */
const only = (b: Partial<GemmBlocking>) => (x: ContractionSchedule): ContractionSchedule =>
  ({ isa: x.isa, microkernel: x.microkernel, ...smallBlocks(x, b) })

/** `then`'s schedule on microkernel `name` wherever the ISA has it: the tiles the ranking does not pick here run too. */
const onTile = (name: string, then: (x: ContractionSchedule) => ContractionSchedule) => (x: ContractionSchedule): ContractionSchedule =>
  then(ISAS.find((i) => i.name === x.isa)!.microkernels.some((m) => m.name === name) ? { ...x, microkernel: name } : x)
/** Each kernel's spec: kernels of one spec differ only in blocking, so they share random data and one reference. */
const SPEC_OF = new Map<Kernel, string>()
const contractionKernel = (spec: string, name: string, schedule?: (x: ContractionSchedule) => ContractionSchedule): Kernel => {
  const kernel = specKernel(spec, name, schedule)
  SPEC_OF.set(kernel, spec)
  return kernel
}

const KERNELS: readonly Kernel[] = [
  // The build's own schedules, call-time specializations included.
  contractionKernel(MM, 'mm'),
  contractionKernel(MM, 'mm_nkm_m', only({})),
  contractionKernel(MM, 'mm_kmn_n', only({ order: ['k', 'm', 'n'], parallel: 'n', inner: 'mn' })),
  contractionKernel(MM, 'mm_mnk_none', only({ order: ['m', 'n', 'k'], parallel: 'none' })),
  contractionKernel(MM, 'mm_mkn_m', only({ order: ['m', 'k', 'n'], parallel: 'm' })),
  contractionKernel(MM, 'mm_nmk_n', only({ order: ['n', 'm', 'k'], parallel: 'n', inner: 'mn' })),
  // Operands read in place: A, B, both; with the threads sharing the other operand's panel or not.
  contractionKernel(MM, 'mm_a_in_place', only({ packA: false })),
  contractionKernel(MM, 'mm_b_in_place', only({ packB: false, parallel: 'n', order: ['k', 'm', 'n'] })),
  contractionKernel(MM, 'mm_both_in_place_mn', only({ packA: false, packB: false, inner: 'mn' })),
  contractionKernel(MM, 'mm_both_in_place_n', only({ packA: false, packB: false, parallel: 'n' })),
  // Both operands transposed, accumulating into C's old content (no `!`): packed whatever the blocking asks.
  contractionKernel('A: f32[K, M]\nB: f32[N, K]\nC: f32[M, N]\nC[i, j] += A[k, i] * B[j, k]', 'mm_tt',
    only({ packA: false, packB: false, order: ['k', 'n', 'm'] })),
  // A transposed output: run as Cᵀ = Bᵀ·Aᵀ.
  contractionKernel('A: f32[M, K]\nB: f32[K, N]\nC: f32[N, M]\nC[j, i] +=! A[i, k] * B[k, j]', 'mm_ct'),
  contractionKernel(BMM, 'bmm', only({ parallel: 'n' })),
  contractionKernel(BMM, 'bmm_across', only({ parallel: 'batch', packA: false })),
  contractionKernel('A: f32[Bt, M, K]\nB: f32[K, Bt, N]\nC: f32[M, Bt, N]\nC[i, b, j] += A[b, i, k] * B[k, b, j]', 'bmm_mid'),
  contractionKernel('A: f32[Bt, M, K]\nB: f32[K, Bt, N]\nC: f32[M, Bt, N]\nC[i, b, j] += A[b, i, k] * B[k, b, j]',
    'bmm_mid_across', only({ parallel: 'batch', packB: false })),
  // Call-time choice: in-place operands for thin calls, another order for small ones, the default for the rest.
  contractionKernel(MM, 'mm_special', (x) => ({
    ...only({})(x),
    special: [
      { when: { maxM: 8 }, blocking: smallBlocks(x, { packA: false, packB: false, parallel: 'n', inner: 'mn' }) },
      { when: { maxN: 20, maxK: 8 }, blocking: smallBlocks(x, { order: ['m', 'n', 'k'], packA: false }) },
      { when: { maxWork: 5000 }, blocking: smallBlocks(x, { parallel: 'none', packB: false }) },
    ],
  })),
  // B read in place where it is not bound and its rows, 16 of them, spread over L1's sets (the spread twins' guard);
  // packed where they fall in the same sets (N = 1024 f32: a page apart) or B is bound.
  contractionKernel(MM, 'mm_spread', (x) => ({
    ...only({})(x),
    special: [{
      when: { maxM: 48, boundB: false, spreadB: { rows: 16, lines: Math.ceil((tile(x).nr * 4) / 64) } },
      blocking: smallBlocks(x, { packA: false, packB: false, parallel: 'n', inner: 'mn' }),
    }],
  })),
  // AVX-512's f32 tiles, whichever the ranking picks: packed, and both operands in place with the n range split.
  contractionKernel(MM, 'mm_8x48', onTile('gemm_f32_avx512_8x48', only({}))),
  contractionKernel(MM, 'mm_8x48_in_place', onTile('gemm_f32_avx512_8x48', only({ packA: false, packB: false, parallel: 'n' }))),
  contractionKernel(MM, 'mm_6x64', onTile('gemm_f32_avx512_6x64', only({}))),
  contractionKernel(MM, 'mm_6x64_in_place', onTile('gemm_f32_avx512_6x64', only({ packA: false, packB: false, parallel: 'n' }))),
  contractionKernel(MM64, 'mm64'),
  contractionKernel(MM64, 'mm64_kmn_m', only({ order: ['k', 'm', 'n'], parallel: 'm' })),
  contractionKernel(MM64, 'mm64_in_place_mn', only({ packA: false, packB: false, inner: 'mn', parallel: 'n' })),
  // Gathered (k = Bt·K through offset tables, C transposed), where a long k is split between the threads.
  contractionKernel('A: f32[K, Bt, M]\nB: f32[Bt, N, K]\nC: f32[N, M]\nC[j, i] +=! A[k, b, i] * B[b, j, k]', 'mm_gathered'),
  contractionKernel('A: f32[K, Bt, M]\nB: f32[Bt, N, K]\nC: f32[N, M]\nC[j, i] += A[k, b, i] * B[b, j, k]', 'mm_gathered_acc',
    only({ order: ['m', 'k', 'n'], parallel: 'n' })),
  // A temporary as the GEMM's output, then a pointwise statement.
  contractionKernel('A: f32[M, K]\nB: f32[K, N]\nC: f32[M, N]\nlet T: f32[M, N]\nT[i, j] +=! A[i, k] * B[k, j]\nC[i, j] = 2 * T[i, j]', 'mm_temp'),
]

/**
 * [M, N, K] (and Bt = 3 where there is one). The last two have k long against m and n, which the threads split
 * (PK_GEMM(splits_k)) into shares that are not whole blocks of k; they also run at 3 threads.
 */
const SHAPES: readonly (readonly [number, number, number])[] = [
  [1, 1, 1], [7, 17, 33], [33, 7, 1], [17, 33, 129], [129, 33, 17], [1000, 17, 129], [13, 1000, 31], [1, 129, 1000],
  [5, 64, 37], [8, 97, 40], [3, 5, 0], [9, 11, 1001], [37, 3, 700], [9, 1024, 40],
]
const LONG_K = 700



/** The schedules of `kernel`'s contractions. */
function schedulesOf(kernel: Kernel): readonly ContractionSchedule[] {
  const out: ContractionSchedule[] = []
  walkStmts(kernel.body, (s) => void (s.kind === 'contraction' && out.push(...(s as Contraction).schedules)))
  return out
}

let cacheDir: string
let addon: Addon
const sources = emitAddonSource(
  KERNELS.map((kernel, n) => ({ kernel, abi: abiOf(kernel), symbol: `kc_${n}_${kernel.name}` })),
  { moduleId: 'test/native/gemm.test.ts', parallelMinWork: 1 },
)

beforeAll(async () => {
  cacheDir = mkdtempSync(path.join(os.tmpdir(), 'polykern-gemm-test-'))
  const built = await buildAddon({ sources, cacheDir })
  if (!built.ok) throw new Error(`addon build failed:\n${built.error}`)
  addon = createRequire(import.meta.url)(built.path)
})

afterAll(() => rmSync(cacheDir, { recursive: true, force: true }))

/** Arguments of `kernel` for sizes M, N, K (Bt = 3), fresh random data; outputs prefilled with random values too. */
function argsOf(kernel: Kernel, [M, N, K]: readonly number[], next: () => number): unknown[] {
  return irArgs(kernel, new Map([['M', M], ['N', N], ['K', K], ['Bt', 3]]), next)
}


/**
 * Random arguments of `kernel` at `shape` and the interpreter's outputs for them, computed once per spec and shape
 * (the interpreter was most of this file's time) from a seed of the two.
 */
const references = new Map<string, { readonly args: readonly unknown[]; readonly want: readonly unknown[] }>()
function referenceOf(kernel: Kernel, shape: readonly number[]): { readonly args: readonly unknown[]; readonly want: readonly unknown[] } {
  const key = `${SPEC_OF.get(kernel)}|${shape.join('x')}`
  let known = references.get(key)
  if (known === undefined) {
    const args = argsOf(kernel, shape, rngOf(key))
    const want = copyArgs(args)
    interpret(kernel, want)
    references.set(key, (known = { args, want }))
  }
  return known
}

describe('blocked GEMM', () => {
  it('every ISA version but scalar holds the tile functions and shapes its blockings need', () => {
    for (const isa of ISAS.filter((i) => i.microkernels.length > 0)) {
      const source = sources.find((f) => f.name === `polykern_${isa.name}.c`)!.text
      const tiles = KERNELS.flatMap(schedulesOf).filter((x) => x.isa === isa.name).map((x) => x.microkernel)
      // Each tile family declared where it is called, and defined in a file of its own that the addon builds from.
      const family = (symbol: string) => {
        expect(source).toContain(`PK_SHARED void ${symbol}(`)
        const file = sources.find((f) => f.name === `${symbol}.c`)
        expect(file?.shared, symbol).toBe(true)
        expect(file?.text).toContain(`\nPK_SHARED void ${symbol}(`)
      }
      for (const name of new Set(tiles)) family(`pk_ukr_${name}_pp`)
      // mm_spread's guard asks B's k stride in bytes (N floats) at the call.
      expect(source).toContain('!pk_rows_share_sets((int64_t)sizeof(float)*(')
      // The shapes of the ranking's own pick for mm.
      const mk = schedulesOf(KERNELS[0]).find((x) => x.isa === isa.name)!.microkernel
      for (const layouts of ['pp', 'up', 'pu', 'uu']) family(`pk_ukr_${mk}_${layouts}`)
      // Each blocking chooses its shape, its block sizes and whether whole GEMMs of a batch go to the threads.
      const chosen = (shape: string, across?: number) => new RegExp(
        `pk_shape = &pk_${mk}_${shape}, pk_mc = \\d+, pk_nc = \\d+, pk_kc = \\d+${across === undefined ? '' : `, pk_across = ${across};`}`)
      expect(source).toMatch(chosen('nkm_nm_m_pp'))
      expect(source).toMatch(chosen('nkm_nm_none_up', 1))
      // Transposed operands are packed even where the blocking asks for them in place.
      expect(source).toMatch(chosen('knm_nm_m_pp'))
      expect(source).not.toContain(`pk_${mk}_knm_nm_m_uu`)
    }
  })

  for (const kernel of KERNELS) {
    it(`${kernel.name} matches the interpreter on every ISA, at 1 and 2 threads (3 on long k)`, () => {
      const dtype = kernel.tensors[0].dtype
      const out = kernel.params.findIndex((p) => p.name === 'C')
      for (const shape of SHAPES) {
        const { args, want } = referenceOf(kernel, shape)
        for (const isa of addon.__polykern.isas) {
          const ran = addon.__polykern.setIsa(isa)
          for (const threads of shape[2] >= LONG_K ? [1, 2, 3] : [1, 2]) {
            addon.__polykern.setThreads(threads)
            // At 2 threads every array is a view at an odd element offset, which no fresh (16-byte aligned) array is.
            const got = (threads === 2 ? copyArgsAtOddOffsets : copyArgs)(args)
            ;(addon[kernel.name] as Fn)(...got)
            const what = `${kernel.name} ${shape.join('x')} on ${ran}, ${threads} thread(s)${threads === 2 ? ', views at odd offsets' : ''}`
            expect(maxRelErr(got[out] as TensorArray, want[out] as TensorArray), what).toBeLessThan(tolerance(dtype, shape[2]))
          }
        }
      }
      addon.__polykern.setThreads(1)
    })
  }

  it('a bound B of a tiny call takes the tiny-bound blocking, which packs it once, at every ISA and thread count', () => {
    const mm = KERNELS[0]
    for (const x of schedulesOf(mm)) {
      if (x.isa !== 'scalar') expect(x.special?.some((s) => s.when.boundB && s.blocking.packB), x.isa).toBe(true)
    }
    const native = addon.__polykern as Addon['__polykern'] & {
      readonly boundForms: number; bindConstant(a: Float32Array): unknown; unbindConstant(h: unknown): void
    }
    const b = mm.params.findIndex((p) => p.name === 'B')
    const out = mm.params.findIndex((p) => p.name === 'C')
    for (const shape of [[13, 29, 37], [64, 64, 64], [7, 100, 1]] as const) {
      const { args, want } = referenceOf(mm, shape)
      const B = new Float32Array(new SharedArrayBuffer((args[b] as Float32Array).byteLength))
      B.set(args[b] as Float32Array)
      const handle = native.bindConstant(B)
      // An ISA this CPU lacks runs the best one below it: each ISA that runs, once (its forms are made by then).
      const covered = new Set<string>()
      for (const isa of native.isas.filter((i) => i !== 'scalar')) {
        const ran = native.setIsa(isa)
        if (covered.has(ran)) continue
        covered.add(ran)
        const before = native.boundForms
        for (const threads of [1, 2]) {
          native.setThreads(threads)
          for (let call = 0; call < 2; call++) {
            const got = copyArgs(args)
            got[b] = B
            ;(addon.mm as Fn)(...got)
            const what = `mm ${shape.join('x')} with B bound on ${ran}, ${threads} thread(s), call ${call + 1}`
            expect(maxRelErr(got[out] as TensorArray, want[out] as TensorArray), what).toBeLessThan(tolerance('f32', shape[2]))
          }
        }
        expect(native.boundForms - before, `${shape.join('x')} on ${ran}: B packed into its bound forms`).toBeGreaterThan(0)
      }
      native.unbindConstant(handle)
      expect(native.boundForms).toBe(0)
    }
    native.setThreads(1)
  })

  it('prints the 1024³ single-thread throughput of each ISA (not asserted)', () => {
    const n = 1024
    const next = rng(1024)
    const args = argsOf(KERNELS[0], [n, n, n], next)
    addon.__polykern.setThreads(1)
    const lines: string[] = []
    for (const isa of addon.__polykern.isas.filter((i) => i !== 'scalar')) {
      const ran = addon.__polykern.setIsa(isa)
      const [t] = timeCalls([() => (addon.mm as Fn)(...args)], { budgetMs: 0, minRounds: 8 })
      lines.push(`${ran}: ${((2 * n ** 3) / t.bestNs).toFixed(1)} GFLOP/s`)
    }
    console.log(`[gemm] 1024³ f32, 1 thread, best of 8: ${lines.join(', ')}`)
    expect(lines.length).toBeGreaterThan(0)
  })
})
