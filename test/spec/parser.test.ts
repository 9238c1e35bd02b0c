// The spec front end on the real example kernels: every spec parses and checks, with the facts later phases rely on.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'
import type { Span } from '../../plugin/diagnostics.ts'
import type { KernelSite } from '../../plugin/find/site.ts'
import { add, constant, evaluate, sub, variable } from '../../plugin/ir/affine.ts'
import type { Expr } from '../../plugin/ir/nodes.ts'
import type { SpecAst } from '../../plugin/spec/ast.ts'
import { checkSpec } from '../../plugin/spec/check.ts'
import type { CheckedStatement, KernelSpec } from '../../plugin/spec/checked.ts'
import { lexSpec } from '../../plugin/spec/lexer.ts'
import { parseSpec } from '../../plugin/spec/parser.ts'
import { sitesIn } from './sites.ts'

interface Example {
  readonly text: string
  readonly site: KernelSite
  readonly ast: SpecAst
  readonly spec: KernelSpec
}

const EXAMPLE_FILES = ['linalg', 'nn'].map((name) =>
  fileURLToPath(new URL(`../../examples/kernels/${name}.ts`, import.meta.url)),
)

const examples = new Map<string, Example>()
for (const file of EXAMPLE_FILES) {
  const text = readFileSync(file, 'utf8')
  for (const site of sitesIn(file, text)) {
    const ast = parseSpec(site.specText, site.specStart, file)
    examples.set(site.name, { text, site, ast, spec: checkSpec(ast, site) })
  }
}

const example = (name: string): Example => {
  const found = examples.get(name)
  if (!found) throw new Error(`no example kernel '${name}'`)
  return found
}
const slice = (name: string, span: Span): string => example(name).text.slice(span.start, span.end)
const extents = (s: CheckedStatement) => Object.fromEntries(s.indices.map((i) => [i.name, i.extent]))
const roles = (spec: KernelSpec) => Object.fromEntries(spec.tensors.map((t) => [t.name, t.role]))

function exprs(e: Expr): Expr[] {
  switch (e.kind) {
    case 'const': case 'load': case 'var': return [e]
    case 'unary': case 'call': return [e, ...exprs(e.arg)]
    case 'binary': return [e, ...exprs(e.a), ...exprs(e.b)]
    case 'select': return [e, ...exprs(e.cond), ...exprs(e.a), ...exprs(e.b)]
  }
}

