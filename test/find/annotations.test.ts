import fs from 'node:fs'
import { describe, expect, test } from 'vitest'
import { KernelDiagnostic, lineColumn } from '../../plugin/diagnostics.ts'
import { findKernelSites } from '../../plugin/find/annotations.ts'
import type { KernelSite } from '../../plugin/find/site.ts'

const example = (name: string) => fs.readFileSync(new URL(`../../examples/kernels/${name}`, import.meta.url), 'utf8')
const slice = (code: string, s: { start: number; end: number }) => code.slice(s.start, s.end)

/** Every structural promise of a site, checked by slicing the file (independent of how the finder got there). */
function expectConsistent(code: string, site: KernelSite): void {
  expect(slice(code, site.nameSpan)).toBe(site.name)
  const comment = slice(code, site.commentSpan)
  expect(comment.startsWith('/*') && comment.endsWith('*/')).toBe(true)
  expect(code.slice(site.specStart - '@kernel'.length, site.specStart)).toBe('@kernel')
  expect(site.specStart + site.specText.length).toBe(site.commentSpan.end - 2)
  for (let i = 0; i < site.specText.length; i++) {
    const original = code[site.specStart + i]
    if (site.specText[i] !== original) expect([original, site.specText[i]]).toEqual(['*', ' '])
  }
  const body = slice(code, site.bodySpan)
  expect(body[0]).toBe('{')
  expect(body.at(-1)).toBe('}')
  for (const p of site.params) expect(slice(code, p.span).startsWith(p.name)).toBe(true)
  expect(site.commentSpan.end).toBeLessThan(site.nameSpan.start)
  expect(site.nameSpan.end).toBeLessThan(site.bodySpan.start)
}

function diagnostic(file: string, code: string): KernelDiagnostic {
  try {
    findKernelSites(file, code)
  } catch (e) {
    expect(e).toBeInstanceOf(KernelDiagnostic)
    return e as KernelDiagnostic
  }
  throw new Error('expected a diagnostic')
}

describe('the example kernels', () => {
  for (const file of ['linalg.ts', 'nn.ts']) {
    test(`${file}: one site per /* @kernel comment, in order, with consistent spans`, () => {
      const code = example(file)
      const sites = findKernelSites(`examples/kernels/${file}`, code)
      const declared = [...code.matchAll(/\/\* @kernel[\s\S]*?\*\/\s*export (?:function|const) (\w+)/g)].map((m) => m[1])
      expect(declared.length).toBeGreaterThanOrEqual(7)
      expect(sites.map((s) => s.name)).toEqual(declared)
      for (const site of sites) {
        expectConsistent(code, site)
        expect(site.file).toBe(`examples/kernels/${file}`)
        // Without gutters the spec text is the file text itself.
        expect(site.specText).toBe(code.slice(site.specStart, site.specStart + site.specText.length))
        const signature = new RegExp(`${site.name}\\s*=?\\s*\\(([^)]*)\\)`).exec(code.slice(site.nameSpan.start))!
        const params = signature[1].split(',').map((p) => p.trim().split(/\s*:\s*/))
        expect(site.params.map((p) => [p.name, p.typeText])).toEqual(params)
      }
    })
  }

  test('linalg.ts: forms and a spec text', () => {
    const sites = findKernelSites('linalg.ts', example('linalg.ts'))
    expect(sites.find((s) => s.name === 'outer')!.form).toBe('arrow')
    expect(sites.find((s) => s.name === 'matmul')!.form).toBe('function')
    expect(sites[0].specText.trim().split('\n').map((l) => l.trim())).toEqual([
      'A: f32[M, K]', 'B: f32[K, N]', 'C: f32[M, N]', 'C[i, j] +=! A[i, k] * B[k, j]',
    ])
  })
})

