/**
 * One long-lived session per bundler, as a user runs it while editing: Vite's dev server loading the fixture with
 * ssrLoadModule, `rollup.watch`, webpack's `compiler.watch`, esbuild's `context().watch()` and `.rebuild()`. Each
 * gives the results of its current output, applies an edit and waits for the rebuild, and closes.
 */
import path from 'node:path'
import * as esbuild from 'esbuild'
import { watch as rollupWatch } from 'rollup'
import { createServer } from 'vite'
import webpack from 'webpack'
import polykernEsbuild from '../../plugin/esbuild.ts'
import type { Options } from '../../plugin/index.ts'
import polykernRollup from '../../plugin/rollup.ts'
import polykernVite from '../../plugin/vite.ts'
import { stripTypes, webpackConfig } from '../bundlers/build.ts'
import { applyEdit, buildCounter, runBundle, until } from './project.ts'
import type { Edit, FixtureResults, Project } from './project.ts'

export interface Session {
  /** The bundle the session writes, or undefined for a dev server (nothing is written). */
  readonly bundle?: string
  /** The current output's results: the bundle run by node, or compute.ts loaded by the dev server. */
  results(): Promise<FixtureResults>
  /** Applies `edit`, waits until the session rebuilt (or reloaded) what it touched, and gives the new results. */
  rebuild(edit: Edit): Promise<FixtureResults>
  close(): Promise<void>
}

export type Watcher = 'vite' | 'rollup' | 'webpack' | 'esbuild' | 'esbuild-rebuild'

/** A native build of the fixture's addon on two busy cores takes tens of seconds. */
const BUILD_MS = 90_000

/** Sessions that write a bundle: rebuilt when the build counter moves past the edit. */
function bundleSession(bundle: string, builds: ReturnType<typeof buildCounter>, close: () => Promise<void>): Session {
  return {
    bundle,
    results: async () => runBundle(bundle),
    async rebuild(edit) {
      const seen = builds.count
      applyEdit(edit)
      await builds.after(seen, BUILD_MS, `a rebuild after editing ${path.basename(edit.file)}`)
      return runBundle(bundle)
    },
    close,
  }
}

export const WATCHERS: Readonly<Record<Watcher, (project: Project, options: Options) => Promise<Session>>> = {
  /** `vite` in middleware mode (no port), its SSR module graph loading src/compute.ts. */
  async vite({ root }, options) {
    const server = await createServer({
      root,
      configFile: false,
      logLevel: 'silent',
      appType: 'custom',
      plugins: [polykernVite(options)],
      // No file watcher: chokidar here drops one of two writes 50 ms apart now and then (seen with fs.watch and with
      // polling), so the session tells the server of its edit itself, through the watcher's own 'change' handler.
      server: { middlewareMode: true, ws: false, watch: null },
    })
    const load = async () => ((await server.ssrLoadModule('/src/compute.ts')) as { compute(): FixtureResults }).compute()
    const invalidatedAt = (file: string) =>
      Math.max(0, ...[...(server.environments.ssr.moduleGraph.getModulesByFile(file) ?? [])].map((m) => m.lastInvalidationTimestamp))
    return {
      results: load,
      async rebuild(edit) {
        const before = invalidatedAt(edit.file)
        applyEdit(edit)
        server.watcher.emit('change', edit.file)
        // Vite's change handler invalidates the module (after awaiting plugins); the next load transforms it again.
        const seen = () => (invalidatedAt(edit.file) > before ? true : undefined)
        await until(BUILD_MS, `the dev server to see the edit of ${path.basename(edit.file)}`, seen)
        return load()
      },
      close: () => server.close(),
    }
  },

  async rollup({ root, outDir }, options) {
    const builds = buildCounter()
    const watcher = rollupWatch({
      input: path.join(root, 'src/main.ts'),
      plugins: [polykernRollup(options), stripTypes()],
      output: { dir: outDir, format: 'es', entryFileNames: 'main.mjs' },
      logLevel: 'silent',
      watch: { clearScreen: false },
    })
    watcher.on('event', (event) => {
      if (event.code === 'BUNDLE_END') void event.result.close().then(() => builds.finished())
      else if (event.code === 'ERROR') void event.result?.close().finally(() => builds.finished(event.error))
    })
    await builds.after(0, BUILD_MS, 'the first Rollup build')
    return bundleSession(path.join(outDir, 'main.mjs'), builds, () => watcher.close())
  },

  async webpack({ root, outDir }, options) {
    const builds = buildCounter()
    const compiler = webpack(webpackConfig(root, { entry: 'src/main.ts', outDir, options }))
    const watching = compiler.watch({ aggregateTimeout: 50 }, (error, stats) => {
      builds.finished(error ?? (stats?.hasErrors() ? new Error(stats.toString('errors-only')) : undefined))
    })
    await builds.after(0, BUILD_MS, 'the first webpack build')
    const close = () => new Promise<void>((resolve, reject) => (watching ? watching.close((e) => (e ? reject(e) : resolve())) : resolve()))
    return bundleSession(path.join(outDir, 'main.cjs'), builds, close)
  },

  /** `context().watch()`: esbuild's own file watcher; an onEnd plugin counts the builds. */
  async esbuild(project, options) {
    const builds = buildCounter()
    const ended: esbuild.Plugin = {
      name: 'count-builds',
      setup: (build) => build.onEnd((result) => builds.finished(result.errors.length > 0 ? new Error(result.errors[0].text) : undefined)),
    }
    const context = await esbuildContext(project, options, 'outfile', [ended])
    await context.watch()
    await builds.after(0, BUILD_MS, 'the first esbuild build')
    return bundleSession(path.join(project.outDir, 'main.mjs'), builds, () => context.dispose())
  },

  /** `context().rebuild()`, as a tool that decides itself when to build calls it; `outdir` this time. */
  async 'esbuild-rebuild'(project, options) {
    const context = await esbuildContext(project, options, 'outdir', [])
    await context.rebuild()
    const bundle = path.join(project.outDir, 'main.mjs')
    return {
      bundle,
      results: async () => runBundle(bundle),
      async rebuild(edit) {
        applyEdit(edit)
        await context.rebuild()
        return runBundle(bundle)
      },
      close: () => context.dispose(),
    }
  },
}

/** ESM for node into `outDir/main.mjs`, named by `outfile` or by `outdir`: two ways polykern finds the output directory. */
function esbuildContext({ root, outDir }: Project, options: Options, output: 'outfile' | 'outdir', plugins: esbuild.Plugin[]) {
  return esbuild.context({
    absWorkingDir: root,
    entryPoints: ['src/main.ts'],
    bundle: true,
    platform: 'node',
    format: 'esm',
    ...(output === 'outfile' ? { outfile: path.join(outDir, 'main.mjs') } : { outdir: outDir, outExtension: { '.js': '.mjs' } }),
    logLevel: 'silent',
    plugins: [polykernEsbuild(options), ...plugins],
  })
}
