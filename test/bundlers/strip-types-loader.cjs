// A minimal webpack loader standing in for ts-loader: strips TypeScript types, nothing else.
const ts = require('typescript')

module.exports = function stripTypes(source) {
  const out = ts.transpileModule(source, {
    fileName: this.resourcePath,
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
  })
  return out.outputText
}
