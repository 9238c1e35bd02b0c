/**
 * The thread pool and parallel loops, timing-free: which loops go through the pool, the thread count (baked default,
 * POLYKERN_THREADS, setThreads), results at 1 to 4 threads against the interpreter and bit for bit against 1 thread
 * (each element is computed by one thread in the serial order; a reduction split between threads sums in another
 * order, so it is checked within rounding), a long run of calls changing the thread count, two Node threads calling
 * kernels at once, and the runtime's setThreads reaching a loaded addon.
 */
import { execFileSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'
import { beforeAll, describe, expect, it } from 'vitest'
import { buildAddon } from '../../plugin/addon/build.ts'
import { emitC } from '../../plugin/emit/c.ts'
import { emitAddonSource } from '../../plugin/emit/napi.ts'
import { interpret } from '../../plugin/ir/interp.ts'
import type { Kernel } from '../../plugin/ir/nodes.ts'
import { resolveOptions } from '../../plugin/options.ts'
import { ISAS } from '../../plugin/targets/index.ts'
import { kernels as loadedKernels, loadKernels, setThreads } from '../../runtime/index.ts'
import * as K from '../emit/kernels.ts'
import { copyArgs, irArgs } from '../support/kernel-args.ts'
import { maxRelErr, rng, type TensorArray } from '../support/random.ts'

const { b, bin, bmin, ceildiv, fill, k, ld, loop, store, tensor, v } = K

/**
 * A reduction into one element marked `parallel` (the IR allows it): threads would race on the element, so each sums
 * its share into a copy of its own (emit/c-split-reduction.ts).
 */
const sumAll = K.kernel('sumAll', ['x', 'out', 'N'], [tensor('x', 'f32', ['N'], 'in'), tensor('out', 'f32', [], 'out')], ['N'], [
  fill('out', k(0)),
  loop('i', 0, 'N', [store('out', [], '+=', ld('x', ['i']))], 'parallel'),
])

/** A parallel loop inside a serial one, starting at its index, with an inner loop bounded by its own index. */
const tPlus1 = bin('add', v('t', 'f32'), k(1), 'f32')
const tri = K.kernel('tri', ['x', 'y', 'T', 'N'], [tensor('x', 'f32', ['N'], 'in'), tensor('y', 'f32', ['T', 'N'], 'out')], ['T', 'N'], [
  fill('y', k(0)),
  loop('t', 0, 'T', [
    loop('i', 't', 'N', [
      loop('j', 0, 'i + 1', [store('y', ['t', 'i'], '+=', bin('mul', ld('x', ['j']), tPlus1, 'f32'))]),
    ], 'parallel'),
  ]),
])

/** A parallel loop nested in another: only the outer one is outlined. */
const nested = K.kernel('nested', ['a', 'b', 'P', 'M', 'N'], [
  tensor('a', 'f64', ['M'], 'in'), tensor('b', 'f64', ['N'], 'in'), tensor('P', 'f64', ['M', 'N'], 'out'),
], ['M', 'N'], [
  loop('i', 0, 'M', [
    loop('j', 0, 'N', [store('P', ['i', 'j'], '=', bin('mul', ld('a', ['i'], 'f64'), ld('b', ['j'], 'f64'), 'f64'))], 'parallel'),
  ], 'parallel'),
])

/** A parallel loop over a batch whose body is one loop over rows: with a batch of one, the rows go to the pool. */
const scaleRows = K.kernel('scaleRows', ['x', 'y', 'N', 'P'], [
  tensor('x', 'f32', ['N', 'P'], 'in'), tensor('y', 'f32', ['N', 'P'], 'out'),
], ['N', 'P'], [
  loop('n', 0, 'N', [loop('p', 0, 'P', [store('y', ['n', 'p'], '=', bin('mul', ld('x', ['n', 'p']), k(2), 'f32'))])], 'parallel'),
])

/** Two loops that differ only in the tensors and extents they use: one chunk function serves both. */
const twice = K.kernel('twice', ['a', 'b', 'c', 'd', 'N', 'P', 'M', 'Q'], [
  tensor('a', 'f32', ['N', 'P'], 'in'), tensor('b', 'f32', ['N', 'P'], 'out'),
  tensor('c', 'f32', ['M', 'Q'], 'in'), tensor('d', 'f32', ['M', 'Q'], 'out'),
], ['N', 'P', 'M', 'Q'], [
  loop('i', 0, 'N', [loop('j', 0, 'P', [store('b', ['i', 'j'], '=', bin('mul', ld('a', ['i', 'j']), k(3), 'f32'))])], 'parallel'),
  loop('i', 0, 'M', [loop('j', 0, 'Q', [store('d', ['i', 'j'], '=', bin('mul', ld('c', ['i', 'j']), k(3), 'f32'))])], 'parallel'),
])

/** A batch of transposing copies in tiles of 16 (as tile-transposes.ts leaves them), the batch loop parallel. */
const tiles = K.kernel('tiles', ['a', 't', 'B', 'M', 'N'], [
  tensor('a', 'f32', ['B', 'M', 'N'], 'in'), tensor('t', 'f32', ['B', 'N', 'M'], 'out'),
], ['B', 'M', 'N'], [
  loop('m', 0, 'B', [
    loop('jt', 0, ceildiv(b('N'), 16), [
      loop('it', 0, ceildiv(b('M'), 16), [
        loop('j', '16*jt', bmin(b('N'), b('16*jt + 16')), [
          loop('i', '16*it', bmin(b('M'), b('16*it + 16')), [store('t', ['m', 'j', 'i'], '=', ld('a', ['m', 'i', 'j']))]),
        ]),
      ]),
    ]),
  ], 'parallel'),
])

const KERNELS: readonly Kernel[] = [K.matmul, K.softmax, sumAll, tri, nested, scaleRows, twice, tiles]
const BAKED_THREADS = 3
const require = createRequire(import.meta.url)
const opts = resolveOptions({ cacheDir: 'node_modules/.cache/polykern-test' })

interface Meta {
  readonly isa: string
  readonly threads: number
  readonly setIsa: (name: string) => string
  readonly setThreads: (n: number) => void
}
type Addon = Record<string, (...args: unknown[]) => void> & { readonly __polykern: Meta }

let addonPath: string
let addon: Addon

beforeAll(async () => {
  const sources = emitAddonSource(
    KERNELS.map((kernel, n) => ({ kernel, abi: K.abiOf(kernel), symbol: `kc_${n}_${kernel.name}` })),
    { moduleId: 'threads.test.ts', threads: BAKED_THREADS, parallelMinWork: 1 },
  )
  const built = await buildAddon({ sources, cacheDir: opts.cacheDir })
  if (!built.ok) throw new Error(`addon build failed:\n${built.error}`)
  addonPath = built.path
  addon = require(addonPath) as Addon
})

/** `__polykern.threads` of the addon in a fresh process, POLYKERN_THREADS set (or not). */
function threadsAtLoad(value?: string): number {
  const env = { ...process.env, POLYKERN_THREADS: value }
  if (value === undefined) delete env.POLYKERN_THREADS
  const code = `process.stdout.write(String(require(${JSON.stringify(addonPath)}).__polykern.threads))`
  return Number(execFileSync(process.execPath, ['-e', code], { env, encoding: 'utf8' }))
}


/** Runs `f` on a copy of `args`; returns the copies of the outputs. */
function outputs(kernel: Kernel, f: (...a: unknown[]) => void, args: readonly unknown[]): TensorArray[] {
  const copy = copyArgs(args)
  f(...copy)
  const written = (name: string) => kernel.tensors.find((t) => t.name === name)!.role !== 'in'
  return kernel.params.flatMap((p, i) => (p.kind === 'tensor' && written(p.name) ? [copy[i] as TensorArray] : []))
}

/** The kernels whose reduction is split between threads: their sums reassociate with the thread count. */
const SPLIT = new Set(KERNELS.filter((kernel) => emitC(kernel, 'k').includes('_split(')))

/** Bit for bit, but within rounding for a kernel whose reduction is split between threads. */
function expectSameAsSerial(kernel: Kernel, got: TensorArray[], serial: TensorArray[], label: string): void {
  if (!SPLIT.has(kernel)) return void expect(got, label).toEqual(serial)
  got.forEach((out, n) => expect(maxRelErr(out, serial[n]), label).toBeLessThan(1e-5))
}

const randomSizes = (kernel: Kernel, next: () => number, max: number): Record<string, number> =>
  Object.fromEntries(kernel.sizes.map((s) => [s, 1 + Math.floor(next() * max)]))

describe('which loops run on the pool', () => {
  it('a parallel loop whose stores move with its index is outlined; a reduction into one element is split', () => {
    expect(emitC(K.matmul, 'mm')).toMatch(/pk_parallel_for\(pk_n, mm_p0, &pk_ctx\)/)
    expect(emitC(sumAll, 'sum')).not.toContain('pk_parallel_for')
    expect(emitC(sumAll, 'sum')).toContain('sum_p0_split(&pk_ctx, pk_n, 1)')
  })

  it('a parallel loop nested in another runs serially inside the outer one’s chunks', () => {
    const c = emitC(nested, 'nest')
    expect(c.match(/pk_parallel_for\(/g)).toHaveLength(1)
    expect(c).not.toContain('nest_p1')
  })

  it('with fewer iterations than threads, a parallel loop hands the pool its one inner loop, if that writes disjointly', () => {
    const c = emitC(scaleRows, 'rows')
    expect(c).toContain('if (pk_n < pk_threads()) {')
    expect(/typedef struct \{([^}]*)\} rows_p1_ctx;/.exec(c)?.[1]).toMatch(/int64_t n;/)
    // The inner loop of matmul reduces into C[i, j] across k, and tri's inner loop is bounded by its outer index.
    expect(emitC(K.matmul, 'mm')).not.toContain('pk_threads()')
    expect(emitC(tri, 'tri')).not.toContain('pk_threads()')
  })

  it('the chunk function receives enclosing indices; an inner bound on the loop’s own index counts as one iteration', () => {
    const c = emitC(tri, 'tri')
    expect(/typedef struct \{([^}]*)\} tri_p0_ctx;/.exec(c)?.[1]).toMatch(/int64_t t;/)
    expect(c).toContain('const int64_t pk_lo = t, pk_n = N - pk_lo;')
    expect(c).toContain('if ((double)pk_n >= PK_PARALLEL_MIN_WORK)')
    expect(emitC(K.matmul, 'mm')).toContain('if ((double)pk_n * ((double)K * (double)N) >= PK_PARALLEL_MIN_WORK)')
  })

  it('a loop whose bounds need a tile index counts its most trips: each tile its 16 × 16 points, not one', () => {
    const work = '(double)pk_ceildiv_i64(N, 16) * (double)pk_ceildiv_i64(M, 16) * 16 * 16'
    expect(emitC(tiles, 'tl')).toContain(`if ((double)pk_n * (${work}) >= PK_PARALLEL_MIN_WORK)`)
  })
})

