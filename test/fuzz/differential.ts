/**
 * The differential check behind the CI fuzz test, `npm run fuzz` and the shrunk regression tests. Generated kernels
 * go through the real pipeline (find → parse → check → build → passes → JS and C emitters → node-gyp), many to one
 * addon, and each case (kernel, sizes, data seed) is run by every system and compared with the reference
 * interpreter on the IR straight from the spec:
 *   - the naive evaluator on the spec's syntax tree (checks the oracle itself),
 *   - the interpreter on the IR after every pass (checks the passes),
 *   - the generated JS loops,
 *   - the native addon at every ISA level this CPU has, at 1, 2 and 3 threads, every parallel loop through the pool,
 *     and again with the tensors the kernel only reads bound as constants (packed once, read packed after).
 */
import { createRequire } from 'node:module'
import path from 'node:path'
import { buildAddon } from '../../plugin/addon/build.ts'
import type { CompiledKernel } from '../../plugin/compiled-kernel.ts'
import { KernelDiagnostic } from '../../plugin/diagnostics.ts'
import { emitAddonSource } from '../../plugin/emit/napi.ts'
import { findKernelSites } from '../../plugin/find/annotations.ts'
import { buildKernel } from '../../plugin/spec/build-ir.ts'
import { interpret } from '../../plugin/ir/interp.ts'
import type { Kernel } from '../../plugin/ir/nodes.ts'
import type { ResolvedOptions } from '../../plugin/options.ts'
import { compileKernel } from '../../plugin/pipeline.ts'
import type { SpecAst } from '../../plugin/spec/ast.ts'
import { checkSpec } from '../../plugin/spec/check.ts'
import { parseSpec } from '../../plugin/spec/parser.ts'
import { ISAS } from '../../plugin/targets/index.ts'
import type { Isa } from '../../plugin/targets/isa.ts'
import { copyArgs, copyArgsAtOddOffsets, elements, makeArgs, points, reductionLength } from '../support/kernel-args.ts'
import { maxRelErr, rng, tolerance, type TensorArray } from '../support/random.ts'
import { moduleSource, type KernelText } from './model.ts'
import { naiveEvaluate } from './naive.ts'

/** 3: the pools of machines with more cores, whose parallel loops split into uneven parts (runs on 2 cores too). */
export const THREADS = [1, 2, 3] as const

/** One generated kernel after the front end and the passes, or the error that stopped it. */
export type FuzzCompiled =
  | {
      readonly ok: true
      readonly text: KernelText
      readonly compiled: CompiledKernel
      /** Block form, straight from the spec: the reference. */
      readonly reference: Kernel
      readonly ast: SpecAst
      readonly js: (...args: unknown[]) => void
    }
  | { readonly ok: false; readonly text: KernelText; readonly error: unknown }

interface AddonMeta {
  readonly isas: readonly string[]
  readonly setIsa: (name: string) => string
  readonly setThreads: (n: number) => void
  readonly boundForms: number
  readonly bindConstant: (array: TensorArray) => unknown
  readonly unbindConstant: (handle: unknown) => void
}
export type FuzzAddon = Record<string, (...args: unknown[]) => unknown> & { readonly __polykern: AddonMeta }

/** Every kernel of one module through the front end and the passes; a kernel's failure does not stop the others. */
export function compileAll(kernels: readonly KernelText[], file: string, opts: ResolvedOptions): FuzzCompiled[] {
  const code = moduleSource(kernels)
  const sites = findKernelSites(file, code)
  if (sites.length !== kernels.length) throw new Error(`found ${sites.length} kernels in ${file}, generated ${kernels.length}`)
  return sites.map((site, n): FuzzCompiled => {
    const text = kernels[n]
    try {
      const ast = parseSpec(site.specText, site.specStart, site.file)
      const reference = buildKernel(checkSpec(ast, site))
      const compiled = compileKernel(site, code, opts)
      const js = new Function(`return ${compiled.js}`)() as (...args: unknown[]) => void
      return { ok: true, text, compiled, reference, ast, js }
    } catch (error) {
      return { ok: false, text, error }
    }
  })
}

/**
 * The compiled kernels of one module as one addon holding every ISA, parallel loops always through the pool; its
 * path. `cflags` (sanitizers) are added to the build.
 */
