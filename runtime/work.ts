import type { KernelAbi } from './abi.ts'

/**
 * The work of a call from its arguments (the ABI's `work` monomials, each a few multiplications of size arguments),
 * or undefined when the ABI has no work formula. On arguments not yet validated it can return NaN, or throw where a
 * size is a symbol or a bigint.
 */
export function workOfCall(abi: KernelAbi): ((args: ArrayLike<unknown>) => number) | undefined {
  if (abi.work === undefined) return undefined
  const index = new Map(abi.params.map((p, i) => [p.name, i]))
  const monomials = abi.work.map(([coeff, ...sizes]) => {
    const at = sizes.map((s) => index.get(s))
    if (at.some((i) => i === undefined || abi.params[i].kind !== 'size')) {
      throw new Error(`polykern: kernel ${abi.name}'s work formula names a size it does not take: ${sizes.join(', ')}`)
    }
    return { coeff, at: at as number[] }
  })
  return (args) => {
    let work = 0
    for (const m of monomials) {
      let term = m.coeff
      for (const i of m.at) term *= args[i] as number
      work += term
    }
    return work
  }
}
