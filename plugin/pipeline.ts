/**
 * The compiler, phase by phase: read this file first. Each step is a pure function from one folder of plugin/;
 * `pass` verifies the IR after every step and prints it when POLYKERN_DEBUG includes `ir`.
 */
import path from 'node:path'
import type { KernelAbi } from '../runtime/abi.ts'
import { NATIVE_DISABLED } from '../runtime/load-addon.ts'
import { buildAddon } from './addon/build.ts'
import { calibrate, type Calibration } from './addon/calibrate.ts'
import { analyzeKernel } from './analysis/deps.ts'
import { KernelDiagnostic, lineColumn } from './diagnostics.ts'
import { emitJs } from './emit/js.ts'
import { addonIsas, emitAddonSource } from './emit/napi.ts'
import { findKernelSites } from './find/annotations.ts'
import type { KernelSite } from './find/site.ts'
import { buildKernel } from './ir/build.ts'
import type { Block, Kernel } from './ir/nodes.ts'
import { printKernel } from './ir/print.ts'
import { verifyKernel } from './ir/verify.ts'
import type { ResolvedOptions } from './options.ts'
import { nativeBuildFailed } from './messages.ts'
import { lowerBlocks } from './passes/lower-blocks.ts'
import { reorder } from './passes/reorder.ts'
import { substituteMicrokernels } from './passes/substitute-microkernel.ts'
import { ISAS } from './targets/index.ts'
import { readMachine } from './targets/machine.ts'
import { rewriteModule } from './rewrite/rewrite.ts'
import { abiOf } from './abi.ts'
import { parseSpec } from './spec/parser.ts'
import { checkSpec } from './spec/check.ts'

/** One annotated function, compiled: IR after all passes, JS loops, and its call signature. */
export interface CompiledKernel {
  readonly site: KernelSite
  readonly ir: Kernel
  readonly abi: KernelAbi
  /** `function (A, B, ...) { loops }`: the fallback, parameters in the function's order. */
  readonly js: string
}

/** A source file after polykern: the rewritten code, its source map, and the addon to emit beside the bundle. */
export interface CompiledModule {
  readonly code: string
  readonly map: import('magic-string').SourceMap
  readonly kernels: readonly CompiledKernel[]
  /** Present when the native build succeeded: emit the file at `path` as the asset `fileName`. */
  readonly addon?: { readonly fileName: string; readonly path: string; readonly cached: boolean }
  /** Non-fatal problems (a failed native build with `strict: false`), for `this.warn`. */
  readonly warnings: readonly KernelDiagnostic[]
}

/** Spec text → lowered IR and JS loops. Throws KernelDiagnostic for user errors. */
export function compileKernel(site: KernelSite, code: string, opts: ResolvedOptions): CompiledKernel {
  const spec = inKernel(site, () => checkSpec(parseSpec(site.specText, site.specStart, site.file), site))
  let ir = pass('build', buildKernel(spec))
  const blockForm = ir
  const facts = analyzeKernel(ir)
  ir = pass('reorder', reorder(ir))
  const debugMatch = process.env.POLYKERN_DEBUG?.split(',').includes('match')
  const log = debugMatch ? (m: string) => console.error(`[polykern] match: ${m}`) : undefined
  ir = pass('substitute-microkernel', substituteMicrokernels(ir, { isas: ISAS, machine: readMachine(), log }))
  const outermostParallel = (b: Block) => b.indices.find((ix) => facts.blocks.get(b.id)?.parallelIndices.includes(ix.name))?.name
  ir = pass('lower-blocks', lowerBlocks(ir, outermostParallel), { lowered: true })
  return { site, ir, abi: abiOf(spec, locationOf(site, code, opts), blockForm), js: emitJs(ir) }
}

/** Compiles every kernel of a file, builds their addon, and rewrites the file. Undefined when it has none. */
export async function compileModule(file: string, code: string, opts: ResolvedOptions): Promise<CompiledModule | undefined> {
  const sites = findKernelSites(file, code)
  if (sites.length === 0) return undefined
  let kernels = sites.map((site) => compileKernel(site, code, opts))
  const moduleId = path.relative(opts.root, file).split(path.sep).join('/')
  const warnings: KernelDiagnostic[] = []
  let addon: CompiledModule['addon']
  let nativeReason: string | undefined = NATIVE_DISABLED
  if (opts.native) {
    const source = emitAddonSource(
      kernels.map((k, n) => ({ kernel: k.ir, abi: k.abi, symbol: `kc_${n}_${k.ir.name.replace(/[^A-Za-z0-9_]/g, '_')}` })),
      { moduleId, threads: opts.threads },
    )
    const built = await buildAddon({ source, cacheDir: opts.cacheDir })
    if (built.ok) {
      addon = { fileName: `polykern-${built.hash.slice(0, 16)}.node`, path: built.path, cached: built.cached }
      nativeReason = undefined
      // Without a measurement every call goes native; one that fails (the addon does not load here) changes nothing.
      const measured: Calibration = opts.calibrate ? await calibrate(built.path, kernels).catch(() => ({})) : {}
      kernels = kernels.map((k) => (measured[k.abi.name] ? { ...k, abi: { ...k.abi, jsBelow: measured[k.abi.name] } } : k))
    } else {
      const d = nativeBuildFailed(sites[0].commentSpan, moduleId, built.error)
      if (opts.strict) throw d
      warnings.push(d)
      nativeReason = `native build failed: ${built.error.split('\n')[0]}`
    }
  }
  const { code: out, map } = rewriteModule({
    file,
    code,
    moduleId,
    kernels,
    addon: addon ? { fileName: addon.fileName, cachePath: addon.path } : null,
    nativeReason,
    // The addon picks its best ISA version itself; the JS side only checks that the lowest one can run.
    requires: addonIsas().at(-1)!.cpuFeatures,
  })
  return { code: out, map, kernels, addon, warnings }
}

/** Parser diagnostics do not know the function they sit on; name it for the message. */
function inKernel<T>(site: KernelSite, phase: () => T): T {
  try {
    return phase()
  } catch (e) {
    if (e instanceof KernelDiagnostic && !e.kernel) throw new KernelDiagnostic(e.code, e.message, e.span, e.notes, site.name)
    throw e
  }
}

function pass(name: string, ir: Kernel, opts: { lowered?: boolean } = {}): Kernel {
  verifyKernel(ir, name, opts)
  if (process.env.POLYKERN_DEBUG?.split(',').includes('ir')) console.error(`[polykern] after ${name}:\n${printKernel(ir)}`)
  return ir
}

function locationOf(site: KernelSite, code: string, opts: ResolvedOptions): string {
  const { line, column } = lineColumn(code, site.commentSpan.start)
  return `${path.relative(opts.root, site.file).split(path.sep).join('/')}:${line}:${column + 1}`
}
