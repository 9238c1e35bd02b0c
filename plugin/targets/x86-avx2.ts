/**
 * AVX2 + FMA: 16 ymm registers of 32 bytes. Lane masks are integer vectors, all ones or zeros per lane, as
 * maskload/maskstore take them; compares and blends work on float vectors, so their masks go through casts, which
 * compile to nothing.
 */
import type { Isa } from './isa.ts'
import type { Microkernel } from './microkernel.ts'
import { headerOps, type VectorOps } from './vector-ops.ts'
import { X86_SYSTEM_HEADER, x86Compares } from './x86.ts'

const GEMM = 'C[m, n] += A[m, k] * B[k, n]'

const F32: VectorOps = {
  lanes: 8,
  vector: '__m256',
  mask: '__m256i',
  zero: '_mm256_setzero_ps()',
  set1: '_mm256_set1_ps($x)',
  load: '_mm256_loadu_ps($p)',
  loadAligned: '_mm256_load_ps($p)',
  broadcast: '_mm256_broadcast_ss($p)',
  store: '_mm256_storeu_ps($p, $v)',
  maskedLoad: '_mm256_maskload_ps($p, $m)',
  maskedStore: '_mm256_maskstore_ps($p, $m, $v)',
  firstLanes: '_mm256_cmpgt_epi32(_mm256_set1_epi32((int)($n)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7))',
  lastLanes: '_mm256_cmpgt_epi32(_mm256_setr_epi32(1, 2, 3, 4, 5, 6, 7, 8), _mm256_set1_epi32((int)($n)))',
  broadcastMask: '_mm256_set1_epi32(($x) ? -1 : 0)',
  fma: '_mm256_fmadd_ps($a, $b, $c)',
  add: '_mm256_add_ps($a, $b)',
  maxInstruction: '_mm256_max_ps($a, $b)',
  minInstruction: '_mm256_min_ps($a, $b)',
  sub: '_mm256_sub_ps($a, $b)',
  mul: '_mm256_mul_ps($a, $b)',
  div: '_mm256_div_ps($a, $b)',
  ...headerOps('ps256', '_mm256_sqrt_ps($a)'),
  compare: x86Compares((predicate) => `_mm256_castps_si256(_mm256_cmp_ps($a, $b, ${predicate}))`),
  and: '_mm256_and_si256($a, $b)',
  or: '_mm256_or_si256($a, $b)',
  not: '_mm256_xor_si256($a, _mm256_set1_epi32(-1))',
  blend: '_mm256_blendv_ps($a, $b, _mm256_castsi256_ps($m))',
}

const F64: VectorOps = {
  lanes: 4,
  vector: '__m256d',
  mask: '__m256i',
  zero: '_mm256_setzero_pd()',
  set1: '_mm256_set1_pd($x)',
  load: '_mm256_loadu_pd($p)',
  loadAligned: '_mm256_load_pd($p)',
  broadcast: '_mm256_broadcast_sd($p)',
  store: '_mm256_storeu_pd($p, $v)',
  maskedLoad: '_mm256_maskload_pd($p, $m)',
  maskedStore: '_mm256_maskstore_pd($p, $m, $v)',
  firstLanes: '_mm256_cmpgt_epi64(_mm256_set1_epi64x($n), _mm256_setr_epi64x(0, 1, 2, 3))',
  lastLanes: '_mm256_cmpgt_epi64(_mm256_setr_epi64x(1, 2, 3, 4), _mm256_set1_epi64x($n))',
  broadcastMask: '_mm256_set1_epi64x(($x) ? -1 : 0)',
  fma: '_mm256_fmadd_pd($a, $b, $c)',
  add: '_mm256_add_pd($a, $b)',
  maxInstruction: '_mm256_max_pd($a, $b)',
  minInstruction: '_mm256_min_pd($a, $b)',
  sub: '_mm256_sub_pd($a, $b)',
  mul: '_mm256_mul_pd($a, $b)',
  div: '_mm256_div_pd($a, $b)',
  ...headerOps('pd256', '_mm256_sqrt_pd($a)'),
  compare: x86Compares((predicate) => `_mm256_castpd_si256(_mm256_cmp_pd($a, $b, ${predicate}))`),
  and: '_mm256_and_si256($a, $b)',
  or: '_mm256_or_si256($a, $b)',
  not: '_mm256_xor_si256($a, _mm256_set1_epi64x(-1))',
  blend: '_mm256_blendv_pd($a, $b, _mm256_castsi256_pd($m))',
}

// 6×16: 12 accumulators + 2 B vectors + 1 broadcast = 15 of 16 registers (BLIS's Haswell shape).
const REGISTERS = 16

const MICROKERNELS: readonly Microkernel[] = [
  { name: 'gemm_f32_avx2_6x16', dtype: 'f32', spec: GEMM, mr: 6, nr: 16, lanes: F32.lanes, ops: F32, registers: REGISTERS },
  { name: 'gemm_f64_avx2_6x8', dtype: 'f64', spec: GEMM, mr: 6, nr: 8, lanes: F64.lanes, ops: F64, registers: REGISTERS },
]

export const AVX2: Isa = {
  name: 'avx2',
  gccTarget: 'avx2,fma',
  cpuFeatures: ['avx2', 'fma'],
  vectorBytes: 32,
  vectorRegisters: REGISTERS,
  vectors: { header: 'polykern_avx2.h', systemHeader: X86_SYSTEM_HEADER, f32: F32, f64: F64 },
  microkernels: MICROKERNELS,
}
