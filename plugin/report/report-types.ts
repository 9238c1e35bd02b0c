/**
 * The build report as data: what `polykern-report.json` holds and what the HTML page is drawn from. Every rate is
 * GFLOP/s (1e9 floating-point operations per second, a multiply-add counting two); every size is in bytes.
 */
import type { GemmBlocking } from '../ir/nodes.ts'
import type { Roofline } from './machine-peak.ts'

export interface BuildReport {
  readonly version: 1
  /** ISO time the report was written. */
  readonly generated: string
  readonly machine: MachineReport
  readonly roofline: Roofline
  /** What the numbers rest on, in words (the clock, how FLOPs are counted, how the timing ran). */
  readonly assumptions: readonly string[]
  readonly kernels: readonly KernelReport[]
}

export interface MachineReport {
  readonly cpu: string
  readonly cores: number
  readonly caches: readonly { readonly level: number; readonly bytes: number; readonly sharedBy: number }[]
  /** Per core, bytes per cycle (targets/machine.ts). */
  readonly memoryBytesPerCycle: number
  readonly source: string
  /** The ISA the addons run on this CPU (the best one it supports). */
  readonly isa: string
}

export interface KernelReport {
  readonly name: string
  /** The module, from the project root. */
  readonly module: string
  /** `file:line:column` of the `@kernel` comment. */
  readonly location: string
  /** The spec as written, whitespace collapsed per line. */
  readonly spec: string
  readonly tensors: readonly { readonly name: string; readonly dtype: string; readonly shape: readonly string[]; readonly role: string }[]
  /** ISAs the addon holds a version of this kernel for, best first. */
  readonly isas: readonly string[]
  readonly native: NativeReport
  /** What the build warned about this kernel (`perf_plain_loops`: a statement doing cubic work as plain loops). */
  readonly warnings: readonly WarningReport[]
  /** The lowered loop nest, one line per loop, indented by depth (what runs where no microkernel does). */
  readonly loops: readonly string[]
  readonly contractions: readonly ContractionReport[]
  /** Timings of the whole kernel: per shape class of its first contraction, else one at a size every parameter shares. */
  readonly measurements: readonly Measurement[]
  /** Its point on the roofline: the default class (or the one timing) measured when it could be, else predicted. */
  readonly point?: RooflinePoint
}

export interface WarningReport {
  readonly code: string
  /** `file:line:column` of the statement, from the project root. */
  readonly location?: string
  readonly message: string
  /** The rewrite that would make it fast, and how to silence it. */
  readonly notes: readonly string[]
}

export type NativeReport =
  | { readonly built: true; readonly isa: string; readonly addon: string; readonly jsBelow?: number }
  | { readonly built: false; readonly reason: string }

export interface ContractionReport {
  readonly id: string
  readonly dtype: string
  readonly roles: {
    readonly m: string; readonly n: string; readonly k: string; readonly batch: readonly string[]
    readonly a: string; readonly b: string; readonly c: string
  }
  /** Per ISA with a blocked GEMM for it: the schedule each shape class runs, as the model sees it. */
  readonly schedules: readonly IsaSchedule[]
  /** The best variants of the default class's ranking on the ISA that runs here, cheapest first. */
  readonly ranking: readonly RankedEntry[]
}

export interface IsaSchedule {
  readonly isa: string
  readonly microkernel: string
  readonly classes: readonly ClassSchedule[]
}

export interface ClassSchedule {
  readonly shapeClass: string
  /** Which calls it takes, e.g. `M <= 8`; `always` for the default class. */
  readonly guard: string
  readonly representative: { readonly m: number; readonly n: number; readonly k: number; readonly batch: number }
  readonly blocking: GemmBlocking
  /** `mc … nc … kc …, order …, inner …, parallel …, pack …`. */
  readonly description: string
  readonly workingSets: readonly LevelWorkingSets[]
  readonly predicted: { readonly flops: number; readonly cycles: number; readonly gflops: number }
  /** FLOPs per byte of every tensor moved once (the compulsory traffic). */
  readonly intensity: number
}

export interface LevelWorkingSets {
  /** `L1`, `L2`, … or `memory` (no level holds it). */
  readonly level: string
  readonly capacityBytes?: number
  readonly sets: readonly { readonly tensor: string; readonly loop: string; readonly bytes: number }[]
}

export interface RankedEntry {
  readonly rank: number
  readonly description: string
  readonly cycles: number
  readonly gflops: number
}

export interface Measurement {
  /** The shape class timed, or `uniform` (every size parameter the same). */
  readonly label: string
  readonly sizes: Readonly<Record<string, number>>
  readonly flops: number
  readonly intensity: number
  /** Fastest call; absent when it was not timed (`skipped` says why). */
  readonly seconds?: number
  readonly gflops?: number
  readonly skipped?: string
}

export interface RooflinePoint {
  readonly label: string
  readonly intensity: number
  readonly gflops: number
  readonly source: 'measured' | 'predicted'
  /** Why a predicted point was not measured (its class's `skipped`, e.g. over the timing budget). */
  readonly unmeasured?: string
}
