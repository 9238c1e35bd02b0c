/**
 * `f.bind({ F })`: constants copied once (and, natively, a convolution's filter packed once), the other parameters in
 * their order, `.async`, `release()`, the JS fallback with the same API, and clear errors for what cannot be bound.
 * Results are checked against plain JS loops on random shapes whose channels are not multiples of a vector.
 */
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { kernels as loadedKernels, setThreads } from '../../runtime/index.ts'
import { importCompiled } from '../support/compiled-import.ts'
import { convolutionKernel } from '../support/convolutions.ts'
import { copyAtOffset } from '../support/kernel-args.ts'
import { randomArray, rng } from '../support/random.ts'

const OUT = path.join(import.meta.dirname, '../.out/bind', String(process.pid))
const CACHE = path.join(import.meta.dirname, '../../node_modules/.cache/polykern-test')

const KERNELS = `
/* @kernel
   I: f32[N, H, W, C]
   F: f32[3, 3, C, K]
   O: f32[N, H, W, K]
   O[n, p, q, k] +=! I[n, p + r - 1, q + s - 1, c] * F[r, s, c, k]
*/
export function conv3x3(I: Float32Array, F: Float32Array, O: Float32Array, N: number, H: number, W: number, C: number, K: number): Float32Array {
  return O
}

/* @kernel
   A: f64[M, K]
   B: f64[K, N]
   C: f64[M, N]
   C[i, j] +=! A[i, k] * B[k, j]
*/
export function matmul(A: Float64Array, B: Float64Array, C: Float64Array, M: number, N: number, K: number): Float64Array {
  return C
}
`

type Fn = ((...args: unknown[]) => unknown) & { bind: (c: unknown, ...rest: unknown[]) => Bound; async: (...args: unknown[]) => Promise<unknown> }
type Bound = ((...args: unknown[]) => unknown) & { async: (...args: unknown[]) => Promise<unknown>; release: () => void }
interface Kernels {
  readonly conv3x3: Fn
  readonly matmul: Fn
}

/** O[n, p, q, k] = Σ I[n, p + r - 1, q + s - 1, c] · F[r, s, c, k], in float64. */
function convReference(I: Float32Array, F: Float32Array, N: number, H: number, W: number, C: number, K: number): Float64Array {
  const O = new Float64Array(N * H * W * K)
  for (let n = 0; n < N; n++)
    for (let p = 0; p < H; p++)
      for (let q = 0; q < W; q++)
        for (let r = 0; r < 3; r++)
          for (let s = 0; s < 3; s++) {
            const h = p + r - 1, w = q + s - 1
            if (h < 0 || h >= H || w < 0 || w >= W) continue
            for (let c = 0; c < C; c++)
              for (let k = 0; k < K; k++) O[((n * H + p) * W + q) * K + k] += I[((n * H + h) * W + w) * C + c] * F[((r * 3 + s) * C + c) * K + k]
          }
  return O
}

const next = rng(0xb1d)
const f32 = (n: number) => randomArray('f32', n, next) as Float32Array
const close = (got: ArrayLike<number>, want: ArrayLike<number>) => {
  expect(got.length).toBe(want.length)
  let worst = 0
  for (let i = 0; i < want.length; i++) worst = Math.max(worst, Math.abs(got[i] - want[i]) / (1 + Math.abs(want[i])))
  expect(worst).toBeLessThan(1e-4)
}

/** The convolution's plans as the compiler makes them (per ISA: its tile, and the im2col calls' tile when another). */
const CONV_PLANS = (() => {
  const spec = KERNELS.slice(KERNELS.indexOf('I: f32'), KERNELS.indexOf('*/'))
  const conv = convolutionKernel(spec, 'conv3x3').body.find((s) => s.kind === 'convolution')
  return conv?.kind === 'convolution' ? conv.plans : []
})()

