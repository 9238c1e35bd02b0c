/**
 * `perf_plain_loops`: which statements count as cubic work run as plain loops (analysis/slow-statements.ts), the
 * warning's wording and location, the hint table, and `@allow-loops`.
 */
import { describe, expect, test } from 'vitest'
import type { CompiledKernel } from '../../plugin/compiled-kernel.ts'
import { formatDiagnostic } from '../../plugin/diagnostics.ts'
import { findKernelSites } from '../../plugin/find/annotations.ts'
import { ALLOW_LOOPS, LOOP_HINTS, LOOP_HINT_GENERAL, loopHint } from '../../plugin/messages.ts'
import { resolveOptions } from '../../plugin/options.ts'
import { compileKernel, compileModule, kernelWarnings } from '../../plugin/pipeline.ts'

const slowWarnings = (k: CompiledKernel) => kernelWarnings(k).filter((d) => d.code === 'perf_plain_loops')

const opts = resolveOptions({ root: '/project', native: false, calibrate: false })

/** `decls` and `statement` as one kernel `k` of /project/k.ts, with an untyped parameter per tensor and size. */
function source(decls: readonly string[], statement: string, extra: readonly string[] = []): string {
  const tensors = decls.map((d) => d.split(':')[0])
  const sizes = [...new Set(decls.flatMap((d) => [...d.split(':')[1].matchAll(/[A-Z]\w*/g)].map((m) => m[0])))]
  return ['/* @kernel', ...extra.map((l) => `   ${l}`), ...decls.map((d) => `   ${d}`), `   ${statement}`, '*/',
    `export function k(${[...tensors, ...sizes].join(', ')}) {}`, ''].join('\n')
}

function compile(code: string): CompiledKernel {
  const [site] = findKernelSites('/project/k.ts', code)
  return compileKernel(site, code, opts)
}

const GEMM = ['A: f32[M, K]', 'B: f32[K, N]', 'C: f32[M, N]']
const DIAGONAL = ['A: f32[M, M, K]', 'B: f32[K, N]', 'C: f32[M, N]']
const DIAGONAL_STATEMENT = 'C[i, j] +=! A[i, i, k] * B[k, j]'

describe('cubic work run as loops', () => {
  test('a diagonal operand: the matcher\'s reason and the hint to copy the diagonal out', () => {
    const k = compile(source(DIAGONAL, DIAGONAL_STATEMENT))
    expect(k.slow).toMatchObject([{ block: 's0', large: ['i', 'j', 'k'], reason: 'index i appears twice in A (a diagonal)' }])
    expect(loopHint(k.slow[0].reason)).toContain('copy the diagonal into a `let` temporary')
  })

  test('a where-restricted product (triangular)', () => {
    const k = compile(source(GEMM, 'C[i, j] +=! A[i, k] * B[k, j] where k <= i'))
    expect(k.slow).toHaveLength(1)
    expect(k.slow[0].reason).toMatch(/^the domain has constraints \(.*\) on k, which is not an index of C/)
    expect(loopHint(k.slow[0].reason)).toContain('drop the `where` clause')
    expect(loopHint(k.slow[0].reason)).toContain('`where j <= i`, runs as a masked GEMM')
    // A triangle of C itself is a masked GEMM: no warning.
    expect(compile(source(GEMM, 'C[i, j] +=! A[i, k] * B[k, j] where j <= i')).slow).toHaveLength(0)
  })

  test('a factor computed from an operand, and integers', () => {
    const computed = compile(source(GEMM, 'C[i, j] +=! A[i, k] * exp(B[k, j])'))
    expect(computed.slow[0].reason).toBe('factor exp(B[k, j]) is not a tensor element')
    expect(loopHint(computed.slow[0].reason)).toContain('`E[s, t] = exp(S[s, t])`, then `O[s, e] +=! E[s, t] * V[t, e]`')
    // Divided by a size expression, it is a GEMM with A scaled while packed: no warning.
    expect(compile(source(GEMM, 'C[i, j] +=! A[i, k] * B[k, j] / sqrt(K)')).slow).toHaveLength(0)
    const ints = compile(source(['A: i32[M, K]', 'B: i32[K, N]', 'C: i32[M, N]'], 'C[i, j] +=! A[i, k] * B[k, j]'))
    expect(ints.slow[0].reason).toBe('element type is i32, the needle\'s is f32')
    expect(loopHint(ints.slow[0].reason)).toContain('f32 or f64')
  })

  test('literal extents count from 64 on', () => {
    const big = ['A: f32[64, 64, 100]', 'B: f32[100, 64]', 'C: f32[64, 64]']
    expect(compile(source(big, DIAGONAL_STATEMENT)).slow).toHaveLength(1)
    const small = ['A: f32[M, M, 8]', 'B: f32[8, N]', 'C: f32[M, N]']
    expect(compile(source(small, DIAGONAL_STATEMENT)).slow).toEqual([])
  })

  test.each([
    ['a GEMM (it runs on a microkernel)', GEMM, 'C[i, j] +=! A[i, k] * B[k, j]'],
    ['a batched GEMM', ['A: f32[T, M, K]', 'B: f32[T, K, N]', 'C: f32[T, M, N]'], 'C[b, i, j] +=! A[b, i, k] * B[b, k, j]'],
    ['an element-wise 3-D statement (no reduction)', ['X: f32[M, N, K]', 'Y: f32[M, N, K]'], 'Y[i, j, k] = X[i, j, k] * 2'],
    ['a sum over a 3-D tensor (each element read once)', ['X: f32[M, N, K]', 's: f32[M]'], 's[i] +=! X[i, j, k]'],
    ['a batched matrix-vector product (A read once)', ['A: f32[T, M, K]', 'x: f32[T, K]', 'y: f32[T, M]'], 'y[b, i] +=! A[b, i, k] * x[b, k]'],
    ['a depthwise convolution with a literal 3×3 filter', ['I: f32[H, W, C]', 'F: f32[3, 3, C]', 'O: f32[H, W, C]'],
      'O[h, w, c] +=! I[h + r - 1, w + s - 1, c] * F[r, s, c]'],
    ['a channels-last convolution (a Convolution node)', ['I: f32[H, W, C]', 'F: f32[3, 3, C, K]', 'O: f32[H, W, K]'],
      'O[h, w, k] +=! I[h + r - 1, w + s - 1, c] * F[r, s, c, k]'],
    ['a matrix-vector product', ['A: f32[M, K]', 'x: f32[K]', 'y: f32[M]'], 'y[i] +=! A[i, k] * x[k]'],
  ])('not reported: %s', (_, decls, statement) => {
    const k = compile(source(decls, statement))
    expect(k.slow).toEqual([])
    expect(slowWarnings(k)).toEqual([])
  })

  test('a windowed product that is no convolution gets match-convolution\'s reason', () => {
    const decls = ['I: f32[H, W, C]', 'F: f32[R, S, C]', 'O: f32[H, W, C]']
    const k = compile(source(decls, 'O[h, w, c] +=! I[h + r, w + s, c] * F[r, s, c]'))
    expect(k.slow).toMatchObject([{ block: 's0', reason: expect.stringMatching(/^not a convolution: .*depthwise/) }])
    expect(loopHint(k.slow[0].reason)).toContain('depthwise')
  })
})

