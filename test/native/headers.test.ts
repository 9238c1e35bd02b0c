/**
 * Every header in native/ compiles on its own, `#include`d in an otherwise empty C file, with gcc -Wall -Wextra
 * -Werror and the addon's own flags (binding.gyp's defines and cflags): as polykern.c includes it, and as an ISA's
 * file does (PK_RUNTIME_EXTERN). A header that needs another includes it itself. A header without an include guard
 * is a template, included once per microkernel: it compiles instantiated as TEMPLATES says, for f32 and f64 in one
 * file (so it must undefine its parameters), at every ISA that has microkernels.
 */
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ISAS } from '../../plugin/targets/index.ts'
import { cCompiler, NATIVE, targetFlags } from '../support/compile-c.ts'

const compile = cCompiler()

/** A pointer to the static function `fn`, so that it is used. */
const used = (fn: string): string => `__typeof__(${fn}) *${fn}_used = ${fn};`

/** polykern_gemm_run.h instantiated for element type t, with its function `fn` used. */
function gemmRun(t: 'float' | 'double', fn: string): string {
  return ['#include "polykern_simd.h"', `#define PK_GEMM(name) check_${t}_##name`, `#define PK_GEMM_T ${t}`,
    `#define PK_GEMM_DESC check_${t}`, '#include "polykern_gemm_run.h"', used(`check_${t}_${fn}`)].join('\n')
}

/**
 * A template's instantiation for one element type, as the emitter writes it (emit/c-conv-driver.ts, c-pack.ts), on
 * declared tile and pack functions, then a use of what it defines (a static function nothing uses is a warning).
 */
const TEMPLATES: Readonly<Record<string, (t: 'float' | 'double') => string>> = {
  // Whole, and direct-only (no in-place or channels-first tile, no pack of A).
  'polykern_conv_driver.h': (t) => {
    const operands = `const ${t} *restrict a, int64_t lda, const ${t} *restrict b, int64_t ldb, ${t} *restrict c`
    return [
      '#include <stdint.h>',
      `void check_${t}_tile(int64_t kb, ${operands}, int64_t ldc, int64_t rows, int64_t cols, int store);`,
      // The packed filter's tiles take k in runs (groupedK): two more parameters.
      `void check_${t}_runs_tile(int64_t kb, int64_t groups, int64_t ga, ${operands}, int64_t ldc, int64_t rows, int64_t cols, int store);`,
      `void check_${t}_pack_a(int64_t len, int64_t kb, const ${t} *restrict src, int64_t s_len, int64_t s_k, ${t} *restrict out);`,
      ...(['whole', 'direct'] as const).flatMap((form) => [
        `#define PK_CONV(name) check_${t}_${form}_##name`,
        `#define PK_CONV_T ${t}`,
        `#define PK_CONV_MR ${t === 'float' ? 8 : 4}`,
        `#define PK_CONV_NR ${t === 'float' ? 48 : 24}`,
        '#define PK_CONV_TILE check_' + t + '_runs_tile',
        // Its tiles' cost table (tileCostTable): heights × widths in vectors of cycles.
        `#define PK_CONV_LANES ${t === 'float' ? 16 : 8}`,
        `#define PK_CONV_HEIGHTS {${t === 'float' ? 8 : 4}, 4, 2, 1}`,
        ...['PK_CONV_STEP_CYCLES', 'PK_CONV_CALL_CYCLES'].map((m) => `#define ${m} {${Array(12).fill(1).join(', ')}}`),
        ...(form === 'direct' ? ['#define PK_CONV_DIRECT_ONLY'] : [
          ...['PK_CONV_TILE_IN_PLACE', 'PK_CONV_TILE_FIRST'].map((m) => `#define ${m} check_${t}_tile`),
          `#define PK_CONV_PACK_A check_${t}_pack_a`,
        ]),
        '#include "polykern_conv_driver.h"',
        used(`check_${t}_${form}_run`),
        ...(form === 'whole' ? [used(`check_${t}_${form}_im2col_cycles`)] : []),
      ]),
    ].join('\n')
  },
  'polykern_pack.h': (t) =>
    [0, 1].map((scaled) => [
      `#define PK_PACK check_${t}_pack_${scaled}`,
      `#define PK_PACK_T ${t}`,
      '#define PK_PACK_W 8',
      `#define PK_PACK_SCALED ${scaled}`,
      '#include "polykern_pack.h"',
      used(`check_${t}_pack_${scaled}`),
    ].join('\n')).join('\n'),
  'polykern_gemm_run.h': (t) => gemmRun(t, 'run'),
  // Included by polykern_gemm_run.h, under its parameters.
  'polykern_gemm_member.h': (t) => gemmRun(t, 'drive'),
  'polykern_gather_weighted.h': (t) =>
    [`#define PK_PACK check_${t}_weighted`, `#define PK_PACK_T ${t}`, '#define PK_PACK_W 16', '#include "polykern_gather_weighted.h"',
      used(`check_${t}_weighted`)].join('\n'),
}

const headers = readdirSync(NATIVE).filter((f) => f.endsWith('.h')).sort()
const guarded = (name: string): boolean => /^#ifndef (\w+)\n#define \1$/m.test(readFileSync(path.join(NATIVE, name), 'utf8'))

describe('native headers compile standalone', () => {
  it('finds the headers, each guarded or a template', () => {
    expect(headers).toContain('polykern_simd.h')
    expect(headers.filter((h) => !guarded(h))).toEqual(Object.keys(TEMPLATES).sort())
  })
  for (const header of headers.filter(guarded)) {
    for (const extern of [false, true]) {
      it(`${header}${extern ? ' (PK_RUNTIME_EXTERN)' : ''}`, async () => {
        const name = `${header.replace('.h', '')}${extern ? '-extern' : ''}`
        expect(await compile(name, `#include "${header}"\n`, extern ? ['-DPK_RUNTIME_EXTERN'] : [])).toBe('')
      })
    }
  }
  for (const [header, instantiate] of Object.entries(TEMPLATES)) {
    for (const isa of ISAS.filter((i) => i.microkernels.length > 0)) {
      it(`${header} instantiated on ${isa.name}`, async () => {
        const source = [instantiate('float'), instantiate('double'), ''].join('\n')
        expect(await compile(`${header.replace('.h', '')}-${isa.name}`, source, targetFlags(isa.gccTarget))).toBe('')
      })
    }
  }
})
