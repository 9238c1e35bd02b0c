/**
 * `polykern/runtime`: what a rewritten module imports. It loads the module's addon (or not), validates every call,
 * and dispatches to native code or the JS loops. Never imports from plugin/: it ends up inside users' bundles.
 */
import type { KernelAbi } from './abi.ts'
import { kernelBind, type ConstantBinder } from './bind.ts'
import { loadAddon, type AddonRequest } from './load-addon.ts'
import { registerKernel } from './registry.ts'
import type { KernelFn, KernelRoute } from './registry.ts'
import { kernelFailure, validatorFor } from './validate.ts'
import { workOfCall } from './work.ts'

export type { AbiDType, AbiParam, AbiTemp, KernelAbi } from './abi.ts'
export { kernelAsync } from './async-kernel.ts'
export { polykernInfo } from './info.ts'
export type { KernelInfo } from './info.ts'
export type { AsyncKernel } from './async-kernel.ts'
export type { BoundKernelFn } from './bind.ts'
export { KernelRangeError, KernelTypeError } from './errors.ts'
export type { KernelErrorCode } from './errors.ts'
export { NATIVE_DISABLED } from './load-addon.ts'
export { kernels } from './registry.ts'
export type { KernelEntry, KernelFn, KernelRoute } from './registry.ts'
export { MAX_THREADS, setThreads } from './threads.ts'
export { MAX_ELEMENTS, validatorFor } from './validate.ts'

/** What the rewrite writes into a module: where its addon may be (what loadAddon takes), and its kernels. */
export interface KernelModuleDescriptor extends Omit<AddonRequest, 'kernels'> {
  readonly kernels: Readonly<Record<string, { readonly abi: KernelAbi; readonly js: (...args: never[]) => unknown }>>
}

/**
 * One validated dispatcher per kernel: native when the addon loads, the JS loops otherwise, and the JS loops for
 * calls whose work is below the ABI's `jsBelow` or from its `jsFrom` on (measured faster there at build time).
 */
export function loadKernels(desc: KernelModuleDescriptor): Readonly<Record<string, KernelFn>> {
  const names = Object.keys(desc.kernels)
  const { addon, reason } = loadAddon({ ...desc, kernels: names })
  // No prototype: a kernel may be named `__proto__` or `constructor`.
  const out: Record<string, KernelFn> = Object.create(null)
  for (const name of names) {
    const { abi, js } = desc.kernels[name]
    const validate = validatorFor(abi)
    const result = (args: unknown[]) => (abi.returns >= 0 ? args[abi.returns] : undefined)
    // Running out of memory for the temporaries is one error on both paths, and what the addon's C refuses is the
    // KernelTypeError/KernelRangeError the JS checks throw.
    const failed = kernelFailure(abi)
    /** Runs `run` on arguments the JS checks passed. */
    const checkedInJs = (run: (args: unknown[]) => unknown) => (args: unknown[]) => {
      validate(args)
      try {
        run(args)
      } catch (e) {
        throw failed(e)
      }
    }
    /**
     * Runs the addon's callback, whose C checks everything the JS checks do (the overlaps by address), before it
     * touches a byte: a sync native call skips the JS checks, a third of a small call's time, and runs them only to
     * explain an error the C raised, so the caller gets the error the JS checks give, as on the JS path.
     */
    const checkedInC = (run: (args: unknown[]) => unknown) => (args: unknown[]) => {
      try {
        run(args)
      } catch (e) {
        validate(args)
        throw failed(e)
      }
    }
    /**
     * A kernel function: `runSync` checks and runs a call, `runAsync` starts one (returning a promise) after the JS
     * checks; `bind` hands constants to `binder` (the addon's, on the native path).
     */
    const dispatch = (
      runSync: (args: unknown[]) => void, runAsync: (args: unknown[]) => unknown, binder: ConstantBinder | null,
    ): KernelFn => {
      const sync = (...args: unknown[]) => {
        runSync(args)
        return result(args)
      }
      // Validation and the start of the work happen before the first await: bad arguments reject at once.
      const promised = async (...args: unknown[]) => {
        validate(args)
        try {
          await runAsync(args)
        } catch (e) {
          throw failed(e)
        }
        return result(args)
      }
      const fn = Object.assign(sync, { async: promised })
      return Object.defineProperty(fn, 'bind', { value: kernelBind(abi, fn, binder), configurable: true }) as KernelFn
    }
    const nativeImpl = addon?.exports[name]
    const jsImpl = js as (...args: unknown[]) => unknown
    const runJs = (args: unknown[]) => jsImpl(...args)
    const runNative = nativeImpl && checkedInC((args) => nativeImpl(...args))
    const binder = (addon?.meta ?? null) as ConstantBinder | null
    const nativeFn = runNative ? dispatch(runNative, asyncOf(nativeImpl), binder) : null
    const runJsChecked = checkedInJs(runJs)
    const jsFn = dispatch(runJsChecked, runJs, null)
    const work = nativeImpl && (abi.jsBelow || abi.jsFrom !== undefined) ? workOfCall(abi) : undefined
    const jsBelow = abi.jsBelow ?? 0
    const jsFrom = abi.jsFrom ?? Number.POSITIVE_INFINITY
    let call = nativeFn ?? jsFn
    let route: KernelRoute = () => (nativeFn ? 'native' : 'js')
    if (runNative && work) {
      const runNativeAsync = asyncOf(nativeImpl)
      // Before any check: a size the formula cannot multiply (a symbol, a bigint) takes the JS path, whose checks
      // reject it; work that is NaN goes native, whose C does.
      const toJs = (args: ArrayLike<unknown>) => {
        try {
          const w = work(args)
          return w < jsBelow || w >= jsFrom
        } catch {
          return true
        }
      }
      route = (args) => (toJs(args) ? 'js' : 'native')
      call = dispatch(
        (args) => (toJs(args) ? runJsChecked(args) : runNative(args)),
        (args) => (toJs(args) ? runJs(args) : runNativeAsync(args)),
        binder,
      )
    }
    out[name] = call
    const addonPath = addon?.path ?? null
    const meta = addon?.meta ?? null
    registerKernel({ name, module: desc.module, native: nativeFn !== null, call, js: jsFn, nativeFn, addonPath, meta, reason, route })
  }
  return out
}

/** The addon's `.async` of a kernel (a promise from a libuv worker); an addon without one runs the sync form. */
function asyncOf(nativeImpl: (...args: unknown[]) => unknown): (args: unknown[]) => unknown {
  const queue = (nativeImpl as { async?: unknown }).async
  if (typeof queue === 'function') return (args) => (queue as (...args: unknown[]) => unknown)(...args)
  return (args) => nativeImpl(...args)
}
