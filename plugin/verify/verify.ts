/**
 * `polykern verify`: each annotated function's own body against its compiled kernel (the native addon when it builds,
 * else the generated JS loops) on the same random inputs, for a few random shapes. The spec is what the compiled
 * kernel computes; a disagreement means the body and its spec say different things.
 */
import { formatDiagnostic } from '../diagnostics.ts'
import type { ResolvedOptions } from '../options.ts'
import type { CompiledKernel } from '../compiled-kernel.ts'
import { compileFile } from '../pipeline.ts'
import { loadCompiled } from '../project/load-compiled.ts'
import { firstDifference, type Difference } from './first-difference.ts'
import { ownBody, type OwnBody } from './own-body.ts'
import { argsOf, randomShapes, seeded, type Shape } from './random-args.ts'

export interface VerifyOptions {
  /** Only this kernel. */
  readonly kernel?: string
  /** Random shapes per kernel. */
  readonly shapes: number
  readonly seed: number
  /** Compare with the generated JS loops even when the addon builds. */
  readonly jsOnly: boolean
  /** Relative tolerance for every float dtype; undefined: DEFAULT_TOLERANCE. */
  readonly tolerance?: number
}

export type Verdict =
  | { readonly kernel: string; readonly agrees: true; readonly shapes: readonly Shape[] }
  | { readonly kernel: string; readonly agrees: false; readonly shape: Shape; readonly difference: Difference }
  /** One side threw on valid arguments (the body uses a name of its module it cannot see, or has a bug). */
  | { readonly kernel: string; readonly agrees: false; readonly shape: Shape; readonly threw: 'body' | 'kernel'; readonly error: string }

export interface VerifyReport {
  readonly file: string
  /** What the bodies were compared with, and why not native when it is the JS loops. */
  readonly against: { readonly implementation: 'native' | 'js'; readonly reason?: string }
  readonly verdicts: readonly Verdict[]
  /** Spec errors, formatted with their code frames: nothing was compared for these kernels. */
  readonly errors: readonly string[]
  /** The file's kernels, when `kernel` names none of them. */
  readonly available: readonly string[]
}

export async function verifyFile(file: string, code: string, opts: ResolvedOptions, options: VerifyOptions): Promise<VerifyReport> {
  const compiled = await compileFile(file, code, opts, {
    only: options.kernel, errors: 'collect', partialAddon: true, through: options.jsOnly ? 'tune' : 'build',
  })
  const errors = compiled.errors.map((e) => formatDiagnostic(e, code))
  const available = compiled.sites.map((s) => s.name)
  const loaded = loadCompiled(compiled, 'polykern verify')
  const against = loaded.addonPath
    ? { implementation: 'native' as const }
    : { implementation: 'js' as const, reason: options.jsOnly ? '--js' : loaded.nativeMissing }
  const verdicts = compiled.kernels.map((k, n) => verifyKernel(k, ownBody(k.site, code), loaded.entries[n].call, options))
  return { file: compiled.moduleId, against, verdicts, errors, available }
}

function verifyKernel(k: CompiledKernel, body: OwnBody, kernel: (...args: unknown[]) => unknown, options: VerifyOptions): Verdict {
  const name = k.abi.name
  const next = seeded(options.seed ^ hashOf(name))
  const shapes = randomShapes(k.abi, options.shapes, next)
  for (const shape of shapes) {
    const expected = argsOf(k.abi, shape, next)
    const got = expected.map((a) => (ArrayBuffer.isView(a) ? (a as Float32Array).slice() : a))
    const threw = (side: 'body' | 'kernel', run: () => unknown): Verdict | undefined => {
      try {
        run()
        return undefined
      } catch (e) {
        return { kernel: name, agrees: false, shape, threw: side, error: (e as Error)?.message ?? String(e) }
      }
    }
    const failed = threw('kernel', () => kernel(...expected)) ?? threw('body', () => body(...got))
    if (failed) return failed
    const difference = firstDifference(k.abi, shape, expected, got, options.tolerance)
    if (difference) return { kernel: name, agrees: false, shape, difference }
  }
  return { kernel: name, agrees: true, shapes }
}

/** A kernel's own stream of random numbers: adding a kernel to the file does not change another's inputs. */
function hashOf(text: string): number {
  let h = 2166136261
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619)
  return h >>> 0
}