export async function buildAll(
  compiled: readonly FuzzCompiled[],
  moduleId: string,
  cacheDir: string,
  cflags: readonly string[] = [],
  isas: readonly Isa[] = ISAS,
): Promise<string> {
  const kernels = compiled.flatMap((c, n) => (c.ok ? [{ kernel: c.compiled.ir, abi: c.compiled.abi, symbol: `kc_${n}` }] : []))
  const sources = emitAddonSource(kernels, { moduleId, isas, parallelMinWork: 1 })
  const built = await buildAddon({ sources, cacheDir, cflags })
  if (!built.ok) throw new Error(`the fuzz addon ${moduleId} did not build:\n${built.error}`)
  return built.path
}

export const loadFuzzAddon = (addonPath: string): FuzzAddon => createRequire(import.meta.url)(addonPath) as FuzzAddon

export interface Mismatch {
  readonly system: string
  readonly detail: string
}

/** 0 (empty tensors), 1, primes, powers of two and their neighbours: edges of vector widths and register tiles. */
const SIZES = [1, 2, 3, 5, 7, 8, 13, 16, 17, 31, 33, 64, 67, 0, 100, 129, 257]

/**
 * At most this many tensor elements a case. A size that no loop of a statement runs over (a trace's N, a slice's
 * extent) grows the arrays and not the work: among the oracle's 2,400 cases, a few arrays of 17 million elements
 * for 3,000 points took half its time to fill and copy.
 */
const MAX_ELEMENTS = 1 << 20

/**
 * Random sizes (0, 1, primes, sizes that are not multiples of 8 or 16) whose work stays under `maxPoints`, and whose
 * tensors under MAX_ELEMENTS.
 */
export function randomSizes(reference: Kernel, seed: number, maxPoints: number): Map<string, number> | undefined {
  const next = rng(seed)
  const fits = (sizes: ReadonlyMap<string, number>) => points(reference, sizes) <= maxPoints && elements(reference, sizes) <= MAX_ELEMENTS
  for (let tries = 0; tries < 200; tries++) {
    const limit = tries < 100 ? SIZES.length : 8 // then only small ones, for kernels whose work grows fast
    const sizes = new Map(reference.sizes.map((s) => [s, SIZES[Math.floor(next() * limit)]]))
    if (fits(sizes)) return sizes
  }
  const ones = new Map(reference.sizes.map((s) => [s, 1]))
  return fits(ones) ? ones : undefined
}

/** Float tolerance: the longest reduction's, once per statement (errors add up through temporaries). */
function toleranceOf(reference: Kernel, sizes: ReadonlyMap<string, number>): number {
  const statements = reference.body.filter((s) => s.kind === 'block').length
  // A generated kernel computes in one dtype.
  return tolerance(reference.tensors[0].dtype, reductionLength(reference, sizes)) * statements
}

/** What the native runs exercised, summed over cases: packed forms the bound calls made (polykern_bound.h). */
export interface NativeCoverage {
  boundForms: number
}

/**
 * Runs one case through every system and returns what disagrees with the reference interpreter (empty: all agree).
 * Without an addon, the native systems are skipped. `coverage`, when given, is added to.
 */
