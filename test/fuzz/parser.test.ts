/**
 * Parser fuzzing: over 10,000 mutated and random spec texts (token and character edits of generated and example
 * specs, splices, non-ASCII and control characters, huge numbers and names, deep nesting), each ending in a
 * KernelDiagnostic with a known code and a location inside the spec (the signature for parameter codes), or in a
 * successful check; never another exception or a long stall. Part of them go through ts-morph's finder as whole
 * modules, and the ones that check go on through every pass to JS and C, whose JS must parse.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, test } from 'vitest'
import { KernelDiagnostic } from '../../plugin/diagnostics.ts'
import { emitAddonSource } from '../../plugin/emit/napi.ts'
import { findKernelSites } from '../../plugin/find/annotations.ts'
import type { KernelSite } from '../../plugin/find/site.ts'
import { resolveOptions } from '../../plugin/options.ts'
import { FIND_CODES, SPEC_CODES } from '../../plugin/messages.ts'
import { compileKernel } from '../../plugin/pipeline.ts'
import type { SpecAst } from '../../plugin/spec/ast.ts'
import { checkSpec } from '../../plugin/spec/check.ts'
import { parseSpec } from '../../plugin/spec/parser.ts'
import { ISAS } from '../../plugin/targets/index.ts'
import { buildKernel } from '../../plugin/spec/build-ir.ts'
import { checkCase, randomSizes } from './differential.ts'
import { random, generateKernels, type Random } from './generate.ts'
import { kernelSource, specText } from './model.ts'

const root = path.resolve(fileURLToPath(import.meta.url), '../../..')
const FILE = path.join(root, 'test/.out/fuzz/parser-mutants.ts')
const MUTANTS = 12_000
/** Mutants that check go on through the passes and both emitters, up to this many. */
const COMPILED = 400
const SLOW_MS = 1_000

const VOCABULARY = [
  '[', ']', '(', ')', ',', ':', ';', '\n', ' ', '?', '!', '-', '+', '*', '/', '%', '<', '<=', '>', '>=', '==', '!=',
  '&&', '||', '=', '+=', '+=!', '*=', '*=!', 'max=', 'min=!', '-=', 'where', 'let', 'f32', 'f64', 'i32', 'exp(',
  'max(', 'pow(', 'sigmoid(', 'foo(', 'i', 'j', 'k', 'r', 'N', 'M', 'K', 'A', 'x', 'Y', 'T', 'C[i, j]', 'A[i, k]',
  'x[i]', '[]', '0', '1', '3', '0.5', '1e-5', '2.', '2147483648', '-2147483648', '99999999999999999999', '1e309',
  '2*', '//', '@', '.', '&', '\t', '\r\n', '*/', '/*', '`', '${', '"', "'", '\\', '$(', 'é', 'ñ', '𝛼', '\u200b',
  '\u2028', '\u0000', '\u00a0', '\ufeff', '🙂', 'int', 'return', '__proto__', 'constructor',
]

/** Spec texts to mutate: generated kernels (every construct of the language) and the examples. */
function corpus(): string[] {
  const generated = generateKernels(1357, 300, 'pz').map(specText)
  const examples = ['linalg', 'nn'].flatMap((name) => {
    const file = path.join(root, `examples/kernels/${name}.ts`)
    return findKernelSites(file, readFileSync(file, 'utf8')).map((s) => s.specText)
  })
  return [...generated, ...examples]
}

function mutate(text: string, r: Random, texts: readonly string[]): string {
  let out = text
  const edits = 1 + r.weighted([8, 3, 1, 0.5])
  for (let n = 0; n < edits; n++) {
    const at = r.int(0, out.length)
    const len = r.int(0, 6)
    switch (r.weighted([3, 4, 3, 1, 1, 1, 1, 0.5, 8])) {
      case 0: out = out.slice(0, at) + out.slice(at + len); break
      case 1: out = out.slice(0, at) + r.pick(VOCABULARY) + out.slice(at); break
      case 2: out = out.slice(0, at) + r.pick(VOCABULARY) + out.slice(at + len); break
      case 3: { // a line dropped, doubled or swapped with the next
        const lines = out.split('\n')
        const l = r.int(0, lines.length - 1)
        const kind = r.int(0, 2)
        if (kind === 0) lines.splice(l, 1)
        else if (kind === 1) lines.splice(l, 0, lines[l])
        else if (l + 1 < lines.length) [lines[l], lines[l + 1]] = [lines[l + 1], lines[l]]
        out = lines.join('\n')
        break
      }
      case 4: // spliced with another spec
        out = out.slice(0, at) + r.pick(texts).slice(r.int(0, 40))
        break
      case 5: // a number or name replaced by an extreme one
        out = out.replace(/\b\d+(\.\d*)?\b|\b[A-Za-z_]\w*\b/, r.pick(['9'.repeat(400), 'a'.repeat(5000), '0x1F', '1e-400', '00', '1_0', 'NaN', 'Infinity']))
        break
      case 6: // any character at all
        out = out.slice(0, at) + String.fromCodePoint(r.chance(0.5) ? r.int(0, 0x7f) : r.int(0x80, 0x2ffff)) + out.slice(at)
        break
      case 8: // a token replaced by another of its kind: keeps the syntax, so the checker sees it
        out = sameKind(out, r)
        break
      default: { // deep nesting around a read
        const depth = r.pick([50, 199, 201, 2_000, 20_000])
        out = out.replace(/[A-Za-z_]\w*\[[^\]]*\]/, (m) => r.pick([`${'('.repeat(depth)}${m}${')'.repeat(depth)}`, `${'-'.repeat(depth)}${m}`, `${'exp('.repeat(depth)}${m}${')'.repeat(depth)}`, Array(depth).fill(m).join(' + ')]))
      }
    }
  }
  return out
}

