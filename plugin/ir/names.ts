/** Names a pass may give new tensors, indices and loops without colliding with the kernel's own. */
import type { Kernel } from './nodes.ts'
import { walkStmts } from './walk.ts'

/** Every name the kernel already uses: sizes, tensors, parameters, size choices, block indices, loop variables. */
export function takenNames(kernel: Kernel): Set<string> {
  const taken = new Set<string>([
    ...kernel.sizes, ...kernel.tensors.map((t) => t.name), ...kernel.params.map((p) => p.name),
    ...choiceNames(kernel),
  ])
  walkStmts(kernel.body, (s) => {
    if (s.kind === 'block') s.indices.forEach((ix) => taken.add(ix.name))
    if (s.kind === 'loop') taken.add(s.v)
  })
  return taken
}

/** The names the kernel's size choices define: each choice's own and its flags'. */
export const choiceNames = (kernel: Kernel): string[] =>
  (kernel.choices ?? []).flatMap((c) => [c.name, ...(c.shared ?? []).map((f) => f.name)])

/** `want`, or `want2`, `want3`, ... whichever is first free; it is taken from then on. */
export function freshName(want: string, taken: Set<string>): string {
  let name = want
  for (let n = 2; taken.has(name); n++) name = `${want}${n}`
  taken.add(name)
  return name
}
