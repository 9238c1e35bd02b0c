/**
 * One compiled kernel's part of the build report: where it is, its spec and loops, the model's view of each of its
 * contractions (contraction-report.ts), how it ran natively here and what it measured (measure-kernel.ts).
 */
import type { CompiledKernel } from '../compiled-kernel.ts'
import { format } from '../ir/affine.ts'
import type { Kernel, Stmt } from '../ir/nodes.ts'
import { printBound } from '../ir/print.ts'
import { walkStmts } from '../ir/walk.ts'
import { contractionReport, contractionsOf, type ModelContext } from './contraction-report.ts'
import type { ContractionReport, KernelReport, Measurement, NativeReport, RooflinePoint, WarningReport } from './report-types.ts'

export interface KernelReportInput {
  readonly compiled: CompiledKernel
  readonly module: string
  /** ISAs the addon holds versions for, best first. */
  readonly isas: readonly string[]
  readonly native: NativeReport
  readonly warnings: readonly WarningReport[]
  readonly measurements: readonly Measurement[]
}

export function kernelReport(input: KernelReportInput, ctx: ModelContext): KernelReport {
  const { compiled } = input
  const contractions = contractionsOf(compiled.ir).map((c) => contractionReport(c, ctx))
  return {
    name: compiled.site.name,
    module: input.module,
    location: compiled.abi.loc,
    spec: compiled.site.specText.split('\n').map((l) => l.trim()).filter((l) => l !== '').join('\n'),
    tensors: compiled.ir.tensors.map((t) => ({ name: t.name, dtype: t.dtype, shape: t.shape.map(format), role: t.role })),
    isas: input.isas,
    native: input.native,
    warnings: input.warnings,
    loops: loopLines(compiled.ir),
    contractions,
    measurements: input.measurements,
    point: pointOf(contractions, input.measurements, ctx.isa),
  }
}

/** One line per loop, contraction and convolution of the lowered IR, indented by nesting; their bodies left out. */
export function loopLines(ir: Kernel): string[] {
  const lines: string[] = []
  const opaque = (s: Stmt) => s.kind === 'contraction' || s.kind === 'convolution'
  walkStmts(ir.body, (s, parents) => {
    if (parents.some(opaque)) return
    const pad = '  '.repeat(parents.filter((p) => p.kind === 'loop').length)
    if (s.kind === 'loop') lines.push(`${pad}for ${s.v} in [${printBound(s.lo)}, ${printBound(s.hi)}) ${s.mode}`)
    else if (s.kind === 'contraction') lines.push(`${pad}${s.id}: blocked GEMM ${s.roles.c.tensor} += ${s.roles.a.tensor} · ${s.roles.b.tensor}`)
    else if (opaque(s)) lines.push(`${pad}${(s as { id?: string }).id ?? ''}: ${s.kind}`)
  })
  return lines
}

/**
 * The kernel on the roofline: the default class of its first contraction (the last measurement of the class ladder
 * is the largest), measured when timed, else predicted; a kernel without contractions at its uniform timing.
 */
function pointOf(contractions: readonly ContractionReport[], measurements: readonly Measurement[], isa: string): RooflinePoint | undefined {
  const here = contractions[0]?.schedules.find((s) => s.isa === isa)?.classes.at(-1)
  const timed = measurements.find((m) => m.label === (here?.shapeClass ?? 'uniform') && m.gflops !== undefined)
  if (timed) return { label: timed.label, intensity: timed.intensity, gflops: timed.gflops!, source: 'measured' }
  if (here) {
    const unmeasured = measurements.find((m) => m.label === here.shapeClass)?.skipped ?? 'not timed'
    return { label: here.shapeClass, intensity: here.intensity, gflops: here.predicted.gflops, source: 'predicted', unmeasured }
  }
  const any = measurements.find((m) => m.gflops !== undefined)
  return any ? { label: any.label, intensity: any.intensity, gflops: any.gflops!, source: 'measured' } : undefined
}