describe('chunk functions shared by loops that differ only in the names of what they read and write', () => {
  const c = emitC(twice, 'tw')

  it('one function and context struct for both loops (and one for both their rows, run when a batch is small)', () => {
    expect([...c.matchAll(/static void (tw_p\d+)\(void \*pk_ctx/g)].map((m) => m[1])).toEqual(['tw_p0', 'tw_p1'])
    expect(c.match(/pk_parallel_for\(pk_n, tw_p0, &pk_ctx\);/g)).toHaveLength(2)
    expect(c.match(/pk_parallel_for\(pk_n, tw_p1, &pk_ctx\);/g)).toHaveLength(2)
  })

  it('each loop passes its own tensors and sizes, in the order the struct declares them', () => {
    const struct = /typedef struct \{\n([^}]*)\} tw_p0_ctx;/.exec(c)![1]
    const fields = struct.trim().split('\n').map((l) => l.trim().replace(/;$/, '').split(' ').at(-1))
    const sites = [...c.matchAll(/tw_p0_ctx pk_ctx = \{([^}]*)\};/g)].map((m) => m[1].split(', '))
    expect(fields).toEqual(['a', 'b', 'P', 'pk_lo'])
    expect(sites).toEqual([['a', 'b', 'P', 'pk_lo'], ['c', 'd', 'Q', 'pk_lo']])
  })
})

