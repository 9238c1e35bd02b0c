/**
 * The `numpy` system: numpy-einsum.py in a python3 child per thread count, OpenBLAS limited to that count. The
 * child's environment drops OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE (set on some CPUs for older OpenBLAS builds, they
 * slow a current numpy); nothing else changes. Operands travel as raw float32 files in a temporary directory.
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'

export interface NumpyTiming {
  readonly bestSeconds: number
  readonly medianSeconds: number
  readonly runs: number
  readonly firstSeconds: number
  readonly output: Float32Array
}

export interface NumpyRunner {
  readonly threads: number
  /** numpy's version and its BLAS: threadpoolctl's report, or show_config and OpenBLAS's own core name. */
  readonly info: Record<string, unknown>
  readonly run: (eq: string, operands: readonly { data: Float32Array; shape: readonly number[] }[], timing: TimingRule) => Promise<NumpyTiming>
  readonly close: () => void
}

export interface TimingRule {
  readonly warmup: number
  readonly minSeconds: number
  readonly minRuns: number
  /** A first call this slow is the only one. */
  readonly slowCall: number
}

/** Why numpy cannot run here, or undefined when `python3 -c "import numpy"` works. */
export function numpyMissing(): string | undefined {
  const probe = spawnSync('python3', ['-c', 'import numpy'], { encoding: 'utf8' })
  if (probe.error) return `python3 did not start (${probe.error.message})`
  if (probe.status !== 0) return `python3 has no numpy (${probe.stderr.trim().split('\n').at(-1)}); Debian's python3-numpy provides it`
  return undefined
}

/** numpy-einsum.py beside this file, or beside the sources when this runs bundled in test/.out/bench. */
function scriptPath(): string {
  const here = path.dirname(fileURLToPath(import.meta.url))
  const candidates = [path.join(here, 'numpy-einsum.py'), path.resolve(here, '../../bench/numpy-einsum.py')]
  const found = candidates.find((p) => existsSync(p))
  if (!found) throw new Error(`bench: numpy-einsum.py not found (looked in ${candidates.join(', ')})`)
  return found
}

export async function startNumpy(threads: number): Promise<NumpyRunner> {
  const env: NodeJS.ProcessEnv = { ...process.env, OPENBLAS_NUM_THREADS: String(threads), OMP_NUM_THREADS: String(threads), MKL_NUM_THREADS: String(threads) }
  delete env.OPENBLAS_CORETYPE
  delete env.OPENBLAS_L2_SIZE
  const child: ChildProcessWithoutNullStreams = spawn('python3', [scriptPath()], { env, stdio: ['pipe', 'pipe', 'pipe'] })
  let stderr = ''
  child.stderr.on('data', (d) => (stderr += String(d)))
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]()
  const ask = async (req: object): Promise<Record<string, unknown>> => {
    child.stdin.write(`${JSON.stringify(req)}\n`)
    const reply = await lines.next()
    if (reply.done) throw new Error(`bench: the numpy child exited: ${stderr.trim()}`)
    const parsed = JSON.parse(reply.value) as Record<string, unknown>
    if (typeof parsed.error === 'string') throw new Error(`numpy: ${parsed.error}`)
    return parsed
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'polykern-bench-numpy-'))
  const info = await ask({ op: 'info' })
  return {
    threads,
    info,
    run: async (eq, operands, timing) => {
      const inputs = operands.map((o, n) => {
        const file = path.join(dir, `in${n}.f32`)
        writeFileSync(file, new Uint8Array(o.data.buffer, o.data.byteOffset, o.data.byteLength))
        return [file, o.shape]
      })
      const out = path.join(dir, 'out.f32')
      const r = await ask({ op: 'run', eq, inputs, out, ...timing })
      const bytes = readFileSync(out)
      const output = new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength))
      return { bestSeconds: r.best as number, medianSeconds: r.median as number, runs: r.runs as number, firstSeconds: r.firstSeconds as number, output }
    },
    close: () => {
      child.stdin.end()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
