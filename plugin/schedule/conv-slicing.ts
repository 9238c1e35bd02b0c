/**
 * SConv's Convolution Slicing Analysis for polykern's direct convolution: tile sizes from the machine's caches and
 * the input- vs weight-stationary choice from a load-count × latency cost model (SConv §4.1.1), both in closed form.
 *
 * The driver (emit/c-conv.ts) walks, per output row, blocks of `mc` output positions; inside one, every filter tap
 * runs the microkernel over `kc` input channels into the `mc` × `nc` output tile, so that tile stays in L1/L2 across
 * taps. Tiles (SConv's constraints, halving from the largest value until they hold):
 * - L1: one microkernel call's operands: a kc × NR filter panel, MR input windows of kc channels, the MR × NR tile.
 * - L2: the filter block of every tap (taps × kc × nc), the output block (mc × nc) and the input rows its windows read.
 * Sizes are call-time parameters, so the analysis runs on representative sizes: the literal extents where the spec
 * has them, else 64 channels, 56 output positions per axis and one image (a ResNet middle layer). A channels-last call
 * runs the L2 step again on its own sizes (`pk_conv_slice` in native/polykern_conv.h): kc clamped to its input
 * channels, then mc and nc from its whole row and output channels, halved the same way.
 */
import type { ConvolutionPlan, ConvolutionRoles, IndexRange } from '../ir/nodes.ts'
import { isConstant } from '../ir/affine.ts'
import type { Machine } from '../targets/machine.ts'
import { MEMORY_COST } from '../targets/machine.ts'
import { rebroadcasts, tileRows, type Microkernel } from '../targets/microkernel.ts'
import { CALL_CYCLES, CALL_CYCLES_PER_ACCUMULATOR, FMA_UNITS, roundUp } from './gemm-model.ts'
import { rankGemm } from './rank-gemm.ts'

/**
 * Share of each cache level a tile may take (SConv's α, whose values the paper's text lost): the rest is left to
 * prefetching and the packed filter. In L1 the filter panel is what stays (the MR windows stream through once per
 * tile): 0.75 gives 6 × 64 tiles on a 48 KiB L1 128 channels a call, not 64 (0.6), and 14×14 256→256 3×3 ran 1.06×
 * at 1 thread and 1.09× at 2 (Intel AVX-512, bound, one process alternating both).
 */
export const CACHE_SHARE = { l1: 0.75, l2: 0.5, l3: 0.5 } as const

/**
 * Rows of fewer than this many register tiles of output positions run a direct convolution through im2col instead
 * (SConv's "hybrid" future work): on 7×7 feature maps most microkernel rows of the direct path are edge rows and its
 * output tile is reloaded once per tap, while im2col's one GEMM over the whole map uses full tiles. Measured on an Intel
 * Xeon (AVX-512, 8×48, 1 thread, GFLOP/s direct / im2col over whole maps): 56×56 3×3 176 / 160, 28×28 186 / 177,
 * 14×14 147 / 172, 7×7 104 / 165: 3 tiles then. On AMD Zen 5 with 6×64 tiles, 14×14 256→256 ran direct / im2col 188-192
 * / 167-179 at 1 thread and 267-285 / 198-203 at 2, and on AVX2 (6×16) 100-102 / 98-99 and 177-179 / 166-168: two
 * tiles (12 positions on 6×64 and 6×16; 16 on 8×48, whose 14×14 still goes through im2col).
 */
export const IM2COL_BELOW_TILES = 2

/**
 * Output positions per filter below which a call reads the filter in place instead of packing it (SConv packs filters
 * at compile time; here they are call-time data, packed once per call). Measured (AVX-512, 1 thread, GFLOP/s packed /
 * in place): 28×28 128→128 3×3 190 / 138, 14×14 256→256 165 / 148, 7×7 512→512 112 / 117: packing pays from a few
 * hundred positions on, and costs little below; calls smaller than a 7×7 map read the filter in place.
 */
export const PACK_FILTER_FROM = 49

/** Where the halving of C_s starts when the channels are known only at call time. */
const MAX_CHANNEL_BLOCK = 1024

