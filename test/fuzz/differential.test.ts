/**
 * The CI fuzz run: 320 random well-formed kernels (fixed seed) through the real pipeline, built as four addons that
 * hold every ISA, each run on random shapes (0, 1, primes, sizes that are not multiples of 8 or 16) at every ISA level
 * this CPU has and at 1, 2 and 3 threads (with every array a view at an odd element offset, which no fresh array is,
 * and with the tensors it only reads bound as constants), and compared with the reference interpreter, as are the
 * generated JS, the interpreter after the passes, and the naive evaluator on the spec's syntax tree. `npm run fuzz`
 * runs the same check for longer, on fresh seeds, and prints shrunk regressions.
 */
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import type { Contraction, Stmt } from '../../plugin/ir/nodes.ts'
import { resolveOptions } from '../../plugin/options.ts'
import { buildAll, checkCase, compileAll, describeError, loadFuzzAddon, randomSizes, type FuzzAddon, type NativeCoverage } from './differential.ts'
import { generateKernels } from './generate.ts'
import { kernelSource, textOf } from './model.ts'

const SEED = 20260605
const MODULES = 4
const KERNELS_PER_MODULE = 80
const SHAPES = 2
const MAX_POINTS = 20_000
/** Contractions also run once on a larger shape, past the GEMM's small-size blockings. */
const LARGE_POINTS = 400_000

const root = path.resolve(fileURLToPath(import.meta.url), '../../..')
const opts = resolveOptions({ root, cacheDir: 'node_modules/.cache/polykern-test' })
const kernels = generateKernels(SEED, MODULES * KERNELS_PER_MODULE)
const modules = Array.from({ length: MODULES }, (_, m) => {
  const texts = kernels.slice(m * KERNELS_PER_MODULE, (m + 1) * KERNELS_PER_MODULE).map(textOf)
  return { name: `ci-${SEED}-${m}`, compiled: compileAll(texts, path.join(root, `test/.out/fuzz/ci-${m}.ts`), opts) }
})
// All four addons build at once: node-gyp runs one compiler each, so the two cores stay busy.
const addons = await Promise.all(modules.map((m) => buildAll(m.compiled, `${m.name}.ts`, opts.cacheDir).then(loadFuzzAddon)))
const coverage: NativeCoverage = { boundForms: 0 }

for (const [m, { name, compiled }] of modules.entries()) {
  describe(`fuzz module ${name}`, () => {
    const addon: FuzzAddon = addons[m]
    for (const [n, c] of compiled.entries()) {
      it(`${c.text.name} agrees everywhere`, () => {
        if (!c.ok) throw new Error(`the pipeline refused a well-formed kernel: ${describeError(c.error)}\n${kernelSource(c.text)}`)
        const large = hasContraction(c.compiled.ir.body)
        const limits = [...Array<number>(SHAPES).fill(MAX_POINTS), ...(large ? [LARGE_POINTS] : [])]
        let ran = 0
        limits.forEach((limit, s) => {
          const sizes = randomSizes(c.reference, SEED + n * 17 + s, limit)
          if (!sizes) return
          ran++
          const mismatches = checkCase(c, sizes, SEED + n * 31 + s, addon, coverage)
          const label = [...sizes].map(([k, v]) => `${k}=${v}`).join(' ')
          expect(mismatches, `${label}, data seed ${SEED + n * 31 + s}\n${kernelSource(c.text)}`).toEqual([])
        })
        expect(ran).toBeGreaterThan(0)
      })
    }
  })
}

describe('the corpus reaches every GEMM form', () => {
  // After the modules' tests (vitest runs a file's tests in order).
  it('bound calls packed forms of their constants, which the calls after them read', () => {
    expect(coverage.boundForms).toBeGreaterThan(100)
  })

  it('flattened, gathered, scaled by a constant or by sizes, divided, with an epilogue and masked by a triangle of C all occur', () => {
    const found = modules.flatMap((m) => m.compiled.flatMap((c) => (c.ok ? contractionsOf(c.compiled.ir.body) : [])))
    const count = (p: (s: Contraction) => boolean) => found.filter(p).length
    expect(count((s) => s.roles.layout === 'flattened')).toBeGreaterThan(0)
    expect(count((s) => s.roles.layout === 'gathered')).toBeGreaterThan(0)
    expect(count((s) => s.roles.alpha?.kind === 'const')).toBeGreaterThan(0)
    expect(count((s) => s.roles.alpha !== undefined && s.roles.alpha.kind !== 'const')).toBeGreaterThan(0)
    expect(count((s) => s.roles.scaleA?.divides === true || s.roles.scaleB?.divides === true)).toBeGreaterThan(0)
    expect(count((s) => (s.epilogue ?? 0) > 0)).toBeGreaterThan(0)
    expect(count((s) => s.roles.domain !== undefined)).toBeGreaterThan(0)
  })

  it('chains of three and four factors: contraction paths chosen per call, some with steps their candidates share', () => {
    const choices = modules.flatMap((m) => m.compiled.flatMap((c) => (c.ok ? c.compiled.ir.choices ?? [] : [])))
    const paths = choices.filter((c) => /_path\d*$/.test(c.name))
    expect(paths.length).toBeGreaterThan(3)
    expect(paths.filter((c) => (c.shared ?? []).length > 0).length).toBeGreaterThan(0)
  })
})

function contractionsOf(body: readonly Stmt[]): Contraction[] {
  return body.flatMap((s) =>
    s.kind === 'contraction' ? [s] : s.kind === 'loop' || s.kind === 'if' || s.kind === 'block' ? contractionsOf(s.body) : [])
}

const hasContraction = (body: readonly Stmt[]): boolean => contractionsOf(body).length > 0
