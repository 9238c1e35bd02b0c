/**
 * The module pipeline (plugin/pipeline.ts, MODULE_STEPS): compileFile runs the named steps in order and records each,
 * stops after `through` and resumes `from` a state without running a step twice, keeps going past a spec error when
 * asked, and its `locate` mode finds a built addon without ever building one. compileModule is all of its steps.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { KernelDiagnostic } from '../../plugin/diagnostics.ts'
import { resolveOptions } from '../../plugin/options.ts'
import { MODULE_STEPS, compileFile, compileModule } from '../../plugin/pipeline.ts'

const root = mkdtempSync(path.join(os.tmpdir(), 'polykern-module-steps-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))
const file = path.join(root, 'kernels.ts')
const js = resolveOptions({ root, native: false, cacheDir: path.join(root, 'cache') })

const kernel = (name: string, statement: string) => `
/* @kernel
   A: f32[N]
   B: f32[N]
   ${statement}
*/
export function ${name}(A: Float32Array, B: Float32Array, N: number): void {}
`
const SCALE = kernel('scale', 'B[i] = A[i] * 2')
const DOUBLE = kernel('double', 'B[i] = A[i] + A[i]')
const BROKEN = kernel('broken', 'B[i] = A[j]')

const names = (s: { steps: readonly { name: string }[] }) => s.steps.map((x) => x.name)

describe('compileFile', () => {
  test('runs every step in order, recording what each did', async () => {
    const s = await compileFile(file, SCALE + DOUBLE, js)
    expect(names(s)).toEqual(MODULE_STEPS.map((x) => x.name))
    expect(names(s)).toEqual(['find', 'compile', 'tune', 'build', 'calibrate', 'rewrite'])
    expect(s.steps.map((x) => x.did)).toEqual([
      '2 kernels', '2 compiled', 'off (native: false)', 'native: false', 'off (no `calibrate` option)', '2 functions call the JS loops',
    ])
    expect(s.kernels.map((k) => k.abi.name)).toEqual(['scale', 'double'])
    expect(s.nativeReason).toBe('native: false')
    expect(s.output?.code).toContain('polykern/runtime')
  })

  test('stops after `through`, and resumes `from` there without running a step again', async () => {
    const found = await compileFile(file, SCALE + DOUBLE, js, { through: 'find' })
    expect(names(found)).toEqual(['find'])
    expect(found.kernels).toEqual([])
    const rest = await compileFile(file, SCALE + DOUBLE, js, { from: found })
    expect(names(rest)).toEqual(MODULE_STEPS.map((x) => x.name))
    expect(rest.steps[0]).toBe(found.steps[0])
    expect(rest.output).toBeDefined()
  })

  test('a file without kernels stops after find', async () => {
    const s = await compileFile(file, 'export const x = 1\n', js)
    expect(names(s)).toEqual(['find'])
    expect(s.steps[0].did).toBe('0 kernels')
  })

  test('a spec error: thrown by default; collected on request, the other kernels compiled, no addon', async () => {
    await expect(compileFile(file, SCALE + BROKEN, js)).rejects.toBeInstanceOf(KernelDiagnostic)
    const native = { ...js, native: true }
    const s = await compileFile(file, SCALE + BROKEN, native, { errors: 'collect', through: 'build' })
    expect(s.kernels.map((k) => k.abi.name)).toEqual(['scale'])
    expect(s.errors.map((e) => e.kernel)).toEqual(['broken'])
    expect(s.steps.find((x) => x.name === 'compile')?.did).toBe('1 compiled, 1 with errors')
    expect(s.addon).toBeUndefined()
    expect(s.nativeReason).toBe('a kernel of the file has an error')
  })

  test('`only` compiles one kernel', async () => {
    const s = await compileFile(file, SCALE + DOUBLE, js, { only: 'double', through: 'compile' })
    expect(s.sites.map((x) => x.name)).toEqual(['scale', 'double'])
    expect(s.kernels.map((k) => k.abi.name)).toEqual(['double'])
  })

  test('`locate` never builds; after a build it finds the same addon', { timeout: 120_000 }, async () => {
    const native = { ...js, native: true, cacheDir: path.join(root, 'native-cache') }
    const located = await compileFile(file, SCALE, native, { addon: 'locate', through: 'build' })
    expect(located.addon).toBeUndefined()
    expect(located.nativeReason).toBe('none in the cache for the current source')
    const built = await compileFile(file, SCALE, native, { through: 'build' })
    expect(built.addon?.cached).toBe(false)
    expect(located.addonDir).toBe(built.addonDir)
    const again = await compileFile(file, SCALE, native, { addon: 'locate', through: 'build' })
    expect(again.addon).toEqual({ ...built.addon, cached: true })
    expect(again.steps.at(-1)?.did).toBe('found in the cache')
  })
})

test('compileModule is every step: the rewritten code, kernels and warnings of compileFile', async () => {
  const module = await compileModule(file, SCALE, js)
  const state = await compileFile(file, SCALE, js)
  expect(module?.code).toBe(state.output?.code)
  expect(module?.kernels.map((k) => k.abi)).toEqual(state.kernels.map((k) => k.abi))
  expect(await compileModule(file, 'export {}\n', js)).toBeUndefined()
})
