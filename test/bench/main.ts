// The GEMM benchmark of issue 3, bundled by test/bench/run.mjs with polykern's esbuild plugin: every system on every
// case in this one process, each result checked against a float64 reference before it is timed. The `onednn` system
// (GEMM and convolution cases) is oneDNN through onednn.c, built here with gcc, after installing Debian's oneDNN
// when it is missing; when that fails, its cases are skipped, saying why.
// Arguments: --peak-addon PATH (from run.mjs), --json FILE, --quick, --cases name,name (`tccg`: issue 14's TCCG and
// einsum-path cases, which run only when asked for).
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import * as ort from 'onnxruntime-node'
import * as runtime from 'polykern/runtime'
import { CASES, elementsOf, flopsOf, operandShapes, shapeOf, type GemmCase } from './cases.ts'
import { jsLoops } from './js-loops.ts'
import * as benchKernels from './kernels.ts'
import { keepFastest, measure, PASSES, timeCall } from './measure.ts'
import { onnxRunner } from './onnx-runner.ts'
import { measurePeak, type Peak } from './peak.ts'
import { maxRelErr, referenceGemm } from './reference.ts'
import { formatTable, type BenchReport, type CaseResult, type Failure, type Skipped, type System } from './report.ts'
import { formatVariants, type VariantsReport } from './variants-report.ts'
import { ROWWISE_CASES, benchRowwise, formatRowwise } from './rowwise.ts'
import { CONV_BIAS_RELU_CASES, benchConvBiasRelu } from './conv-bias-relu.ts'
import { CONV_CASES, benchConv, formatConv } from './conv.ts'
import { DENSE_CASES, benchDense, formatDense } from './dense-bias-relu.ts'
import { numpyMissing } from './numpy-runner.ts'
import { loadOnednn, timeOnednn, type Onednn } from './onednn.ts'
import { EINSUM_PATH_CASES, TCCG_CASES, benchTccg, formatTccg, type KernelBundle, type TccgContext } from './tccg.ts'
import type { ExplainedPath } from './einsum-path.ts'

const TOLERANCE = 1e-3
/**
 * The JS systems (js-loops, polykern-js) run only where a call finishes in reasonable time: not on cases over
 * JS_MAX_FLOPS (plain JS reaches ~0.3-1 GFLOP/s here, so 5-15 s per call, and timing takes 4 calls), and they are
 * not timed when their verification call took over JS_MAX_CALL_SECONDS (strided layouts run far below 1 GFLOP/s).
 */
const JS_MAX_FLOPS = 4.5e9
const JS_MAX_CALL_SECONDS = 10

const { values: args } = parseArgs({
  options: {
    'peak-addon': { type: 'string' },
    json: { type: 'string' },
    quick: { type: 'boolean', default: false },
    cases: { type: 'string' },
    'variants-report': { type: 'string' },
  },
})
if (!args['peak-addon']) throw new Error('bench: --peak-addon is missing (run it through test/bench/run.mjs)')
const cases = selectCases()
const rowwiseCases = ROWWISE_CASES.filter((c) => args.cases === undefined || args.cases.split(',').map((s) => s.trim()).includes(c.name))
const selected = (name: string) => args.cases === undefined || args.cases.split(',').map((s) => s.trim()).includes(name)
const convCases = CONV_CASES.filter((c) => selected(c.name))
const denseCases = DENSE_CASES.filter((c) => selected(c.name))
const fusedConvCases = CONV_BIAS_RELU_CASES.filter((c) => selected(c.name))
const wanted = new Set((args.cases ?? '').split(',').map((s) => s.trim()))
const tccgCases = TCCG_CASES.filter((c) => wanted.has('tccg') || wanted.has(c.name))
const pathCases = EINSUM_PATH_CASES.filter((c) => wanted.has('tccg') || wanted.has('einsum-path') || wanted.has(c.name))

let seed = 20240603
const random = (): number => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32) * 2 - 1
const randomF32 = (n: number): Float32Array => Float32Array.from({ length: n }, random)

/** The runtime's thread control, once it exists (feature-detected: it is being added). */
const setThreads = Reflect.get(runtime, 'setThreads') as ((n: number) => void) | undefined
const threadsSet = typeof setThreads === 'function'

const results: CaseResult[] = []
const skipped: Skipped[] = []
const failures: Failure[] = []
const log = (line: string): void => void process.stderr.write(`${line}\n`)
const started = performance.now()
const loadAtStart = os.loadavg()[0]

/** The `onednn` system, or why it is not there; set up only when a case it runs on was selected. */
const onednn = cases.length > 0 || convCases.length > 0 || denseCases.length > 0 || fusedConvCases.length > 0
  ? setUpOnednn() : 'no GEMM or convolution case selected'
