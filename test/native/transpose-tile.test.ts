/**
 * Each vector ISA's tile transpose (the `transpose` of its f32 and f64 tables, functions of native/polykern_avx512.h
 * and polykern_avx2.h that emit/c-transpose.ts prints for a transposing copy's tiles), called as the tables print it:
 * every tile shape up to a 64-byte line each way, rows at odd strides and odd starts, against the transposed copy made
 * in JS, bit for bit (NaN payloads and signed zeros included), and nothing written outside the tile. ISAs this CPU
 * lacks are skipped, by name.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { ISAS } from '../../plugin/targets/index.ts'
import { instantiate, TRANSPOSE_TILE_BYTES } from '../../plugin/targets/vector-ops.ts'
import { runnableIsas } from '../support/cpu.ts'
import { rng } from '../support/random.ts'
import { loadRunAddon, RUN_EXPORT_TAIL } from '../support/test-addon.ts'


const TYPES = ISAS.flatMap(({ name, vectors }) =>
  vectors === undefined ? [] : (['f32', 'f64'] as const).map((dtype) => ({ isa: name, header: vectors.header, dtype, key: `${name}_${dtype}`, ops: vectors[dtype] })),
)

const SOURCE = [
  '#include <node_api.h>',
  '#include <string.h>',
  ...new Set(TYPES.map((t) => `#include "${t.header}"`)),
  '',
  '/* run(name, src, srcRowStride, dst, dstRowStride, rows, cols): the named transpose on the two arrays. */',
  'static napi_value run(napi_env env, napi_callback_info info) {',
  '  size_t argc = 7;',
  '  napi_value argv[7];',
  '  char name[64];',
  '  size_t len, n;',
  '  void *data[2];',
  '  int64_t v[4];',
  '  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);',
  '  napi_get_value_string_utf8(env, argv[0], name, sizeof name, &len);',
  '  napi_get_typedarray_info(env, argv[1], NULL, &n, &data[0], NULL, NULL);',
  '  napi_get_typedarray_info(env, argv[3], NULL, &n, &data[1], NULL, NULL);',
  '  napi_get_value_int64(env, argv[2], &v[0]);',
  '  for (int k = 0; k < 3; k++) napi_get_value_int64(env, argv[4 + k], &v[1 + k]);',
  ...TYPES.map((t) => {
    const call = instantiate(t.ops.transpose, { p: 'data[0]', s: 'v[0]', q: 'data[1]', t: 'v[1]', r: 'v[2]', w: 'v[3]' })
    return `  if (strcmp(name, "${t.key}") == 0) { ${call}; return NULL; }`
  }),
  ...RUN_EXPORT_TAIL,
].join('\n')

type Run = (name: string, src: Float32Array | Float64Array, ls: number, dst: Float32Array | Float64Array, ld: number, rows: number, cols: number) => void

describe("the vector ISAs' tile transposes", () => {
  let run: Run
  beforeAll(async () => {
    run = await loadRunAddon<Run>(SOURCE, 'transpose')
  })

  for (const t of TYPES) {
    const most = TRANSPOSE_TILE_BYTES / (t.dtype === 'f32' ? 4 : 8)
    it.runIf(runnableIsas.includes(t.isa))(`${t.dtype} (${t.isa}): every tile up to ${most} × ${most}, bit for bit, nothing outside it`, () => {
      const next = rng(most + t.isa.length)
      const [ls, ld, srcStart, dstStart] = [most + 3, most + 5, 1, 2]
      const make = (n: number) => (t.dtype === 'f32' ? new Float32Array(n) : new Float64Array(n))
      const src = make(srcStart + most * ls)
      const srcBits = new Uint32Array(src.buffer)
      for (let i = 0; i < srcBits.length; i++) srcBits[i] = Math.floor(next() * 2 ** 32)
      for (let rows = 1; rows <= most; rows++) {
        for (let cols = 1; cols <= most; cols++) {
          const dst = make(dstStart + most * ld + 7)
          const want = make(dst.length)
          const [dstBits, wantBits] = [new Uint32Array(dst.buffer), new Uint32Array(want.buffer)]
          dstBits.fill(0xdeadbeef)
          wantBits.fill(0xdeadbeef)
          const words = t.dtype === 'f32' ? 1 : 2
          for (let r = 0; r < rows; r++) {
            for (let c = 0; c < cols; c++) {
              for (let w = 0; w < words; w++) wantBits[(dstStart + c * ld + r) * words + w] = srcBits[(srcStart + r * ls + c) * words + w]
            }
          }
          run(t.key, src.subarray(srcStart), ls, dst.subarray(dstStart), ld, rows, cols)
          const wrong = wantBits.findIndex((b, i) => b !== dstBits[i])
          expect(wrong, `${rows} × ${cols}: word ${wrong} of the destination`).toBe(-1)
        }
      }
    })
  }
})
