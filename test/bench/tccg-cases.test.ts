// Issue 14's bench pieces that need no timing: the TCCG list and its size rule, the generated kernel modules (up to
// date, and every spec valid for polykern's checker), the exhaustive path search, the ONNX Einsum model on
// onnxruntime against the bench's own reference, and the JSON shape of a tiny run.
import { readFileSync } from 'node:fs'
import * as ort from 'onnxruntime-node'
import { describe, expect, it } from 'vitest'
import { findKernelSites } from '../../plugin/find/annotations.ts'
import { checkSpec } from '../../plugin/spec/check.ts'
import { parseSpec } from '../../plugin/spec/parser.ts'
import { callPathOf, directFlops, EINSUM_PATH_CASES, equationOf, optimalFlops, type Einsum } from './einsum-path.ts'
import { numpyMissing } from './numpy-runner.ts'
import { einsumModel } from './onnx-model.ts'
import {
  BENCH_RULE, contractionOf, extentOf, gemmShapeOf, normalize, PUBLISHED_SIZES, TCCG_CASES, TCCG_LISTS, TCCG_RULE, tccgCases,
  tccgFlops,
} from './tccg-cases.ts'
import { GENERATED, einsumOfTccg } from './tccg-source.ts'
import { benchTccg, instanceOf, TCCG_SYSTEMS } from './tccg.ts'

describe('the TCCG list', () => {
  it('holds the 48 contractions of TCCG v0.1, distinct once normalized, and transC', () => {
    const entries = Object.values(TCCG_LISTS).flat()
    expect(entries).toHaveLength(48)
    expect(new Set(entries.map((e) => normalize(e).name)).size).toBe(48)
    expect(normalize('ijkl-imjn-lnkm').name).toBe('abcd-aebf-dfce')
    expect(TCCG_CASES.filter((c) => c.list === 'transC').map((c) => c.name)).toEqual(['tccg-transC-k64', 'tccg-transC-k256', 'tccg-transC-k1024'])
  })

  it("reproduces TCCG's published sizes with its own defaults (200 MiB of doubles)", () => {
    for (const c of tccgCases(TCCG_RULE).filter((x) => x.list !== 'transC')) {
      const sizes = Object.keys(c.sizes).sort().map((i) => c.sizes[i]).join(' ')
      expect(`${c.tccg}: ${sizes}`).toBe(`${c.tccg}: ${PUBLISHED_SIZES[c.tccg]}`)
    }
  })

  it('scales to f32 with the largest tensor near 32 MiB (64 MiB for the 6-index outputs of ccsd_t)', () => {
    for (const c of TCCG_CASES.filter((x) => x.list !== 'transC')) {
      const t = contractionOf(c.tccg)
      const mib = (Math.max(...[t.a, t.b, t.c].map((s) => extentOf(s, c.sizes))) * BENCH_RULE.elementBytes) / 2 ** 20
      expect(mib, c.name).toBeGreaterThan(c.list === 'ccsd_t' ? 60 : 28)
      expect(mib, c.name).toBeLessThan(c.list === 'ccsd_t' ? 65 : 36)
    }
  })

  it('has GEMM roles whose product is the iteration space', () => {
    for (const c of TCCG_CASES) {
      const { M, N, K } = gemmShapeOf(c)
      expect(2 * M * N * K, c.name).toBe(tccgFlops(c))
    }
    // Row-major: each tensor's indices are TCCG's (column-major) reversed.
    expect(contractionOf('abcd-aebf-dfce')).toMatchObject({ c: 'dcba', a: 'fbea', b: 'ecfd', equation: 'fbea,ecfd->dcba', m: 'ba', n: 'cd', k: 'fe' })
  })
})

describe('the generated kernel modules', () => {
  it('are up to date (npx tsx test/bench/tccg-source.ts rewrites them)', () => {
    for (const g of GENERATED) expect(readFileSync(g.file, 'utf8'), g.file).toBe(g.source())
  })

  it("hold one spec per contraction, each accepted by polykern's parser and checker", () => {
    const sites = GENERATED.flatMap((g) => findKernelSites(g.file, readFileSync(g.file, 'utf8')))
    expect(sites).toHaveLength(new Set(TCCG_CASES.map((c) => c.tccg)).size + EINSUM_PATH_CASES.length)
    for (const site of sites) {
      const spec = checkSpec(parseSpec(site.specText, site.specStart, site.file), site)
      expect(spec.tensors.map((t) => t.name), site.name).toContain('A')
    }
  })
})

