/**
 * The `report` option: the modules a build compiled, gathered as the bundler transforms them, then one report for
 * the whole build written beside the bundle (`polykern-report.json` and the self-contained `polykern-report.html`).
 * The timings run at the end, when every addon exists, so they do not slow the transforms down.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { addonIsas } from '../emit/napi.ts'
import type { ResolvedOptions } from '../options.ts'
import type { CompiledModule } from '../pipeline.ts'
import { FMA_UNITS } from '../schedule/gemm-model.ts'
import { ISAS } from '../targets/index.ts'
import { contractionsOf, modelContextFor } from './contraction-report.ts'
import { kernelReport } from './kernel-report.ts'
import { rooflineOf } from './machine-peak.ts'
import { loadBuiltAddon, type BuiltAddon } from '../measure/load-built.ts'
import { MEASURE_BUDGET_MS, measureKernel } from './measure-kernel.ts'
import type { BuildReport, KernelReport, NativeReport, WarningReport } from './report-types.ts'
import { lineColumn, type KernelDiagnostic } from '../diagnostics.ts'
import { renderReportHtml } from './report-html.ts'

export const REPORT_JSON = 'polykern-report.json'
export const REPORT_HTML = 'polykern-report.html'

export interface ReportedModule {
  /** From the project root. */
  readonly moduleId: string
  readonly compiled: CompiledModule
  /** The module's source as compiled: its warnings' line and column are counted in it. */
  readonly source?: string
}

/** Assembles the report: loads each module's addon, times its kernels, runs the model on their contractions. */
export function buildReport(modules: readonly ReportedModule[], opts: ResolvedOptions): BuildReport {
  const isas = addonIsas().map((i) => i.name)
  const loaded = new Map<string, BuiltAddon | Error>()
  const addonOf = (compiled: CompiledModule) => {
    const { path: file, identity } = compiled.addon!
    if (!loaded.has(file)) {
      try {
        loaded.set(file, loadBuiltAddon(file, identity, compiled.kernels.map((k) => k.abi.name)))
      } catch (e) {
        loaded.set(file, e as Error)
      }
    }
    return loaded.get(file)!
  }
  const firstLoaded = modules
    .flatMap((m) => (m.compiled.addon ? [addonOf(m.compiled)] : []))
    .find((a): a is BuiltAddon => !(a instanceof Error))
  // Without an addon that loads, the version one would pick here.
  const ctx = modelContextFor(opts, firstLoaded?.meta.isa)
  const { machine, threads, isa } = ctx
  const { clock } = machine
  const lanes = ISAS.find((i) => i.name === isa)?.microkernels.find((m) => m.dtype === 'f32')?.lanes ?? 1
  const kernels: KernelReport[] = modules.flatMap(({ moduleId, compiled, source }) =>
    compiled.kernels.map((k) => {
      const addon = compiled.addon ? addonOf(compiled) : undefined
      const native = nativeOf(compiled, addon, k.abi.jsBelow, opts)
      const measurements = addon && !(addon instanceof Error) ? measureKernel(k.abi, k.ir, contractionsOf(k.ir), addon, ctx) : []
      const warnings = compiled.warnings.filter((w) => w.kernel === k.site.name).map((w) => warningReport(w, moduleId, source))
      return kernelReport({ compiled: k, module: moduleId, isas, native, warnings, measurements }, ctx)
    }),
  )
  return {
    version: 1,
    generated: new Date().toISOString(),
    machine: {
      cpu: machine.model,
      cores: machine.cores,
      caches: machine.caches.map(({ level, bytes, sharedBy }) => ({ level, bytes, sharedBy })),
      memoryBytesPerCycle: machine.memory.bandwidth,
      source: machine.source,
      isa,
    },
    roofline: rooflineOf(machine, threads, lanes),
    assumptions: [
      `Predicted GFLOP/s are the schedule model's cycles of the busiest thread at ${clock.ghz.toFixed(2)} GHz ` +
        `(${clock.source === 'assumed' ? 'assumed: no clock could be read' : `read from ${clock.source}`}); turbo and AVX-512 frequency licences move the real clock.`,
      `Peak: ${threads} threads × ${FMA_UNITS} FMA units × ${lanes} f32 lanes (${isa}) × 2 FLOP per cycle; memory: ${threads} × ` +
        `${machine.memory.bandwidth} B/cycle per core (the model's table, not measured).`,
      'FLOPs are twice the loop iterations: exact for a contraction (a multiply and an add each), a convention for other kernels.',
      `Measured: the native kernel on this machine, fastest of up to 3 calls after a warm-up, within ${MEASURE_BUDGET_MS} ms per kernel; ` +
        'classes whose tensors exceed 2^22 elements or the budget are listed as skipped.',
      'Arithmetic intensity: FLOPs per byte of every tensor moved once.',
    ],
    kernels,
  }
}

function nativeOf(compiled: CompiledModule, addon: BuiltAddon | Error | undefined, jsBelow: number | undefined, opts: ResolvedOptions): NativeReport {
  if (!opts.native) return { built: false, reason: 'native: false (JS loops only)' }
  const failed = compiled.warnings.find((w) => w.code === 'native_build_failed')
  if (!compiled.addon) return { built: false, reason: failed?.message.split('\n')[0] ?? 'no addon was built' }
  if (addon instanceof Error || addon === undefined) return { built: false, reason: `the addon does not load here: ${addon?.message}` }
  return { built: true, isa: addon.meta.isa, addon: compiled.addon.fileName, ...(jsBelow ? { jsBelow } : {}) }
}

function warningReport(d: KernelDiagnostic, moduleId: string, source: string | undefined): WarningReport {
  const at = d.span && source !== undefined ? lineColumn(source, d.span.start) : undefined
  return {
    code: d.code,
    ...(at ? { location: `${moduleId}:${at.line}:${at.column + 1}` } : {}),
    message: d.message,
    notes: d.notes.map((n) => n.text),
  }
}

/** Writes both files into `dir`; returns their paths. */
export async function writeReport(report: BuildReport, dir: string): Promise<{ json: string; html: string }> {
  await mkdir(dir, { recursive: true })
  const json = path.join(dir, REPORT_JSON)
  const html = path.join(dir, REPORT_HTML)
  await writeFile(json, JSON.stringify(report, null, 2) + '\n')
  await writeFile(html, renderReportHtml(report))
  return { json, html }
}
