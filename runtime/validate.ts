import { ARRAY_TYPE } from './abi.ts'
import type { AbiParam, KernelAbi } from './abi.ts'
import { KernelRangeError, KernelTypeError } from './errors.ts'

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
 * then overlaps between an output and any other tensor.
 */
export function validatorFor(abi: KernelAbi): (args: ArrayLike<unknown>) => void {
  const sizeIndex = new Map(abi.params.flatMap((p, i) => (p.kind === 'size' ? [[p.name, i] as const] : [])))
  const sizes = [...sizeIndex.values()]
  const tensors: TensorCheck[] = abi.params.flatMap((param, index) =>
    param.kind === 'tensor'
      ? [{ index, param, arrayType: ARRAY_TYPE[param.dtype], dims: param.shape.map((d) => dimCode(abi, sizeIndex, d)) }]
      : [])
  const outputs = tensors.filter((t) => t.param.role !== 'in')
  const fail = failures(abi, sizeIndex, tensors)

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
      if (!isArrayOfType(a, t.arrayType)) throw fail.type(t, args, count, a)
      if (a.length !== count) throw fail.length(t, args, count, a)
    }
    for (const o of outputs) {
      for (const t of tensors) {
        if (t !== o && overlaps(args[o.index] as ArrayBufferView, args[t.index] as ArrayBufferView)) throw fail.alias(o, t)
      }
    }
  }
}

function dimCode(abi: KernelAbi, sizeIndex: ReadonlyMap<string, number>, d: string | number): number {
  if (typeof d === 'number') return d
  const i = sizeIndex.get(d)
  if (i === undefined) throw new Error(`polykern: kernel ${abi.name}'s ABI names size '${d}' but has no such parameter`)
  return ~i
}

/** By tag rather than `instanceof`, so arrays from another realm (vm, worker data) pass too. */
function isArrayOfType(v: unknown, arrayType: string): v is ArrayLike<number> & ArrayBufferView {
  return ArrayBuffer.isView(v) && (v as unknown as Record<symbol, unknown>)[Symbol.toStringTag] === arrayType
}

function overlaps(a: ArrayBufferView, b: ArrayBufferView): boolean {
  return a.buffer === b.buffer && a.byteLength > 0 && b.byteLength > 0 &&
    a.byteOffset < b.byteOffset + b.byteLength && b.byteOffset < a.byteOffset + a.byteLength
}

/** The error constructors of one kernel: message building is the slow path, so none of it runs on a valid call. */
function failures(abi: KernelAbi, sizeIndex: ReadonlyMap<string, number>, tensors: readonly TensorCheck[]) {
  const at = ` (at ${abi.loc})`
  const fn = `${abi.name}()`
  const names = abi.params.map((p) => p.name)
  const shapeOf = (t: TensorCheck, args: ArrayLike<unknown>) => {
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
    length: (t: TensorCheck, args: ArrayLike<unknown>, count: number, v: ArrayLike<number>) =>
      new KernelRangeError('runtime_arg_length',
        `${fn}: ${expected(t, args, count)} but got ${article(t.arrayType)} ${t.arrayType} of ${elements(v.length)}${at}`,
        abi.name, t.param.name),
    alias: (o: TensorCheck, t: TensorCheck) =>
      new KernelRangeError('runtime_alias',
        `${fn}: output '${o.param.name}' shares memory with argument '${t.param.name}'; ` +
          `pass arrays that do not overlap${at}`, abi.name, o.param.name),
  }
}

const elements = (n: number) => `${n} element${n === 1 ? '' : 's'}`
// 'a Uint8Array' (you-int), 'an Int32Array', 'an Object'
const article = (word: string) => (/^[AEIO]/i.test(word) ? 'an' : 'a')

function describe(v: unknown): string {
  if (v === null || v === undefined) return String(v)
  if (typeof v === 'number') return String(v)
  if (typeof v === 'string') return `the string ${JSON.stringify(v.length > 20 ? `${v.slice(0, 20)}…` : v)}`
  if (typeof v === 'bigint') return `the bigint ${v}n`
  if (typeof v !== 'object') return `${article(typeof v)} ${typeof v}`
  if (Array.isArray(v)) return `an Array of ${elements(v.length)}`
  const type = ArrayBuffer.isView(v) ? (v as unknown as Record<symbol, string>)[Symbol.toStringTag] : v.constructor?.name
  return type ? `${article(type)} ${type}` : 'an object'
}