describe('the thread count', () => {
  it('is the baked default at load, unless POLYKERN_THREADS is a positive integer', () => {
    expect(threadsAtLoad()).toBe(BAKED_THREADS)
    expect(threadsAtLoad('2')).toBe(2)
    expect(threadsAtLoad('1')).toBe(1)
    for (const junk of ['0', '-2', 'many', '2x', '']) expect(threadsAtLoad(junk), junk).toBe(BAKED_THREADS)
  })

  it('setThreads changes __polykern.threads and rejects what is not an integer from 1 to 256', () => {
    for (const n of [1, 4, 2, 256, 3]) {
      addon.__polykern.setThreads(n)
      expect(addon.__polykern.threads).toBe(n)
    }
    for (const bad of [0, -1, 1.5, 257, NaN, '2', undefined]) {
      expect(() => addon.__polykern.setThreads(bad as number), String(bad)).toThrow(
        expect.objectContaining({ code: 'runtime_threads_invalid' }),
      )
    }
    expect(addon.__polykern.threads).toBe(3)
  })

  it("the runtime's setThreads reaches every loaded addon, and rejects bad counts itself", () => {
    const matmulAbi = K.abiOf(K.matmul)
    loadKernels({
      module: 'threads.test.ts', addon: 'polykern.node', cachePath: addonPath, requires: [],
      kernels: { matmul: { abi: matmulAbi, js: (() => {}) as (...args: never[]) => unknown } },
    })
    expect(loadedKernels().find((e) => e.module === 'threads.test.ts')?.native).toBe(true)
    setThreads(2)
    expect(addon.__polykern.threads).toBe(2)
    setThreads(1)
    expect(addon.__polykern.threads).toBe(1)
    expect(() => setThreads(0)).toThrow(RangeError)
    expect(addon.__polykern.threads).toBe(1)
  })
})