const TOKEN = /[A-Za-z_]\w*|\d+(?:\.\d*)?(?:[eE][-+]?\d+)?|max=!?|min=!?|[+*]?=!?|[<>=!]=|&&|\|\||\S/g
const KINDS: readonly RegExp[] = [/^[A-Za-z_]/, /^\d/, /^(?:max|min|[+*])?=!?$/, /^(?:[<>=!]=|[<>])$/, /^[-+*\/%]$/, /^(?:&&|\|\|)$/]
const EXTRA: readonly string[] = ['f32', 'f64', 'i32', 'exp', 'max', 'pow', 'abs', '0', '1', '2', '-1', '3.5', '+=!', '=', 'max=', '*=!']

function sameKind(text: string, r: Random): string {
  const tokens = [...text.matchAll(TOKEN)]
  if (tokens.length === 0) return text
  const t = r.pick(tokens)
  const kind = KINDS.find((k) => k.test(t[0]))
  if (!kind) return text
  const pool = [...tokens.map((m) => m[0]), ...EXTRA].filter((x) => kind.test(x) && x !== t[0])
  if (pool.length === 0) return text
  return text.slice(0, t.index) + r.pick(pool) + text.slice(t.index + t[0].length)
}

function garbage(r: Random): string {
  let out = ''
  for (let n = r.int(0, 60); n > 0; n--) out += r.chance(0.6) ? r.pick(VOCABULARY) : String.fromCodePoint(r.int(0, 0x24f))
  return out
}

/** The signature's parameters: the spec's own (so mutants reach the checker), or the original kernel's. */
function paramsOf(ast: SpecAst): string[] {
  const sizes = ast.decls.flatMap((d) => d.dims.flatMap((x) => (x.kind === 'size' ? [x.name] : [])))
  return [...new Set([...ast.decls.filter((d) => !d.local).map((d) => d.name.name), ...sizes])]
}

interface Outcome {
  readonly result: string
  /** The site, when the spec checked: it goes on through the passes. */
  readonly site?: KernelSite
  readonly code?: string
}

/** 'ok' or the diagnostic's code; anything but a well-placed KernelDiagnostic fails the test. */
function outcome(spec: string, r: Random): Outcome {
  const base = `/* @kernel\n${spec}\n*/\nexport function k(x) {}\n`
  const specStart = base.indexOf(spec)
  const ownParams = r.chance(0.7)
  try {
    const ast = parseSpec(spec, specStart, FILE)
    const names = ownParams ? paramsOf(ast) : ['A', 'B', 'C', 'N', 'M', 'K']
    const code = `/* @kernel\n${spec}\n*/\nexport function k(${names.join(', ')}) {}\n`
    const signature = code.indexOf('(', specStart + spec.length) + 1
    let at = signature
    const site: KernelSite = {
      file: FILE,
      name: 'k',
      specText: spec,
      specStart,
      params: names.map((name) => {
        const span = { file: FILE, start: at, end: at + name.length }
        at += name.length + 2
        return { name, span }
      }),
      commentSpan: { file: FILE, start: 0, end: specStart + spec.length + 3 },
      nameSpan: { file: FILE, start: signature - 2, end: signature - 1 },
      bodySpan: { file: FILE, start: code.length - 3, end: code.length - 1 },
      form: 'function',
    }
    checkSpec(ast, site)
    return { result: 'ok', site, code }
  } catch (e) {
    expectDiagnostic(e, spec, specStart, SPEC_CODES)
    return { result: (e as KernelDiagnostic).code }
  }
}

/** The mutant as a whole module through ts-morph's finder: `*​/` and quotes in it may end the comment early. */
function moduleOutcome(spec: string): string {
  const code = `// a module\n/* @kernel\n${spec}\n*/\nexport function k(A, B, N) {}\nexport const later = 1\n`
  try {
    const sites = findKernelSites(FILE, code)
    for (const site of sites) checkSpec(parseSpec(site.specText, site.specStart, site.file), site)
    return sites.length === 0 ? 'no kernel' : 'ok'
  } catch (e) {
    expectDiagnostic(e, code, 0, [...SPEC_CODES, ...FIND_CODES])
    return (e as KernelDiagnostic).code
  }
}

