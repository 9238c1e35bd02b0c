/**
 * A contraction's or a convolution's epilogue (passes/fuse-epilogue.ts) applied in registers: the microkernel's tiles
 * of a GEMM's last k block (native/polykern_gemm_member.h), or those of a convolution's direct call that sum their
 * outputs whole (native/polykern_conv_driver.h), pass each accumulator vector, old C added, through the epilogue's
 * expression before storing it (PolyDL's element-wise statement in the last reduction iteration), so the sums are
 * never written before it. Each tile family is printed for its operator (c-microkernel.ts, `TileEpilogue`), reading
 * each place analysis/tile-epilogue.ts found through a context struct the call site fills: the tensors' base
 * pointers, C's (a residual's element is as far from its base as C's), and the values over no index.
 */
import type { Expr, Kernel } from '../ir/nodes.ts'
import { outputOf, tileEpilogue, type Heavy, type TilePlace } from '../analysis/tile-epilogue.ts'
import type { Microkernel } from '../targets/microkernel.ts'
import { instantiate } from '../targets/vector-ops.ts'
import { C_TYPE, cConst, cExpr } from './c-expr.ts'
import { emitMicrokernel, microkernelSymbol, type MicrokernelUse, type TileEpilogue } from './c-microkernel.ts'
import { vectorExpr } from './c-vector.ts'
import type { Layout } from './layout.ts'
import type { Names } from './names.ts'

/** An epilogue in its operator's registers, as its call site (c-gemm.ts emitGemmCall, c-conv.ts emitConvCall) prints it. */
export interface RegisterEpilogue {
  /** What its tile families apply. */
  readonly tiles: TileEpilogue
  /** The lines declaring its context (`pk_gectx`) at the call. */
  readonly context: readonly string[]
  /** The symbol of `use`'s tile family (`use.epilogue` set), printed once before the kernel function. */
  readonly family: (use: MicrokernelUse) => string
}

export interface RegisterEpilogues {
  /** The epilogue of `s` in registers with microkernel `mk`, or why it runs as loops. */
  readonly plan: (s: Heavy, mk: Microkernel) => RegisterEpilogue | string
  /** The context structs and the tile families, to print before the kernel function. */
  readonly outlined: readonly string[]
}

export function registerEpilogues(kernel: Kernel, symbol: string, names: Names, layout: Layout): RegisterEpilogues {
  const outlined: string[] = []
  const planned = new Map<string, RegisterEpilogue>()
  const families = new Set<string>()
  const family = (use: MicrokernelUse): string => {
    const name = microkernelSymbol(use)
    if (!families.has(name)) {
      families.add(name)
      outlined.push(emitMicrokernel(use))
    }
    return name
  }
  const plan: RegisterEpilogues['plan'] = (s, mk) => {
    const key = `${s.id} ${mk.name}`
    const known = planned.get(key)
    if (known !== undefined) return known
    const found = tileEpilogue(kernel, s)
    if (typeof found === 'string') return found
    const name = `${symbol}_g${planned.size}`
    const ctx = `${name}_ctx`
    const t = C_TYPE[s.roles.dtype]
    // The context's fields: a pointer per tensor read in place, a value per subexpression over no index.
    const fields: { name: string; type: string; value: string }[] = [{ name: 'c0', type: `const ${t} *`, value: names.of(outputOf(s).tensor) }]
    const fieldOf = new Map<Expr | string, string>()
    for (const [e, place] of found.places) {
      if (place.kind === 'accumulator') continue
      const owner = keyOf(e, place)
      if (fieldOf.has(owner)) continue
      const field = `f${fields.length}`
      fieldOf.set(owner, field)
      fields.push(place.kind === 'invariant'
        ? { name: field, type: e.type === 'bool' ? 'int' : t, value: cExpr(e, names, layout).text }
        : { name: field, type: `const ${t} *`, value: names.of(place.tensor) })
    }
    outlined.push([
      `/* ${s.kind === 'convolution' ? 'Convolution' : 'Contraction'} ${s.id}'s epilogue: what its tiles read besides their sums. */`,
      'typedef struct {',
      ...fields.map((f) => `  ${f.type} ${f.name};`),
      `} ${ctx};`,
      '',
    ].join('\n'))
    const fieldAt = (e: Expr, place: ContextPlace) => fieldOf.get(keyOf(e, place))!
    const result = {
      tiles: tileFamily(found.store.value, found.places, fieldAt, mk, name, ctx),
      context: [`const ${ctx} pk_gectx = {${fields.map((f) => f.value).join(', ')}};`],
      family,
    }
    planned.set(key, result)
    return result
  }
  return { plan, outlined }
}

/** A place read through the context, and what names its field: the tensor, or the subexpression over no index. */
type ContextPlace = Exclude<TilePlace, { readonly kind: 'accumulator' }>
const keyOf = (e: Expr, place: ContextPlace): Expr | string => (place.kind === 'invariant' ? e : place.tensor)

/** The tile functions' part: each vector through the expression, every place read from the context `pk_e`. */
function tileFamily(
  value: Expr, places: ReadonlyMap<Expr, TilePlace>, fieldAt: (e: Expr, place: ContextPlace) => string, mk: Microkernel,
  name: string, ctx: string,
): TileEpilogue {
  const ops = mk.ops
  return {
    name,
    ctx,
    apply: (x, r, v, mask) => vectorExpr(value, ops, (node) => {
      const place = places.get(node)
      if (place === undefined) return node.kind === 'const' ? instantiate(ops.set1, { x: cConst(node.value, node.type).text }) : undefined
      if (place.kind === 'accumulator') return x
      const field = `pk_e->${fieldAt(node, place)}`
      switch (place.kind) {
        case 'invariant':
          return instantiate(node.type === 'bool' ? ops.broadcastMask : ops.set1, { x: field })
        case 'rows':
          return instantiate(ops.set1, { x: `${field}[pk_i0 + ${r}]` })
        case 'tile':
        case 'columns': {
          const at = place.kind === 'tile' ? `(c - pk_e->c0) + ${r}*ldc` : 'pk_j0'
          const p = `${field} + ${at} + ${typeof v === 'number' ? v * mk.lanes : `${v}*${mk.lanes}`}`
          return mask ? instantiate(ops.maskedLoad, { p, m: mask }) : instantiate(ops.load, { p })
        }
      }
    }),
  }
}
