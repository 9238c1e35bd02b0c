/**
 * Progress lines of a build (each kernel compiled, each addon built or found in the cache), written to the bundler's
 * own logger: Rollup's and Vite's `this.info`, webpack's and Rspack's infrastructure logger (`getLogger`), and stderr
 * for esbuild, which has no info channel for plugins; each line names its module. Silent with `quiet` (the default
 * when CI is set).
 */
import type { UnpluginBuildContext } from 'unplugin'
import type { ResolvedOptions } from './options.ts'

export type Progress = (message: string) => void

/** The lines, without the module (progressFor puts it in front). */
export const progressLines = {
  kernel: (n: number, count: number, name: string, ms: number) => `kernel ${n} of ${count} (${name}) compiled in ${millis(ms)}`,
  /** Watch mode and dev servers: the spec and options are those of the module's previous build. */
  unchanged: (n: number, count: number, name: string) => `kernel ${n} of ${count} (${name}) unchanged`,
  addon: (fileName: string, cached: boolean, ms: number) =>
    `native addon ${fileName}: ${cached ? `cache hit (${millis(ms)})` : `cache miss, built in ${millis(ms)}`}`,
  /** Every few seconds while an addon builds: the C files still compiling (none left: linking). */
  building: (pending: readonly string[], ms: number) =>
    `${BUILDING} ${pending.length > 0 ? `compiling ${pending.join(', ')}` : 'linking'} (${millis(ms)} so far)`,
}

const BUILDING = 'building the native addon:'

/** Whether a progress line is one of a build still running (what `polykern/register` prints of them). */
export const isBuildingLine = (line: string): boolean => line.startsWith(BUILDING)

const millis = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`)

/**
 * The progress of `moduleId`'s transform in `ctx`'s build, under `framework` (unplugin's name of the bundler): every
 * line starts with the module, as Rollup writes it in front of a transform's logs itself and the others do not.
 */
export function progressFor(
  ctx: UnpluginBuildContext, opts: ResolvedOptions, moduleId: string, framework?: string,
): Progress | undefined {
  if (opts.quiet) return undefined
  const info = (ctx as { info?: unknown }).info
  if (typeof info === 'function') {
    const prefix = framework === 'rollup' ? '' : `${moduleId}: `
    return (message) => (info as (m: string) => void).call(ctx, `${prefix}${message}`)
  }
  const native = ctx.getNativeBuildContext?.()
  if ((native?.framework === 'webpack' || native?.framework === 'rspack') && native.loaderContext) {
    const logger = (native.loaderContext as { getLogger?: (name: string) => { info(m: string): void } }).getLogger?.('polykern')
    if (logger) return (message) => logger.info(`${moduleId}: ${message}`)
  }
  return (message) => process.stderr.write(`[polykern] ${moduleId}: ${message}\n`)
}
