/**
 * Plain C, no target attributes: runs anywhere. No vector table: vector loops print serially. No microkernel:
 * contractions compile as their loop nests.
 */
import type { Isa } from './isa.ts'

export const SCALAR: Isa = {
  name: 'scalar',
  gccTarget: '',
  cpuFeatures: [],
  vectorBytes: 0,
  vectorRegisters: 0,
  microkernels: [],
}
