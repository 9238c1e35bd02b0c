/**
 * compileModule with a kernel memo, as the plugin calls it on every rebuild: unchanged specs skip the passes (and say
 * so in the progress lines), moved kernels get their new offsets, and the output equals a compile from scratch.
 */
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, test } from 'vitest'
import { KernelDiagnostic } from '../../plugin/diagnostics.ts'
import { createKernelMemo } from '../../plugin/kernel-memo.ts'
import { resolveOptions } from '../../plugin/options.ts'
import { compileModule } from '../../plugin/pipeline.ts'

const root = path.join(import.meta.dirname, 'fixture')
const file = path.join(root, 'src/kernels.ts')
const SOURCE = fs.readFileSync(file, 'utf8')
const opts = resolveOptions({ root, native: false })

/** compileModule with `memo`, and the progress lines it printed. */
async function compile(code: string, memo = createKernelMemo()) {
  const lines: string[] = []
  const compiled = (await compileModule(file, code, opts, (m) => lines.push(m), memo))!
  return { compiled, lines }
}

const edit = (from: string, to: string) => {
  expect(SOURCE.split(from)).toHaveLength(2)
  return SOURCE.replace(from, to)
}

describe('a kernel memo', () => {
  test('the same module again: every kernel unchanged, the same IR objects, no passes run', async () => {
    const memo = createKernelMemo()
    const first = await compile(SOURCE, memo)
    expect(first.lines).toEqual([
      expect.stringMatching(/^kernel 1 of 2 \(scale\) compiled in /),
      expect.stringMatching(/^kernel 2 of 2 \(rowSums\) compiled in /),
    ])
    const second = await compile(SOURCE, memo)
    expect(second.lines).toEqual(['kernel 1 of 2 (scale) unchanged', 'kernel 2 of 2 (rowSums) unchanged'])
    expect(second.compiled.kernels.map((k) => k.ir)).toEqual(first.compiled.kernels.map((k) => k.ir))
    expect(second.compiled.kernels[1].ir).toBe(first.compiled.kernels[1].ir)
    expect(second.compiled.code).toBe(first.compiled.code)
  })

  test('a longer body above a kernel moves it: reused at its new offsets, output as from scratch', async () => {
    const memo = createKernelMemo()
    await compile(SOURCE, memo)
    const scaleBody = '  throw new Error(`unreachable after polykern: ${[x, y, N].length}`)\n'
    const moved = edit(scaleBody, `  // two more\n  // lines\n${scaleBody}`)
    const again = await compile(moved, memo)
    expect(again.lines).toEqual(['kernel 1 of 2 (scale) unchanged', 'kernel 2 of 2 (rowSums) unchanged'])
    const fresh = await compile(moved)
    expect(again.compiled.code).toBe(fresh.compiled.code)
    expect(again.compiled.kernels[1].abi.loc).toBe('src/kernels.ts:14:1')
  })

  test('a spec edit recompiles that kernel only', async () => {
    const memo = createKernelMemo()
    await compile(SOURCE, memo)
    const edited = await compile(edit('s[i] +=! X[i, j]', 's[i] +=! X[i, j] * X[i, j]'), memo)
    expect(edited.lines).toEqual(['kernel 1 of 2 (scale) unchanged', expect.stringMatching(/^kernel 2 of 2 \(rowSums\) compiled in /)])
    expect(edited.compiled.kernels[1].js).toContain('*')
  })

  test('a spec error in between keeps the last good version', async () => {
    const memo = createKernelMemo()
    await compile(SOURCE, memo)
    await expect(compile(edit('s[i] +=! X[i, j]', 's[i] +=! W[i, j]'), memo)).rejects.toBeInstanceOf(KernelDiagnostic)
    expect((await compile(SOURCE, memo)).lines).toEqual(['kernel 1 of 2 (scale) unchanged', 'kernel 2 of 2 (rowSums) unchanged'])
  })

  test('other options recompile: the memo is keyed by them too', async () => {
    const memo = createKernelMemo()
    await compile(SOURCE, memo)
    const lines: string[] = []
    await compileModule(file, SOURCE, resolveOptions({ root, native: false, threads: 2 }), (m) => lines.push(m), memo)
    expect(lines).toEqual([expect.stringMatching(/\(scale\) compiled in /), expect.stringMatching(/\(rowSums\) compiled in /)])
  })
})
