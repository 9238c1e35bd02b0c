import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { ts } from 'ts-morph'

/** The specifier rewritten modules import. */
export const RUNTIME_ID = 'polykern/runtime'

/** runtime/ beside this file's folder: dist/runtime when polykern runs built, the TypeScript sources otherwise. */
const runtimeDir = fileURLToPath(new URL('../runtime/', import.meta.url))

/** Every file of the runtime, which `loadRuntimeFile` serves (rollup and webpack cannot load TypeScript). */
export const RUNTIME_FILES = new RegExp(`^${runtimeDir.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')}[\\w-]+\\.[jt]s$`)

/** A source map as bundlers take it (esbuild's adapter needs the object, not its JSON text). */
export interface SourceMapJson {
  readonly version: number
  readonly sources: string[]
  readonly names: string[]
  readonly mappings: string
}

/** The runtime's entry: bundled into the user's output, so only the addon sits beside it. */
export function runtimeEntry(): string {
  const built = path.join(runtimeDir, 'index.js')
  return fs.existsSync(built) ? built : path.join(runtimeDir, 'index.ts')
}

/** A runtime file as JavaScript; its relative imports keep their extensions, so they come back through here. */
export function loadRuntimeFile(file: string): { code: string; map?: SourceMapJson } {
  const source = fs.readFileSync(file, 'utf8')
  if (file.endsWith('.js')) return { code: source }
  const out = ts.transpileModule(source, {
    fileName: file,
    compilerOptions: {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      verbatimModuleSyntax: true,
      sourceMap: true,
      inlineSources: true,
    },
  })
  const code = out.outputText.replace(/\n\/\/# sourceMappingURL=.*$/, '')
  return { code, map: JSON.parse(out.sourceMapText!) as SourceMapJson }
}
