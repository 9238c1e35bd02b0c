import { Project, ts } from 'ts-morph'

/** One in-memory project, parse only: replacing its one file per call is cheap, creating a Project is not. */
let project: Project | undefined

/** Parses a module's text (no type checking, no imports followed); `file` only picks the grammar (JSX or not). */
export function parseSource(file: string, code: string): ts.SourceFile {
  project ??= new Project({
    useInMemoryFileSystem: true,
    skipFileDependencyResolution: true,
    compilerOptions: { allowJs: true, noResolve: true },
  })
  const name = /\.[cm]?[jt]sx$/.test(file) ? '/polykern-scan.tsx' : '/polykern-scan.ts'
  return project.createSourceFile(name, code, { overwrite: true }).compilerNode
}
