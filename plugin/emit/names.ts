/** Identifiers in emitted code: IR names kept where the target language allows, and fresh names that never clash. */
import { KernelInternalError } from '../diagnostics.ts'
import { choiceNames } from '../ir/names.ts'
import type { Kernel, Stmt } from '../ir/nodes.ts'

export interface Names {
  /** The target-language identifier of an IR name (tensor, size or loop index). */
  readonly of: (irName: string) => string
  /** A new identifier starting with `base`, distinct from every IR name, reserved word and earlier fresh name. */
  readonly fresh: (base: string) => string
}

const ASCII_IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/

/**
 * Maps every name of `kernel` to itself unless it is reserved in the target or not a plain ASCII identifier,
 * in which case it gets a fresh, still recognisable replacement (`int` → `int_`).
 */
export function kernelNames(kernel: Kernel, isReserved: (name: string) => boolean): Names {
  const irNames = new Set<string>([
    ...kernel.params.map((p) => p.name),
    ...kernel.tensors.map((t) => t.name),
    ...kernel.sizes,
    ...choiceNames(kernel),
    ...loopIndices(kernel.body),
  ])
  const taken = new Set<string>(irNames)
  const fresh = (requested: string): string => {
    // A reserved prefix (`pk_`, `napi_`, `_X`) stays on every numbered variant: step out of it first.
    let base = requested
    while (isReserved(`${base}2`)) base = `v${base}`
    let name = base
    for (let n = 2; taken.has(name) || isReserved(name); n++) name = `${base}${n}`
    taken.add(name)
    return name
  }
  const map = new Map<string, string>()
  for (const name of irNames) {
    const usable = ASCII_IDENT.test(name) && !isReserved(name)
    map.set(name, usable ? name : fresh(`${name.replace(/[^A-Za-z0-9_]/g, '_').replace(/^(?=[0-9])/, '_')}_`))
  }
  const of = (irName: string): string => {
    const name = map.get(irName)
    if (name === undefined) throw new KernelInternalError('emit', `'${irName}' is not a tensor, size or loop index`)
    return name
  }
  return { of, fresh }
}

function loopIndices(body: readonly Stmt[]): string[] {
  return body.flatMap((s) => {
    if (s.kind === 'loop') return [s.v, ...loopIndices(s.body)]
    return s.kind === 'if' || s.kind === 'block' || s.kind === 'contraction' || s.kind === 'convolution' ? loopIndices(s.body) : []
  })
}
