/**
 * The bundler plugin: one unplugin factory, wrapped per bundler by the shims beside this file.
 * It rewrites every module with `@kernel` functions, emits their addon beside the bundle, and serves the runtime.
 */
import fs from 'node:fs'
import path from 'node:path'
import { createUnplugin } from 'unplugin'
import type { UnpluginBuildContext, UnpluginContextMeta, UnpluginFactory, UnpluginMessage } from 'unplugin'
import { KernelDiagnostic, toPluginMessage } from './diagnostics.ts'
import { resolveOptions } from './options.ts'
import type { Options } from './options.ts'
import { compileModule, moduleIdOf } from './pipeline.ts'
import { progressFor } from './progress.ts'
import { createKernelMemo } from './kernel-memo.ts'
import { writeAddonCopy } from './addon/write-copy.ts'
import { createReportCollector } from './report/report-collector.ts'
import { rollupOutputDir } from './report/output-dir.ts'
import type { CompiledModule, RunsFrom } from './pipeline.ts'
import { LOADER_BINDING } from './rewrite/rewrite.ts'
import { RUNTIME_FILES, RUNTIME_ID, loadRuntimeFile, runtimeEntry } from './runtime-module.ts'

export type { Options }

export const unpluginFactory: UnpluginFactory<Options | undefined, false> = (options, meta) => {
  const opts = resolveOptions(options)
  /** Vite's addons, written when the bundle is: Vite drops emitted assets from SSR builds (`ssrEmitAssets`). */
  const viteAddons = new Map<string, string>()
  /** Lives as long as the plugin: a watcher's or dev server's rebuilds recompile only the kernels whose spec changed. */
  const memo = createKernelMemo()
  /** The `report` option's modules, written beside the bundle once it is (a no-op without the option). */
  const reports = createReportCollector(opts)
  /** Vite's dev server runs modules from the sources, with no addon beside them: they also name the cache's copy. */
  let runsFrom: RunsFrom = 'output'
  const runtimeFilter = new RegExp(`^${RUNTIME_ID}$`)
  return {
    name: 'polykern',
    enforce: 'pre',
    resolveId: {
      filter: { id: runtimeFilter },
      // esbuild: resolved in its file namespace below, so the bundle's module comments name it by a relative path.
      handler: () => (meta.framework === 'esbuild' ? undefined : runtimeEntry()),
    },
    esbuild: {
      setup(build) {
        build.onResolve({ filter: runtimeFilter }, () => ({ path: runtimeEntry() }))
      },
    },
    load: {
      filter: { id: RUNTIME_FILES },
      handler: (id) => loadRuntimeFile(id),
    },
    transform: {
      // The code filter is the cheap pre-check: no parsing unless the text has the tag and is not rewritten yet.
      filter: {
        id: { include: [...opts.include], exclude: [...opts.exclude] },
        code: { include: '@kernel', exclude: LOADER_BINDING },
      },
      async handler(code, id) {
        let compiled: CompiledModule | undefined
        try {
          compiled = await compileModule(id, code, opts, progressFor(this, opts, moduleIdOf(id, opts), meta.framework), memo, runsFrom)
        } catch (e) {
          if (!(e instanceof KernelDiagnostic)) throw e
          this.error(report(e, code, meta))
          return { code } // esbuild and webpack record the error and go on; the build still fails
        }
        if (!compiled) return undefined
        reports.add(moduleIdOf(id, opts), compiled, this.getNativeBuildContext?.(), code)
        for (const w of compiled.warnings) this.warn(report(w, code, meta))
        if (compiled.addon && meta.framework === 'vite') viteAddons.set(compiled.addon.fileName, compiled.addon.path)
        else if (compiled.addon) emitAddon(this, compiled.addon)
        return { code: compiled.code, map: compiled.map }
      },
    },
    // esbuild, webpack and Rspack: the output directory was seen in the transforms.
    writeBundle: () => reports.write(),
    rollup: {
      writeBundle: (output) => reports.write(rollupOutputDir(output)),
    },
    vite: {
      configResolved(config) {
        runsFrom = config.command === 'serve' ? 'sources' : 'output'
      },
      async writeBundle(output) {
        const dir = rollupOutputDir(output)
        await reports.write(dir)
        if (!dir) return
        for (const [fileName, file] of viteAddons) fs.copyFileSync(file, path.join(dir, fileName))
      },
    },
  }
}

/**
 * Every bundler shows a diagnostic's column 1-based, as the CLI and polykern/register print it and editors take
 * `file:line:column` (Vite's overlay opens the editor there). Rollup and Vite print their `loc` as given, so it gets
 * the 1-based column. Webpack and Rspack keep only the message text, so it carries the location and code frame
 * itself; so does esbuild's: unplugin hands esbuild the location without the line's text, and esbuild then draws an
 * empty frame, so the location goes into the text instead.
 */
function report(d: KernelDiagnostic, code: string, meta: UnpluginContextMeta): UnpluginMessage {
  const m = toPluginMessage(d, code)
  if (!m.loc) return m
  const loc = { ...m.loc, column: m.loc.column + 1 }
  if (meta.framework !== 'webpack' && meta.framework !== 'rspack' && meta.framework !== 'esbuild') return { ...m, loc }
  const message = `${loc.file}:${loc.line}:${loc.column}: ${m.message}\n${m.frame}`
  return meta.framework === 'esbuild' ? { ...m, loc: undefined, message } : { ...m, loc, message }
}

/**
 * The addon lands beside the bundle, whatever the bundler: Rollup emits an asset; webpack and Rspack emit
 * it from the loader, so it is cached with the module; esbuild gets it written here, beside `outfile` or under
 * `outdir`, and only when its bytes changed (see writeAddonCopy: every esbuild rebuild transforms the module again).
 */
function emitAddon(ctx: UnpluginBuildContext, addon: NonNullable<CompiledModule['addon']>): void {
  const source = fs.readFileSync(addon.path)
  const native = ctx.getNativeBuildContext?.()
  if ((native?.framework === 'webpack' || native?.framework === 'rspack') && native.loaderContext) {
    native.loaderContext.emitFile(addon.fileName, source)
  } else if (native?.framework === 'esbuild') {
    const { outdir, outfile, absWorkingDir } = native.build.initialOptions
    const dir = outdir ?? (outfile ? path.dirname(outfile) : undefined)
    if (dir) writeAddonCopy(path.resolve(absWorkingDir ?? process.cwd(), dir, addon.fileName), source)
  } else {
    ctx.emitFile({ type: 'asset', fileName: addon.fileName, source })
  }
}

export const polykern = createUnplugin(unpluginFactory)
export default polykern
