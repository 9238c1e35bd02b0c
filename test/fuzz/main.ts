/**
 * `npm run fuzz -- --minutes N --seed S` (run.mjs): the differential fuzzer, outside vitest, for as long as asked. Each round
 * generates a batch of kernels, compiles them in a worker thread (a compiler that hangs is a finding, not a stuck
 * fuzzer), builds them into one addon, and runs every case in a child process (a kernel that crashes the process is
 * a finding too). Every finding is shrunk and printed as an entry to paste into test/fuzz/regressions.test.ts.
 *
 * Options: --minutes (5), --seed (from the clock), --batch (60 kernels per addon), --max-points (60000 iterations per
 * case), --shapes (3 per kernel), --hostile (0.08: share of names that are C/JS keywords or library names),
 * --no-native (JS and the interpreters only), --no-shrink.
 */
import { spawn } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads'
import { packageRoot } from '../../plugin/addon/toolchain.ts'
import { resolveOptions } from '../../plugin/options.ts'
import {
  buildAll,
  checkCase,
  compileAll,
  describeError,
  loadFuzzAddon,
  randomSizes,
  type FuzzCompiled,
  type Mismatch,
} from './differential.ts'
import { generateKernels } from './generate.ts'
import { kernelSource, textOf, type GenKernel, type KernelText } from './model.ts'
import { printRegression } from './regression.ts'
import { shrink, type ShrinkState } from './shrink.ts'

const self = fileURLToPath(import.meta.url)
const root = packageRoot()
const outDir = path.join(root, 'test/.out/fuzz')
const opts = resolveOptions({ root, cacheDir: 'node_modules/.cache/polykern-fuzz' })
const moduleFile = (name: string) => path.join(outDir, `${name}.ts`)

// ---------------------------------------------------------------------------------------------------------------
// Compiling in a worker thread, with a time limit; a batch that times out is split until the culprit is alone.

/** What a worker sends back: plain data (functions and error classes do not cross threads). */
type Compiled = Extract<FuzzCompiled, { ok: true }>
type Outcome =
  | { readonly ok: true; readonly text: KernelText; readonly compiled: Compiled['compiled']; readonly reference: Compiled['reference']; readonly ast: Compiled['ast'] }
  | { readonly ok: false; readonly text: KernelText; readonly error: string; readonly hang?: boolean }

function inWorker(texts: readonly KernelText[], file: string, timeoutMs: number): Promise<Outcome[] | undefined> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL(import.meta.url), { workerData: { texts, file } })
    const timer = setTimeout(() => {
      void worker.terminate()
      resolve(undefined)
    }, timeoutMs)
    worker.once('message', (m: Outcome[]) => {
      clearTimeout(timer)
      void worker.terminate()
      resolve(m)
    })
    worker.once('error', (e) => {
      clearTimeout(timer)
      reject(e)
    })
  })
}

async function compileIsolated(texts: readonly KernelText[], file: string): Promise<FuzzCompiled[]> {
  const outcomes = await inWorker(texts, file, 20_000 + 500 * texts.length)
  if (outcomes === undefined) {
    if (texts.length === 1) {
      return [{ ok: false, text: texts[0], error: new Error('hang: the compiler did not finish in 20 s') }]
    }
    const half = Math.ceil(texts.length / 2)
    return [...(await compileIsolated(texts.slice(0, half), file)), ...(await compileIsolated(texts.slice(half), file))]
  }
  return outcomes.map((o): FuzzCompiled => {
    if (!o.ok) return { ok: false, text: o.text, error: new Error(o.error) }
    return { ...o, js: new Function(`return ${o.compiled.js}`)() as Compiled['js'] }
  })
}

function workerMain(): void {
  const { texts, file } = workerData as { texts: KernelText[]; file: string }
  const outcomes = compileAll(texts, file, opts).map((c): Outcome => {
    if (!c.ok) return { ok: false, text: c.text, error: describeError(c.error) }
    return { ok: true, text: c.text, compiled: c.compiled, reference: c.reference, ast: c.ast }
  })
  parentPort!.postMessage(outcomes)
}

