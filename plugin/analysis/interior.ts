/**
 * Index-set splitting of a loop at the edges where its inner loops' bounds stop depending on it: a padded
 * convolution's tap loop `s in [max(0, 1 - q), min(3, W + 1 - q))` runs [0, 3) for every q in [1, W - 1). Splitting q
 * into the iterations before, inside and after that interior leaves the interior's inner loops with bounds free of q,
 * so the emitter may run several of its iterations side by side (c-jam.ts) where the edges run as they were.
 */
import { add, coeffOf, constant, scale, sub, variable, varsOf } from '../ir/affine.ts'
import type { Affine, Bound, Loop, Stmt } from '../ir/nodes.ts'
import { boundVars, mapStmts, walkStmts } from '../ir/walk.ts'

/** `loop` cut into three loops over consecutive ranges, run in this order; together the same iterations. */
export interface InteriorSplit {
  readonly before: Loop
  /** Its inner loops' bounds do not read the loop's variable. */
  readonly interior: Loop
  readonly after: Loop
}

/**
 * The split of `loop`, or undefined when no inner bound reads its variable (nothing to split) or one does in a way
 * this cannot remove: a max/min argument `c·v + rest` can go when another argument `x` is free of `v`, and both read
 * only variables bound outside `loop` (then the interior is where `c·v + rest` stays on x's far side).
 */
export function splitInterior(loop: Loop): InteriorSplit | undefined {
  const v = loop.v
  const inner = new Set<string>()
  walkStmts(loop.body, (s) => void (s.kind === 'loop' && inner.add(s.v)))
  const outside = (a: Affine) => varsOf(a).every((x) => x !== v && !inner.has(x))
  const lower: Bound[] = []
  const upper: Bound[] = []
  let dependent = false
  let removable = true

  /** The bound with its `v`-dependent arguments dropped, recording where each drop holds. */
  const simplify = (b: Bound): Bound => {
    if (!boundVars(b).includes(v)) return b
    dependent = true
    if ((b.kind !== 'max' && b.kind !== 'min') || b.args.some((x) => x.kind !== 'affine')) {
      removable = false
      return b
    }
    const args = b.args.map((x) => (x as Extract<Bound, { kind: 'affine' }>).a)
    const anchor = args.find((x) => coeffOf(x, v) === 0 && outside(x))
    const kept = args.filter((x) => coeffOf(x, v) === 0)
    const moving = args.filter((x) => coeffOf(x, v) !== 0)
    const restOf = (y: Affine) => sub(y, variable(v, coeffOf(y, v)))
    if (anchor === undefined || moving.some((y) => !outside(restOf(y)))) {
      removable = false
      return b
    }
    for (const y of moving) {
      const [c, rest] = [coeffOf(y, v), restOf(y)]
      // max(x, y) is x where c·v + rest <= x; min(x, y) is x where c·v + rest >= x.
      const gap = b.kind === 'max' ? sub(anchor, rest) : sub(rest, anchor)
      const below = b.kind === 'max' ? c > 0 : c < 0
      // below: |c|·v <= gap, so v < floor(gap / |c|) + 1 = floor((gap + |c|) / |c|); otherwise |c|·v >= -gap, so
      // v >= ceil(-gap / |c|).
      if (below) upper.push(divided(add(gap, constant(Math.abs(c))), Math.abs(c), 'floordiv'))
      else lower.push(divided(scale(gap, -1), Math.abs(c), 'ceildiv'))
    }
    const left: Bound[] = kept.map((a) => ({ kind: 'affine', a }))
    return left.length === 1 ? left[0] : { kind: b.kind, args: left }
  }

  const body = mapStmts(loop.body, {
    loop: (l, recurse) => {
      const [lo, hi] = [simplify(l.lo), simplify(l.hi)]
      return { ...l, lo, hi, body: recurse(l.body) }
    },
  })
  if (!dependent || !removable) return undefined
  const first: Bound = lower.length ? { kind: 'max', args: [loop.lo, { kind: 'min', args: [loop.hi, ...lower] }] } : loop.lo
  const last: Bound = upper.length ? { kind: 'max', args: [first, { kind: 'min', args: [loop.hi, ...upper] }] } : loop.hi
  return {
    before: { ...loop, hi: first },
    interior: { ...loop, lo: first, hi: last, body },
    after: { ...loop, lo: last },
  }
}

/** `a / by`, rounded as `kind`. */
const divided = (a: Affine, by: number, kind: 'ceildiv' | 'floordiv'): Bound =>
  by === 1 ? { kind: 'affine', a } : { kind, arg: { kind: 'affine', a }, by }
