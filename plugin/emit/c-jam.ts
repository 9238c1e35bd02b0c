/**
 * Unroll-and-jam of a serial loop around a register nest (c-vector.ts): a 3×3 depthwise convolution's column loop
 * around its channel vectors and their 3×3 taps runs JAM columns in one pass over the taps, so each sum's chain of
 * adds overlaps with the others' and each filter vector is loaded once for all of them (Vyasa's and SConv's register
 * blocking along the output row). Where the nest's bounds read the loop's variable (a padded window's edges), the
 * loop is split at the edges first (analysis/interior.ts) and only its interior is jammed. Each stored element still
 * sums the same terms in the same order: bit for bit the loop it replaces.
 */
import { splitInterior, type InteriorSplit } from '../analysis/interior.ts'
import { coeffOf } from '../ir/affine.ts'
import type { Loop } from '../ir/nodes.ts'
import { boundVars, perfectNest, readsVar } from '../ir/walk.ts'
import type { Isa } from '../targets/isa.ts'
import { emitVectorLoop, isRegisterNest, jamRegisters, type VectorLoopContext } from './c-vector.ts'

/**
 * Iterations run side by side (a 3×3 depthwise convolution of 112×112 × 32, AVX-512, Intel Xeon, 1 / 2 threads:
 * unjammed 26 / 50 GFLOP/s; 2 side by side 27 / 62, 4 35 / 73, 8 39 / 82).
 */
const JAM = 8

export interface JamContext extends Omit<VectorLoopContext, 'jam' | 'zeroStart'> {
  /** Prints the loops before and after the interior as plain loops. */
  readonly plainLoop: (l: Loop, depth: number) => string[]
  /** The vector loop's accumulators start at zero (zero-started.ts), whichever piece of the loop runs it. */
  readonly zeroStart: boolean
}

/** How `isa` jams a loop: its iterations side by side, and its split at the edges (none: the whole loop jams). */
export interface JamPlan {
  readonly count: number
  readonly split?: InteriorSplit
}

/** How `isa` runs `loop` jammed, or undefined when it is not a serial loop it can jam. */
export function jamPlan(loop: Loop, isa: Isa): JamPlan | undefined {
  const count = Math.min(JAM, jamRegisters(isa))
  if (count < 2 || jamProblem(loop, isa) !== undefined) return undefined
  const split = splitInterior(loop)
  if (jamProblem(split?.interior ?? loop, isa, true) !== undefined) return undefined
  return split ? { count, split } : { count }
}

/** `loop`'s lines with its interior jammed, or undefined when it is not a serial loop this can jam. */
export function emitJammedLoop(loop: Loop, depth: number, ctx: JamContext): string[] | undefined {
  const plan = jamPlan(loop, ctx.isa)
  if (plan === undefined) return undefined
  const { count, split } = plan
  const interior = split?.interior ?? loop
  const lanes = interior.body[0] as Loop
  const { names, bound } = ctx
  const v = names.of(loop.v)
  const end = names.fresh(`${v}_end`)
  const pad = '  '.repeat(depth)
  const vector = (jam?: VectorLoopContext['jam']) => emitVectorLoop(lanes, depth + 2, { ...ctx, jam })!
  const before = split ? ctx.plainLoop(split.before, depth) : []
  // Where the columns' channels lie end to end in memory, one run along them first; the jam takes what it leaves.
  const run = emitVectorLoop(lanes, depth + 1, { ...ctx, run: { v: loop.v, end } }) ?? []
  return [
    ...before,
    `${pad}{`,
    `${pad}  int64_t ${v} = ${bound(interior.lo).text}, ${end} = ${bound(interior.hi).text};`,
    ...run,
    `${pad}  for (; ${v} <= ${end} - ${count}; ${v} += ${count}) {`,
    ...vector({ v: loop.v, count }),
    `${pad}  }`,
    `${pad}  for (; ${v} < ${end}; ${v}++) {`,
    ...vector(),
    `${pad}  }`,
    `${pad}}`,
    ...(split ? ctx.plainLoop(split.after, depth) : []),
  ]
}

/**
 * Why `loop`'s iterations cannot run side by side around the register nest inside it, or undefined: it must be a
 * serial loop holding only a vector loop around a nest, whose bounds (the nest's too, once `nestToo`) do not read the
 * loop's variable, whose values do not read it, and whose every store writes, for each iteration, elements no other
 * iteration writes: one dimension of the store moves with the loop and with no loop inside it.
 */
function jamProblem(loop: Loop, isa: Isa, nestToo = false): string | undefined {
  const [lanes] = loop.body
  if (loop.mode !== 'serial' || loop.body.length !== 1 || lanes.kind !== 'loop' || lanes.mode !== 'vector') return 'not around a vector loop'
  const nest = perfectNest(lanes)
  if (nest === undefined || !isRegisterNest(lanes, isa)) return 'not around a register nest'
  const v = loop.v
  const reads = (l: Loop) => [...boundVars(l.lo), ...boundVars(l.hi)].includes(v)
  if (reads(lanes) || (nestToo && nest.loops.some(reads))) return `a bound reads ${v}`
  const inner = [lanes.v, ...nest.loops.map((l) => l.v)]
  for (const s of nest.stores) {
    if (readsVar(s.value, v)) return `a value reads ${v}`
    const own = s.access.index.some((ix) => coeffOf(ix, v) !== 0 && inner.every((x) => coeffOf(ix, x) === 0))
    if (!own) return `${s.access.tensor} is not written apart for each ${v}`
  }
  return undefined
}
