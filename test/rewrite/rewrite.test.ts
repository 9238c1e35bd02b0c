import fs from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { TraceMap, originalPositionFor } from '@jridgewell/trace-mapping'
import { describe, expect, test } from 'vitest'
import type { CompiledKernel } from '../../plugin/compiled-kernel.ts'
import { lineColumn } from '../../plugin/diagnostics.ts'
import { findKernelSites } from '../../plugin/find/annotations.ts'
import type { Kernel } from '../../plugin/ir/nodes.ts'
import { isRewritten, rewriteModule } from '../../plugin/rewrite/rewrite.ts'
import type { RewriteInput } from '../../plugin/rewrite/rewrite.ts'
import type { KernelAbi } from '../../runtime/abi.ts'

const source = [
  "import { helper } from './helper.ts'",
  "import type { Thing } from './types.ts'",
  '',
  'export const before = 1',
  '',
  '/* @kernel',
  '   A: f32[M, K]',
  '   B: f32[K, N]',
  '   C: f32[M, N]',
  '   C[i, j] +=! A[i, k] * B[k, j]',
  '*/',
  'export function matmul(A: Float32Array, B: Float32Array, C: Float32Array, M: number, N: number, K: number): Float32Array {',
  '  C.fill(0) // the original body: a reference implementation nobody runs after the rewrite',
  '  return C',
  '}',
  '',
  'export const after = helper(2)',
  '',
  '/* @kernel',
  '   x: f32[N]',
  '   y: f32[N]',
  '   y[i] = x[i] * 2',
  '*/',
  'export const double = (x: Float32Array, y: Float32Array, N: number): Float32Array => {',
  '  return y',
  '}',
  '',
  'export function last() { return double }',
].join('\n')

const matmulAbi: KernelAbi = {
  name: 'matmul',
  loc: 'src/linalg.ts:6:1',
  params: [
    { kind: 'tensor', name: 'A', dtype: 'f32', shape: ['M', 'K'], role: 'in' },
    { kind: 'tensor', name: 'B', dtype: 'f32', shape: ['K', 'N'], role: 'in' },
    { kind: 'tensor', name: 'C', dtype: 'f32', shape: ['M', 'N'], role: 'out' },
    { kind: 'size', name: 'M' }, { kind: 'size', name: 'N' }, { kind: 'size', name: 'K' },
  ],
  returns: 2,
}
const doubleAbi: KernelAbi = {
  name: 'double',
  loc: 'src/linalg.ts:19:1',
  params: [
    { kind: 'tensor', name: 'x', dtype: 'f32', shape: ['N'], role: 'in' },
    { kind: 'tensor', name: 'y', dtype: 'f32', shape: ['N'], role: 'out' },
    { kind: 'size', name: 'N' },
  ],
  returns: 1,
}
// What the JS emitter would produce; written by hand here, the rewrite only splices it in.
const matmulJs = `function (A, B, C, M, N, K) {
  for (let i = 0; i < M; i++) for (let j = 0; j < N; j++) {
    let s = 0
    for (let k = 0; k < K; k++) s += A[i * K + k] * B[k * N + j]
    C[i * N + j] = s
  }
}`
const doubleJs = 'function (x, y, N) { for (let i = 0; i < N; i++) y[i] = x[i] * 2 }'

function inputFor(code: string, file = '/project/src/linalg.ts'): RewriteInput {
  const sites = findKernelSites(file, code)
  const compiled = (name: string, abi: KernelAbi, js: string): CompiledKernel =>
    ({ site: sites.find((s) => s.name === name)!, ir: {} as Kernel, abi, js, slow: [], splitSums: [], prefixScans: [] })
  return {
    file,
    code,
    moduleId: 'src/linalg.ts',
    kernels: [compiled('matmul', matmulAbi, matmulJs), compiled('double', doubleAbi, doubleJs)],
    addon: null,
    nativeReason: 'native: false',
    requires: [],
  }
}