describe('example kernels', () => {
  test('every annotated function of examples/kernels parses and checks', () => {
    const annotations = EXAMPLE_FILES.map((f) => readFileSync(f, 'utf8').match(/\/\*\*?\s*@kernel/g)?.length ?? 0)
    expect(examples.size).toBe(annotations[0] + annotations[1])
    expect(examples.size).toBeGreaterThanOrEqual(19)
    for (const { site, spec } of examples.values()) {
      expect(spec.name).toBe(site.name)
      expect(spec.params.map((p) => p.name)).toEqual(site.params.map((p) => p.name))
    }
  })

  test('matmul: one reduction over k, whose range comes from A', () => {
    const { spec } = example('matmul')
    expect(spec.statements).toHaveLength(1)
    const [s] = spec.statements
    expect(s.indices.map((i) => i.name)).toEqual(['i', 'j', 'k'])
    expect(s.reduced).toEqual(['k'])
    expect(extents(s)).toEqual({ i: variable('M'), j: variable('N'), k: variable('K') })
    expect(s.target).toEqual({ tensor: 'C', indices: ['i', 'j'] })
    expect(s.op).toBe('+=')
    expect(s.init).toBe(true)
    expect(s.dtype).toBe('f32')
    expect(spec.sizes).toEqual(['M', 'K', 'N'])
    expect(spec.params).toEqual([
      { kind: 'tensor', name: 'A' }, { kind: 'tensor', name: 'B' }, { kind: 'tensor', name: 'C' },
      { kind: 'size', name: 'M' }, { kind: 'size', name: 'N' }, { kind: 'size', name: 'K' },
    ])
    expect(roles(spec)).toEqual({ A: 'in', B: 'in', C: 'out' })
    expect(spec.tensors.find((t) => t.name === 'B')?.shape).toEqual([variable('K'), variable('N')])
    const k = s.indices[2]
    const text = example('matmul').text
    expect(slice('matmul', k.origin)).toBe('k')
    expect(text.slice(k.origin.start - 'A[i, '.length, k.origin.end + 1)).toBe('A[i, k]')
  })

  test('conv2dStride2: strided affine reads, a literal filter extent, init', () => {
    const [s] = example('conv2dStride2').spec.statements
    const ext = extents(s)
    expect(ext.p).toEqual(variable('P'))
    expect(ext.r).toEqual(constant(3))
    expect(ext.s).toEqual(constant(3))
    expect(s.reduced).toEqual(['r', 's', 'c'])
    expect(s.init).toBe(true)
    const load = exprs(s.value).find((e) => e.kind === 'load' && e.access.tensor === 'I')
    expect(load?.kind === 'load' && load.zeroOutside).toBe(false)
    // The row index 2*p + r - 1, checked by evaluating it rather than by its representation.
    const row = load?.kind === 'load' ? load.access.index[1] : constant(0)
    for (const [p, r] of [[0, 0], [3, 2], [7, 1]]) {
      expect(evaluate(row, new Map([['p', p], ['r', r]]))).toBe(2 * p + r - 1)
    }
    const filter = example('conv2dStride2').spec.tensors.find((t) => t.name === 'F')
    expect(filter?.shape.slice(0, 2)).toEqual([constant(3), constant(3)])
  })

  test('maxPool2x2: window extents come from the where clause, which is consumed', () => {
    const [s] = example('maxPool2x2').spec.statements
    expect(extents(s).r).toEqual(constant(2))
    expect(extents(s).s).toEqual(constant(2))
    expect(s.where).toEqual([])
    expect(slice('maxPool2x2', s.indices.find((i) => i.name === 'r')?.origin as Span)).toBe('r < 2')
    expect(s.op).toBe('max=')
  })

  test('softmax: four statements, temporaries, an in-place update', () => {
    const { spec } = example('softmax')
    expect(spec.statements).toHaveLength(4)
    expect(roles(spec)).toEqual({ X: 'in', Y: 'out', m: 'temp', z: 'temp' })
    expect(spec.params.map((p) => p.name)).toEqual(['X', 'Y', 'N', 'D'])
    expect(spec.statements.map((s) => s.reduced)).toEqual([['j'], [], ['j'], []])
    const last = spec.statements[3]
    expect(last.value.kind === 'binary' && last.value.op).toBe('div')
  })

  test("attention: sqrt(D) reads the size as a value; exp becomes a call", () => {
    const [scores, , normalise] = example('attention').spec.statements
    const sqrt = exprs(scores.value).find((e) => e.kind === 'call' && e.fn === 'sqrt')
    expect(sqrt?.kind === 'call' && sqrt.arg).toEqual({ kind: 'var', name: 'D', type: 'f32' })
    expect(exprs(normalise.value).some((e) => e.kind === 'call' && e.fn === 'exp')).toBe(true)
    expect(scores.reduced).toEqual(['d'])
  })

  test('builtins and operators map to IR ops', () => {
    const [relu] = example('biasRelu').spec.statements
    expect(relu.value).toMatchObject({ kind: 'binary', op: 'max', b: { kind: 'const', value: 0, type: 'f32' } })
    const layer = example('layerNorm').spec.statements
    expect(layer[2].value).toMatchObject({
      kind: 'binary', op: 'div', a: { kind: 'const', value: 1 }, b: { kind: 'call', fn: 'sqrt' },
    })
    const eps = exprs(layer[2].value).find((e) => e.kind === 'const' && e.value !== 1)
    expect(eps).toEqual({ kind: 'const', value: 0.00001, type: 'f32' })
    expect(layer[0].value).toMatchObject({ kind: 'binary', op: 'div', b: { kind: 'var', name: 'D' } })
    const [rowMax] = example('rowMax').spec.statements
    expect(rowMax.dtype).toBe('i32')
    expect(rowMax.value).toMatchObject({ kind: 'load', type: 'i32', access: { tensor: 'X' } })
  })

  test('rank 0 and repeated indices: dot, trace, diagonal', () => {
    const [dot] = example('dot').spec.statements
    expect(dot.target).toEqual({ tensor: 'out', indices: [] })
    expect(dot.reduced).toEqual(['i'])
    expect(example('dot').spec.tensors.find((t) => t.name === 'out')?.shape).toEqual([])
    const [trace] = example('trace').spec.statements
    expect(trace.indices).toHaveLength(1)
    expect(trace.value).toMatchObject({ access: { tensor: 'A', index: [variable('i'), variable('i')] } })
    const [diagonal] = example('diagonal').spec.statements
    expect(diagonal.reduced).toEqual([])
  })

  test('spans slice back to the source text', () => {
    const { ast } = example('matmul')
    expect(slice('matmul', ast.decls[0].span)).toBe('A: f32[M, K]')
    expect(slice('matmul', ast.decls[0].dtypeSpan)).toBe('f32')
    expect(slice('matmul', ast.decls[0].dims[1].span)).toBe('K')
    const [stmt] = ast.stmts
    expect(slice('matmul', stmt.span)).toBe('C[i, j] +=! A[i, k] * B[k, j]')
    expect(slice('matmul', stmt.opSpan)).toBe('+=!')
    expect(slice('matmul', stmt.target.span)).toBe('C[i, j]')
    expect(slice('matmul', stmt.value.span)).toBe('A[i, k] * B[k, j]')
    expect(slice('matmul', example('matmul').spec.statements[0].span)).toBe('C[i, j] +=! A[i, k] * B[k, j]')
    const conv = example('conv2dStride2').ast.stmts[0]
    const read = conv.value.kind === 'binary' ? conv.value.left : conv.value
    expect(read.kind === 'access' && slice('conv2dStride2', read.indices[1].span)).toBe('2*p + r - 1')
    const pool = example('maxPool2x2').ast.stmts[0]
    expect(pool.where.map((c) => slice('maxPool2x2', c.span))).toEqual(['r < 2', 's < 2'])
    expect(slice('maxPool2x2', pool.span)).toBe('O[p, q, c] max=! I[2*p + r, 2*q + s, c] where r < 2, s < 2')
    const variance = example('layerNorm').ast.stmts[1].value
    const square = variance.kind === 'binary' ? variance.left : variance
    const factor = square.kind === 'binary' ? square.left : square
    expect(slice('layerNorm', factor.span)).toBe('(X[i, j] - mean[i])')
    const decl = example('softmax').ast.decls[2]
    expect(decl.local).toBe(true)
    expect(slice('softmax', decl.span)).toBe('let m: f32[N]')
    expect(slice('softmax', decl.name.span)).toBe('m')
    const checked = example('softmax').spec.tensors.find((t) => t.name === 'm')
    expect(slice('softmax', checked?.span as Span)).toBe('let m: f32[N]')
  })
})

