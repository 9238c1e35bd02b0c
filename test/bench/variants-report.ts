/**
 * What `npm run bench -- --variants` adds to the bench's JSON (test/bench/variants.ts measures it), and its table.
 * - `variants`: per case and thread count, the analytic pick (rank 1 of the schedule ranking on the case's sizes)
 *   and the best of the top k ranked variants, each timed in the same rounds; `classPickGflops` is the blocking the
 *   compiled kernel picks for these sizes at call time (its shape class's analytic pick).
 * - `buildColdMs`: compiling a module with one GEMM kernel into an empty cache (parse, analysis, ranking, C, node-gyp,
 *   calibration) in a fresh process, module loading not counted: the median of `buildColdRunsMs` (each in its own
 *   process and cache: this machine's speed drifts between runs); `buildCachedMs`: the same module again in a process
 *   that built it before (a watch-mode rebuild: addon cache hit); `buildCachedFreshProcessMs`: again in a new process.
 */
import type { GemmBlocking } from '../../plugin/ir/nodes.ts'

export interface VariantTiming {
  /** 0: the analytic pick. */
  readonly rank: number
  readonly blocking: GemmBlocking
  readonly gflops: number
}

export interface VariantCase {
  readonly name: string
  readonly shape: { readonly M: number; readonly N: number; readonly K: number }
  readonly threads: 1 | 2
  readonly isa: string
  readonly topK: number
  readonly analyticGflops: number
  readonly bestOfTopKGflops: number
  /** analyticGflops / bestOfTopKGflops: the issue's target is at least 0.95. */
  readonly ratio: number
  readonly classPickGflops: number
  /** The analytic pick's output against a float64 reference on sampled elements. */
  readonly maxRelErr: number
  readonly variants: readonly VariantTiming[]
}

export interface VariantsReport {
  readonly buildColdMs: number
  readonly buildColdRunsMs: readonly number[]
  readonly buildCachedMs: number
  readonly buildCachedFreshProcessMs: number
  readonly variants: readonly VariantCase[]
}

export function formatVariants(r: VariantsReport): string {
  const rows = r.variants.map((v) => {
    const best = v.variants.reduce((b, x) => (x.gflops > b.gflops ? x : b))
    return `${v.name.padEnd(26)} ${`${v.threads}T`.padStart(3)}  ${v.analyticGflops.toFixed(1).padStart(8)}  ` +
      `${v.bestOfTopKGflops.toFixed(1).padStart(8)} (rank ${best.rank + 1})  ${v.ratio.toFixed(3).padStart(6)}  ` +
      `${v.classPickGflops.toFixed(1).padStart(8)}`
  })
  return [
    `analytic pick vs best of the top ${r.variants[0]?.topK ?? '-'} ranked variants, GFLOP/s (${r.variants[0]?.isa ?? '-'})`,
    `${'case'.padEnd(26)}      analytic  best of top-k       ratio  class pick`,
    ...rows,
    `build: cold ${r.buildColdMs.toFixed(0)} ms (median of ${r.buildColdRunsMs.map((ms) => ms.toFixed(0)).join(', ')}), cached ${r.buildCachedMs.toFixed(1)} ms ` +
      `(in a fresh process ${r.buildCachedFreshProcessMs.toFixed(0)} ms)`,
  ].join('\n')
}