const peakBefore = measurePeak(args['peak-addon'])
logPeak(peakBefore)
for (const [n, c] of cases.entries()) {
  log(`[${n + 1}/${cases.length}] ${c.name}`)
  await benchCase(c)
}
const rowwise = await benchRowwise(rowwiseCases, log)
// run.mjs bundles the im2col build of the conv kernels beside this file.
const conv = await benchConv(convCases, log, await import(new URL('./im2col/conv-im2col.mjs', import.meta.url).href), onednn)
for (const c of fusedConvCases) await benchConvBiasRelu(c, conv, log, onednn)
const dense = await benchDense(denseCases, log, onednn)
const tccg = tccgCases.length + pathCases.length > 0 ? await benchTccg(tccgCases, pathCases, await tccgContext()) : undefined
// Measured again at the end, keeping the better: a busy machine only ever lowers it.
const peakAfter = measurePeak(args['peak-addon'])
logPeak(peakAfter)
const peak = { avx512: maxOf(peakBefore.avx512, peakAfter.avx512), avx2: maxOf(peakBefore.avx2, peakAfter.avx2) }

const report: BenchReport = {
  peakGflops1T: peak.avx512 ?? peak.avx2 ?? NaN,
  peakIsa: peak.avx512 === null ? 'avx2' : 'avx512',
  peakGflops1T_avx2: peak.avx2,
  machine: {
    cpu: os.cpus()[0]?.model ?? 'unknown',
    cores: os.cpus().length,
    node: process.version,
    onnxruntime: ort.env.versions.node ?? '?',
    onednn: typeof onednn === 'object' ? onednn.version : null,
    loadAverageAtStart: loadAtStart,
  },
  date: new Date().toISOString(),
  tolerance: TOLERANCE,
  // The row-wise results share the JSON shape, with their own kind, shape letters and systems.
  cases: [...results, ...(rowwise.results as unknown as CaseResult[]), ...(conv.results as unknown as CaseResult[]),
    ...(dense.results as unknown as CaseResult[]), ...((tccg?.results ?? []) as unknown as CaseResult[])],
  skipped: [...skipped, ...(rowwise.skipped as unknown as Skipped[]), ...(conv.skipped as unknown as Skipped[]),
    ...(dense.skipped as unknown as Skipped[]), ...((tccg?.skipped ?? []) as unknown as Skipped[])],
  failures: [...failures, ...(rowwise.failures as unknown as Failure[]), ...(conv.failures as unknown as Failure[]),
    ...(dense.failures as unknown as Failure[]), ...((tccg?.failures ?? []) as unknown as Failure[])],
}
// With only the TCCG cases asked for, the GEMM table would be empty: the peak goes into the TCCG table's header.
if (cases.length > 0 || !tccg) console.log(formatTable({ ...report, cases: results, skipped, failures }))
if (rowwiseCases.length > 0) console.log(`\n${formatRowwise(rowwise)}`)
if (conv.results.length > 0) console.log(`\n${formatConv(conv)}`)
if (dense.results.length > 0) console.log(`\n${formatDense(dense)}`)
if (tccg) {
  const { cpu, cores, node, onnxruntime } = report.machine
  const machine = `${cpu}, ${cores} cores (fp32 FMA peak of 1 core ${report.peakGflops1T.toFixed(0)} GFLOP/s, ${report.peakIsa}), ` +
    `Node ${node}, onnxruntime-node ${onnxruntime}, 1-min load ${loadAtStart.toFixed(1)} at start`
  console.log(`\n${formatTccg(tccg, machine)}`)
}
// `--variants` (run.mjs): analytic pick vs best of the top k, and build times, measured before this process.
const variants = args['variants-report'] === undefined ? undefined : (JSON.parse(readFileSync(args['variants-report'], 'utf8')) as VariantsReport)
if (variants !== undefined) console.log(`\n${formatVariants(variants)}`)
console.log(`\nbench took ${((performance.now() - started) / 1000).toFixed(0)} s`)
if (args.json) {
  // npm runs scripts from the package root; a relative path means the caller's directory.
  const file = path.resolve(process.env.INIT_CWD ?? process.cwd(), args.json)
  // numpy's version and the OpenBLAS kernel it ran, per thread count, when the TCCG cases ran.
  writeFileSync(file, `${JSON.stringify({ ...report, ...variants, ...(tccg ? { numpy: tccg.numpy } : {}) }, null, 2)}\n`)
  console.log(`wrote ${file}`)
}
if (report.failures.length > 0 || skipped.some((s) => s.system === 'polykern')) process.exitCode = 1

