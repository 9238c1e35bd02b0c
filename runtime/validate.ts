import { types } from 'node:util'
import { ARRAY_TYPE } from './abi.ts'
import type { AbiParam, AbiTemp, KernelAbi } from './abi.ts'
import { KERNEL_ERROR_CODES, KernelRangeError, KernelTypeError } from './errors.ts'
import type { KernelErrorCode } from './errors.ts'

/** The most elements one tensor argument may have (the addon indexes with 32-bit-safe products). */
export const MAX_ELEMENTS = 2 ** 32

type TensorParam = Extract<AbiParam, { kind: 'tensor' }>

/** A tensor parameter, precomputed: `dims` holds fixed extents as-is and size parameters as `~argIndex` (< 0). */
interface TensorCheck {
  readonly index: number
  readonly param: TensorParam
  readonly arrayType: string
  readonly dims: readonly number[]
}

/**
 * The argument check of one kernel, built once per ABI and run before every call, native or JS: same checks in the
 * same order, so both paths throw the same errors. Sizes first, then each tensor's type, element count and length,
 * then the element count of each temporary, then overlaps between an output and any other tensor.
 */
export function validatorFor(abi: KernelAbi): (args: ArrayLike<unknown>) => void {
  const { sizeIndex, tensors, fail } = checksOf(abi)
  const sizes = [...sizeIndex.values()]
  const outputs = tensors.filter((t) => t.param.role !== 'in')
  const temps = (abi.temps ?? []).map((temp) => ({ temp, dims: temp.shape.map((d) => dimCode(abi, sizeIndex, d)) }))

  return (args) => {
    if (args.length !== abi.params.length) throw fail.count(args.length)
    for (const i of sizes) {
      const v = args[i]
      if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) throw fail.size(i, v)
    }
    for (const t of tensors) {
      let count = 1
      for (const d of t.dims) count *= d >= 0 ? d : (args[~d] as number)
      if (count > MAX_ELEMENTS) throw fail.overflow(t, args, count)
      const a = args[t.index]
      if (tagOf.call(a) !== t.arrayType) throw fail.type(t, args, count, a)
      const length = lengthOf.call(a) as number
      if (length !== count) throw fail.length(t, args, count, length)
    }
    for (const t of temps) {
      let count = 1
      for (const d of t.dims) count *= d >= 0 ? d : (args[~d] as number)
      if (count > MAX_ELEMENTS) throw fail.tempOverflow(t.temp, args, count)
    }
    for (const o of outputs) {
      for (const t of tensors) {
        if (t !== o && overlaps(args[o.index], args[t.index])) throw fail.alias(o.param.name, t.param.name)
      }
    }
  }
}

function checksOf(abi: KernelAbi) {
  const sizeIndex = new Map(abi.params.flatMap((p, i) => (p.kind === 'size' ? [[p.name, i] as const] : [])))
  const tensors: TensorCheck[] = abi.params.flatMap((param, index) =>
    param.kind === 'tensor'
      ? [{ index, param, arrayType: ARRAY_TYPE[param.dtype], dims: param.shape.map((d) => dimCode(abi, sizeIndex, d)) }]
      : [])
  return { sizeIndex, tensors, fail: failures(abi, sizeIndex, tensors) }
}

function dimCode(abi: KernelAbi, sizeIndex: ReadonlyMap<string, number>, d: string | number): number {
  if (typeof d === 'number') return d
  const i = sizeIndex.get(d)
  if (i === undefined) throw new Error(`polykern: kernel ${abi.name}'s ABI names size '${d}' but has no such parameter`)
  return ~i
}

/**
 * %TypedArray%.prototype's own getters read a typed array's internal slots: unlike `a.length` or
 * `a[Symbol.toStringTag]` they cannot be shadowed by a property of the array, and they work on arrays from another
 * realm (vm, worker data), unlike `instanceof`. The native side sees the same slots.
 */
const typedArrayPrototype = Object.getPrototypeOf(Int8Array.prototype) as object
const slot = (key: PropertyKey) => Object.getOwnPropertyDescriptor(typedArrayPrototype, key)!.get!
const [tagOf, lengthOf, bufferOf, byteOffsetOf, byteLengthOf] =
  [Symbol.toStringTag, 'length', 'buffer', 'byteOffset', 'byteLength'].map(slot) as ((this: unknown) => unknown)[]

/** The typed array kind of `v` ('Float32Array', ...), read from its internal slot as the checks do; else undefined. */
export const typedArrayKind = (v: unknown): string | undefined => tagOf.call(v) as string | undefined

/**
 * Whether output `a` shares a byte with `b` (typed arrays, checked before). Two views of one buffer overlap when their
 * byte ranges do. Two distinct buffers are two memories, except SharedArrayBuffers: one posted to a MessagePort or
 * structuredClone'd, or a WebAssembly shared memory's buffer after it grew, is a new object over the same memory
 * from the same start (a SharedArrayBuffer cannot be sliced without copying), so overlapping byte ranges there are
 * one memory or two, and `sameMemory` tells which. Ordinary ArrayBuffers pay one isSharedArrayBuffer call.
 */
