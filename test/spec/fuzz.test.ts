// Broken specs must always end in a KernelDiagnostic pointing into the spec, never in another exception.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { expect, test } from 'vitest'
import { KernelDiagnostic } from '../../plugin/diagnostics.ts'
import type { KernelSite } from '../../plugin/find/site.ts'
import { varsOf } from '../../plugin/ir/affine.ts'
import type { Expr } from '../../plugin/ir/nodes.ts'
import { SPEC_CODES } from '../../plugin/messages.ts'
import { checkSpec } from '../../plugin/spec/check.ts'
import type { KernelSpec } from '../../plugin/spec/checked.ts'
import { parseSpec } from '../../plugin/spec/parser.ts'
import { sitesIn } from './sites.ts'

const sites = ['linalg', 'nn'].flatMap((name) => {
  const file = fileURLToPath(new URL(`../../examples/kernels/${name}.ts`, import.meta.url))
  return sitesIn(file, readFileSync(file, 'utf8'))
})

// Pieces of the language, so mutations reach the checker and not only the lexer.
const VOCABULARY = [
  '[', ']', '(', ')', ',', ':', ';', '\n', ' ', '?', '!', '-', '+', '*', '/', '%', '<', '<=', '==', '!=', '&&', '||',
  '=', '+=', '+=!', '*=', 'max=', 'min=!', 'where', 'let', 'f32', 'f64', 'i32', 'exp(', 'max(', 'pow(', 'foo(',
  'i', 'j', 'k', 'r', 'N', 'M', 'K', 'A', 'x', 'Y', 'C[i, j]', 'A[i, k]', 'x[i]', '0', '1', '3', '0.5', '1e-5',
  '2147483648', '99999999999999999999', '2*', '//', '@', '.', '&', '\t',
]

function mulberry32(seed: number): () => number {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

function mutate(text: string, random: () => number): string {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]
  let out = text
  const edits = 1 + Math.floor(random() * 3)
  for (let n = 0; n < edits; n++) {
    const at = Math.floor(random() * (out.length + 1))
    const len = Math.floor(random() * 6)
    const kind = random()
    if (kind < 0.35) out = out.slice(0, at) + out.slice(at + len)
    else if (kind < 0.8) out = out.slice(0, at) + pick(VOCABULARY) + out.slice(at)
    else out = out.slice(0, at) + pick(VOCABULARY) + out.slice(at + len)
  }
  return out
}

function garbage(random: () => number): string {
  const length = Math.floor(random() * 40)
  let out = ''
  for (let n = 0; n < length; n++) {
    const printable = String.fromCharCode(32 + Math.floor(random() * 95))
    out += random() < 0.7 ? VOCABULARY[Math.floor(random() * VOCABULARY.length)] : printable
  }
  return out
}

/** What ir/build relies on without checking: every name bound, every type the statement's, every index ranged. */
function expectWellFormed(spec: KernelSpec) {
  const sizes = new Set(spec.sizes)
  const tensors = new Map(spec.tensors.map((t) => [t.name, t]))
  for (const p of spec.params) {
    expect(p.kind === 'size' ? sizes.has(p.name) : tensors.get(p.name)?.role !== 'temp').toBe(true)
  }
  for (const s of spec.statements) {
    const names = s.indices.map((i) => i.name)
    expect(new Set(names).size).toBe(names.length)
    expect(names).toEqual([...s.target.indices, ...s.reduced])
    expect(s.target.indices.length).toBe(tensors.get(s.target.tensor)?.shape.length)
    const bound = new Set([...names, ...sizes])
    for (const i of s.indices) for (const v of varsOf(i.extent)) expect(sizes).toContain(v)
    for (const c of s.where) for (const v of varsOf(c.expr)) expect(bound).toContain(v)
    const visit = (e: Expr): void => {
      if (e.kind === 'load') {
        expect(e.type).toBe(s.dtype)
        expect(e.access.index.length).toBe(tensors.get(e.access.tensor)?.shape.length)
        for (const v of e.access.index.flatMap(varsOf)) expect(bound).toContain(v)
      } else if (e.kind === 'var') expect(bound).toContain(e.name)
      else if (e.kind === 'unary' || e.kind === 'call') visit(e.arg)
      else if (e.kind === 'binary') [e.a, e.b].forEach(visit)
      else if (e.kind === 'select') [e.cond, e.a, e.b].forEach(visit)
    }
    visit(s.value)
    expect(s.value.type).toBe(s.dtype)
  }
}

/** 'ok', or the diagnostic's code; anything else than a well-formed KernelDiagnostic fails the test. */
function outcome(site: KernelSite, specText: string): string {
  try {
    expectWellFormed(checkSpec(parseSpec(specText, site.specStart, site.file), { ...site, specText }))
    return 'ok'
  } catch (e) {
    if (!(e instanceof KernelDiagnostic)) {
      throw new Error(`non-diagnostic ${String(e)} for spec:\n${specText}`, { cause: e })
    }
    expect(SPEC_CODES as readonly string[]).toContain(e.code)
    expect(e.span?.file).toBe(site.file)
    expect(e.span?.start).toBeGreaterThanOrEqual(site.specStart)
    // Parameter diagnostics point at the signature, after the comment.
    if (!e.code.startsWith('spec_param')) expect(e.span?.end).toBeLessThanOrEqual(site.specStart + specText.length)
    return e.code
  }
}

test('prefixes, mutations and garbage of every example spec end in a KernelDiagnostic', () => {
  const random = mulberry32(20240611)
  const seen = new Map<string, number>()
  const record = (result: string) => seen.set(result, (seen.get(result) ?? 0) + 1)
  let cases = 0
  for (const site of sites) {
    const text = site.specText
    for (let cut = 0; cut < text.length; cut += 2, cases++) record(outcome(site, text.slice(0, cut)))
    for (let n = 0; n < 60; n++, cases++) record(outcome(site, mutate(text, random)))
    for (let n = 0; n < 15; n++, cases++) record(outcome(site, garbage(random)))
  }
  expect(cases).toBeGreaterThan(2000)
  // The mutations must reach past the parser: many distinct checker codes, and some specs that still check.
  expect(seen.get('ok') ?? 0).toBeGreaterThan(0)
  expect(seen.size).toBeGreaterThanOrEqual(15)
})
