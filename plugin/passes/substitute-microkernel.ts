/**
 * PolyDL's microkernel substitution: every block that matches an ISA's microkernel (match-contraction.ts) is wrapped
 * in a `Contraction` holding the block itself (lowered later like any block: what the interpreter, the JS fallback
 * and ISAs without a match run) and, per matching ISA, the blocked GEMM schedule the C emitter prints instead: ranked
 * by PolyDL's working-set analysis per shape class of the call-time sizes (plugin/schedule/select.ts).
 * Needs: block form. Leaves: Contractions around single-store blocks.
 */
import type {
  Block, Contraction, ContractionRoles, ContractionSchedule, GemmBlocking, Kernel, SizeGuard,
} from '../ir/nodes.ts'
import { printRole } from '../ir/print.ts'
import { mapStmts } from '../ir/walk.ts'
import type { Isa } from '../targets/isa.ts'
import type { Machine } from '../targets/machine.ts'
import { rebroadcasts, type Microkernel } from '../targets/microkernel.ts'
import type { ScheduleMemo } from '../schedule/schedule-cache.ts'
import { cheapestSchedule } from '../schedule/select.ts'
import { matchContraction, needleOf, slicedRoles } from './match-contraction.ts'

export interface SubstituteOptions {
  readonly isas: readonly Isa[]
  readonly machine: Machine
  /** Threads the addon runs with, which the ranking's parallel variants use (Target.threads). */
  readonly threads: number
  /** `interim`: the cache-fraction rule of interimSchedule instead of the ranking (default `ranked`). */
  readonly schedules?: 'ranked' | 'interim'
  /** Schedules ranked before (schedule-cache.ts), which the pass reads and adds to; absent: ranked every time. */
  readonly scheduleMemo?: ScheduleMemo
  /** Why each block did or did not match, per ISA (POLYKERN_DEBUG=match). */
  readonly log?: (message: string) => void
}

export function substituteMicrokernels(kernel: Kernel, opts: SubstituteOptions): Kernel {
  const body = mapStmts(kernel.body, { block: (b) => substituteBlock(kernel.name, b, opts) })
  return body === kernel.body ? kernel : { ...kernel, body }
}

/**
 * The sliced form runs calls whose rows fit this many register tiles. At 52 rows (TCCG ao2mo, AMD EPYC Zen 5
 * AVX-512, one process alternating builds, 1T / 2T) it ran abcd-eb-aecd 1.43× / 1.44× and abcd-ec-abed 1.17× /
 * 1.19× of the gathered form; at 312 rows, where a packed B element serves 52 row tiles, abc-adc-bd 0.88× / 0.83×.
 */
const SLICED_MAX_ROW_TILES = 16