// ---------------------------------------------------------------------------------------------------------------
// Running cases in a child process: it recompiles the texts, loads the addon, and reports each case on a line.

interface CaseJob {
  readonly kernel: number
  readonly sizes: readonly (readonly [string, number])[]
  readonly dataSeed: number
}
interface ChildJob {
  readonly file: string
  readonly texts: readonly KernelText[]
  readonly addon: string | null
  readonly cases: readonly CaseJob[]
}
type CaseResult = { readonly mismatches: readonly Mismatch[] } | { readonly crash: string }

/** Runs the job's cases in child processes; a crash is that case's result, and the rest run in a new child. */
async function runCases(job: ChildJob, env: NodeJS.ProcessEnv = process.env): Promise<CaseResult[]> {
  const results: CaseResult[] = []
  while (results.length < job.cases.length) {
    const rest = { ...job, cases: job.cases.slice(results.length) }
    const jobFile = path.join(outDir, `job-${process.pid}.json`)
    writeFileSync(jobFile, JSON.stringify(rest))
    const { lines, status } = await child(['--child', jobFile], env)
    const before = results.length
    let started = -1
    for (const line of lines) {
      const m = JSON.parse(line) as { start?: number; mismatches?: Mismatch[] }
      if (m.start !== undefined) started = before + m.start
      else results.push({ mismatches: m.mismatches! })
    }
    if (results.length < job.cases.length) {
      // Died running a case: that case is the finding. Died before any: every remaining case failed with it.
      if (started === results.length) results.push({ crash: `the process died (${status.trim()}) running this case` })
      else while (results.length < job.cases.length) results.push({ crash: `the case runner failed: ${status.trim()}` })
    }
  }
  return results
}

function child(args: readonly string[], env: NodeJS.ProcessEnv): Promise<{ lines: string[]; status: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [...process.execArgv, self, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    let err = ''
    p.stdout.on('data', (d: Buffer) => (out += d))
    p.stderr.on('data', (d: Buffer) => (err += d))
    p.on('close', (code, signal) => {
      const lines = out.split('\n').filter((l) => l.startsWith('{'))
      resolve({ lines, status: signal ? `signal ${signal}; ${err.split('\n').slice(0, 12).join('\n')}` : `exit ${code}; ${err.slice(0, 2000)}` })
    })
  })
}

async function childMain(jobFile: string): Promise<void> {
  const { readFileSync } = await import('node:fs')
  const job = JSON.parse(readFileSync(jobFile, 'utf8')) as ChildJob
  const compiled = compileAll(job.texts, job.file, opts)
  const addon = job.addon ? loadFuzzAddon(job.addon) : undefined
  job.cases.forEach((c, n) => {
    process.stdout.write(`${JSON.stringify({ start: n })}\n`)
    const k = compiled[c.kernel]
    const mismatches = k.ok ? checkCase(k, new Map(c.sizes), c.dataSeed, addon) : [{ system: 'compile', detail: describeError(k.error) }]
    process.stdout.write(`${JSON.stringify({ mismatches })}\n`)
  })
}

// ---------------------------------------------------------------------------------------------------------------
// The fuzz loop.

interface Args {
  minutes: number
  seed: number
  batch: number
  maxPoints: number
  shapes: number
  hostile: number
  native: boolean
  shrink: boolean
}

function parseArgs(argv: readonly string[]): Args {
  const args: Args = { minutes: 5, seed: Date.now() % 1_000_000, batch: 60, maxPoints: 60_000, shapes: 3, hostile: 0.08, native: true, shrink: true }
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]
    const value = () => {
      const v = Number(argv[++i])
      if (!Number.isFinite(v)) throw new Error(`fuzz: ${flag} needs a number`)
      return v
    }
    if (flag === '--minutes') args.minutes = value()
    else if (flag === '--seed') args.seed = value()
    else if (flag === '--batch') args.batch = value()
    else if (flag === '--max-points') args.maxPoints = value()
    else if (flag === '--shapes') args.shapes = value()
    else if (flag === '--hostile') args.hostile = value()
    else if (flag === '--no-native') args.native = false
    else if (flag === '--no-shrink') args.shrink = false
    else throw new Error(`fuzz: unknown option ${flag}`)
  }
  return args
}

