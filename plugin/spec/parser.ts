/** Spec text → SpecAst, by recursive descent over `lexSpec`'s tokens; every span is absolute in the original file. */
import type { Note, Span } from '../diagnostics.ts'
import { ASSIGN_OPS, specBadLiteral, specReservedWord, specSyntax } from '../messages.ts'
import { BUILTINS } from './ast.ts'
import type {
  AstConstraint,
  AstDecl,
  AstDim,
  AstExpr,
  AstStatement,
  BinaryOp,
  CompareOp,
  DType,
  Ident,
  SpecAst,
} from './ast.ts'
import { lexSpec } from './lexer.ts'
import type { Punct, Token } from './lexer.ts'

type Access = Extract<AstExpr, { kind: 'access' }>

const DTYPES: readonly string[] = ['f32', 'f64', 'i32'] satisfies readonly DType[]
const KEYWORDS: readonly string[] = ['let', 'where', ...DTYPES]
const COMPARISONS: readonly Punct[] = ['<', '<=', '>', '>=', '==', '!=']
const CONSTRAINT_OPS: readonly Punct[] = ['<', '<=', '>', '>=', '==']

const isBuiltin = (name: string) => Object.hasOwn(BUILTINS, name)
/** Deepest expression tree accepted: the parser and every later phase walk expressions recursively. */
export const MAX_EXPRESSION_DEPTH = 200
const join = (a: Span, b: Span): Span => ({ file: a.file, start: a.start, end: b.end })

function describe(t: Token): string {
  if (t.kind === 'eof') return 'the end of the spec'
  if (t.kind === 'sep') return t.text === ';' ? "';'" : 'the end of the line'
  return `'${t.text}'`
}

