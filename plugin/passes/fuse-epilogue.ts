/**
 * Epilogue fusion (PolyDL's Algorithm 3, fusion of element-wise operators into the heavy operator; oneDNN's
 * post-ops): an element-wise statement right after a convolution or contraction that reads the heavy operator's
 * temporary output only at the point it writes, `O[n, p, q, k] = max(T[n, p, q, k] + bias[k], 0)`, joins it. The heavy
 * operator then sums into O itself (zeroed just before) and the statement becomes its epilogue, `O[...] =
 * max(O[...] + bias[k], 0)`, applied in place: a GEMM applies it to each register tile of its last k block before
 * the tile is stored (PolyDL's placement in the last reduction iteration), and so does a convolution's direct path to
 * each tile it sums whole in one call; elsewhere a convolution's C driver runs it on each output block as soon as
 * that block's sums are complete, while the block is still in cache. T (allocated, zeroed and read back every call)
 * is gone.
 * Legal from the access maps and the dependences: T is a temporary only the heavy operator writes and only the
 * statement reads, each read at its own point (`pointwise`, over plain indices covering T's shape); O has T's shape
 * and element type, is written at the same point and read nowhere in the statement, and is not an operand of the
 * heavy operator (no WAR from it to the statement outside T).
 * A statement in place on the heavy operator's fresh sum (`C[i, j] +=! A[i, k] * B[k, j]`, then `C[i, j] =
 * C[i, j] / z[i]`) joins it as it is: its reads of C are at its own point, C is zeroed right before the sum and not an
 * operand, so applying it to each finished tile leaves C as the two statements do, whoever reads C later.
 * Needs: block form with Convolutions and Contractions (the substitute passes). Leaves them with `epilogue` set.
 */
import { equal } from '../ir/affine.ts'
import type { Access, Block, Contraction, Convolution, Expr, Kernel, Stmt, Store } from '../ir/nodes.ts'
import { isZeroFill, loadsOf, mapExpr, mapStmts, walkStmts } from '../ir/walk.ts'
import type { KernelFacts } from '../analysis/deps.ts'
import { outputOf, tileEpilogue, type Heavy } from '../analysis/tile-epilogue.ts'
import { plainIndex } from './match-convolution.ts'

/** The heavy operator's tensors it only reads. */
const operandsOf = (s: Heavy): readonly string[] =>
  s.kind === 'convolution'
    ? [s.roles.input.tensor, s.roles.filter.tensor]
    : [s.roles.a, s.roles.b, s.roles.scaleA?.by, s.roles.scaleB?.by].flatMap((a) => (a ? [a.tensor] : []))

/** `s` summing into `to` instead of its output. */
function writingTo(s: Heavy, to: string): Heavy {
  const output = { ...outputOf(s), tensor: to }
  return s.kind === 'convolution' ? { ...s, roles: { ...s.roles, output } } : { ...s, roles: { ...s.roles, c: output } }
}

export function fuseEpilogues(kernel: Kernel, facts: KernelFacts, log?: (message: string) => void): Kernel {
  let body = kernel.body
  const removed: string[] = []
  for (let i = 0; i + 1 < body.length; i++) {
    const [heavy, next] = [body[i], body[i + 1]]
    if ((heavy.kind !== 'convolution' && heavy.kind !== 'contraction') || next.kind !== 'block' || (heavy.epilogue ?? 0) > 0) continue
    const found = epilogueOf(kernel, facts, heavy, next, body[i - 1])
    if (found === 'in place') {
      const fused: Heavy = { ...heavy, body: [...heavy.body, next], epilogue: 1 }
      log?.(`${kernel.name} ${heavy.id}: ${next.id} fused as the epilogue, ${placement(kernel, fused)} in place on ${outputOf(heavy).tensor}`)
      body = [...body.slice(0, i), fused, ...body.slice(i + 2)]
      continue
    }
    if (typeof found === 'string') {
      log?.(`${kernel.name} ${heavy.id}: ${next.id} not fused as the epilogue: ${found}`)
      continue
    }
    const { temp, out } = found
    const fused: Heavy = {
      ...writingTo(heavy, out.tensor),
      body: [...renameStores(heavy.body, temp, out.tensor), inPlace(next, temp, out.tensor)],
      epilogue: 1,
    }
    log?.(`${kernel.name} ${heavy.id}: ${next.id} fused as the epilogue, ${placement(kernel, fused)} in place on ${out.tensor}`)
    const zero: Stmt = { kind: 'fill', tensor: out.tensor, value: { kind: 'const', value: 0, type: out.dtype } }
    body = [...body.slice(0, i), zero, fused, ...body.slice(i + 2)].filter((s) => !(s.kind === 'fill' && s.tensor === temp))
    removed.push(temp)
    i = body.indexOf(fused)
  }
  if (body === kernel.body) return kernel
  return { ...kernel, body, tensors: kernel.tensors.filter((t) => !removed.includes(t.name)) }
}