/** A problem the fuzzer saw: what to reproduce and how to recognise it again while shrinking. */
interface Finding {
  readonly kind: 'compile' | 'build' | 'mismatch' | 'crash'
  readonly kernel: GenKernel
  readonly sizes: ReadonlyMap<string, number>
  readonly dataSeed: number
  /** For mismatches, the systems that disagreed; otherwise the error's first words. */
  readonly signature: string
  readonly detail: string
}

const family = (system: string) => system.split(' ')[0]

async function fuzzMain(args: Args): Promise<void> {
  mkdirSync(outDir, { recursive: true })
  const deadline = Date.now() + args.minutes * 60_000
  const figures = { kernels: 0, compiled: 0, cases: 0, agreed: 0, findings: 0 }
  console.log(`polykern fuzz: seed ${args.seed}, ${args.minutes} min, ${args.batch} kernels per addon${args.native ? '' : ', no native'}`)
  for (let round = 0; Date.now() < deadline; round++) {
    const seed = args.seed * 1009 + round
    const kernels = generateKernels(seed, args.batch, `f${round}_`, { hostile: args.hostile })
    figures.kernels += kernels.length
    const findings: Finding[] = []
    const compiled = await compileIsolated(kernels.map(textOf), moduleFile(`round-${round}`))
    compiled.forEach((c, n) => {
      if (!c.ok) findings.push({ kind: 'compile', kernel: kernels[n], sizes: new Map(), dataSeed: 0, signature: describeError(c.error).slice(0, 30), detail: describeError(c.error) })
      else figures.compiled++
    })
    const ok = compiled.map((c, n) => ({ c, n })).filter((x) => x.c.ok)
    const addonPath = args.native ? await buildIsolated(ok.map((x) => x.c), `round-${round}`, findings, ok.map((x) => kernels[x.n])) : null
    const cases: (CaseJob & { gen: GenKernel })[] = []
    compiled.forEach((c, n) => {
      if (!c.ok || findings.some((f) => f.kernel === kernels[n])) return
      for (let s = 0; s < args.shapes; s++) {
        const sizes = randomSizes(c.reference, seed * 31 + n * 7 + s, args.maxPoints)
        if (sizes) cases.push({ kernel: n, sizes: [...sizes], dataSeed: seed + n * 13 + s, gen: kernels[n] })
      }
    })
    const results = await runCases({ file: moduleFile(`round-${round}`), texts: kernels.map(textOf), addon: addonPath, cases })
    results.forEach((r, i) => {
      figures.cases++
      const c = cases[i]
      if ('crash' in r) {
        findings.push({ kind: 'crash', kernel: c.gen, sizes: new Map(c.sizes), dataSeed: c.dataSeed, signature: 'crash', detail: r.crash })
      } else if (r.mismatches.length > 0 && !findings.some((f) => f.kernel === c.gen)) {
        findings.push({ kind: 'mismatch', kernel: c.gen, sizes: new Map(c.sizes), dataSeed: c.dataSeed, signature: [...new Set(r.mismatches.map((m) => family(m.system)))].sort().join(','), detail: r.mismatches.map((m) => `${m.system}: ${m.detail}`).join('\n') })
      } else if (r.mismatches.length === 0) figures.agreed++
    })
    figures.findings += findings.length
    console.log(`round ${round}: ${kernels.length} kernels, ${cases.length} cases, ${findings.length} findings`)
    for (const f of findings) await report(f, args)
  }
  console.log(`\n${figures.kernels} kernels generated, ${figures.compiled} compiled, ${figures.cases} cases run, ` +
    `${figures.agreed} agreed everywhere, ${figures.findings} findings`)
  process.exitCode = figures.findings > 0 ? 1 : 0
}