function overlaps(a: unknown, b: unknown): boolean {
  const [x, y] = [byteOffsetOf.call(a) as number, byteOffsetOf.call(b) as number]
  const [m, n] = [byteLengthOf.call(a) as number, byteLengthOf.call(b) as number]
  if (!(m > 0 && n > 0 && x < y + n && y < x + m)) return false
  const [p, q] = [bufferOf.call(a), bufferOf.call(b)]
  return p === q || (types.isSharedArrayBuffer(p) && types.isSharedArrayBuffer(q) && sameMemory(p, q, Math.max(x, y)))
}

/**
 * Whether SharedArrayBuffers `p` and `q` are one memory, seen at byte `at` (inside the output's range in `p`, and
 * inside `q`): flips a bit of that byte through `p` and looks through `q`, then flips it back unless something else
 * wrote it meanwhile. The byte is the output's, which the call is about to write: only another thread writing it
 * in that instant (a race the caller already has) could change the answer, and the native path's C compares
 * addresses anyway.
 */
function sameMemory(p: SharedArrayBuffer, q: SharedArrayBuffer, at: number): boolean {
  const [mine, theirs] = [new Uint8Array(p), new Uint8Array(q)]
  const before = Atomics.load(theirs, at)
  const old = Atomics.xor(mine, at, 1)
  const seen = Atomics.load(theirs, at)
  Atomics.compareExchange(mine, at, old ^ 1, old)
  return seen === (before ^ 1) && Atomics.load(theirs, at) === before
}

/** The error constructors of one kernel: message building is the slow path, so none of it runs on a valid call. */
function failures(abi: KernelAbi, sizeIndex: ReadonlyMap<string, number>, tensors: readonly TensorCheck[]) {
  const at = ` (at ${abi.loc})`
  const fn = `${abi.name}()`
  const names = abi.params.map((p) => p.name)
  const shapeOf = (t: TensorCheck | { readonly param: AbiTemp }, args: ArrayLike<unknown>) => {
    const symbols = [...new Set(t.param.shape.filter((d): d is string => typeof d === 'string'))]
    const values = symbols.map((s) => `${s}=${args[sizeIndex.get(s)!] as number}`)
    return `${t.param.dtype}[${t.param.shape.join(', ')}]${values.length ? ` with ${values.join(', ')}` : ''}`
  }
  const expected = (t: TensorCheck, args: ArrayLike<unknown>, count: number) =>
    `argument '${t.param.name}' must be ${article(t.arrayType)} ${t.arrayType} of ${elements(count)} (${shapeOf(t, args)})`
  return {
    count: (got: number) =>
      new KernelTypeError('runtime_arg_count',
        `${fn}: expected ${names.length} arguments (${names.join(', ')}) but got ${got}${at}`, abi.name),
    size: (i: number, v: unknown) => {
      const name = names[i]
      const users = tensors.filter((t) => t.param.shape.includes(name)).map((t) => t.param.name)
      const message = `${fn}: argument '${name}' must be a non-negative safe integer` +
        `${users.length ? ` (a size of ${users.join(', ')})` : ''} but got ${describe(v)}${at}`
      return typeof v === 'number'
        ? new KernelRangeError('runtime_size_invalid', message, abi.name, name)
        : new KernelTypeError('runtime_size_invalid', message, abi.name, name)
    },
    overflow: (t: TensorCheck, args: ArrayLike<unknown>, count: number) =>
      new KernelRangeError('runtime_size_overflow',
        `${fn}: argument '${t.param.name}' would have ${count} elements (${shapeOf(t, args)}), ` +
          `more than the ${MAX_ELEMENTS} a kernel supports${at}`, abi.name, t.param.name),
    type: (t: TensorCheck, args: ArrayLike<unknown>, count: number, v: unknown) =>
      new KernelTypeError('runtime_arg_type', `${fn}: ${expected(t, args, count)} but got ${describe(v)}${at}`,
        abi.name, t.param.name),
    length: (t: TensorCheck, args: ArrayLike<unknown>, count: number, length: number) =>
      new KernelRangeError('runtime_arg_length',
        `${fn}: ${expected(t, args, count)} but got ${article(t.arrayType)} ${t.arrayType} of ${elements(length)}${at}`,
        abi.name, t.param.name),
    /** Named after the first size of its shape: the argument to make smaller. */
    tempOverflow: (temp: AbiTemp, args: ArrayLike<unknown>, count: number) => {
      const size = temp.shape.find((d): d is string => typeof d === 'string')
      return new KernelRangeError('runtime_size_overflow',
        `${fn}: its temporary '${temp.name}' would have ${count} elements (${shapeOf({ param: temp }, args)}), ` +
          `more than the ${MAX_ELEMENTS} a kernel supports${size ? `: make '${size}' smaller` : ''}${at}`, abi.name, size)
    },
    alias: (output: string, other: string) =>
      new KernelRangeError('runtime_alias',
        `${fn}: output '${output}' shares memory with argument '${other}'; pass arrays that do not overlap${at}`,
        abi.name, output),
    detached: (name: string) =>
      new KernelTypeError('runtime_arg_detached',
        `${fn}: argument '${name}' lost its memory during its async call (its ArrayBuffer was transferred, detached ` +
          `or resized), so no output was written${at}`, abi.name, name),
    /** An error of the addon's C in the shape of the JS checks' (its message without the `polykern: kernel` prefix). */
    fromC: (code: KernelErrorCode, e: Error, argument: string | undefined) => {
      const message = `${fn}: ${e.message.replace(/^polykern: kernel '[^']*':? /, '')}${at}`
      return e instanceof TypeError
        ? new KernelTypeError(code, message, abi.name, argument)
        : new KernelRangeError(code, message, abi.name, argument)
    },
  }
}

