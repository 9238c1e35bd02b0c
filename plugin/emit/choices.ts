/**
 * A kernel's size choices (nodes.ts SizeChoice), made on entry to a call in C and in JS alike: each candidate's cost
 * polynomial in doubles, in polynomial.ts valueOf's order, and the first least one wins, so the addon, the JS
 * fallback and the interpreter run the same candidate.
 */
import type { Kernel, Monomial } from '../ir/nodes.ts'
import type { Names } from './names.ts'

/** `int64_t s0_path = 0; { double pk_least = ..., pk_cost; if ((pk_cost = ...) < pk_least) ... }`, one per choice. */
export function choiceLines(kernel: Kernel, names: Names, lang: 'c' | 'js'): string[] {
  const [int, double, coeff] = lang === 'c' ? ['int64_t', 'double', (c: number) => `(double)${c}`] : ['let', 'let', String]
  const cost = (p: readonly Monomial[]) => ['0', ...p.map(([c, ...vars]) => [coeff(c), ...vars.map(names.of)].join(' * '))].join(' + ')
  return (kernel.choices ?? []).flatMap((choice) => {
    const name = names.of(choice.name)
    return [
      `  ${int} ${name} = 0;`,
      '  {',
      `    ${double} pk_least = ${cost(choice.costs[0])}, pk_cost;`,
      ...choice.costs.slice(1).map((p, k) => `    if ((pk_cost = ${cost(p)}) < pk_least) pk_least = pk_cost, ${name} = ${k + 1};`),
      '  }',
    ]
  })
}

/** The choice and candidate whose temporary `tensor` is, or undefined when every call needs it. */
export function candidateOf(kernel: Kernel, tensor: string): { readonly choice: string; readonly k: number } | undefined {
  for (const c of kernel.choices ?? []) {
    const k = c.temps.findIndex((list) => list.includes(tensor))
    if (k >= 0) return { choice: c.name, k }
  }
  return undefined
}
