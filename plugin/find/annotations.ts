import { ts } from 'ts-morph'
import type { Span } from '../diagnostics.ts'
import { ALLOW_LOOPS, ALLOW_QUADRATIC_SCAN, ALLOW_SPLIT_SUM, findExpressionBody, findFunctionForm, findParamForm, findUnattached } from '../messages.ts'
import { parseSource } from './parse.ts'
import type { KernelSite, SiteParam } from './site.ts'

const TAG = '@kernel'

/**
 * Every `/* @kernel ... *​/` comment of a module with the top-level function it annotates, with offsets into `code`.
 * Throws a KernelDiagnostic (`find_*`) for an annotation on anything a kernel cannot be.
 */
export function findKernelSites(file: string, code: string): KernelSite[] {
  if (!code.includes(TAG)) return []
  const sf = parseSource(file, code)
  const attached = sf.statements.flatMap((statement) => {
    const comment = kernelComments(code, ts.getLeadingCommentRanges(code, statement.pos) ?? []).at(-1)
    return comment ? [{ statement, comment }] : []
  })
  const claimed = new Set(attached.map((a) => a.comment.pos))
  const stray = allKernelComments(sf, code).find((c) => !claimed.has(c.pos))
  // Problems are reported in file order: a stray comment before a kernel is the first thing to fix.
  const sites: KernelSite[] = []
  for (const { statement, comment } of attached) {
    if (stray && stray.pos < comment.pos) break
    sites.push(siteOf(file, code, sf, statement, comment))
  }
  if (stray) throw findUnattached(span(file, stray.pos, stray.end), strayHint(sf, stray))
  return sites
}

const HINT_METHOD =
  'a class method cannot be a kernel: make the kernel a top-level function and call it from the method, ' +
  'e.g. `multiply(a, b) { return matmul(a, b, this.out, ...) }`'
const HINT_NESTED = 'a kernel must be declared at the top level of its module: move the function out of the one around it'

/** Why a `@kernel` comment that precedes no top-level statement is not attached, from the node it precedes. */
function strayHint(sf: ts.SourceFile, comment: ts.CommentRange): string | undefined {
  let node: ts.Node = sf
  for (;;) {
    const child = node.getChildren(sf).find((c) => !ts.isJSDoc(c) && c.pos <= comment.pos && comment.end <= c.end)
    if (child === undefined) break
    node = child
    // The comment leads this node (a syntax list's leading trivia is its first element's).
    if (comment.end <= child.getStart(sf) && child.kind !== ts.SyntaxKind.SyntaxList) break
  }
  if (ts.isClassElement(node) || ts.findAncestor(node, ts.isClassLike) !== undefined) return HINT_METHOD
  const declaresFunction = ts.isFunctionDeclaration(node) || (ts.isVariableStatement(node) &&
    node.declarationList.declarations.some((d) => d.initializer && (ts.isArrowFunction(d.initializer) || ts.isFunctionExpression(d.initializer))))
  if (declaresFunction && ts.findAncestor(node.parent, ts.isFunctionLike) !== undefined) return HINT_NESTED
  return undefined
}

/** A block comment whose `@kernel` opens the comment or a line of it (so prose that mentions the tag is not one). */
function isKernelComment(code: string, c: ts.CommentRange): boolean {
  return c.kind === ts.SyntaxKind.MultiLineCommentTrivia && tagOffset(code, c) >= 0
}

function tagOffset(code: string, c: ts.CommentRange): number {
  const re = /(?:^\/\*\*?|\n)[ \t]*\*?[ \t]*@kernel(?=[\s*])/g
  const m = re.exec(code.slice(c.pos, c.end))
  return m ? c.pos + m.index + m[0].length - TAG.length : -1
}

function kernelComments(code: string, ranges: readonly ts.CommentRange[]): ts.CommentRange[] {
  return ranges.filter((c) => isKernelComment(code, c))
}

/** Every kernel comment in the file, wherever it sits: each is the leading trivia of the token right after it. */
function allKernelComments(sf: ts.SourceFile, code: string): ts.CommentRange[] {
  const found = new Map<number, ts.CommentRange>()
  for (let at = code.indexOf(TAG); at >= 0; at = code.indexOf(TAG, at + 1)) {
    const token = tokenAt(sf, at)
    if (!token || at >= token.getStart(sf)) continue // inside a string, template or regex
    for (const c of kernelComments(code, ts.getLeadingCommentRanges(code, token.pos) ?? [])) found.set(c.pos, c)
  }
  return [...found.values()]
}

/** The token whose full range (leading trivia included) contains `offset`. */
function tokenAt(sf: ts.SourceFile, offset: number): ts.Node | undefined {
  let node: ts.Node = sf
  for (;;) {
    const child = node.getChildren(sf).find((c) => !ts.isJSDoc(c) && c.pos <= offset && offset < c.end)
    if (!child) return node === sf ? undefined : node
    node = child
  }
}

