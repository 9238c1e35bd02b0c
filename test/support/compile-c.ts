/**
 * C compiled as the addon compiles it, to an object and thrown away, or linked into a program and run (native/'s
 * decisions checked on descriptors a test writes, the pool's functions stubbed): binding.gyp's cflags and defines, the
 * Node headers (node-gyp's --nodedir, addon/toolchain.ts), native/ on the include path, and -Wall -Wextra
 * -Wpointer-arith -Werror, so the optimizer's warnings and unused static functions (-O3 from binding.gyp) count.
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
]

/** A directory for the calling test file's sources, removed after its tests. */
function workDir(): string {
  const work = mkdtempSync(path.join(os.tmpdir(), 'polykern-compile-c-'))
  afterAll(() => rmSync(work, { recursive: true, force: true }))
  return work
}

/** A compiler for the calling test file. */
export function cCompiler(): (name: string, source: string, flags?: readonly string[]) => Promise<string> {
  const work = workDir()
  /** gcc's diagnostics for `source`, '' when it compiles clean. */
  return async (name, source, flags = []) => {
    const file = path.join(work, `${name}.c`)
    writeFileSync(file, source)
    try {
      await promisify(execFile)('gcc', [...FLAGS, ...flags, '-c', '-o', '/dev/null', file])
      return ''
    } catch (e) {
      return String((e as { stderr?: string }).stderr ?? e)
    }
  }
}

/** A program runner for the calling test file: `source` compiled and linked (gcc's diagnostics thrown), then run. */
export function cRunner(): (name: string, source: string) => Promise<string> {
  const work = workDir()
  /** The program's standard output. */
  return async (name, source) => {
    const [file, program] = [path.join(work, `${name}.c`), path.join(work, name)]
    writeFileSync(file, source)
    await promisify(execFile)('gcc', [...FLAGS, '-o', program, file]).catch((e: { stderr?: string }) => {
      throw new Error(`${name}.c did not compile:\n${e.stderr ?? e}`)
    })
    return (await promisify(execFile)(program)).stdout
  }
}

/** gcc's -m flags for a GCC target string (`Isa.gccTarget`): 'avx2,fma' is -mavx2 -mfma. */
export const targetFlags = (gccTarget: string): string[] => gccTarget.split(',').map((f) => `-m${f}`)
