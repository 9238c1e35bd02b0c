/**
 * opt_einsum's greedy contraction order, on index names alone (contraction-path.ts turns it into IR). While two or
 * more operands remain, contract the pair that leaves the least data behind: the size of its result minus the sizes
 * of its two inputs (opt_einsum's "memory removed"), ties going to the pair with fewer multiply-adds, then to the
 * earlier pair. Only pairs that share an index are candidates while any pair does (an outer product is a last
 * resort). The result keeps the indices some other operand or the output still needs and sums the rest; it joins
 * the end of the list, as in opt_einsum. The last contraction produces the output.
 */

/** One pairwise contraction: operands `pair` of the current list are replaced by their product. */
export interface PairContraction {
  /** Positions in the operand list as it stands before this step, `pair[0] < pair[1]`. */
  readonly pair: readonly [number, number]
  /** The pairwise block's domain: the indices of both operands (and, for the last step, of the output). */
  readonly indices: readonly string[]
  /** The result's indices: those a later operand or the output needs. The last step's are the output's. */
  readonly keep: readonly string[]
  /** Indices summed inside this contraction: in its domain and needed by nothing after it. */
  readonly summed: readonly string[]
  /** Multiply-adds: the product of the domain's extents. */
  readonly cost: number
}

/**
 * `operands` and `output` are index lists; `order` lists every index once and fixes the order of every list this
 * returns; `extent` gives an index's (representative) size. Needs at least two operands.
 */
export function greedyPath(
  operands: readonly (readonly string[])[],
  output: readonly string[],
  order: readonly string[],
  extent: (index: string) => number,
): PairContraction[] {
  const inOrder = (set: ReadonlySet<string>): string[] => order.filter((v) => set.has(v))
  const size = (set: ReadonlySet<string>): number => [...set].reduce((n, v) => n * extent(v), 1)
  let live: ReadonlySet<string>[] = operands.map((o) => new Set(o))
  const steps: PairContraction[] = []
  while (live.length >= 2) {
    const pairs: [number, number][] = []
    for (let i = 0; i < live.length; i++) for (let j = i + 1; j < live.length; j++) pairs.push([i, j])
    const sharing = pairs.filter(([i, j]) => [...live[i]].some((v) => live[j].has(v)))
    let best: { step: PairContraction; removed: number } | undefined
    for (const [i, j] of sharing.length > 0 ? sharing : pairs) {
      const last = live.length === 2
      const needed = new Set([...output, ...live.flatMap((s, n) => (n === i || n === j ? [] : [...s]))])
      const domain = new Set([...live[i], ...live[j], ...(last ? output : [])])
      const keep = new Set([...domain].filter((v) => needed.has(v)))
      const removed = size(keep) - size(live[i]) - size(live[j])
      const cost = size(domain)
      if (best && (removed > best.removed || (removed === best.removed && cost >= best.step.cost))) continue
      const summed = new Set([...domain].filter((v) => !needed.has(v)))
      const step = { pair: [i, j] as const, indices: inOrder(domain), keep: inOrder(keep), summed: inOrder(summed), cost }
      best = { removed, step }
    }
    const { step } = best!
    steps.push(step)
    live = [...live.filter((_, n) => n !== step.pair[0] && n !== step.pair[1]), new Set(step.keep)]
  }
  return steps
}