let native: Kernels
let fallback: Kernels
beforeAll(async () => {
  const built = await importCompiled(OUT, 'native-kernels.ts', KERNELS, { cacheDir: CACHE, calibrate: false })
  if (!built.compiled.addon) throw new Error(`native build failed: ${built.compiled.warnings.map((w) => w.notes[0]?.text).join('\n')}`)
  native = built.module as unknown as Kernels
  fallback = (await importCompiled(OUT, 'js-kernels.ts', KERNELS, { native: false })).module as unknown as Kernels
}, 300_000)

/** The native matmul's record: its live count of bound operands' packed forms. */
const matmulMeta = () =>
  loadedKernels().find((k) => k.name === 'matmul' && k.module === 'native-kernels.ts')!.meta as { readonly boundForms: number }

/** Random f64 A (M × K) and B (K × N), and their product from the unbound native matmul. */
function matmulCase(M: number, N: number, K: number): { A: Float64Array; B: Float64Array; want: Float64Array } {
  const A = randomArray('f64', M * K, next) as Float64Array
  const B = randomArray('f64', K * N, next) as Float64Array
  return { A, B, want: native.matmul(A, B, new Float64Array(M * N), M, N, K) as Float64Array }
}

describe('natively', () => {
  it('a bound filter is packed on its first call and read on later ones, whatever the image; released, it is freed', async () => {
    const entry = loadedKernels().find((k) => k.name === 'conv3x3' && k.module === 'native-kernels.ts')!
    const meta = entry.meta as { readonly boundForms: number }
    const [C, K] = [21, 37]
    const F = f32(9 * C * K)
    const layer = native.conv3x3.bind({ F })
    const before = meta.boundForms
    const run = (N: number, H: number, W: number) => {
      const I = f32(N * H * W * C)
      close(layer(I, new Float32Array(N * H * W * K), N, H, W, C, K) as Float32Array, convReference(I, F, N, H, W, C, K))
    }
    // Each call runs on one microkernel's driver (im2col calls on the cheapest for their sizes, longer rows direct on
    // the plan's), whose form is packed by the first call that needs it and read by every later one.
    const plan = CONV_PLANS.find((p) => p.isa === entry.meta?.isa)
    const drivers = new Set([plan?.microkernel, ...(plan?.im2colMicrokernels ?? [])]).size
    const shapes = [[1, 8, 9], [1, 30, 3], [1, 4, 4], [2, 5, 13], [1, 3, 20]] as const
    for (const [N, H, W] of shapes) run(N, H, W)
    const made = meta.boundForms - before
    expect(made, `${entry.meta?.isa}: ${plan?.microkernel}`).toBeGreaterThanOrEqual(1)
    expect(made).toBeLessThanOrEqual(drivers)
    for (const [N, H, W] of shapes) run(N, H, W)
    await layer.async(f32(4 * 4 * C), new Float32Array(4 * 4 * K), 1, 4, 4, C, K)
    native.conv3x3(f32(64 * C), F, new Float32Array(64 * K), 1, 8, 8, C, K)
    expect(meta.boundForms).toBe(before + made)
    layer.release()
    expect(meta.boundForms).toBe(before)
  })

  it("a bound GEMM operand's packed blocks are made on the first call and read on later ones, at 1 and 2 threads", () => {
    const meta = matmulMeta()
    const [M, N, K] = [97, 131, 611]
    const { A, B, want } = matmulCase(M, N, K)
    for (const [name, layer, args] of [
      ['B', native.matmul.bind({ B }), [A]],
      ['A', native.matmul.bind({ A }), [B]],
    ] as const) {
      const before = meta.boundForms
      for (const threads of [1, 2, 1]) {
        setThreads(threads)
        close(layer(...args, new Float64Array(M * N), M, N, K) as Float64Array, want)
        // B is packed by every blocking; A only where the schedule packs it (here it reads A in place).
        if (name === 'B') expect(meta.boundForms - before, `B bound, ${threads} thread(s)`).toBeGreaterThan(0)
      }
      const kept = meta.boundForms
      close(layer(...args, new Float64Array(M * N), M, N, K) as Float64Array, want)
      expect(meta.boundForms, `${name}: no new block on a call like the last`).toBe(kept)
      layer.release()
      expect(meta.boundForms).toBe(before)
    }
    setThreads(1)
  })

  it('.async calls of a freshly bound B, all at once, race to pack it: each block is packed once, every result is right', async () => {
    const meta = matmulMeta()
    // A short A (little to copy in before each call starts) and a long B (many blocks, each long to pack).
    const [M, N, K] = [50, 1031, 2053]
    const { A, B, want } = matmulCase(M, N, K)
    const before = meta.boundForms
    const alone = native.matmul.bind({ B })
    close(alone(A, new Float64Array(M * N), M, N, K) as Float64Array, want)
    const made = meta.boundForms - before
    alone.release()
    expect(made).toBeGreaterThan(0)
    // Eight calls on libuv's threads, none of which finds a form when it starts.
    const layer = native.matmul.bind({ B })
    const outs = await Promise.all(Array.from({ length: 8 }, () => layer.async(A, new Float64Array(M * N), M, N, K)))
    for (const out of outs) close(out as Float64Array, want)
    expect(meta.boundForms, 'each block packed once').toBe(before + made)
    layer.release()
    expect(meta.boundForms).toBe(before)
  })

  it("a bound B of more blocks than the registry's first table holds (64) is found again block by block", () => {
    const meta = matmulMeta()
    // Three row counts of three shape classes, each blocking B its own way: a hundred forms or more of one array, so
    // the registry's table grows (and moves every form) while the first calls are still adding to it.
    const [N, K] = [1031, 2053]
    const B = randomArray('f64', K * N, next) as Float64Array
    const cases = [50, 300, 700].map((M) => {
      const A = randomArray('f64', M * K, next) as Float64Array
      return { M, A, want: native.matmul(A, B, new Float64Array(M * N), M, N, K) as Float64Array }
    })
    const layer = native.matmul.bind({ B })
    const before = meta.boundForms
    // Two threads split the blocks their own way: their first calls add forms of their own.
    const round = () => {
      for (const threads of [1, 2]) {
        setThreads(threads)
        for (const { M, A, want } of cases) close(layer(A, new Float64Array(M * N), M, N, K) as Float64Array, want)
      }
    }
    round()
    const made = meta.boundForms - before
    expect(made).toBeGreaterThan(64)
    round()
    expect(meta.boundForms, 'every block found again, none packed twice').toBe(before + made)
    layer.release()
    expect(meta.boundForms).toBe(before)
    setThreads(1)
  })

  it('a bound B is read from its packed blocks at 2 threads where the team would otherwise pack B together', () => {
    const meta = matmulMeta()
    // Rows enough for the team to share B's panels (PK_GEMM_SHARED_MIN_TILES per thread, in the parallel m loop):
    // unbound, the two threads pack each panel together on every call; bound, each reads the packed form.
    const [M, N, K] = [421, 131, 611]
    const { A, B, want } = matmulCase(M, N, K)
    const layer = native.matmul.bind({ B })
    const before = meta.boundForms
    setThreads(2)
    close(layer(A, new Float64Array(M * N), M, N, K) as Float64Array, want)
    expect(meta.boundForms - before, 'forms made by the first call at 2 threads').toBeGreaterThan(0)
    const kept = meta.boundForms
    close(layer(A, new Float64Array(M * N), M, N, K) as Float64Array, want)
    expect(meta.boundForms).toBe(kept)
    layer.release()
    expect(meta.boundForms).toBe(before)
    setThreads(1)
  })

  it('a bound B of matrix-vector calls (their own blocking: the packed form read in long panel runs) agrees with plain loops at 1 and 2 threads', () => {
    const meta = matmulMeta()
    // Past the tiny and small classes (M·N·K > 2^21), whose blockings also pack a bound B.
    for (const [M, N, K] of [[1, 1031, 4099], [3, 700, 2001]] as const) {
      const A = randomArray('f64', M * K, next) as Float64Array
      const B = randomArray('f64', K * N, next) as Float64Array
      const want = new Float64Array(M * N)
      for (let i = 0; i < M; i++) for (let k = 0; k < K; k++) for (let j = 0; j < N; j++) want[i * N + j] += A[i * K + k] * B[k * N + j]
      const before = meta.boundForms
      const layer = native.matmul.bind({ B })
      for (const threads of [1, 2, 1]) {
        setThreads(threads)
        close(layer(A, new Float64Array(M * N), M, N, K) as Float64Array, want)
      }
      expect(meta.boundForms - before, `${M} × ${N} × ${K}: B packed once`).toBeGreaterThan(0)
      layer.release()
      expect(meta.boundForms).toBe(before)
    }
    setThreads(1)
  })

  it('one bound array read as two filter shapes of its length (C, K swapped) gets a form for each', () => {
    const [C, K] = [6, 35]
    const F = f32(9 * C * K)
    const layer = native.conv3x3.bind({ F })
    for (const [c, k] of [[C, K], [K, C], [C, K]]) {
      const I = f32(5 * 7 * c)
      close(layer(I, new Float32Array(5 * 7 * k), 1, 5, 7, c, k) as Float32Array, convReference(I, F, 1, 5, 7, c, k))
    }
    layer.release()
  })
})

