/**
 * `polykern explain` end to end, in-process: what it prints for the example kernels, its JSON, its exit codes for
 * a spec error and an unknown kernel, and where it finds the addon a build made.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { FileExplanation } from '../../plugin/explain.ts'
import { findKernelSites } from '../../plugin/find/annotations.ts'
import { SPEC_CODES } from '../../plugin/messages.ts'
import { resolveOptions } from '../../plugin/options.ts'
import { BLOCK_PASSES, LOWERING_PASSES, compileModule } from '../../plugin/pipeline.ts'
import { ROOT } from '../support/examples.ts'
import { runCli } from './io.ts'

const LINALG = 'examples/kernels/linalg.ts'
const STEPS = ['build', ...BLOCK_PASSES.map((p) => p.name), ...LOWERING_PASSES.map((p) => p.name)]
const S = 64
const ANSI = '\x1b['
const scratch = path.join(ROOT, 'test/.out', `cli-${process.pid}`)
mkdirSync(scratch, { recursive: true })

describe('explain FILE', () => {
  it('prints every kernel of the file, each with every pass', async () => {
    const run = await runCli(['explain', LINALG])
    expect(run.code, run.stderr).toBe(0)
    const names = findKernelSites(LINALG, readFileSync(path.join(ROOT, LINALG), 'utf8')).map((s) => s.name)
    expect(names.length).toBeGreaterThan(5)
    for (const name of names) expect(run.stdout).toContain(`kernel ${name}  ${LINALG}:`)
    const sections = run.stdout.split(/^kernel /m).slice(1)
    expect(sections).toHaveLength(names.length)
    for (const s of sections) {
      for (const step of STEPS) expect(s).toMatch(new RegExp(`^  ${step}( \\(unchanged\\))?$`, 'm'))
      for (const title of ['spec', 'passes', 'analysis of the block form', 'microkernels']) {
        expect(s).toMatch(new RegExp(`^${title}$`, 'm'))
      }
    }
    // matmul has no product of three factors: its contraction-path step changed nothing.
    expect(sections.find((s) => s.startsWith('matmul '))).toContain('contraction-path (unchanged)')
    expect(run.stdout).not.toContain(ANSI)
  })

  it("mlp: the first layer's bias + ReLU is fused into its GEMM and applied by the register tiles", async () => {
    const run = await runCli(['explain', 'examples/mlp/model.ts'])
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toContain('s1 fused as the epilogue, applied in registers to each GEMM tile of the last k block in place on A')
    expect(run.stdout).toContain('# epilogue: the last 1 on each register tile of the last k block')
  })

  it('five factors: a step several candidate paths take is one block, and explain says how many', async () => {
    const file = path.join(scratch, 'five.ts')
    writeFileSync(file, [
      '/* @kernel',
      'X: f32[E, A]', 'Y: f32[F, B]', 'Z: f32[A, B, C, D]', 'U: f32[G, C]', 'V: f32[H, D]', 'O: f32[E, F, G, H]',
      'O[e, f, g, h] +=! X[e, a] * Y[f, b] * Z[a, b, c, d] * U[g, c] * V[h, d]',
      '*/',
      'export function five(X: Float32Array, Y: Float32Array, Z: Float32Array, U: Float32Array, V: Float32Array, ' +
        'O: Float32Array, E: number, F: number, G: number, H: number, A: number, B: number, C: number, D: number): void {}',
    ].join('\n'))
    const run = await runCli(['explain', file, '--json'])
    expect(run.code, run.stderr).toBe(0)
    const [decision] = (JSON.parse(run.stdout) as FileExplanation).kernels[0].paths
    const taken = decision.candidates.flatMap((c) => c.steps.map((s) => s.block))
    const blocks = new Set(taken).size
    expect(blocks).toBeLessThan(taken.length / 2)
    const text = await runCli(['explain', file])
    expect(text.stdout).toContain(`(${decision.choice}) (their ${taken.length} steps are ${blocks} blocks: a step several take is written once):`)
  })

  it('chain3: the paths chosen, both blocks matched as GEMMs, and the multiply-adds before and after', async () => {
    const run = await runCli(['explain', `${LINALG}:chain3`])
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout.match(/^kernel /gm)).toHaveLength(1)
    const before = S ** 4
    const after = 2 * S ** 3
    expect(run.stdout).toContain(`before: ${before.toLocaleString('en-US')} multiply-adds`)
    expect(run.stdout).toContain(`after: ${after.toLocaleString('en-US')} multiply-adds, ${before / after}× fewer`)
    expect(run.stdout).toMatch(/s0\.1 +s0_t1\[e, b\] \+= \(X\[e, a\] \* Y\[a, b\]\) +sums a/)
    expect(run.stdout).toMatch(/s0\.1: contraction m e, n b, k a/)
    // Both orders are candidates; each call runs the cheaper at its sizes.
    expect(run.stdout).toContain('2 candidates; a call runs the one costing least at its sizes (s0_path):')
    expect(run.stdout).toMatch(/0: A·B·E \+ B·E·F multiply-adds; s0_t1\[e, b\] \+= /)
    expect(run.stdout).toMatch(/1: A·B·F \+ A·E·F multiply-adds; s0_p1_t1\[f, a\] \+= /)
    expect(run.stdout).toMatch(/s0: contraction m e, n f, k b/)
    expect(run.stdout).toMatch(/mc=\d+ nc=\d+ kc=\d+ order=[mnk]{3} parallel=/)
    // Each schedule's blocking, then the shape classes' own with their guards.
    expect(run.stdout).toMatch(/avx512 gemm_f32_avx512_\d+x\d+: mc \d+ nc \d+ kc \d+, order [mnk]{3}, inner (mn|nm), parallel/)
    expect(run.stdout).toMatch(/ {8}when M <= \d+: mc \d+ nc \d+ kc \d+, order [mnk]{3}/)
    expect(run.stdout).not.toContain('[object Object]')
  })

  it('matmul: the schedule model, its working sets per cache level, and the ranked runners-up with their cost', async () => {
    const run = await runCli(['explain', `${LINALG}:matmul`])
    expect(run.code, run.stderr).toBe(0)
    const section = run.stdout.slice(run.stdout.indexOf('schedule model'))
    expect(section).toMatch(/s0 on avx512 \(gemm_f32_avx512_\d+x\d+\), large class at 1024×1024×1024: mc \d+ .*predicted \d+ GFLOP\/s/)
    expect(section).toMatch(/ {6}L[123] \(\d+ KiB\): \w+ reused across \w+ [\d.]+ KiB/)
    const ranks = [...section.matchAll(/#(\d+) mc \d+ nc \d+ kc \d+, .*: ([\d.e+]+) cycles/g)]
    expect(ranks.map((r) => Number(r[1]))).toEqual([1, 2, 3, 4, 5, 6, 7, 8])
    expect(ranks.every((r) => Number(r[2]) > 0)).toBe(true)
    const json = JSON.parse((await runCli(['explain', `${LINALG}:matmul`, '--json'])).stdout) as FileExplanation
    expect(json.kernels[0].models[0].ranking).toHaveLength(8)
    expect(json.kernels[0].models[0].schedules.map((x) => x.isa)).toEqual(['avx512', 'avx2'])
  })

  it('--json: the same decisions as data', async () => {
    const run = await runCli(['explain', `${LINALG}:chain3`, '--json'])
    expect(run.code, run.stderr).toBe(0)
    const x = JSON.parse(run.stdout) as FileExplanation
    expect(x.file).toBe(LINALG)
    expect(x.kernels.map((k) => k.name)).toEqual(['chain3'])
    const k = x.kernels[0]
    expect(k.steps.map((s) => s.name)).toEqual(STEPS)
    expect(k.spec.tensors.map((t) => `${t.name}:${t.role}`)).toEqual(['X:in', 'Y:in', 'Z:in', 'O:out'])
    expect(k.spec.statements[0]).toMatchObject({ reduced: ['a', 'b'], text: 'O[e, f] +=! X[e, a] * Y[a, b] * Z[b, f]' })
    const path0 = { block: 's0', factorized: true, costBefore: S ** 4, costAfter: 2 * S ** 3 }
    expect(k.paths).toEqual([expect.objectContaining(path0)])
    expect(k.paths[0]).toMatchObject({ choice: 's0_path' })
    expect(k.paths[0].candidates.map((c) => c.cost)).toEqual(['A·B·E + B·E·F', 'A·B·F + A·E·F'])
    const matched = k.microkernels.filter((m) => m.roles)
    expect(matched.map((m) => m.block)).toEqual(['s0.1', 's0', 's0.p1.1', 's0.p1'])
    for (const m of matched) {
      expect(m.schedules[0]).toEqual(expect.objectContaining({ mc: expect.any(Number), order: expect.any(Array) }))
    }
  })

  it('a kernel that does not match any microkernel says why, per ISA', async () => {
    const run = await runCli(['explain', `${LINALG}:transpose`, '--json'])
    const x = JSON.parse(run.stdout) as FileExplanation
    const [m] = x.kernels[0].microkernels
    expect(m.roles).toBeUndefined()
    expect(m.log.join('\n')).toMatch(/no avx2 microkernel: .*: /)
  })

  it('colours only on a TTY, and not with NO_COLOR', async () => {
    expect((await runCli(['explain', `${LINALG}:dot`], { tty: true })).stdout).toContain(ANSI)
    expect((await runCli(['explain', `${LINALG}:dot`], { tty: true, env: { NO_COLOR: '1' } })).stdout).not.toContain(ANSI)
  })
})

