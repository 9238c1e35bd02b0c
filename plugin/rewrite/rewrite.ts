import MagicString from 'magic-string'
import type { SourceMap } from 'magic-string'
import { ts } from 'ts-morph'
import { NAPI_VERSION } from '../emit/napi.ts'
import { enclosingDeclaration } from '../find/declaration.ts'
import { parseSource } from '../find/parse.ts'
import type { CompiledKernel } from '../compiled-kernel.ts'

export interface RewriteInput {
  /** The module's path, as the bundler names it: the source map's `source`. */
  readonly file: string
  readonly code: string
  /** The path relative to the project root, for runtime messages. */
  readonly moduleId: string
  readonly kernels: readonly CompiledKernel[]
  /**
   * The addon to load beside the bundle, its build-cache copy (only for code that runs from the sources: dev servers,
   * `polykern/register`, tests; null in a bundle, which must not name a path of the build machine), and the sha256
   * of its bytes (a damaged copy is not loaded); null: JS loops only.
   */
  readonly addon: {
    readonly fileName: string
    readonly cachePath: string | null
    readonly sha256?: string
    /** The hash of the sources it was built from, compiled into it (runtime/identity.ts). */
    readonly identity?: string
  } | null
  /** Why there is no addon; the runtime warns with it unless it is NATIVE_DISABLED (the user's choice). */
  readonly nativeReason?: string
  /** CPU flags (as in /proc/cpuinfo) the addon's lowest ISA version needs. */
  readonly requires: readonly string[]
}

/** The binding the loader import introduces: its presence means the module was already rewritten. */
export const LOADER_BINDING = '__polykern_load'
const KERNELS_BINDING = '__polykern'
const RUNTIME_IMPORT = `import { loadKernels as ${LOADER_BINDING} } from 'polykern/runtime'\n`

/**
 * Where the module sits at run time. Not `import.meta.url`: webpack and Rspack inline it as the SOURCE file's URL
 * at build time (a path of the build machine in the bundle), while they compile `import.meta.filename` to the
 * output file's path (`__filename` in CJS output). Rollup, Vite and esbuild keep it in ESM output, and Node has it
 * for file modules. In esbuild's CJS output it is undefined and the runtime falls back to its own `__filename`,
 * which is the bundle's.
 */
const BASE_EXPRESSION = 'import.meta.filename'

export function isRewritten(code: string): boolean {
  return code.includes(`loadKernels as ${LOADER_BINDING}`)
}

/**
 * Replaces each kernel's body with a call through the runtime loader, keeping its signature byte for byte, and
 * installs the loader right after the last import (imports are hoisted, so nothing in the module can call a kernel
 * before it exists). Already-rewritten code comes back unchanged.
 */
export function rewriteModule(input: RewriteInput): { code: string; map: SourceMap } {
  const s = new MagicString(input.code)
  if (!isRewritten(input.code) && input.kernels.length > 0) {
    const sourceFile = parseSource(input.file, input.code)
    const lastImport = sourceFile.statements.filter(ts.isImportDeclaration).at(-1)
    // Top-level function declarations are hoisted: their `.async` is set with the loader, before any module code.
    const hoisted: string[] = []
    for (const k of input.kernels) {
      const statement = enclosingDeclaration(sourceFile, k.site.nameSpan.start)
      if (statement === undefined) continue
      if (ts.isFunctionDeclaration(statement) && statement.parent === sourceFile) hoisted.push(kernelProperties(k.site))
      else s.appendLeft(statement.end, `\n${kernelProperties(k.site)}`)
    }
    const loader = [loaderStatement(input), ...hoisted].join('\n')
    if (lastImport) {
      s.appendLeft(importOffset(input.code), RUNTIME_IMPORT)
      s.appendLeft(lastImport.end, `\n${loader}`)
    } else {
      s.appendLeft(importOffset(input.code), `${RUNTIME_IMPORT}${loader}\n`)
    }
    for (const k of input.kernels) {
      const { start, end } = k.site.bodySpan
      const indent = lineIndent(input.code, k.site.nameSpan.start)
      if (k.site.form === 'arrow') arrowToFunction(s, sourceFile, k.site)
      // Every argument, not the parameters: the runtime sees how many were passed (runtime_arg_count).
      const body = `\n${indent}  return ${KERNELS_BINDING}.${k.site.name}(...arguments)\n${indent}`
      // An empty body `{}` has no range to overwrite.
      if (end - start > 2) s.overwrite(start + 1, end - 1, body)
      else s.appendLeft(start + 1, body)
    }
  }
  return { code: s.toString(), map: s.generateMap({ hires: 'boundary', source: input.file, includeContent: true }) }
}

