/** AVX-512F (+FMA): 32 zmm registers of 64 bytes, lane masks in k registers. */
import type { Isa } from './isa.ts'
import type { Microkernel, VectorOps } from './microkernel.ts'

const GEMM = 'C[m, n] += A[m, k] * B[k, n]'

const F32: VectorOps = {
  vector: '__m512',
  mask: '__mmask16',
  zero: '_mm512_setzero_ps()',
  load: '_mm512_loadu_ps($p)',
  loadAligned: '_mm512_load_ps($p)',
  broadcast: '_mm512_set1_ps(*($p))',
  fma: '_mm512_fmadd_ps($a, $b, $c)',
  add: '_mm512_add_ps($a, $b)',
  store: '_mm512_storeu_ps($p, $v)',
  firstLanes: '(__mmask16)((1u << ($n)) - 1u)',
  lastLanes: '(__mmask16)~((1u << ($n)) - 1u)',
  maskedLoad: '_mm512_maskz_loadu_ps($m, $p)',
  maskedStore: '_mm512_mask_storeu_ps($p, $m, $v)',
}

const F64: VectorOps = {
  vector: '__m512d',
  mask: '__mmask8',
  zero: '_mm512_setzero_pd()',
  load: '_mm512_loadu_pd($p)',
  loadAligned: '_mm512_load_pd($p)',
  broadcast: '_mm512_set1_pd(*($p))',
  fma: '_mm512_fmadd_pd($a, $b, $c)',
  add: '_mm512_add_pd($a, $b)',
  store: '_mm512_storeu_pd($p, $v)',
  firstLanes: '(__mmask8)((1u << ($n)) - 1u)',
  lastLanes: '(__mmask8)~((1u << ($n)) - 1u)',
  maskedLoad: '_mm512_maskz_loadu_pd($m, $p)',
  maskedStore: '_mm512_mask_storeu_pd($p, $m, $v)',
}

// 8 rows × 3 vectors: 24 accumulators + 3 B vectors + 1 broadcast = 28 of 32 registers, 24 FMAs per 11 loads.
// Taller tiles (14×32: 31 registers) run as fast alone but lose 10-25% when C's rows are 4 KiB apart (N = 1024,
// 2048...): a tile's rows then share one L1 set, and 14 rows × 2 lines exceed its 12 ways; 8 × 3 lines do not.
const MICROKERNELS: readonly Microkernel[] = [
  { name: 'gemm_f32_avx512_8x48', dtype: 'f32', spec: GEMM, mr: 8, nr: 48, lanes: 16, ops: F32 },
  { name: 'gemm_f64_avx512_8x24', dtype: 'f64', spec: GEMM, mr: 8, nr: 24, lanes: 8, ops: F64 },
]

export const AVX512: Isa = {
  name: 'avx512',
  gccTarget: 'avx512f,avx2,fma',
  cpuFeatures: ['avx512f', 'avx2', 'fma'],
  vectorBytes: 64,
  vectorRegisters: 32,
  microkernels: MICROKERNELS,
}
