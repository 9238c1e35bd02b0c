/**
 * C compiled as the addon compiles it, to an object and thrown away: binding.gyp's cflags and defines, the Node
 * headers (node-gyp's --nodedir, addon/toolchain.ts), native/ on the include path, and -Wall -Wextra -Wpointer-arith
 * -Werror, so the optimizer's warnings and unused static functions (-O3 from binding.gyp) count.
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll } from 'vitest'
import { nodePrefix } from '../../plugin/addon/toolchain.ts'

const ROOT = path.resolve(import.meta.dirname, '../..')
export const NATIVE = path.join(ROOT, 'native')

/** A list of binding.gyp's target, e.g. `'cflags': ['-O3', ...]`. */
function gypList(key: string): string[] {
  const gyp = readFileSync(path.join(ROOT, 'binding.gyp'), 'utf8')
  const list = new RegExp(`'${key}':\\s*\\[([^\\]]*)\\]`).exec(gyp)
  if (list === null) throw new Error(`binding.gyp has no '${key}'`)
  return [...list[1].matchAll(/'([^']*)'/g)].map((m) => m[1])
}

const FLAGS = [
  ...gypList('cflags'),
  ...gypList('defines').map((d) => `-D${d}`),
  '-I', path.join(nodePrefix(), 'include', 'node'),
  '-I', NATIVE,
  // -Wpointer-arith: arithmetic on a `const void *` (a descriptor's tensor) counts bytes, not elements.
  '-Wall', '-Wextra', '-Wpointer-arith', '-Werror',
  '-c', '-o', '/dev/null',
]

/** A compiler for the calling test file: its sources go to a directory removed after the file's tests. */
export function cCompiler(): (name: string, source: string, flags?: readonly string[]) => Promise<string> {
  const work = mkdtempSync(path.join(os.tmpdir(), 'polykern-compile-c-'))
  afterAll(() => rmSync(work, { recursive: true, force: true }))
  /** gcc's diagnostics for `source`, '' when it compiles clean. */
  return async (name, source, flags = []) => {
    const file = path.join(work, `${name}.c`)
    writeFileSync(file, source)
    try {
      await promisify(execFile)('gcc', [...FLAGS, ...flags, file])
      return ''
    } catch (e) {
      return String((e as { stderr?: string }).stderr ?? e)
    }
  }
}

/** gcc's -m flags for a GCC target string (`Isa.gccTarget`): 'avx2,fma' is -mavx2 -mfma. */
export const targetFlags = (gccTarget: string): string[] => gccTarget.split(',').map((f) => `-m${f}`)
