/**
 * The oracle checked: the reference interpreter and the naive evaluator (the spec's syntax tree, looped over
 * directly) agree on thousands of generated kernels and shapes; and the differential check really fails when any
 * system is wrong: a mutated interpreter input, generated JS or native function is caught.
 */
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it, test } from 'vitest'
import { findKernelSites } from '../../plugin/find/annotations.ts'
import { buildKernel } from '../../plugin/spec/build-ir.ts'
import { interpret } from '../../plugin/ir/interp.ts'
import type { Kernel, Stmt } from '../../plugin/ir/nodes.ts'
import { resolveOptions } from '../../plugin/options.ts'
import { checkSpec } from '../../plugin/spec/check.ts'
import { parseSpec } from '../../plugin/spec/parser.ts'
import { maxRelErr, rng, tolerance, type TensorArray } from '../support/random.ts'
import { copyArgs, makeArgs } from '../support/kernel-args.ts'
import { buildAll, checkCase, compileAll, loadFuzzAddon, randomSizes, type FuzzAddon, type FuzzCompiled } from './differential.ts'
import { generateKernels } from './generate.ts'
import { kernelSource, textOf } from './model.ts'
import { naiveEvaluate } from './naive.ts'

const root = path.resolve(fileURLToPath(import.meta.url), '../../..')

test('the interpreter and the naive evaluator agree on 1,200 generated kernels, two shapes each', () => {
  let cases = 0
  for (const k of generateKernels(777, 1200, 'or')) {
    const code = kernelSource(textOf(k))
    const site = findKernelSites('/virtual/oracle.ts', code)[0]
    const ast = parseSpec(site.specText, site.specStart, site.file)
    const reference = buildKernel(checkSpec(ast, site))
    for (let s = 0; s < 2; s++) {
      const sizes = randomSizes(reference, cases + 1, 3_000)
      if (!sizes) continue
      const args = makeArgs(abiLike(reference), sizes, rng(cases))
      const viaIr = copyArgs(args)
      const viaAst = copyArgs(args)
      interpret(reference, viaIr)
      naiveEvaluate(ast, new Map(reference.params.map((p, n) => [p.name, viaAst[n] as TensorArray | number])))
      const tol = tolerance(reference.tensors[0].dtype, 4096)
      reference.params.forEach((p, n) => {
        if (p.kind === 'tensor') expect(maxRelErr(viaIr[n] as TensorArray, viaAst[n] as TensorArray), `${p.name}\n${code}`).toBeLessThanOrEqual(tol)
      })
      cases++
    }
  }
  expect(cases).toBeGreaterThan(2000)
})

