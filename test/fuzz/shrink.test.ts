/**
 * The shrinker on a stand-in failure (any kernel using `exp` on a size of at least 3): it keeps only what the
 * failure needs, every step a kernel the checker accepts, and prints it as a regression entry that reads back.
 */
import { expect, test } from 'vitest'
import { KernelDiagnostic } from '../../plugin/diagnostics.ts'
import { findKernelSites } from '../../plugin/find/annotations.ts'
import { checkSpec } from '../../plugin/spec/check.ts'
import { parseSpec } from '../../plugin/spec/parser.ts'
import { generateKernels } from './generate.ts'
import { kernelSize, kernelSource, textOf, type GenKernel } from './model.ts'
import { dedent, printRegression } from './regression.ts'
import { shrink, type ShrinkState } from './shrink.ts'

function checks(k: GenKernel): boolean {
  const site = findKernelSites('/virtual/shrink.ts', kernelSource(textOf(k)))[0]
  try {
    checkSpec(parseSpec(site.specText, site.specStart, site.file), site)
    return true
  } catch (e) {
    if (e instanceof KernelDiagnostic) return false
    throw e
  }
}

const fails = (s: ShrinkState) => checks(s.kernel) && textOf(s.kernel).spec.includes('exp(') && [...s.sizes.values()].some((v) => v >= 3)

test('a failing kernel shrinks to what the failure needs, and prints as a regression entry', async () => {
  const start = generateKernels(99, 400).find((k) => k.stmts.length >= 3 && textOf(k).spec.includes('exp('))!
  const sizes = new Map(start.params.filter((p) => /^[A-Z]/.test(p)).map((p) => [p, 17]))
  const initial = { kernel: start, sizes }
  expect(fails(initial)).toBe(true)
  let rounds = 0
  const shrunk = await shrink(initial, async (candidates) => {
    rounds++
    return new Set(candidates.flatMap((c, n) => (fails(c) ? [n] : [])))
  })
  expect(rounds).toBeGreaterThan(1)
  expect(fails(shrunk)).toBe(true)
  expect(shrunk.kernel.stmts).toHaveLength(1)
  expect(kernelSize(shrunk.kernel)).toBeLessThan(kernelSize(start) / 2)
  expect([...shrunk.sizes.values()].sort()).toContain(3)
  expect(Math.max(...shrunk.sizes.values())).toBe(3)

  const entry = printRegression({
    title: 'stand-in', spec: textOf(shrunk.kernel).spec, params: shrunk.kernel.params, sizes: Object.fromEntries(shrunk.sizes), dataSeed: 1,
  })
  const spec = /spec: `([\s\S]*?)`/.exec(entry)![1]
  expect(dedent(spec)).toBe(textOf(shrunk.kernel).spec)
  expect(entry).toContain(`params: ${JSON.stringify(shrunk.kernel.params).replace(/","/g, '", "')}`)
})