async function benchCase(c: GemmCase): Promise<void> {
  const shapes = operandShapes(c)
  const A = randomF32(elementsOf(shapes.a))
  const B = randomF32(elementsOf(shapes.b))
  const reference = referenceGemm(c, A, B)
  const outputSize = elementsOf(shapes.c)

  /** Verifies one system's output (that call also warms it up), then times it. */
  const bench = async (system: System, threads: 1 | 2, call: () => unknown, output: () => Float32Array | Promise<Float32Array>,
    extra: Partial<CaseResult> = {}): Promise<void> => {
    let out: Float32Array | undefined
    const verifySeconds = await timeCall(async () => void (out = await output()))
    const err = maxRelErr(out!, reference)
    if (!(err <= TOLERANCE)) {
      failures.push({ name: c.name, system, threads, maxRelErr: err })
      log(`  ${system} ${threads}T: WRONG, maxRelErr ${err}`)
      return
    }
    if (isJs(system) && verifySeconds > JS_MAX_CALL_SECONDS) {
      skip(system, `one call took over ${JS_MAX_CALL_SECONDS} s`)
      return
    }
    const t = await measure(call, verifySeconds)
    const gflops = flopsOf(shapeOf(c)) / t.bestSeconds / 1e9
    const medianGflops = flopsOf(shapeOf(c)) / t.medianSeconds / 1e9
    keepFastest(results, { name: c.name, kind: 'gemm', shape: shapeOf(c), system, threads, gflops, maxRelErr: err, medianGflops, ...t, ...extra })
    log(`  ${`${system} ${threads}T`.padEnd(16)} ${gflops.toFixed(2).padStart(8)} GFLOP/s  (median ${medianGflops.toFixed(2)}, ${t.runs} runs, maxRelErr ${err.toExponential(1)})`)
  }
  const skip = (system: System, reason: string): void => {
    skipped.push({ name: c.name, system, reason })
    log(`  ${system}: skipped (${reason})`)
  }

  const entry = kernelEntry(c)
  const sizes = c.batch === undefined ? [c.M, c.N, c.K] : [c.batch, c.M, c.N, c.K]
  const C = new Float32Array(outputSize)
  const callWith = (fn: runtime.KernelFn) => () => fn(A, B, C, ...sizes)
  /** The verification run of `call`: C's old content is NaN, so an element the system never writes fails the check. */
  const writing = (call: () => unknown) => (): Float32Array => {
    C.fill(NaN)
    call()
    return C
  }

  if (!entry.nativeFn) skip('polykern', `the native addon did not load (${entry.addonPath ?? 'no addon'})`)
  if (typeof onednn === 'string') skip('onednn', onednn)
  for (let pass = 0; pass < PASSES; pass++) {
    if (entry.nativeFn) {
      for (const threads of [1, 2] as const) {
        setThreads?.(threads)
        const call = callWith(entry.nativeFn)
        await bench('polykern', threads, call, writing(call), { threadsSet })
        // B as weights an app binds once: its packed blocks are made on the first call and read on later ones.
        const layer = entry.nativeFn.bind({ B })
        const bound = () => layer(A, C, ...sizes)
        await bench('polykern-bound', threads, bound, writing(bound), { threadsSet })
        layer.release()
      }
    }
    for (const threads of [1, 2] as const) {
      const session = await onnxRunner(c, A, B, threads)
      await bench('onnxruntime', threads, session.run, async () => session.outputOf(await session.run()))
      await session.release()
    }
    if (typeof onednn === 'object') await timeOnednn(bench, writing, (threads) => onednn.gemm(c, B, threads), A, C)
  }

  if (flopsOf(shapeOf(c)) > JS_MAX_FLOPS) {
    const reason = `over ${JS_MAX_FLOPS / 1e9} GFLOP per call (5-15 s per call in plain JS)`
    skip('js-loops', reason)
    skip('polykern-js', reason)
    return
  }
  const loops = jsLoops(c)
  const viaLoops = () => loops(A, B, C)
  await bench('js-loops', 1, viaLoops, writing(viaLoops))
  const viaFallback = callWith(entry.js)
  await bench('polykern-js', 1, viaFallback, writing(viaFallback))
}

function setUpOnednn(): Onednn | string {
  try {
    // This bundle is test/.out/bench/main.mjs: the harness is built beside it from the repository's onednn.c.
    const loaded = loadOnednn(new URL('../../../', import.meta.url).pathname, new URL('./', import.meta.url).pathname)
    log(`onednn: oneDNN ${loaded.version}`)
    return loaded
  } catch (e) {
    const reason = (e as Error).message
    log(`onednn: skipped (${reason})`)
    return reason
  }
}

