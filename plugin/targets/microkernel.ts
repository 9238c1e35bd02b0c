/**
 * A register-blocked outer-product microkernel as data (PolyDL's microkernel with its loop-equivalent spec, ISA
 * Mapper's instruction description): what it computes, written in polykern's own spec language so the matcher
 * compares IR with IR, its register tile, and the vector intrinsics its C body is generated from (emit/c-gemm.ts).
 */
import type { DType } from '../ir/nodes.ts'

/**
 * C templates over `$`-named operands: `$p` a pointer, `$a $b $c $v` vectors, `$m` a lane mask, `$n` a lane count.
 * Every template is an expression.
 */
export interface VectorOps {
  /** C type of one vector register, and of a lane mask. */
  readonly vector: string
  readonly mask: string
  readonly zero: string
  /** Unaligned load, aligned load (packed panels are 64-byte aligned) and broadcast of the element at `$p`. */
  readonly load: string
  readonly loadAligned: string
  readonly broadcast: string
  /** `$a * $b + $c`, fused. */
  readonly fma: string
  readonly add: string
  readonly store: string
  /** The mask of lanes [0, $n), 0 <= $n <= lanes, and of lanes [$n, lanes). */
  readonly firstLanes: string
  readonly lastLanes: string
  /** Masked-off lanes read as 0 and are never touched, so edges never fault past the end of a tensor. */
  readonly maskedLoad: string
  readonly maskedStore: string
}

export interface Microkernel {
  /** Unique across ISAs: it names the generated C function (`pk_ukr_<name>`). */
  readonly name: string
  readonly dtype: Extract<DType, 'f32' | 'f64'>
  /**
   * The loop-equivalent statement; tensors are declared from it (`C[m, n]` → `C: f32[M, N]`). It reads the packed
   * panels: A as MR-row panels contiguous in k, B as NR-column panels contiguous in k.
   */
  readonly spec: string
  /** Register tile: MR rows of C by NR columns, NR a multiple of `lanes`. */
  readonly mr: number
  readonly nr: number
  readonly lanes: number
  readonly ops: VectorOps
}

/** Registers the k loop keeps live: MR·NR/lanes accumulators, NR/lanes B vectors and one broadcast. */
export const registersUsed = (mk: Microkernel): number => (mk.mr * mk.nr) / mk.lanes + mk.nr / mk.lanes + 1

/** `$name` placeholders of a VectorOps template replaced by C expressions. */
export function instantiate(template: string, args: Readonly<Record<string, string>>): string {
  return template.replace(/\$([a-z])/g, (_, name: string) => {
    const arg = args[name]
    if (arg === undefined) throw new Error(`intrinsic template '${template}' needs $${name}`)
    return arg
  })
}