function loaderStatement(input: RewriteInput): string {
  // Computed keys: a kernel named `__proto__` must be a property, not the object's prototype.
  const kernels = input.kernels.map((k) => `[${JSON.stringify(k.site.name)}]: { abi: ${JSON.stringify(k.abi)}, js: ${k.js} }`)
  const fields = [
    `module: ${JSON.stringify(input.moduleId)}`,
    `addon: ${JSON.stringify(input.addon?.fileName ?? null)}`,
    `cachePath: ${JSON.stringify(input.addon?.cachePath ?? null)}`,
    `reason: ${JSON.stringify(input.addon ? null : (input.nativeReason ?? null))}`,
    `base: ${BASE_EXPRESSION}`,
    `requires: ${JSON.stringify(input.requires)}`,
    `napiVersion: ${NAPI_VERSION}`,
    `sha256: ${JSON.stringify(input.addon?.sha256 ?? null)}`,
    `identity: ${JSON.stringify(input.addon?.identity ?? null)}`,
    `kernels: {\n  ${kernels.join(',\n  ')}\n}`,
  ]
  return `const ${KERNELS_BINDING} = ${LOADER_BINDING}({ ${fields.join(', ')} })`
}

/**
 * On the user's own function object: `f.async`, the kernel's Promise form, which forwards every argument as the
 * rewritten body does (a wrong count fails the same way in both forms); `f.bind`, the runtime's (constants bound
 * once, or Function.prototype.bind for anything but one plain object); and under `Symbol.for('polykern.kernel')`
 * the runtime's dispatcher, by which `polykernInfo(f)` finds the kernel. A statement of its own: `;` ends it, so a
 * next line starting with `(` or `[` is not read as a call on its result.
 */
function kernelProperties(site: CompiledKernel['site']): string {
  const kernel = `${KERNELS_BINDING}.${site.name}`
  const async = `async: { value: (...args) => ${kernel}.async(...args), configurable: true }`
  const bind = `bind: { value: ${kernel}.bind, configurable: true }`
  return `Object.defineProperties(${site.name}, { ${async}, ${bind}, [Symbol.for('polykern.kernel')]: { value: ${kernel} } });`
}

/**
 * `const f = (…): T => {…}` becomes `const f = function (…): T {…}`: an arrow has no `arguments` to forward. The
 * name still comes from the `const` (`f.name`), and the body was the arrow's own, so there is no `this` to keep.
 */
function arrowToFunction(s: MagicString, sourceFile: ts.SourceFile, site: CompiledKernel['site']): void {
  const arrow = findNode(sourceFile, site.bodySpan.start, ts.isArrowFunction)
  if (arrow === undefined) return
  const start = arrow.getStart(sourceFile)
  const [first] = arrow.parameters
  const bare = arrow.parameters.length === 1 && first.getStart(sourceFile) === start
  s.appendLeft(start, bare ? 'function (' : 'function ')
  if (bare) s.appendLeft(first.end, ')')
  const token = arrow.equalsGreaterThanToken
  // The space before `=>` goes too: `): T => {` becomes `): T {`.
  s.remove(token.getFullStart(), token.end)
}

/** The innermost node of a kind whose body starts at `bodyStart`. */
function findNode<T extends ts.Node>(sourceFile: ts.SourceFile, bodyStart: number, is: (n: ts.Node) => n is T): T | undefined {
  let found: T | undefined
  const visit = (node: ts.Node): void => {
    if (bodyStart < node.pos || bodyStart >= node.end) return
    if (is(node) && (node as { body?: ts.Node }).body?.getStart(sourceFile) === bodyStart) found = node
    ts.forEachChild(node, visit)
  }
  visit(sourceFile)
  return found
}

/** Offset 0, or after a `#!` line, which must stay first. */
function importOffset(code: string): number {
  return code.startsWith('#!') ? code.indexOf('\n') + 1 || code.length : 0
}

function lineIndent(code: string, offset: number): string {
  const lineStart = code.lastIndexOf('\n', offset - 1) + 1
  return /^[ \t]*/.exec(code.slice(lineStart))![0]
}