/**
 * The error a kernel call's failure reaches the caller as, on both paths: running out of memory is one error
 * (`outOfMemory`); a `runtime_*` TypeError or RangeError of the addon's C becomes the KernelTypeError or
 * KernelRangeError the JS checks throw, named from the `argument` (and `other`) the C attaches. Wherever the C refuses
 * a call the JS checks would refuse too, those run first (`.async`) or explain the refusal (a sync native call), so
 * the C's errors come through only for what JS cannot see: an argument detached during `.async`, an overlap of
 * memory shared by means the validator does not know. Anything else (a JS loop's own error, a Node-API failure)
 * comes back as it is.
 */
export function kernelFailure(abi: KernelAbi): (e: unknown) => unknown {
  const { fail } = checksOf(abi)
  return (e) => {
    if (e instanceof KernelTypeError || e instanceof KernelRangeError) return e
    const oom = outOfMemory(abi, e)
    if (oom) return oom
    if (!(e instanceof TypeError || e instanceof RangeError)) return e
    const { code, argument, other } = e as Error & { code?: unknown; argument?: unknown; other?: unknown }
    if (!KERNEL_ERROR_CODES.includes(code as KernelErrorCode)) return e
    const name = typeof argument === 'string' ? argument : undefined
    if (code === 'runtime_alias' && name !== undefined && typeof other === 'string') return fail.alias(name, other)
    if (code === 'runtime_arg_detached' && name !== undefined) return fail.detached(name)
    return fail.fromC(code as KernelErrorCode, e, name)
  }
}

/**
 * An allocation failure while a kernel runs (its temporaries), from C (`runtime_out_of_memory`) or from V8 (the JS
 * loops' typed arrays), as one error, the same on both paths, or of the copies a native `.async` call makes; anything
 * else comes back undefined.
 */
export function outOfMemory(abi: KernelAbi, e: unknown): KernelRangeError | undefined {
  const native = (e as { code?: unknown } | null)?.code === 'runtime_out_of_memory'
  const js = e instanceof RangeError && /^(Array buffer allocation failed|Invalid typed array length)/.test(e.message)
  if (!native && !js) return undefined
  if (native && /copying its arrays/.test((e as Error).message)) {
    // Only a native `.async` call copies: arrays on ordinary ArrayBuffers, which the caller could detach meanwhile.
    return new KernelRangeError('runtime_out_of_memory',
      `${abi.name}(): not enough memory to copy its arrays for the async call (arrays on a SharedArrayBuffer are ` +
        `used in place, without a copy) (at ${abi.loc})`, abi.name)
  }
  const temps = (abi.temps ?? []).map((t) => `'${t.name}'`).join(', ')
  return new KernelRangeError('runtime_out_of_memory',
    `${abi.name}(): not enough memory for its temporaries${temps ? ` (${temps})` : ''} (at ${abi.loc})`, abi.name)
}

const elements = (n: number) => `${n} element${n === 1 ? '' : 's'}`
// 'a Uint8Array' (you-int), 'an Int32Array', 'an Object'
const article = (word: string) => (/^[AEIO]/i.test(word) ? 'an' : 'a')

/** `v` as an error message names it: `a Float64Array`, `the string "x"`, `undefined`. */
export function describe(v: unknown): string {
  if (v === null || v === undefined) return String(v)
  if (typeof v === 'number') return String(v)
  if (typeof v === 'string') return `the string ${JSON.stringify(v.length > 20 ? `${v.slice(0, 20)}…` : v)}`
  if (typeof v === 'bigint') return `the bigint ${v}n`
  if (typeof v !== 'object') return `${article(typeof v)} ${typeof v}`
  if (Array.isArray(v)) return `an Array of ${elements(v.length)}`
  const type = (tagOf.call(v) as string | undefined) ?? (ArrayBuffer.isView(v) ? 'DataView' : v.constructor?.name)
  return type ? `${article(type)} ${type}` : 'an object'
}