describe('function forms', () => {
  const code = [
    '/* @kernel x: f32[N] */',
    'function plain(x: Float32Array, N: number) { return x }',
    '/* @kernel y: f32[N] */',
    'export default function byDefault(y: Float32Array, N: number) { return y }',
    '/* @kernel z: f32[N] */',
    'const arrow = (z, N) => { return z }',
    '/* @kernel w: f32[N] */',
    'export const expr = function inner(w: Float32Array, N: number): Float32Array { return w }',
    '/* @kernel v: f32[N] */',
    'export let paren = ((v: Float32Array, N: number) => { return v })',
    'function notAKernel() {}',
  ].join('\n')

  test('every declaration form is found with its name and form', () => {
    const sites = findKernelSites('forms.ts', code)
    expect(sites.map((s) => [s.name, s.form])).toEqual([
      ['plain', 'function'],
      ['byDefault', 'function'],
      ['arrow', 'arrow'],
      ['expr', 'function-expression'],
      ['paren', 'arrow'],
    ])
    for (const site of sites) expectConsistent(code, site)
  })

  test('untyped parameters have no type text', () => {
    const arrow = findKernelSites('forms.ts', code).find((s) => s.name === 'arrow')!
    expect(arrow.params).toEqual([
      { name: 'z', span: expect.anything() },
      { name: 'N', span: expect.anything() },
    ])
  })

  test('a file without the tag, and a second file through the same parser, are independent', () => {
    expect(findKernelSites('none.ts', 'export const x = 1')).toEqual([])
    const one = findKernelSites('a.ts', '/* @kernel a: f32[N] */\nfunction a(a, N) {}')
    const two = findKernelSites('b.ts', '/* @kernel b: f32[N] */\nfunction b(b, N) {}')
    expect([one[0].name, one[0].file, two[0].name, two[0].file]).toEqual(['a', 'a.ts', 'b', 'b.ts'])
  })
})

describe('comment shapes', () => {
  test('JSDoc gutters are blanked and offsets preserved', () => {
    const code = [
      'import { x } from "y"',
      '',
      '/**',
      ' * Doubles a vector.',
      ' * @kernel',
      ' *   X: f32[N]',
      ' *   Y: f32[N]',
      ' *   Y[i] = X[i] * 2',
      ' */',
      'export function double(X: Float32Array, Y: Float32Array, N: number) { return Y }',
    ].join('\n')
    const [site] = findKernelSites('doc.ts', code)
    expectConsistent(code, site)
    expect(site.specText).not.toMatch(/^\s*\*/m)
    expect(site.specText.split('\n').map((l) => l.trim()).filter(Boolean)).toEqual(['X: f32[N]', 'Y: f32[N]', 'Y[i] = X[i] * 2'])
    const statement = site.specText.indexOf('Y[i] =')
    expect(code.slice(site.specStart + statement, site.specStart + statement + 6)).toBe('Y[i] =')
  })

  test('without a consistent gutter, a line starting with * is spec text (a product continued)', () => {
    const code = '/* @kernel\n   C[i] = A[i]\n     * B[i]\n*/\nfunction f(A, B, C, N) {}'
    const [site] = findKernelSites('mul.ts', code)
    expect(site.specText).toBe('\n   C[i] = A[i]\n     * B[i]\n')
  })

  test('mentions of the tag in prose, line comments and strings are not annotations', () => {
    const code = [
      '// see the @kernel docs',
      '/* the @kernel tag goes first */',
      'const s = "/* @kernel x */"',
      'const t = `@kernel ${s}`',
      '/* @kernels are not a tag */',
      'function f() {}',
    ].join('\n')
    expect(findKernelSites('prose.ts', code)).toEqual([])
  })

  test('two functions, each with its own comment, in a .tsx file', () => {
    const code = '/* @kernel a: f32[N] */\nfunction a(a, N) { return <div /> }\n/* @kernel b: f32[N] */\nfunction b(b, N) {}\n'
    expect(findKernelSites('view.tsx', code).map((s) => s.name)).toEqual(['a', 'b'])
  })
})