describe('explain: errors', () => {
  const bad = path.join(scratch, 'bad.ts')
  const text = [
    '/* @kernel',
    '   x: f32[N]',
    '   y: f32[N]',
    '   y[i] = x[i] * 2',
    '*/',
    'export function fine(x: Float32Array, y: Float32Array, N: number) {}',
    '',
    '/* @kernel',
    '   A: f32[M, K]',
    '   C: f32[M]',
    '   C[i] +=! A[i, k] * Q[k]',
    '*/',
    'export function broken(A: Float32Array, C: Float32Array, M: number, K: number) {}',
    '',
  ].join('\n')
  writeFileSync(bad, text)
  const relative = path.relative(ROOT, bad)

  it('a spec error exits 1 with its code and file:line:column; the other kernels are still explained', async () => {
    const run = await runCli(['explain', relative])
    expect(run.code).toBe(1)
    expect(SPEC_CODES).toContain('spec_unknown_tensor')
    expect(run.stderr).toContain('[spec_unknown_tensor]')
    const at = text.indexOf('Q[k]')
    const line = text.slice(0, at).split('\n').length
    const column = at - text.lastIndexOf('\n', at - 1)
    expect(run.stderr).toContain(`${relative}:${line}:${column}: `)
    expect(run.stderr).toMatch(/\^/)
    expect(run.stdout).toContain('kernel fine')
    expect(run.stdout).not.toContain('kernel broken')
  })

  it('an unknown kernel exits 2 and lists the file\'s kernels', async () => {
    const run = await runCli(['explain', `${LINALG}:noSuchKernel`])
    expect(run.code).toBe(2)
    expect(run.stderr).toContain("no kernel 'noSuchKernel'")
    expect(run.stderr).toContain('chain3')
    expect(run.stdout).toBe('')
  })

  it('a missing file, a file without kernels, a bad option and a missing argument exit 2', async () => {
    const plain = path.join(scratch, 'plain.ts')
    writeFileSync(plain, 'export const x = 1\n')
    for (const argv of [['explain', 'no/such/file.ts'], ['explain', plain], ['explain', LINALG, '--jsn'], ['explain']]) {
      const run = await runCli(argv)
      expect(run.code, argv.join(' ')).toBe(2)
      expect(run.stderr, argv.join(' ')).toContain('Usage: polykern explain')
    }
  })
})

