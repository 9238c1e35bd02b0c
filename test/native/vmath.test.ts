/**
 * Each vector ISA's math (native/polykern_avx512.h, polykern_avx2.h...) against JavaScript's Math, in ulps: exp, log,
 * tanh and sigmoid for f32 and f64, called through the ISA's vector tables as the emitter prints them, on random
 * inputs over the useful ranges, random bit patterns (denormals, NaN, Inf, huge values) and the edge cases listed
 * below; max and min bit for bit (NaN propagation, +0 > -0). A test addon applies each function to whole vectors of a
 * typed array.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { sigmoid } from '../../plugin/ir/interp.ts'
import { ISAS } from '../../plugin/targets/index.ts'
import { instantiate } from '../../plugin/targets/vector-ops.ts'
import { runnableIsas } from '../support/cpu.ts'
import { rng } from '../support/random.ts'
import { loadRunAddon, RUN_EXPORT_TAIL } from '../support/test-addon.ts'
import { MAX_ULPS, ulps } from '../support/ulps.ts'


/** Every vector ISA's two tables; `key` names its functions in the test addon. */
const TYPES = ISAS.flatMap(({ name, gccTarget, vectors }) =>
  vectors === undefined
    ? []
    : (['f32', 'f64'] as const).map((dtype) => ({
        isa: name, target: gccTarget, header: vectors.header, dtype, ops: vectors[dtype], key: `${name}_${dtype}`,
      })),
)
const UNARY = ['exp', 'log', 'tanh', 'sigmoid'] as const
const BINARY = ['max', 'min'] as const

const SOURCE = [
  '#include <node_api.h>',
  '#include <string.h>',
  ...new Set(TYPES.map((t) => `#include "${t.header}"`)),
  '',
  'typedef void (*apply_fn)(const void *x, const void *y, void *out, int64_t n);',
  ...TYPES.flatMap((t) =>
    [...UNARY, ...BINARY].map((fn) => {
      const [a, b] = ['x + i', 'y + i'].map((p) => instantiate(t.ops.load, { p }))
      const value = fn === 'max' || fn === 'min' ? instantiate(t.ops[fn], { a, b }) : instantiate(t.ops.math[fn], { a })
      const c = t.dtype === 'f32' ? 'float' : 'double'
      return [
        `__attribute__((target("${t.target}")))`,
        `static void apply_${fn}_${t.key}(const void *xv, const void *yv, void *ov, int64_t n) {`,
        `  const ${c} *x = xv, *y = yv; ${c} *o = ov;`,
        `  for (int64_t i = 0; i + ${t.ops.lanes} <= n; i += ${t.ops.lanes}) ${instantiate(t.ops.store, { p: 'o + i', v: value })};`,
        '}',
      ].join('\n')
    }),
  ),
  'static const struct { const char *name; apply_fn fn; } table[] = {',
  ...TYPES.flatMap((t) => [...UNARY, ...BINARY].map((fn) => `  {"${fn}_${t.key}", apply_${fn}_${t.key}},`)),
  '};',
  '',
  '/* run(name, x, y, out): out = f(x) or f(x, y) on whole vectors; every array has the same length. */',
  'static napi_value run(napi_env env, napi_callback_info info) {',
  '  size_t argc = 4;',
  '  napi_value argv[4];',
  '  char name[32];',
  '  size_t len, n = 0;',
  '  void *data[3];',
  '  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);',
  '  napi_get_value_string_utf8(env, argv[0], name, sizeof name, &len);',
  '  for (int k = 0; k < 3; k++) {',
  '    napi_typedarray_type type;',
  '    napi_value buffer;',
  '    size_t offset;',
  '    napi_get_typedarray_info(env, argv[k + 1], &type, &n, &data[k], &buffer, &offset);',
  '  }',
  '  for (size_t k = 0; k < sizeof table / sizeof *table; k++) {',
  '    if (strcmp(table[k].name, name) == 0) {',
  '      table[k].fn(data[0], data[1], data[2], (int64_t)n);',
  '      return NULL;',
  '    }',
  '  }',
  ...RUN_EXPORT_TAIL,
].join('\n')

type Run = (name: string, x: Float32Array | Float64Array, y: Float32Array | Float64Array, out: Float32Array | Float64Array) => void

const supported = (isa: string) => runnableIsas.includes(isa)

