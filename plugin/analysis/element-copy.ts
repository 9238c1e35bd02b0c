/**
 * Stores that copy one element unchanged: what a transposing nest's tiles run as register transposes
 * (emit/c-transpose.ts), and so what tile-transposes.ts tiles at any extent.
 */
import type { Access, DType, Store } from '../ir/nodes.ts'

/** The access `store` copies from (`X[...] = Y[...]`, both of one element type, Y not X), else undefined. */
export function copiedElement(store: Store, dtypeOf: (tensor: string) => DType): Access | undefined {
  const value = store.value
  if (store.op !== '=' || value.kind !== 'load' || value.zeroOutside || value.access.tensor === store.access.tensor) return undefined
  const dtype = dtypeOf(store.access.tensor)
  return dtypeOf(value.access.tensor) === dtype && value.type === dtype ? value.access : undefined
}
