/**
 * Small problems, measured on the build machine: a native call pays a fixed toll (the N-API crossing and the C-side
 * argument checks) that the JS loops do not, so below some amount of work the JS loops are faster. For each kernel
 * this times both on a ladder of growing sizes (every size parameter equal), up to the ladder's limits or until
 * native has clearly won, and returns the work from which native wins at every rung, which the runtime compares each
 * call's work with (`KernelAbi.jsBelow`). A kernel native never beats for good (a strided gather, as fast in JS and
 * the toll on top) gets NEVER: it always runs the JS loops. A few tens of ms per kernel; the result is cached beside
 * the addon, keyed by the kernels' ABIs and JS loops.
 */
import { createHash } from 'node:crypto'
import { readFile, rename, writeFile } from 'node:fs/promises'
import path from 'node:path'
import type { KernelAbi } from '../../runtime/abi.ts'
import { workOfCall } from '../../runtime/work.ts'
import { argumentsOf, largestTensor, uniformSizes } from '../measure/arguments.ts'
import { loadBuiltAddon } from '../measure/load-built.ts'
import { timeCalls } from '../measure/timing.ts'

export interface CalibrationKernel {
  readonly abi: KernelAbi
  /** The JS fallback's source, `function (...) { loops }`. */
  readonly js: string
}

/**
 * Where a kernel's calls run, by their work: the JS loops below `jsBelow` (0: none) and from `jsFrom` on (absent:
 * none), native in between: each side measured faster there on the build machine.
 */
export interface Routing {
  readonly jsBelow: number
  readonly jsFrom?: number
}

/** Per kernel name. */
export type Calibration = Readonly<Record<string, Routing>>

/** `jsBelow` of a kernel native never beat: every call runs the JS loops. */
export const NEVER = Number.MAX_SAFE_INTEGER

const CACHE_FILE = 'calibration.json'
/** Part of the cache key: a change to how the ladder is read measures cached addons again. */
const METHOD = 9
/**
 * How much faster than the JS loops native must run at a rung to win it. A kernel may be at most 10% slower than its
 * JS fallback, and rungs a few microseconds long move by that much between runs (the 2048 x 2048 diagonal measured
 * native 5.0 and 5.5 us against JS 4.8 in two builds, and another build saw native ahead): where the two are this
 * close, the JS loops take the call.
 */
export const NATIVE_MARGIN = 1.1
/** Time spent measuring one kernel at most (after warming it up), and the shortest timed batch of calls. */
const BUDGET_MS = 150
const BATCH_MS = 0.3
const WARM_MS = 4
/** Rounds timed per rung: the fastest counts (measure/timing.ts). */
const ROUNDS = 3
/** The ladder stops at this much work per call, or when a tensor would need more elements. */
const MAX_WORK = 2 ** 20
const MAX_ELEMENTS = 2 ** 22

/**
 * `identity`: the hash of the sources the addon at `addonPath` must have been built from (runtime/identity.ts); an
 * addon built from others is never loaded (rejects), so a foreign addon's code does not run in the build.
 */
export async function calibrate(
  addonPath: string, kernels: readonly CalibrationKernel[], identity: string, log?: (message: string) => void,
): Promise<Calibration> {
  const key = createHash('sha256').update(JSON.stringify({ method: METHOD, kernels })).digest('hex')
  const file = path.join(path.dirname(addonPath), CACHE_FILE)
  const cached = await readFile(file, 'utf8').then(
    (text) => JSON.parse(text) as { key?: string; routes?: Calibration },
    () => undefined,
  )
  if (cached?.key === key && cached.routes) return cached.routes

  const addon = loadBuiltAddon(addonPath, identity, kernels.map((k) => k.abi.name))
  const routes: Record<string, Routing> = {}
  for (const k of kernels) routes[k.abi.name] = measureRouting(k, addon.call(k.abi.name), log)
  const tmp = `${file}.${process.pid}.tmp`
  await writeFile(tmp, JSON.stringify({ key, routes }, null, 2))
  await rename(tmp, file)
  return routes
}

/** One rung of the ladder: the work of a call, its largest tensor's elements, and ns per call, native and JS. */
export interface Rung {
  readonly work: number
  readonly elements: number
  readonly native: number
  readonly js: number
}

/**
 * Work per element of the largest tensor up to which a kernel is memory-bound (an element-wise map, a gather): only
 * then do JS wins above native's last win send larger calls back to the JS loops. A kernel that reuses its data
 * (a contraction, a convolution) gains natively as it grows, and a JS win at the ladder's top is noise or the
 * ladder's shapes: every size equal makes a 7×7 stride-2 convolution mostly padding, and a quarter of the builds of
 * the bench's one (64 on this machine) measured JS ahead at its top rung and sent every larger call, a 224×224 image
 * among them, to the JS loops: 1 GFLOP/s against 200 natively.
 */
