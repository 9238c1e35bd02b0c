/**
 * A file's compiled kernels loaded in this process through the runtime, as a rewritten module would load them:
 * validated, native when the module steps gave an addon and it loads here, else the generated JS loops. For the
 * CLI's verify and bench.
 */
import { ADDON_FILE } from '../addon/build.ts'
import type { ModuleState } from '../pipeline.ts'
import { kernels as loadedKernels, loadKernels, type KernelEntry } from '../../runtime/index.ts'
import { NATIVE_DISABLED } from '../../runtime/load-addon.ts'

export interface LoadedKernels {
  /** One entry per compiled kernel, in their order. */
  readonly entries: readonly KernelEntry[]
  /** The addon's path when it loaded. */
  readonly addonPath?: string
  /** Why the kernels run on their JS loops, when they do. */
  readonly nativeMissing?: string
}

/** `tool` names the registry module (`polykern verify src/mm.ts`), so tools never replace a user module's entries. */
export function loadCompiled(file: Pick<ModuleState, 'moduleId' | 'kernels' | 'addon' | 'nativeReason'>, tool: string): LoadedKernels {
  const { addon, kernels } = file
  const module = `${tool} ${file.moduleId}`
  loadKernels({
    module,
    addon: addon ? ADDON_FILE : null,
    cachePath: addon?.path ?? null,
    identity: addon?.identity ?? null,
    base: addon?.path,
    reason: file.nativeReason ?? NATIVE_DISABLED,
    requires: [],
    kernels: Object.fromEntries(kernels.map((k) => [k.abi.name, { abi: k.abi, js: new Function(`return ${k.js}`)() }])),
  })
  const registered = loadedKernels().filter((e) => e.module === module)
  const entries = kernels.map((k) => registered.find((e) => e.name === k.abi.name)!)
  const loaded = entries.length > 0 && entries.every((e) => e.nativeFn !== null)
  const nativeMissing = !addon ? file.nativeReason ?? 'no addon' : loaded ? undefined : 'the addon did not load'
  return { entries, addonPath: loaded ? addon?.path : undefined, nativeMissing }
}
