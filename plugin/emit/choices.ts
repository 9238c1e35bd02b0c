/**
 * A kernel's size choices (nodes.ts SizeChoice), made on entry to a call in C and in JS alike: each candidate's cost
 * polynomial in doubles, in polynomial.ts valueOf's order, and the first least one wins, so the addon, the JS
 * fallback and the interpreter run the same candidate. Then each flag: whether that candidate is one of its list.
 */
import type { Kernel, Monomial } from '../ir/nodes.ts'
import type { Names } from './names.ts'

/** `int64_t s0_path = 0; { double pk_least = ..., pk_cost; if ((pk_cost = ...) < pk_least) ... }`, one per choice. */
export function choiceLines(kernel: Kernel, names: Names, lang: 'c' | 'js'): string[] {
  const [int, double, coeff] = lang === 'c' ? ['int64_t', 'double', (c: number) => `(double)${c}`] : ['let', 'let', String]
  const cost = (p: readonly Monomial[]) => ['0', ...p.map(([c, ...vars]) => [coeff(c), ...vars.map(names.of)].join(' * '))].join(' + ')
  return (kernel.choices ?? []).flatMap((choice) => {
    const name = names.of(choice.name)
    const flags = (choice.shared ?? []).map((f) => {
      const test = isOneOf(name, f.candidates, lang)
      return lang === 'c' ? `  const int64_t ${names.of(f.name)} = ${test};` : `  const ${names.of(f.name)} = ${test} ? 1 : 0;`
    })
    return [
      `  ${int} ${name} = 0;`,
      '  {',
      `    ${double} pk_least = ${cost(choice.costs[0])}, pk_cost;`,
      ...choice.costs.slice(1).map((p, k) => `    if ((pk_cost = ${cost(p)}) < pk_least) pk_least = pk_cost, ${name} = ${k + 1};`),
      '  }',
      ...flags,
    ]
  })
}

/**
 * The test that the temporary `tensor` is needed by this call, when only some candidates use it (`s0_path == 0 ||
 * s0_path == 3`); undefined when every call needs it.
 */
export function neededWhen(kernel: Kernel, tensor: string, names: Names, lang: 'c' | 'js'): string | undefined {
  for (const c of kernel.choices ?? []) {
    const users = c.temps.flatMap((list, k) => (list.includes(tensor) ? [k] : []))
    if (users.length > 0) return isOneOf(names.of(c.name), users, lang)
  }
  return undefined
}

const isOneOf = (name: string, candidates: readonly number[], lang: 'c' | 'js'): string => {
  const tests = candidates.map((k) => `${name} ${lang === 'c' ? '==' : '==='} ${k}`)
  return tests.length === 1 ? tests[0] : `(${tests.join(' || ')})`
}
