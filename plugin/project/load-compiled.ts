/**
 * Compiled kernels loaded in this process through the runtime, as a rewritten module would load them: validated,
 * native when the addon builds and loads, else the generated JS loops. For the CLI's verify and bench.
 */
import { ADDON_FILE, buildAddon } from '../addon/build.ts'
import type { ResolvedOptions } from '../options.ts'
import type { CompiledKernel } from '../compiled-kernel.ts'
import { addonRequest } from '../pipeline.ts'
import { kernels as loadedKernels, loadKernels, type KernelEntry } from '../../runtime/index.ts'

export interface LoadedKernels {
  /** One entry per compiled kernel, in their order. */
  readonly entries: readonly KernelEntry[]
  /** The addon's path when it built and loaded. */
  readonly addonPath?: string
  /** Why the kernels run on their JS loops, when they do. */
  readonly nativeMissing?: string
}

/** `tool` names the registry module (`polykern verify src/mm.ts`), so tools never replace a user module's entries. */
export async function loadCompiled(
  compiled: readonly CompiledKernel[], moduleId: string, opts: ResolvedOptions, tool: string, native: boolean,
): Promise<LoadedKernels> {
  const built = native && compiled.length > 0 ? await buildAddon(addonRequest(compiled, moduleId, opts)) : undefined
  const addon = built?.ok ? built.path : undefined
  const module = `${tool} ${moduleId}`
  loadKernels({
    module,
    addon: addon ? ADDON_FILE : null,
    cachePath: addon ?? null,
    identity: built?.ok ? built.hash : null,
    base: addon,
    reason: 'native: false',
    requires: [],
    kernels: Object.fromEntries(compiled.map((k) => [k.abi.name, { abi: k.abi, js: new Function(`return ${k.js}`)() }])),
  })
  const registered = loadedKernels().filter((e) => e.module === module)
  const entries = compiled.map((k) => registered.find((e) => e.name === k.abi.name)!)
  const loaded = entries.length > 0 && entries.every((e) => e.nativeFn !== null)
  const nativeMissing =
    built === undefined ? 'native build skipped'
    : !built.ok ? `the native build failed: ${built.error.split('\n')[0]}`
    : loaded ? undefined
    : 'the addon did not load'
  return { entries, addonPath: loaded ? addon : undefined, nativeMissing }
}