describe('diagnostics', () => {
  const at = (code: string, d: KernelDiagnostic) => lineColumn(code, d.span!.start)

  test('a comment on a class method is unattached, pointing at the comment', () => {
    const code = 'export class K {\n  /* @kernel x: f32[N] */\n  run(x, N) {}\n}\n'
    const d = diagnostic('class.ts', code)
    expect(d.code).toBe('find_unattached')
    expect(at(code, d)).toEqual({ line: 2, column: 2 })
    expect(slice(code, d.span!)).toBe('/* @kernel x: f32[N] */')
    expect(d.span!.file).toBe('class.ts')
    expect(d.notes.map((n) => n.text)).toEqual([expect.stringContaining('a class method cannot be a kernel: make the kernel a top-level function and call it from the method')])
  })

  test('a kernel declared inside another function: move it to the top level', () => {
    for (const inner of ['function k(x, N) {}', 'const k = (x, N) => {}']) {
      const d = diagnostic('nested.ts', `export function outer() {
  /* @kernel x: f32[N] */
  ${inner}
}
`)
      expect(d.notes.map((n) => n.text)).toEqual(['a kernel must be declared at the top level of its module: move the function out of the one around it'])
    }
    // A comment on a statement that is no function keeps the general hint.
    const onReturn = diagnostic('u.ts', 'function f(x, N) {\n  /* @kernel x: f32[N] */\n  return x\n}\n')
    expect(onReturn.notes.map((n) => n.text)).toEqual([expect.stringContaining('put the comment right before a top-level')])
  })

  test('floating comments, comments inside a body and on other statements are unattached', () => {
    const cases: [string, number, number][] = [
      ['function f() {}\n\n/* @kernel x: f32[N] */\n', 3, 0],
      ['function f(x, N) {\n  /* @kernel x: f32[N] */\n  return x\n}\n', 2, 2],
      ['const a = 1\n   /* @kernel x: f32[N] */ let x = 5\n', 2, 3],
      ['/* @kernel x: f32[N] */\nexport function g(x, N);\nexport function g(x, N) {}\n', 1, 0],
      ['/* @kernel x: f32[N] */\nexport default function (x, N) {}\n', 1, 0],
      ['/* @kernel x: f32[N] */\nconst a = (x) => {}, b = 2\n', 1, 0],
    ]
    for (const [code, line, column] of cases) {
      const d = diagnostic('u.ts', code)
      expect([d.code, at(code, d)]).toEqual(['find_unattached', { line, column }])
    }
  })

  test('the first problem in file order is reported', () => {
    const code = '/* @kernel */\nclass A {}\n/* @kernel x: f32[N] */\nconst f = (x) => x\n'
    expect(at(code, diagnostic('order.ts', code))).toEqual({ line: 1, column: 0 })
  })

  test('an expression-bodied arrow asks for a block body, pointing at the expression', () => {
    const code = 'import a from "a"\n\n/* @kernel x: f32[N] */\nexport const twice = (x: Float32Array, N: number) =>\n    x.map((v) => v * 2)\n'
    const d = diagnostic('expr.ts', code)
    expect(d.code).toBe('find_expression_body')
    expect(d.message).toMatch(/block body/)
    expect(d.kernel).toBe('twice')
    expect(at(code, d)).toEqual({ line: 5, column: 4 })
    expect(slice(code, d.span!)).toBe('x.map((v) => v * 2)')
  })

  test('destructured, rest, optional, default and this parameters are rejected, naming the parameter', () => {
    const forms = ['{ a }: { a: number }', '[b]: number[]', '...c: number[]', 'd?: number', 'e = 3', 'this: unknown']
    for (const form of forms) {
      const code = `/* @kernel x: f32[N] */\nfunction k(x: Float32Array, ${form}) {}\n`
      const d = diagnostic('p.ts', code)
      expect(d.code).toBe('find_param_form')
      expect(slice(code, d.span!)).toBe(form)
      expect(at(code, d)).toEqual({ line: 2, column: 'function k(x: Float32Array, '.length })
    }
  })

  test('async and generator functions are rejected', () => {
    for (const head of ['async function k', 'function* k']) {
      const d = diagnostic('a.ts', `/* @kernel x: f32[N] */\n${head}(x, N) {}\n`)
      expect([d.code, d.kernel]).toEqual(['find_function_form', 'k'])
    }
  })
})