function logPeak(p: Peak): void {
  log(`fp32 FMA peak, 1 core: AVX-512 ${p.avx512?.toFixed(1) ?? 'n/a'}, AVX2 ${p.avx2?.toFixed(1) ?? 'n/a'} GFLOP/s`)
}

function maxOf(a: number | null, b: number | null): number | null {
  return a === null || b === null ? (a ?? b) : Math.max(a, b)
}

function isJs(system: System): boolean {
  return system === 'js-loops' || system === 'polykern-js'
}

/** The compiled kernel a case runs, from this bundle's kernels.ts (the reference to the exports keeps it bundled). */
function kernelEntry(c: GemmCase): runtime.KernelEntry {
  const name = c.batch !== undefined ? 'batchedMatmul' : c.transposed ? 'matmulTransposed' : 'matmul'
  const entry = runtime.kernels().find((k) => k.name === name && k.module.endsWith('test/bench/kernels.ts'))
  if (!entry || typeof (benchKernels as Record<string, unknown>)[name] !== 'function') {
    throw new Error(`bench: kernel ${name} was not compiled by polykern`)
  }
  return entry
}

function selectCases(): readonly GemmCase[] {
  if (args.cases === undefined) return args.quick ? CASES.filter((c) => c.quick) : CASES
  const wanted = args.cases.split(',').map((s) => s.trim()).filter((s) => s !== '')
  const all = [...CASES, ...ROWWISE_CASES, ...CONV_CASES, ...CONV_BIAS_RELU_CASES, ...DENSE_CASES, ...TCCG_CASES, ...EINSUM_PATH_CASES]
  const unknown = wanted.filter((w) => w !== 'tccg' && w !== 'einsum-path' && !all.some((c) => c.name === w))
  if (unknown.length > 0) {
    throw new Error(`bench: unknown case(s) ${unknown.join(', ')}; cases are: tccg, einsum-path, ${all.map((c) => c.name).join(', ')}`)
  }
  return CASES.filter((c) => wanted.includes(c.name))
}

/**
 * What the TCCG cases need from outside this bundle: run.mjs's bundles of tccg-kernels.ts and path-kernels.ts (or why
 * they did not build), kernels.ts's native matmul, and `polykern explain --json`'s contraction paths of path-kernels.ts.
 */
async function tccgContext(): Promise<TccgContext> {
  const status = new URL('./tccg-build.json', import.meta.url)
  const built = (existsSync(status) ? JSON.parse(readFileSync(status, 'utf8')) : {}) as Record<string, string | null>
  const bundle = async (key: string, file: string): Promise<KernelBundle> => {
    if (typeof built[key] === 'string') return { error: built[key] }
    const url = new URL(file, import.meta.url)
    if (!existsSync(url)) return { error: `${file} was not bundled (run the bench through test/bench/run.mjs)` }
    return (await import(url.href)) as KernelBundle
  }
  const matmul = runtime.kernels().find((k) => k.name === 'matmul' && k.module.endsWith('test/bench/kernels.ts'))
  if (typeof benchKernels.matmul !== 'function') throw new Error('bench: kernels.ts matmul was not bundled')
  return {
    tccg: await bundle('tccg', './tccg/tccg-kernels.mjs'),
    paths: await bundle('paths', './paths/path-kernels.mjs'),
    matmul: matmul?.nativeFn ?? null,
    setThreads: (n) => setThreads?.(n),
    explained: explainPaths(),
    numpyMissing: numpyMissing(),
    log,
  }
}

/** `polykern explain --json test/bench/path-kernels.ts` (the built CLI): each kernel's contraction-path decision. */
function explainPaths(): Record<string, ExplainedPath | string> {
  const root = new URL('../../../', import.meta.url)
  const cli = new URL('dist/plugin/cli/index.js', root)
  const run = spawnSync(process.execPath, [cli.pathname, 'explain', 'test/bench/path-kernels.ts', '--json'], {
    cwd: root.pathname, encoding: 'utf8', maxBuffer: 256 * 2 ** 20,
  })
  const why = run.status === 0 ? '' : `polykern explain exited ${run.status}: ${(run.stderr || '').trim().split('\n').slice(0, 2).join(' ')}`
  const out: Record<string, ExplainedPath | string> = {}
  for (const c of EINSUM_PATH_CASES) out[c.name.replace(/-/g, '_')] = why || 'polykern explain did not list it'
  if (why) return out
  const parsed = JSON.parse(run.stdout) as { kernels: { name: string; paths: ExplainedPath[] }[]; errors: { kernel?: string; text: string }[] }
  for (const k of parsed.kernels) out[k.name] = k.paths[0] ?? 'no contraction-path decision (fewer than three factors?)'
  for (const e of parsed.errors) if (e.kernel) out[e.kernel] = `did not compile: ${e.text.split('\n')[0]}`
  return out
}
