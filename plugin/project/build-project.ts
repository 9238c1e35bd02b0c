/**
 * `polykern build` without a bundler: every given file is written to `outDir` (same layout under the root) as
 * JavaScript, the files with kernels rewritten first exactly as the bundler plugin does, each with its addon
 * copied beside it under the name the rewritten module loads (`polykern-<hash>.node`).
 */
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import type { KernelDiagnostic } from '../diagnostics.ts'
import type { ResolvedOptions } from '../options.ts'
import { compileModule } from '../pipeline.ts'
import { outputName, stripTypes } from './strip-types.ts'

export interface BuiltFile {
  /** Paths relative to the root. */
  readonly source: string
  readonly output: string
  readonly kernels: number
  /** The addon written beside the output, relative to the root; absent without kernels or when the build failed. */
  readonly addon?: string
  readonly addonCached?: boolean
}

export interface ProjectBuild {
  readonly files: readonly BuiltFile[]
  /** A native build that failed (the JS loops ship instead) with `strict: false`. */
  readonly warnings: readonly KernelDiagnostic[]
}

/** Throws KernelDiagnostic for an error in a kernel (and, with `strict`, for a failed native build). */
export async function buildProject(
  files: readonly string[],
  outDir: string,
  opts: ResolvedOptions,
  progress: (file: BuiltFile) => void = () => {},
  /** The compiler's progress lines (each kernel, each addon), with the source they are about. */
  compileProgress?: (source: string, message: string) => void,
): Promise<ProjectBuild> {
  const built: BuiltFile[] = []
  const warnings: KernelDiagnostic[] = []
  const relative = (p: string) => path.relative(opts.root, p).split(path.sep).join('/')
  for (const file of files) {
    const source = relative(file)
    if (source.startsWith('../') || path.isAbsolute(source)) {
      throw new Error(`${file} is outside the project root ${opts.root}: pass --root`)
    }
    const code = await readFile(file, 'utf8')
    const lines = compileProgress && ((message: string) => compileProgress(source, message))
    const compiled = code.includes('@kernel') ? await compileModule(file, code, opts, lines) : undefined
    const output = path.join(outDir, outputName(source))
    await mkdir(path.dirname(output), { recursive: true })
    await writeFile(output, stripTypes(compiled?.code ?? code, file, { rewriteImportExtensions: true }))
    let addon: string | undefined
    if (compiled?.addon) {
      addon = path.join(path.dirname(output), compiled.addon.fileName)
      await copyFile(compiled.addon.path, addon)
    }
    warnings.push(...(compiled?.warnings ?? []))
    const entry: BuiltFile = {
      source,
      output: relative(output),
      kernels: compiled?.kernels.length ?? 0,
      ...(addon ? { addon: relative(addon), addonCached: compiled!.addon!.cached } : {}),
    }
    built.push(entry)
    progress(entry)
  }
  return { files: built, warnings }
}
