/** AVX2 + FMA: 16 ymm registers of 32 bytes; edge masks are vectors (maskload/maskstore). */
import type { Isa } from './isa.ts'
import type { Microkernel, VectorOps } from './microkernel.ts'

const GEMM = 'C[m, n] += A[m, k] * B[k, n]'

const F32: VectorOps = {
  vector: '__m256',
  mask: '__m256i',
  zero: '_mm256_setzero_ps()',
  load: '_mm256_loadu_ps($p)',
  loadAligned: '_mm256_load_ps($p)',
  broadcast: '_mm256_broadcast_ss($p)',
  fma: '_mm256_fmadd_ps($a, $b, $c)',
  add: '_mm256_add_ps($a, $b)',
  store: '_mm256_storeu_ps($p, $v)',
  firstLanes: '_mm256_cmpgt_epi32(_mm256_set1_epi32((int)($n)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7))',
  lastLanes: '_mm256_cmpgt_epi32(_mm256_setr_epi32(1, 2, 3, 4, 5, 6, 7, 8), _mm256_set1_epi32((int)($n)))',
  maskedLoad: '_mm256_maskload_ps($p, $m)',
  maskedStore: '_mm256_maskstore_ps($p, $m, $v)',
}

const F64: VectorOps = {
  vector: '__m256d',
  mask: '__m256i',
  zero: '_mm256_setzero_pd()',
  load: '_mm256_loadu_pd($p)',
  loadAligned: '_mm256_load_pd($p)',
  broadcast: '_mm256_broadcast_sd($p)',
  fma: '_mm256_fmadd_pd($a, $b, $c)',
  add: '_mm256_add_pd($a, $b)',
  store: '_mm256_storeu_pd($p, $v)',
  firstLanes: '_mm256_cmpgt_epi64(_mm256_set1_epi64x($n), _mm256_setr_epi64x(0, 1, 2, 3))',
  lastLanes: '_mm256_cmpgt_epi64(_mm256_setr_epi64x(1, 2, 3, 4), _mm256_set1_epi64x($n))',
  maskedLoad: '_mm256_maskload_pd($p, $m)',
  maskedStore: '_mm256_maskstore_pd($p, $m, $v)',
}

// 6×16: 12 accumulators + 2 B vectors + 1 broadcast = 15 of 16 registers (BLIS's Haswell shape).
const MICROKERNELS: readonly Microkernel[] = [
  { name: 'gemm_f32_avx2_6x16', dtype: 'f32', spec: GEMM, mr: 6, nr: 16, lanes: 8, ops: F32 },
  { name: 'gemm_f64_avx2_6x8', dtype: 'f64', spec: GEMM, mr: 6, nr: 8, lanes: 4, ops: F64 },
]

export const AVX2: Isa = {
  name: 'avx2',
  gccTarget: 'avx2,fma',
  cpuFeatures: ['avx2', 'fma'],
  vectorBytes: 32,
  vectorRegisters: 16,
  microkernels: MICROKERNELS,
}
