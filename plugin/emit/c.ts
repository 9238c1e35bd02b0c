/**
 * A lowered kernel as one C function: `static int symbol(params...)` returning PK_OK, or PK_NO_MEMORY when its
 * temporaries cannot be allocated. The temporaries of a size choice's candidates live in the calling thread's arena
 * (polykern_scratch.h), kept between calls, and only the chosen candidate's are placed there; the kernel's other
 * temporaries are calloc'd. Loops keep the IR's index names and print one to one; `parallel` loops run on the thread
 * pool (c-parallel.ts). Pointers are `restrict`: the N-API wrapper rejects outputs that alias another
 * argument.
 * A contraction with a schedule for the ISA compiled for runs as a blocked GEMM (c-gemm.ts), its epilogue in the
 * last k block's register tiles (c-tile-epilogue.ts) or as loops after it, else as its loops; a convolution with a
 * plan through its driver (c-conv.ts), its epilogue in the register tiles of its direct calls (c-tile-epilogue.ts) and
 * outlined for the driver's other output blocks (c-conv-epilogue.ts);
 * a `vector` loop runs as that ISA's SIMD code (c-vector.ts) when it has one, else serially; a transposing copy's
 * tile as register transposes (c-transpose.ts).
 */
import { KernelInternalError } from '../diagnostics.ts'
import type { Affine, Bound, Kernel, Loop, Stmt, Tensor } from '../ir/nodes.ts'
import { laneLoopInside } from '../ir/walk.ts'
import type { Isa } from '../targets/isa.ts'
import { SCALAR } from '../targets/scalar.ts'
import { C_TYPE, cExpr } from './c-expr.ts'
import { choiceLines, neededWhen } from './choices.ts'
import { convolutionPlan, emitConvCall, emitConvSupport, overwritingConvolutions, runsDirectChannelsLast } from './c-conv.ts'
import { convEpilogues, type ConvEpilogues } from './c-conv-epilogue.ts'
import { registerEpilogues, type RegisterEpilogues } from './c-tile-epilogue.ts'
import { emitGemmCall, emitGemmSupport, gemmPlan, overwritingGemms } from './c-gemm.ts'
import { parallelLoops, type ParallelLoops } from './c-parallel.ts'
import { emitVectorLoop } from './c-vector.ts'
import { emitJammedLoop } from './c-jam.ts'
import { emitTransposedTile } from './c-transpose.ts'
import { zeroStartedNests } from './zero-started.ts'
import { tensorLayout, type Layout } from './layout.ts'
import { kernelNames, type Names } from './names.ts'
import { PREC, affineCode, atom, constraintCode, infix, type Code } from './syntax.ts'
import type { CSupport } from './c-microkernel.ts'

const C_WORDS = new Set(
  [
    // C11 keywords and <stdbool.h>
    'auto break case char const continue default do double else enum extern float for goto if inline int long',
    'register restrict return short signed sizeof static struct switch typedef union unsigned void volatile while',
    'bool true false',
    // types, functions and macros the emitted code and its headers use
    'int8_t int16_t int32_t int64_t uint8_t uint16_t uint32_t uint64_t size_t uintptr_t NULL',
    'exp expf log logf sqrt sqrtf fabs fabsf tanh tanhf pow powf fmod fmodf floor isfinite isnan signbit',
    'calloc free INFINITY NAN INT32_MIN INT32_MAX SIZE_MAX EOF errno assert offsetof',
    // locals of the N-API wrappers
    'env info argv',
  ].flatMap((line) => line.split(' ')),
)

/** Names C code must not take: keywords, what the headers define, and the `pk_`/`napi_` namespaces. */
export const isCReserved = (name: string): boolean =>
  C_WORDS.has(name) || /^(pk_|PK_|napi_|NAPI_|NODE_|_[A-Z_])/.test(name)

/** The N-API callback of the kernel function `symbol`. */
export const napiCallback = (symbol: string): string => `${symbol}_napi`

/** C identifiers for the kernel whose function is `symbol`. */
export const cNames = (kernel: Kernel, symbol: string): Names =>
  kernelNames(kernel, (name) => isCReserved(name) || name === symbol || name === napiCallback(symbol))

