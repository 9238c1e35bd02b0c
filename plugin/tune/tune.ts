/**
 * The `tune` option: PolyDL's last step, on the build machine. For every contraction and every shape class
 * (select.ts), the top k distinct variants of the class's ranking are compiled into one addon, timed on the class's
 * representative sizes, and the fastest replaces the analytic pick in the schedule of the ISA the machine runs
 * (other ISAs keep the analytic schedule). Winners are cached in `<cacheDir>/tune/` per (contraction, ISA, machine,
 * threads, candidates), so a rebuild reads them instead of timing again. The time budget covers the addon build and
 * the timing of one kernel; every candidate is still timed at least MIN_ROUNDS times.
 */
import { createHash } from 'node:crypto'
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import path from 'node:path'
import type { KernelAbi } from '../../runtime/abi.ts'
import type { Contraction, ContractionSchedule, GemmBlocking, IndexRange, Kernel } from '../ir/nodes.ts'
import { mapStmts, walkStmts } from '../ir/walk.ts'
import { ISAS } from '../targets/index.ts'
import type { Isa } from '../targets/isa.ts'
import type { Machine } from '../targets/machine.ts'
import type { TuneSettings } from '../options.ts'
import { loadVariants, timeVariants } from './measure.ts'
import { sameVariant } from '../schedule/rank-gemm.ts'
import { rankClasses, scheduleOf, type ShapeClass } from '../schedule/select.ts'

export interface TuneRequest {
  readonly cacheDir: string
  readonly machine: Machine
  /** Threads the addon runs with (Target.threads). */
  readonly threads: number
  readonly settings: TuneSettings
  readonly log?: (message: string) => void
}

/** The class's timed candidates and the winner (index into them), as cached. */
export interface ClassTiming {
  readonly shapeClass: string
  readonly candidates: readonly GemmBlocking[]
  readonly seconds: readonly number[]
  readonly winner: number
}

/** A module's kernels with their contractions tuned (the `tune` option), one kernel after another. */
export async function tuneKernels<K extends { readonly ir: Kernel; readonly abi: KernelAbi }>(
  kernels: readonly K[],
  req: TuneRequest,
): Promise<K[]> {
  const out: K[] = []
  for (const k of kernels) out.push({ ...k, ir: await tuneKernel(k.ir, k.abi, req) })
  return out
}

/** `kernel` with every contraction's schedule for the machine's ISA tuned; unchanged where tuning cannot run. */
export async function tuneKernel(kernel: Kernel, abi: KernelAbi, req: TuneRequest): Promise<Kernel> {
  const contractions: Contraction[] = []
  walkStmts(kernel.body, (s) => void (s.kind === 'contraction' && contractions.push(s)))
  let tuned = kernel
  for (const c of contractions) {
    const schedule = await tuneContraction(tuned, abi, c, req).catch((e: Error) => {
      req.log?.(`${kernel.name} ${c.id}: not tuned: ${e.message}`)
      return undefined
    })
    if (schedule === undefined) continue
    const body = mapStmts(tuned.body, {
      contraction: (x) => (x.id === c.id ? { ...x, schedules: x.schedules.map((s) => (s.isa === schedule.isa ? schedule : s)) } : x),
    })
    tuned = { ...tuned, body }
  }
  return tuned
}

