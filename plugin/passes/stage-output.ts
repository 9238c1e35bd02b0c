/**
 * A contraction whose large operand must be gathered through a transpose, staged through a temporary where the
 * output is enough smaller (TTGT's choice of what to transpose, made per call). `C[c, b, a] +=! A[a, d, b] * B[c, d]`
 * with vectors along C's stride-1 index `a` packs A across rows 160 KB apart and transposes it (32 MB at the TCCG
 * sizes), while `T[a, c, b] +=! A[a, d, b] * B[c, d]` is a plain GEMM per value of `a` that reads A along its rows,
 * after which `C[c, b, a] = T[a, c, b]` transposes 3.8 MB (register-transposed tiles: tile-transposes.ts,
 * emit/c-transpose.ts). On abc-bda-dc (AMD EPYC Zen 5, AVX-512, one process against the gathered form): 1.30× at 1
 * thread. Each call chooses by the cost of what the two ways move (a SizeChoice, as contraction-path.ts makes; the
 * weights below).
 *
 * Qualifies: a block of one `+=` store of the product of two tensor reads, every access plain (one index per
 * dimension, none twice), no constraints, the output a parameter read by neither factor nor by the next statement
 * (which fuse-epilogue.ts would make its epilogue); an operand X holds the output's stride-1 index but has another
 * free index at stride 1, and reads as [free indices, summed indices, free indices] with no index of both factors
 * (batch) after its summed ones, so that per value of its leading free indices it is a row-major K × N matrix. The
 * temporary's order: X's leading free indices, the other factor's free indices, X's trailing free indices. The
 * output's `+=!` reset right before the block becomes the copy's `=`.
 * Needs: block form (one store per block). Leaves: block form; candidate 1 is `<id>.p1.1` (into the temporary,
 * reset by a Fill before it) and `<id>.p1` (the copy).
 */
import { constant, equal, variable } from '../ir/affine.ts'
import type { Access, Affine, Block, DType, Kernel, SizeChoice, Stmt, Store, Tensor } from '../ir/nodes.ts'
import { productOf, sumOf } from '../ir/polynomial.ts'
import { freshName, takenNames } from '../ir/names.ts'
import { identityOf } from '../spec/build-ir.ts'
import { isZeroFill, loadsOf, walkStmts } from '../ir/walk.ts'
import { candidateIf } from './contraction-path.ts'
import { plainIndex } from './match-convolution.ts'

/**
 * A call's cost each way, in weighted elements: direct, the gathered operand's elements (its transposing gather);
 * staged, the output's (written to the temporary, then copied) plus, for each batch GEMM (each point of the
 * operand's leading free indices), the other factor's slice it packs again. Fitted on 16 shapes of abc-bda-dc,
 * abcd-dbea-ec and abcd-deca-be against both candidates forced (AMD EPYC Zen 5, AVX-512, 1 and 2 threads;
 * docs/benchmarks/tccg.md): staging won from about twice the output's elements in the operand, except where the
 * batch GEMMs are small and many (abcd-deca-be at the bench's sizes, 2,912 GEMMs of 24 × 56 × 52: 0.80-0.91×).
 */
export const STAGE_WEIGHTS = { gather: 2, copy: 4, repack: 1 } as const

export function stageOutputs(kernel: Kernel, log?: (message: string) => void): Kernel {
  const taken = takenNames(kernel)
  const temps: Tensor[] = []
  const choices: SizeChoice[] = []
  const body: Stmt[] = []
  for (const [i, b] of kernel.body.entries()) {
    const plan = b.kind === 'block' && !readsNext(kernel.body[i + 1], b) ? planStaging(b, kernel) : undefined
    if (b.kind !== 'block' || plan === undefined) {
      body.push(b)
      continue
    }
    const { store, dtype, order } = plan
    const reset = isZeroFill(kernel.body[i - 1], store.access.tensor) ? body.pop() : undefined
    const name = freshName(`${b.id}_p1_t1`, taken)
    const choice = freshName(`${b.id}_stage`, taken)
    const into: Access = { tensor: name, index: order.map((v) => variable(v)) }
    const copy: Block = {
      ...b,
      id: `${b.id}.p1`,
      indices: b.indices.filter((ix) => plan.output.includes(ix.name)),
      body: [{ ...store, op: reset ? '=' : '+=', value: { kind: 'load', access: into, type: dtype, zeroOutside: false } }],
      tags: [],
    }
    const staged: Stmt[] = [
      { kind: 'fill', tensor: name, value: identityOf('+=', dtype) },
      { ...b, id: `${b.id}.p1.1`, body: [{ ...store, access: into }] },
      copy,
    ]
    body.push(candidateIf(choice, 0, reset ? [reset, b] : [b]), candidateIf(choice, 1, staged))
    temps.push({ name, dtype, shape: order.map(plan.extent), role: 'temp', span: b.span })
    const sizeOf = (indices: readonly string[], times: number) => productOf([constant(times), ...indices.map(plan.extent)])
    const { gather, copy: copyWeight, repack } = STAGE_WEIGHTS
    const repacked = [...plan.leading, ...plan.other.filter((v) => !plan.leading.includes(v))]
    const costs = [sizeOf(plan.gathered, gather), sumOf([sizeOf(plan.output, copyWeight), sizeOf(repacked, repack)])]
    choices.push({ name: choice, costs, temps: [[], [name]] })
    log?.(`${kernel.name} ${b.id}: ${plan.operand} gathered through a transpose, or the sum staged in ` +
      `${name}[${order.join(', ')}] and copied; ${choice} stages when ${gather}·|${plan.operand}| > ` +
      `${copyWeight}·|output| + ${repack}·${repacked.join('·')}`)
  }
  if (choices.length === 0) return kernel
  return { ...kernel, tensors: [...kernel.tensors, ...temps], choices: [...(kernel.choices ?? []), ...choices], body }
}

