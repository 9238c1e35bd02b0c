/**
 * One vector register of one element type on one ISA, as C templates (Halide's intrinsic tables): everything the
 * microkernels, packs and vector loops (emit/c-microkernel.ts, c-pack.ts, c-vector.ts) print, so that adding a target
 * is adding its tables and its header, never editing an emitter.
 *
 * Templates are C expressions over `$`-named operands, always these:
 * `$p` a pointer to elements; `$a $b $c` operands in order, vectors (masks in `and`, `or`, `not`); `$v` the vector a
 * store writes; `$m` a lane mask; `$n` a lane count, 0 <= $n <= lanes; `$x` a scalar (an element, or in
 * `broadcastMask` a condition); in `transpose`, `$q` a second pointer (the destination), `$s $t` the row strides, in
 * elements, of `$p` and `$q`, and `$r $w` a tile's rows and columns.
 */
import type { CallFn } from '../ir/nodes.ts'

/** IR comparisons: ordered (false on NaN) but `ne`, which is true on NaN, as in JS and C. */
export type CompareOp = 'lt' | 'le' | 'gt' | 'ge' | 'eq' | 'ne'

/** Reductions across a vector's lanes, once per loop: lanes in order through the scalar operation. */
export type Horizontal = 'sum' | 'prod' | 'max' | 'min'

export interface VectorOps {
  readonly lanes: number
  /** C type of one vector register, and of a lane mask: one representation per table, the one its masked loads take. */
  readonly vector: string
  readonly mask: string
  readonly zero: string
  readonly set1: string
  /** Unaligned load, aligned load (packed panels are 64-byte aligned) and broadcast of the element at `$p`. */
  readonly load: string
  readonly loadAligned: string
  readonly broadcast: string
  readonly store: string
  /** Masked-off lanes read as 0 and are never touched, so edges never fault past the end of a tensor. */
  readonly maskedLoad: string
  readonly maskedStore: string
  /** The mask of lanes [0, $n), and of lanes [$n, lanes). */
  readonly firstLanes: string
  readonly lastLanes: string
  /** A scalar condition as an all-lanes or no-lanes mask. */
  readonly broadcastMask: string
  /** `$a * $b + $c`, fused (the microkernels); vector loops never fuse, each operation rounds once. */
  readonly fma: string
  readonly add: string
  readonly sub: string
  readonly mul: string
  readonly div: string
  /** JavaScript's negation, max and min: -0 and NaN included (NaN if either side is NaN, +0 > -0). */
  readonly neg: string
  readonly max: string
  readonly min: string
  /**
   * The instructions' max and min, which return `$b` where either side is NaN or both are zero: JavaScript's where
   * `$a` is a constant that is not NaN and not a zero of the wrong sign (emit/c-vector.ts constantSided).
   */
  readonly maxInstruction: string
  readonly minInstruction: string
  /** The IR's functions, element-wise on `$a`. */
  readonly math: Readonly<Record<CallFn, string>>
  /** `$a $op $b` into a mask. */
  readonly compare: Readonly<Record<CompareOp, string>>
  readonly and: string
  readonly or: string
  readonly not: string
  /** Lanes of `$b` where `$m` is set, of `$a` elsewhere. */
  readonly blend: string
  /** `$a`'s lanes reduced to one scalar. */
  readonly horizontal: Readonly<Record<Horizontal, string>>
  /**
   * A tile copied transposed through registers (emit/c-transpose.ts), a statement: `$q[c·$t + r] = $p[r·$s + c]` for
   * r < $r and c < $w, each at most TRANSPOSE_TILE_BYTES' elements; nothing outside the tile read or written.
   */
  readonly transpose: string
}

/** The widest tile, in bytes along each side, that every `transpose` takes: one cache line of 64 bytes. */
export const TRANSPOSE_TILE_BYTES = 64

/** The fields that are one string each (the records of templates aside). */
export type SingleOp = { readonly [K in keyof VectorOps]: VectorOps[K] extends string ? K : never }[keyof VectorOps]

/** A record of `keys`, each key's entry made by `f`. */
export const named = <K extends string>(keys: readonly K[], f: (key: K) => string): Readonly<Record<K, string>> =>
  Object.fromEntries(keys.map((k) => [k, f(k)])) as Record<K, string>

/**
 * What an ISA's header (`VectorUnit.header`) defines for a vector type, named by its `suffix`: `pk_v<op>_<suffix>`
 * element-wise, `pk_h<op>_<suffix>` across lanes, `pk_transpose_<suffix>` a tile; and `sqrt`, an instruction.
 */
export const headerOps = (
  suffix: string,
  sqrt: string,
): Pick<VectorOps, 'neg' | 'max' | 'min' | 'math' | 'horizontal' | 'transpose'> => ({
  neg: `pk_vneg_${suffix}($a)`,
  max: `pk_vmax_${suffix}($a, $b)`,
  min: `pk_vmin_${suffix}($a, $b)`,
  math: { ...named(['exp', 'log', 'abs', 'tanh', 'sigmoid'], (f) => `pk_v${f}_${suffix}($a)`), sqrt },
  horizontal: named<Horizontal>(['sum', 'prod', 'max', 'min'], (h) => `pk_h${h}_${suffix}($a)`),
  transpose: `pk_transpose_${suffix}($p, $s, $q, $t, $r, $w)`,
})

/** An ISA's vector unit: its C header and one table per element type. */
export interface VectorUnit {
  /**
   * The native/ header with this ISA's intrinsics, vector math and helpers, included by the ISA's C file: it
   * compiles standalone (its functions carry the ISA's target attribute).
   */
  readonly header: string
  /**
   * The native/ header of the system headers the unit's files include, first in each of them: the builder
   * precompiles it (plugin/addon/precompiled.ts), as parsing the intrinsics' headers is much of a small file's compile.
   */
  readonly systemHeader: string
  readonly f32: VectorOps
  readonly f64: VectorOps
}

/** `$name` placeholders of a template replaced by C expressions. */
export function instantiate(template: string, args: Readonly<Record<string, string>>): string {
  return template.replace(/\$([a-z])/g, (_, name: string) => {
    const arg = args[name]
    if (arg === undefined) throw new Error(`intrinsic template '${template}' needs $${name}`)
    return arg
  })
}
