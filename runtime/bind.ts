/**
 * `f.bind({ F, bias })`: a kernel function with some of the tensors it only reads given once, for apps that call the
 * same layer many times with the same weights. The bound function takes the other parameters, in their order.
 *
 * The runtime copies each constant when it binds it (changing the caller's array afterwards changes nothing), onto a
 * SharedArrayBuffer, which is never detached and which `.async` uses in place. On the native path it hands the copy
 * to the addon (`__polykern.bindConstant`), where a kernel that packs the operand packs it on the first call only
 * (native/polykern_bound.h). `release()` frees the copies and their packed forms once no `.async` call uses them;
 * when the bound function is collected, the addon's handles are too, and their finalizers release it. The JS loops
 * honour the same API on the copies.
 */
import { ARRAY_TYPE, type KernelAbi } from './abi.ts'
import { KernelTypeError } from './errors.ts'
import type { KernelFn } from './registry.ts'
import { describe, typedArrayKind } from './validate.ts'

/** A kernel function with constants bound: the other parameters, `.async` as for any kernel, and `release()`. */
export interface BoundKernelFn extends KernelFn {
  /** Frees the copies (and their packed forms) once pending `.async` calls settle; later calls throw. Idempotent. */
  release(): void
}

/** What the addon offers for constants: absent on the JS fallback and in addons built before it existed. */
export interface ConstantBinder {
  readonly bindConstant?: unknown
  readonly unbindConstant?: unknown
}

type TypedArray = Float32Array | Float64Array | Int32Array
const ARRAY_CONSTRUCTOR = { Float32Array, Float64Array, Int32Array } as unknown as Readonly<
  Record<'Float32Array' | 'Float64Array' | 'Int32Array', new (buffer: SharedArrayBuffer) => TypedArray>
>

/**
 * The `bind` of a kernel function `call`: with one plain object, binds the tensors it names (polykern's bind); with
 * anything else, Function.prototype.bind as for any function (a kernel does not use `this`).
 */
export function kernelBind(abi: KernelAbi, call: KernelFn, binder: ConstantBinder | null) {
  return function bind(this: unknown, ...args: unknown[]): unknown {
    if (args.length === 1 && isPlainObject(args[0])) return bindConstants(abi, call, binder, args[0])
    return Function.prototype.bind.apply(this as (...a: unknown[]) => unknown, args as [unknown, ...unknown[]])
  }
}

function bindConstants(abi: KernelAbi, call: KernelFn, binder: ConstantBinder | null, constants: object): BoundKernelFn {
  const fail = (message: string, argument?: string, code: 'runtime_bind_invalid' | 'runtime_arg_type' = 'runtime_bind_invalid') =>
    new KernelTypeError(code, `${abi.name}(): bind() ${message} (at ${abi.loc})`, abi.name, argument)
  const readOnly = abi.params.filter((p) => p.kind === 'tensor' && p.role === 'in').map((p) => p.name).join(', ') || 'none'
  const given = Object.keys(constants)
  if (given.length === 0) throw fail(`binds nothing: name tensors it only reads (${readOnly})`)
  const copies = new Map<number, TypedArray>()
  for (const name of given) {
    const index = abi.params.findIndex((p) => p.name === name)
    const param = abi.params[index]
    if (param?.kind !== 'tensor') throw fail(`'${name}' is not a tensor parameter (tensors it only reads: ${readOnly})`, name)
    if (param.role !== 'in') throw fail(`'${name}' is written by the kernel; only tensors it only reads can be bound`, name)
    const value = (constants as Record<string, unknown>)[name]
    const kind = ARRAY_TYPE[param.dtype] as keyof typeof ARRAY_CONSTRUCTOR
    if (typedArrayKind(value) !== kind) throw fail(`'${name}' must be a ${kind}, got ${describe(value)}`, name, 'runtime_arg_type')
    const source = value as TypedArray
    const copy = new ARRAY_CONSTRUCTOR[kind](new SharedArrayBuffer(source.byteLength))
    copy.set(source as never)
    copies.set(index, copy)
  }
  const bindConstant = typeof binder?.bindConstant === 'function' ? (binder.bindConstant as (a: TypedArray) => unknown) : undefined
  const unbindConstant = binder?.unbindConstant as ((handle: unknown) => void) | undefined
  let handles = bindConstant ? [...copies.values()].map((c) => bindConstant(c)) : []
  // A call's arguments: the copies in their places, the caller's at `free`.
  const template: unknown[] = abi.params.map((_, i) => copies.get(i))
  const free = abi.params.flatMap((_, i) => (copies.has(i) ? [] : [i]))
  const rest = free.map((i) => abi.params[i].name)
  let released = false
  let pending = 0

  const unbind = () => {
    for (const handle of handles) unbindConstant?.(handle)
    handles = []
    copies.clear()
    template.fill(undefined)
  }
  const argsOf = (given: unknown[]): unknown[] => {
    if (released) {
      throw new KernelTypeError('runtime_bound_released', `${abi.name}(): called after its bound constants were released (at ${abi.loc})`, abi.name)
    }
    if (given.length !== rest.length) {
      const bound = [...copies.keys()].map((i) => abi.params[i].name).join(', ')
      throw new KernelTypeError('runtime_arg_count',
        `${abi.name}() with ${bound} bound: expected ${rest.length} arguments (${rest.join(', ')}) but got ${given.length} (at ${abi.loc})`, abi.name)
    }
    const args = template.slice()
    for (let j = 0; j < free.length; j++) args[free[j]] = given[j]
    return args
  }
  const bound = (...given: unknown[]) => call(...argsOf(given))
  const promised = async (...given: unknown[]) => {
    const args = argsOf(given)
    pending++
    try {
      return await call.async(...args)
    } finally {
      if (--pending === 0 && released) unbind()
    }
  }
  const release = () => {
    if (released) return
    released = true
    if (pending === 0) unbind()
  }
  return Object.assign(bound, { async: promised, release })
}

function isPlainObject(v: unknown): v is object {
  if (typeof v !== 'object' || v === null) return false
  const proto = Object.getPrototypeOf(v) as unknown
  return proto === Object.prototype || proto === null
}
