/** What the x86 vector ISAs share: the predicates their compare instructions take, their system headers. */
import { named, type CompareOp } from './vector-ops.ts'

const PREDICATE: Readonly<Record<CompareOp, string>> = {
  lt: '_CMP_LT_OQ', le: '_CMP_LE_OQ', gt: '_CMP_GT_OQ', ge: '_CMP_GE_OQ', eq: '_CMP_EQ_OQ', ne: '_CMP_NEQ_UQ',
}

/** Every IR comparison through one compare intrinsic, `cmp(predicate)` a template over `$a $b`. */
export const x86Compares = (cmp: (predicate: string) => string): Readonly<Record<CompareOp, string>> =>
  named(Object.keys(PREDICATE) as CompareOp[], (op) => cmp(PREDICATE[op]))

/** VectorUnit.systemHeader of every x86 ISA: <immintrin.h> and the C library's headers, precompiled by the builder. */
export const X86_SYSTEM_HEADER = 'polykern_x86_system.h'
