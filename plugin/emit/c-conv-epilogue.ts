/**
 * A convolution's epilogue (passes/fuse-epilogue.ts) as the C function its driver calls on each finished output block
 * (pk_conv_epilogue, native/polykern_conv.h): `static void <fn>(const void *ctx, const int64_t *pk_lo, const int64_t
 * *pk_hi)`. Its statements' loops over the output's indices run the block's ranges instead of the whole output (each
 * statement covers the whole output, fuse-epilogue checks), serially: the driver's threads own disjoint blocks. What
 * they read from the kernel function comes through a context struct, as a parallel loop's chunk does (c-parallel.ts).
 */
import { variable } from '../ir/affine.ts'
import { KernelInternalError } from '../diagnostics.ts'
import type { Bound, Convolution, Kernel, Stmt } from '../ir/nodes.ts'
import { mapStmts, walkStmts } from '../ir/walk.ts'
import { capturesOf, loopVars, sameChunk } from './c-parallel.ts'
import type { Layout } from './layout.ts'
import type { Names } from './names.ts'

/** The epilogue's function and the lines declaring its context (`pk_ectx`) at the driver's call. */
export interface OutlinedEpilogue {
  readonly fn: string
  readonly context: readonly string[]
}

export interface ConvEpilogues {
  /** `s`'s epilogue outlined; `printer` prints statements with the given names, loops serial. */
  readonly emit: (s: Convolution, printer: (names: Names) => (s: Stmt, depth: number) => string[]) => OutlinedEpilogue
  /** The functions with their context structs, to print before the kernel function. */
  readonly outlined: readonly string[]
}

// IR names of the block's bounds: not identifiers, so no spec name can take them.
const LO = '#lo'
const HI = '#hi'

export function convEpilogues(kernel: Kernel, symbol: string, names: Names, layout: Layout): ConvEpilogues {
  const outlined: string[] = []
  const captures = capturesOf(kernel, names, layout)
  const blockNames: Names = {
    of: (n) => (n.startsWith(LO) ? `pk_lo[${n.slice(LO.length)}]` : n.startsWith(HI) ? `pk_hi[${n.slice(HI.length)}]` : names.of(n)),
    fresh: names.fresh,
  }
  const emit: ConvEpilogues['emit'] = (s, printer) => {
    const statements = s.body.slice(s.body.length - (s.epilogue ?? 0)).map((x) => onBlock(x, slotsOf(s)))
    const body = statements.flatMap((x) => printer(blockNames)(x, 1))
    const inner = new Set(loopVars(statements).map(names.of))
    const { fields } = sameChunk(body, '', captures.filter((c) => !inner.has(c.name)))
    const fn = `${symbol}_e${outlined.length}`
    const ctx = `${fn}_ctx`
    outlined.push([
      `/* Convolution ${s.id}'s epilogue on the output block pk_lo .. pk_hi (batch, spatial, channel indices). */`,
      'typedef struct {',
      ...fields.map((f) => `  ${f.type} ${f.name};`),
      `} ${ctx};`,
      '',
      `static void ${fn}(const void *pk_ctx, const int64_t *pk_lo, const int64_t *pk_hi) {`,
      `  const ${ctx} *pk_c = pk_ctx;`,
      ...fields.map((f) => `  ${f.type} ${f.name} = pk_c->${f.name};`),
      ...body,
      '}',
      '',
    ].join('\n'))
    // Never empty: the epilogue writes the convolution's output.
    return { fn, context: [`const ${ctx} pk_ectx = {${fields.map((f) => f.name).join(', ')}};`] }
  }
  return { emit, outlined }
}

/**
 * The driver's slot of each output dimension (pk_conv_finish): batch indices, then the spatial axes, then the output
 * channels.
 */
function slotsOf(s: Convolution): readonly number[] {
  const r = s.roles
  const order = [...r.batch.map((b) => b.name), ...r.spatial.map((a) => a.out.name), r.outChannels.name]
  return r.output.index.map((ix, d) => {
    const slot = order.indexOf(ix.terms[0]?.v ?? '')
    if (ix.terms.length !== 1 || slot < 0) throw new KernelInternalError('emit', `convolution ${s.id}: output dimension ${d} has no role`)
    return slot
  })
}

/** An epilogue statement's loops over the output's dimensions running the block's range of each, serially. */
function onBlock(s: Stmt, slots: readonly number[]): Stmt {
  const written = new Map<string, number>()
  walkStmts([s], (st) => {
    if (st.kind === 'store') st.access.index.forEach((ix, d) => written.set(ix.terms[0]?.v ?? '', slots[d]))
  })
  const at = (name: string): Bound => ({ kind: 'affine', a: variable(name) })
  const [only] = mapStmts([s], {
    loop: (l, recurse) => {
      const slot = written.get(l.v)
      const body = recurse(l.body)
      const mode = l.mode === 'parallel' ? 'serial' : l.mode
      return slot === undefined ? { ...l, mode, body } : { ...l, mode, body, lo: at(`${LO}${slot}`), hi: at(`${HI}${slot}`) }
    },
  })
  return only
}
