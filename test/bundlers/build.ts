/**
 * One function per bundler: build an entry of the fixture through the bundler's real JS API, with polykern and the
 * TypeScript handling a user would add, into `outDir`. Resolves to the bundle's path; rejects with the bundler's error.
 */
import path from 'node:path'
import { rspack } from '@rspack/core'
import type { RspackOptions } from '@rspack/core'
import * as esbuild from 'esbuild'
import { rollup } from 'rollup'
import type { Plugin as RollupPlugin } from 'rollup'
import ts from 'typescript'
import { build as viteBuild } from 'vite'
import webpack from 'webpack'
import type { Configuration as WebpackConfiguration, Stats } from 'webpack'
import polykernEsbuild from '../../plugin/esbuild.ts'
import type { Options } from '../../plugin/index.ts'
import polykernRollup from '../../plugin/rollup.ts'
import polykernRspack from '../../plugin/rspack.ts'
import polykernVite from '../../plugin/vite.ts'
import polykernWebpack from '../../plugin/webpack.ts'

export const fixtureRoot = path.join(import.meta.dirname, 'fixture')

export interface BuildRequest {
  /** Entry, relative to the fixture root. */
  readonly entry: string
  readonly outDir: string
  readonly options: Options
}

export type Bundler = 'vite' | 'rollup' | 'esbuild' | 'webpack' | 'rspack'

export const BUNDLERS: Readonly<Record<Bundler, (req: BuildRequest) => Promise<string>>> = {
  /** `vite build --ssr`: Node ESM output. */
  async vite({ entry, outDir, options }) {
    await viteBuild({
      root: fixtureRoot,
      configFile: false,
      logLevel: 'silent',
      plugins: [polykernVite(options)],
      build: {
        ssr: entry,
        outDir,
        emptyOutDir: true,
        minify: false,
        rolldownOptions: { output: { entryFileNames: 'main.mjs' } },
      },
    })
    return path.join(outDir, 'main.mjs')
  },

  /** Rollup with polykern first, then a TypeScript plugin (here: a minimal type stripper). */
  async rollup({ entry, outDir, options }) {
    const bundle = await rollup({
      input: path.join(fixtureRoot, entry),
      plugins: [polykernRollup(options), stripTypes()],
      logLevel: 'silent',
    })
    await bundle.write({ dir: outDir, format: 'es', entryFileNames: 'main.mjs' })
    await bundle.close()
    return path.join(outDir, 'main.mjs')
  },

  /** esbuild, platform node, ESM, with `outfile` (the addon then goes beside it). */
  async esbuild({ entry, outDir, options }) {
    const outfile = path.join(outDir, 'main.mjs')
    await esbuild.build({
      absWorkingDir: fixtureRoot,
      entryPoints: [entry],
      bundle: true,
      platform: 'node',
      format: 'esm',
      outfile,
      logLevel: 'silent',
      plugins: [polykernEsbuild(options)],
    })
    return outfile
  },

  async webpack(req) {
    await run((done) => webpack(webpackConfig(fixtureRoot, req), done))
    return path.join(req.outDir, 'main.cjs')
  },

  /** Rspack, target node, ESM output, TypeScript through builtin:swc-loader. */
  async rspack({ entry, outDir, options }) {
    const config: RspackOptions = {
      mode: 'production',
      target: 'node',
      context: fixtureRoot,
      entry: `./${entry}`,
      output: { path: outDir, filename: 'main.mjs', module: true, chunkFormat: 'module', library: { type: 'module' } },
      resolve: { extensions: ['.ts', '.js'] },
      module: {
        rules: [{
          test: /\.ts$/,
          loader: 'builtin:swc-loader',
          options: { jsc: { parser: { syntax: 'typescript' } } },
          type: 'javascript/auto',
        }],
      },
      optimization: { minimize: false },
      plugins: [polykernRspack(options)],
    }
    await run((done) => rspack(config, done))
    return path.join(outDir, 'main.mjs')
  },
}

/** webpack 5, target node, CommonJS output `main.cjs`, TypeScript through a small type-stripping loader. */
export function webpackConfig(root: string, { entry, outDir, options }: BuildRequest): WebpackConfiguration {
  return {
    mode: 'production',
    target: 'node',
    context: root,
    entry: `./${entry}`,
    output: { path: outDir, filename: 'main.cjs' },
    resolve: { extensions: ['.ts', '.js'] },
    module: { rules: [{ test: /\.ts$/, loader: path.join(import.meta.dirname, 'strip-types-loader.cjs') }] },
    optimization: { minimize: false },
    plugins: [polykernWebpack(options)],
  }
}

/** Runs a webpack-style compiler; compilation errors reject with their text. */
type CompilerStats = Pick<Stats, 'hasErrors'> & { toString(options: unknown): string }
function run(start: (done: (err: Error | null, stats?: CompilerStats) => void) => void) {
  return new Promise<void>((resolve, reject) => {
    start((err, stats) => {
      if (err) reject(err)
      else if (stats?.hasErrors()) reject(new Error(stats.toString('errors-only')))
      else resolve()
    })
  })
}

/** What @rollup/plugin-typescript does for this fixture: TypeScript in, JavaScript out. */
export function stripTypes(): RollupPlugin {
  return {
    name: 'strip-types',
    transform(code, id) {
      if (!id.endsWith('.ts')) return null
      const out = ts.transpileModule(code, {
        fileName: id,
        compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, sourceMap: true },
      })
      return { code: out.outputText.replace(/\n\/\/# sourceMappingURL=.*$/, ''), map: out.sourceMapText }
    },
  }
}
