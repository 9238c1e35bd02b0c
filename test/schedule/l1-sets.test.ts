/**
 * Rows of an operand read in place sharing L1 sets: the model's test (schedule/l1-sets.ts) on strides whose answer
 * is worked out by hand, and the call-time guard's (native pk_rows_share_sets) against it on a grid of strides.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { L1_SET_SPAN, rowsShareSets } from '../../plugin/schedule/l1-sets.ts'

const nativeDir = path.resolve(import.meta.dirname, '../../native')
const work = mkdtempSync(path.join(os.tmpdir(), 'polykern-l1-sets-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

describe('rowsShareSets', () => {
  it('rows a page apart fall in the same sets; a line further apart they spread', () => {
    // 4 lines a row (a 64-float tile row): 9 rows a page apart put 9 lines in each of 4 sets.
    expect(rowsShareSets(8, 4 * 4096, 4)).toBe(false)
    expect(rowsShareSets(9, 4 * 4096, 4)).toBe(true)
    expect(rowsShareSets(64, 4096 * 4 + 64, 4)).toBe(false)
    // Half a page: two groups of sets, 8 rows each at 16 rows, 16 at 32.
    expect(rowsShareSets(16, 2048, 4)).toBe(false)
    expect(rowsShareSets(32, 2048, 4)).toBe(true)
    // 160,000 bytes (N = 40,000 floats) is 256 past a multiple of a page: 16 starts 4 lines apart cover every set.
    expect(rowsShareSets(32, 160_000, 4)).toBe(false)
    // A row as long as the page covers all 64 sets once: 8 rows of it fill each set's ways, 9 overflow.
    expect(rowsShareSets(8, 8192, 64)).toBe(false)
    expect(rowsShareSets(9, 8192, 64)).toBe(true)
  })

  it('is native pk_rows_share_sets, which the call-time guard asks', () => {
    const cases: [number, number, number][] = []
    for (const stride of [0, 64, 256, 1024, 1060, 2048, 3072, 4096, 4160, 16_448, 33_828, 160_000, L1_SET_SPAN * 7 + 192])
      for (const rows of [1, 8, 9, 16, 32, 64])
        for (const lines of [1, 3, 4, 16]) cases.push([stride, rows, lines])
    const file = path.join(work, 'sets.c')
    const exe = path.join(work, 'sets')
    writeFileSync(file, [
      '#include <stdio.h>',
      '#include "polykern_simd.h"',
      `static const long long cases[][3] = {${cases.map((c) => `{${c.join(', ')}}`).join(', ')}};`,
      'int main(void) {',
      `  for (int i = 0; i < ${cases.length}; i++) printf("%d", pk_rows_share_sets(cases[i][0], cases[i][1], cases[i][2]));`,
      '  return 0;',
      '}',
    ].join('\n'))
    execFileSync('gcc', ['-O2', '-std=gnu11', '-D_GNU_SOURCE', '-I', nativeDir, file, '-o', exe, '-lpthread'])
    const native = execFileSync(exe, { encoding: 'utf8' })
    expect(native).toBe(cases.map(([stride, rows, lines]) => (rowsShareSets(rows, stride, lines) ? '1' : '0')).join(''))
    expect(native).toContain('1')
    expect(native).toContain('0')
  })
})
