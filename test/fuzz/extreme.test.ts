/**
 * The CI run of the extreme-value fuzz (extreme.ts): 80 random element-wise kernels, one addon holding every ISA,
 * each kernel on four shapes around the lane counts (full vectors, masked tails, size 1) with fresh extreme data
 * each time. The native addon must equal the JS fallback bit for bit (transcendentals: within MAX_ULPS), as must
 * the interpreters and the naive evaluator. The last test prints the counts for the README's hardening table.
 */
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { resolveOptions } from '../../plugin/options.ts'
import { rng } from '../support/random.ts'
import { buildAll, compileAll, describeError, loadFuzzAddon } from './differential.ts'
import { checkExtremeCase, generateExtremeKernels, newTally } from './extreme.ts'
import { kernelSource, textOf } from './model.ts'

const SEED = 20261302
const KERNELS = 80
/** [N, M]: M is the vector dimension (16 f32 lanes on AVX-512, 8 on AVX2, half that in f64). */
const SHAPES = [[1, 1], [3, 17], [2, 33], [1, 100], [2, 8], [1, 15], [3, 7], [1, 64]] as const
const SHAPES_PER_KERNEL = 4

const root = path.resolve(fileURLToPath(import.meta.url), '../../..')
const opts = resolveOptions({ root, cacheDir: 'node_modules/.cache/polykern-test' })
const texts = generateExtremeKernels(SEED, KERNELS).map(textOf)
const compiled = compileAll(texts, path.join(root, 'test/.out/fuzz/extreme.ts'), opts)
const addon = loadFuzzAddon(await buildAll(compiled, `extreme-${SEED}.ts`, opts.cacheDir))
const tally = newTally()

describe(`extreme-value fuzz, seed ${SEED}: native equals the JS fallback`, () => {
  for (const [n, c] of compiled.entries()) {
    it(`${c.text.name} agrees on extreme values`, () => {
      if (!c.ok) throw new Error(`the pipeline refused a well-formed kernel: ${describeError(c.error)}\n${kernelSource(c.text)}`)
      const next = rng(SEED + n)
      for (let s = 0; s < SHAPES_PER_KERNEL; s++) {
        const [N, M] = SHAPES[(n + s * 3) % SHAPES.length]
        const mismatches = checkExtremeCase(c, new Map([['N', N], ['M', M]]), next, tally, addon)
        expect(mismatches, `N=${N} M=${M}\n${kernelSource(c.text)}`).toEqual([])
      }
    })
  }

  afterAll(() => {
    const worst = [...tally.worstUlps].map(([k, u]) => `${k} ${u}`).join(', ')
    console.log(
      `extreme-value fuzz: ${KERNELS} kernels, ${tally.cases} cases, ${tally.nativeRuns} native runs, ` +
        `${tally.comparisons} comparisons (${tally.elements} elements), ${tally.mismatches} mismatches; worst ulps: ${worst}`,
    )
  })
})