describe('the perf_plain_loops warning', () => {
  test('names the kernel, the statement and where it is, the reason, the rewrite and how to silence it', () => {
    const code = source(DIAGONAL, DIAGONAL_STATEMENT)
    const [w] = slowWarnings(compile(code))
    expect(w.code).toBe('perf_plain_loops')
    expect(w.kernel).toBe('k')
    expect(code.slice(w.span!.start, w.span!.end)).toBe(DIAGONAL_STATEMENT)
    const text = formatDiagnostic(w, code)
    expect(text.split('\n')[0]).toBe(
      `/project/k.ts:5:4: Statement s0 \`${DIAGONAL_STATEMENT}\` does cubic work (over i, j, k) but runs as plain loops: ` +
        `index i appears twice in A (a diagonal) (kernel 'k') [perf_plain_loops]`)
    expect(text).toContain('note: to make it fast: copy the diagonal into a `let` temporary first')
    expect(text).toContain(`note: silence it with a line \`${ALLOW_LOOPS} <why>\` in the kernel's @kernel comment`)
  })

  test('`@allow-loops` silences it for its kernel; the line is no spec syntax', () => {
    const code = source(DIAGONAL, DIAGONAL_STATEMENT, ['@allow-loops: diagonal on purpose'])
    const [site] = findKernelSites('/project/k.ts', code)
    expect(site.allowLoops).toBe('diagonal on purpose')
    const k = compileKernel(site, code, opts)
    expect(k.slow).toHaveLength(1)
    expect(slowWarnings(k)).toEqual([])
    // Without a why, and in a JSDoc gutter.
    const gutter = code.replace('/* @kernel\n   @allow-loops: diagonal on purpose', '/** @kernel\n * @allow-loops').replace(/\n {3}/g, '\n * ')
    const [bare] = findKernelSites('/project/k.ts', gutter)
    expect(bare.allowLoops).toBe('')
    expect(slowWarnings(compileKernel(bare, gutter, opts))).toEqual([])
  })

  test('`@allow-loops` inside a line is a syntax error that names the directive', () => {
    const code = source(DIAGONAL, `${DIAGONAL_STATEMENT} @allow-loops`)
    const [site] = findKernelSites('/project/k.ts', code)
    expect(() => compileKernel(site, code, opts)).toThrow(/Unexpected character '@'/)
  })

  test('compileModule warns once per slow statement, at its current place when the kernel moved (memo)', async () => {
    const code = source(DIAGONAL, DIAGONAL_STATEMENT) + source(GEMM, 'C[i, j] +=! A[i, k] * B[k, j]').replace('function k(', 'function g(')
    const first = await compileModule('/project/k.ts', code, opts)
    expect(first!.warnings.map((w) => [w.code, w.kernel])).toEqual([['perf_plain_loops', 'k']])
    const { createKernelMemo } = await import('../../plugin/kernel-memo.ts')
    const memo = createKernelMemo()
    await compileModule('/project/k.ts', code, opts, undefined, memo)
    const moved = `// moved\n\n${code}`
    const again = await compileModule('/project/k.ts', moved, opts, undefined, memo)
    const [w] = again!.warnings
    expect(moved.slice(w.span!.start, w.span!.end)).toBe(DIAGONAL_STATEMENT)
  })
})

describe('the hint table', () => {
  test('every row is reachable and distinct from the general hint', () => {
    for (const row of LOOP_HINTS) expect(row.hint).not.toBe(LOOP_HINT_GENERAL)
    expect(loopHint('something no row knows')).toBe(LOOP_HINT_GENERAL)
    expect(loopHint('2 indices play m; the needle has one (flattening adjacent dimensions: not yet)')).toContain('reshape')
    expect(loopHint('the value multiplies 3 factors (A[i, k], B[k, j], w[k]); the needle two')).toContain('`let` temporary')
  })
})
