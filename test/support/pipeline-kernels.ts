/**
 * Kernels compiled by the whole pipeline (lowerSpec) for the native differential tests, with what they are checked
 * against: the IR straight from the spec (the interpreter's reference) and the emitted JS. Their addon:
 * testAddonSource(kernels.map((k) => k.ir), moduleId).
 */
import { abiOf } from '../../plugin/abi.ts'
import { emitJs } from '../../plugin/emit/js.ts'
import { buildKernel } from '../../plugin/spec/build-ir.ts'
import type { Kernel } from '../../plugin/ir/nodes.ts'
import { lowerSpec } from '../../plugin/pipeline.ts'
import type { KernelAbi } from '../../runtime/abi.ts'
import { paramsOf } from './contractions.ts'
import { specOf } from './examples.ts'

export interface PipelineKernel {
  readonly name: string
  /** The block form straight from the spec, before any pass. */
  readonly reference: Kernel
  /** What the pipeline lowered it to, renamed `name`. */
  readonly ir: Kernel
  readonly js: (...args: unknown[]) => unknown
  readonly abi: KernelAbi
}

export const pipelineKernel = ({ name, text }: { readonly name: string; readonly text: string }): PipelineKernel => {
  const spec = specOf(text, paramsOf(text))
  const { ir } = lowerSpec(spec)
  const js = new Function(`'use strict'; return ${emitJs(ir)}`)() as PipelineKernel['js']
  return { name, reference: buildKernel(spec), ir: { ...ir, name }, js, abi: { ...abiOf(spec, 'test'), name } }
}