/**
 * Where the fused epilogue runs: in a GEMM's register tiles or after the GEMM; in the register tiles of a
 * convolution's direct path that sum a tile whole in one call, or on each finished output block.
 */
function placement(kernel: Kernel, fused: Heavy): string {
  const tiles = tileEpilogue(kernel, fused)
  if (fused.kind === 'convolution') {
    const blocks = 'on each finished output block'
    return typeof tiles === 'string' ? `run ${blocks} (${tiles})` : `applied in registers to the tiles a direct call sums whole, else ${blocks}`
  }
  if (typeof tiles !== 'string') return 'applied in registers to each GEMM tile of the last k block'
  return `run as loops over the output after the GEMM (${tiles})`
}

/**
 * T and O when `next` may become `heavy`'s epilogue summing into O, `in place` when it may join it as it is (O is
 * the heavy operator's output, zeroed by `before`), or why neither.
 */
function epilogueOf(
  kernel: Kernel, facts: KernelFacts, heavy: Heavy, next: Block, before: Stmt | undefined,
): { readonly temp: string; readonly out: Access & { readonly dtype: 'f32' | 'f64' } } | 'in place' | (string & {}) {
  const temp = outputOf(heavy).tensor
  const tensor = (name: string) => kernel.tensors.find((t) => t.name === name)
  if (next.constraints.length > 0 || next.body.length !== 1 || next.body[0].kind !== 'store') {
    return 'not one unconstrained element-wise store'
  }
  const store: Store = next.body[0]
  const O = tensor(store.access.tensor)
  if (store.op !== '=' || O === undefined) return 'not an assignment'
  // Every point of the statement writes its own element of O, all of O, at the indices it reads T with.
  const plain = store.access.index.map(plainIndex)
  const indices = next.indices.map((ix) => ix.name)
  if (plain.some((v) => v === undefined) || new Set(plain).size !== plain.length || plain.length !== indices.length ||
    !indices.every((v) => plain.includes(v))) return `${O.name} is not written at plain indices covering the statement`
  const covers = store.access.index.every((ix, d) => {
    const range = next.indices.find((r) => r.name === ix.terms[0].v)
    return range !== undefined && equal(range.extent, O.shape[d])
  })
  if (!covers) return `the statement does not write all of ${O.name}`
  const loads = loadsOf(store.value)
  // Ranks may differ: `Y = C[0, 0]` reads a matrix into a scalar.
  const atPoint = (a: Access) => a.index.length === store.access.index.length && a.index.every((ix, d) => equal(ix, store.access.index[d]))
  if (loads.some((l) => l.access.tensor === temp && (l.zeroOutside || !atPoint(l.access)))) {
    return `the statement reads ${temp} away from the element it writes`
  }
  if (operandsOf(heavy).includes(O.name)) return `${O.name} is an operand of the ${heavy.kind}`
  let inside = false
  walkStmts(heavy.body, (s) => void (s.kind === 'store' && loadsOf(s.value).some((l) => l.access.tensor === temp) && (inside = true)))
  if (inside) return `the ${heavy.kind} reads ${temp}`
  if (O.name === temp) {
    return isZeroFill(before, temp) ? 'in place' : `the statement works in place on ${temp}, which the ${heavy.kind} does not sum from zero`
  }
  const T = tensor(temp)
  if (T?.role !== 'temp') return `the ${heavy.kind} writes ${temp}, not a temporary`
  if (O.dtype !== T.dtype || O.shape.length !== T.shape.length || !O.shape.every((d, k) => equal(d, T.shape[k]))) {
    return `${O.name} and ${temp} differ in shape or type`
  }
  if (!loads.some((l) => l.access.tensor === temp)) return `the statement does not read ${temp}`
  if (loads.some((l) => l.access.tensor === O.name)) return `the statement reads ${O.name}, which the epilogue overwrites`
  // T's only producer and consumer: the heavy operator (and its fill) and this statement.
  const ours = (id: string) => id === heavy.id || id === next.id || id.startsWith(`fill:${temp}@`)
  const elsewhere = facts.dependences.find((d) => d.tensor === temp && !(ours(d.from) && ours(d.to)))
  if (elsewhere !== undefined) return `${temp} is also used by ${[elsewhere.from, elsewhere.to].find((id) => !ours(id))}`
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