/** The sizes the analysis ranks on. */
export interface ConvolutionSizes {
  readonly batch: number
  readonly channelsIn: number
  /** The spec gives the input channels as a literal: C_s starts from them, not from MAX_CHANNEL_BLOCK. */
  readonly channelsInKnown: boolean
  readonly channelsOut: number
  readonly taps: number
  /** Taps along the last axis: a microkernel call's k loop runs them together (channels last). */
  readonly lastTaps: number
  /** Output positions along the last axis (the microkernel's rows), and output rows (every other index but channels). */
  readonly positions: number
  readonly rows: number
  /** Input elements one output row's windows read, over all taps' rows. */
  readonly inputPerRow: number
}

const sized = (ix: IndexRange, fallback: number): number => (isConstant(ix.extent) ? ix.extent.constant : fallback)

/** Representative sizes of a convolution (see the file comment). */
export function representativeSizes(r: ConvolutionRoles): ConvolutionSizes {
  const batch = r.batch.reduce((n, b) => n * sized(b, 1), 1)
  const outs = r.spatial.map((a) => sized(a.out, 56))
  const taps = r.spatial.reduce((n, a) => n * sized(a.tap, 3), 1)
  const last = r.spatial[r.spatial.length - 1]
  const channelsIn = sized(r.inChannels, 64)
  const lastTaps = sized(last.tap, 3)
  const windowWidth = outs[outs.length - 1] * last.stride + (lastTaps - 1) * last.dilation
  return {
    batch,
    channelsIn,
    channelsInKnown: isConstant(r.inChannels.extent),
    channelsOut: sized(r.outChannels, 64),
    taps,
    lastTaps,
    positions: outs[outs.length - 1],
    rows: batch * outs.slice(0, -1).reduce((n, x) => n * x, 1),
    inputPerRow: (taps / lastTaps) * windowWidth * channelsIn,
  }
}

const halveTo = (x: number, unit: number): number => Math.max(unit, roundUp(Math.floor(x / 2), unit))

/** Bytes one core may use of cache level `level`, or `fallback` when the machine has no such level. */
function cacheBytes(machine: Machine, level: number, fallback: number): number {
  const c = machine.caches.find((x) => x.level === level)
  return c === undefined ? fallback : c.bytes / Math.max(1, c.sharedBy)
}

/** Load µops a core issues per cycle (two on every x86 core with AVX2 or AVX-512 here). */
const LOAD_PORTS = 2

const elementBytes = (mk: Microkernel): number => (mk.dtype === 'f64' ? 8 : 4)

/**
 * Cycles of one k step of an R × V tile of `mk` (V vectors wide): its FMAs on the FMA units, or its loads on the load
 * ports (R broadcasts of A and V vectors of the packed B, emit/c-microkernel.ts), whichever takes longer.
 */
function stepCycles(rows: number, vectors: number): number {
  return Math.max((rows * vectors) / FMA_UNITS, (rows + vectors) / LOAD_PORTS)
}

/**
 * Cycles of the microkernel calls over one row of output positions × all output channels for one row of filter taps,
 * on `mk`: the positions in tiles of MR rows (the rest on the next taller tile function, as the emitted code runs
 * them), the channels in tiles of NR columns (the rest on the narrowest tile holding them), each call a k loop over
 * the taps along the last axis × the input channels, plus its C tile's load and store (gemm-model.ts's call cost).
 * An 8 × 48 tile over 64 channels leaves an 8 × 16 edge tile, load-bound on its 8 broadcasts; 6 × 64 leaves none.
 * Measured on AMD Zen 5 (AVX-512, one process alternating both, best of 15 rounds), 3×3, 6 × 64 against 8 × 48:
 * 56×56 64→64 1T +4% to +6%, 2T +5% to +10%; 28×28 128→128 1T +2%, 2T -3% to +6%. The model ranks 6 × 64 5% and
 * 0.1% cheaper there.
 */