/** `const float *restrict A` for inputs, `float *restrict C` for outputs, `int64_t M` for sizes. */
function cParams(kernel: Kernel, names: Names, layout: Layout): string[] {
  return kernel.params.map((p) => {
    if (p.kind === 'size') return `int64_t ${names.of(p.name)}`
    const t = layout.tensor(p.name)
    return `${t.role === 'in' ? 'const ' : ''}${C_TYPE[t.dtype]} *restrict ${names.of(p.name)}`
  })
}

/** A shape as the `rank, dims` arguments of pk_calloc / pk_check_length: `2, (const int64_t[]){M, K}`. */
export function cShapeArgs(shape: readonly Affine[], names: Names): string {
  if (shape.length === 0) return '0, NULL'
  return `${shape.length}, (const int64_t[]){${shape.map((d) => affineCode(d, names.of).text).join(', ')}}`
}

/** The helpers the versions of `kernels` for `isa` share (microkernels, packing, GEMM shapes), each once. */
export function emitCSupport(kernels: readonly Kernel[], isa: Isa): CSupport {
  const gemm = emitGemmSupport(kernels, isa)
  const conv = emitConvSupport(kernels, isa, gemm)
  return {
    code: [gemm.code, conv.code].filter((x) => x !== '').join('\n'),
    families: [...gemm.families, ...conv.families],
  }
}

/** The kernel's version for `isa`, an addon-wide (PK_SHARED) function: the dispatch in polykern.c calls every ISA's. */
export function emitC(kernel: Kernel, symbol: string, isa: Isa = SCALAR): string {
  const names = cNames(kernel, symbol)
  const layout = tensorLayout(kernel, names)
  const arena = kernel.tensors.filter((t) => t.role === 'temp' && neededWhen(kernel, t.name, names, 'c'))
  const temps = kernel.tensors.filter((t) => t.role === 'temp' && !arena.includes(t))
  const freeTemps = temps.map((t) => `free(${names.of(t.name)});`)
  const parallel = parallelLoops(kernel, symbol, names, layout)
  const epilogues: Epilogues = { blocks: convEpilogues(kernel, symbol, names, layout), registers: registerEpilogues(kernel, symbol, names, layout) }
  // The candidates of a size choice are statement lists of their own, inside top-level ifs.
  const lists = [kernel.body, ...kernel.body.flatMap((s) => (s.kind === 'if' ? [s.body] : []))]
  const overwriting = new Set(lists.flatMap((list) => [
    ...overwritingGemms(list, kernel, isa), ...overwritingConvolutions(list, kernel, isa), ...zeroStartedNests(list, kernel, isa),
  ]))
  const stmt = cStatements(names, layout, isa, [...freeTemps, 'return PK_NO_MEMORY;'], parallel, overwriting, epilogues)
  const body = kernel.body.flatMap((s) => stmt(s, 1))

  const lines = [...choiceLines(kernel, names, 'c'), ...arenaLines(kernel, arena, names)]
  for (const t of temps) {
    const type = C_TYPE[t.dtype]
    lines.push(`  ${type} *restrict ${names.of(t.name)} = pk_calloc(sizeof(${type}), ${cShapeArgs(t.shape, names)});`)
  }
  // A candidate without temporaries places nothing (pk_end 0) and needs no arena.
  const failed = [...(arena.length > 0 ? ['pk_end < 0 || (pk_end > 0 && pk_arena == NULL)'] : []), ...temps.map((t) => `${names.of(t.name)} == NULL`)]
  if (failed.length > 0) {
    lines.push(`  if (${failed.join(' || ')}) {`)
    lines.push(...freeTemps.map((l) => `    ${l}`), '    return PK_NO_MEMORY;', '  }')
  }
  lines.push(...body, ...freeTemps.map((l) => `  ${l}`), '  return PK_OK;', '}')
  // The strides the function reads (a contraction run by the GEMM driver computes its own).
  const code = lines.join('\n')
  const hoisted = layout.hoisted.filter((s) => new RegExp(`\\b${s.name}\\b`).test(code))
  const head = [`PK_SHARED int ${symbol}(${cParams(kernel, names, layout).join(', ')}) {`, ...hoisted.map((s) => `  const int64_t ${s.name} = ${s.value.text};`)]
  return [...parallel.outlined, ...epilogues.blocks.outlined, ...epilogues.registers.outlined, [...head, code].join('\n') + '\n'].join('\n')
}

