/**
 * polykern's IR: Stripe-style nested polyhedral blocks that lower to loop nests, in one readonly union.
 *
 * A kernel is a list of statements run in order. Before `lowerBlocks` the work is in `Block`s: a parallel
 * polyhedral block (an iteration domain, affine constraints, a body run once per point, in any order, whose only
 * cross-point interaction is the reduction op of its stores). After it, the work is in `Loop`s and `If`s that the
 * emitters print one to one. `interp.ts` evaluates both forms and is the executable definition of this file.
 */
import type { Span } from '../diagnostics.ts'

/** Element types a tensor can hold; `Float32Array`, `Float64Array`, `Int32Array` at the call boundary. */
export type DType = 'f32' | 'f64' | 'i32'

/** `=` writes; the others reduce into the output with an associative, commutative operator. */
export type AssignOp = '=' | '+=' | '*=' | 'max=' | 'min='

/** Types of IR values: a tensor element type, or the result of a comparison. */
export type ValueType = DType | 'bool'

/** One term `coeff · v` of an affine form; `v` is a loop index or a size symbol. */
export interface AffineTerm {
  readonly v: string
  readonly coeff: number
}

/** Σ coeff·v + constant, with integer coefficients; terms sorted by `v`, no zero coefficients (see affine.ts). */
export interface Affine {
  readonly terms: readonly AffineTerm[]
  readonly constant: number
}

/** `expr >= 0` or `expr == 0`: a half-space or hyperplane of an iteration domain. */
export interface Constraint {
  readonly expr: Affine
  readonly op: '>=' | '=='
}

/** A loop bound: affine, or the max/min of bounds (tightened ranges), or a division rounding up or down. */
export type Bound =
  | { readonly kind: 'affine'; readonly a: Affine }
  | { readonly kind: 'max' | 'min'; readonly args: readonly Bound[] }
  | { readonly kind: 'ceildiv' | 'floordiv'; readonly arg: Bound; readonly by: number }

/** Row-major access `tensor[index...]`; each index is affine in the enclosing indices and the sizes. */
export interface Access {
  readonly tensor: string
  readonly index: readonly Affine[]
}

export type UnaryOp = 'neg' | 'not'
export type BinOp =
  | 'add' | 'sub' | 'mul' | 'div' | 'mod'
  | 'lt' | 'le' | 'gt' | 'ge' | 'eq' | 'ne'
  | 'and' | 'or'
  | 'max' | 'min' | 'pow'
export type CallFn = 'exp' | 'log' | 'sqrt' | 'abs' | 'tanh' | 'sigmoid'

export type Expr =
  /** A literal of the given type (±Infinity allowed for floats; i32 identities are written as INT32_MIN/MAX). */
  | { readonly kind: 'const'; readonly value: number; readonly type: ValueType }
  /** Element read. `zeroOutside`: an out-of-range index reads 0 instead of being excluded by the domain. */
  | { readonly kind: 'load'; readonly access: Access; readonly type: DType; readonly zeroOutside: boolean }
  /** The current value of a loop index or size symbol, converted to `type`. */
  | { readonly kind: 'var'; readonly name: string; readonly type: DType }
  | { readonly kind: 'unary'; readonly op: UnaryOp; readonly arg: Expr; readonly type: ValueType }
  /** Arithmetic in `type`; i32 wraps, i32 division truncates and x/0 = x%0 = 0. Comparisons have type 'bool'. */
  | { readonly kind: 'binary'; readonly op: BinOp; readonly a: Expr; readonly b: Expr; readonly type: ValueType }
  | { readonly kind: 'call'; readonly fn: CallFn; readonly arg: Expr; readonly type: DType }
  /** `cond ? a : b`, both arms evaluated lazily. */
  | { readonly kind: 'select'; readonly cond: Expr; readonly a: Expr; readonly b: Expr; readonly type: DType }

/** One index of a block's domain, ranging over [0, extent). */
export interface IndexRange {
  readonly name: string
  readonly extent: Affine
}

