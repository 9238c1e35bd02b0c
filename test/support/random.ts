/** Seeded data for tests: the same seed gives the same shapes and values on every machine. */
import type { AbiDType } from '../../runtime/abi.ts'
import { seeded } from '../../plugin/verify/random-args.ts'

export type TensorArray = Float32Array | Float64Array | Int32Array

/** mulberry32 and its array fill, as `polykern verify` draws them: good enough to pick shapes and fill arrays. */
export { randomArray, seeded as rng } from '../../plugin/verify/random-args.ts'

/** A generator seeded by a name (a kernel's, a case's): each test draws its own numbers, the same on every run. */
export const rngOf = (name: string): (() => number) =>
  seeded([...name].reduce((h, ch) => (Math.imul(h, 33) + ch.charCodeAt(0)) | 0, 5) >>> 0)

/** Largest |a - b| relative to the larger magnitude (and to 1, so values near zero compare absolutely). */
export function maxRelErr(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let worst = 0
  for (let i = 0; i < a.length; i++) {
    if (Object.is(a[i], b[i]) || (a[i] === b[i])) continue
    if (Number.isNaN(a[i]) !== Number.isNaN(b[i])) return Infinity
    const err = Math.abs(a[i] - b[i]) / Math.max(1, Math.abs(a[i]), Math.abs(b[i]))
    worst = Math.max(worst, Number.isNaN(err) ? Infinity : err)
  }
  return worst
}

/** Tolerance by dtype, growing with the length of the longest reduction (fp error grows with it). */
export function tolerance(dtype: AbiDType, reductionLength: number): number {
  if (dtype === 'i32') return 0
  const eps = dtype === 'f32' ? 1.2e-7 : 2.3e-16
  return eps * 64 * Math.max(1, Math.sqrt(reductionLength)) * 8
}