export function registerTileCycles(mk: Microkernel, sizes: ConvolutionSizes): number {
  const k = sizes.lastTaps * sizes.channelsIn
  const [fullRows, restRows] = [Math.floor(sizes.positions / mk.mr), sizes.positions % mk.mr]
  const [fullCols, restCols] = [Math.floor(sizes.channelsOut / mk.nr), sizes.channelsOut % mk.nr]
  // [tile height or width in vectors, how many such tiles]
  const rows = [[mk.mr, fullRows], [tileRows(mk, true).filter((r) => r >= restRows).at(-1)!, restRows > 0 ? 1 : 0]]
  const cols = [[mk.nr / mk.lanes, fullCols], [Math.ceil(restCols / mk.lanes), restCols > 0 ? 1 : 0]]
  let cycles = 0
  for (const [r, nr] of rows) {
    for (const [v, nv] of cols) cycles += nr * nv * (k * stepCycles(r, v) + callCycles(r, v))
  }
  return cycles
}

/** Cycles of a microkernel call beside its k loop: loading, adding and storing its R × V tile (gemm-model.ts). */
const callCycles = (rows: number, vectors: number): number => CALL_CYCLES + CALL_CYCLES_PER_ACCUMULATOR * rows * vectors

/**
 * The same model as data, for a call to rank microkernels on its own sizes (native/polykern_conv.h,
 * pk_tile_cycles): per tile height (tileRows) and width in vectors (1 to NR/lanes), the cycles of a k step and of
 * the call around the k loop.
 */
export function tileCostTable(mk: Microkernel): { readonly heights: readonly number[]; readonly step: number[][]; readonly call: number[][] } {
  const heights = tileRows(mk, true)
  const widths = [...Array(mk.nr / mk.lanes).keys()].map((v) => v + 1)
  return {
    heights,
    step: heights.map((r) => widths.map((v) => stepCycles(r, v))),
    call: heights.map((r) => widths.map((v) => callCycles(r, v))),
  }
}

/**
 * The microkernel of `mks` (one ISA's, of the convolution's type) for its direct calls: the one whose tiles cost least
 * on `sizes`, the first on ties, among those that leave a register for the broadcast. 7 × 64 on AVX-512 ran 56×56
 * 64→64 3×3 3% slower than 6 × 64 when it spilled an accumulator (Intel, 1 and 2 threads, four alternating rounds),
 * where the model ranks it 1% cheaper; broadcasting twice instead, 4% slower (AMD Zen 5, 1 thread, bound: 201 against
 * 209 GFLOP/s; 28² 128→128 and 14² 256→256 within 1%). im2col's long k loops pick it by their own cost per call.
 */
export const convolutionMicrokernel = (mks: readonly Microkernel[], sizes: ConvolutionSizes): Microkernel | undefined =>
  mks.filter((mk) => !rebroadcasts(mk)).reduce<Microkernel | undefined>((best, mk) =>
    best === undefined || registerTileCycles(mk, sizes) < registerTileCycles(best, sizes) ? mk : best, undefined)

/** Output positions an im2col GEMM takes at least (whole rows), as the driver's PK_CONV_IM2COL_POSITIONS. */
const IM2COL_POSITIONS = 512

/**
 * The kc of a convolution's calls that are plain GEMMs (ConvolutionPlan.gemmKc) on `mk`: the GEMM ranking's
 * (rank-gemm.ts) for one im2col GEMM of the driver's on the representative sizes (whole output rows for
 * IM2COL_POSITIONS positions × output channels × taps·input channels, A read in place, B the packed filter), at one
 * thread; input channels known only at call time rank as MAX_CHANNEL_BLOCK, a long k. A call takes fewer where it
 * has fewer channels or its L2 share holds fewer (pk_conv_slice, pk_conv_gemm_blocks).
 */
export function gemmKc(mk: Microkernel, sizes: ConvolutionSizes, machine: Machine): number {
  const m = Math.min(sizes.rows, Math.ceil(IM2COL_POSITIONS / sizes.positions)) * sizes.positions
  const channels = sizes.channelsInKnown ? sizes.channelsIn : MAX_CHANNEL_BLOCK
  const p = { m, n: sizes.channelsOut, k: sizes.taps * channels, batch: 1, mr: mk.mr, nr: mk.nr, lanes: mk.lanes, bytes: elementBytes(mk) }
  return rankGemm(p, { machine, threads: 1, unpacked: { a: true, b: false } })[0].variant.kc
}

