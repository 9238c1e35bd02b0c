/**
 * A register-blocked outer-product microkernel as data (PolyDL's microkernel with its loop-equivalent spec, ISA
 * Mapper's instruction description): what it computes, written in polykern's own spec language so the matcher
 * compares IR with IR, its register tile, and the ISA's vector table its C body is generated from
 * (emit/c-microkernel.ts).
 */
import type { DType } from '../ir/nodes.ts'
import type { VectorOps } from './vector-ops.ts'

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
  /** The ISA's table for `dtype` (`Isa.vectors`), the same object. */
  readonly ops: VectorOps
  /** Vector registers the k loop has (its ISA's `vectorRegisters`). */
  readonly registers: number
}

/**
 * Registers the k loop must keep live: MR·NR/lanes accumulators and NR/lanes B vectors. Its broadcast of A takes one
 * more; without it, the full tile loads B in parts and broadcasts each row of A once per part (emit/c-microkernel.ts).
 */
export const registersUsed = (mk: Microkernel): number => (mk.mr * mk.nr) / mk.lanes + mk.nr / mk.lanes

/**
 * Whether the full tile has no register left for the broadcast (7 × 64 on AVX-512): it broadcasts A twice a k step,
 * 18 loads per 28 FMAs where 6 × 64 takes 10 per 24, so only an im2col convolution, which prices its tiles per call,
 * picks it.
 */
export const rebroadcasts = (mk: Microkernel): boolean => registersUsed(mk) >= mk.registers


/**
 * Tile heights with a function of their own (edge rows run on the next taller one): MR; in a convolution's families
 * (grouped k), MR - 1 too, the rows an im2col tile of one output row runs a tap on where one position's window reads
 * padding (native/polykern_conv_driver.h, tile_taps); then 4, 2 and 1.
 */
export const tileRows = (mk: Microkernel, grouped = false): readonly number[] =>
  [mk.mr, ...(grouped && mk.mr - 1 > 4 ? [mk.mr - 1] : []), ...[4, 2, 1].filter((r) => r < mk.mr)]