/** Parallel polyhedral block: `body` runs once for every point of the indices' box that meets `constraints`. */
export interface Block {
  readonly kind: 'block'
  /** Stable statement id (`s0`, `s1`, ...) used by analyses, logs and schedules. */
  readonly id: string
  /** Loop order when lowered, outermost first; the semantics do not depend on it. */
  readonly indices: readonly IndexRange[]
  readonly constraints: readonly Constraint[]
  readonly body: readonly Stmt[]
  /** Hints for later passes and the emitters (Stripe's tags); no semantic effect. */
  readonly tags: readonly string[]
  readonly span?: Span
}

/** Counted loop `for (v = lo; v < hi; v++)`; `parallel` promises no cross-iteration dependence but reductions. */
export interface Loop {
  readonly kind: 'loop'
  readonly v: string
  readonly lo: Bound
  readonly hi: Bound
  /**
   * `vector`: innermost, its stores at unit stride in `v` or reducing into elements `v` does not move; or around a
   * perfect nest of serial loops, its stores reducing into elements that move with `v` at unit stride and with none
   * of the nest's loops. Its loads unit-stride or `v`-free (verify.ts: vectorLoopProblem). Run as SIMD lanes,
   * reductions reassociated; the interpreter runs it serially.
   */
  readonly mode: 'serial' | 'parallel' | 'vector'
  readonly body: readonly Stmt[]
}

/** Runs `body` where every constraint holds. */
export interface If {
  readonly kind: 'if'
  readonly conds: readonly Constraint[]
  readonly body: readonly Stmt[]
}

/** `tensor[index] op= value`: the spec's statement at one point. */
export interface Store {
  readonly kind: 'store'
  readonly access: Access
  readonly op: AssignOp
  readonly value: Expr
  readonly span?: Span
}

/** Sets every element of a tensor to a constant: TC's `!` initialisation and temporaries' reset. */
export interface Fill {
  readonly kind: 'fill'
  readonly tensor: string
  readonly value: Expr
}

/**
 * How a contraction's tensors and indices play the roles of a microkernel's `C[m, n] += A[m, k] * B[k, n]`
 * (ISA Mapper's buffer, dimension and axis maps). Every index of the three accesses is a plain role index.
 * A role may hold several indices (GETT/TBLIS): its GEMM dimension is their row-major product, outermost first, in
 * the order of C (m, n) or A (k).
 */
export interface ContractionRoles {
  readonly dtype: Extract<DType, 'f32' | 'f64'>
  /** The accumulated output, with `n` in its last (contiguous) dimension. */
  readonly c: Access
  /** The factor holding `m` and `k`, and the one holding `k` and `n`, in any dimension order (transposes). */
  readonly a: Access
  readonly b: Access
  readonly m: readonly IndexRange[]
  readonly n: readonly IndexRange[]
  readonly k: readonly IndexRange[]
  /**
   * Indices of C and of both factors, or of C and B only (a sliced form, Contraction.sliced: A does not move along
   * them): independent GEMMs, run as outer loops.
   */
  readonly batch: readonly IndexRange[]
  /**
   * `flattened`: each role's indices are adjacent dimensions, in that order, of every tensor holding them, so the role
   * has one stride per tensor, that of its last index. `gathered`: some role's are not, and every operand is addressed
   * through offset tables, one per role and tensor (TBLIS's scatter vectors), built at call time.
   */
  readonly layout: 'flattened' | 'gathered'
  /**
   * The factors of the product that do not vary over its indices (`2.5`, `1 / sqrt(D)`: constants and size
   * expressions), as one expression evaluated once per call and multiplied into A while it is packed; absent: 1.
   */
  readonly alpha?: Expr
  /**
   * Tensor factors over one operand's indices only (`d[k]`, a mask `M[k, j]`, a divisor `z[i]`), each applied to its
   * operand while it is packed through the offset tables (`gathered` only), at most one per operand, no batch index.
   */
  readonly scaleA?: OperandScale
  readonly scaleB?: OperandScale
  /**
   * The part of C the sum covers (`where j <= i`), as constraints over the single m and n indices and sizes: tiles
   * wholly outside are skipped, tiles on its edge masked. Absent: all of C.
   */
  readonly domain?: readonly Constraint[]
}

