/**
 * Every TCCG contraction and issue 14's reshaped GEMMs (test/support/tccg.ts), with TCCG's layout and with every
 * operand transposed, at small odd sizes (and a 1): the native addon at every ISA this CPU runs and at 1 and 2 threads
 * (and once with every array a view at an odd element offset), and the generated JS, against the interpreter on the IR
 * straight from the spec; the transposed ones with small blocks. All reach the blocked GEMM: with one stride per role
 * where each role's indices are one run of dimensions, through offset tables otherwise.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildAddon } from '../../plugin/addon/build.ts'
import { emitJs } from '../../plugin/emit/js.ts'
import { emitAddonSource } from '../../plugin/emit/napi.ts'
import { buildKernel } from '../../plugin/spec/build-ir.ts'
import { interpret } from '../../plugin/ir/interp.ts'
import type { Contraction, ContractionSchedule, IndexRange, Kernel } from '../../plugin/ir/nodes.ts'
import { guardHolds } from '../../plugin/schedule/select.ts'
import { printRole } from '../../plugin/ir/print.ts'
import { walkStmts } from '../../plugin/ir/walk.ts'
import { microkernelNamed } from '../../plugin/targets/index.ts'
import { abiOf } from '../emit/kernels.ts'
import { contractionKernel, paramsOf } from '../support/contractions.ts'
import { runnableIsas } from '../support/cpu.ts'
import { specOf } from '../support/examples.ts'
import { copyArgs, copyArgsAtOddOffsets, irArgs } from '../support/kernel-args.ts'
import { maxRelErr, rngOf, tolerance, type TensorArray } from '../support/random.ts'
import { RESHAPED, TCCG, TCCG_TENSORS, tccgSpec } from '../support/tccg.ts'
import { MIXED_SHAPES } from './tccg-shapes.ts'
import { onEveryIsaAndThreads, type KernelCall as Fn, type TestAddon as Addon } from '../support/test-addon.ts'

interface Case {
  readonly tc: string
  readonly kernel: Kernel
  readonly reference: Kernel
}

/**
 * The transposed cases run with small blocks (two register tiles, kc 5: several blocks along every range even at
 * these sizes, k blocks that accumulate into C) and alternate between the two ways threads share a packed panel.
 */
const smallBlocks = (n: number) => (x: ContractionSchedule): ContractionSchedule => {
  const mk = microkernelNamed(x.microkernel)!
  const shared = n % 2 === 0
    ? { order: ['n', 'k', 'm'], inner: 'nm', parallel: 'm' } as const
    : { order: ['k', 'm', 'n'], inner: 'mn', parallel: 'n' } as const
  return { isa: x.isa, microkernel: x.microkernel, mc: 2 * mk.mr, nc: 2 * mk.nr, kc: 5, packA: true, packB: true, ...shared }
}

const CASES: readonly Case[] = [...TCCG, ...RESHAPED].flatMap((tc, n) =>
  ([false, true] as const).map((permute) => {
    const spec = tccgSpec(tc, n % 2 === 0 ? 'f64' : 'f32', permute)
    const name = `${permute ? 'permuted_' : ''}${tc.replaceAll('-', '_')}`
    const kernel = contractionKernel(spec, name, permute ? smallBlocks(n) : undefined)
    return { tc, kernel, reference: buildKernel(specOf(spec, paramsOf(spec))) }
  }),
)

/**
 * Per index letter, its extent in each of the shapes every case runs at: odd, a 1 now and then, products past a tile;
 * one empty index (a role of several indices with no points must not fill its offset table from the others); and
 * long next to short extents, which make gathered calls choose other role orders, tiled ones too (tccg-shapes.ts).
 */
const SHAPES: readonly ((letter: string, n: number) => number)[] = [
  (_, n) => [3, 5, 7, 9][n % 4],
  (_, n) => [7, 1, 5, 3, 11][n % 5],
  (_, n) => (n === 0 ? 0 : 3),
  ...MIXED_SHAPES,
]

/** The points summed into each element of C (`abc-adc-bd`: d's extent): the contraction's rounding length. */
function summedPoints(tc: string, sizes: ReadonlyMap<string, number>): number {
  const [c, a] = tc.split('-')
  return [...a].filter((v) => !c.includes(v)).reduce((n, v) => n * sizes.get(v.toUpperCase())!, 1)
}