describe('contraction paths', () => {
  const chain: Einsum = { output: 'il', operands: ['ij', 'jk', 'kl'] }

  it('finds the optimal order by exhaustive search (the matrix-chain answer)', () => {
    // (A·B)·C: 2·(i·j·k + i·k·l); A·(B·C): 2·(j·k·l + i·j·l).
    expect(optimalFlops(chain, { i: 2048, j: 16, k: 2048, l: 16 })).toBe(2 * (16 * 2048 * 16 + 2048 * 16 * 16))
    expect(optimalFlops(chain, { i: 10, j: 100, k: 5, l: 50 })).toBe(2 * (10 * 100 * 5 + 10 * 5 * 50))
    const chain4 = EINSUM_PATH_CASES.find((c) => c.name.startsWith('path-chain4'))!
    const { i, j, k, l, m } = chain4.sizes
    expect(optimalFlops(chain4.einsum, chain4.sizes)).toBe(2 * (j * k * l + i * j * l + i * l * m))
    // A plain two-operand product has one path: the product itself.
    expect(optimalFlops({ output: 'ik', operands: ['ij', 'jk'] }, { i: 3, j: 4, k: 5 })).toBe(2 * 3 * 4 * 5)
  })

  it("prices what polykern explain reports: one path, per-call candidates, or the whole nest", () => {
    const sizes = { i: 2048, j: 16, k: 2048, l: 16 }
    const ab = { steps: [{ statement: 's0_t1[i, k] += A[i, j] * B[j, k]' }, { statement: 'D[i, l] += s0_t1[i, k] * C[k, l]' }] }
    const bc = { steps: [{ statement: 's0_p1_t1[l, j] += (B[j, k] * C[k, l])' }, { statement: 'D[i, l] += (A[i, j] * s0_p1_t1[l, j])' }] }
    expect(callPathOf(chain, { factorized: true, reason: '', ...ab }, sizes).flops).toBe(2 * (2048 * 16 * 2048 + 2048 * 2048 * 16))
    const perCall = callPathOf(chain, { factorized: true, reason: '', ...ab, candidates: [ab, bc], choice: 's0_path' }, sizes)
    expect(perCall.flops).toBe(optimalFlops(chain, sizes))
    expect(perCall.source).toMatch(/per call/)
    expect(callPathOf(chain, { factorized: false, reason: 'x', steps: [] }, sizes).flops).toBe(directFlops(chain, sizes))
  })
})

describe("onnxruntime's Einsum model", () => {
  const run = async (e: Einsum, sizes: Record<string, number>) => {
    const inst = instanceOf(e, sizes)
    const session = await ort.InferenceSession.create(einsumModel(equationOf(e), inst.shapes, inst.outShape), { intraOpNumThreads: 1 })
    try {
      const feeds = Object.fromEntries(inst.operands.map((x, n) => [`X${n}`, new ort.Tensor('float32', x, inst.shapes[n])]))
      return inst.check((await session.run(feeds)).Y.data as Float32Array)
    } finally {
      await session.release()
    }
  }

  it('computes a TCCG contraction as the reference does', async () => {
    expect(await run(einsumOfTccg('abcd-aebf-dfce'), { a: 3, b: 2, c: 4, d: 3, e: 2, f: 5 })).toBeLessThan(1e-5)
  })

  it('computes a three-operand chain as the reference does', async () => {
    expect(await run({ output: 'il', operands: ['ij', 'jk', 'kl'] }, { i: 5, j: 3, k: 4, l: 6 })).toBeLessThan(1e-5)
  })
})

describe('a tiny run', () => {
  it('reports rows in the JSON shape of issue 14', async () => {
    const tiny = { name: 'tccg-tiny', list: 'ccsd' as const, source: 'ijk-ikl-lj', tccg: 'abc-acd-db', sizes: { a: 8, b: 4, c: 8, d: 8 } }
    const path = { ...EINSUM_PATH_CASES[0], name: 'path-tiny', sizes: { i: 8, j: 2, k: 2, l: 8 } }
    const run = await benchTccg([tiny], [path], {
      tccg: { error: 'not built in this test' }, paths: { error: 'not built in this test' }, matmul: null, setThreads: () => {},
      explained: {}, numpyMissing: numpyMissing(), log: () => {},
    })
    const systems = new Set(run.results.map((r) => r.system))
    expect([...systems].every((s) => TCCG_SYSTEMS.includes(s))).toBe(true)
    expect(systems.has('onnxruntime') && systems.has('js-loops')).toBe(true)
    expect(run.skipped.filter((s) => s.system === 'polykern').map((s) => s.name)).toEqual(['tccg-tiny', 'path-tiny'])
    for (const r of run.results) {
      expect(Object.keys(r)).toEqual(expect.arrayContaining(['name', 'kind', 'shape', 'system', 'threads', 'gflops', 'maxRelErr', 'medianGflops', 'bestSeconds', 'medianSeconds', 'runs']))
      expect(r.maxRelErr).toBeLessThan(1e-3)
    }
    expect(run.results.find((r) => r.name === 'tccg-tiny')!.kind).toBe('tccg')
    const p = run.results.find((r) => r.name === 'path-tiny')!
    expect(p).toMatchObject({ kind: 'einsum-path', pathFlops: null, optimalFlops: optimalFlops(path.einsum, path.sizes) })
    expect(run.failures).toEqual([])
  })
})
