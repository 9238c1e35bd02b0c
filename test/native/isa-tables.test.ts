/**
 * The ISAs' vector tables (plugin/targets/vector-ops.ts) against what the emitters print and the headers define:
 * every ISA with vectors has a table per element type and its header in native/; every table has every op, each
 * template over the placeholders its op takes; the microkernels use those very tables; and every template of every
 * table compiles against its ISA's header with the vector and mask types the table names, so a missing function, a
 * misspelt intrinsic or a mask of the wrong type fails here, not in a user's build. No emitter names an intrinsic.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ISAS } from '../../plugin/targets/index.ts'
import { instantiate, type VectorOps } from '../../plugin/targets/vector-ops.ts'
import { cCompiler, NATIVE } from '../support/compile-c.ts'

const compile = cCompiler()

type Yields = 'vector' | 'mask' | 'element' | 'statement'

/** Each op's result and placeholders (vector-ops.ts's convention); records of ops by their entries, `math.exp`. */
const SHAPES: Readonly<Record<string, readonly [Yields, string]>> = {
  zero: ['vector', ''], set1: ['vector', 'x'], load: ['vector', 'p'], loadAligned: ['vector', 'p'], broadcast: ['vector', 'p'],
  store: ['statement', 'pv'], maskedLoad: ['vector', 'mp'], maskedStore: ['statement', 'mpv'],
  firstLanes: ['mask', 'n'], lastLanes: ['mask', 'n'], broadcastMask: ['mask', 'x'],
  fma: ['vector', 'abc'], add: ['vector', 'ab'], sub: ['vector', 'ab'], mul: ['vector', 'ab'], div: ['vector', 'ab'],
  neg: ['vector', 'a'], max: ['vector', 'ab'], min: ['vector', 'ab'], maxInstruction: ['vector', 'ab'], minInstruction: ['vector', 'ab'],
  ...Object.fromEntries(['exp', 'log', 'sqrt', 'abs', 'tanh', 'sigmoid'].map((f) => [`math.${f}`, ['vector', 'a']])),
  ...Object.fromEntries(['lt', 'le', 'gt', 'ge', 'eq', 'ne'].map((op) => [`compare.${op}`, ['mask', 'ab']])),
  and: ['mask', 'ab'], or: ['mask', 'ab'], not: ['mask', 'a'], blend: ['vector', 'abm'],
  ...Object.fromEntries(['sum', 'prod', 'max', 'min'].map((h) => [`horizontal.${h}`, ['element', 'a']])),
  transpose: ['statement', 'pqrstw'],
}
/** Not templates: the lane count and the C types. */
const PLAIN = ['lanes', 'vector', 'mask']

/** A table's templates by op, records flattened (`math.exp`). */
const templates = (ops: VectorOps): Record<string, string> =>
  Object.fromEntries(
    Object.entries(ops).flatMap(([key, value]) => {
      if (PLAIN.includes(key)) return []
      return typeof value === 'string' ? [[key, value]] : Object.entries(value as object).map(([k, v]) => [`${key}.${k}`, v])
    }),
  )

const placeholders = (template: string): string =>
  [...new Set(template.match(/\$[a-z]/g) ?? [])].map((p) => p[1]).sort().join('')

const tables = ISAS.flatMap((isa) =>
  isa.vectors ? (['f32', 'f64'] as const).map((dtype) => ({ isa, dtype, ops: isa.vectors![dtype] })) : [])

describe('vector tables', () => {
  it('every ISA with vector registers has a table per element type, filling them, and its header in native/', () => {
    for (const isa of ISAS) {
      expect(isa.vectors !== undefined, isa.name).toBe(isa.vectorBytes > 0)
      if (!isa.vectors) {
        expect(isa.microkernels, isa.name).toEqual([])
        continue
      }
      const header = path.join(NATIVE, isa.vectors.header)
      expect(existsSync(header), `${isa.name}'s header ${isa.vectors.header}`).toBe(true)
      // Its functions compile for the ISA whatever the file's flags: the same target as the ISA's region.
      expect(readFileSync(header, 'utf8')).toContain(`__attribute__((target("${isa.gccTarget}")))`)
      expect(isa.vectors.f32.lanes * 4, isa.name).toBe(isa.vectorBytes)
      expect(isa.vectors.f64.lanes * 8, isa.name).toBe(isa.vectorBytes)
    }
  })

  it('every table has every op, each over the placeholders of its op', () => {
    for (const { isa, dtype, ops } of tables) {
      const t = templates(ops)
      expect(Object.keys(t).sort(), `${isa.name} ${dtype}`).toEqual(Object.keys(SHAPES).sort())
      for (const [op, template] of Object.entries(t)) {
        expect(placeholders(template), `${isa.name} ${dtype} ${op}: ${template}`).toBe(SHAPES[op][1])
      }
      for (const key of PLAIN) expect(ops[key as keyof VectorOps], `${isa.name} ${dtype} ${key}`).toBeTruthy()
    }
  })

  it('the microkernels use their ISA\'s tables', () => {
    for (const isa of ISAS) {
      for (const mk of isa.microkernels) {
        expect(mk.ops, mk.name).toBe(isa.vectors?.[mk.dtype])
        expect(mk.lanes, mk.name).toBe(mk.ops.lanes)
      }
    }
  })

  for (const { isa, dtype, ops } of tables) {
    it(`${isa.name} ${dtype}: every template compiles against ${isa.vectors!.header}, with the table's types`, async () => {
      const t = dtype === 'f32' ? 'float' : 'double'
      const { vector: V, mask: M } = ops
      // Operands of every kind; `$a $b` are masks in the mask operations, vectors elsewhere.
      const operands = (op: string) => ({
        p: 'q', v: 'va', c: 'vc', m: 'm', n: 'n', x: 'x', q: 'q', s: 'n', t: 'n', r: 'n', w: 'n',
        ...(['and', 'or', 'not'].includes(op) ? { a: 'ma', b: 'mb' } : { a: 'va', b: 'vb' }),
      })
      const sink: Readonly<Record<Yields, (e: string, k: number) => string>> = {
        vector: (e, k) => `  vo[${k}] = ${e};`,
        mask: (e, k) => `  mo[${k}] = ${e};`,
        element: (e, k) => `  eo[${k}] = ${e};`,
        statement: (e) => `  ${e};`,
      }
      const signature = `void check_${isa.name}_${dtype}(${t} *q, ${V} va, ${V} vb, ${V} vc, ${M} ma, ${M} mb, ${M} m, ` +
        `int64_t n, ${t} x, ${V} *vo, ${M} *mo, ${t} *eo)`
      const source = [
        `#include "${isa.vectors!.header}"`,
        `${signature};`,
        `__attribute__((target("${isa.gccTarget}")))`,
        `${signature} {`,
        ...Object.entries(templates(ops)).map(([op, template], k) => sink[SHAPES[op][0]](instantiate(template, operands(op)), k)),
        '}',
        '',
      ].join('\n')
      expect(await compile(`tables-${isa.name}-${dtype}`, source)).toBe('')
    })
  }

  it('no emitter names an intrinsic or a vector type: they come from the tables', () => {
    const emit = path.resolve(import.meta.dirname, '../../plugin/emit')
    for (const file of readdirSync(emit).filter((f) => f.endsWith('.ts'))) {
      expect(readFileSync(path.join(emit, file), 'utf8'), file).not.toMatch(/_mm\d*_|__m\d+|\bpk_[vh](exp|log|max|min|sum|neg)/)
    }
  })
})