describe.each([['native', () => native], ['JS fallback', () => fallback]] as const)('%s', (_, kernels) => {
  it('a bound convolution agrees with the loops on random shapes, called many times and through .async', async () => {
    for (let round = 0; round < 6; round++) {
      const [N, H, W] = [1 + (round % 2), 3 + Math.floor(next() * 12), 2 + Math.floor(next() * 12)]
      const [C, K] = [1 + Math.floor(next() * 40), 1 + Math.floor(next() * 70)]
      // Odd rounds bind and pass views at odd element offsets, which no fresh (16-byte aligned) array is.
      const view = <T extends Float32Array>(a: T, at: number): T => (round % 2 === 1 ? copyAtOffset(a, at) : a)
      const F = view(f32(9 * C * K), 1)
      const layer = kernels().conv3x3.bind({ F })
      for (let call = 0; call < 3; call++) {
        const I = view(f32(N * H * W * C), 3)
        const O = view(new Float32Array(N * H * W * K).fill(NaN), 5)
        expect(layer(I, O, N, H, W, C, K)).toBe(O)
        close(O, convReference(I, F, N, H, W, C, K))
        const A = view(new Float32Array(O.length), 7)
        await expect(layer.async(I, A, N, H, W, C, K)).resolves.toBe(A)
        close(A, O)
      }
      layer.release()
    }
  })

  it("changing the caller's filter after bind changes nothing; released, the bound kernel refuses calls", async () => {
    const [N, H, W, C, K] = [1, 9, 7, 19, 33]
    const F = f32(9 * C * K)
    const want = Float32Array.from(F)
    const layer = kernels().conv3x3.bind({ F })
    const I = f32(N * H * W * C)
    const O = new Float32Array(N * H * W * K)
    layer(I, O, N, H, W, C, K)
    F.fill(1e6)
    const again = new Float32Array(O.length)
    layer(I, again, N, H, W, C, K)
    close(again, convReference(I, want, N, H, W, C, K))
    const pending = layer.async(I, new Float32Array(O.length), N, H, W, C, K)
    layer.release()
    layer.release()
    await expect(pending).resolves.toBeInstanceOf(Float32Array)
    expect(() => layer(I, O, N, H, W, C, K)).toThrow(expect.objectContaining({ code: 'runtime_bound_released', kernel: 'conv3x3' }))
    await expect(layer.async(I, O, N, H, W, C, K)).rejects.toMatchObject({ code: 'runtime_bound_released' })
  })

  it('two bound filters of one kernel stay apart; the unbound kernel still takes every argument', () => {
    const [N, H, W, C, K] = [1, 6, 5, 17, 20]
    const [F1, F2, I] = [f32(9 * C * K), f32(9 * C * K), f32(N * H * W * C)]
    const [one, two] = [kernels().conv3x3.bind({ F: F1 }), kernels().conv3x3.bind({ F: F2 })]
    for (let call = 0; call < 2; call++) {
      close(one(I, new Float32Array(N * H * W * K), N, H, W, C, K) as Float32Array, convReference(I, F1, N, H, W, C, K))
      close(two(I, new Float32Array(N * H * W * K), N, H, W, C, K) as Float32Array, convReference(I, F2, N, H, W, C, K))
    }
    close(kernels().conv3x3(I, F2, new Float32Array(N * H * W * K), N, H, W, C, K) as Float64Array, convReference(I, F2, N, H, W, C, K))
    one.release()
    two.release()
  })

  it('binds either operand of a matmul; arguments are still validated, with the bound ones left out of the count', () => {
    const [M, N, K] = [13, 21, 9]
    const A = randomArray('f64', M * K, next) as Float64Array
    const B = randomArray('f64', K * N, next) as Float64Array
    const want = kernels().matmul(A, B, new Float64Array(M * N), M, N, K) as Float64Array
    const byB = kernels().matmul.bind({ B })
    close(byB(A, new Float64Array(M * N), M, N, K) as Float64Array, want)
    const byA = kernels().matmul.bind({ A })
    close(byA(B, new Float64Array(M * N), M, N, K) as Float64Array, want)
    expect(() => byB(A, new Float64Array(M * N), M, N)).toThrow(
      expect.objectContaining({ code: 'runtime_arg_count', message: expect.stringContaining('matmul() with B bound: expected 5 arguments (A, C, M, N, K) but got 4') }),
    )
    expect(() => byB(A, new Float64Array(M * N), M + 1, N, K)).toThrow(expect.objectContaining({ code: 'runtime_arg_length' }))
  })

  it('what cannot be bound is a KernelTypeError naming the kernel, the argument and the annotation', () => {
    const F = f32(9)
    const cases: [unknown, string, string | undefined, string][] = [
      [{}, 'runtime_bind_invalid', undefined, 'binds nothing: name tensors it only reads (I, F)'],
      [{ G: F }, 'runtime_bind_invalid', 'G', "'G' is not a tensor parameter (tensors it only reads: I, F)"],
      [{ C: F }, 'runtime_bind_invalid', 'C', "'C' is not a tensor parameter"],
      [{ O: F }, 'runtime_bind_invalid', 'O', "'O' is written by the kernel; only tensors it only reads can be bound"],
      [{ F: new Float64Array(9) }, 'runtime_arg_type', 'F', "'F' must be a Float32Array, got a Float64Array"],
      [{ F: [1, 2] }, 'runtime_arg_type', 'F', "'F' must be a Float32Array, got an Array of 2 elements"],
    ]
    for (const [constants, code, argument, message] of cases) {
      const error = expect.objectContaining({ name: 'KernelTypeError', code, kernel: 'conv3x3', argument, message: expect.stringContaining(`conv3x3(): bind() ${message}`) })
      expect(() => kernels().conv3x3.bind(constants), message).toThrow(error)
      expect(() => kernels().conv3x3.bind(constants), message).toThrow(/native-kernels\.ts:\d+:\d+|js-kernels\.ts:\d+:\d+/)
    }
  })

  it('anything but one plain object is Function.prototype.bind', () => {
    const [M, N, K] = [3, 4, 5]
    const A = randomArray('f64', M * K, next) as Float64Array
    const B = randomArray('f64', K * N, next) as Float64Array
    const withThis = kernels().matmul.bind(null, A) as unknown as (...args: unknown[]) => Float64Array
    close(withThis(B, new Float64Array(M * N), M, N, K), kernels().matmul(A, B, new Float64Array(M * N), M, N, K) as Float64Array)
    class Self {}
    expect(typeof kernels().matmul.bind(new Self())).toBe('function')
  })
})
