// The record of one compiled kernel, shared by the pipeline that makes it and the steps after it (rewrite, memo,
// report, verify, bench): in a file of its own so none of them imports the pipeline for its type.
import type { KernelAbi } from '../runtime/abi.ts'
import type { PrefixScan } from './analysis/prefix-scans.ts'
import type { KernelSite } from './find/site.ts'
import type { Kernel } from './ir/nodes.ts'
import type { SlowStatement } from './passes/slow-statements.ts'
import type { SplitSum } from './passes/split-sums.ts'

/** One annotated function, compiled: IR after all passes, JS loops, and its call signature. */
export interface CompiledKernel {
  readonly site: KernelSite
  readonly ir: Kernel
  readonly abi: KernelAbi
  /** `function (A, B, ...) { loops }`: the fallback, parameters in the function's order. */
  readonly js: string
  /** Statements doing cubic work as plain loops, offsets into the spec text (kernelWarnings makes the warnings). */
  readonly slow: readonly SlowStatement[]
  /** Sums that split into a product of separate sums (likely typos), likewise. */
  readonly splitSums: readonly SplitSum[]
  /** Prefix sums per output element (quadratic where a scan is linear), likewise. */
  readonly prefixScans: readonly PrefixScan[]
}
