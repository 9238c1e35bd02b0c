import type { BoundKernelFn } from './bind.ts'

/** A kernel call: validates its arguments, runs, and returns the kernel's output array (or undefined). */
export interface KernelFn {
  (...args: unknown[]): unknown
  /**
   * The same call off the JS thread (the native path runs on a libuv worker; the JS loops still run on the JS
   * thread): arguments are validated before it returns, and it resolves with what the sync form returns or rejects
   * with the error the sync form throws. Do not touch the arrays until it settles.
   */
  readonly async: (...args: unknown[]) => Promise<unknown>
  /**
   * `bind({ F })`: the kernel with the tensors named (ones it only reads) copied once and, natively, packed once;
   * it takes the other parameters in their order. Anything but one plain object: Function.prototype.bind.
   */
  readonly bind: (constants: Readonly<Record<string, ArrayBufferView>>) => BoundKernelFn
}

/** Which implementation `call` runs for valid arguments `args`. */
export type KernelRoute = (args: ArrayLike<unknown>) => 'native' | 'js'

/** One loaded kernel, with both implementations, so tools can time or compare them on the same data. */
export interface KernelEntry {
  readonly name: string
  /** The source module (relative to the project root) that declared it. */
  readonly module: string
  /** Whether the native addon loaded: `call` runs it, except for calls too small to pay for crossing into it. */
  readonly native: boolean
  /** What the module's export calls: the native path when it loaded (see `route`), else the JS loops. */
  readonly call: KernelFn
  readonly route: KernelRoute
  /** The JS loops, validated like `call`. */
  readonly js: KernelFn
  /** The native function, validated like `call`; null when the addon did not load. */
  readonly nativeFn: KernelFn | null
  /** The addon file the native path came from, or null. */
  readonly addonPath: string | null
  /** The addon's `__polykern` (live `isa` and `threads`), or null. */
  readonly meta: { readonly isa?: unknown; readonly threads?: unknown } | null
  /** Why the module runs its JS loops (`POLYKERN_NATIVE=0`, `native: false`, what the loader tried), or null. */
  readonly reason: string | null
}

const entries = new Map<string, KernelEntry>()

/** Records a kernel; loading a module again (HMR, tests) replaces its entries. */
export function registerKernel(entry: KernelEntry): void {
  entries.set(`${entry.module}\0${entry.name}`, entry)
}

/** Every kernel loaded in this process (by this copy of the runtime), in load order. */
export function kernels(): readonly KernelEntry[] {
  return [...entries.values()]
}