describe('a wrong system is caught', async () => {
  const opts = resolveOptions({ root, cacheDir: 'node_modules/.cache/polykern-test' })
  const texts = generateKernels(4242, 6, 'mut').map(textOf)
  const compiled = compileAll(texts, path.join(root, 'test/.out/fuzz/mutants.ts'), opts).filter((c): c is Extract<FuzzCompiled, { ok: true }> => c.ok)
  const addon = loadFuzzAddon(await buildAll(compiled, 'mutants.ts', opts.cacheDir))

  const caseOf = (c: (typeof compiled)[number]) => randomSizes(c.reference, 3, 5_000)!
  /** Adds 0.5 to the last element of every output after `f` ran. */
  const perturbed = (c: (typeof compiled)[number], f: (...a: unknown[]) => unknown) => (...a: unknown[]) => {
    f(...a)
    c.compiled.abi.params.forEach((p, n) => {
      const out = a[n] as TensorArray
      if (p.kind === 'tensor' && p.role !== 'in' && out.length > 0) out[out.length - 1] += 7
    })
  }
  const nonEmpty = (c: (typeof compiled)[number]) => {
    const sizes = caseOf(c)
    return c.compiled.abi.params.every((p) => p.kind === 'size' || p.role === 'in' || p.shape.every((d) => (typeof d === 'number' ? d : sizes.get(d)!) > 0))
  }

  it('every kernel agrees when nothing is wrong', () => {
    for (const c of compiled) expect(checkCase(c, caseOf(c), 1, addon)).toEqual([])
  })

  it('a native function that is off by one element is caught at every ISA and thread count', () => {
    const c = compiled.find(nonEmpty)!
    const wrong = Object.create(addon, { [c.compiled.abi.name]: { value: perturbed(c, addon[c.compiled.abi.name]) } }) as FuzzAddon
    const systems = checkCase(c, caseOf(c), 1, wrong).map((m) => m.system)
    expect(systems.length).toBeGreaterThanOrEqual(2)
    expect(systems.every((s) => s.startsWith('native '))).toBe(true)
  })

  it('a native function wrong only with bound constants, or writing into them, is caught', () => {
    const c = compiled.find((k) => nonEmpty(k) && k.compiled.abi.params.some((p) => p.kind === 'tensor' && p.role === 'in'))!
    const abi = c.compiled.abi
    const fn = addon[abi.name]
    const shared = (x: unknown) => ArrayBuffer.isView(x) && x.buffer instanceof SharedArrayBuffer
    const variant = (f: (...a: unknown[]) => unknown) =>
      Object.create(addon, { [abi.name]: { value: f } }) as FuzzAddon
    const wrongWhenBound = variant((...a) => (a.some(shared) ? perturbed(c, fn)(...a) : fn(...a)))
    const systems = checkCase(c, caseOf(c), 1, wrongWhenBound).map((m) => m.system)
    expect(systems.length).toBeGreaterThanOrEqual(3)
    expect(systems.every((s) => s.includes('bound'))).toBe(true)
    const writesConstants = variant((...a) => {
      fn(...a)
      abi.params.forEach((p, n) => {
        const x = a[n] as TensorArray
        if (p.kind === 'tensor' && p.role === 'in' && shared(x) && x.length > 0) x[0] += 1
      })
    })
    const details = checkCase(c, caseOf(c), 1, writesConstants).map((m) => m.detail)
    expect(details.some((d) => /the bound constant '.*' changed/.test(d))).toBe(true)
  })

  it('wrong generated JS is caught', () => {
    const c = compiled.find(nonEmpty)!
    expect(checkCase({ ...c, js: perturbed(c, c.js) }, caseOf(c), 1).map((m) => m.system)).toEqual(['generated JS'])
  })

  it('a reference that computes something else disagrees with the naive evaluator', () => {
    const mutants = compiled.map((c) => ({ c, mutated: { ...c.reference, body: c.reference.body.map(mutateStores) } }))
    // A kernel whose result the mutation changes on this case (an empty domain would hide it).
    const changed = mutants.find(({ c, mutated }) => {
      const args = makeArgs(c.compiled.abi, caseOf(c), rng(1))
      const [a, b] = [copyArgs(args), copyArgs(args)]
      interpret(c.reference, a)
      interpret(mutated, b)
      return a.some((x, n) => ArrayBuffer.isView(x) && maxRelErr(x as TensorArray, b[n] as TensorArray) > 0)
    })!
    const systems = checkCase({ ...changed.c, reference: changed.mutated }, caseOf(changed.c), 1).map((m) => m.system)
    expect(systems).toContain('naive evaluator')
  })
})

/** Every store becomes `= value + 1`: a reference that computes something else. */
function mutateStores(s: Stmt): Stmt {
  if (s.kind === 'store') return { ...s, op: '=', value: { kind: 'binary', op: 'add', a: s.value, b: { kind: 'const', value: 1, type: s.value.type }, type: s.value.type } }
  if (s.kind === 'block' || s.kind === 'loop' || s.kind === 'if') return { ...s, body: s.body.map(mutateStores) }
  return s
}

/** Enough of an ABI for makeArgs: the kernel's parameters with their shapes. */
function abiLike(k: Kernel) {
  const tensors = new Map(k.tensors.map((t) => [t.name, t]))
  return {
    name: k.name,
    loc: '',
    returns: -1,
    params: k.params.map((p) => {
      if (p.kind === 'size') return p
      const t = tensors.get(p.name)!
      const shape = t.shape.map((d) => (d.terms.length === 0 ? d.constant : d.terms[0].v))
      return { kind: 'tensor' as const, name: p.name, dtype: t.dtype, shape, role: 'inout' as const }
    }),
  }
}

