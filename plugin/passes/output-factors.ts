/**
 * Factors of the output's indices out of a fresh sum: `O[s, e] +=! P[s, t] * V[t, e] / z[s]` sums the same as
 * `O[s, e] +=! P[s, t] * V[t, e]` followed by `O[s, e] = O[s, e] / z[s]`, since z[s] does not move along the summed
 * index. Split so, the product is a plain GEMM or convolution (flattened, where a factor packed with an operand needs
 * the gathered form), and the statement after it joins it as its epilogue (fuse-epilogue.ts), applied to each
 * register tile while it is in registers: the microkernel's store, where issue 14 wants such factors.
 *
 * Legal where the sum starts from zero (the output's `+=!` fill right before the block), so the output holds nothing
 * but the sum when the factor is applied; a `+=` onto what the output held is left alone (its factor would scale the
 * old content too). A factor qualifies when it is a tensor element read over the output's indices only (not the
 * output itself), and the product keeps two tensor factors. The new statement keeps the block's constraints on the
 * output's indices (a triangle of it); those on summed indices (a `where k <= i`, a padded read's guards) only take
 * terms out of a sum, whose output is still written. Floating-point results differ from the one statement's as any
 * reassociated sum's do, and where a sum is empty a factor that is not finite (a divisor 0) makes NaN of its 0.
 * Needs: block form from ir/build (one store per block). Leaves: block form; the new statement is `<id>.out`.
 */
import type { Access, Block, DType, Expr, Kernel, Stmt, Store } from '../ir/nodes.ts'
import { printExpr } from '../ir/print.ts'
import { isZeroFill } from '../ir/walk.ts'
import { factorsOf, productOfFactors, type Factor } from './match-contraction.ts'
import { plainIndex } from './match-convolution.ts'

export function splitOutputFactors(kernel: Kernel, log?: (message: string) => void): Kernel {
  const body: Stmt[] = []
  for (const [i, s] of kernel.body.entries()) {
    const split = s.kind === 'block' ? splitBlock(s, kernel.body[i - 1]) : undefined
    if (split === undefined) {
      body.push(s)
      continue
    }
    log?.(`${kernel.name} ${split.product.id}: its factors over the output's indices (${split.moved.map(printFactor).join(' ')}) applied after the sum, in ${split.after.id}`)
    body.push(split.product, split.after)
  }
  return body.length === kernel.body.length ? kernel : { ...kernel, body }
}

const printFactor = (f: Factor): string => `${f.divides ? '/' : '*'} ${printExpr(f.e)}`

/**
 * The block, a sum starting from zero (`before` fills its output with zeros), without its factors over the output's
 * indices, and the statement applying them after it.
 */
function splitBlock(b: Block, before: Stmt | undefined): { product: Block; after: Block; moved: Factor[] } | undefined {
  if (b.body.length !== 1 || b.body[0].kind !== 'store' || b.body[0].op !== '+=') return undefined
  const store: Store = b.body[0]
  const out = store.access
  const type = store.value.type
  if (!isZeroFill(before, out.tensor) || (type !== 'f32' && type !== 'f64')) return undefined
  // The output at plain indices, each once: the new statement runs over exactly those.
  const outIndices = out.index.map(plainIndex)
  if (outIndices.some((v) => v === undefined) || new Set(outIndices).size !== outIndices.length) return undefined
  const blockIndices = new Set(b.indices.map((ix) => ix.name))
  const summed = new Set([...blockIndices].filter((v) => !outIndices.includes(v)))
  if (summed.size === 0) return undefined
  const onOutput = (a: Access) => a.index.every((ix) => ix.terms.every((t) => !summed.has(t.v)))
  const factors = factorsOf(store.value)
  const isTensor = (f: Factor): f is Factor & { e: Extract<Expr, { kind: 'load' }> } => f.e.kind === 'load'
  const moved = factors.filter((f) => isTensor(f) && !f.e.zeroOutside && f.e.access.tensor !== out.tensor && onOutput(f.e.access))
  const kept = factors.filter((f) => !moved.includes(f))
  if (moved.length === 0 || kept.filter((f) => isTensor(f) && !f.divides).length < 2) return undefined
  const element: Expr = { kind: 'load', access: out, type: type as DType, zeroOutside: false }
  const after: Block = {
    kind: 'block',
    id: `${b.id}.out`,
    indices: b.indices.filter((ix) => !summed.has(ix.name)).sort((x, y) => outIndices.indexOf(x.name) - outIndices.indexOf(y.name)),
    constraints: b.constraints.filter((c) => c.expr.terms.every((t) => !summed.has(t.v))),
    body: [{ ...store, op: '=', value: productOfFactors([{ e: element, divides: false }, ...moved], type) }],
    tags: [],
    ...(b.span !== undefined ? { span: b.span } : {}),
  }
  return { product: { ...b, body: [{ ...store, value: productOfFactors(kept, type) }] }, after, moved }
}