/** Builds the round's addon; when the C does not compile, finds the kernels whose C does not. */
async function buildIsolated(compiled: readonly FuzzCompiled[], name: string, findings: Finding[], kernels: readonly GenKernel[]): Promise<string | null> {
  try {
    return await buildAll(compiled, `${name}.ts`, opts.cacheDir)
  } catch (e) {
    if (compiled.length === 1) {
      findings.push({ kind: 'build', kernel: kernels[0], sizes: new Map(), dataSeed: 0, signature: 'build', detail: (e as Error).message })
      return null
    }
    const half = Math.ceil(compiled.length / 2)
    await buildIsolated(compiled.slice(0, half), `${name}a`, findings, kernels.slice(0, half))
    await buildIsolated(compiled.slice(half), `${name}b`, findings, kernels.slice(half))
    return null
  }
}

async function report(f: Finding, args: Args): Promise<void> {
  console.log(`\n=== ${f.kind}: ${f.kernel.name} with ${[...f.sizes].map(([k, v]) => `${k}=${v}`).join(' ') || 'no sizes'}\n${f.detail}\n${kernelSource(textOf(f.kernel))}`)
  const shrunk = args.shrink ? await shrink({ kernel: f.kernel, sizes: f.sizes }, (cs) => stillFailing(f, cs, args)) : { kernel: f.kernel, sizes: f.sizes }
  console.log('Shrunk; paste into REGRESSIONS in test/fuzz/regressions.test.ts:\n')
  console.log(printRegression({
    title: `fuzz seed ${args.seed}: ${f.kind} (${f.signature})`,
    spec: textOf(shrunk.kernel).spec,
    params: shrunk.kernel.params,
    sizes: Object.fromEntries(shrunk.sizes),
    dataSeed: f.dataSeed,
  }))
}

let shrinkRound = 0

/** Which candidates still fail the way `f` did: compiled in a worker, built as one addon, run in a child. */
async function stillFailing(f: Finding, candidates: readonly ShrinkState[], args: Args): Promise<ReadonlySet<number>> {
  const name = `shrink-${process.pid}-${shrinkRound++}`
  const texts = candidates.map((c, n) => ({ ...textOf(c.kernel), name: `s${n}` }))
  const compiled = await compileIsolated(texts, moduleFile(name))
  const failing = new Set<number>()
  if (f.kind === 'compile') {
    compiled.forEach((c, n) => {
      if (!c.ok && describeError(c.error).startsWith(f.signature)) failing.add(n)
    })
    return failing
  }
  const ok = compiled.map((c, n) => ({ c, n })).filter((x) => x.c.ok)
  if (f.kind === 'build') {
    for (const { c, n } of ok) {
      await buildAll([c], `${name}-${n}.ts`, opts.cacheDir).catch(() => failing.add(n))
    }
    return failing
  }
  let addon: string | null = null
  if (args.native) {
    try {
      addon = await buildAll(ok.map((x) => x.c), `${name}.ts`, opts.cacheDir)
    } catch {
      return failing
    }
  }
  const okIndex = new Map(ok.map((x, i) => [x.n, i]))
  const cases = candidates.flatMap((c, n) => {
    const k = compiled[n]
    if (!k.ok || !k.reference.sizes.every((s) => c.sizes.has(s))) return []
    const sizes = [...c.sizes].filter(([s]) => k.reference.sizes.includes(s))
    return [{ n, job: { kernel: okIndex.get(n)!, sizes, dataSeed: f.dataSeed } }]
  })
  const results = await runCases({ file: moduleFile(name), texts: ok.map((x) => x.c.text), addon, cases: cases.map((c) => c.job) })
  results.forEach((r, i) => {
    const same = 'crash' in r ? f.kind === 'crash'
      : f.kind === 'mismatch' && [...new Set(r.mismatches.map((m) => family(m.system)))].sort().join(',') === f.signature
    if (same) failing.add(cases[i].n)
  })
  return failing
}

if (!isMainThread) workerMain()
else if (process.argv[2] === '--child') await childMain(process.argv[3])
else await fuzzMain(parseArgs(process.argv.slice(2)))
