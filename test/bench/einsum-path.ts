/**
 * Issue 14's multi-operand cases (`kind: 'einsum-path'`): products of three or four matrices whose sizes make a
 * path chosen with every size at 64 (contraction-path.ts's REPRESENTATIVE_SIZE) costly or harmless, and the flops
 * of that path against the optimal one, found here by exhaustive search.
 * `pathFlops`: the bench asks polykern itself which path a call runs, through `polykern explain --json` (the
 * contraction-path pass's decision: one path chosen at build time with every size at 64, or several candidates of
 * which each call runs the cheapest at its sizes), then prices that path at the call's sizes.
 * Flops are 2 per multiply-add, as everywhere in the bench.
 */
/** Row-major index strings: `operands` multiply, `output` keeps; every other index is summed. */
export interface Einsum {
  readonly output: string
  readonly operands: readonly string[]
}

export interface EinsumPathCase {
  readonly name: string
  readonly einsum: Einsum
  readonly sizes: Readonly<Record<string, number>>
  /** Why the sizes matter. */
  readonly note: string
}

export const EINSUM_PATH_CASES: readonly EinsumPathCase[] = [
  {
    name: 'path-chain3-2048x16x16x2048',
    einsum: { output: 'il', operands: ['ij', 'jk', 'kl'] },
    sizes: { i: 2048, j: 16, k: 16, l: 2048 },
    note: "the issue's example: both orders cost the same here; the unfactorized product would cost 16x more",
  },
  {
    name: 'path-chain3-2048x16x2048x16',
    einsum: { output: 'il', operands: ['ij', 'jk', 'kl'] },
    sizes: { i: 2048, j: 16, k: 2048, l: 16 },
    note: 'A·(B·C) costs 128x fewer flops than (A·B)·C; with every size at 64 the two orders tie',
  },
  {
    name: 'path-chain4-1024x16x1024x16x1024',
    einsum: { output: 'im', operands: ['ij', 'jk', 'kl', 'lm'] },
    sizes: { i: 1024, j: 16, k: 1024, l: 16, m: 1024 },
    note: 'starting with B·C costs about 3x fewer flops than starting with A·B; at 64 they tie',
  },
]

/** The equation numpy and onnxruntime take: `ij,jk,kl->il`. */
export const equationOf = (e: Einsum): string => `${e.operands.join(',')}->${e.output}`

/** Every index once, in order of first appearance (output first). */
export const indicesOf = (e: Einsum): string[] => [...new Set([...e.output, ...e.operands.join('')])]

const volume = (indices: Iterable<string>, sizes: Readonly<Record<string, number>>): number =>
  [...indices].reduce((n, i) => n * sizes[i], 1)

/** The unfactorized product: one loop nest over every index. */
export const directFlops = (e: Einsum, sizes: Readonly<Record<string, number>>): number => 2 * volume(indicesOf(e), sizes)

/**
 * The cheapest way to evaluate `e`: the loop nest over every index, or any sequence of pairwise contractions (each
 * pair's cost is the volume of the union of its indices; its result keeps what a later operand or the output needs).
 * Exhaustive: every pair at every step, memoized on the set of live operands.
 */
export function optimalFlops(e: Einsum, sizes: Readonly<Record<string, number>>): number {
  const memo = new Map<string, number>()
  const best = (live: readonly string[]): number => {
    if (live.length === 1) return 0
    const key = [...live].map((s) => [...s].sort().join('')).sort().join('|')
    const known = memo.get(key)
    if (known !== undefined) return known
    let min = Infinity
    for (let x = 0; x < live.length; x++)
      for (let y = x + 1; y < live.length; y++) {
        const rest = live.filter((_, n) => n !== x && n !== y)
        const needed = new Set([...e.output, ...rest.join('')])
        const union = new Set([...live[x], ...live[y]])
        const keep = [...union].filter((i) => needed.has(i)).join('')
        min = Math.min(min, 2 * volume(union, sizes) + best([...rest, keep]))
      }
    memo.set(key, min)
    return min
  }
  return Math.min(directFlops(e, sizes), best(e.operands))
}

/** The part of `polykern explain --json`'s `paths` entries (contraction-path.ts's PathDecision) the bench reads. */
export interface ExplainedPath {
  readonly factorized: boolean
  readonly reason: string
  /** The path at representative sizes: `s0_t1[i, k] += A[i, j] * B[j, k]` per step. */
  readonly steps: readonly { readonly statement: string }[]
  /** With per-call paths: every candidate; a call runs the one cheapest at its sizes. */
  readonly candidates?: readonly { readonly steps: readonly { readonly statement: string }[] }[]
  readonly choice?: string
}

/** The flops a call at `sizes` runs, and what they rest on. */
export interface CallPath {
  readonly flops: number
  /** The chosen path's steps as statements, or the one nest. */
  readonly path: readonly string[]
  readonly source: string
}

/** A step's cost: the volume of every index its statement names (its domain). */
function stepFlops(statement: string, sizes: Readonly<Record<string, number>>): number {
  const indices = new Set([...statement.matchAll(/\[([^\]]*)\]/g)].flatMap((m) => m[1].split(',').map((s) => s.trim())))
  return 2 * volume([...indices].filter((i) => i !== ''), sizes)
}

/**
 * The path polykern runs for a call at `sizes`, from what `polykern explain` says the contraction-path pass decided:
 * the one nest when it kept the product whole, the cheapest candidate at these sizes when the kernel chooses per
 * call (`choice`), else the one path it compiled.
 */
export function callPathOf(e: Einsum, decision: ExplainedPath, sizes: Readonly<Record<string, number>>): CallPath {
  if (!decision.factorized) return { flops: directFlops(e, sizes), path: ['one loop nest'], source: `kept whole: ${decision.reason}` }
  const candidates = decision.candidates && decision.candidates.length > 0 ? decision.candidates : [{ steps: decision.steps }]
  const priced = candidates.map((c) => ({
    path: c.steps.map((s) => s.statement),
    flops: c.steps.reduce((n, s) => n + stepFlops(s.statement, sizes), 0),
  }))
  const best = priced.reduce((a, b) => (b.flops < a.flops ? b : a))
  const source = decision.choice !== undefined && candidates.length > 1
    ? `per call: the cheapest of ${candidates.length} candidate paths at the call's sizes`
    : 'the one path compiled at build time (sizes at 64)'
  return { flops: best.flops, path: best.path, source }
}
