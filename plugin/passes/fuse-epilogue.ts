/**
 * Epilogue fusion (PolyDL's fusion of element-wise operators into the convolution; oneDNN's post-ops): an
 * element-wise statement right after a convolution that reads the convolution's temporary output only at the point
 * it writes, `O[n, p, q, k] = max(T[n, p, q, k] + bias[k], 0)`, joins the convolution. The convolution then sums into
 * O itself (zeroed just before) and the statement becomes its epilogue, `O[...] = max(O[...] + bias[k], 0)`, applied
 * in place: the C driver runs it on each output block as soon as that block's sums are complete, while the block is
 * still in cache, and T (allocated, zeroed and read back every call) is gone.
 * Legal from the access maps and the dependences: T is a temporary only the convolution writes and only the
 * statement reads, each read at its own point (`pointwise`, over plain indices covering T's shape); O has T's shape
 * and element type, is written at the same point and read nowhere in the statement, and is not an operand of the
 * convolution (no WAR from the convolution to the statement outside T).
 * Needs: block form with Convolutions (substitute-convolution). Leaves: Convolutions with `epilogue` set.
 */
import { equal } from '../ir/affine.ts'
import type { Access, Block, Convolution, Expr, Kernel, Stmt, Store } from '../ir/nodes.ts'
import { loadsOf, mapExpr, mapStmts, walkStmts } from '../ir/walk.ts'
import type { KernelFacts } from '../analysis/deps.ts'
import { plainIndex } from './match-convolution.ts'

export function fuseEpilogues(kernel: Kernel, facts: KernelFacts, log?: (message: string) => void): Kernel {
  let body = kernel.body
  const removed: string[] = []
  for (let i = 0; i + 1 < body.length; i++) {
    const [conv, next] = [body[i], body[i + 1]]
    if (conv.kind !== 'convolution' || next.kind !== 'block' || (conv.epilogue ?? 0) > 0) continue
    const found = epilogueOf(kernel, facts, conv, next)
    if (typeof found === 'string') {
      log?.(`${kernel.name} ${conv.id}: ${next.id} not fused as the epilogue: ${found}`)
      continue
    }
    const { temp, out } = found
    log?.(`${kernel.name} ${conv.id}: ${next.id} fused as the epilogue, run on each finished output block in place on ${out.tensor}`)
    const fused: Convolution = {
      ...conv,
      roles: { ...conv.roles, output: { ...conv.roles.output, tensor: out.tensor } },
      body: [...renameStores(conv.body, temp, out.tensor), inPlace(next, temp, out.tensor)],
      epilogue: 1,
    }
    const zero: Stmt = { kind: 'fill', tensor: out.tensor, value: { kind: 'const', value: 0, type: out.dtype } }
    body = [...body.slice(0, i), zero, fused, ...body.slice(i + 2)].filter((s) => !(s.kind === 'fill' && s.tensor === temp))
    removed.push(temp)
    i = body.indexOf(fused)
  }
  if (removed.length === 0) return kernel
  return { ...kernel, body, tensors: kernel.tensors.filter((t) => !removed.includes(t.name)) }
}

/** T and O when `next` may become `conv`'s epilogue, or why not. */
function epilogueOf(
  kernel: Kernel, facts: KernelFacts, conv: Convolution, next: Block,
): { readonly temp: string; readonly out: Access & { readonly dtype: 'f32' | 'f64' } } | string {
  const temp = conv.roles.output.tensor
  const tensor = (name: string) => kernel.tensors.find((t) => t.name === name)
  const T = tensor(temp)
  if (T?.role !== 'temp') return `the convolution writes ${temp}, not a temporary`
  if (next.constraints.length > 0 || next.body.length !== 1 || next.body[0].kind !== 'store') {
    return 'not one unconstrained element-wise store'
  }
  const store: Store = next.body[0]
  const O = tensor(store.access.tensor)
  if (store.op !== '=' || O === undefined || O.name === temp) return 'not an assignment to another tensor'
  // Every point of the statement writes its own element of O, all of O, at the indices it reads T with.
  const plain = store.access.index.map(plainIndex)
  const indices = next.indices.map((ix) => ix.name)
  if (plain.some((v) => v === undefined) || new Set(plain).size !== plain.length || plain.length !== indices.length ||
    !indices.every((v) => plain.includes(v))) return `${O.name} is not written at plain indices covering the statement`
  if (O.dtype !== T.dtype || O.shape.length !== T.shape.length || !O.shape.every((d, k) => equal(d, T.shape[k]))) {
    return `${O.name} and ${temp} differ in shape or type`
  }
  const covers = store.access.index.every((ix, d) => {
    const range = next.indices.find((r) => r.name === ix.terms[0].v)
    return range !== undefined && equal(range.extent, O.shape[d])
  })
  if (!covers) return `the statement does not write all of ${O.name}`
  const loads = loadsOf(store.value)
  const atPoint = (a: Access) => a.index.every((ix, d) => equal(ix, store.access.index[d]))
  if (!loads.some((l) => l.access.tensor === temp)) return `the statement does not read ${temp}`
  if (loads.some((l) => l.access.tensor === temp && (l.zeroOutside || !atPoint(l.access)))) {
    return `the statement reads ${temp} away from the element it writes`
  }
  if (loads.some((l) => l.access.tensor === O.name)) return `the statement reads ${O.name}, which the epilogue overwrites`
  const { input, filter } = conv.roles
  if (O.name === input.tensor || O.name === filter.tensor) return `${O.name} is an operand of the convolution`
  // T's only producer and consumer: the convolution (and its fill) and this statement.
  const ours = (id: string) => id === conv.id || id === next.id || id.startsWith(`fill:${temp}@`)
  const elsewhere = facts.dependences.find((d) => d.tensor === temp && !(ours(d.from) && ours(d.to)))
  if (elsewhere !== undefined) return `${temp} is also used by ${[elsewhere.from, elsewhere.to].find((id) => !ours(id))}`
  let inside = false
  walkStmts(conv.body, (s) => void (s.kind === 'store' && loadsOf(s.value).some((l) => l.access.tensor === temp) && (inside = true)))
  if (inside) return `the convolution reads ${temp}`
  return { temp, out: { ...store.access, dtype: O.dtype as 'f32' | 'f64' } }
}

/** `stmts` with their stores to `from` writing `to` instead. */
const renameStores = (stmts: readonly Stmt[], from: string, to: string): readonly Stmt[] =>
  mapStmts(stmts, { store: (s) => (s.access.tensor === from ? { ...s, access: { ...s.access, tensor: to } } : s) })

/** The epilogue statement reading `to` where it read `from`: O = f(O, ...) in place. */
function inPlace(b: Block, from: string, to: string): Block {
  const swap = (e: Expr): Expr => (e.kind === 'load' && e.access.tensor === from ? { ...e, access: { ...e.access, tensor: to } } : e)
  return { ...b, body: b.body.map((s) => (s.kind === 'store' ? { ...s, value: mapExpr(s.value, swap) } : s)) }
}