/**
 * Lays out the chosen candidate's temporaries in one arena: `pk_end` bytes (-1 on overflow), each at its offset or
 * NULL when no candidate that uses it runs. One pk_scratch call, so no pointer outlives a reallocation.
 */
function arenaLines(kernel: Kernel, arena: readonly Tensor[], names: Names): string[] {
  if (arena.length === 0) return []
  const at = new Map(arena.map((t) => [t, names.fresh(`${names.of(t.name)}_at`)]))
  const runs = (t: Tensor) => neededWhen(kernel, t.name, names, 'c')!
  return [
    '  int64_t pk_end = 0;',
    ...arena.map((t) => {
      const place = `pk_arena_place(&pk_end, sizeof(${C_TYPE[t.dtype]}), ${cShapeArgs(t.shape, names)})`
      return `  const int64_t ${at.get(t)} = ${runs(t)} ? ${place} : 0;`
    }),
    '  char *const pk_arena = pk_end > 0 ? pk_scratch(PK_ARENA_SLOT, pk_end, 1) : NULL;',
    ...arena.map((t) => {
      const type = C_TYPE[t.dtype]
      return `  ${type} *restrict ${names.of(t.name)} = ${runs(t)} ? (${type} *)(pk_arena + ${at.get(t)}) : NULL;`
    }),
  ]
}

/** No loop runs on the pool. */
const SERIAL: ParallelLoops = { emit: () => undefined, outlined: [] }

/** How a heavy statement's fused epilogue is printed: in its register tiles, or per convolution output block. */
interface Epilogues {
  readonly blocks: ConvEpilogues
  readonly registers: RegisterEpilogues
}