/** The GEMM roles of a kernel's contraction, `m | n | k | batch`, and its layout, or undefined when it runs as loops. */
function gemmRoles(kernel: Kernel): { roles: string; layout: string } | undefined {
  let found: { roles: string; layout: string } | undefined
  walkStmts(kernel.body, (s) => {
    if (s.kind !== 'contraction' || s.schedules.length === 0) return
    const r = s.roles
    const batch = r.batch.length > 0 ? [r.batch.map((b) => b.name).join(' ')] : []
    found = { roles: [printRole(r.m), printRole(r.n), printRole(r.k), ...batch].join(' | '), layout: r.layout }
  })
  return found
}


let cacheDir: string
let addon: Addon

/** The kernel natively on every ISA of the addon at 1 and 2 threads (onEveryIsaAndThreads): each result, and where it ran, to `check`. */
function eachNativeRun(kernel: Kernel, args: unknown[], check: (got: unknown[], where: string) => void): void {
  onEveryIsaAndThreads(addon, (isa, threads) => {
    const got = copyArgs(args)
    ;(addon[kernel.name] as Fn)(...got)
    check(got, `${isa}, ${threads} thread(s)`)
  })
}

beforeAll(async () => {
  const sources = emitAddonSource(
    CASES.map(({ kernel }, n) => ({ kernel, abi: abiOf(kernel), symbol: `kc_${n}_${kernel.name}` })),
    { moduleId: 'test/native/tccg.test.ts', parallelMinWork: 1 },
  )
  cacheDir = mkdtempSync(path.join(os.tmpdir(), 'polykern-tccg-test-'))
  const built = await buildAddon({ sources, cacheDir })
  if (!built.ok) throw new Error(`addon build failed:\n${built.error}`)
  addon = createRequire(import.meta.url)(built.path)
}, 300_000)

afterAll(() => rmSync(cacheDir, { recursive: true, force: true }))


