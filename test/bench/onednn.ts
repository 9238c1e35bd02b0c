/**
 * The bench's `onednn` system: Debian's oneDNN (installed on first use by test/support/onednn.ts), called through
 * onednn.c, which is built here with gcc into a Node-API addon. Its primitives are prepared once per case and thread
 * count (weights reordered into oneDNN's layout outside the timing); `run` is the call the bench times.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { nodePrefix } from '../../plugin/addon/toolchain.ts'
import { ensureOnednn } from '../support/onednn.ts'
import type { GemmCase } from './cases.ts'
import type { ConvModelShape } from './conv-onnx.ts'

/** A primitive with its constant operands prepared. */
export interface Prepared {
  /** The timed call: activations in and the result out, both in the layout of the polykern kernel of the case. */
  readonly run: (input: Float32Array, output: Float32Array) => void
  /** Frees the primitive and its weights now rather than when the handle is collected. */
  readonly release: () => void
  /** The implementation oneDNN chose, e.g. `brg:avx512_core`. */
  readonly impl: string
}

/** onednn.c's exports: integers, then arrays (null for none); see the comments there. */
interface Addon {
  version(): string
  gemm(threads: number, batch: number, M: number, N: number, K: number, transposed: number, relu: number, B: Float32Array,
    bias: Float32Array | null): Prepared
  conv(threads: number, N: number, H: number, W: number, C: number, K: number, R: number, S: number, stride: number,
    pad: number, groups: number, relu: number, F: Float32Array, bias: Float32Array | null): Prepared
}

export interface Onednn {
  /** e.g. `2.6.3 (OpenMP)`. */
  readonly version: string
  /** A GEMM case with B as its weights: run(A, C), A and C as cases.ts stores them; with `bias`, the bias along each
   *  row of C and a ReLU follow it. */
  gemm(c: GemmCase, B: Float32Array, threads: 1 | 2, bias?: Float32Array): Prepared
  /** A convolution, NHWC, F [R, S, C, K] ([R, S, C] depthwise); with `bias`, the bias and a ReLU follow it. */
  conv(s: ConvModelShape, F: Float32Array, threads: 1 | 2, bias?: Float32Array): Prepared
}

/** Installs oneDNN when missing, builds the harness into `outDir` and loads it; throws saying why it could not. */
export function loadOnednn(root: string, outDir: string): Onednn {
  ensureOnednn()
  mkdirSync(outDir, { recursive: true })
  const addonPath = path.join(outDir, 'onednn.node')
  const nodeHeaders = path.join(nodePrefix(), 'include', 'node')
  try {
    // -fopenmp: the harness sets thread counts in the same libgomp that Debian's libdnnl runs on.
    execFileSync('gcc', ['-O2', '-shared', '-fPIC', '-fopenmp', '-Wall', '-Wextra', '-Werror', '-I', nodeHeaders,
      path.join(root, 'test/bench/onednn.c'), '-o', addonPath, '-ldnnl'], { stdio: 'pipe' })
  } catch (e) {
    const err = e as { stderr?: Buffer; message: string }
    throw new Error(`the oneDNN harness did not build: ${err.stderr?.toString().trim() || err.message}`)
  }
  const addon = createRequire(import.meta.url)(addonPath) as Addon
  return {
    version: addon.version(),
    gemm: (c, B, threads, bias) =>
      addon.gemm(threads, c.batch ?? 0, c.M, c.N, c.K, c.transposed ? 1 : 0, bias ? 1 : 0, B, bias ?? null),
    conv: (s, F, threads, bias) =>
      addon.conv(threads, s.N, s.H, s.W, s.C, s.K, s.R, s.S, s.stride, s.pad, s.groups, bias ? 1 : 0, F, bias ?? null),
  }
}

/**
 * The `onednn` system of one case at 1 and 2 threads, from `input` into `output`: `prepare` makes the primitive and
 * reorders its weights outside the timing; `time` and `writing` are the case's own, as for every other system.
 */
export async function timeOnednn<Output>(
  time: (system: 'onednn', threads: 1 | 2, call: () => unknown, output: () => Output) => Promise<void>,
  writing: (call: () => unknown) => () => Output,
  prepare: (threads: 1 | 2) => Prepared, input: Float32Array, output: Float32Array,
): Promise<void> {
  for (const threads of [1, 2] as const) {
    const prepared = prepare(threads)
    const call = () => prepared.run(input, output)
    await time('onednn', threads, call, writing(call))
    prepared.release()
  }
}
