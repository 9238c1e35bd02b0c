/**
 * PolyDL's variant generator and poly-ranking for the packed GEMM (seed 000 §4, GEMM variants of Fig. 17): cache
 * blocks mc × nc × kc (multiples of the register tile), the order of the three block loops and of the two
 * register-tile loops, what runs on the threads (the m or n range, as PolyDL's it2 or jt2, or the batch), and whether
 * each operand is packed; every variant priced by gemm-model.ts, cheapest first.
 *
 * The product of all choices is tens of thousands, so the search runs in two stages like analysis/variants.ts: every
 * block-size triple, packing and register-tile order under BLIS's block-loop order (n, k, m; the first legal
 * parallel choice), then every other block-loop order and parallel choice for the best of them. A ranking is a pure function of its inputs and is
 * memoized on them.
 */
import type { GemmBlocking } from '../ir/nodes.ts'
import type { Machine } from '../targets/machine.ts'
import { gemmCost, roundUp, type BlockLoop, type GemmCost, type GemmProblem, type OperandLayout } from './gemm-model.ts'

export interface GemmSpace {
  readonly machine: Machine
  /** Threads of the call; 1: serial variants only. */
  readonly threads: number
  /**
   * Operands the microkernel can read where they are (A with k stride 1, B with n stride 1); others are packed;
   * `gathered`: through offset tables (gemm-model.ts's OperandLayout).
   */
  readonly unpacked?: OperandLayout
}

export interface RankedVariant {
  readonly variant: GemmBlocking
  readonly cost: GemmCost
}

/** Stage 1's best variants whose loop orders and parallel choices stage 2 tries. */
export const REFINED = 3

const ORDERS: readonly (readonly BlockLoop[])[] = [
  ['n', 'k', 'm'], ['k', 'n', 'm'], ['n', 'm', 'k'], ['m', 'n', 'k'], ['m', 'k', 'n'], ['k', 'm', 'n'],
]

/** The shallowest packed B panel: shallower ones are for a B read in place, whose rows are streams to keep few. */
const PACKED_KC_MIN = 16

/** The deepest k block: a narrow B panel (a few NR wide) can hold this many rows in half of L2. */
const KC_MAX = 4096
/**
 * Deeper k blocks than BLIS's 512 go with B panels at most this many register tiles wide. Measured here (1024³, B
 * transposed): kc 1024 with a wide panel ran 10% slower than 256, which the model ranks within a percent.
 */
const WIDE_KC_MAX = 512
const NARROW_PANEL_TILES = 4

/**
 * kc: powers of two from 4 (as few rows of a B read in place as the prefetchers follow) past BLIS's range (a kc × NR
 * micro-panel of B in L1) to KC_MAX, and K itself when smaller; packed B panels from PACKED_KC_MIN rows. nc: the
 * register tile times powers of two up to the (rounded-up) size, and the size itself, so one block can cover a whole
 * small dimension; mc likewise in steps of four (with A in place it only shapes the loops; packed, the A block has
 * L2 to itself over a wide range).
 */
export function blockSizes(p: GemmProblem): { mc: number[]; nc: number[]; kc: number[] } {
  const ladder = (unit: number, last: number, step: number): number[] => {
    const out = new Set<number>([last])
    for (let x = unit; x < last; x *= step) out.add(x)
    return [...out].sort((a, b) => a - b)
  }
  const kc = ladder(4, KC_MAX, 2).filter((x) => x < p.k)
  return {
    mc: ladder(p.mr, roundUp(p.m, p.mr), 4),
    nc: ladder(p.nr, roundUp(p.n, p.nr), 2),
    kc: p.k <= KC_MAX ? [...kc, p.k] : kc,
  }
}

/**
 * What may run on the threads: the m or n range when it has a register tile for every thread (the driver splits it
 * in whole tiles), or the batch when it has a GEMM for every thread. When something can, every variant uses the
 * threads: a serial one leaves cores idle.
 */
export function parallelChoices(p: GemmProblem, threads: number): GemmBlocking['parallel'][] {
  if (threads <= 1) return ['none']
  const out: GemmBlocking['parallel'][] = []
  if (Math.ceil(p.m / p.mr) >= threads) out.push('m')
  if (Math.ceil(p.n / p.nr) >= threads) out.push('n')
  if (p.batch >= threads) out.push('batch')
  return out.length > 0 ? out : ['none']
}

const memo = new Map<string, readonly RankedVariant[]>()

/** Every evaluated variant, cheapest first (ties by Eq. 1, then in generation order). */
export function rankGemm(p: GemmProblem, space: GemmSpace): readonly RankedVariant[] {
  const key = JSON.stringify([p, space.machine.caches, space.machine.memory, space.machine.prefetchStreams, space.threads, space.unpacked])
  const known = memo.get(key)
  if (known !== undefined) return known
  const sizes = blockSizes(p)
  const evaluate = (variant: GemmBlocking): RankedVariant => ({ variant, cost: gemmCost(p, variant, space.machine, space.threads, space.unpacked) })

  const parallel = parallelChoices(p, space.threads)
  const packings = [[true, true], [false, true], [true, false], [false, false]].filter(
    ([a, b]) => (a || space.unpacked?.a) && (b || space.unpacked?.b),
  )
  const stage1: RankedVariant[] = []
  for (const [packA, packB] of packings) {
    for (const inner of ['nm', 'mn'] as const) {
      for (const kc of sizes.kc) {
        for (const mc of sizes.mc) {
          for (const nc of sizes.nc) {
            // k blocks past BLIS's range only for narrow B panels (skinny N), whose kc rows still fit half of L2.
            if (kc > WIDE_KC_MAX && nc > NARROW_PANEL_TILES * p.nr) continue
            if (kc < Math.min(PACKED_KC_MIN, p.k) && packB) continue
            stage1.push(evaluate({ mc, nc, kc, order: ORDERS[0], inner, parallel: parallel[0], packA, packB }))
          }
        }
      }
    }
  }
  stage1.sort(byCost)

  const stage2: RankedVariant[] = []
  for (const best of stage1.slice(0, REFINED)) {
    for (const order of ORDERS) {
      for (const split of parallel) {
        const variant = { ...best.variant, order, parallel: split }
        if (!sameVariant(variant, best.variant)) stage2.push(evaluate(variant))
      }
    }
  }
  const ranked = [...stage1, ...stage2].sort(byCost)
  memo.set(key, ranked)
  return ranked
}

/** By the cycle estimate; within half a percent, by Eq. 1 (less far traffic), which separates the model's ties. */
const byCost = (x: RankedVariant, y: RankedVariant): number => bucket(x) - bucket(y) || x.cost.eq1 - y.cost.eq1

const bucket = (x: RankedVariant): number => Math.round(Math.log(x.cost.cost) / Math.log(1.005))

export const sameVariant = (x: GemmBlocking, y: GemmBlocking): boolean =>
  x.mc === y.mc && x.nc === y.nc && x.kc === y.kc && x.order.join('') === y.order.join('') && x.inner === y.inner &&
  x.parallel === y.parallel && x.packA === y.packA && x.packB === y.packB