describe('TCCG contractions', () => {
  it('all run as blocked GEMMs: flattened where each role is one run of dimensions, gathered otherwise', () => {
    const layouts = CASES.map((c) => [c.kernel.name, gemmRoles(c.kernel)?.layout ?? 'loops'] as const)
    expect(layouts.filter(([, l]) => l === 'loops')).toEqual([])
    expect(Object.fromEntries(layouts.filter(([, l]) => l === 'flattened').map(([name]) => [name, gemmRoles(CASES.find((c) => c.kernel.name === name)!.kernel)!.roles]))).toEqual({
      ij_ik_kj: 'j | i | k',
      permuted_ij_ik_kj: 'i | j | k',
      aqrs_pa_pqrs: 's·r·q | a | p',
      permuted_aqrs_pa_pqrs: 'a | q·r·s | p',
      feba_dcba_fedc: 'a·b | e·f | c·d',
      permuted_feba_dcba_fedc: 'f·e | b·a | d·c',
      dcbe_ae_dcba: 'e | b·c·d | a',
      permuted_dcbe_ae_dcba: 'd·c·b | e | a',
      hgfe_hd_dgfe: 'e·f·g | h | d',
      permuted_hgfe_hd_dgfe: 'h | g·f·e | d',
    })
    // The issue's "3 indices play n": the middle pairwise steps of ea,fb,gc,hd,abcd->efgh, gathered.
    expect(gemmRoles(CASES.find((c) => c.kernel.name === 'dcfe_bf_dcbe')!.kernel)).toEqual({ roles: 'f | e·c·d | b', layout: 'gathered' })
  })

  it('gathered calls of many rows over a short k loop run on the wide tile (a special entry on another microkernel), = interpreter', () => {
    // Sizes inside the guard, odd: M just past 2048, K at most 27, the n indices small.
    const wide = CASES.flatMap(({ kernel, reference }) => {
      let found: { special: NonNullable<ContractionSchedule['special']>[number]; roles: Contraction['roles'] } | undefined
      walkStmts(kernel.body, (s) => {
        if (s.kind !== 'contraction') return
        const special = s.schedules.flatMap((x) => x.special ?? []).find((x) => x.microkernel !== undefined)
        if (special !== undefined) found = { special, roles: s.roles }
      })
      return found === undefined ? [] : [{ kernel, reference, ...found }]
    })
    expect(wide.filter((x) => x.kernel.name.startsWith('abcijk_')).length, 'f32 ccsd_t cases with the wide tile').toBeGreaterThanOrEqual(2)
    for (const { kernel, reference, special, roles } of wide) {
      const sizeOf = (ix: IndexRange) => ix.extent.terms[0].v
      const sizes = new Map(kernel.sizes.map((s) => [s, 3]))
      roles.m.forEach((ix) => sizes.set(sizeOf(ix), [2049, 47, 13, 7][Math.min(roles.m.length, 4) - 1]))
      roles.k.forEach((ix) => sizes.set(sizeOf(ix), [7, 5, 3][Math.min(roles.k.length, 3) - 1]))
      roles.n.forEach((ix, n) => sizes.set(sizeOf(ix), [5, 3, 7][n % 3]))
      const extent = (role: readonly IndexRange[]) => role.reduce((n, ix) => n * sizes.get(sizeOf(ix))!, 1)
      const call = { m: extent(roles.m), n: extent(roles.n), k: extent(roles.k), batch: 1 }
      expect(guardHolds(special.when, call), `${kernel.name}: ${JSON.stringify(call)} inside ${JSON.stringify(special.when)}`).toBe(true)
      const next = rngOf(`${kernel.name} wide`)
      const args = irArgs(kernel, sizes, next)
      const want = copyArgs(args)
      interpret(reference, want)
      const out = kernel.params.findIndex((p) => p.name === TCCG_TENSORS.c)
      const tol = tolerance('f32', call.k)
      eachNativeRun(kernel, args, (got, where) =>
        expect(maxRelErr(got[out] as TensorArray, want[out] as TensorArray), `${kernel.name} on ${where}`).toBeLessThan(tol))
    }
  })

  it('every case with each array a view at an odd element offset, at every ISA and 1, 2 threads = interpreter', () => {
    for (const { tc, kernel, reference } of CASES) {
      // Odd extents whose products pass a register tile's rows and columns in most cases, so that whole tiles store.
      const sizes = new Map(kernel.sizes.map((s, n) => [s, [3, 5, 7][n % 3]]))
      const args = irArgs(kernel, sizes, rngOf(`${kernel.name} views`))
      const want = copyArgs(args)
      interpret(reference, want)
      const out = kernel.params.findIndex((p) => p.name === TCCG_TENSORS.c)
      onEveryIsaAndThreads(addon, (isa, threads) => {
        const got = copyArgsAtOddOffsets(args)
        ;(addon[kernel.name] as Fn)(...got)
        expect(maxRelErr(got[out] as TensorArray, want[out] as TensorArray), `${kernel.name} on ${isa}, ${threads} thread(s)`)
          .toBeLessThan(tolerance(kernel.tensors[0].dtype, summedPoints(tc, sizes)))
      })
    }
  })

  for (const { tc, kernel, reference } of CASES) {
    it(`${kernel.name}: native at every ISA and 1, 2 threads = generated JS = interpreter`, () => {
      const next = rngOf(kernel.name)
      const js = new Function(`'use strict'; return ${emitJs(kernel)}`)() as Fn
      const dtype = kernel.tensors[0].dtype
      const out = kernel.params.findIndex((p) => p.name === TCCG_TENSORS.c)
      expect(addon.__polykern.isas).toEqual(expect.arrayContaining([...runnableIsas]))
      for (const shape of SHAPES) {
        const sizes = new Map(kernel.sizes.map((s, n) => [s, shape(s, n)]))
        const args = irArgs(kernel, sizes, next)
        const want = copyArgs(args)
        interpret(reference, want)
        const tol = tolerance(dtype, summedPoints(tc, sizes))
        const check = (got: unknown[], what: string) =>
          expect(maxRelErr(got[out] as TensorArray, want[out] as TensorArray), `${kernel.name} ${what}`).toBeLessThan(tol)
        const viaJs = copyArgs(args)
        js(...viaJs)
        check(viaJs, 'generated JS')
        eachNativeRun(kernel, args, (got, where) => check(got, `${[...sizes].map(([s, v]) => `${s}=${v}`).join(' ')} on ${where}`))
      }
    })
  }
})
