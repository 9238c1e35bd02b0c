/**
 * A target instruction set as data (Halide's intrinsic tables, ISA Mapper's instruction descriptions): what the
 * C emitter needs to compile a kernel for it, and what the loader checks before running that version.
 * Every addon holds one version of each kernel per ISA in `ISAS`, compiled with GCC target attributes, and
 * picks the best one the CPU supports at load time. A new target is its Isa (one file here) and its C header.
 */
import type { Microkernel } from './microkernel.ts'
import type { VectorUnit } from './vector-ops.ts'

export type IsaName = 'avx512' | 'avx2' | 'scalar'

export interface Isa {
  readonly name: IsaName
  /** `__attribute__((target("...")))` / `#pragma GCC target` string for this version's functions; '' for scalar. */
  readonly gccTarget: string
  /** Features checked with `__builtin_cpu_supports` before this version is chosen. */
  readonly cpuFeatures: readonly string[]
  /** Vector register width in bytes (0: no vectors) and how many registers the microkernels may use. */
  readonly vectorBytes: number
  readonly vectorRegisters: number
  /** The vector tables and header, shared by microkernels and vector loops; none: vector loops run serially. */
  readonly vectors?: VectorUnit
  /** Register-blocked microkernels a matching contraction is substituted with, at most one per dtype. */
  readonly microkernels: readonly Microkernel[]
}