/** Tiles and stationarity for `mk` on `sizes`; the lowering is the caller's. */
export function sliceConvolution(
  mk: Microkernel, sizes: ConvolutionSizes, machine: Machine,
): Pick<ConvolutionPlan, 'mc' | 'nc' | 'kc' | 'l1Elements' | 'l2Elements' | 'stationary' | 'cost'> {
  const b = elementBytes(mk)
  const l1 = CACHE_SHARE.l1 * cacheBytes(machine, 1, 32 * 1024)
  const l2 = CACHE_SHARE.l2 * cacheBytes(machine, 2, 1024 * 1024)

  // L1: C_s as large as fits, halving from all the channels (a call clamps it to its own). The output tile lives in
  // the microkernel's registers during its k loop, so L1 holds the filter panel and the windows.
  let kc = Math.max(1, sizes.channelsInKnown ? sizes.channelsIn : MAX_CHANNEL_BLOCK)
  while (kc > 16 && (kc * mk.nr + mk.mr * kc) * b > l1) kc = Math.ceil(kc / 2)

  // L2: the filter block of every tap, the output block and its input windows; output positions shrink first.
  let nc = roundUp(Math.max(1, sizes.channelsOut), mk.nr)
  let mc = roundUp(Math.max(1, sizes.positions), mk.mr)
  const l2Bytes = () => (sizes.taps * kc * nc + mc * nc + (sizes.inputPerRow * kc) / Math.max(1, sizes.channelsIn)) * b
  while (l2Bytes() > l2 && mc > 4 * mk.mr) mc = halveTo(mc, mk.mr)
  while (l2Bytes() > l2 && nc > mk.nr) nc = halveTo(nc, mk.nr)

  const elements = { l1Elements: Math.floor(l1 / b), l2Elements: Math.floor(l2 / b) }
  return { mc, nc, kc, ...elements, ...stationarity(sizes, { mc, nc, kc }, machine, b) }
}

/**
 * SConv's cost: Σ over the levels below L1 of the lines loaded from there × their latency, for both orders.
 * - Weight-stationary: each filter block (taps × kc × nc) is loaded once; the input is read again for every block of
 *   output channels, and the output tile again for every block of input channels.
 * - Input-stationary: each output row's windows are loaded once and stay in L2; every row reads the whole filter again.
 * Each re-read comes from the first level that holds what it re-reads (the filter, or the input and output).
 */
function stationarity(
  s: ConvolutionSizes, t: { mc: number; nc: number; kc: number }, machine: Machine, b: number,
): Pick<ConvolutionPlan, 'stationary' | 'cost'> {
  const line = machine.caches[0]?.lineBytes ?? 64
  const lines = (elements: number) => Math.ceil((elements * b) / line)
  const levels = [2, 3].map((level) => ({
    bytes: (level === 2 ? CACHE_SHARE.l2 : CACHE_SHARE.l3) * cacheBytes(machine, level, level === 2 ? 1 << 20 : 8 << 20),
    latency: machine.caches.find((c) => c.level === level)?.latency ?? MEMORY_COST.latency,
  }))
  const from = (elements: number) => (levels.find((l) => elements * b <= l.bytes)?.latency ?? machine.memory.latency)
  const filter = s.taps * s.channelsIn * s.channelsOut
  const input = s.rows * s.inputPerRow
  const output = s.rows * s.positions * s.channelsOut
  const cold = lines(filter + input + output) * machine.memory.latency
  const kBlocks = Math.ceil(s.channelsOut / t.nc)
  const cBlocks = Math.ceil(s.channelsIn / t.kc)
  const weight = cold + (kBlocks - 1) * lines(input) * from(input) + (cBlocks - 1) * lines(output) * from(output)
  const input_ = cold + (s.rows - 1) * lines(filter) * from(filter)
  return { stationary: weight < input_ ? 'weight' : 'input', cost: { input: input_, weight } }
}