export const MEMORY_BOUND_WORK = 8

/** Times the ladder for one kernel and turns it into its routing. */
function measureRouting({ abi, js }: CalibrationKernel, native: (...args: unknown[]) => unknown, log?: (message: string) => void): Routing {
  const workOf = workOfCall(abi)
  if (workOf === undefined) return { jsBelow: 0 }
  const loops = new Function(`return ${js}`)() as (...args: unknown[]) => unknown
  const both = (args: unknown[]) => [() => native(...args), () => loops(...args)]
  // Let V8 optimize the loops first (a warm-up and no round): timed cold, they look several times slower than they
  // will run.
  timeCalls(both(argumentsOf(abi, uniformSizes(abi, 4), 'steady')), { warmMs: WARM_MS, budgetMs: 0, minRounds: 0 })
  const deadline = performance.now() + BUDGET_MS
  const rungs: Rung[] = []
  for (const s of ladderSizes()) {
    if (performance.now() >= deadline) break
    const sizes = uniformSizes(abi, s)
    if (largestTensor(abi, sizes) > MAX_ELEMENTS) break
    const args = argumentsOf(abi, sizes, 'steady')
    const work = workOf(args)
    if (work > MAX_WORK) break
    if (work <= 0) continue
    const [nativeNs, jsNs] = timeCalls(both(args), { batchMs: BATCH_MS, budgetMs: 0, minRounds: ROUNDS }).map((t) => t.bestNs)
    rungs.push({ work, elements: largestTensor(abi, sizes), native: nativeNs, js: jsNs })
  }
  if (log) log(`${abi.name}: native/JS per call at work ${rungs.map((r) => `${r.work}: ${Math.round(r.native)}/${Math.round(r.js)} ns`).join(', ')}`)
  return routingOf(rungs)
}

/**
 * The sizes the ladder tries, growing: steps of 1.5x, and every power of two, where a strided access (a diagonal, a
 * column) aliases in the caches and runs slowest (the demo's 2048 x 2048 diagonal ran 0.8x the JS loops natively,
 * while 1598, the last 1.5x step, ran 2.7x).
 */
export function ladderSizes(most = MAX_ELEMENTS): number[] {
  const sizes = new Set<number>()
  for (let s = 1; s <= most; s = Math.max(s + 1, Math.round(s * 1.5))) sizes.add(s)
  for (let s = 1; s <= most; s *= 2) sizes.add(s)
  return [...sizes].sort((a, b) => a - b)
}

/**
 * The routing a ladder (rungs in growing work) says: native from the crossover after the last rung JS won before
 * native's last win, JS again from the crossover after native's last win when JS won the rungs above it and the
 * kernel is memory-bound there (MEMORY_BOUND_WORK; a strided gather: as fast in C as in JS once memory-bound, and
 * the N-API toll on top). Native wins a rung only by NATIVE_MARGIN; crossovers are interpolated between the two rungs
 * on the same terms; NEVER when native won none.
 */
export function routingOf(measured: readonly Rung[]): Routing {
  const rungs = measured.map((r) => ({ ...r, native: r.native * NATIVE_MARGIN }))
  const nativeWins = (r: Rung) => r.native <= r.js
  const lastWhere = (upTo: number, f: (r: Rung) => boolean) => {
    let i = upTo - 1
    while (i >= 0 && !f(rungs[i])) i--
    return i
  }
  const top = lastWhere(rungs.length, nativeWins)
  if (top < 0) return { jsBelow: rungs.length === 0 ? 0 : NEVER }
  const last = lastWhere(top, (r) => !nativeWins(r))
  const jsBelow = last < 0 ? 0 : crossing(rungs[last], rungs[last + 1])
  const highest = rungs[rungs.length - 1]
  const memoryBound = highest.work <= MEMORY_BOUND_WORK * highest.elements
  return top === rungs.length - 1 || !memoryBound ? { jsBelow } : { jsBelow, jsFrom: crossing(rungs[top], rungs[top + 1]) }
}

/** The work where native's lead (or lag) changes sign between two rungs, linearly. */
function crossing(a: Rung, b: Rung): number {
  const [da, db] = [a.native - a.js, b.native - b.js]
  return Math.ceil(a.work + (da * (b.work - a.work)) / (da - db))
}