function expectDiagnostic(e: unknown, text: string, start: number, codes: readonly string[]) {
  if (!(e instanceof KernelDiagnostic)) {
    throw new Error(`not a diagnostic: ${String(e)}\nfor spec:\n${text.slice(0, 2000)}`, { cause: e })
  }
  expect(codes, e.message).toContain(e.code)
  expect(e.span?.file).toBe(FILE)
  expect(e.span!.start).toBeGreaterThanOrEqual(start)
  expect(e.span!.end).toBeGreaterThanOrEqual(e.span!.start)
  // Parameter diagnostics point at the signature, after the comment; the rest inside the spec.
  if (!e.code.startsWith('spec_param') && !e.code.startsWith('find_')) expect(e.span!.end).toBeLessThanOrEqual(start + text.length)
}

test(`${MUTANTS} mutated and random specs end in a located diagnostic or a checked kernel`, () => {
  const r = random(20260606)
  const texts = corpus()
  const seen = new Map<string, number>()
  const checked: Outcome[] = []
  let slowest = 0
  for (let n = 0; n < MUTANTS; n++) {
    const spec = n % 10 === 9 ? garbage(r) : mutate(r.pick(texts), r, texts)
    const started = performance.now()
    const result = n % 5 === 4 ? moduleOutcome(spec) : outcome(spec, r)
    slowest = Math.max(slowest, performance.now() - started)
    const code = typeof result === 'string' ? result : result.result
    seen.set(code, (seen.get(code) ?? 0) + 1)
    if (typeof result !== 'string' && result.site && checked.length < COMPILED) checked.push(result)
  }
  console.log(`parser fuzz: ${MUTANTS} specs, slowest ${slowest.toFixed(0)} ms`, Object.fromEntries([...seen].sort((a, b) => b[1] - a[1])))
  expect(slowest, 'slowest single spec (ms)').toBeLessThan(SLOW_MS)
  // The mutants reach past the parser: most checker codes, and many that still check.
  expect(seen.get('ok') ?? 0).toBeGreaterThan(500)
  expect(SPEC_CODES.filter((c) => seen.has(c)).length).toBeGreaterThanOrEqual(20)
  expect(checked.length).toBe(COMPILED)

  // Mutants that check compile through every pass; their C is emitted for every ISA, and their JS loops compute
  // what the interpreter does on small shapes.
  const opts = resolveOptions({ root, native: false })
  for (const { site, code } of checked) {
    const compiled = compileKernel(site!, code!, opts)
    const reference = buildKernel(checkSpec(parseSpec(site!.specText, site!.specStart, FILE), site!))
    const c = { ok: true as const, text: { name: 'k', spec: site!.specText, params: [] }, compiled, reference, ast: parseSpec(site!.specText, site!.specStart, FILE), js: new Function(`return ${compiled.js}`)() as (...a: unknown[]) => void }
    expect(emitAddonSource([{ kernel: compiled.ir, abi: compiled.abi, symbol: 'kc_0' }], { moduleId: 'mutant.ts', isas: ISAS })[0].text).toContain('NAPI_MODULE')
    const sizes = randomSizes(reference, 1, 5_000)
    if (!sizes) continue
    const wrong = checkCase(c, sizes, 1).filter((m) => m.system !== 'naive evaluator' || !m.detail.includes('naive evaluator:'))
    expect(wrong, site!.specText).toEqual([])
  }
})

test('the deepest expressions accepted compile; one level deeper is a spec_syntax diagnostic, not a stack overflow', () => {
  const opts = resolveOptions({ root, native: false })
  // Each pair: the deepest form accepted (tree height, or parenthesis nesting, exactly 200 with the read `x[i]` and
  // its index), and one level more.
  const read = 'x[i]'
  const parens = (n: number) => `${'('.repeat(n)}${read}${')'.repeat(n)}`
  const minus = (n: number) => `${'-'.repeat(n)}${read}`
  const calls = (n: number) => `${'tanh('.repeat(n)}${read}${')'.repeat(n)}`
  const sum = (n: number) => Array(n).fill(read).join(' + ')
  const index = (n: number) => `x[${Array(n).fill('i').join(' + ')} - ${n - 1}*i]`
  const pairs = [[parens, 198], [minus, 198], [calls, 198], [sum, 199], [index, 198]] as const
  const siteOf = (e: string) => {
    const code = kernelSource({ name: 'k', spec: `x: f32[N]\ny: f32[N]\ny[i] = ${e}`, params: ['x', 'y', 'N'] })
    return { code, site: findKernelSites(FILE, code)[0] }
  }
  for (const [shape, deepest] of pairs) {
    const ok = siteOf(shape(deepest))
    expect(() => new Function(`return ${compileKernel(ok.site, ok.code, opts).js}`)).not.toThrow()
    for (const e of [shape(deepest + 1), shape(50_000)]) {
      const { site } = siteOf(e)
      expect(() => parseSpec(site.specText, site.specStart, FILE)).toThrow(expect.objectContaining({ code: 'spec_syntax' }))
    }
  }
})