/** The tuned schedule of the first ISA (best first) this machine runs, or undefined when none can be timed. */
async function tuneContraction(kernel: Kernel, abi: KernelAbi, c: Contraction, req: TuneRequest): Promise<ContractionSchedule | undefined> {
  const { threads } = req
  for (const isa of ISAS) {
    const current = c.schedules.find((s) => s.isa === isa.name)
    const mk = isa.microkernels.find((m) => m.name === current?.microkernel)
    if (current === undefined || mk === undefined) continue
    // A class whose sizes the kernel cannot take (m and n one size parameter, say) keeps its analytic pick, and so
    // does one for bound operands: the timed calls bind nothing.
    const classes = rankClasses({ roles: c.roles, mk, machine: req.machine, threads }).map(({ shapeClass, ranked }) => {
      const sizes = shapeClass.when?.boundB ? undefined : sizesOf(kernel, c, shapeClass)
      const candidates = distinct(ranked.map((r) => r.variant)).slice(0, sizes === undefined ? 1 : req.settings.topK)
      return { shapeClass, sizes, candidates }
    })
    if (classes.every((x) => x.sizes === undefined)) return undefined
    const file = path.join(req.cacheDir, 'tune', `${cacheKey(kernel, c, isa, req, threads, classes)}.json`)
    const cached = await readFile(file, 'utf8').then((t) => JSON.parse(t) as { timings: ClassTiming[] }, () => undefined)
    if (cached !== undefined) return picked(isa, mk, classes, cached.timings, current)

    const started = performance.now()
    const loaded = await loadVariants({
      kernel,
      abi,
      contraction: c.id,
      isa,
      blockings: classes.flatMap((x) => x.candidates),
      cacheDir: req.cacheDir,
      threads: req.threads,
    })
    if (!loaded.ok) throw new Error(loaded.error)
    // This CPU does not run the ISA: its addon fell back to scalar code. Try the next one.
    if (loaded.variants.isa !== isa.name) continue
    const share = Math.max(0, req.settings.budgetMs - (performance.now() - started)) / classes.length
    let first = 0
    const timings = classes.map(({ shapeClass, sizes, candidates }): ClassTiming => {
      const which = candidates.map((_, n) => first + n)
      first += candidates.length
      if (sizes === undefined) return { shapeClass: shapeClass.name, candidates, seconds: [], winner: 0 }
      const seconds = timeVariants(loaded.variants, which, sizes, share)
      const winner = seconds.reduce((w, s, n) => (s < seconds[w] ? n : w), 0)
      req.log?.(`${kernel.name} ${c.id} ${isa.name} ${shapeClass.name}: variant ${winner} of ${seconds.length} ` +
        `(${seconds.map((s) => (s * 1e3).toFixed(2)).join(', ')} ms)`)
      return { shapeClass: shapeClass.name, candidates, seconds, winner }
    })
    await mkdir(path.dirname(file), { recursive: true })
    const tmp = `${file}.${process.pid}.tmp`
    await writeFile(tmp, JSON.stringify({ timings }, null, 2))
    await rename(tmp, file)
    return picked(isa, mk, classes, timings, current)
  }
  return undefined
}

function picked(
  isa: Isa,
  mk: Isa['microkernels'][number],
  classes: readonly { shapeClass: ShapeClass }[],
  timings: readonly ClassTiming[],
  current: ContractionSchedule,
): ContractionSchedule {
  const tuned = scheduleOf(isa, mk, classes.map(({ shapeClass }, n) => ({ shapeClass, blocking: timings[n].candidates[timings[n].winner] })))
  // Entries on another microkernel (select.ts, SHORT_K_CLASS) are not the tuned microkernel's to time: kept, first.
  const other = current.special?.filter((x) => x.microkernel !== undefined) ?? []
  return other.length === 0 ? tuned : { ...tuned, special: [...other, ...(tuned.special ?? [])] }
}

const distinct = (xs: readonly GemmBlocking[]): GemmBlocking[] =>
  xs.filter((x, n) => xs.findIndex((y) => sameVariant(x, y)) === n)

/**
 * A value for every size parameter of the kernel at a class's representative sizes (the kernel's other sizes 1), or
 * undefined when m, n, k and the batch indices cannot take them: an extent that is not a size parameter, or one
 * size parameter asked for two values.
 */
export function sizesOf(kernel: Kernel, c: Contraction, shapeClass: ShapeClass): Map<string, number> | undefined {
  const given = new Map<string, number>()
  const set = (ix: IndexRange, value: number): boolean => {
    const e = ix.extent
    const size = e.terms.length === 1 && e.terms[0].coeff === 1 && e.constant === 0 ? e.terms[0].v : undefined
    if (size === undefined || (given.get(size) ?? value) !== value) return false
    given.set(size, value)
    return true
  }
  const { m, n, k, batch } = shapeClass.representative
  const r = c.roles
  // A role of several indices takes the size on its innermost one, 1 on the others.
  const role = (ixs: readonly IndexRange[], value: number) => ixs.every((ix, i) => set(ix, i === ixs.length - 1 ? value : 1))
  const ok = role(r.m, m) && role(r.n, n) && role(r.k, k) && r.batch.every((b, i) => set(b, i === 0 ? batch : 1))
  return ok ? new Map(kernel.sizes.map((s) => [s, given.get(s) ?? 1])) : undefined
}

/** What the winners depend on: the contraction's operands and layouts, the ISA, the machine, threads, candidates. */
function cacheKey(kernel: Kernel, c: Contraction, isa: Isa, req: TuneRequest, threads: number, classes: unknown): string {
  const operands = [c.roles.a, c.roles.b, c.roles.c].map((a) => kernel.tensors.find((t) => t.name === a.tensor)?.shape)
  // The clock is left out: /proc/cpuinfo's MHz, its fallback source, moves between builds.
  const { model, cores, caches, memory } = req.machine
  const key = JSON.stringify([2, c.roles, operands, isa.name, model, cores, caches, memory, threads, classes])
  return createHash('sha256').update(key).digest('hex').slice(0, 32)
}
