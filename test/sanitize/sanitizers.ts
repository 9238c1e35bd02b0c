/**
 * How sanitized addons run here: compiled with `-fsanitize=address,undefined`, they load into an uninstrumented
 * `node` only with the sanitizer runtimes preloaded (LD_PRELOAD of gcc's libasan and libubsan), in a child process.
 * Leak detection is off (V8 keeps its heap to exit); an allocation too large returns NULL as libc's would (the
 * kernels must handle that); any other report makes the child exit with a distinct status.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { nodeTs } from '../fuzz/node-ts.ts'
import { ISAS } from '../../plugin/targets/index.ts'
import type { Isa } from '../../plugin/targets/isa.ts'
import { cpuRuns } from '../support/cpu.ts'

/**
 * -O0. The kernels' loads and stores are their intrinsics and loop bounds, the same at every level; what -O3 adds
 * (gcc's own vectorization of scalar loops) stays in bounds by construction, so it is not what these runs look for.
 * Unoptimised, every load and store the source makes is instrumented, none optimised away. Compile time decides the
 * rest: instrumented at -O3, a fuzz module's AVX-512 file took 97 s to compile here, at -O1 16 s, at -O0 5.6 s; the
 * sanitized tests (sanitize, workers, async/detached, hostile) took 48 s at -O0, 72 s at -O1, their slower runs
 * included.
 */
export const SANITIZER_FLAGS = ['-fsanitize=address,undefined', '-fno-omit-frame-pointer', '-fno-sanitize-recover=undefined', '-O0'] as const
export const ASAN_EXIT = 23

/**
 * The ISA levels sanitized addons hold: those this CPU runs. Code for a level it lacks could only be compiled here,
 * never run under the sanitizers, and the unsanitized tests compile it already.
 */
export const SANITIZED_ISAS: readonly Isa[] = ISAS.filter(cpuRuns)

const runtime = (lib: string) => execFileSync('gcc', [`-print-file-name=${lib}`], { encoding: 'utf8' }).trim()

export function sanitizerEnv(): NodeJS.ProcessEnv {
  return {
    ...process.env,
    LD_PRELOAD: [runtime('libasan.so'), runtime('libubsan.so')].join(':'),
    ASAN_OPTIONS: `detect_leaks=0:allocator_may_return_null=1:exitcode=${ASAN_EXIT}`,
    UBSAN_OPTIONS: 'print_stacktrace=1:halt_on_error=1',
  }
}

export interface SanitizedRun {
  readonly status: number | null
  readonly stdout: string
  readonly stderr: string
  /** The sanitizer reports in stderr, if any. */
  readonly reports: readonly string[]
}

/** Runs `node script args...` (a .js or .ts script) with the sanitizer runtimes preloaded. */
export function runSanitized(script: string, args: readonly string[] = [], timeout = 300_000): SanitizedRun {
  const argv = script.endsWith('.ts') ? nodeTs(script, args) : [script, ...args]
  const child = spawnSync(process.execPath, argv, { env: sanitizerEnv(), encoding: 'utf8', timeout, maxBuffer: 256 * 1024 * 1024 })
  const reports = child.stderr.split('\n').filter((l) => /ERROR: AddressSanitizer|runtime error:|SUMMARY: (Address|UndefinedBehavior)Sanitizer/.test(l))
  return { status: child.status, stdout: child.stdout, stderr: child.stderr, reports }
}
