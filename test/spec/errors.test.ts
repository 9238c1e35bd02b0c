// One must-fail sample per spec_* code (Halide's test/error/): each asserts the code and where it points.
import { describe, expect, test } from 'vitest'
import { KernelDiagnostic, lineColumn } from '../../plugin/diagnostics.ts'
import { SPEC_CODES } from '../../plugin/messages.ts'
import { checkSpec } from '../../plugin/spec/check.ts'
import { parseSpec } from '../../plugin/spec/parser.ts'
import { sitesIn } from './sites.ts'

interface Sample {
  readonly name: string
  readonly code: string
  /** The spec, one item per line. */
  readonly spec: string
  readonly params: string
  /** A unique snippet of the file with `|` where the diagnostic must start. */
  readonly at: string
  /** Words the message or its notes must contain: the names involved, the fix. */
  readonly mentions?: readonly string[]
}

const F32_XY = 'x: Float32Array, y: Float32Array, N: number'
const MATMUL = 'A: Float32Array, B: Float32Array, C: Float32Array, M: number, N: number, K: number'

const SAMPLES: readonly Sample[] = [
  // Parser
  {
    code: 'spec_syntax', name: 'doubled operator', at: 'k] * |* B',
    spec: 'A: f32[M, K]\nB: f32[K, N]\nC: f32[M, N]\nC[i, j] +=! A[i, k] * * B[k, j]',
    params: MATMUL,
  },
  {
    code: 'spec_syntax', name: 'unclosed bracket', at: '|where',
    spec: 'x: f32[N]\ny: f32[N]\ny[i] = x[i\nwhere i < 2',
    params: F32_XY,
  },
  {
    code: 'spec_syntax', name: 'chained comparison', at: '0 <= i |< 3',
    spec: 'x: f32[N]\ny: f32[N]\ny[i] = x[i] where 0 <= i < 3',
    params: F32_XY,
  },
  {
    code: 'spec_syntax', name: 'not an assignment operator', at: 'y[i] |-=',
    spec: 'x: f32[N]\ny: f32[N]\ny[i] -= x[i]',
    params: F32_XY,
  },
  {
    code: 'spec_syntax', name: 'missing colon', at: 'x |f32[N]',
    spec: 'x f32[N]\ny: f32[N]\ny[i] = x[i]',
    params: F32_XY,
  },
  {
    code: 'spec_syntax', name: 'stray character', at: '|@ 2',
    spec: 'x: f32[N]\ny: f32[N]\ny[i] = x[i] @ 2',
    params: F32_XY,
  },
  {
    code: 'spec_syntax', name: 'not-equal in where', at: 'i |!= 2',
    spec: 'x: f32[N]\ny: f32[N]\ny[i] = x[i] where i != 2',
    params: F32_XY,
  },
  {
    code: 'spec_syntax', name: 'missing dims', at: 'x: f32|\n',
    spec: 'x: f32\ny: f32[N]\ny[i] = x[i]',
    params: F32_XY,
  },
  {
    code: 'spec_reserved_word', name: 'builtin as tensor', at: '|exp: f32', mentions: ['exp'],
    spec: 'exp: f32[N]\ny: f32[N]\ny[i] = exp[i]',
    params: 'exp: Float32Array, y: Float32Array, N: number',
  },
  {
    code: 'spec_reserved_word', name: 'keyword as index', at: 'y[|let]', mentions: ['let'],
    spec: 'x: f32[N]\ny: f32[N]\ny[let] = x[let]',
    params: F32_XY,
  },
  {
    code: 'spec_bad_literal', name: 'zero dimension', at: 'f32[|0]',
    spec: 'x: f32[0]\ny: f32[N]\ny[i] +=! x[j] where i < N',
    params: F32_XY,
  },
  {
    code: 'spec_bad_literal', name: 'fractional dimension', at: 'f32[|2.5]',
    spec: 'x: f32[2.5]\ny: f32[N]\ny[i] = x[i]',
    params: F32_XY,
  },
  {
    code: 'spec_bad_literal', name: 'float in an i32 statement', at: '|0.5',
    spec: 'x: i32[N]\ny: i32[N]\ny[i] = x[i] * 0.5',
    params: 'x: Int32Array, y: Int32Array, N: number',
  },
  {
    code: 'spec_bad_literal', name: 'i32 literal overflow', at: '|2147483648',
    spec: 'x: i32[N]\ny: i32[N]\ny[i] = x[i] + 2147483648',
    params: 'x: Int32Array, y: Int32Array, N: number',
  },
  {
    code: 'spec_bad_literal', name: 'f32 overflow', at: '|1e39',
    spec: 'x: f32[N]\ny: f32[N]\ny[i] = x[i] * 1e39',
    params: F32_XY,
  },
  {
    code: 'spec_bad_literal', name: 'number running into a name', at: '|2x',
    spec: 'x: f32[N]\ny: f32[N]\ny[i] = 2x[i]',
    params: F32_XY,
  },
  // Declarations and parameters
  {
    code: 'spec_empty', name: 'no statement', at: '@kernel|',
    spec: 'x: f32[N]\ny: f32[N]',
    params: F32_XY,
  },
  {
    code: 'spec_duplicate_decl', name: 'declared twice', at: '|x: f64', mentions: ['x'],
    spec: 'x: f32[N]\ny: f32[N]\nx: f64[N]\ny[i] = x[i]',
    params: F32_XY,
  },
  {
    code: 'spec_name_conflict', name: 'tensor name used as a size', at: 'y: f32[|x]', mentions: ['x'],
    spec: 'x: f32[N]\ny: f32[x]\ny[i] = x[i]',
    params: 'x: Float32Array, y: Float32Array, N: number',
  },
  {
    code: 'spec_param_missing', name: 'tensor not a parameter', at: '|y: f32', mentions: ['y'],
    spec: 'x: f32[N]\ny: f32[N]\ny[i] = x[i]',
    params: 'x: Float32Array, N: number',
  },
  {
    code: 'spec_param_missing', name: 'size not a parameter', at: 'f32[|T]', mentions: ['T'],
    spec: 'x: f32[N]\ny: f32[N]\nlet t: f32[T]\ny[i] = x[i]',
    params: F32_XY,
  },
  {
    code: 'spec_param_unknown', name: 'extra parameter', at: '|alpha: number', mentions: ['alpha'],
    spec: 'x: f32[N]\ny: f32[N]\ny[i] = x[i]',
    params: `${F32_XY}, alpha: number`,
  },
  {
    // A scale factor passed as a number: the note says how to pass a scalar value (in the statement's dtype).
    code: 'spec_param_unknown', name: 'a number parameter read as a value', at: '|scale: number',
    mentions: ['`scale: f64[]`', 'Float64Array of one element'],
    spec: 'x: f64[N]\ny: f64[N]\ny[i] = x[i] * max(scale, 0)',
    params: 'x: Float64Array, y: Float64Array, N: number, scale: number',
  },
  {
    code: 'spec_param_unknown', name: 'parameter named like a temporary', at: '|t: Float32Array', mentions: ['t'],
    spec: 'x: f32[N]\ny: f32[N]\nlet t: f32[N]\nt[i] = x[i]\ny[i] = t[i]',
    params: `${F32_XY}, t: Float32Array`,
  },
  {
    code: 'spec_param_unknown', name: 'a size spelt in the other case', at: '|k: number', mentions: ["did you mean 'K'?"],
    spec: 'A: f32[M, K]\nB: f32[K, N]\nC: f32[M, N]\nC[i, j] +=! A[i, k] * B[k, j]',
    params: 'A: Float32Array, B: Float32Array, C: Float32Array, M: number, N: number, k: number',
  },
  {
    code: 'spec_param_unknown', name: 'a parameter named only alone in a dimension stays an index', at: '|w: number', mentions: ['w'],
    spec: 'x: f32[N]\ny: f32[N]\ny[w] = x[w]',
    params: `${F32_XY}, w: number`,
  },
  {
    code: 'spec_param_type', name: 'wrong array type', at: '|x: Float64Array',
    spec: 'x: f32[N]\ny: f32[N]\ny[i] = x[i]',
    params: 'x: Float64Array, y: Float32Array, N: number', mentions: ['x', 'Float32Array', 'Float64Array'],
  },
  {
    code: 'spec_param_type', name: 'size typed as an array', at: '|N: Int32Array', mentions: ['N', 'number'],
    spec: 'x: f32[N]\ny: f32[N]\ny[i] = x[i]',
    params: 'x: Float32Array, y: Float32Array, N: Int32Array',
  },
  {
    code: 'spec_unused_tensor', name: 'declared but unused', at: '|w: f32', mentions: ['w'],
    spec: 'x: f32[N]\nw: f32[N]\ny: f32[N]\ny[i] = x[i]',
    params: `${F32_XY}, w: Float32Array`,
  },
  // Names and accesses
  {
    code: 'spec_unknown_tensor', name: 'undeclared tensor', at: '+ |z[i]', mentions: ['z'],
    spec: 'x: f32[N]\ny: f32[N]\ny[i] = x[i] + z[i]',
    params: F32_XY,
  },
  {
    code: 'spec_unknown_tensor', name: 'a misspelt tensor', at: '+ |bais[i]', mentions: ["did you mean 'bias'?"],
    spec: 'x: f32[N]\nbias: f32[N]\ny: f32[N]\ny[i] = x[i] + bais[i]',
    params: 'x: Float32Array, bias: Float32Array, y: Float32Array, N: number',
  },
  {
    code: 'spec_unknown_tensor', name: 'size used as a tensor', at: '+ |N[i]', mentions: ['N'],
    spec: 'x: f32[N]\ny: f32[N]\ny[i] = x[i] + N[i]',
    params: F32_XY,
  },
  {
    code: 'spec_unknown_name', name: 'undeclared scalar', at: '|alpha', mentions: ['alpha'],
    spec: 'x: f32[N]\ny: f32[N]\ny[i] = x[i] * alpha',
    params: F32_XY,
  },
  {
    code: 'spec_unknown_name', name: 'a size in the wrong case', at: '|n)', mentions: ["did you mean 'N'?"],
    spec: 'x: f32[N]\ny: f32[N]\ny[i] = x[i] / sqrt(n)',
    params: F32_XY,
  },
  {
    code: 'spec_unknown_function', name: 'a misspelt built-in', at: '|sigmiod', mentions: ["did you mean 'sigmoid'?"],
    spec: 'x: f32[N]\ny: f32[N]\ny[i] = sigmiod(x[i])',
    params: F32_XY,
  },
  {
    code: 'spec_unknown_function', name: 'undeclared function', at: '|relu', mentions: ['relu'],
    spec: 'x: f32[N]\ny: f32[N]\ny[i] = relu(x[i])',
    params: F32_XY,
  },
  {
    code: 'spec_arity', name: 'max with one argument', at: '|max(x', mentions: ['max', '2', '1'],
    spec: 'x: f32[N]\ny: f32[N]\ny[i] = max(x[i])',
    params: F32_XY,
  },
  {
    code: 'spec_rank_mismatch', name: 'too few indices', at: '|A[i] *', mentions: ['A', '2', '1'],
    spec: 'A: f32[M, K]\nB: f32[K, N]\nC: f32[M, N]\nC[i, j] +=! A[i] * B[k, j]',
    params: MATMUL,
  },
  {
    code: 'spec_rank_mismatch', name: 'matrix used as a scalar', at: '= |x', mentions: ['x'],
    spec: 'x: f32[N]\ny: f32[N]\ny[i] = x',
    params: F32_XY,
  },
  {
    code: 'spec_non_affine', name: 'product of indices', at: 'x[|i * j]',
    spec: 'x: f32[N]\ny: f32[N]\ny[i] +=! x[i * j] where j < 2',
    params: F32_XY,
  },
  {
    code: 'spec_non_affine', name: 'division in an index', at: 'x[|i / 2]',
    spec: 'x: f32[N]\ny: f32[N]\ny[i] = x[i / 2]',
    params: F32_XY,
  },
  {
    code: 'spec_non_affine', name: 'tensor read in an index', at: 'x[|p[i]]', mentions: ['gather in JS around the kernel'],
    spec: 'x: f32[N]\np: i32[N]\ny: f32[N]\ny[i] = x[p[i]]',
    params: `${F32_XY}, p: Int32Array`,
  },
  {
    code: 'spec_non_affine', name: 'size times index in where', at: 'where |N * i',
    spec: 'x: f32[N]\ny: f32[N]\ny[i] = x[i] where N * i < 4',
    params: F32_XY,
  },
  // Statements
  {
    code: 'spec_target_is_size', name: 'writing a size', at: '|N[i] =', mentions: ['N'],
    spec: 'x: f32[N]\ny: f32[N]\nN[i] = x[i]\ny[i] = x[i]',
    params: F32_XY,
  },
  {
    code: 'spec_target_index', name: 'expression as output index', at: 'y[|i + 1]',
    spec: 'x: f32[N]\ny: f32[N]\ny[i + 1] = x[i]',
    params: F32_XY,
  },
  {
    code: 'spec_target_index', name: 'repeated output index', at: 'A[i, |i] =', mentions: ['i'],
    spec: 'x: f32[N]\nA: f32[N, N]\nA[i, i] = x[i]',
    params: 'x: Float32Array, A: Float32Array, N: number',
  },
  {
    code: 'spec_target_index', name: 'literal output index', at: 'A[i, |0] =',
    spec: 'x: f32[N]\nA: f32[N, 2]\nA[i, 0] = x[i]',
    params: 'x: Float32Array, A: Float32Array, N: number',
  },
  {
    code: 'spec_target_index_unused', name: 'broadcast output index', at: 'C[i, |j] =', mentions: ['j', 'C'],
    spec: 'A: f32[M]\nC: f32[M, N]\nC[i, j] = A[i]',
    params: 'A: Float32Array, C: Float32Array, M: number, N: number',
  },
  {
    code: 'spec_reduction_needs_op', name: 'sum written with =', at: 'A[i, |k]', mentions: ['k', '+='],
    spec: 'A: f32[M, K]\nB: f32[K, N]\nC: f32[M, N]\nC[i, j] = A[i, k] * B[k, j]',
    params: MATMUL,
  },
  {
    code: 'spec_init_needs_reduction', name: 'init on a plain write', at: 'y[i] |=!',
    spec: 'x: f32[N]\ny: f32[N]\ny[i] =! x[i]',
    params: F32_XY,
  },
  {
    code: 'spec_unbounded_index', name: 'window without a bound', at: 'i + |r]', mentions: ['r'],
    spec: 'x: f32[N]\ny: f32[N]\ny[i] +=! x[i + r]',
    params: F32_XY,
  },
  {
    code: 'spec_shape_conflict', name: 'matmul with mismatched inner dims', at: 'B[j, |k]',
    spec: 'A: f32[M, K]\nB: f32[N, L]\nC: f32[M, N]\nC[i, j] +=! A[i, k] * B[j, k]',
    params: `${MATMUL}, L: number`, mentions: ['k', 'A', 'B', 'K', 'L'],
  },
  {
    code: 'spec_shape_conflict', name: 'non-square diagonal', at: 'A[i, |i]', mentions: ['M', 'N'],
    spec: 'A: f32[M, N]\nt: f32[]\nt +=! A[i, i]',
    params: 'A: Float32Array, t: Float32Array, M: number, N: number',
  },
  {
    code: 'spec_dtype_mismatch', name: 'i32 read in an f32 statement', at: '|k[i]', mentions: ['k', 'y', 'i32', 'f32'],
    spec: 'x: f32[N]\nk: i32[N]\ny: f32[N]\ny[i] = x[i] * k[i]',
    params: `${F32_XY}, k: Int32Array`,
  },
  {
    code: 'spec_type_error', name: 'storing a comparison', at: '= |x[i] < 0',
    spec: 'x: i32[N]\ny: i32[N]\ny[i] = x[i] < 0',
    params: 'x: Int32Array, y: Int32Array, N: number',
  },
  {
    code: 'spec_type_error', name: 'exp in an i32 statement', at: '|exp(', mentions: ['exp', 'i32'],
    spec: 'x: i32[N]\ny: i32[N]\ny[i] = exp(x[i])',
    params: 'x: Int32Array, y: Int32Array, N: number',
  },
  {
    code: 'spec_type_error', name: 'number as a condition', at: '= |x[i] ?',
    spec: 'x: f32[N]\ny: f32[N]\ny[i] = x[i] ? 1 : 0',
    params: F32_XY,
  },
  {
    code: 'spec_type_error', name: 'arithmetic on a condition', at: '|(x[i] > 0)',
    spec: 'x: f32[N]\ny: f32[N]\ny[i] = (x[i] > 0) * x[i]',
    params: F32_XY,
  },
  {
    code: 'spec_self_read', name: 'reading a shifted output', at: '|y[i + 1]', mentions: ['y'],
    spec: 'x: f32[N]\ny: f32[N]\ny[i] = x[i] + y[i + 1]',
    params: F32_XY,
  },
  {
    code: 'spec_self_read', name: 'reducing into a read output', at: '+= |y[i]', mentions: ['y'],
    spec: 'x: f32[N]\ny: f32[N]\ny[i] += y[i] * x[i]',
    params: F32_XY,
  },
]

