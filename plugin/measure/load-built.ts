/**
 * An addon this build just made, loaded for the build's own tools (calibration, tuning, the build report) with the
 * checks of the runtime's loader (runtime/load-addon.ts) that apply to a file of the build cache: its identity in
 * its bytes before dlopen, so another module's addon never runs, the same identity in its exports after, and every
 * kernel asked for. A failed check throws, naming the file and what was wrong.
 */
import { readFileSync } from 'node:fs'
import { carriesIdentity } from '../../runtime/identity.ts'

export type AddonCall = (...args: unknown[]) => unknown

export interface BuiltAddon {
  readonly call: (name: string) => AddonCall
  /** The addon's `__polykern`: the ISA its loader picked, and its pool's controls. */
  readonly meta: { readonly isa: string; readonly setThreads: (n: number) => void }
}

export function loadBuiltAddon(file: string, identity: string, kernels: readonly string[]): BuiltAddon {
  if (!carriesIdentity(readFileSync(file), identity)) throw new Error(`${file} was not built from these kernels`)
  const exports = process.getBuiltinModule('node:module').createRequire(import.meta.url)(file) as Record<string, unknown> & {
    __polykern?: { identity?: unknown; isa?: unknown; setThreads?: unknown }
  }
  const meta = exports.__polykern
  if (meta?.identity !== identity) throw new Error(`${file} loaded, but it was not built from these kernels`)
  const absent = kernels.filter((k) => typeof exports[k] !== 'function')
  if (absent.length > 0) throw new Error(`${file} lacks ${absent.join(', ')}`)
  return {
    call: (name) => {
      if (typeof exports[name] !== 'function') throw new Error(`${file} has no kernel ${name}`)
      return exports[name] as AddonCall
    },
    meta: { isa: String(meta.isa), setThreads: meta.setThreads as (n: number) => void },
  }
}