/** A tensor factor an operand's elements are multiplied by (`* d[k]`) or divided by (`/ z[i]`) while packed. */
export interface OperandScale {
  readonly by: Access
  readonly divides: boolean
}

/**
 * How one call of a contraction runs as a blocked GEMM (BLIS/PolyDL two-level tiling around the microkernel): every
 * field is a choice the emitter honours for any sizes, so schedulers may set each one freely.
 */
export interface GemmBlocking {
  /**
   * Largest cache blocks: A blocks are mc × kc, B panels kc × nc; multiples of the microkernel's MR (mc) and NR (nc).
   * A call cuts each range into as few blocks as these allow, of even size.
   */
  readonly mc: number
  readonly nc: number
  readonly kc: number
  /** The three block loops, outermost first (BLIS: n, k, m). */
  readonly order: readonly ('m' | 'n' | 'k')[]
  /**
   * The two register-tile loops inside a block, outermost first: `nm` keeps one kc × NR micro-panel of B in L1 while
   * the A block streams from L2 (BLIS); `mn` keeps one MR × kc micro-panel of A in L1 while the B panel streams from
   * L2, and walks C along its rows.
   */
  readonly inner: 'mn' | 'nm'
  /**
   * What runs on the threads: the `m` or `n` range, split evenly between them (each thread runs the block loops on
   * its share; when the split loop is the innermost block loop, the other operand's packed panel is shared: packed
   * by all threads together, then read by all), or whole GEMMs of the batch (`batch`; one GEMM per call runs
   * serially). Never `k`, whose blocks accumulate into the same C.
   */
  readonly parallel: 'm' | 'n' | 'batch' | 'none'
  /**
   * Copy A blocks into MR-row panels and B panels into NR-column panels (zero-padded, aligned). Unpacked, the
   * microkernel reads the operand where it is: A when its k stride is 1, B when its n stride is 1; an operand laid out
   * otherwise is packed whatever this says.
   */
  readonly packA: boolean
  readonly packB: boolean
}

/** Bounds on a call's sizes (m, n, k of one GEMM; work = m·n·k; batch = GEMMs in the call); all given must hold. */
export interface SizeGuard {
  readonly minM?: number
  readonly maxM?: number
  readonly maxN?: number
  readonly maxK?: number
  readonly maxWork?: number
  readonly minBatch?: number
  /**
   * true: the GEMM's B lies in a bound array (`f.bind`), its packed blocks made once and read by later calls; false:
   * it does not.
   */
  readonly boundB?: boolean
  /**
   * B's rows (its k stride apart), read in place along `rows` of them, `lines` cache lines each, spread over L1's
   * sets (schedule/l1-sets.ts: none gets more lines than its ways).
   */
  readonly spreadB?: { readonly rows: number; readonly lines: number }
}

/** One ISA's blocked GEMM for a contraction: the blocking a call runs with, chosen at call time from the sizes. */
export interface ContractionSchedule extends GemmBlocking {
  readonly isa: string
  /** `Microkernel.name` in that ISA's table. */
  readonly microkernel: string
  /**
   * Call-time specializations, tried in order: a call whose sizes satisfy `when` runs with that blocking, on
   * `microkernel` when given (another of the ISA's table), else on the schedule's; a call no guard takes runs with the
   * schedule's own fields.
   */
  readonly special?: readonly { readonly when: SizeGuard; readonly blocking: GemmBlocking; readonly microkernel?: string }[]
}

/**
 * A contraction the C emitter may run as a packed, register-blocked GEMM: `body` is its loop-equivalent nest (what
 * the interpreter, the JS emitter and every ISA without a schedule run); `roles` and `schedules` say how to run it
 * instead. Same meaning as `body`, up to floating-point reassociation of the `k` sum.
 */
export interface Contraction {
  readonly kind: 'contraction'
  /** The id of the block it was matched on. */
  readonly id: string
  readonly body: readonly Stmt[]
  readonly roles: ContractionRoles
  readonly schedules: readonly ContractionSchedule[]
  /**
   * How many statements at the end of `body` are its epilogue (fuse-epilogue.ts), as a Convolution's: the GEMM applies
   * them to each register tile of its last k block before storing it (emit/c-tile-epilogue.ts). Absent: none.
   */
  readonly epilogue?: number
  /**
   * The same contraction as a batch of flattened GEMMs, for calls of few rows (SlicedContraction.maxRowTiles); absent
   * when it has none.
   */
  readonly sliced?: SlicedContraction
}

