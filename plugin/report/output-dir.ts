/**
 * Where the bundle goes, from inside a transform: esbuild's `outdir` (or the folder of `outfile`), webpack's and
 * Rspack's `output.path`. Rollup and Vite say it only when they write (their `writeBundle` output options).
 */
import path from 'node:path'
import type { NativeBuildContext } from 'unplugin'

export function outputDirOf(native: NativeBuildContext | undefined): string | undefined {
  if (native?.framework === 'esbuild') {
    const { outdir, outfile, absWorkingDir } = native.build.initialOptions
    const dir = outdir ?? (outfile ? path.dirname(outfile) : undefined)
    return dir === undefined ? undefined : path.resolve(absWorkingDir ?? process.cwd(), dir)
  }
  if (native?.framework === 'webpack' || native?.framework === 'rspack') {
    return native.compiler.options.output.path ?? undefined
  }
  return undefined
}

/** Rollup's and Vite's output options: `dir`, or the folder of `file`. */
export const rollupOutputDir = (output: { dir?: string; file?: string }): string | undefined =>
  output.dir ?? (output.file ? path.dirname(output.file) : undefined)