function sourceOf(sample: Sample): string {
  const spec = sample.spec.split('\n').map((line) => `   ${line}`).join('\n')
  return `// ${sample.name}\n\n/* @kernel\n${spec}\n*/\nexport function k(${sample.params}) {}\n`
}

function diagnose(source: string): unknown {
  const [site] = sitesIn('sample.ts', source)
  try {
    checkSpec(parseSpec(site.specText, site.specStart, site.file), site)
  } catch (e) {
    return e
  }
  return undefined
}

function expectedOffset(source: string, at: string): number {
  const bar = at.indexOf('|')
  const needle = at.replace('|', '')
  const found = source.indexOf(needle)
  expect(found, `'${needle}' occurs in the sample`).toBeGreaterThanOrEqual(0)
  expect(source.indexOf(needle, found + 1), `'${needle}' occurs once in the sample`).toBe(-1)
  return found + bar
}

describe('each spec error sample fails with its code, at its place', () => {
  test.each(SAMPLES.map((s) => [`${s.code}: ${s.name}`, s] as const))('%s', (_, sample) => {
    const source = sourceOf(sample)
    const d = diagnose(source)
    expect(d).toBeInstanceOf(KernelDiagnostic)
    const diagnostic = d as KernelDiagnostic
    expect(diagnostic.code).toBe(sample.code)
    expect(diagnostic.span?.file).toBe('sample.ts')
    const span = diagnostic.span ?? { start: -1, end: -1 }
    expect(lineColumn(source, span.start)).toEqual(lineColumn(source, expectedOffset(source, sample.at)))
    expect(span.end).toBeGreaterThanOrEqual(span.start)
    const text = [diagnostic.message, ...diagnostic.notes.map((n) => n.text)].join('\n')
    for (const word of sample.mentions ?? []) expect(text).toContain(word)
  })
})

test('every spec_* code has a sample, and every sample code is catalogued', () => {
  const sampled = new Set(SAMPLES.map((s) => s.code))
  expect(SPEC_CODES.filter((code) => !sampled.has(code))).toEqual([])
  expect([...sampled].filter((code) => !(SPEC_CODES as readonly string[]).includes(code))).toEqual([])
})

test('checker diagnostics name the kernel; parser diagnostics point into the file through JSDoc gutters', () => {
  const conflict = SAMPLES.find((s) => s.code === 'spec_shape_conflict') as Sample
  const checked = diagnose(sourceOf(conflict)) as KernelDiagnostic
  expect(checked.kernel).toBe('k')
  const source = [
    '/**',
    ' * @kernel',
    ' * x: f32[N]',
    ' * y: f32[N]',
    ' * y[i] = x[i] +',
    ' *   ) ',
    ' */',
    'export function k(x: Float32Array, y: Float32Array, N: number) {}',
  ].join('\n')
  const d = diagnose(source) as KernelDiagnostic
  expect(d.code).toBe('spec_syntax')
  expect(lineColumn(source, d.span?.start ?? -1)).toEqual({ line: 6, column: 5 })
})
