/** A real addon (node-gyp) of hand-compiled kernels in a throwaway cache, with the controls the native tests switch. */
import { mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import { buildAddon } from '../../plugin/addon/build.ts'
import { emitAddonSource, type AddonFile } from '../../plugin/emit/napi.ts'
import type { Kernel } from '../../plugin/ir/nodes.ts'
import { resolveOptions } from '../../plugin/options.ts'
import { abiOf } from '../emit/kernels.ts'
import { ROOT } from './examples.ts'

export type KernelCall = (...args: unknown[]) => unknown

export interface TestAddon {
  readonly [kernel: string]: KernelCall | TestAddon['__polykern']
  readonly __polykern: { readonly isas: readonly string[]; setIsa(name: string): string; setThreads(n: number): void }
}

/** The addon source of `kernels` (symbols `kc_<n>_<name>`); the pool wakes for any work, so 2 threads really split. */
export const testAddonSource = (kernels: readonly Kernel[], moduleId: string): readonly AddonFile[] =>
  emitAddonSource(
    kernels.map((kernel, n) => ({ kernel, abi: abiOf(kernel), symbol: `kc_${n}_${kernel.name}` })),
    { moduleId, parallelMinWork: 1 },
  )

/** Builds and loads `sources`; `remove` deletes its cache. Throws with the compiler's output when the build fails. */
export async function loadTestAddon(sources: readonly AddonFile[], prefix: string): Promise<{ addon: TestAddon; remove: () => void }> {
  const cacheDir = mkdtempSync(path.join(os.tmpdir(), `polykern-${prefix}-`))
  const built = await buildAddon({ sources, cacheDir })
  if (!built.ok) throw new Error(`addon build failed:\n${built.error}`)
  return {
    addon: createRequire(import.meta.url)(built.path) as TestAddon,
    remove: () => rmSync(cacheDir, { recursive: true, force: true }),
  }
}

/** Runs `check` on every ISA version of `addon` (as `setIsa` reports it) at 1 and 2 threads, then returns to 1 thread. */
export function onEveryIsaAndThreads(addon: TestAddon, check: (isa: string, threads: number) => void): void {
  for (const isa of addon.__polykern.isas) {
    const ran = addon.__polykern.setIsa(isa)
    for (const threads of [1, 2]) {
      addon.__polykern.setThreads(threads)
      check(ran, threads)
    }
  }
  addon.__polykern.setThreads(1)
}

/**
 * Builds (in the tests' shared cache) and loads a one-file addon whose one export is `run`, ended by RUN_EXPORT_TAIL;
 * throws with the compiler's output, naming `what`, when the build fails.
 */
export async function loadRunAddon<Run>(source: string, what: string): Promise<Run> {
  const cacheDir = resolveOptions({ root: ROOT, cacheDir: 'node_modules/.cache/polykern-test' }).cacheDir
  const built = await buildAddon({ sources: [{ name: 'polykern.c', text: source }], cacheDir })
  if (!built.ok) throw new Error(`the ${what} test addon did not build:\n${built.error}`)
  return (createRequire(import.meta.url)(built.path) as { run: Run }).run
}

/** The C that ends a test addon exporting one function `run`: its error for a name it does not know, then the init. */
export const RUN_EXPORT_TAIL = [
  '  napi_throw_error(env, NULL, "unknown function");',
  '  return NULL;',
  '}',
  '',
  'NAPI_MODULE_INIT() {',
  '  napi_value fn;',
  '  napi_create_function(env, "run", NAPI_AUTO_LENGTH, run, NULL, &fn);',
  '  napi_set_named_property(env, exports, "run", fn);',
  '  return exports;',
  '}',
  '',
]
