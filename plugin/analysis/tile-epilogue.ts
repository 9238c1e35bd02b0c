/**
 * Whether the register tiles of a GEMM or of a convolution's direct path can apply its epilogue
 * (passes/fuse-epilogue.ts) themselves, and from where each of its reads comes (emit/c-tile-epilogue.ts prints it): a
 * tile knows its first m and n positions and C's address, so it can read C itself at the element it writes (the
 * accumulator); a tensor of C's shape at the same indices (a residual); a tensor over exactly the n indices, in role
 * order (a bias: one vector per tile vector) or exactly the m indices (a per-row scale: one broadcast per row); and
 * anything over no index at all (evaluated once per call). A convolution's n index is its output channel; its m
 * positions span several axes, so it has no per-row reads. Anything else, a gathered C or a triangular domain leaves
 * the epilogue to loops after the GEMM, or to the convolution's output blocks.
 */
import { equal } from '../ir/affine.ts'
import type { Access, Affine, Contraction, Convolution, Expr, IndexRange, Kernel, Store } from '../ir/nodes.ts'
import { walkExpr, walkStmts } from '../ir/walk.ts'
import { vectorElementType } from './vector-form.ts'

/** Where a tile reads one subexpression of the epilogue from. */
export type TilePlace =
  | { readonly kind: 'accumulator' }
  | { readonly kind: 'tile' | 'columns' | 'rows'; readonly tensor: string }
  | { readonly kind: 'invariant' }

export interface TileEpilogue {
  readonly store: Store
  /** Each load, and each subexpression over no index, by where it comes from; constants are not in it. */
  readonly places: ReadonlyMap<Expr, TilePlace>
}

/** An operator whose epilogue its tiles may apply. */
export type Heavy = Contraction | Convolution

/** The heavy operator's output. */
export const outputOf = (s: Heavy): Access => (s.kind === 'convolution' ? s.roles.output : s.roles.c)

/** What a tile of `s` addresses: C, the indices of its columns (n) and of its rows (m), or why it cannot. */
function tileRoles(s: Heavy): { readonly c: Access; readonly m: readonly IndexRange[]; readonly n: readonly IndexRange[] } | string {
  if (s.kind === 'convolution') return { c: s.roles.output, m: [], n: [s.roles.outChannels] }
  const r = s.roles
  if (r.layout === 'gathered') return "C is stored through offset tables (its roles' indices are not adjacent)"
  if (r.domain !== undefined) return 'a triangular domain leaves part of C to the fill'
  return r
}

/** The epilogue of `s` with the place of each read, or why a tile cannot apply it. */
export function tileEpilogue(kernel: Kernel, s: Heavy): TileEpilogue | string {
  const r = tileRoles(s)
  if (typeof r === 'string') return r
  const dtype = s.roles.dtype
  const stores: Store[] = []
  walkStmts(s.body.slice(s.body.length - (s.epilogue ?? 0)), (x) => void (x.kind === 'store' && stores.push(x)))
  const [store] = stores
  if (stores.length !== 1 || store.op !== '=') return 'not one element-wise assignment'
  if (vectorElementType(stores) !== dtype) return `its expression has no ${dtype} vector form (mixed types, % or pow)`
  // The epilogue's own index at each output dimension, and the role index C has there.
  const roleOf = new Map<string, string>()
  store.access.index.forEach((ix, d) => roleOf.set(ix.terms[0]?.v ?? '', r.c.index[d].terms[0]?.v ?? ''))
  const shapeOf = (name: string) => kernel.tensors.find((t) => t.name === name)?.shape ?? []
  const over = (a: Access, role: readonly IndexRange[]): boolean => {
    const shape = shapeOf(a.tensor)
    return a.index.length === role.length && shape.length === role.length &&
      a.index.every((ix, d) => plainRole(ix, roleOf) === role[d].name && equal(shape[d], role[d].extent))
  }
  const atOutput = (a: Access) =>
    a.index.length === store.access.index.length && a.index.every((ix, d) => equal(ix, store.access.index[d])) &&
    shapeOf(a.tensor).every((d, k) => equal(d, shapeOf(store.access.tensor)[k]))
  const usesIndex = (e: Expr) => {
    let found = false
    walkExpr(e, (x) => {
      if (x.kind === 'var' && roleOf.has(x.name)) found = true
      if (x.kind === 'load' && x.access.index.some((ix) => ix.terms.some((t) => roleOf.has(t.v)))) found = true
    })
    return found
  }
  const places = new Map<Expr, TilePlace>()
  let problem: string | undefined
  const place = (e: Expr): void => {
    if (problem !== undefined || e.kind === 'const') return
    if (!usesIndex(e)) {
      places.set(e, { kind: 'invariant' })
      return
    }
    switch (e.kind) {
      case 'var':
        problem = `it reads the index ${e.name} as a value`
        return
      case 'load': {
        const a = e.access
        if (e.zeroOutside) problem = `it reads ${a.tensor} outside its bounds`
        else if (a.tensor === store.access.tensor && atOutput(a)) places.set(e, { kind: 'accumulator' })
        else if (atOutput(a)) places.set(e, { kind: 'tile', tensor: a.tensor })
        else if (over(a, r.n)) places.set(e, { kind: 'columns', tensor: a.tensor })
        else if (r.m.length > 0 && over(a, r.m)) places.set(e, { kind: 'rows', tensor: a.tensor })
        else problem = `it reads ${a.tensor} at indices a tile cannot address (neither C's nor exactly ${s.kind === 'convolution' ? 'the output channel' : 'the n or the m indices'})`
        return
      }
      case 'unary':
      case 'call':
        return place(e.arg)
      case 'select':
        return [e.cond, e.a, e.b].forEach(place)
      case 'binary':
        return [e.a, e.b].forEach(place)
    }
  }
  place(store.value)
  return problem ?? { store, places }
}

/** The role index an epilogue's plain index stands for, or ''. */
function plainRole(ix: Affine, roleOf: ReadonlyMap<string, string>): string {
  const plain = ix.constant === 0 && ix.terms.length === 1 && ix.terms[0].coeff === 1
  return plain ? roleOf.get(ix.terms[0].v) ?? '' : ''
}