export function checkCase(
  c: Extract<FuzzCompiled, { ok: true }>,
  sizes: ReadonlyMap<string, number>,
  dataSeed: number,
  addon?: FuzzAddon,
  coverage?: NativeCoverage,
): Mismatch[] {
  const abi = c.compiled.abi
  const args = makeArgs(abi, sizes, rng(dataSeed))
  const run = (f: (...a: unknown[]) => unknown, copy = copyArgs): unknown[] => {
    const copied = copy(args)
    f(...copied)
    return copied
  }
  const want = run((...a) => interpret(c.reference, a))
  const tol = toleranceOf(c.reference, sizes)
  const mismatches: Mismatch[] = []
  const compare = (system: string, f: (...a: unknown[]) => unknown, copy = copyArgs) => {
    let got: unknown[]
    try {
      got = run(f, copy)
    } catch (e) {
      mismatches.push({ system, detail: `threw ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}` })
      return
    }
    abi.params.forEach((p, n) => {
      if (p.kind !== 'tensor' || p.role === 'in') return
      const err = maxRelErr(want[n] as TensorArray, got[n] as TensorArray)
      if (err > tol) mismatches.push({ system, detail: `output '${p.name}' differs by ${err.toPrecision(3)} (tolerance ${tol.toPrecision(3)})${worstDifference(want[n] as TensorArray, got[n] as TensorArray)}` })
    })
  }
  const byName = (a: unknown[]) => new Map(abi.params.map((p, n) => [p.name, a[n] as TensorArray | number]))
  compare('naive evaluator', (...a) => naiveEvaluate(c.ast, byName(a)))
  compare('interpreter after the passes', (...a) => interpret(c.compiled.ir, a))
  compare('generated JS', c.js)
  if (addon) {
    const meta = addon.__polykern
    const fn = addon[abi.name]
    for (const isa of meta.isas) {
      const chosen = meta.setIsa(isa)
      if (chosen !== isa) continue // this CPU lacks it
      for (const threads of THREADS) {
        meta.setThreads(threads)
        compare(`native ${isa}, ${threads} thread${threads > 1 ? 's' : ''}`, fn)
      }
      // Once more with every array a view no vector width divides: the loads and stores that touch the caller's memory.
      compare(`native ${isa}, ${THREADS.at(-1)} threads, arrays at odd element offsets`, fn, copyArgsAtOddOffsets)
      checkBound(isa)
    }
  }
  return mismatches

  /**
   * Every tensor the kernel only reads bound as a constant, as runtime/bind.ts binds one (a copy on shared memory),
   * then called at each thread count and at the first again: the first call packs the forms (polykern_bound.h) the
   * later ones read, a form packed at one thread count read at another. Bound, the constants must stay as they were;
   * unbound, the addon must hold no more forms than before.
   */
  function checkBound(isa: string) {
    const meta = addon!.__polykern
    const inputs = abi.params.flatMap((p, n) => (p.kind === 'tensor' && p.role === 'in' ? [n] : []))
    if (inputs.length === 0) return
    const constants = new Map(inputs.map((n) => [n, onSharedMemory(args[n] as TensorArray)]))
    const formsBefore = meta.boundForms
    const handles = [...constants.values()].map((a) => meta.bindConstant(a))
    try {
      const withConstants = (a: readonly unknown[]) => copyArgs(a).map((x, n) => constants.get(n) ?? x)
      ;[...THREADS, THREADS[0]].forEach((threads, call) => {
        meta.setThreads(threads)
        compare(`native ${isa}, ${threads} thread${threads > 1 ? 's' : ''}, read-only tensors bound (call ${call + 1})`, addon![abi.name], withConstants)
        if (call === 0 && coverage) coverage.boundForms += meta.boundForms - formsBefore
      })
    } finally {
      for (const handle of handles) meta.unbindConstant(handle)
    }
    for (const [n, constant] of constants) {
      if (!bytesOf(args[n] as TensorArray).equals(bytesOf(constant))) mismatches.push({ system: `native ${isa}, bound`, detail: `the bound constant '${abi.params[n].name}' changed` })
    }
    const left = meta.boundForms - formsBefore
    if (left !== 0) mismatches.push({ system: `native ${isa}, bound`, detail: `${left} packed forms left after unbinding` })
  }
}

const bytesOf = (a: TensorArray) => Buffer.from(a.buffer, a.byteOffset, a.byteLength)

/** A copy of `array` on a SharedArrayBuffer, as bind() makes one. */
function onSharedMemory(array: TensorArray): TensorArray {
  const Type = array.constructor as new (buffer: SharedArrayBuffer) => TensorArray
  const copy = new Type(new SharedArrayBuffer(array.byteLength))
  copy.set(array as never)
  return copy
}

function worstDifference(a: TensorArray, b: TensorArray): string {
  let worst = -1
  for (let i = 0; i < a.length; i++) if (maxRelErr([a[i]], [b[i]]) > (worst < 0 ? 0 : maxRelErr([a[worst]], [b[worst]]))) worst = i
  return worst < 0 ? '' : `; worst at element ${worst} of ${a.length}: want ${a[worst]}, got ${b[worst]}`
}

/** What stopped a kernel before any run: a KernelDiagnostic on a generated (well-formed) spec, or a crash. */
export function describeError(e: unknown): string {
  if (e instanceof KernelDiagnostic) return `diagnostic ${e.code}: ${e.message}`
  return e instanceof Error ? `${e.name}: ${e.message}` : String(e)
}

export const fuzzModuleFile = (root: string, name: string): string => path.join(root, 'test/.out/fuzz', `${name}.ts`)