describe('rewriteModule', () => {
  const out = rewriteModule(inputFor(source))

  test('signatures are kept byte for byte, an arrow becoming a function; the bodies forward every argument', () => {
    for (const site of findKernelSites('/project/src/linalg.ts', source)) {
      const original = source.slice(site.commentSpan.start, site.bodySpan.start + 1)
      // An arrow has no `arguments`: `(…): T => {` becomes `function (…): T {`.
      const signature = site.form === 'arrow' ? original.replace(/= \(/, '= function (').replace(' => {', ' {') : original
      expect(out.code).toContain(signature)
      const at = out.code.indexOf(signature) + signature.length
      expect(out.code.slice(at)).toMatch(new RegExp(`^\\n  return __polykern\\.${site.name}\\(\\.\\.\\.arguments\\)\\n\\}`))
    }
    expect(out.code).toContain('export const double = function (x: Float32Array, y: Float32Array, N: number): Float32Array {')
    expect(out.code).not.toContain('nobody runs')
    const untouched = ['export const before = 1', 'export const after = helper(2)', 'export function last() { return double }']
    for (const line of untouched) expect(out.code).toContain(line)
  })

  test('the runtime import comes first and the loader right after the last import', () => {
    const lines = out.code.split('\n')
    expect(lines[0]).toBe("import { loadKernels as __polykern_load } from 'polykern/runtime'")
    expect(lines[1]).toBe(source.split('\n')[0])
    expect(lines[2]).toBe(source.split('\n')[1])
    expect(lines[3]).toMatch(/^const __polykern = __polykern_load\(\{ module: "src\/linalg\.ts", addon: null, cachePath: null, reason: "native: false", base: /)
    expect(out.code.indexOf('const __polykern =')).toBeLessThan(out.code.indexOf('export const before'))
  })

  test('without imports the loader follows the runtime import; a #! line stays first', () => {
    const bare = source.split('\n').slice(2).join('\n')
    const code = `#!/usr/bin/env node\n${bare}`
    const lines = rewriteModule(inputFor(code)).code.split('\n')
    expect(lines[0]).toBe('#!/usr/bin/env node')
    expect(lines[1]).toMatch(/^import \{ loadKernels as __polykern_load \}/)
    expect(lines[2]).toMatch(/^const __polykern = __polykern_load\(/)
  })

  test('rewriting the output again changes nothing', () => {
    expect(isRewritten(source)).toBe(false)
    expect(isRewritten(out.code)).toBe(true)
    expect(rewriteModule(inputFor(out.code)).code).toBe(out.code)
  })

  test('a module without kernels is unchanged', () => {
    expect(rewriteModule({ ...inputFor(source), kernels: [] }).code).toBe(source)
  })

  test('the source map sends body and untouched positions back to their original lines', () => {
    const map = new TraceMap(out.map as never)
    expect(out.map.sources).toEqual(['/project/src/linalg.ts'])
    expect(out.map.sourcesContent).toEqual([source])
    const original = (needle: string, inSource = needle) => {
      const gen = lineColumn(out.code, out.code.indexOf(needle))
      const pos = originalPositionFor(map, { line: gen.line, column: gen.column })
      return [pos.line, lineColumn(source, source.indexOf(inSource)).line]
    }
    const [bodyLine, signatureLine] = original('return __polykern.matmul', 'export function matmul')
    expect(bodyLine).toBe(signatureLine)
    const [afterLine, afterExpected] = original('export const after')
    expect(afterLine).toBe(afterExpected)
    const [lastLine, lastExpected] = original('export function last')
    expect(lastLine).toBe(lastExpected)
  })

  test('the generated module evaluates and its kernels compute through the JS fallback', async () => {
    const dir = path.join(import.meta.dirname, '../.out/rewrite')
    fs.mkdirSync(dir, { recursive: true })
    fs.writeFileSync(path.join(dir, 'helper.ts'), 'export const helper = (x: number) => x + 1\n')
    fs.writeFileSync(path.join(dir, 'types.ts'), 'export type Thing = number\n')
    const runtime = path.relative(dir, path.join(import.meta.dirname, '../../runtime/index.ts'))
    const file = path.join(dir, `linalg-${process.pid}.ts`)
    fs.writeFileSync(file, out.code.replace("'polykern/runtime'", JSON.stringify(runtime)))
    const mod = await import(pathToFileURL(file).href).finally(() => fs.rmSync(file))
    expect(mod.after).toBe(3)
    expect(mod.last()).toBe(mod.double)

    const [M, N, K] = [3, 5, 7]
    const A = Float32Array.from({ length: M * K }, (_, i) => Math.sin(i))
    const B = Float32Array.from({ length: K * N }, (_, i) => Math.cos(i))
    const C = new Float32Array(M * N)
    expect(mod.matmul(A, B, C, M, N, K)).toBe(C)
    for (let i = 0; i < M; i++) {
      for (let j = 0; j < N; j++) {
        let s = 0
        for (let k = 0; k < K; k++) s += A[i * K + k] * B[k * N + j]
        expect(C[i * N + j]).toBeCloseTo(s, 5)
      }
    }
    const y = new Float32Array(4)
    expect(mod.double(Float32Array.of(1, 2, 3, 4), y, 4)).toBe(y)
    expect([...y]).toEqual([2, 4, 6, 8])
    expect(() => mod.double(new Float64Array(4), y, 4)).toThrow(/argument 'x' must be a Float32Array/)

    // The arrow kept its name; a wrong count of arguments is runtime_arg_count, sync and `.async`.
    expect(mod.double.name).toBe('double')
    expect(() => mod.double(Float32Array.of(1, 2, 3, 4), y, 4, 4)).toThrow(expect.objectContaining({ code: 'runtime_arg_count' }))
    expect(() => mod.matmul(A, B, C, M, N)).toThrow(expect.objectContaining({ code: 'runtime_arg_count' }))

    // `.async` on both forms (a hoisted declaration, a const arrow), forwarding every argument.
    const z = new Float32Array(4)
    expect(await mod.double.async(Float32Array.of(1, 2, 3, 4), z, 4)).toBe(z)
    expect([...z]).toEqual([2, 4, 6, 8])
    expect(await mod.matmul.async(A, B, new Float32Array(M * N), M, N, K)).toEqual(C)
    await expect(mod.double.async(new Float64Array(4), z, 4)).rejects.toThrow(/argument 'x' must be a Float32Array/)
    await expect(mod.double.async(Float32Array.of(1), z)).rejects.toMatchObject({ code: 'runtime_arg_count' })
    await expect(mod.matmul.async(A, B, C, M, N, K, 1)).rejects.toMatchObject({ code: 'runtime_arg_count' })
  })

  test('.async, bind and the kernel symbol are set with the loader for hoisted declarations, after the statement for const forms', () => {
    const loaderEnd = out.code.indexOf('\n', out.code.indexOf('Object.defineProperties(matmul, {'))
    expect(out.code.indexOf('Object.defineProperties(matmul, {')).toBeLessThan(out.code.indexOf('export const before'))
    expect(loaderEnd).toBeGreaterThan(0)
    const doubleAt = out.code.indexOf('Object.defineProperties(double, {')
    expect(doubleAt).toBeGreaterThan(out.code.indexOf('export const double'))
    expect(out.code.slice(doubleAt).split('\n')[0]).toBe(
      'Object.defineProperties(double, { async: { value: (...args) => __polykern.double.async(...args), configurable: true }, ' +
        "bind: { value: __polykern.double.bind, configurable: true }, [Symbol.for('polykern.kernel')]: { value: __polykern.double } });")
  })
})

describe('arrow kernels', () => {
  const fill = (code: string) => {
    const file = '/project/src/fill.ts'
    const [site] = findKernelSites(file, code)
    const abi: KernelAbi = { ...doubleAbi, name: 'fill', params: [{ kind: 'tensor', name: 'y', dtype: 'f32', shape: [4], role: 'out' }], returns: 0 }
    const kernels = [{ site, ir: {} as Kernel, abi, js: 'function (y) { y.fill(1) }', slow: [], splitSums: [], prefixScans: [] }]
    return rewriteModule({ file, code, moduleId: 'src/fill.ts', kernels, addon: null, nativeReason: 'native: false', requires: [] }).code
  }
  const spec = '/* @kernel\n   y: f32[4]\n   y[i] = 1\n*/\n'

  test('a parameter without parentheses gets them', () => {
    expect(fill(`${spec}export const fill = y => {\n  return y\n}\n`)).toContain('export const fill = function (y) {\n  return __polykern.fill(...arguments)\n}')
  })

  test('a parenthesized arrow and its return type', () => {
    expect(fill(`${spec}export const fill = ((y: Float32Array): Float32Array=>{ return y })\n`))
      .toContain('export const fill = (function (y: Float32Array): Float32Array{\n  return __polykern.fill(...arguments)\n})')
  })
})
