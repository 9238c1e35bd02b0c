/** Every ISA an addon holds a version for, best first: the loader takes the first one the CPU supports. */
import type { Isa, IsaName } from './isa.ts'
import type { Microkernel } from './microkernel.ts'
import { AVX2 } from './x86-avx2.ts'
import { AVX512 } from './x86-avx512.ts'
import { SCALAR } from './scalar.ts'

export const ISAS: readonly Isa[] = [AVX512, AVX2, SCALAR]

export function isaNamed(name: IsaName): Isa {
  const isa = ISAS.find((i) => i.name === name)
  if (isa === undefined) throw new Error(`unknown ISA '${name}'`)
  return isa
}

/** The microkernel named `name`, of whichever ISA has it (names carry the ISA); undefined for none. */
export const microkernelNamed = (name: string): Microkernel | undefined =>
  ISAS.flatMap((i) => i.microkernels).find((m) => m.name === name)

export { AVX2, AVX512, SCALAR }