/**
 * A gathered contraction with C's leading n indices (match-contraction.ts slicedRoles) run as a batch that A does
 * not move along: every batch element a flattened GEMM over slices of B and C, B read where it lies and C stored
 * plainly, where the gathered form packs B through offset tables and scatters C's tiles. Each B element then serves
 * M rows only, so packing it costs more than it saves when M is a few register tiles; the sliced form re-reads A
 * (M × K, small there) for every batch element instead.
 */
export interface SlicedContraction {
  readonly roles: ContractionRoles
  readonly schedules: readonly ContractionSchedule[]
  /** Calls whose M is at most this many of the gathered schedule's register tiles' rows run the sliced form. */
  readonly maxRowTiles: number
}

/**
 * One spatial dimension of a convolution's input: it is indexed by `stride·out + dilation·tap + offset`, where `out`
 * is an output position and `tap` a filter tap (reduced); `offset` < 0 is padding (reads before the edge contribute
 * 0). The offset is affine in the size symbols: a padding given at call time (`p + r - pad`).
 */
export interface ConvolutionAxis {
  readonly out: IndexRange
  readonly tap: IndexRange
  readonly stride: number
  readonly dilation: number
  readonly offset: Affine
  /** The input dimension this axis indexes. */
  readonly inputDim: number
}

/** How a reduction's tensors and indices play the roles of a direct convolution `O += I ⊛ F` (match-convolution.ts). */
export interface ConvolutionRoles {
  readonly dtype: Extract<DType, 'f32' | 'f64'>
  readonly output: Access
  readonly input: Access
  readonly filter: Access
  /** Plain indices of the output and the input (images), or of all three tensors (groups): independent convolutions. */
  readonly batch: readonly IndexRange[]
  /** In input dimension order; the last is the axis whose output positions form a microkernel's rows. */
  readonly spatial: readonly ConvolutionAxis[]
  /** In the output and the filter only. */
  readonly outChannels: IndexRange
  /** In the input and the filter only: reduced. */
  readonly inChannels: IndexRange
}

/**
 * One ISA's way to run a convolution with a register-blocked microkernel (SConv's tiling strategy): output positions
 * in blocks of `mc` (the microkernel's rows), output channels in blocks of `nc`, input channels in blocks of `kc`;
 * every filter tap of a block runs before the next block, so an output tile stays in L1 across taps.
 */
export interface ConvolutionPlan {
  readonly isa: string
  /** `Microkernel.name` in that ISA's table. */
  readonly microkernel: string
  /**
   * The microkernels a call whose rows run through im2col (one GEMM per block of rows) may run on: each call takes the
   * one whose tiles cost least on its GEMMs (their positions, channels and threads); none for channels first.
   */
  readonly im2colMicrokernels: readonly string[]
  /**
   * `channels-last` (NHWC): output positions are the microkernel's rows, output channels its columns;
   * `channels-first` (NCHW, direct only): output channels are its rows, output positions along the last axis its columns.
   */
  readonly layout: 'channels-last' | 'channels-first'
  /** `direct`: the input read in place, tap by tap; `im2col`: each output row's windows copied into a buffer first. */
  readonly lowering: 'direct' | 'im2col'
  readonly mc: number
  readonly nc: number
  readonly kc: number
  /**
   * Elements of L2 the blocks may take (SConv's share of one core's L2). mc, nc and kc are sliced on representative
   * sizes; a channels-last call slices again within this with its own channels and positions.
   */
  readonly l2Elements: number
  /**
   * Elements of L1 the blocks may take (SConv's share of one core's L1): a channels-last call whose taps along the
   * last axis run as one k loop takes all its input channels in one block when a tile's windows fill at most half.
   */
  readonly l1Elements: number
  /** `weight`: filter blocks outermost, every output row under each (WS); `input`: output rows outermost (IS). */
  readonly stationary: 'input' | 'weight'
  /**
   * A direct call whose rows have fewer output positions than this runs through im2col instead (small feature maps:
   * most of the microkernel's rows would be edge rows); 0 never.
   */
  readonly im2colBelow: number
  /**
   * The most k steps (rows of the filter matrix, taps × input channels) of a microkernel call where the call is a
   * plain GEMM: im2col's GEMM blocks, and a single-tap (1×1) filter's direct calls, where no other tap revisits the
   * output tile. The GEMM ranking's kc for such a GEMM (schedule/conv-slicing.ts); `kc` is the direct path's, sized so
   * that every tap's windows and filter panel fit L1.
   */
  readonly gemmKc: number
  /**
   * A call packs the filter (once, into the microkernel's panels) when it has at least this many output positions
   * per filter, and reads it in place otherwise (when its layout allows: output channels contiguous).
   */
  readonly packFilterFrom: number
  /** The cost model's estimate (cycles) of each order on the representative sizes it ranked. */
  readonly cost: { readonly input: number; readonly weight: number }
}