// Small specs written inline, for the rules the examples do not exercise.
function checkInline(spec: string, params: string): KernelSpec {
  const text = `/* @kernel\n${spec}\n*/\nexport function k(${params}) {}\n`
  const [site] = sitesIn('inline.ts', text)
  return checkSpec(parseSpec(site.specText, site.specStart, site.file), site)
}

describe('lexing and line joining', () => {
  const numbers = (text: string) => lexSpec(text, 0, 'n.ts').filter((t) => t.kind === 'number')

  test('integers and floats', () => {
    const written = ['3', '0.5', '1e-5', '2.', '12E+3', '007']
    const lexed = numbers(written.join(' '))
    expect(lexed.map((t) => t.kind === 'number' && [t.value, t.isFloat])).toEqual(
      written.map((w) => [Number(w), /[.eE]/.test(w)]),
    )
  })

  test('newlines join inside brackets, after operators and before where; `;` and comments', () => {
    const spec = checkInline(
      [
        'x: f32[N]; y: f32[N]   // two declarations on one line',
        'let t: f32[N]',
        't[i] = x[i] *',
        '  2 +',
        '  x[',
        '    i]',
        'y[i] = t[i] > 0 ?',
        '  t[i] :',
        '  -t[i]',
        '  where i >= 1',
        '',
        ';;',
      ].join('\n'),
      'x: Float32Array, y: Float32Array, N: number',
    )
    expect(spec.statements).toHaveLength(2)
    expect(spec.statements[1].value).toMatchObject({
      kind: 'select', cond: { op: 'gt', type: 'bool' }, b: { kind: 'unary', op: 'neg' },
    })
    expect(spec.statements[1].where).toHaveLength(1)
  })

  test('the wrapping examples of docs/spec-language.md', () => {
    const spec = checkInline(
      [
        'X: f32[N, D]', 'gamma: f32[D]', 'beta: f32[D]', 'Y: f32[N, D]', 'let mean: f32[N]', 'let rstd: f32[N]',
        'Y[i, j] = (X[i, j] - mean[i]) * rstd[i] *',
        '          gamma[j] + beta[j]',
        'Y[i, j] = X[i, j]',
        '  where i >= j',
      ].join('\n'),
      'X: Float32Array, gamma: Float32Array, beta: Float32Array, Y: Float32Array, N: number, D: number',
    )
    expect(spec.statements).toHaveLength(2)
    expect(spec.statements[0].value).toMatchObject({ kind: 'binary', op: 'add', b: { kind: 'load' } })
    const lowerTriangle = { expr: sub(variable('i'), variable('j')), op: '>=', span: expect.anything() }
    expect(spec.statements[1].where).toEqual([lowerTriangle])
  })

  test('max= is one token, max == is a comparison', () => {
    const kinds = (text: string) => lexSpec(text, 0, 'n.ts').map((t) => `${t.kind}:${t.text}`)
    expect(kinds('m[i] max=! x')).toEqual([
      'ident:m', 'punct:[', 'ident:i', 'punct:]', 'assign:max=!', 'ident:x', 'eof:',
    ])
    expect(kinds('max == 1')).toEqual(['ident:max', 'punct:==', 'number:1', 'eof:'])
  })
})

