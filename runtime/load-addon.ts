import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { carriesIdentity } from './identity.ts'
import { nativeWanted, reportAddonEnv } from './env.ts'
import { adoptAddon, type AddonThreads } from './threads.ts'

/** The `reason` of a module built with `native: false`: the user's choice, so no warning. */
export const NATIVE_DISABLED = 'native: false'

export interface AddonRequest {
  /** The source module (relative to the project root), for messages. */
  readonly module: string
  /** The addon's file name, next to the module or bundle; null when there is none. */
  readonly addon: string | null
  /** The build cache's copy, tried second (dev servers and tests run from the sources). */
  readonly cachePath: string | null
  /** Why there is no addon, when `addon` is null. */
  readonly reason?: string | null
  /** Where the module or bundle sits: a `file:` URL or a path. Undefined: this file's own `__filename` (CJS bundles). */
  readonly base?: string
  /** CPU flags, as /proc/cpuinfo names them, the addon's lowest ISA version needs. */
  readonly requires: readonly string[]
  /**
   * The Node-API version the addon was built for. A Node.js that supports less is not asked to load it: Node 20
   * crashes loading an addon built for a newer Node-API instead of throwing.
   */
  readonly napiVersion?: number
  /** sha256 of the addon's bytes: a candidate that differs is skipped, as loading a damaged one can crash. */
  readonly sha256?: string | null
  /**
   * The hash of the sources the addon was built from (runtime/identity.ts): a candidate whose bytes lack it is not
   * loaded (another module's addon, even one with the same kernels), nor one that loads but exports another.
   */
  readonly identity?: string | null
  /** Kernels the addon must export, each a function and listed in its `__polykern.kernels`. */
  readonly kernels: readonly string[]
}

/** What a polykern addon exports: one function per kernel, `__polykern.kernels` listing them, and its pool's controls. */
type AddonExports = LoadedAddon['exports'] & {
  readonly __polykern?: AddonThreads & { readonly kernels?: unknown; readonly takeEnvWarnings?: unknown }
}

/** The addon's exports and the file they came from. */
export interface LoadedAddon {
  readonly exports: Readonly<Record<string, (...args: unknown[]) => unknown>>
  readonly path: string
  /** Its `__polykern`, whose `isa` and `threads` are read live. */
  readonly meta: { readonly isa?: unknown; readonly threads?: unknown }
}

/** The module's addon, or why it runs its JS loops (what the warning said, if it warned). */
export type AddonLoad =
  | { readonly addon: LoadedAddon; readonly reason: null }
  | { readonly addon: null; readonly reason: string }

const warned = new Set<string>()
let cpuFlags: ReadonlySet<string> | undefined

/**
 * The module's native kernels, or why it runs the JS fallback: POLYKERN_NATIVE=0, no addon built, a Node.js without
 * its Node-API version, a CPU without the features its lowest ISA version needs (the addon picks the best version
 * itself), or no candidate that loads and exports every kernel. Failures warn once per module, naming every path
 * tried and its error (sharp's loader); the user's own choices (POLYKERN_NATIVE=0, `native: false`) do not warn.
 */