function substituteBlock(kernel: string, block: Block, opts: SubstituteOptions): Block | Contraction {
  let roles: ContractionRoles | undefined
  let sliced: ContractionRoles | undefined
  const schedules: ContractionSchedule[] = []
  const slicedSchedules: ContractionSchedule[] = []
  for (const isa of opts.isas) {
    const reasons: string[] = []
    const matched: { readonly mk: Microkernel; readonly roles: ContractionRoles }[] = []
    for (const mk of isa.microkernels) {
      const match = matchContraction(block, needle(mk))
      if (match.ok) matched.push({ mk, roles: match.roles })
      else reasons.push(`${mk.name}: ${match.reason}`)
    }
    if (matched.length === 0) {
      opts.log?.(`${kernel} ${block.id}: no ${isa.name} microkernel${reasons.length ? `: ${reasons.join('; ')}` : ''}`)
      continue
    }
    const first = matched[0]
    if (roles === undefined) {
      roles = first.roles
      sliced = slicedRoles(roles)
    }
    // A tile with no register for the broadcast is for im2col's long k loops only (targets/microkernel.ts).
    const candidates = matched.map((x) => x.mk).filter((mk) => !rebroadcasts(mk))
    const ctx = { roles: first.roles, machine: opts.machine, threads: opts.threads }
    const schedule = opts.schedules === 'interim'
      ? interimSchedule(isa, first.mk, opts.machine)
      : cheapestSchedule(isa, candidates.length > 0 ? candidates : [first.mk], ctx, opts.scheduleMemo)
    schedules.push(schedule)
    const [m, n, k] = [first.roles.m, first.roles.n, first.roles.k].map(printRole)
    const gathered = first.roles.layout === 'gathered' ? ', gathered through offset tables' : ''
    opts.log?.(`${kernel} ${block.id}: ${isa.name} runs ${schedule.microkernel} (m ${m}, n ${n}, k ${k}${gathered})`)
    if (sliced !== undefined && opts.schedules !== 'interim') {
      const rows = SLICED_MAX_ROW_TILES * isa.microkernels.find((mk) => mk.name === schedule.microkernel)!.mr
      const x = cheapestSchedule(isa, candidates.length > 0 ? candidates : [first.mk], { ...ctx, roles: sliced, maxM: rows }, opts.scheduleMemo)
      slicedSchedules.push(x)
      opts.log?.(`${kernel} ${block.id}: ${isa.name} runs calls of at most ${rows} rows on ${x.microkernel}, sliced ` +
        `(batch ${printRole(sliced.batch)}, n ${printRole(sliced.n)}, flattened)`)
    }
  }
  if (roles === undefined) return block
  const slicedForm = sliced !== undefined && slicedSchedules.length === schedules.length
    ? { sliced: { roles: sliced, schedules: slicedSchedules, maxRowTiles: SLICED_MAX_ROW_TILES } }
    : {}
  return { kind: 'contraction', id: block.id, body: [block], roles, schedules, ...slicedForm }
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
 * The documented fallback (SubstituteOptions `schedules: 'interim'`): blocking rules from the machine's caches, each
 * choice measured on this machine (f32, AVX-512, GFLOP/s at 1 / 2 threads; before: the one packed blocking they
 * replace).
 * - Large calls (the schedule's own fields): loop order n, k, m; register tiles walked along C's rows (`mn`: one
 *   MR × kc micro-panel of A stays in L1 while the kc × nc panel of packed B, half of L2, streams from L2; 8% over
 *   BLIS's `nm` at 1024³); kc 256; A read in place when its rows are contiguous in k (packing it took 3-6%); the m
 *   range split between the threads, which pack each B panel together. 1024³: 209 / 402, 2048³: 204 / 409.
 * - A batch of small GEMMs (m·n·k <= 2^21 each, at least 2): whole GEMMs on the threads, nothing packed.
 *   32 × 128·128·64: 175 / 357 (before 118 / 108).
 * - M <= MR (matrix-vector): nothing packed, k blocks of 16 rows of B each read front to back across all of N, the
 *   n range split: memory-bound, 1 × 4096 × 4096: 14.4 / 29 (before 3.1 / 3.2: all of B packed for one row).
 * - M <= 8·MR: B read in place (each micro-panel prefetched a tile ahead, loaded once for all rows), A packed, the n
 *   range split. 35 × 8457 × 2560: 125 / 275 (before 73 / 67). AVX2 keeps packing B (65 against 49 in place).
 * - N <= 3·NR: B panels packed as deep in k as half of L2 holds (one pass over C), A in place. 2048 × 64 × 2048:
 *   205 / 397 (before 107 / 208).
 * - Small calls (m·n·k <= 2^21): nothing packed (packing both operands of 64³ took a third of the call).
 * - M <= 48·MR: the large blocking with the n range split, each thread packing its own B panels: at 128 × 2048 ×
 *   4096, 2 threads run 336 instead of 274 (two threads packing one panel from memory at once, then both waiting).
 */
export function interimSchedule(isa: Isa, mk: Microkernel, machine: Machine): ContractionSchedule {
  const bytes = mk.dtype === 'f64' ? 8 : 4
  const cache = (level: number, fallback: number): number => {
    const c = machine.caches.find((x) => x.level === level)
    return c === undefined ? fallback : c.bytes / Math.max(1, c.sharedBy)
  }
  const l2 = cache(2, 1024 * KIB)
  const kc = 256
  const large: GemmBlocking = {
    mc: roundDown(96, mk.mr), nc: roundDown(l2 / 2 / (kc * bytes), mk.nr), kc, order: ['n', 'k', 'm'], inner: 'mn',
    parallel: 'm', packA: false, packB: true,
  }
  const wide = roundDown(8192, mk.nr)
  const small = 2 ** 21
  const special: { when: SizeGuard; blocking: GemmBlocking }[] = [
    {
      when: { minBatch: 2, maxWork: small },
      blocking: { ...large, parallel: 'batch', packA: false, packB: false },
    },
    {
      when: { maxM: mk.mr },
      blocking: {
        mc: mk.mr, nc: wide, kc: 16, order: ['k', 'n', 'm'], inner: 'nm', parallel: 'n', packA: false, packB: false,
      },
    },
    {
      when: { maxM: 8 * mk.mr },
      blocking: isa.vectorBytes < 64 ? { ...large, mc: 8 * mk.mr, parallel: 'n', packA: true } : {
        mc: 8 * mk.mr, nc: wide, kc: 128, order: ['n', 'k', 'm'], inner: 'nm', parallel: 'n', packA: true, packB: false,
      },
    },
    {
      when: { maxN: 3 * mk.nr },
      blocking: { ...large, nc: 3 * mk.nr, kc: roundDown(l2 / 2 / (3 * mk.nr * bytes), 16) },
    },
    { when: { maxWork: small }, blocking: { ...large, packB: false } },
    { when: { maxM: 48 * mk.mr }, blocking: { ...large, parallel: 'n' } },
  ]
  return { isa: isa.name, microkernel: mk.name, ...large, special }
}