describe('explain: where the C is', () => {
  it('finds the addon the bundler path builds, and --build builds the same one', async () => {
    const file = path.join(scratch, 'small.ts')
    const spec = '/* @kernel\n  x: f64[N]\n  y: f64[N]\n  y[i] = x[i] * 3\n*/\n'
    writeFileSync(file, `${spec}export function triple(x: Float64Array, y: Float64Array, N: number) {}\n`)
    const cacheDir = path.join(scratch, 'cache')
    const args = ['explain', path.relative(ROOT, file), '--json', '--cache-dir', cacheDir]
    const first = JSON.parse((await runCli(args)).stdout) as FileExplanation
    expect(first.addon.built).toBe(false)

    const built = JSON.parse((await runCli([...args, '--build'])).stdout) as FileExplanation
    expect(built.addon).toMatchObject({ built: true, files: expect.arrayContaining(['polykern.c', 'polykern.node']) })
    expect(built.addon.dir).toBe(first.addon.dir)

    const opts = resolveOptions({ root: ROOT, cacheDir, calibrate: false })
    const compiled = await compileModule(file, readFileSync(file, 'utf8'), opts)
    expect(compiled?.addon?.cached).toBe(true)
    expect(path.dirname(compiled!.addon!.path)).toBe(built.addon.dir)
    const again = await runCli(args.slice(0, 2).concat(['--cache-dir', cacheDir]))
    expect(again.stdout).toContain(`built: ${built.addon.dir}`)
  })

  it('lists the module steps a build runs through `build`, tuning when --tune asks', async () => {
    const file = path.join(scratch, 'steps.ts')
    const spec = '/* @kernel\n  x: f64[N]\n  y: f64[N]\n  y[i] = x[i] + 1\n*/\n'
    writeFileSync(file, `${spec}export function plusOne(x: Float64Array, y: Float64Array, N: number) {}\n`)
    const args = ['explain', path.relative(ROOT, file), '--json', '--cache-dir', path.join(scratch, 'steps-cache')]
    const plain = JSON.parse((await runCli(args)).stdout) as FileExplanation
    expect(plain.moduleSteps.map((s) => [s.name, s.did])).toEqual([
      ['find', '1 kernel'], ['compile', '1 compiled'], ['tune', 'off (no `tune` option)'], ['build', 'none in the cache for the current source'],
    ])
    const tuned = JSON.parse((await runCli([...args, '--tune'])).stdout) as FileExplanation
    expect(tuned.moduleSteps.find((s) => s.name === 'tune')?.did).toBe('0 of 1 kernels tuned')
    const text = (await runCli(args.filter((a) => a !== '--json'))).stdout
    expect(text).toMatch(/^module steps of .*steps\.ts \(as a build runs them\)\n {2}find +1 kernel +[\d.]+ ms$/m)
  })
})
