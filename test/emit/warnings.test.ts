/**
 * The generated C is clean under the warnings node-gyp turns on (-Wall -Wextra, less unused parameters): every file of
 * the examples' addons, of kernels that once drew a warning and of a CI fuzz module's, checked by the compiler's front
 * end (-fsyntax-only: no code generated, so the check costs seconds). A warning here is either a bug in the emitter or
 * noise every user's build would carry.
 */
import { execFile } from 'node:child_process'
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, expect, it } from 'vitest'
import { nodePrefix } from '../../plugin/addon/toolchain.ts'
import { emitAddonSource, type AddonKernel } from '../../plugin/emit/napi.ts'
import { findKernelSites } from '../../plugin/find/annotations.ts'
import { resolveOptions } from '../../plugin/options.ts'
import { compileKernel } from '../../plugin/pipeline.ts'
import { X86_SYSTEM_HEADER } from '../../plugin/targets/x86.ts'
import { compileAll } from '../fuzz/differential.ts'
import { generateKernels } from '../fuzz/generate.ts'
import { textOf } from '../fuzz/model.ts'

const root = path.resolve(fileURLToPath(import.meta.url), '../../..')
const opts = resolveOptions({ root, cacheDir: 'node_modules/.cache/polykern-test' })
const native = path.join(root, 'native')
const work = path.join(os.tmpdir(), `polykern-warnings-${process.pid}`)
afterAll(() => rmSync(work, { recursive: true, force: true }))
/** The CI fuzz run's seed (differential.test.ts): its first module's kernels. */
const FUZZ_SEED = 20260605
const FUZZ_KERNELS = 80

const EXAMPLES = ['attention/block.ts', 'kmeans/steps.ts', 'kernels/linalg.ts', 'kernels/nn.ts', 'mlp/model.ts', 'image-filter/filters.ts']

/** Each example module's kernels through the pipeline, as the plugin compiles them. */
function exampleModules(): { id: string; kernels: AddonKernel[] }[] {
  return EXAMPLES.map((name) => {
    const file = path.join(root, 'examples', name)
    const code = readFileSync(file, 'utf8')
    const kernels = findKernelSites(file, code).map((site, n) => {
      const compiled = compileKernel(site, code, opts)
      return { kernel: compiled.ir, abi: compiled.abi, symbol: `kc_${n}` }
    })
    return { id: `examples/${name}`, kernels }
  })
}

/**
 * Kernels that once drew a warning, kept whatever the fuzz corpus becomes: a run of a vector loop with no periodic
 * operand declared the phase of its rotated copies (`pk_ra`) and never read it (CI fuzz kernel fz55, seed 20260605).
 */
const WARNED = [
  { name: 'scaleRepeated', params: ['acc', 'B', 'img', 'K'], spec: 'img: f32[1, K, K]\nacc: f32[]\nB: f32[1]\n' +
    'img[s, i, w] *= sigmoid((B[s] / (abs((acc[] + 2.0)) + 1))) where j < 3, u < 2, i < K, w < K' },
]

function warnedModule(): { id: string; kernels: AddonKernel[] } {
  const compiled = compileAll(WARNED, path.join(root, 'test/.out/fuzz/warned.ts'), opts)
  return { id: 'warned.ts', kernels: compiled.map((c, n) => {
    if (!c.ok) throw new Error(`${c.text.name} did not compile`)
    return { kernel: c.compiled.ir, abi: c.compiled.abi, symbol: `kc_${n}` }
  }) }
}

function fuzzModule(): { id: string; kernels: AddonKernel[] } {
  const compiled = compileAll(generateKernels(FUZZ_SEED, FUZZ_KERNELS).map(textOf), path.join(root, 'test/.out/fuzz/warnings.ts'), opts)
  return { id: 'fuzz.ts', kernels: compiled.flatMap((c, n) => (c.ok ? [{ kernel: c.compiled.ir, abi: c.compiled.abi, symbol: `kc_${n}` }] : [])) }
}

// -Wno-tautological-compare: a spec may compare a value with itself (the fuzzer writes `Y[i] != Y[i]` on integers),
// and the C says what the spec says.
const FLAGS = [
  '-std=c11', '-Wall', '-Wextra', '-Wno-unused-parameter', '-Wno-tautological-compare', '-D_GNU_SOURCE',
  '-DNAPI_VERSION=8', '-DPOLYKERN_IDENTITY="0"',
]
const cc = process.env.CC?.trim() || 'cc'
const compile = promisify(execFile)

/** The compiler's warnings for `file` in `dir`, with node-gyp's warning flags, `pch` searched first for headers. */
async function warnings(dir: string, file: string, pch: string): Promise<string> {
  const args = ['-fsyntax-only', ...FLAGS, `-I${pch}`, `-I${native}`, `-I${path.join(nodePrefix(), 'include', 'node')}`, file]
  try {
    const { stdout, stderr } = await compile(cc, args, { cwd: dir, encoding: 'utf8' })
    return stdout + stderr
  } catch (e) {
    return String((e as { stderr?: string }).stderr ?? e)
  }
}

it('every file of the examples\' addons, of kernels that once drew warnings and of a fuzz module compiles without a warning', async () => {
  const modules = [...exampleModules(), warnedModule(), fuzzModule()]
  expect(modules.at(-1)!.kernels.length, 'most fuzz kernels compile').toBeGreaterThan(FUZZ_KERNELS / 2)
  // The vector files' system headers precompiled once, as the builder does: a second per file instead of half a second.
  const pch = path.join(work, 'pch')
  mkdirSync(pch, { recursive: true })
  await compile(cc, ['-x', 'c-header', ...FLAGS, '-o', path.join(pch, `${X86_SYSTEM_HEADER}.gch`), path.join(native, X86_SYSTEM_HEADER)])
  // Each file once: a tile family is the same text in every addon that calls it.
  const files = new Map<string, { dir: string; name: string }>()
  for (const [m, { id, kernels }] of modules.entries()) {
    const dir = path.join(work, String(m))
    mkdirSync(dir, { recursive: true })
    for (const f of emitAddonSource(kernels, { moduleId: id })) {
      writeFileSync(path.join(dir, f.name), f.text)
      if (!(f.shared && files.has(f.name))) files.set(f.shared ? f.name : `${id} ${f.name}`, { dir, name: f.name })
    }
  }
  expect(files.size).toBeGreaterThan(modules.length * 3)
  const queue = [...files]
  const found: string[] = []
  const worker = async (): Promise<void> => {
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      const [label, { dir, name }] = next
      const said = await warnings(dir, name, pch)
      if (said.trim() !== '') found.push(`${label}:\n${said.split('\n').slice(0, 12).join('\n')}`)
    }
  }
  await Promise.all(Array.from({ length: os.availableParallelism() }, worker))
  expect(found.join('\n\n')).toBe('')
}, 300_000)
