import { ts } from 'ts-morph'

/** The innermost function declaration or variable statement around `offset`: where a kernel's name is bound. */
export function enclosingDeclaration(
  sourceFile: ts.SourceFile,
  offset: number,
): ts.FunctionDeclaration | ts.VariableStatement | undefined {
  let found: ts.FunctionDeclaration | ts.VariableStatement | undefined
  const visit = (node: ts.Node): void => {
    if (offset < node.getStart(sourceFile) || offset >= node.end) return
    if (ts.isFunctionDeclaration(node) || ts.isVariableStatement(node)) found = node
    ts.forEachChild(node, visit)
  }
  ts.forEachChild(sourceFile, visit)
  return found
}