export function parseSpec(text: string, start: number, file: string): SpecAst {
  const tokens = lexSpec(text, start, file)
  let pos = 0

  const peek = (ahead = 0): Token => tokens[Math.min(pos + ahead, tokens.length - 1)]
  const next = (): Token => tokens[pos < tokens.length - 1 ? pos++ : pos]
  const isPunct = (p: Punct, t = peek()) => t.kind === 'punct' && t.text === p
  const isWord = (w: string, t = peek()) => t.kind === 'ident' && t.text === w
  const fail = (message: string, t = peek(), notes: readonly Note[] = []): never => {
    throw specSyntax(t.span, `${message}, found ${describe(t)}`, notes)
  }
  let nesting = 0
  /** Runs a recursive descent step one level deeper, refusing to go past MAX_EXPRESSION_DEPTH. */
  const deeper = <T>(step: () => T): T => {
    if (nesting >= MAX_EXPRESSION_DEPTH) throw tooDeep(peek().span)
    nesting++
    try {
      return step()
    } finally {
      nesting--
    }
  }
  const expectPunct = (p: Punct, what: string, opener?: Token): Token => {
    if (isPunct(p)) return next()
    const notes = opener ? [{ text: `to match this '${opener.text}'`, span: opener.span }] : []
    return fail(`Expected '${p}' ${what}`, peek(), notes)
  }

  /** An identifier that names something the user declares: reserved words are refused here. */
  function name(usedAs: string): Ident {
    const t = peek()
    if (t.kind !== 'ident') return fail(`Expected ${usedAs}`)
    if (KEYWORDS.includes(t.text) || isBuiltin(t.text)) throw specReservedWord(t.span, t.text, usedAs)
    next()
    return { name: t.text, span: t.span }
  }

  function spec(): SpecAst {
    const decls: AstDecl[] = []
    const stmts: AstStatement[] = []
    for (;;) {
      while (peek().kind === 'sep') next()
      if (peek().kind === 'eof') break
      const isDecl = isWord('let') || (peek().kind === 'ident' && isPunct(':', peek(1)))
      if (isDecl) decls.push(decl())
      else stmts.push(statement())
      if (peek().kind !== 'sep' && peek().kind !== 'eof') {
        fail(`Expected the end of the ${isDecl ? 'declaration' : 'statement'}`)
      }
    }
    return { decls, stmts, span: { file, start, end: start + text.length } }
  }

  function decl(): AstDecl {
    const first = peek()
    const local = isWord('let')
    if (local) next()
    const tensor = name('a tensor name')
    expectPunct(':', `after the tensor name '${tensor.name}'`)
    const dt = peek()
    if (dt.kind !== 'ident' || !DTYPES.includes(dt.text)) return fail('Expected an element type (f32, f64 or i32)')
    next()
    if (!isPunct('[')) fail(`Expected '[' and the dimensions after '${dt.text}' ('${dt.text}[]' for rank 0)`)
    const open = next()
    const dims: AstDim[] = []
    if (!isPunct(']')) {
      do dims.push(dim())
      while (isPunct(',') && next())
    }
    const close = expectPunct(']', 'to close the dimensions', open)
    const dtype = dt.text as DType
    return { kind: 'decl', name: tensor, dtype, dtypeSpan: dt.span, dims, local, span: join(first.span, close.span) }
  }

  function dim(): AstDim {
    const t = peek()
    if (t.kind === 'number') {
      next()
      if (t.isFloat) throw specBadLiteral(t.span, t.text, 'a dimension must be a whole number')
      return { kind: 'lit', value: t.value, span: t.span }
    }
    if (t.kind !== 'ident') return fail('Expected a dimension (a size symbol or an integer)')
    const size = name('a size symbol')
    return { kind: 'size', name: size.name, span: size.span }
  }

  function statement(): AstStatement {
    const target = targetAccess()
    const op = peek()
    if (op.kind !== 'assign') {
      const notes: Note[] = [{ text: `assignments are ${ASSIGN_OPS}` }]
      if (op.kind === 'ident' && DTYPES.includes(op.text)) notes.push({ text: 'a declaration is `A: f32[M, K]`' })
      return fail(`Expected an assignment after '${target.tensor.name}'`, op, notes)
    }
    next()
    const value = expr()
    const where: AstConstraint[] = []
    if (isWord('where')) {
      next()
      do where.push(constraint())
      while (isPunct(',') && next())
    }
    for (const e of [...target.indices, value, ...where.flatMap((c) => [c.left, c.right])]) {
      if (depthOf(e) > MAX_EXPRESSION_DEPTH) throw tooDeep(e.span)
    }
    const end = where.length > 0 ? where[where.length - 1].span : value.span
    return {
      kind: 'stmt', target, op: op.op, opSpan: op.span, init: op.init, value, where, span: join(target.span, end),
    }
  }

  function targetAccess(): Access {
    if (peek().kind !== 'ident') fail('Expected a declaration or a statement')
    const tensor = name('a tensor name')
    if (!isPunct('[')) return { kind: 'access', tensor, indices: [], span: tensor.span }
    return bracketed(tensor)
  }

  /** `[e, ...]` after `tensor`. */
  function bracketed(tensor: Ident): Access {
    const open = next()
    const indices: AstExpr[] = []
    if (!isPunct(']')) {
      do indices.push(expr())
      while (isPunct(',') && next())
    }
    const close = expectPunct(']', `to close the indices of '${tensor.name}'`, open)
    return { kind: 'access', tensor, indices, span: join(tensor.span, close.span) }
  }

  function constraint(): AstConstraint {
    const left = sum()
    const op = peek()
    if (op.kind !== 'punct' || !CONSTRAINT_OPS.includes(op.text)) {
      return fail('Expected a comparison (<, <=, >, >=, ==) in the where clause', op)
    }
    next()
    const right = sum()
    if (peek().kind === 'punct' && COMPARISONS.includes(peek().text as Punct)) {
      fail('Comparisons cannot be chained', peek(), [{ text: 'write two constraints: `where 0 <= r, r < 3`' }])
    }
    return { left, op: op.text as CompareOp, right, span: join(left.span, right.span) }
  }

  function expr(): AstExpr {
    return deeper(selectLevel)
  }

  function selectLevel(): AstExpr {
    const cond = binaryLevel(0)
    if (!isPunct('?')) return cond
    next()
    const then = expr()
    expectPunct(':', "between the two arms of '?'")
    const otherwise = expr()
    return { kind: 'select', cond, then, otherwise, span: join(cond.span, otherwise.span) }
  }

  // Binary levels, loosest first; comparisons do not associate (`a < b < c` is refused).
  const LEVELS: readonly (readonly Punct[])[] = [['||'], ['&&'], COMPARISONS, ['+', '-'], ['*', '/', '%']]
  const COMPARISON_LEVEL = 2
  const sum = (): AstExpr => binaryLevel(COMPARISON_LEVEL + 1)

  function binaryLevel(level: number): AstExpr {
    if (level === LEVELS.length) return unary()
    let left = binaryLevel(level + 1)
    while (peek().kind === 'punct' && LEVELS[level].includes(peek().text as Punct)) {
      const op = next().text as BinaryOp
      const right = binaryLevel(level + 1)
      left = { kind: 'binary', op, left, right, span: join(left.span, right.span) }
      if (level === COMPARISON_LEVEL && peek().kind === 'punct' && COMPARISONS.includes(peek().text as Punct)) {
        fail('Comparisons cannot be chained', peek(), [{ text: 'combine them with &&: `a < b && b < c`' }])
      }
    }
    return left
  }

  function unary(): AstExpr {
    const t = peek()
    if (isPunct('-') || isPunct('!')) {
      next()
      const operand = deeper(unary)
      return { kind: 'unary', op: t.text as '-' | '!', operand, span: join(t.span, operand.span) }
    }
    return primary()
  }

  function primary(): AstExpr {
    const t = peek()
    if (t.kind === 'number') {
      next()
      return { kind: 'num', value: t.value, isFloat: t.isFloat, span: t.span }
    }
    if (isPunct('(')) {
      const open = next()
      const inner = expr()
      const close = expectPunct(')', 'to close the parenthesis', open)
      // No node for parentheses: widen the span so slicing the file at it shows what the user wrote.
      return { ...inner, span: join(open.span, close.span) }
    }
    if (t.kind !== 'ident') return fail('Expected an expression')
    if (isPunct('(', peek(1)) && !KEYWORDS.includes(t.text)) return call()
    if (isBuiltin(t.text)) throw specReservedWord(t.span, t.text, 'a name (call it: `' + t.text + '(...)`)')
    const id = name('a name')
    if (isPunct('[')) return bracketed(id)
    return { kind: 'name', name: id.name, span: id.span }
  }

  function call(): AstExpr {
    const fnToken = next()
    const fn: Ident = { name: fnToken.text, span: fnToken.span }
    const open = next()
    const args: AstExpr[] = []
    if (!isPunct(')')) {
      do args.push(expr())
      while (isPunct(',') && next())
    }
    const close = expectPunct(')', `to close the arguments of '${fn.name}'`, open)
    return { kind: 'call', fn, args, span: join(fn.span, close.span) }
  }

  return spec()
}

const tooDeep = (span: Span) =>
  specSyntax(span, `This expression nests more than ${MAX_EXPRESSION_DEPTH} levels deep`, [
    { text: 'split it into several statements through a temporary (`let t: f32[N]`)' },
  ])

/** Height of an expression tree, without recursion (long `a + b + ...` chains are deep but not nested). */
function depthOf(root: AstExpr): number {
  let deepest = 0
  const stack: [AstExpr, number][] = [[root, 1]]
  while (stack.length > 0) {
    const [e, depth] = stack.pop()!
    deepest = Math.max(deepest, depth)
    const children =
      e.kind === 'access' ? e.indices
      : e.kind === 'unary' ? [e.operand]
      : e.kind === 'binary' ? [e.left, e.right]
      : e.kind === 'select' ? [e.cond, e.then, e.otherwise]
      : e.kind === 'call' ? e.args
      : []
    for (const c of children) stack.push([c, depth + 1])
  }
  return deepest
}