function siteOf(
  file: string,
  code: string,
  sf: ts.SourceFile,
  statement: ts.Statement,
  comment: ts.CommentRange,
): KernelSite {
  const commentSpan = span(file, comment.pos, comment.end)
  const { fn, name } = kernelFunction(statement, commentSpan)
  const at = (node: ts.Node): Span => span(file, node.getStart(sf), node.end)
  if (!fn.body || !ts.isBlock(fn.body)) {
    throw findExpressionBody(at(fn.body ?? fn), name.text)
  }
  if (fn.modifiers?.some((m) => m.kind === ts.SyntaxKind.AsyncKeyword) || fn.asteriskToken) {
    throw findFunctionForm(at(name), name.text)
  }
  return {
    file,
    name: name.text,
    ...specOf(code, comment),
    params: fn.parameters.map((p) => paramOf(p, at(p), sf, name.text)),
    commentSpan,
    nameSpan: at(name),
    bodySpan: at(fn.body),
    form: ts.isFunctionDeclaration(fn) ? 'function' : ts.isArrowFunction(fn) ? 'arrow' : 'function-expression',
  }
}

interface KernelFunction {
  readonly fn: ts.FunctionDeclaration | ts.ArrowFunction | ts.FunctionExpression
  /** The function's own name, or the const's for `const f = ...` (even when the function expression has a name). */
  readonly name: ts.Identifier
}

const HINT_ANONYMOUS = 'the function has no name: name it, e.g. `export default function matmul(...)`'
const HINT_OVERLOAD = 'annotate the implementation, not an overload or `declare` signature'
const HINT_VARIABLE = 'a variable is a kernel only as `const f = (...) => { ... }` or `const f = function (...) { ... }`'

/** The function a top-level statement declares; anything else cannot carry `@kernel`. */
function kernelFunction(statement: ts.Statement, commentSpan: Span): KernelFunction {
  if (ts.isFunctionDeclaration(statement)) {
    if (!statement.name) throw findUnattached(commentSpan, HINT_ANONYMOUS)
    if (!statement.body) throw findUnattached(commentSpan, HINT_OVERLOAD)
    return { fn: statement, name: statement.name }
  }
  if (ts.isVariableStatement(statement)) {
    const decls = statement.declarationList.declarations
    const init = decls.length === 1 && decls[0].initializer ? unparenthesize(decls[0].initializer) : undefined
    const name = decls[0]?.name
    if (init && name && ts.isIdentifier(name) && (ts.isArrowFunction(init) || ts.isFunctionExpression(init))) {
      return { fn: init, name }
    }
    throw findUnattached(commentSpan, HINT_VARIABLE)
  }
  throw findUnattached(commentSpan)
}

function unparenthesize(e: ts.Expression): ts.Expression {
  return ts.isParenthesizedExpression(e) ? unparenthesize(e.expression) : e
}

function paramOf(p: ts.ParameterDeclaration, where: Span, sf: ts.SourceFile, kernel: string): SiteParam {
  if (!ts.isIdentifier(p.name) || p.dotDotDotToken || p.questionToken || p.initializer || p.name.text === 'this') {
    throw findParamForm(where, p.getText(sf), kernel)
  }
  return p.type ? { name: p.name.text, typeText: p.type.getText(sf), span: where } : { name: p.name.text, span: where }
}

/**
 * Text after the tag up to `*​/`; a consistent JSDoc gutter (`   * `) is blanked so offsets stay those of `code`. The
 * text after an `@allow-loops` line's directive is `allowLoops`, likewise `allowSplitSum` and `allowQuadraticScan`
 * (the lexer skips those lines, as `//` comments).
 */
function specOf(
  code: string, comment: ts.CommentRange,
): { specText: string; specStart: number; allowLoops?: string; allowSplitSum?: string; allowQuadraticScan?: string } {
  const specStart = tagOffset(code, comment) + TAG.length
  const raw = code.slice(specStart, comment.end - 2)
  const lines = raw.split('\n')
  const inner = lines.slice(1).filter((l) => l.trim() !== '')
  const gutter = inner.length > 0 && inner.every((l) => /^[ \t]*\*/.test(l))
  const ungutter = gutter ? lines.map((l, i) => (i === 0 ? l : l.replace(/^([ \t]*)\*/, (m) => ' '.repeat(m.length)))) : lines
  const specText = ungutter.join('\n')
  // Each directive's whys, joined: undefined when the comment has no such line.
  const why = (directive: string): string | undefined => {
    const line = new RegExp(`^[ \\t]*${directive}(?![\\w-])[ \\t]*:?(.*)$`)
    const found = ungutter.slice(1).flatMap((l) => line.exec(l)?.[1].trim() ?? [])
    return found.length === 0 ? undefined : found.filter((x) => x).join('; ')
  }
  const [allowLoops, allowSplitSum, allowQuadraticScan] = [why(ALLOW_LOOPS), why(ALLOW_SPLIT_SUM), why(ALLOW_QUADRATIC_SCAN)]
  return {
    specText,
    specStart,
    ...(allowLoops === undefined ? {} : { allowLoops }),
    ...(allowSplitSum === undefined ? {} : { allowSplitSum }),
    ...(allowQuadraticScan === undefined ? {} : { allowQuadraticScan }),
  }
}

function span(file: string, start: number, end: number): Span {
  return { file, start, end }
}
