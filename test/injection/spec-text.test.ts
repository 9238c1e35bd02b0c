/**
 * Spec text can only produce what the grammar allows: quotes, `$(...)`, backticks, C preprocessor lines, calls to
 * anything but the built-ins, and non-ASCII end in a located diagnostic, never in emitted code. And what the user
 * writes reaches C only as generated identifiers or escaped string literals.
 */
import path from 'node:path'
import { expect, test } from 'vitest'
import { KernelDiagnostic } from '../../plugin/diagnostics.ts'
import { emitAddonSource } from '../../plugin/emit/napi.ts'
import { findKernelSites } from '../../plugin/find/annotations.ts'
import { resolveOptions } from '../../plugin/options.ts'
import { compileKernel } from '../../plugin/pipeline.ts'
import { checkSpec } from '../../plugin/spec/check.ts'
import { parseSpec } from '../../plugin/spec/parser.ts'

const FILE = path.join(import.meta.dirname, 'virtual.ts')
const module = (name: string, spec: string) =>
  `/* @kernel\n   x: f32[N]\n   y: f32[N]\n${spec}\n*/\nexport function ${name}(x, y, N) {}\n`

const HOSTILE = [
  'y[i] = x[i] + "1"',
  "y[i] = x[i] + '$(touch /tmp/pwned)'",
  'y[i] = `rm -rf /` + x[i]',
  'y[i] = $(x[i])',
  '#include "/etc/passwd"\ny[i] = x[i]',
  'y[i] = system(x[i])',
  'y[i] = x[i]; } int main() { return 0; } void f() {',
  'y[i] = x[i] \\\n + 1',
  'y[i] = x[i] ??/\n + 1',
  'y[é] = x[é]',
  'y[i] = x[i] + 𝛼',
  'y[i] = x[i]\u0000',
  'y[i] = __asm__(x[i])',
  'y[i] = x[i] + 1e400',
  'y[i] = x[i] + 0x10',
]

test.each(HOSTILE)('%j ends in a located diagnostic', (spec) => {
  const code = module('k', spec)
  const site = findKernelSites(FILE, code)[0]
  let error: unknown
  try {
    checkSpec(parseSpec(site.specText, site.specStart, FILE), site)
  } catch (e) {
    error = e
  }
  expect(error).toBeInstanceOf(KernelDiagnostic)
  const d = error as KernelDiagnostic
  expect(d.code).toMatch(/^spec_/)
  expect(d.span!.start).toBeGreaterThanOrEqual(site.specStart)
  expect(d.span!.end).toBeLessThanOrEqual(site.specStart + site.specText.length)
})

test('a `*​/` in the spec ends the comment: the rest is not a spec, and the finder says so', () => {
  const code = module('k', '   y[i] = x[i] /* c comment */ + 1')
  expect(() => findKernelSites(FILE, code)).toThrow(expect.objectContaining({ code: 'find_unattached' }))
})

test('user text reaches C only as generated identifiers and escaped string literals', () => {
  const name = 'ñ$_"x"'.replace(/"/g, '') // a valid identifier with non-ASCII and `$`
  const code = module(name, '   y[int] = x[int] * 2')
  const site = findKernelSites(FILE, code)[0]
  const k = compileKernel(site, code, resolveOptions({ root: import.meta.dirname, native: false }))
  const files = emitAddonSource([{ kernel: k.ir, abi: k.abi, symbol: 'kc_0_x' }], { moduleId: 'm.ts' })
  const source = files.map((f) => f.text).join('\n')
  // The function name only as an octal-escaped string (its export name and messages), never as C.
  expect(source).not.toContain(name)
  expect(source).toContain('"\\303\\261$_x"')
  // The index `int` is renamed: no `int` declared as a variable.
  expect(source).not.toMatch(/int64_t int\b|\bint =/)
})
