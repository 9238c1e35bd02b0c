/**
 * PolyDL's microkernel substitution: every block that matches an ISA's microkernel (match-contraction.ts) is wrapped
 * in a `Contraction` holding the block itself (lowered later like any block: what the interpreter, the JS fallback
 * and ISAs without a match run) and, per matching ISA, the blocked GEMM schedule the C emitter prints instead.
 * Needs: block form. Leaves: Contractions around single-store blocks.
 */
import type { Block, Contraction, ContractionRoles, ContractionSchedule, Kernel } from '../ir/nodes.ts'
import { mapStmts } from '../ir/walk.ts'
import type { Isa } from '../targets/isa.ts'
import type { Machine } from '../targets/machine.ts'
import type { Microkernel } from '../targets/microkernel.ts'
import { matchContraction, needleOf } from './match-contraction.ts'

export interface SubstituteOptions {
  readonly isas: readonly Isa[]
  readonly machine: Machine
  /** Why each block did or did not match, per ISA (POLYKERN_DEBUG=match). */
  readonly log?: (message: string) => void
}

export function substituteMicrokernels(kernel: Kernel, opts: SubstituteOptions): Kernel {
  const body = mapStmts(kernel.body, { block: (b) => substituteBlock(kernel.name, b, opts) })
  return body === kernel.body ? kernel : { ...kernel, body }
}

function substituteBlock(kernel: string, block: Block, opts: SubstituteOptions): Block | Contraction {
  let roles: ContractionRoles | undefined
  const schedules: ContractionSchedule[] = []
  for (const isa of opts.isas) {
    const reasons: string[] = []
    for (const mk of isa.microkernels) {
      const match = matchContraction(block, needle(mk))
      if (!match.ok) {
        reasons.push(`${mk.name}: ${match.reason}`)
        continue
      }
      roles ??= match.roles
      schedules.push(interimSchedule(isa, mk, opts.machine))
      const { m, n, k } = match.roles
      opts.log?.(`${kernel} ${block.id}: ${isa.name} runs ${mk.name} (m ${m.name}, n ${n.name}, k ${k.name})`)
      break
    }
    if (!schedules.some((x) => x.isa === isa.name)) {
      opts.log?.(`${kernel} ${block.id}: no ${isa.name} microkernel${reasons.length ? `: ${reasons.join('; ')}` : ''}`)
    }
  }
  if (roles === undefined) return block
  return { kind: 'contraction', id: block.id, body: [block], roles, schedules }
}

const needles = new Map<Microkernel, Block>()
const needle = (mk: Microkernel): Block => {
  let b = needles.get(mk)
  if (b === undefined) needles.set(mk, (b = needleOf(mk)))
  return b
}

const KIB = 1024
const roundDown = (x: number, unit: number): number => Math.max(unit, Math.floor(x / unit) * unit)

/**
 * INTERIM, until plugin/analysis/variants.ts ranks packed variants (its nests have no packing yet): BLIS's analytic
 * rule from the machine's caches, with fractions measured on this machine (1024³ f32, best of alternating runs):
 * one kc × NR micro-panel of packed B fills 3/4 of L1, kc at most 384 (the C tile update is then under 1% of the
 * k loop; AVX2 measured 2-3% slower at 576); one mc × kc block of packed A a sixth of L2 (the B panel streams
 * through the rest: mc·kc at half of L2 measured 3-5% slower); one kc × nc panel of B a core's share of L3, at most
 * 4 MiB (nc below N cost up to 40% at 2048³: A is packed again for each n block). Loop order n, k, m; the m blocks
 * run in parallel, sharing the B panel packed once before them (the driver shrinks mc at call time so every thread
 * gets a block).
 */
export function interimSchedule(isa: Isa, mk: Microkernel, machine: Machine): ContractionSchedule {
  const bytes = mk.dtype === 'f64' ? 8 : 4
  const cache = (level: number, fallback: number): number => {
    const c = machine.caches.find((x) => x.level === level)
    return c === undefined ? fallback : c.bytes / Math.max(1, c.sharedBy)
  }
  const kc = Math.min(384, roundDown((cache(1, 32 * KIB) * 3) / 4 / (mk.nr * bytes), 16))
  const mc = roundDown(cache(2, 1024 * KIB) / 6 / (kc * bytes), mk.mr)
  const nc = roundDown(Math.min(cache(3, 8192 * KIB), 4096 * KIB) / (kc * bytes), mk.nr)
  return { isa: isa.name, microkernel: mk.name, mc, nc, kc, order: ['n', 'k', 'm'], parallel: 'm' }
}
