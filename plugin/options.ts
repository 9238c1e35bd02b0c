import path from 'node:path'

/** Options of the polykern bundler plugin (and of the CLI, which takes the same object). */
export interface Options {
  /**
   * Files to scan for `@kernel` annotations (picomatch globs or RegExps, as unplugin's `transform.filter.id`).
   * @default [/\.[cm]?[jt]sx?$/]
   */
  include?: string | RegExp | readonly (string | RegExp)[]
  /**
   * Files never scanned.
   * @default [/node_modules/]
   */
  exclude?: string | RegExp | readonly (string | RegExp)[]
  /**
   * Where built addons are cached, keyed by a content hash of everything that goes into them.
   * @default '<root>/node_modules/.cache/polykern'
   */
  cacheDir?: string
  /**
   * Fail the build when a native addon cannot be built, instead of warning and shipping the JS fallback.
   * @default false
   */
  strict?: boolean
  /**
   * `false` skips the native build: every kernel runs as generated JS loops.
   * @default true
   */
  native?: boolean
  /**
   * Project root: relative file names in messages and the default cache directory hang off it.
   * @default process.cwd()
   */
  root?: string
}

export interface ResolvedOptions {
  readonly include: readonly (string | RegExp)[]
  readonly exclude: readonly (string | RegExp)[]
  readonly cacheDir: string
  readonly strict: boolean
  readonly native: boolean
  readonly root: string
}

const list = (v: string | RegExp | readonly (string | RegExp)[]): readonly (string | RegExp)[] =>
  Array.isArray(v) ? v : [v as string | RegExp]

export function resolveOptions(options: Options = {}): ResolvedOptions {
  const root = path.resolve(options.root ?? process.cwd())
  return {
    include: list(options.include ?? [/\.[cm]?[jt]sx?$/]),
    exclude: list(options.exclude ?? [/node_modules/]),
    cacheDir: path.resolve(root, options.cacheDir ?? 'node_modules/.cache/polykern'),
    strict: options.strict ?? false,
    native: options.native ?? true,
    root,
  }
}
