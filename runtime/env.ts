/**
 * The environment variables a bundle reads at run time: POLYKERN_NATIVE here; POLYKERN_ISA and POLYKERN_THREADS in
 * the addon, once per process as it first loads (it replaces what it cannot accept and says what it replaced). A
 * value that is not accepted is a PolykernWarning `runtime_env_invalid` naming the variable, the value and what is
 * accepted, never a silent default: once per process for the addon's two (it hands its account out once), once per
 * thread for POLYKERN_NATIVE (JS threads share no state).
 */

/** Warnings already given in this thread, shared by every copy of the runtime (several bundles) through the registry. */
const given: Set<string> = ((globalThis as Record<symbol, unknown>)[Symbol.for('polykern.envWarnings')] ??= new Set<string>()) as Set<string>

/** POLYKERN_NATIVE: '0' runs the JS loops; unset, empty or '1' loads the addon; anything else warns and loads it. */
export function nativeWanted(): boolean {
  const value = process.env.POLYKERN_NATIVE
  if (value === '0') return false
  if (value !== undefined && value !== '' && value !== '1') {
    warnEnv(`POLYKERN_NATIVE='${quote(value)}' is not accepted; accepted: 0 (the JS loops) or 1 (native kernels, the default); using native kernels`)
  }
  return true
}

/** The addon's account of the POLYKERN_ISA and POLYKERN_THREADS values it could not take as they were. */
export function reportAddonEnv(meta: { readonly takeEnvWarnings?: unknown } | undefined): void {
  if (typeof meta?.takeEnvWarnings !== 'function') return
  const warnings = (meta.takeEnvWarnings as () => unknown)()
  if (Array.isArray(warnings)) for (const w of warnings) warnEnv(String(w))
}

function warnEnv(message: string): void {
  if (given.has(message)) return
  given.add(message)
  process.emitWarning(`polykern: ${message}.`, { type: 'PolykernWarning', code: 'runtime_env_invalid' })
}

const quote = (value: string): string => (value.length > 40 ? `${value.slice(0, 40)}...` : value)
