/**
 * The gathering packs of gathered contractions (plugin/emit/c-pack.ts), compiled alone with each microkernel's ISA
 * and run against a plain element-by-element gather on offset tables of the layouts the role orders make: runs,
 * lone elements, and tiled orders whose columns step along the operand's stride-1 index group by group (the
 * transpose across panels), with ragged blocks, short steps and a block cut by the end of the range; each with k
 * apart and k in runs of adjacent steps (the transposes along k, for A's narrow panels as for B's); A's also scaled. Differences in
 * which path a panel takes are invisible here by construction: every layout must give the plain gather's panels.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { emitGatherA, emitGatherB, emitScaledGatherA, gatherASymbol, gatherBSymbol, scaledGatherASymbol } from '../../plugin/emit/c-pack.ts'
import { ISAS } from '../../plugin/targets/index.ts'
import { cpuRuns } from '../support/cpu.ts'

const nativeDir = path.resolve(import.meta.dirname, '../../native')
const work = mkdtempSync(path.join(os.tmpdir(), 'polykern-gather-test-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

/** Column offsets: `groups` blocks of `group` columns of a far index at each of `steps` values of a near one. */
function tiled(blocks: readonly { group: number; steps: number }[], far: number): number[] {
  const o: number[] = []
  let base = 0
  for (const { group, steps } of blocks) {
    for (let j = 0; j < steps; j++) for (let i = 0; i < group; i++) o.push(base + i * far + j)
    base += group * far + 7919
  }
  return o
}

const LAYOUTS: Readonly<Record<string, number[]>> = {
  // 56 = 16 + 16 + 16 + 8 of C's index (the last block ragged) at 56 values of the operand's own.
  'tiled, ragged': tiled([{ group: 16, steps: 56 }, { group: 16, steps: 56 }, { group: 16, steps: 56 }, { group: 8, steps: 56 }], 3001),
  'tiled, short steps': tiled([{ group: 16, steps: 7 }, { group: 16, steps: 20 }, { group: 32, steps: 16 }], 1009),
  // The same with one element elsewhere: its block must not take the transpose.
  'tiled, one column apart': tiled([{ group: 16, steps: 40 }], 3001).map((o, x) => (x === 16 * 3 + 5 ? o + 50000 : o)),
  // C's stride-1 index innermost (runs of 24 = 16 + 8 rows, 12, 40 = 16 + 16 + 8), the operand's next: full and
  // partial runs of its steps.
  'runs of 24 along the operand': tiled([{ group: 24, steps: 24 }, { group: 24, steps: 21 }], 3001),
  'runs of 12 and 40 along the operand': tiled([{ group: 12, steps: 16 }, { group: 40, steps: 10 }, { group: 12, steps: 12 }], 1009),
  'runs of 24': Array.from({ length: 240 }, (_, x) => Math.floor(x / 24) * 1000 + (x % 24)),
  'lone elements': Array.from({ length: 200 }, (_, x) => ((x * 37) % 200) * 53),
}

/**
 * Offsets of k: no two steps adjacent; runs of 16 adjacent steps (a tiled order's blocks of the operand's stride-1
 * index, or that index innermost) that start 5 steps into a run, as a driver's k block of 507 does (the transposes
 * along k take a block wherever it starts); and the operand's stride-1 index walked outside other steps (its
 * consecutive elements a fixed number of steps apart).
 */
const K_LAYOUTS: Readonly<Record<string, number[]>> = {
  'k apart': Array.from({ length: 19 }, (_, p) => (p * 20011) % 150000),
  'k in blocks of 16 from step 5': Array.from({ length: 45 }, (_, p) => Math.floor((p + 5) / 16) * 5003 + ((p + 5) % 16)),
  'k along the rows': Array.from({ length: 37 }, (_, p) => p),
  // A tiled order: the operand's stride-1 index c (20 = 16 + 4) between the blocks of another, d (21 = 16 + 5), and
  // the positions within them; c's steps are a block's width apart (transposes at that stride), the last c's and d's
  // partial.
  'k tiled across the stride-1 index': [0, 1].flatMap((block) => Array.from({ length: 20 }, (_, c) =>
    Array.from({ length: block === 0 ? 16 : 5 }, (_, d) => c + (block * 16 + d) * 5003)).flat()),
  // The operand's stride-1 index outside another of 3: its steps 3 apart, 40 = 16 + 16 + 8 of them.
  'k with the stride-1 index outside 3 steps': Array.from({ length: 120 }, (_, p) => Math.floor(p / 3) + (p % 3) * 7001),
}

