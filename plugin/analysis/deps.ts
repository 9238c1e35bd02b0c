/**
 * Dependences of a block-form kernel, computed from its access maps: between statements (RAW, WAR, WAW and RAR,
 * PolyDL's four kinds), and inside each block (which indices carry its reduction and which are free to run in
 * parallel). Later passes read these facts to reorder, tile, parallelize and fuse legally.
 */
import { coeffOf, equal } from '../ir/affine.ts'
import type { Access, Block, Kernel, Stmt } from '../ir/nodes.ts'
import { loadsOf, walkStmts } from '../ir/walk.ts'

export type DependenceKind = 'raw' | 'war' | 'waw' | 'rar'

export interface Dependence {
  readonly kind: DependenceKind
  /** Statement ids (`s0`, ...) or `fill:<tensor>@<n>` for initialisations; `from` runs first. */
  readonly from: string
  readonly to: string
  readonly tensor: string
  /** The accesses at both ends (a fill accesses the whole tensor: `undefined`). */
  readonly fromAccess?: Access
  readonly toAccess?: Access
  /**
   * True when `to` touches, at each of its points, exactly the elements `from` produced at the point with the
   * same index values: identical access maps over plain indices. Such a pair can share a loop nest (fusion).
   */
  readonly pointwise: boolean
}

export interface BlockFacts {
  readonly id: string
  /** Indices that do not appear in the written access: each output element is reduced across them. */
  readonly reductionIndices: readonly string[]
  /** Indices whose iterations write disjoint elements: the candidates for a parallel loop. */
  readonly parallelIndices: readonly string[]
}

export interface KernelFacts {
  readonly dependences: readonly Dependence[]
  readonly blocks: ReadonlyMap<string, BlockFacts>
}

interface Footprint {
  readonly id: string
  readonly reads: readonly Access[]
  readonly writes: readonly Access[]
  /** A fill writes every element of these tensors. */
  readonly fills: readonly string[]
}

export function analyzeKernel(kernel: Kernel): KernelFacts {
  const steps = kernel.body.map(footprint)
  const dependences: Dependence[] = []
  for (let i = 0; i < steps.length; i++) {
    for (let j = i + 1; j < steps.length; j++) dependences.push(...between(steps[i], steps[j]))
  }
  const blocks = new Map<string, BlockFacts>()
  // Blocks inside a top-level `if` too: the candidates of a SizeChoice.
  walkStmts(kernel.body, (s, parents) => {
    if (s.kind === 'block' && parents.every((p) => p.kind === 'if')) blocks.set(s.id, blockFacts(s))
  })
  return { dependences, blocks }
}

function footprint(s: Stmt, n: number): Footprint {
  if (s.kind === 'fill') return { id: `fill:${s.tensor}@${n}`, reads: [], writes: [], fills: [s.tensor] }
  const reads: Access[] = []
  const writes: Access[] = []
  const visit = (x: Stmt) => {
    if (x.kind === 'store') {
      writes.push(x.access)
      reads.push(...loadsOf(x.value).map((l) => l.access))
    } else if (x.kind !== 'fill') x.body.forEach(visit)
  }
  visit(s)
  return { id: s.kind === 'block' ? s.id : `stmt@${n}`, reads, writes, fills: [] }
}

function between(a: Footprint, b: Footprint): Dependence[] {
  const out: Dependence[] = []
  const pair = (kind: DependenceKind, x: readonly Access[], xFill: readonly string[], y: readonly Access[], yFill: readonly string[]) => {
    const tensors = new Set([...x.map((t) => t.tensor), ...xFill].filter((t) => y.some((u) => u.tensor === t) || yFill.includes(t)))
    for (const tensor of tensors) {
      const xs = x.filter((t) => t.tensor === tensor)
      const ys = y.filter((t) => t.tensor === tensor)
      const whole = xFill.includes(tensor) || yFill.includes(tensor)
      const pointwise = !whole && xs.length > 0 && ys.every((u) => xs.every((t) => samePlainMap(t, u)))
      out.push({ kind, from: a.id, to: b.id, tensor, fromAccess: xs[0], toAccess: ys[0], pointwise })
    }
  }
  pair('raw', a.writes, a.fills, b.reads, [])
  pair('war', a.reads, [], b.writes, b.fills)
  pair('waw', a.writes, a.fills, b.writes, b.fills)
  pair('rar', a.reads, [], b.reads, [])
  return out
}

/** Both accesses are the same list of plain indices (`T[i, j]` and `T[i, j]`). */
const samePlainMap = (x: Access, y: Access): boolean =>
  x.index.every((e, d) => e.terms.length === 1 && e.terms[0].coeff === 1 && e.constant === 0 && equal(e, y.index[d]))

function blockFacts(b: Block): BlockFacts {
  const writes: Access[] = []
  for (const s of b.body) if (s.kind === 'store') writes.push(s.access)
  const inWrites = (v: string) => writes.every((w) => w.index.some((e) => coeffOf(e, v) !== 0))
  // An index is parallel when every write is injective in it: it appears alone, with coefficient ±1, in some
  // dimension no other index of the block touches.
  const injective = (v: string) =>
    writes.every((w) => w.index.some((e) => e.terms.length === 1 && Math.abs(coeffOf(e, v)) === 1))
  return {
    id: b.id,
    reductionIndices: b.indices.map((ix) => ix.name).filter((v) => !inWrites(v)),
    parallelIndices: b.indices.map((ix) => ix.name).filter(injective),
  }
}
