/**
 * TypeScript → JavaScript without type-checking, one file at a time (TypeScript's transpileModule, bundled with
 * ts-morph): what `polykern build` writes and what `polykern/register` hands to Node 20, which cannot strip types.
 */
import { ts } from 'ts-morph'

export interface StripOptions {
  /** `./x.ts` → `./x.js` in relative imports: for output files that sit beside other compiled files. */
  readonly rewriteImportExtensions: boolean
}

export function stripTypes(code: string, file: string, options: StripOptions): string {
  if (!/\.[cm]?tsx?$/.test(file)) return code
  return ts.transpileModule(code, {
    fileName: file,
    compilerOptions: {
      target: ts.ScriptTarget.ES2022,
      module: file.endsWith('.cts') ? ts.ModuleKind.CommonJS : ts.ModuleKind.ESNext,
      rewriteRelativeImportExtensions: options.rewriteImportExtensions,
      allowImportingTsExtensions: true,
      jsx: ts.JsxEmit.Preserve,
    },
    reportDiagnostics: false,
  }).outputText
}

/** The output name of a source file: `.ts` → `.js`, `.mts` → `.mjs`, `.cts` → `.cjs`; JavaScript keeps its name. */
export function outputName(file: string): string {
  return file.replace(/\.([cm]?)tsx?$/, (_, kind: string) => `.${kind}js`)
}