describe.each(ISAS.filter((isa) => isa.microkernels.length > 0))('gathers on $name', (isa) => {
  const runs = cpuRuns(isa)
  // Compiled for every ISA; run where the CPU has it (the title says why not).
  const why = runs ? '' : ` (skipped: this CPU lacks ${isa.cpuFeatures.join(', ')})`
  for (const mk of isa.microkernels) {
    it(`${mk.name}: every layout, at lengths cutting panels and blocks, = the plain gather${why}`, (ctx) => {
      const t = mk.dtype === 'f32' ? 'float' : 'double'
      const cases = Object.entries(LAYOUTS).flatMap(([name, o]) =>
        [o.length, o.length - 5, 50].map((len) => ({ name, o: o.slice(0, len) })))
      const source = [
        `#include "${isa.vectors!.header}"`,
        '#include "polykern_simd.h"',
        '#include <stdio.h>',
        emitGatherA(mk),
        emitGatherB(mk),
        emitScaledGatherA(mk),
        // A's gather times alpha (a constant factor of the product), checked through check's unscaled signature.
        `static void scaled_a(int64_t len, int64_t kb, const ${t} *restrict src, const int64_t *restrict o_len, const int64_t *restrict o_k, ${t} *restrict out) {`,
        `  ${scaledGatherASymbol(mk)}(len, kb, src, o_len, o_k, out, 2);`,
        '}',
        `static int check(const char *name, int64_t len, const int64_t *o_len, int64_t kb, const int64_t *o_k, int w, ${t} alpha,`,
        `    void (*gather)(int64_t, int64_t, const ${t} *restrict, const int64_t *restrict, const int64_t *restrict, ${t} *restrict)) {`,
        '  const int64_t size = 400000;',
        `  ${t} *src = malloc(size * sizeof(${t}));`,
        `  const int64_t panels = (len + w - 1) / w;`,
        `  ${t} *got = aligned_alloc(64, (panels * w * kb + 16) * sizeof(${t}));`,
        '  for (int64_t i = 0; i < size; i++) src[i] = (i * 7919) % 1000003 + 1;',
        '  for (int64_t i = 0; i < panels * w * kb; i++) got[i] = -1;',
        '  gather(len, kb, src, o_len, o_k, got);',
        '  int bad = 0;',
        '  for (int64_t x = 0; x < panels * w && !bad; x++)',
        '    for (int64_t p = 0; p < kb && !bad; p++) {',
        `      const ${t} want = x < len ? alpha*src[o_len[x] + o_k[p]] : 0, have = got[(x / w) * w * kb + p * w + x % w];`,
        '      if (want != have) bad = printf("%s len %ld: column %ld k %ld: %g, want %g\\n", name, (long)len, (long)x, (long)p, (double)have, (double)want);',
        '    }',
        '  free(src);',
        '  free(got);',
        '  return bad != 0;',
        '}',
        'int main(void) {',
        '  int bad = 0;',
        ...Object.entries(K_LAYOUTS).map(([, o], n) => `  static const int64_t k${n}[] = {${o.join(', ')}};`),
        ...cases.flatMap(({ name, o }, n) => [
          `  static const int64_t o${n}[] = {${o.join(', ')}};`,
          ...Object.entries(K_LAYOUTS).flatMap(([kName, k], kn) => [
            `  bad |= check("${name}, ${kName}", ${o.length}, o${n}, ${k.length}, k${kn}, ${mk.mr}, 1, ${gatherASymbol(mk)});`,
            `  bad |= check("${name}, ${kName}, alpha 2", ${o.length}, o${n}, ${k.length}, k${kn}, ${mk.mr}, 2, scaled_a);`,
            `  bad |= check("${name}, ${kName}", ${o.length}, o${n}, ${k.length}, k${kn}, ${mk.nr}, 1, ${gatherBSymbol(mk)});`,
          ]),
        ]),
        '  return bad;',
        '}',
      ].join('\n')
      const file = path.join(work, `${mk.name}.c`)
      const exe = path.join(work, mk.name)
      writeFileSync(file, source)
      const flags = isa.gccTarget.split(',').filter((f) => f !== '').map((f) => `-m${f}`)
      // _GNU_SOURCE as binding.gyp defines it: polykern_pool.h reads the process's CPU affinity.
      execFileSync('gcc', ['-O2', '-std=gnu11', '-D_GNU_SOURCE', ...flags, '-I', nativeDir, file, '-o', exe, '-lpthread'])
      if (!runs) return ctx.skip()
      let output = ''
      try {
        output = execFileSync(exe, { encoding: 'utf8' })
      } catch (e) {
        output = String((e as { stdout?: string }).stdout ?? e)
      }
      expect(output).toBe('')
    })
  }
})