/** Whether `next` reads what `b` stores: an element-wise statement there becomes the contraction's epilogue. */
function readsNext(next: Stmt | undefined, b: Block): boolean {
  const out = b.body[0]?.kind === 'store' ? b.body[0].access.tensor : undefined
  let reads = false
  walkStmts(next ? [next] : [], (s) => void (s.kind === 'store' && loadsOf(s.value).some((l) => l.access.tensor === out) && (reads = true)))
  return reads
}

interface Staging {
  readonly store: Store
  readonly dtype: DType
  /** The output's indices, in its order. */
  readonly output: readonly string[]
  /** The temporary's index order. */
  readonly order: readonly string[]
  /** The indices of the operand a direct call gathers. */
  readonly gathered: readonly string[]
  /** Its free indices before its summed ones: a staged call runs one GEMM per point of them. */
  readonly leading: readonly string[]
  /** The other factor's indices. */
  readonly other: readonly string[]
  readonly operand: string
  readonly extent: (v: string) => Affine
}

function planStaging(b: Block, kernel: Kernel): Staging | undefined {
  const store = b.body.length === 1 && b.body[0].kind === 'store' ? b.body[0] : undefined
  if (!store || store.op !== '+=' || b.constraints.length > 0) return undefined
  const value = store.value
  if (value.kind !== 'binary' || value.op !== 'mul' || value.a.kind !== 'load' || value.b.kind !== 'load') return undefined
  const extents = new Map(b.indices.map((ix) => [ix.name, ix.extent]))
  const plain = (a: Access): string[] | undefined => {
    const vars = a.index.map(plainIndex)
    const shape = kernel.tensors.find((t) => t.name === a.tensor)?.shape
    const fits = vars.every((v, d) => v !== undefined && shape !== undefined && equal(extents.get(v) ?? constant(-1), shape[d]))
    return fits && new Set(vars).size === vars.length ? (vars as string[]) : undefined
  }
  const output = plain(store.access)
  const factors = [value.a, value.b].map((l) => ({ tensor: l.access.tensor, vars: plain(l.access) }))
  const temp = kernel.tensors.find((t) => t.name === store.access.tensor)?.role === 'temp'
  if (!output || temp || factors.some((f) => !f.vars || f.tensor === store.access.tensor)) return undefined
  const [x, y] = [0, 1].map((n) => factors[n].vars!)
  const summed = b.indices.map((ix) => ix.name).filter((v) => !output.includes(v))
  if (summed.length === 0 || summed.some((v) => !x.includes(v) || !y.includes(v))) return undefined
  for (const [gathered, other, tensor] of [[x, y, factors[0].tensor], [y, x, factors[1].tensor]] as const) {
    const staged = stagedOrder(gathered, other, output, summed)
    if (staged) {
      const { order, leading } = staged
      return { store, dtype: value.type as DType, output, order, gathered, leading, other, operand: tensor, extent: (v) => extents.get(v)! }
    }
  }
  return undefined
}

/**
 * The temporary's order, and the operand's leading free indices, when `gathered` is the operand a direct call
 * transposes and reads as K × N per batch.
 */
function stagedOrder(
  gathered: readonly string[], other: readonly string[], output: readonly string[], summed: readonly string[],
): { readonly order: string[]; readonly leading: string[] } | undefined {
  const last = gathered.at(-1)!
  if (!gathered.includes(output.at(-1)!) || last === output.at(-1) || summed.includes(last)) return undefined
  const first = gathered.findIndex((v) => summed.includes(v))
  const afterSummed = first + gathered.slice(first).findIndex((v) => !summed.includes(v))
  const leading = gathered.slice(0, first)
  const trailing = gathered.slice(afterSummed)
  if (trailing.some((v) => summed.includes(v) || other.includes(v))) return undefined
  const rows = other.filter((v) => !summed.includes(v) && !gathered.includes(v))
  const order = [...leading, ...rows, ...trailing]
  return rows.length > 0 && order.length === output.length ? { order, leading } : undefined
}
