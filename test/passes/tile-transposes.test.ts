/**
 * tile-transposes (plugin/passes/tile-transposes.ts): which nests are tiled, in tiles of a cache line's elements, and
 * the tiled kernels compute what their spec says (the interpreter on the lowered IR, the JS, every ISA and thread
 * count, at sizes no tile divides).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { interpret } from '../../plugin/ir/interp.ts'
import { emitC } from '../../plugin/emit/c.ts'
import { printStmts } from '../../plugin/ir/print.ts'
import { AVX512, ISAS } from '../../plugin/targets/index.ts'
import { resolveTarget } from '../../plugin/targets/target.ts'
import { copyArgs, makeArgs } from '../support/kernel-args.ts'
import { expectAgreesEverywhere, pipelineKernel, type PipelineKernel } from '../support/pipeline-kernels.ts'
import { rng } from '../support/random.ts'
import { loadTestAddon, testAddonSource, type TestAddon } from '../support/test-addon.ts'

const transpose = pipelineKernel({ name: 'transpose', text: 'A: i32[M, N]\nT: i32[N, M]\nT[j, i] = A[i, j]' })
const nhwc = pipelineKernel({ name: 'nhwc', text: 'X: f32[N, C, H, W]\nY: f32[N, H, W, C]\nY[n, h, w, c] = X[n, c, h, w]' })
const scaled = pipelineKernel({ name: 'scaled', text: 'A: f64[M, N]\nB: f64[N]\nT: f64[N, M]\nT[j, i] = A[i, j] * B[j] + 1' })
const tiledKernels = [transpose, nhwc, scaled]

const printed = (k: PipelineKernel): string => printStmts(k.ir.body)

describe('which nests are tiled', () => {
  it('a transpose, an NCHW to NHWC copy and a transposing element-wise kernel, in tiles of one line', () => {
    expect(printed(transpose)).toContain('for j_tile in [0, ceildiv(N, 16)) parallel')
    expect(printed(transpose)).toContain('for i in [16*i_tile, min(M, 16*i_tile + 16))')
    // The two loops whose dimensions trade places, inside the loops over n and h.
    expect(printed(nhwc)).toMatch(/for h in [^\n]*\n\s*for c_tile in \[0, ceildiv\(C, 16\)\) \{\n\s*for w_tile in \[0, ceildiv\(W, 16\)\) \{/)
    // A copy is tiled at any extent (its tiles run as register transposes); a kernel that computes, only where the
    // inner loop's lines would not stay in L1 (half of it: the number is this machine's), else as it was.
    for (const copy of [transpose, nhwc]) expect(printed(copy)).not.toContain('if ')
    expect(printed(scaled)).toMatch(/if N - \d+ >= 0 \{\n\s*for i_tile/)
    expect(printed(scaled)).toMatch(/if -N \+ \d+ >= 0 \{\n\s*for i in \[0, M\) parallel/)
    // f64: eight elements to a 64-byte line.
    expect(printed(scaled)).toContain('ceildiv(N, 8)')
  })

  it("a copy's tiles call each vector ISA's transpose (i32 as f32 lanes); a kernel that computes keeps its loops", () => {
    for (const isa of ISAS) {
      // A parallel loop prints its body twice (on the pool, or its inner loop's when it has too few iterations).
      const calls = (k: PipelineKernel) => [...new Set([...emitC(k.ir, 'kc_0_k', isa).matchAll(/pk_transpose_(\w+)\(/g)].map((m) => m[1]))]
      const suffix = isa.name === 'avx512' ? '512' : '256'
      expect(calls(transpose), isa.name).toEqual(isa.vectors ? [`ps${suffix}`] : [])
      expect(calls(nhwc), isa.name).toEqual(isa.vectors ? [`ps${suffix}`] : [])
      expect(calls(scaled), isa.name).toEqual([])
    }
    const f64 = pipelineKernel({ name: 't64', text: 'A: f64[M, N]\nT: f64[N, M]\nT[j, i] = A[i, j]' })
    expect(emitC(f64.ir, 'kc_0_k', AVX512)).toContain('pk_transpose_pd512(')
  })

  it('not a nest without a transposed access, a reduction, or a nest reading what it stores', () => {
    const untouched = [
      'A: f32[M, N]\nB: f32[M, N]\nB[i, j] = A[i, j] + 1',
      'A: f32[M, N]\nT: f32[N, M]\nT[j, i] += A[i, j]',
      'A: f32[M, N]\nT: f32[N, M]\nU: f32[N, M]\nT[j, i] = A[i, j]\nU[j, i] = T[j, i] + A[i, j]',
    ]
    for (const text of untouched) {
      const k = pipelineKernel({ name: 'k', text })
      // The fused two-statement kernel reads T, which it stores: its nest stays as it was.
      expect(printStmts(k.ir.body), text).not.toContain('_tile')
    }
  })
})

describe('tiled kernels agree with their spec', () => {
  let addon: TestAddon
  let remove = (): void => {}
  beforeAll(async () => {
    ;({ addon, remove } = await loadTestAddon(testAddonSource(tiledKernels.map((k) => k.ir), 'tile-transposes.ts'), 'tile-transposes'))
  }, 300_000)
  afterAll(() => remove())

  // The element-wise kernel's inner extents of 600 and more take the tiled nest on any L1 up to 64 KiB, the short ones
  // the untiled one; the copies are tiled at every size, with tiles cut short at their edges.
  const cases: [PipelineKernel, string, Record<string, number>[]][] = [
    [transpose, 'T', [{ M: 1, N: 1 }, { M: 17, N: 33 }, { M: 0, N: 9 }, { M: 600, N: 37 }, { M: 1041, N: 1 }, { M: 640, N: 48 }]],
    [nhwc, 'Y', [{ N: 1, C: 3, H: 2, W: 17 }, { N: 2, C: 19, H: 2, W: 601 }, { N: 1, C: 32, H: 1, W: 640 }]],
    [scaled, 'T', [{ M: 9, N: 7 }, { M: 9, N: 603 }, { M: 17, N: 1000 }]],
  ]
  for (const [k, output, sizesList] of cases) {
    it(`${k.name}: the lowered IR, the JS and every ISA and thread count`, () => {
      const next = rng(k.name.length)
      for (const sizes of sizesList) {
        const extents = new Map(Object.entries(sizes))
        const args = makeArgs(k.abi, extents, next)
        const [want, got] = [copyArgs(args), copyArgs(args)]
        interpret(k.reference, want)
        interpret(k.ir, got)
        const out = k.reference.params.findIndex((p) => p.name === output)
        expect(got[out], `${k.name} ${JSON.stringify(sizes)} tiled IR`).toEqual(want[out])
        expectAgreesEverywhere(k, addon, extents, next, output, 1)
      }
    })
  }
})

describe('random permutations, tiled at small sizes', () => {
  // An L1 of 1 KiB: every inner loop longer than 8 lines takes the tiled nest (a copy is tiled at any extent), so sizes
  // up to 40 reach tiles' edges.
  const target = resolveTarget({ caches: [{ level: 1, bytes: 1024 }] }, undefined)
  const next = rng(2026)
  const pick = (n: number): number => Math.floor(next() * n)
  const kernels = Array.from({ length: 12 }, (_, n) => {
    const rank = 2 + pick(3)
    const dims = ['a', 'b', 'c', 'd'].slice(0, rank)
    const order = [...dims].sort(() => next() - 0.5)
    if (order.every((d, i) => d === dims[i])) order.reverse()
    const dtype = ['f32', 'f64', 'i32'][pick(3)]
    const size = (d: string): string => d.toUpperCase()
    const value = pick(2) === 0 ? `X[${dims.join(', ')}]` : `X[${dims.join(', ')}] * 3 + 1`
    const text = `X: ${dtype}[${dims.map(size).join(', ')}]\nY: ${dtype}[${order.map(size).join(', ')}]\nY[${order.join(', ')}] = ${value}`
    return { kernel: pipelineKernel({ name: `perm${n}`, text, target }), sizes: dims.map(size) }
  })
  let addon: TestAddon
  let remove = (): void => {}
  beforeAll(async () => {
    ;({ addon, remove } = await loadTestAddon(testAddonSource(kernels.map((k) => k.kernel.ir), 'tile-permutations.ts'), 'tile-permutations'))
  }, 300_000)
  afterAll(() => remove())

  it('most are tiled, and each agrees with its spec natively, in JS and in the lowered IR', () => {
    expect(kernels.filter((k) => printed(k.kernel).includes('_tile')).length).toBeGreaterThan(kernels.length / 2)
    for (const { kernel, sizes } of kernels) {
      for (let round = 0; round < 3; round++) {
        const extents = new Map(sizes.map((s) => [s, 1 + pick(kernel.abi.params.length > 5 ? 13 : 40)]))
        const args = makeArgs(kernel.abi, extents, next)
        const [want, got] = [copyArgs(args), copyArgs(args)]
        interpret(kernel.reference, want)
        interpret(kernel.ir, got)
        const out = kernel.reference.params.findIndex((p) => p.name === 'Y')
        expect(got[out], `${kernel.name} ${[...extents]} tiled IR`).toEqual(want[out])
        expectAgreesEverywhere(kernel, addon, extents, next, 'Y', 1)
      }
    }
  })
})