describe('checker rules', () => {
  const XY = 'x: Float32Array, y: Float32Array, N: number'

  test('roles: a reduction without ! and a read before the first write make inout', () => {
    expect(roles(checkInline('x: f32[N]\ny: f32[N]\ny[i] += x[i]', XY))).toEqual({ x: 'in', y: 'inout' })
    expect(roles(checkInline('x: f32[N]\ny: f32[N]\ny[i] = y[i] * x[i]', XY))).toEqual({ x: 'in', y: 'inout' })
    expect(roles(checkInline('x: f32[N]\ny: f32[N]\ny[i] = x[i]\ny[i] = y[i] * 2', XY))).toEqual({ x: 'in', y: 'out' })
    expect(roles(checkInline('x: f32[N]\ny: f32[N]\nx[i] = y[i]\ny[i] = x[i]', XY))).toEqual({ x: 'out', y: 'inout' })
  })

  test('bare names: indices and sizes become vars, a rank-0 tensor is loaded', () => {
    const spec = checkInline(
      'x: f64[N]\na: f64[]\ny: f64[N]\ny[i] = a * x[i] + i / N',
      'x: Float64Array, a: Float64Array, y: Float64Array, N: number',
    )
    const leaves = exprs(spec.statements[0].value).filter((e) => e.kind === 'var' || e.kind === 'load')
    expect(leaves).toEqual([
      { kind: 'load', access: { tensor: 'a', index: [] }, type: 'f64', zeroOutside: false },
      { kind: 'load', access: { tensor: 'x', index: [variable('i')] }, type: 'f64', zeroOutside: false },
      { kind: 'var', name: 'i', type: 'f64' },
      { kind: 'var', name: 'N', type: 'f64' },
    ])
  })

  test('every operator and built-in maps to its IR op', () => {
    const value = [
      '(x[i] < 1 || x[i] <= 2) && (x[i] > 3 || x[i] >= 4) && !(x[i] == 5 || x[i] != 6) ?',
      '(x[i] + 7) * (x[i] - 8) * (x[i] * 9) * (x[i] / 10) * (x[i] % 11) *',
      'pow(x[i], 12) * min(x[i], 13) * max(x[i], 14) :',
      '-(exp(x[i]) + log(x[i]) + sqrt(x[i]) + abs(x[i]) + tanh(x[i]) + sigmoid(x[i]))',
    ].join('\n')
    const spec = checkInline(`x: f32[N]\ny: f32[N]\ny[i] = ${value}`, XY)
    const all = exprs(spec.statements[0].value)
    const withConstant = all.flatMap((e) => (e.kind === 'binary' && e.b.kind === 'const' ? [[e.b.value, e.op]] : []))
    const opByConstant = Object.fromEntries(withConstant)
    expect(opByConstant).toEqual({
      1: 'lt', 2: 'le', 3: 'gt', 4: 'ge', 5: 'eq', 6: 'ne', 7: 'add', 8: 'sub', 9: 'mul', 10: 'div', 11: 'mod',
      12: 'pow', 13: 'min', 14: 'max',
    })
    const logical = all.flatMap((e) => (e.kind === 'binary' && e.type === 'bool' && e.b.kind !== 'const' ? [e.op] : []))
    expect(logical.sort()).toEqual(['and', 'and', 'or', 'or', 'or'])
    expect(all.filter((e) => e.kind === 'unary').map((e) => e.kind === 'unary' && e.op).sort()).toEqual(['neg', 'not'])
    const calls = all.flatMap((e) => (e.kind === 'call' ? [e.fn] : []))
    expect(calls).toEqual(['exp', 'log', 'sqrt', 'abs', 'tanh', 'sigmoid'])
    expect(all.filter((e) => e.kind === 'binary' && e.type === 'bool').length).toBe(6 + 5)
  })

  test('i32 literals: the full range including INT32_MIN', () => {
    const spec = checkInline(
      'x: i32[N]\ny: i32[N]\ny[i] = max(x[i], -2147483648) + 2147483647',
      'x: Int32Array, y: Int32Array, N: number',
    )
    const consts = exprs(spec.statements[0].value).flatMap((e) => (e.kind === 'const' ? [e.value] : []))
    expect(consts).toEqual([-2147483648, 2147483647])
  })
})

