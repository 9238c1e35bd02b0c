/**
 * Whether statements have an explicit SIMD form (emit/c-vector.ts' loops, a GEMM's register epilogue), and in
 * what element type.
 */
import type { Store } from '../ir/nodes.ts'
import { walkExpr } from '../ir/walk.ts'

/** The float type every value of `stores` is of, when each has a vector form (no `%`, no `pow`); else undefined. */
export function vectorElementType(stores: readonly Store[]): 'f32' | 'f64' | undefined {
  const types = new Set<string>()
  let supported = true
  for (const s of stores) {
    walkExpr(s.value, (e) => {
      if (e.type !== 'bool') types.add(e.type)
      if (e.kind === 'binary' && (e.op === 'mod' || e.op === 'pow')) supported = false
    })
  }
  const [only] = types
  return types.size === 1 && (only === 'f32' || only === 'f64') && supported ? only : undefined
}