describe('results', () => {
  it('every kernel at every ISA and 1 to 4 threads equals the interpreter, and equals 1 thread bit for bit', () => {
    const next = rng(0x7e4d)
    for (const kernel of KERNELS) {
      for (let shape = 0; shape < 6; shape++) {
        const sizes = randomSizes(kernel, next, shape === 0 ? 1 : 40)
        const args = irArgs(kernel, new Map(Object.entries(sizes)), next)
        const want = outputs(kernel, (...a) => interpret(kernel, a), args)
        for (const isa of ISAS) {
          addon.__polykern.setIsa(isa.name)
          addon.__polykern.setThreads(1)
          const serial = outputs(kernel, addon[kernel.name], args)
          const label = `${kernel.name} ${isa.name} ${JSON.stringify(sizes)}`
          serial.forEach((out, n) => expect(maxRelErr(out, want[n]), label).toBeLessThan(1e-5))
          for (const threads of [2, 3, 4]) {
            addon.__polykern.setThreads(threads)
            expectSameAsSerial(kernel, outputs(kernel, addon[kernel.name], args), serial, `${label}, ${threads} threads`)
          }
        }
      }
    }
  })

  it('a batch of one runs its rows on the pool with the same results as one thread', () => {
    const next = rng(0xba7c)
    for (const P of [1, 2, 3, 17, 100]) {
      const args = irArgs(scaleRows, new Map([['N', 1], ['P', P]]), next)
      const want = outputs(scaleRows, (...a) => interpret(scaleRows, a), args)
      for (const threads of [1, 2, 4]) {
        addon.__polykern.setThreads(threads)
        expect(outputs(scaleRows, addon.scaleRows, args), `P=${P}, ${threads} threads`).toEqual(want)
      }
    }
  })

  it('the pool survives hundreds of calls while the thread count and ISA keep changing', () => {
    const next = rng(0x9001)
    for (let call = 0; call < 400; call++) {
      const kernel = KERNELS[Math.floor(next() * KERNELS.length)]
      const args = irArgs(kernel, new Map(Object.entries(randomSizes(kernel, next, 24))), next)
      addon.__polykern.setIsa(ISAS[Math.floor(next() * ISAS.length)].name)
      addon.__polykern.setThreads(1)
      const serial = outputs(kernel, addon[kernel.name], args)
      const threads = 1 + Math.floor(next() * 8)
      addon.__polykern.setThreads(threads)
      expectSameAsSerial(kernel, outputs(kernel, addon[kernel.name], args), serial, `call ${call}: ${kernel.name} at ${threads} threads`)
    }
  })

  it('two Node threads and the main thread calling kernels at once all get exact results', async () => {
    addon.__polykern.setThreads(2)
    const worker = (seed: number) =>
      new Promise<number>((resolve, reject) => {
        const code = `const { parentPort, workerData } = require('node:worker_threads')
          ;(${exactMatmuls.toString()})(require(workerData.path), workerData.seed).then((bad) => parentPort.postMessage(bad))`
        const w = new Worker(code, { eval: true, workerData: { path: addonPath, seed } })
        w.once('message', resolve)
        w.once('error', reject)
      })
    const running = [worker(1), worker(2)]
    const mine = await exactMatmuls({ matmul: addon.matmul }, 3)
    expect([mine, ...(await Promise.all(running))]).toEqual([0, 0, 0])
  })
})

/**
 * Matmuls of small integers (exact in f32 whatever the summation order) checked against plain loops: the number of
 * wrong elements. Self-contained, as it also runs inside worker threads.
 */
async function exactMatmuls(a: { matmul: (...args: unknown[]) => void }, seed: number): Promise<number> {
  let bad = 0
  for (let r = 0; r < 150; r++) {
    const [M, N, Kd] = [1 + ((r * 7 + seed) % 40), 1 + ((r * 13 + seed) % 50), 1 + ((r * 5 + seed) % 30)]
    const A = Float32Array.from({ length: M * Kd }, (_, i) => ((i * 37 + r + seed) % 11) - 5)
    const B = Float32Array.from({ length: Kd * N }, (_, i) => ((i * 53 + r) % 7) - 3)
    const C = new Float32Array(M * N).fill(NaN)
    a.matmul(A, B, C, M, N, Kd)
    for (let i = 0; i < M; i++) {
      for (let j = 0; j < N; j++) {
        let s = 0
        for (let q = 0; q < Kd; q++) s += A[i * Kd + q] * B[q * N + j]
        if (C[i * N + j] !== s) bad++
      }
    }
    if (r % 50 === 0) await new Promise((resolve) => setTimeout(resolve, 0))
  }
  return bad
}
