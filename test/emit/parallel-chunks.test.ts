// Parallel loops' chunk functions (emit/c-parallel.ts): a product's candidate paths (issue 14) repeat the same steps
// into their own temporaries, and the loops that differ only in such names share one function. Native runs of the
// shared functions, every candidate checked against the interpreter: test/native/paths.test.ts.
import { describe, expect, it } from 'vitest'
import { emitC } from '../../plugin/emit/c.ts'
import { SCALAR } from '../../plugin/targets/index.ts'
import { pipelineKernel } from '../support/pipeline-kernels.ts'

const FIVE = pipelineKernel({
  name: 'five',
  text: 'X: f32[E, A]\nY: f32[F, B]\nZ: f32[A, B, C, D]\nU: f32[G, C]\nV: f32[H, D]\nO: f32[E, F, G, H]\n' +
    'O[e, f, g, h] +=! X[e, a] * Y[f, b] * Z[a, b, c, d] * U[g, c] * V[h, d]',
})
const CHUNK = /static void (kc_0_five_p\d+)\(void \*pk_ctx/g
const RUN = /pk_parallel_for\(pk_n, (kc_0_five_p\d+), &pk_ctx\);\n\s*else (kc_0_five_p\d+)\(&pk_ctx, 0, pk_n\);/g

describe('chunk functions of parallel loops', () => {
  const c = emitC(FIVE.ir, 'kc_0_five', SCALAR)
  const defined = [...c.matchAll(CHUNK)].map((m) => m[1])
  const runs = [...c.matchAll(RUN)]

  it('one function for the loops that differ only in the names of what they read and write', () => {
    expect(FIVE.ir.choices?.[0].costs.length, 'the kernel has several candidate paths').toBeGreaterThan(8)
    expect(new Set(defined).size).toBe(defined.length)
    const called = new Set(runs.map((m) => m[1]))
    expect(called).toEqual(new Set(defined))
    expect(runs.length, 'loops run by a function another loop also runs').toBeGreaterThan(2 * defined.length)
  })

  it('each site passes its own tensors, in the order the shared struct declares them', () => {
    // The first step of the first candidate, X·Z into s0_t1, is repeated into other candidates' own temporaries.
    const site = /(kc_0_five_p\d+)_ctx pk_ctx = \{([^}]*)\};/g
    const sites = [...c.matchAll(site)]
    const intoFirst = sites.find((m) => m[2].split(', ').includes('s0_t1'))!
    const fn = intoFirst[1]
    const struct = c.match(new RegExp(`typedef struct \\{\\n([^}]*)\\} ${fn}_ctx;`))![1]
    const fields = struct.trim().split('\n').map((l) => l.trim().replace(/;$/, '').split(' ').at(-1))
    const others = sites.filter((m) => m[1] === fn && m !== intoFirst)
    expect(others.length).toBeGreaterThan(0)
    for (const other of others) {
      const values = other[2].split(', ')
      expect(values).toHaveLength(fields.length)
      // Same tensors read, a temporary of another candidate written in the same field.
      fields.forEach((f, n) => {
        if (/^s0_t\d$/.test(f!)) expect(values[n]).toMatch(/^s0_p\d+_t\d$/)
        else if (!/^ss0_/.test(f!)) expect(values[n]).toBe(f)
      })
    }
  })
})
