/**
 * Kernels compiled by the whole pipeline (lowerSpec) for the native differential tests, with what they are checked
 * against: the IR straight from the spec (the interpreter's reference) and the emitted JS. Their addon:
 * testAddonSource(kernels.map((k) => k.ir), moduleId).
 */
import { abiOf } from '../../plugin/abi.ts'
import { emitJs } from '../../plugin/emit/js.ts'
import { buildKernel } from '../../plugin/spec/build-ir.ts'
import { expect } from 'vitest'
import { interpret } from '../../plugin/ir/interp.ts'
import type { Contraction, Kernel } from '../../plugin/ir/nodes.ts'
import { walkStmts } from '../../plugin/ir/walk.ts'
import { lowerSpec } from '../../plugin/pipeline.ts'
import type { Target } from '../../plugin/targets/target.ts'
import type { KernelAbi } from '../../runtime/abi.ts'
import { paramsOf } from './contractions.ts'
import { specOf } from './examples.ts'
import { copyArgs, makeArgs } from './kernel-args.ts'
import { maxRelErr, tolerance, type TensorArray } from './random.ts'
import { onEveryIsaAndThreads, type TestAddon } from './test-addon.ts'

export interface PipelineKernel {
  readonly name: string
  /** The block form straight from the spec, before any pass. */
  readonly reference: Kernel
  /** What the pipeline lowered it to, renamed `name`. */
  readonly ir: Kernel
  readonly js: (...args: unknown[]) => unknown
  readonly abi: KernelAbi
}

/** `text` through the whole pipeline, for this machine or `target` (a smaller cache, say). */
export const pipelineKernel = ({ name, text, target }: { readonly name: string; readonly text: string; readonly target?: Target }): PipelineKernel => {
  const spec = specOf(text, paramsOf(text))
  const { ir } = lowerSpec(spec, undefined, target === undefined ? undefined : { target })
  const js = new Function(`'use strict'; return ${emitJs(ir)}`)() as PipelineKernel['js']
  return { name, reference: buildKernel(spec), ir: { ...ir, name }, js, abi: { ...abiOf(spec, 'test'), name } }
}

/** The first contraction of `k`'s body, at any depth. */
export function contractionOf(k: Kernel): Contraction | undefined {
  let found: Contraction | undefined
  walkStmts(k.body, (s) => void (s.kind === 'contraction' && (found ??= s)))
  return found
}

/**
 * `k` at the given sizes on random arguments: its tensor `output` from the emitted JS and from `addon` at every ISA
 * and at 1 and 2 threads, each within `tolerance` of the interpreter on the spec's own IR.
 */
export function expectAgreesEverywhere(
  k: PipelineKernel, addon: TestAddon, sizes: ReadonlyMap<string, number>, next: () => number, output: string,
  reductionLength: number,
): void {
  const args = makeArgs(k.abi, sizes, next)
  const want = copyArgs(args)
  interpret(k.reference, want)
  const out = k.reference.params.findIndex((p) => p.name === output)
  const dtype = k.reference.tensors.find((t) => t.name === output)!.dtype
  const shown = [...sizes].map(([s, v]) => `${s}=${v}`).join(' ')
  const check = (got: unknown[], where: string) =>
    expect(maxRelErr(got[out] as TensorArray, want[out] as TensorArray), `${k.name} ${shown} ${where}`)
      .toBeLessThanOrEqual(tolerance(dtype, Math.max(1, reductionLength)))
  runEverywhere(k, addon, args, check)
}

/** A copy of `args` through `k`'s emitted JS, and one through `addon` at every ISA and at 1 and 2 threads, each to `check`. */
export function runEverywhere(
  k: PipelineKernel, addon: TestAddon, args: readonly unknown[], check: (got: unknown[], where: string) => void,
): void {
  const viaJs = copyArgs(args)
  k.js(...viaJs)
  check(viaJs, 'JS')
  onEveryIsaAndThreads(addon, (isa, threads) => {
    const got = copyArgs(args)
    ;(addon[k.name] as (...a: unknown[]) => unknown)(...got)
    check(got, `${isa}, ${threads} thread(s)`)
  })
}