const f32 = (x: number) => Math.fround(x)
/** The value each function must approach, rounded to the element type: what the JS fallback computes. */
const REFERENCE: Record<string, Record<'f32' | 'f64', (x: number) => number>> = {
  exp: { f32: (x) => f32(Math.exp(x)), f64: Math.exp },
  log: { f32: (x) => f32(Math.log(x)), f64: Math.log },
  tanh: { f32: (x) => f32(Math.tanh(x)), f64: Math.tanh },
  sigmoid: { f32: (x) => f32(sigmoid(x)), f64: sigmoid },
}
const F32_EDGES = [
  0, -0, 1.4e-45, -1.4e-45, 1.1754942e-38, -1.1754942e-38, 1.17549435e-38, 3.4028235e38, -3.4028235e38, Infinity, -Infinity,
  NaN, 1, -1, 0.5, 0.625, -0.625, 0.6250001, 88.72283, 88.72284, 89, 100, -87.33655, -103.97, -103.98, -104, -150, 1e-30,
  -1e-30, 0.7071067, 0.7071068, 2, 9, -9, 20, 1e-7, -1e-7,
]
const F64_EDGES = [
  0, -0, 5e-324, -5e-324, 2.225073858507201e-308, -2.225073858507201e-308, 2.2250738585072014e-308, 1.7976931348623157e308,
  -1.7976931348623157e308, Infinity, -Infinity, NaN, 1, -1, 0.5, 0.625, -0.625, 709.78, 709.79, 710, 800, -708.39, -745.13,
  -745.14, -746, -1000, 1e-300, -1e-300, 0.7071067811865476, 0.7071067811865475, 2, 19, -19, 40, 1e-17, -1e-17,
]
const RANGES: Record<string, [number, number]> = { exp: [-110, 95], log: [0, 50], tanh: [-6, 6], sigmoid: [-30, 30] }
const RANGES_F64: Record<string, [number, number]> = { exp: [-750, 712], log: [0, 50], tanh: [-20, 20], sigmoid: [-40, 40] }

/** Inputs: the edges, then thirds of uniform in the function's range, uniform in [-1, 1], and random bit patterns. */
function inputs(dtype: 'f32' | 'f64', fn: string, count: number, lanes: number): Float32Array | Float64Array {
  const next = rng(count * 131 + fn.length)
  const edges = dtype === 'f32' ? F32_EDGES : F64_EDGES
  const [lo, hi] = (dtype === 'f32' ? RANGES : RANGES_F64)[fn] ?? [-10, 10]
  const n = Math.ceil((edges.length + count) / lanes) * lanes
  const out = dtype === 'f32' ? new Float32Array(n) : new Float64Array(n)
  const bits = dtype === 'f32' ? new Uint32Array(out.buffer) : new Uint32Array(out.buffer)
  out.set(edges)
  for (let i = edges.length; i < n; i++) {
    const kind = i % 3
    if (kind === 0) out[i] = lo + (hi - lo) * next()
    else if (kind === 1) out[i] = next() * 2 - 1
    else if (dtype === 'f32') bits[i] = Math.floor(next() * 2 ** 32)
    else [bits[2 * i], bits[2 * i + 1]] = [Math.floor(next() * 2 ** 32), Math.floor(next() * 2 ** 32)]
  }
  return out
}

describe('the vector ISAs\' math', () => {
  let run: Run
  beforeAll(async () => {
    run = await loadRunAddon<Run>(SOURCE, 'vmath')
  })

  for (const t of TYPES) {
    for (const fn of UNARY) {
      it.runIf(supported(t.isa))(`${fn} ${t.dtype} (${t.isa}) is within ${MAX_ULPS[fn][t.dtype]} ulp of Math.${fn}`, () => {
        const x = inputs(t.dtype, fn, t.dtype === 'f32' ? 300_000 : 150_000, t.ops.lanes)
        const out = x.slice().fill(0)
        run(`${fn}_${t.key}`, x, x, out)
        let worst = 0
        let at = 0
        for (let i = 0; i < x.length; i++) {
          const u = ulps(out[i], REFERENCE[fn][t.dtype](x[i]), t.dtype)
          if (u > worst) [worst, at] = [u, i]
        }
        expect(worst, `worst at x = ${x[at]}: got ${out[at]}, want ${REFERENCE[fn][t.dtype](x[at])}`).toBeLessThanOrEqual(MAX_ULPS[fn][t.dtype])
      })
    }
    for (const fn of BINARY) {
      it.runIf(supported(t.isa))(`${fn} ${t.dtype} (${t.isa}) is Math.${fn}, NaN and signed zeros included`, () => {
        const edges = t.dtype === 'f32' ? F32_EDGES : F64_EDGES
        const pairs = edges.flatMap((a) => edges.map((b) => [a, b]))
        const n = Math.ceil(pairs.length / t.ops.lanes) * t.ops.lanes
        const make = (k: number) => {
          const values = Array.from({ length: n }, (_, i) => pairs[i % pairs.length][k])
          return t.dtype === 'f32' ? Float32Array.from(values) : Float64Array.from(values)
        }
        const [x, y] = [make(0), make(1)]
        const out = x.slice().fill(1)
        run(`${fn}_${t.key}`, x, y, out)
        const wrong = [...out].findIndex((v, i) => !Object.is(v, Math[fn](x[i], y[i])))
        expect(wrong, wrong < 0 ? '' : `${fn}(${x[wrong]}, ${y[wrong]}) gave ${out[wrong]}`).toBe(-1)
      })
    }
  }
})
