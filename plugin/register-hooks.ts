/**
 * The `load` hook behind `polykern/register` (it runs on Node's hooks thread). TypeScript files (.ts, .mts) are
 * type-stripped; those and JavaScript files holding `@kernel` are first compiled and rewritten as the bundler plugin
 * does, their addon built into (or found in) the cache. Settings come from the environment: POLYKERN_NATIVE=0 skips
 * the native build, POLYKERN_CACHE_DIR moves the cache; the project root is the current directory.
 */
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { KernelDiagnostic, formatDiagnostic } from './diagnostics.ts'
import { resolveOptions, type ResolvedOptions } from './options.ts'
import { isBuildingLine } from './progress.ts'
import { stripTypes } from './project/strip-types.ts'

type LoadResult = { format?: string | null; source?: string | ArrayBuffer | Uint8Array; shortCircuit?: boolean }
type NextLoad = (url: string, context?: LoadContext) => Promise<LoadResult>
interface LoadContext {
  readonly format?: string | null
  readonly conditions?: readonly string[]
  readonly importAttributes?: Readonly<Record<string, string>>
}

const TYPESCRIPT = /\.m?ts$/
const JAVASCRIPT = /\.[cm]?js$/
/** The runtime this copy of polykern ships: rewritten modules use it, whatever their own dependencies hold. */
const RUNTIME = new URL(import.meta.url.endsWith('.ts') ? '../runtime/index.ts' : '../runtime/index.js', import.meta.url).href

let options: ResolvedOptions | undefined

export async function load(url: string, context: LoadContext, nextLoad: NextLoad): Promise<LoadResult> {
  if (!url.startsWith('file:') || url.includes('/node_modules/')) return nextLoad(url, context)
  const file = fileURLToPath(url)
  const typescript = TYPESCRIPT.test(file)
  if (!typescript && !JAVASCRIPT.test(file)) return nextLoad(url, context)
  const code = await readFile(file, 'utf8')
  if (!typescript && !code.includes('@kernel')) return nextLoad(url, context)
  const format = typescript ? 'module' : (await nextLoad(url, context)).format
  if (format !== 'module') return nextLoad(url, context)
  const rewritten = code.includes('@kernel') ? await compile(file, code) : code
  return { format, source: stripTypes(rewritten, file, { rewriteImportExtensions: false }), shortCircuit: true }
}

async function compile(file: string, code: string): Promise<string> {
  // Loaded on the first kernel only: a run without kernels does not pay for the compiler.
  const { compileModule } = await import('./pipeline.ts')
  options ??= resolveOptions({
    native: process.env.POLYKERN_NATIVE !== '0',
    ...(process.env.POLYKERN_CACHE_DIR ? { cacheDir: process.env.POLYKERN_CACHE_DIR } : {}),
  })
  try {
    // Of the progress lines, only a long build's (unless quiet, as under CI): a run that builds nothing prints nothing.
    const module = path.relative(options.root, file)
    const building = (line: string) => void (isBuildingLine(line) && process.stderr.write(`[polykern] ${module}: ${line}\n`))
    const compiled = await compileModule(file, code, options, options.quiet ? undefined : building, undefined, 'sources')
    if (compiled === undefined) return code
    for (const w of compiled.warnings) process.stderr.write(`polykern: warning: ${formatDiagnostic(w, code)}\n`)
    return compiled.code.replace("from 'polykern/runtime'", `from ${JSON.stringify(RUNTIME)}`)
  } catch (e) {
    if (!(e instanceof KernelDiagnostic)) throw e
    // The hooks thread passes the error on to the import that failed: keep the code frame in its message.
    throw Object.assign(new Error(`polykern: ${formatDiagnostic(e, code)}`), { code: e.code })
  }
}