test('normalised where constraints hold exactly where the written comparison does', () => {
  const ops = ['<', '<=', '>', '>=', '=='] as const
  const reference: Record<(typeof ops)[number], (a: number, b: number) => boolean> = {
    '<': (a, b) => a < b,
    '<=': (a, b) => a <= b,
    '>': (a, b) => a > b,
    '>=': (a, b) => a >= b,
    '==': (a, b) => a === b,
  }
  let seed = 7
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648
    return seed % n
  }
  for (const op of ops) {
    const spec = checkInline(
      `A: f32[N, N]\nB: f32[N, N]\nB[i, j] = A[i, j] where 2*i - 1 ${op} j + N - 3`,
      'A: Float32Array, B: Float32Array, N: number',
    )
    const [c] = spec.statements[0].where
    for (let trial = 0; trial < 200; trial++) {
      const [i, j, N] = [random(13), random(13), 1 + random(12)]
      const value = evaluate(c.expr, new Map([['i', i], ['j', j], ['N', N]]))
      const holds = c.op === '>=' ? value >= 0 : value === 0
      expect(holds, `${op} at i=${i} j=${j} N=${N}`).toBe(reference[op](2 * i - 1, j + N - 3))
    }
  }
})

test('a bound like r <= R - 1 is consumed as the range R; the other clauses remain, normalised', () => {
  const spec = checkInline(
    'x: f32[N]\nlet pad: f32[R]\ny: f32[N]\ny[i] +=! x[i + r] where r <= R - 1, i + r < N, r >= 1',
    'x: Float32Array, y: Float32Array, N: number, R: number',
  )
  const [s] = spec.statements
  expect(extents(s)).toEqual({ i: variable('N'), r: variable('R') })
  expect(s.where.map((c) => c.op)).toEqual(['>=', '>='])
  expect(s.where[0].expr).toEqual(sub(variable('N'), add(add(variable('i'), variable('r')), constant(1))))
  expect(s.where[1].expr).toEqual(sub(variable('r'), constant(1)))
  expect(spec.sizes).toEqual(['N', 'R'])
})
