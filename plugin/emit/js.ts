/**
 * A lowered kernel as a JavaScript function expression, `function (A, B, C, M, N, K) { loops }`: the fallback when
 * the addon is missing, and the reference the addon is tested against. Parameters come in `kernel.params` order and
 * are not validated (the runtime does that). Temporaries are fresh zeroed typed arrays per call; a size choice's
 * candidate allocates its own only when the call runs it.
 */
import { ARRAY_TYPE } from '../../runtime/abi.ts'
import { KernelInternalError } from '../diagnostics.ts'
import type { Bound, Kernel, Stmt } from '../ir/nodes.ts'
import { laneLoopInside } from '../ir/walk.ts'
import { choiceLines, neededWhen } from './choices.ts'
import { JS_HELPERS, jsExpr, wrap, type JsHelper } from './js-expr.ts'
import { tensorLayout, type Layout } from './layout.ts'
import { kernelNames, type Names } from './names.ts'
import { PREC, affineCode, atom, constraintCode, infix, operand, type Code } from './syntax.ts'

const JS_WORDS = new Set(
  [
    'break case catch class const continue debugger default delete do else enum export extends false finally for',
    'function if import in instanceof new null return super switch this throw true try typeof var void while with',
    'yield let static implements interface package private protected public await arguments eval',
    'Math Float32Array Float64Array Int32Array Infinity NaN undefined',
  ].flatMap((line) => line.split(' ')),
)

/** Names the emitted function must not take: reserved words, the globals it uses, and its `pk_` helpers. */
export const isJsReserved = (name: string): boolean => JS_WORDS.has(name) || name.startsWith('pk_')

export function emitJs(kernel: Kernel): string {
  const names = kernelNames(kernel, isJsReserved)
  const layout = tensorLayout(kernel, names)
  const helpers = new Set<JsHelper>()
  const body = kernel.body.flatMap((s) => jsStatement(s, 1, names, layout, helpers))

  const lines = [`function (${kernel.params.map((p) => names.of(p.name)).join(', ')}) {`]
  for (const h of Object.keys(JS_HELPERS) as JsHelper[]) if (helpers.has(h)) lines.push(`  ${JS_HELPERS[h]}`)
  for (const s of layout.hoisted) lines.push(`  const ${s.name} = ${s.value.text};`)
  lines.push(...choiceLines(kernel, names, 'js'))
  for (const t of kernel.tensors.filter((t) => t.role === 'temp')) {
    const array = `new ${ARRAY_TYPE[t.dtype]}(${layout.count(t.name).text})`
    const needed = neededWhen(kernel, t.name, names, 'js')
    lines.push(`  const ${names.of(t.name)} = ${needed ? `${needed} ? ${array} : null` : array};`)
  }
  lines.push(...body, '}')
  return lines.join('\n')
}

function jsStatement(s: Stmt, depth: number, names: Names, layout: Layout, helpers: Set<JsHelper>): string[] {
  const pad = '  '.repeat(depth)
  const nested = (body: readonly Stmt[], d: number): string[] =>
    body.flatMap((b) => jsStatement(b, d, names, layout, helpers))
  switch (s.kind) {
    case 'fill':
      // TypedArray.prototype.fill converts to the element type, so an i32 value needs no `|0`.
      return [`${pad}${names.of(s.tensor)}.fill(${jsExpr(s.value, names, layout, helpers).text});`]
    case 'loop': {
      // JS has no lanes: a vector loop around a nest runs innermost, under it.
      const plain = s.mode === 'vector' ? laneLoopInside(s) : s
      if (plain !== s) return jsStatement(plain, depth, names, layout, helpers)
      const v = names.of(s.v)
      const [lo, hi] = [jsBound(s.lo, names).text, jsBound(s.hi, names).text]
      // A Math.max/min/floor upper bound is evaluated once, not on every iteration.
      const end = s.hi.kind === 'affine' ? undefined : names.fresh(`${v}End`)
      const init = end === undefined ? `let ${v} = ${lo}` : `let ${v} = ${lo}, ${end} = ${hi}`
      const head = `${init}; ${v} < ${end ?? hi}`
      return [`${pad}for (${head}; ${v}++) {`, ...nested(s.body, depth + 1), `${pad}}`]
    }
    case 'if': {
      if (s.conds.length === 0) return nested(s.body, depth)
      const test = s.conds.map((c) => constraintCode(c, names.of, '===')).reduce((a, b) => infix(a, '&&', b, PREC.and))
      return [`${pad}if (${test.text}) {`, ...nested(s.body, depth + 1), `${pad}}`]
    }
    case 'store': {
      const element = `${names.of(s.access.tensor)}[${layout.offset(s.access).text}]`
      const v = jsExpr(s.value, names, layout, helpers)
      if (layout.tensor(s.access.tensor).dtype !== 'i32') {
        if (s.op === 'max=' || s.op === 'min=') {
          return [`${pad}${element} = Math.${s.op.slice(0, 3)}(${element}, ${v.text});`]
        }
        return [`${pad}${element} ${s.op} ${v.text};`]
      }
      // Int32Array stores wrap any exact integer, so `=` and `+=` only need the sum to stay below 2^53.
      switch (s.op) {
        case '=':
          return [`${pad}${element} = ${v.text};`]
        case '+=':
          return [`${pad}${element} += ${(v.bits <= 52 ? v : wrap(v)).text};`]
        case '*=':
          return [`${pad}${element} = Math.imul(${element}, ${v.text});`]
        case 'max=':
        case 'min=':
          return [`${pad}${element} = Math.${s.op.slice(0, 3)}(${element}, ${wrap(v).text});`]
      }
    }
    case 'contraction':
    case 'convolution':
      return nested(s.body, depth)
    case 'block':
      throw new KernelInternalError('emit', `block '${s.id}' reached the JS emitter: lower blocks to loops first`)
  }
}

function jsBound(b: Bound, names: Names): Code {
  switch (b.kind) {
    case 'affine':
      return affineCode(b.a, names.of)
    case 'max':
    case 'min':
      if (b.args.length === 0) throw new KernelInternalError('emit', `empty ${b.kind} bound`)
      return atom(`Math.${b.kind}(${b.args.map((a) => jsBound(a, names).text).join(', ')})`)
    case 'ceildiv':
    case 'floordiv':
      if (!Number.isInteger(b.by) || b.by <= 0) throw new KernelInternalError('emit', `${b.kind} by ${b.by}`)
      const rounding = b.kind === 'ceildiv' ? 'ceil' : 'floor'
      return atom(`Math.${rounding}(${operand(jsBound(b.arg, names), PREC.multiplicative)} / ${b.by})`)
  }
}