/**
 * A convolution the C emitter may run as a direct (or im2col) convolution over a GEMM microkernel: `body` is its
 * loop-equivalent nest, which the interpreter, the JS emitter and every ISA without a plan run.
 */
export interface Convolution {
  readonly kind: 'convolution'
  readonly id: string
  readonly body: readonly Stmt[]
  readonly roles: ConvolutionRoles
  readonly plans: readonly ConvolutionPlan[]
  /**
   * How many statements at the end of `body` are its epilogue (fuse-epilogue.ts): element-wise, each writing the
   * output in place at the element it reads. The C driver's direct tiles apply them in registers where they sum their
   * outputs whole (emit/c-tile-epilogue.ts), and it runs them on each other output block once its sums are complete;
   * the interpreter and the JS fallback run them after the nest. Absent: none.
   */
  readonly epilogue?: number
}

export type Stmt = Block | Loop | If | Store | Fill | Contraction | Convolution

/** What a tensor is to the kernel: read, written, both, or a temporary local to one call. */
export type TensorRole = 'in' | 'out' | 'inout' | 'temp'

export interface Tensor {
  readonly name: string
  readonly dtype: DType
  /** One affine extent per dimension (a size symbol or a literal); empty for rank 0. */
  readonly shape: readonly Affine[]
  readonly role: TensorRole
  readonly span?: Span
}

/** A parameter of the annotated function, in declaration order: a typed array or a size. */
export type Param = { readonly kind: 'tensor'; readonly name: string } | { readonly kind: 'size'; readonly name: string }

/** `[c, 'M', 'N']` is c·M·N: one term of a polynomial in the size symbols. */
export type Monomial = readonly [number, ...string[]]

/**
 * A choice made once per call, before the body runs (contraction-path.ts): `name` reads like a size symbol whose
 * value is the position in `costs` of the least cost at the call's sizes, the first on ties; the body runs each
 * candidate under `if (name == k)`. Costs are evaluated in doubles, monomial by monomial, left to right, so every
 * emitter picks the same candidate. `temps[k]` lists the temporaries candidate k uses: only the chosen candidate's
 * are allocated.
 */
export interface SizeChoice {
  readonly name: string
  readonly costs: readonly (readonly Monomial[])[]
  readonly temps: readonly (readonly string[])[]
  /** Statements several candidates run (a pairwise step their paths share) are written once, under `if (flag == 1)`. */
  readonly shared?: readonly SharedFlag[]
}

/** Reads like a size symbol: 1 when the call's candidate is one of `candidates`, else 0. */
export interface SharedFlag {
  readonly name: string
  readonly candidates: readonly number[]
}

export interface Kernel {
  readonly name: string
  readonly params: readonly Param[]
  readonly tensors: readonly Tensor[]
  readonly sizes: readonly string[]
  /** Size-dependent choices between candidate statement lists, in the order they are made. */
  readonly choices?: readonly SizeChoice[]
  readonly body: readonly Stmt[]
  readonly span?: Span
}
