/**
 * The annotated function as the user wrote it, runnable: its own text (not the module: verify must not run the
 * module's other code), types stripped as `polykern build` strips them, evaluated on its own. A body that uses
 * another name of its module fails when called, and verify reports that as the body's error.
 */
import { ts } from 'ts-morph'
import { enclosingDeclaration } from '../find/declaration.ts'
import { parseSource } from '../find/parse.ts'
import type { KernelSite } from '../find/site.ts'
import { stripTypes } from '../project/strip-types.ts'

export type OwnBody = (...args: unknown[]) => unknown

export function ownBody(site: KernelSite, code: string): OwnBody {
  const sourceFile = parseSource(site.file, code)
  const declaration = enclosingDeclaration(sourceFile, site.nameSpan.start)
  const text = declaration === undefined ? undefined : functionText(declaration, site.name, sourceFile)
  if (text === undefined) throw new Error(`cannot find the function '${site.name}' around its @kernel comment`)
  const js = stripTypes(text, site.file, { rewriteImportExtensions: false })
  return new Function(`'use strict'\n${js}\nreturn ${LOCAL}`)() as OwnBody
}

/** The binding the function's text is given, whatever its own name. */
const LOCAL = '__polykern_own'

/** `const __polykern_own = <the function>`, without `export`/`default`; the function keeps its own name. */
function functionText(
  declaration: ts.FunctionDeclaration | ts.VariableStatement,
  name: string,
  sourceFile: ts.SourceFile,
): string | undefined {
  if (ts.isFunctionDeclaration(declaration)) {
    // From the `function` keyword on: `export` and `default` are not part of the function.
    const keyword = declaration.getChildren(sourceFile).find((c) => c.kind === ts.SyntaxKind.FunctionKeyword)
    if (keyword === undefined || declaration.body === undefined) return undefined
    return `const ${LOCAL} = ${sourceFile.text.slice(keyword.getStart(sourceFile), declaration.end)}`
  }
  const variable = declaration.declarationList.declarations.find((d) => ts.isIdentifier(d.name) && d.name.text === name)
  if (variable?.initializer === undefined) return undefined
  return `const ${LOCAL} = ${variable.initializer.getText(sourceFile)}`
}
