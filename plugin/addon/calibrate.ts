/**
 * Small problems, measured on the build machine: a native call pays a fixed toll (the N-API crossing and the C-side
 * argument checks) that the JS loops do not, so below some amount of work the JS loops are faster. For each kernel
 * this times both on a ladder of growing sizes (every size parameter equal) until native wins, and returns the work
 * where the two cross, which the runtime compares each call's work with (`KernelAbi.jsBelow`). A few tens of ms per
 * kernel; the result is cached beside the addon, keyed by the kernels' ABIs and JS loops.
 */
import { createHash } from 'node:crypto'
import { readFile, rename, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import path from 'node:path'
import type { KernelAbi } from '../../runtime/abi.ts'
import { workOfCall } from '../../runtime/work.ts'

export interface CalibrationKernel {
  readonly abi: KernelAbi
  /** The JS fallback's source, `function (...) { loops }`. */
  readonly js: string
}

/** `jsBelow` per kernel name: calls with less work run faster as JS loops. 0: native at every size. */
export type Calibration = Readonly<Record<string, number>>

const CACHE_FILE = 'calibration.json'
/** Time spent measuring one kernel at most (after warming it up), and the shortest timed batch of calls. */
const BUDGET_MS = 60
const BATCH_MS = 0.3
const WARM_MS = 4
/** The ladder stops at this much work per call, or when a tensor would need more elements. */
const MAX_WORK = 2 ** 20
const MAX_ELEMENTS = 2 ** 22

export async function calibrate(addonPath: string, kernels: readonly CalibrationKernel[]): Promise<Calibration> {
  const key = createHash('sha256').update(JSON.stringify(kernels)).digest('hex')
  const file = path.join(path.dirname(addonPath), CACHE_FILE)
  const cached = await readFile(file, 'utf8').then(
    (text) => JSON.parse(text) as { key?: string; jsBelow?: Calibration },
    () => undefined,
  )
  if (cached?.key === key && cached.jsBelow) return cached.jsBelow

  const addon = createRequire(import.meta.url)(addonPath) as Record<string, (...args: unknown[]) => unknown>
  const jsBelow: Record<string, number> = {}
  for (const k of kernels) jsBelow[k.abi.name] = crossover(k, addon[k.abi.name])
  const tmp = `${file}.${process.pid}.tmp`
  await writeFile(tmp, JSON.stringify({ key, jsBelow }, null, 2))
  await rename(tmp, file)
  return jsBelow
}

/** One rung of the ladder: the work of a call and ns per call, native and JS. */
interface Rung {
  readonly work: number
  readonly native: number
  readonly js: number
}

/** The work where native starts to win, linearly interpolated between the last rung JS won and the next. */
function crossover({ abi, js }: CalibrationKernel, native: (...args: unknown[]) => unknown): number {
  const workOf = workOfCall(abi)
  if (workOf === undefined) return 0
  const loops = new Function(`return ${js}`)() as (...args: unknown[]) => unknown
  // Let V8 optimize the loops first: timed cold, they look several times slower than they will run.
  const warmArgs = argsFor(abi, 4)
  if (warmArgs) for (const f of [loops, native]) batchSize(f, warmArgs, WARM_MS)
  const deadline = performance.now() + BUDGET_MS
  const rungs: Rung[] = []
  const next = (s: number) => Math.max(s + 1, Math.round(s * 1.5))
  for (let s = 1, nativeWins = 0; nativeWins < 2 && performance.now() < deadline; s = next(s)) {
    const args = argsFor(abi, s)
    if (args === undefined) break
    const work = workOf(args)
    if (work > MAX_WORK) break
    if (work <= 0) continue
    const [nativeNs, jsNs] = nsPerCall([native, loops], args)
    rungs.push({ work, native: nativeNs, js: jsNs })
    nativeWins = nativeNs <= jsNs ? nativeWins + 1 : 0
  }
  let last = rungs.length - 1
  while (last >= 0 && rungs[last].js >= rungs[last].native) last--
  if (last < 0) return 0
  const [a, b] = [rungs[last], rungs[last + 1]]
  if (b === undefined) return Math.ceil(a.work) + 1
  const [da, db] = [a.native - a.js, b.native - b.js]
  return Math.ceil(a.work + (da * (b.work - a.work)) / (da - db))
}

/** Arguments with every size parameter `s`, arrays of small values (no overflow or denormals as outputs accumulate). */
function argsFor(abi: KernelAbi, s: number): unknown[] | undefined {
  const args: unknown[] = []
  for (const p of abi.params) {
    if (p.kind === 'size') {
      args.push(s)
      continue
    }
    const length = p.shape.reduce<number>((n, d) => n * (typeof d === 'number' ? d : s), 1)
    if (length > MAX_ELEMENTS) return undefined
    const array = new { f32: Float32Array, f64: Float64Array, i32: Int32Array }[p.dtype](length)
    for (let i = 0; i < length; i++) array[i] = p.dtype === 'i32' ? (i % 7) - 3 : 0.5 + (i % 5) / 10
    args.push(array)
  }
  return args
}

/** Calls `f` in batches of doubling size until one takes `ms`; returns that batch's size. */
function batchSize(f: (...args: unknown[]) => unknown, args: unknown[], ms: number): number {
  for (let calls = 1; ; calls *= 2) {
    const start = process.hrtime.bigint()
    for (let i = 0; i < calls; i++) f(...args)
    if (Number(process.hrtime.bigint() - start) >= ms * 1e6) return calls
  }
}

/** ns per call of each function: the fastest of three rounds of batches of at least BATCH_MS, taken in turn. */
function nsPerCall(fs: readonly ((...args: unknown[]) => unknown)[], args: unknown[]): number[] {
  const sized = fs.map((f) => batchSize(f, args, BATCH_MS))
  const best = fs.map(() => Infinity)
  for (let round = 0; round < 3; round++) {
    fs.forEach((f, n) => {
      const start = process.hrtime.bigint()
      for (let i = 0; i < sized[n]; i++) f(...args)
      best[n] = Math.min(best[n], Number(process.hrtime.bigint() - start) / sized[n])
    })
  }
  return best
}
