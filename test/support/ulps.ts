/**
 * How far native transcendentals may be from the JS fallback's (Math.* in double, rounded once to the element type),
 * in units in the last place. Measured worst cases: the ISA headers' vector math on 300,000 f32 / 150,000 f64 inputs
 * per function (test/native/vmath.test.ts), f32 exp, log and tanh 1 ulp, sigmoid 2, f64 all four 2; the extreme-value
 * fuzz (every ISA, so glibc's expf, logf, tanhf, powf and the scalar sigmoid too) 1 ulp for every function. The
 * bounds keep an ulp of margin over those.
 */
export const MAX_ULPS = {
  exp: { f32: 2, f64: 3 },
  log: { f32: 2, f64: 3 },
  tanh: { f32: 2, f64: 3 },
  sigmoid: { f32: 3, f64: 4 },
  pow: { f32: 2, f64: 3 },
} as const

export type Transcendental = keyof typeof MAX_ULPS

/** Distance in representable values of `dtype` (0 for two NaNs, Infinity for one; +0 and -0 are the same). */
export function ulps(a: number, b: number, dtype: 'f32' | 'f64'): number {
  if (Number.isNaN(a) || Number.isNaN(b)) return Number.isNaN(a) && Number.isNaN(b) ? 0 : Infinity
  if (dtype === 'f32') {
    const i = new Int32Array(new Float32Array([a, b]).buffer)
    const ordered = (x: number) => (x < 0 ? -2147483648 - x : x)
    return Math.abs(ordered(i[0]) - ordered(i[1]))
  }
  const i = new BigInt64Array(new Float64Array([a, b]).buffer)
  const ordered = (x: bigint) => (x < 0n ? -(2n ** 63n) - x : x)
  const d = ordered(i[0]) - ordered(i[1])
  return Number(d < 0n ? -d : d)
}

/** Bit for bit, any NaN equal to any NaN (payload and sign are not compared): the first differing index, or -1. */
export const firstDifference = (want: ArrayLike<number>, got: ArrayLike<number>): number =>
  Array.from(want).findIndex((w, n) => !Object.is(w, got[n]) && !(Number.isNaN(w) && Number.isNaN(got[n])))