/** Statement printer for one kernel; `depth` is the indentation level. */
function cStatements(
  names: Names, layout: Layout, isa: Isa, onNoMemory: readonly string[], parallel: ParallelLoops,
  overwriting: ReadonlySet<Stmt>, epilogues: Epilogues,
): (s: Stmt, depth: number) => string[] {
  let fillIndex: string | undefined

  const stmt = (s: Stmt, depth: number): string[] => {
    const pad = '  '.repeat(depth)
    switch (s.kind) {
      case 'fill': {
        if (overwriting.has(s)) return []
        const tensor = names.of(s.tensor)
        const value = cExpr(s.value, names, layout).text
        const count = layout.count(s.tensor)
        if (count.text === '1') return [`${pad}${tensor}[0] = ${value};`]
        const q = (fillIndex ??= names.fresh('q'))
        return [`${pad}for (int64_t ${q} = 0; ${q} < ${count.text}; ${q}++) ${tensor}[${q}] = ${value};`]
      }
      case 'loop': {
        const pooled = s.mode === 'parallel' ? parallel.emit(s, depth, { stmt, bound }) : undefined
        if (pooled) return pooled
        const simd = s.mode === 'vector'
          ? emitVectorLoop(s, depth, { isa, names, layout, bound, zeroStart: overwriting.has(s) })
          : undefined
        if (simd) return simd
        const transposed = s.mode === 'serial' ? emitTransposedTile(s, depth, { isa, names, layout, bound }) : undefined
        if (transposed) return transposed
        const lanes = s.body[0]
        const jammed = s.mode === 'serial' && lanes?.kind === 'loop'
          ? emitJammedLoop(s, depth, { isa, names, layout, bound, plainLoop, zeroStart: overwriting.has(lanes) })
          : undefined
        if (jammed) return jammed
        // Without vector code for it, a vector loop around a nest runs innermost, under it.
        const plain = s.mode === 'vector' ? laneLoopInside(s) : s
        return plain !== s ? stmt(plain, depth) : plainLoop(s, depth)
      }
      case 'if': {
        if (s.conds.length === 0) return s.body.flatMap((b) => stmt(b, depth))
        const test = s.conds.map((c) => constraintCode(c, names.of, '==')).reduce((a, b) => infix(a, '&&', b, PREC.and))
        return [`${pad}if (${test.text}) {`, ...s.body.flatMap((b) => stmt(b, depth + 1)), `${pad}}`]
      }
      case 'store': {
        const element = `${names.of(s.access.tensor)}[${layout.offset(s.access).text}]`
        const value = cExpr(s.value, names, layout).text
        if (s.op === 'max=' || s.op === 'min=') {
          const fn = `pk_${s.op.slice(0, 3)}_${layout.tensor(s.access.tensor).dtype}`
          return [`${pad}${element} = ${fn}(${element}, ${value});`]
        }
        return [`${pad}${element} ${s.op} ${value};`]
      }
      case 'contraction': {
        const plan = gemmPlan(s, isa)
        if (plan === undefined) return s.body.flatMap((b) => stmt(b, depth))
        const epilogue = s.epilogue ? epilogues.registers.plan(s, plan.mk) : undefined
        if (typeof epilogue !== 'string') return emitGemmCall(s, isa, plan, names, layout, depth, onNoMemory, overwriting.has(s), epilogue)
        // Not in registers: the epilogue's loops over the whole output, after the GEMM.
        const loops = s.body.slice(s.body.length - (s.epilogue ?? 0))
        return [...emitGemmCall(s, isa, plan, names, layout, depth, onNoMemory, overwriting.has(s)), ...loops.flatMap((b) => stmt(b, depth))]
      }
      case 'convolution': {
        const plan = convolutionPlan(s, isa)
        if (plan === undefined) return s.body.flatMap((b) => stmt(b, depth))
        // The epilogue's loops run inside the driver's threads: serially.
        const blocks = s.epilogue
          ? epilogues.blocks.emit(s, (n) => cStatements(n, layout, isa, onNoMemory, SERIAL, new Set(), epilogues))
          : undefined
        const registers = s.epilogue && runsDirectChannelsLast(plan) ? epilogues.registers.plan(s, plan.mk) : undefined
        const tiles = typeof registers === 'string' ? undefined : registers
        return emitConvCall(s, plan, names, layout, depth, onNoMemory, overwriting.has(s), blocks, tiles)
      }
      case 'block':
        throw new KernelInternalError('emit', `block '${s.id}' reached the C emitter: lower blocks to loops first`)
    }
  }

  /** `s` as a C for loop, its body statement by statement. */
  const plainLoop = (s: Loop, depth: number): string[] => {
    const pad = '  '.repeat(depth)
    const v = names.of(s.v)
    const [lo, hi] = [bound(s.lo).text, bound(s.hi).text]
    // A max/min/division upper bound is evaluated once, not on every iteration.
    const end = s.hi.kind === 'affine' ? undefined : names.fresh(`${v}_end`)
    const init = end === undefined ? `int64_t ${v} = ${lo}` : `int64_t ${v} = ${lo}, ${end} = ${hi}`
    const head = `${init}; ${v} < ${end ?? hi}`
    return [`${pad}for (${head}; ${v}++) {`, ...s.body.flatMap((b) => stmt(b, depth + 1)), `${pad}}`]
  }

  /** Loop bounds are int64; max/min/division go through polykern_math.h (C's `/` truncates toward zero). */
  const bound = (b: Bound): Code => {
    switch (b.kind) {
      case 'affine':
        return affineCode(b.a, names.of)
      case 'max':
      case 'min':
        if (b.args.length === 0) throw new KernelInternalError('emit', `empty ${b.kind} bound`)
        return b.args.map(bound).reduce((x, y) => atom(`pk_${b.kind}_i64(${x.text}, ${y.text})`))
      case 'ceildiv':
      case 'floordiv':
        if (!Number.isInteger(b.by) || b.by <= 0) throw new KernelInternalError('emit', `${b.kind} by ${b.by}`)
        return atom(`pk_${b.kind}_i64(${bound(b.arg).text}, ${b.by})`)
    }
  }

  return stmt
}