export function loadAddon(req: AddonRequest): AddonLoad {
  if (!nativeWanted()) return { addon: null, reason: 'POLYKERN_NATIVE=0' }
  if (req.addon === null) {
    const reason = req.reason ?? 'no addon was built'
    if (reason !== NATIVE_DISABLED) warnOnce(req.module, `no native kernels for ${req.module} (${reason})`)
    return { addon: null, reason }
  }
  const what = `could not load the native kernels for ${req.module} (${req.addon})`
  const fallback = (detail: string): AddonLoad => {
    warnOnce(req.module, what, detail)
    return { addon: null, reason: `${what}: ${detail}` }
  }
  const napi = Number(process.versions.napi)
  if (req.napiVersion !== undefined && !(napi >= req.napiVersion)) {
    return fallback(`It was built for Node-API ${req.napiVersion}; this Node.js supports ${napi || 'none'}`)
  }
  const missing = missingCpuFlags(req.requires)
  if (missing.length > 0) return fallback(`This CPU lacks ${missing.join(', ')}, which the addon was compiled for`)
  const base = req.base ?? (typeof __filename === 'string' ? __filename : undefined)
  const tried: string[] = []
  for (const candidate of candidates(req.addon, base, req.cachePath)) {
    try {
      const bytes = (req.sha256 || req.identity) && fs.existsSync(candidate) ? fs.readFileSync(candidate) : undefined
      if (bytes && req.sha256 && sha256Of(bytes) !== req.sha256) {
        tried.push(`${candidate} (damaged: its bytes are not those of the addon built for this bundle)`)
        continue
      }
      if (bytes && req.identity && !carriesIdentity(bytes, req.identity)) {
        tried.push(`${candidate} (not built from this bundle's kernels: it lacks their identity ${req.identity.slice(0, 16)})`)
        continue
      }
      const exports = requireFrom(base ?? candidate)(candidate) as AddonExports
      if (req.identity && (exports.__polykern as { identity?: unknown } | undefined)?.identity !== req.identity) {
        tried.push(`${candidate} (loaded, but not built from this bundle's kernels: its identity is not ${req.identity.slice(0, 16)})`)
        continue
      }
      const listed = Array.isArray(exports.__polykern?.kernels) ? (exports.__polykern.kernels as unknown[]) : []
      const absent = req.kernels.filter((k) => typeof exports[k] !== 'function' || !listed.includes(k))
      if (absent.length === 0) {
        adoptAddon(exports.__polykern)
        reportAddonEnv(exports.__polykern)
        return { addon: { exports, path: candidate, meta: exports.__polykern ?? {} }, reason: null }
      }
      tried.push(`${candidate} (loaded, but it lacks ${absent.join(', ')})`)
    } catch (e) {
      tried.push(`${candidate} (${String((e as Error)?.message ?? e).split('\n')[0]})`)
    }
  }
  return fallback(`Tried: ${tried.join('; ') || 'nothing (no location known)'}`)
}

/**
 * `createRequire`, fetched at run time: webpack and Rspack compile an imported `createRequire(<expression>)` to
 * `undefined`, and the addon path is only known at run time.
 */
function requireFrom(base: string): NodeJS.Require {
  return process.getBuiltinModule('node:module').createRequire(base)
}

/** Beside the module or bundle first (what ships), then the build cache (what dev servers and tests see). */
function candidates(addon: string, base: string | undefined, cachePath: string | null): string[] {
  const dir = base === undefined ? undefined : directoryOf(base)
  const found = [dir === undefined ? undefined : path.join(dir, addon), cachePath ?? undefined]
  return [...new Set(found.filter((p): p is string => p !== undefined))]
}

function directoryOf(base: string): string | undefined {
  if (base.startsWith('file:')) return path.dirname(fileURLToPath(base))
  return path.isAbsolute(base) ? path.dirname(base) : undefined
}

/** dlopen of a truncated or damaged shared object can kill the process (SIGBUS): check the bytes first. */
function sha256Of(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex')
}

/** The flags of `requires` this CPU lacks (none off Linux, where they cannot be read). */
export function missingCpuFlags(requires: readonly string[]): string[] {
  if (requires.length === 0) return []
  cpuFlags ??= readCpuFlags()
  return requires.filter((flag) => !cpuFlags!.has(flag))
}

/** Linux lists features in /proc/cpuinfo (`flags` on x86, `Features` on Arm); elsewhere assume none. */
function readCpuFlags(): ReadonlySet<string> {
  if (process.platform !== 'linux') return new Set()
  try {
    const line = /^(?:flags|Features)\s*:(.*)$/m.exec(fs.readFileSync('/proc/cpuinfo', 'utf8'))
    return new Set(line?.[1].trim().split(/\s+/))
  } catch {
    return new Set()
  }
}

function warnOnce(module: string, what: string, detail?: string): void {
  if (warned.has(module)) return
  warned.add(module)
  const why = detail ? ` ${detail}.` : ''
  process.emitWarning(`polykern: ${what}; using the JS fallback.${why} Set POLYKERN_NATIVE=0 to silence this.`, {
    type: 'PolykernWarning',
    code: 'runtime_fallback',
  })
}
