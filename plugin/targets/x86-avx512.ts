/** AVX-512F (+FMA): 32 zmm registers of 64 bytes, lane masks in k registers. */
import type { Isa } from './isa.ts'
import type { Microkernel } from './microkernel.ts'
import { headerOps, type VectorOps } from './vector-ops.ts'
import { X86_SYSTEM_HEADER, x86Compares } from './x86.ts'

const GEMM = 'C[m, n] += A[m, k] * B[k, n]'

const F32: VectorOps = {
  lanes: 16,
  vector: '__m512',
  mask: '__mmask16',
  zero: '_mm512_setzero_ps()',
  set1: '_mm512_set1_ps($x)',
  load: '_mm512_loadu_ps($p)',
  loadAligned: '_mm512_load_ps($p)',
  broadcast: '_mm512_set1_ps(*($p))',
  store: '_mm512_storeu_ps($p, $v)',
  maskedLoad: '_mm512_maskz_loadu_ps($m, $p)',
  maskedStore: '_mm512_mask_storeu_ps($p, $m, $v)',
  firstLanes: '(__mmask16)((1u << ($n)) - 1u)',
  lastLanes: '(__mmask16)~((1u << ($n)) - 1u)',
  broadcastMask: '(__mmask16)(($x) ? 0xffffu : 0u)',
  fma: '_mm512_fmadd_ps($a, $b, $c)',
  add: '_mm512_add_ps($a, $b)',
  maxInstruction: '_mm512_max_ps($a, $b)',
  minInstruction: '_mm512_min_ps($a, $b)',
  sub: '_mm512_sub_ps($a, $b)',
  mul: '_mm512_mul_ps($a, $b)',
  div: '_mm512_div_ps($a, $b)',
  ...headerOps('ps512', '_mm512_sqrt_ps($a)'),
  compare: x86Compares((predicate) => `_mm512_cmp_ps_mask($a, $b, ${predicate})`),
  and: '(__mmask16)($a & $b)',
  or: '(__mmask16)($a | $b)',
  not: '(__mmask16)~$a',
  blend: '_mm512_mask_blend_ps($m, $a, $b)',
}

const F64: VectorOps = {
  lanes: 8,
  vector: '__m512d',
  mask: '__mmask8',
  zero: '_mm512_setzero_pd()',
  set1: '_mm512_set1_pd($x)',
  load: '_mm512_loadu_pd($p)',
  loadAligned: '_mm512_load_pd($p)',
  broadcast: '_mm512_set1_pd(*($p))',
  store: '_mm512_storeu_pd($p, $v)',
  maskedLoad: '_mm512_maskz_loadu_pd($m, $p)',
  maskedStore: '_mm512_mask_storeu_pd($p, $m, $v)',
  firstLanes: '(__mmask8)((1u << ($n)) - 1u)',
  lastLanes: '(__mmask8)~((1u << ($n)) - 1u)',
  broadcastMask: '(__mmask8)(($x) ? 0xffu : 0u)',
  fma: '_mm512_fmadd_pd($a, $b, $c)',
  add: '_mm512_add_pd($a, $b)',
  maxInstruction: '_mm512_max_pd($a, $b)',
  minInstruction: '_mm512_min_pd($a, $b)',
  sub: '_mm512_sub_pd($a, $b)',
  mul: '_mm512_mul_pd($a, $b)',
  div: '_mm512_div_pd($a, $b)',
  ...headerOps('pd512', '_mm512_sqrt_pd($a)'),
  compare: x86Compares((predicate) => `_mm512_cmp_pd_mask($a, $b, ${predicate})`),
  and: '(__mmask8)($a & $b)',
  or: '(__mmask8)($a | $b)',
  not: '(__mmask8)~$a',
  blend: '_mm512_mask_blend_pd($m, $a, $b)',
}

// 8 rows × 3 vectors: 24 accumulators + 3 B vectors + 1 broadcast = 28 of 32 registers, 24 FMAs per 11 loads.
// Taller tiles (14×32: 31 registers) run as fast alone but lose 10-25% when C's rows are 4 KiB apart (N = 1024,
// 2048...): a tile's rows then share one L1 set, and 14 rows × 2 lines exceed its 12 ways; 8 × 3 lines do not.
// A GEMM runs on the one whose shape classes the ranking prices least (schedule/select.ts: cheapestMicrokernel; a
// gathered one on the first); a convolution on the one whose tiles cost least on its sizes (schedule/conv-slicing.ts:
// registerTileCycles). 6 rows × 4 vectors (29 registers) covers 64 output channels, most CNN layers' multiple, and
// N = 64, 256, 1024... with no edge tile. 7 rows × 4 vectors (32 registers, none left for the broadcast: its full
// tile loads B in two parts, emit/c-microkernel.ts) fits the 7·2^k positions of CNN maps: an im2col call picks it by
// its tiles' cost per call, 7×7 512→512 3×3 (49 positions) bound 1T 142-153 -> 148-158, 2T 258-268 -> 287-299 GFLOP/s
// (Intel, against 8 × 48, when it still spilled an accumulator).
const REGISTERS = 32

const MICROKERNELS: readonly Microkernel[] = [
  { name: 'gemm_f32_avx512_8x48', dtype: 'f32', spec: GEMM, mr: 8, nr: 48, lanes: F32.lanes, ops: F32, registers: REGISTERS },
  { name: 'gemm_f32_avx512_6x64', dtype: 'f32', spec: GEMM, mr: 6, nr: 64, lanes: F32.lanes, ops: F32, registers: REGISTERS },
  { name: 'gemm_f32_avx512_7x64', dtype: 'f32', spec: GEMM, mr: 7, nr: 64, lanes: F32.lanes, ops: F32, registers: REGISTERS },
  { name: 'gemm_f64_avx512_8x24', dtype: 'f64', spec: GEMM, mr: 8, nr: 24, lanes: F64.lanes, ops: F64, registers: REGISTERS },
]

export const AVX512: Isa = {
  name: 'avx512',
  gccTarget: 'avx512f,avx2,fma',
  cpuFeatures: ['avx512f', 'avx2', 'fma'],
  vectorBytes: 64,
  vectorRegisters: REGISTERS,
  vectors: { header: 'polykern_avx512.h', systemHeader: X86_SYSTEM_HEADER, f32: F32, f64: F64 },
  microkernels: MICROKERNELS,
}
