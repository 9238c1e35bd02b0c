/** The unplugin factory's hooks, called directly with a fake bundler context (the real bundlers: bundlers.test.ts). */
import fs from 'node:fs'
import path from 'node:path'
import type { UnpluginBuildContext, UnpluginContext, UnpluginContextMeta, UnpluginMessage, UnpluginOptions } from 'unplugin'
import { describe, expect, test } from 'vitest'
import { unpluginFactory } from '../../plugin/index.ts'
import { fixtureRoot } from './build.ts'

const cacheDir = path.join(import.meta.dirname, '../.out/bundlers/cache')
const kernelsFile = path.join(fixtureRoot, 'src/kernels.ts')
const brokenFile = path.join(fixtureRoot, 'broken/kernels.ts')

type Handler<F> = F extends { handler: infer H } ? H : never
type Transform = Handler<NonNullable<UnpluginOptions['transform']>>

function plugin(framework: 'rollup' | 'webpack', native = true) {
  const meta = { framework, versions: {} } as unknown as UnpluginContextMeta
  const raw = unpluginFactory({ root: fixtureRoot, cacheDir, native }, meta)
  const emitted: { fileName?: string; source?: unknown }[] = []
  const errors: UnpluginMessage[] = []
  const ctx = {
    emitFile: (f) => emitted.push(f),
    error: (m) => errors.push(typeof m === 'string' ? { message: m } : m),
    warn: () => {},
  } as Partial<UnpluginBuildContext & UnpluginContext> as UnpluginBuildContext & UnpluginContext
  const hook = raw.transform as { handler: Transform; filter: unknown }
  const transform = (code: string, id: string) => hook.handler.call(ctx, code, id) as Promise<{ code: string } | undefined>
  return { raw, hook, transform, emitted, errors }
}

describe('transform', () => {
  test('rewrites a kernel module and emits its addon as an asset', async () => {
    const p = plugin('rollup')
    const out = await p.transform(fs.readFileSync(kernelsFile, 'utf8'), kernelsFile)
    expect(out!.code).toContain("from 'polykern/runtime'")
    expect(out!.code).toContain('export const softmax = function (X: Float32Array, Y: Float32Array, N: number, D: number): Float32Array {\n  return __polykern.softmax(...arguments)\n}')
    expect(p.emitted).toHaveLength(1)
    expect(p.emitted[0]).toMatchObject({ type: 'asset', fileName: expect.stringMatching(/^polykern-[0-9a-f]{16}\.node$/) })
    expect((p.emitted[0].source as Buffer).subarray(0, 4)).toEqual(Buffer.from([0x7f, 0x45, 0x4c, 0x46])) // ELF
  }, 60_000)

  test('native: false emits nothing', async () => {
    const p = plugin('rollup', false)
    const out = await p.transform(fs.readFileSync(kernelsFile, 'utf8'), kernelsFile)
    expect(out!.code).toContain('reason: "native: false"')
    expect(p.emitted).toEqual([])
  })

  test('the filter skips modules without the tag, and modules already rewritten', () => {
    const { filter } = plugin('rollup').hook as { filter: { code: { include: string; exclude: string } } }
    expect(filter.code).toEqual({ include: '@kernel', exclude: '__polykern_load' })
  })

  test('a diagnostic becomes this.error with the code, location and frame', async () => {
    const p = plugin('rollup')
    await p.transform(fs.readFileSync(brokenFile, 'utf8'), brokenFile)
    expect(p.errors).toHaveLength(1)
    expect(p.errors[0]).toMatchObject({ code: 'spec_unknown_tensor', loc: { file: brokenFile, line: 6, column: 18 } }) // 1-based
    expect(p.errors[0].message).toMatch(/^\[polykern\] Unknown tensor 'w'.*\[spec_unknown_tensor\]/)
  })

  test('for webpack the message itself carries file:line:column and the frame', async () => {
    const p = plugin('webpack')
    await p.transform(fs.readFileSync(brokenFile, 'utf8'), brokenFile)
    expect(p.errors[0].message.startsWith(`${brokenFile}:6:18: [polykern] Unknown tensor 'w'`)).toBe(true)
    expect(p.errors[0].message).toContain('> 6 |    y[i] = x[i] * w[i]')
  })
})

describe('the runtime module', () => {
  const { raw } = plugin('rollup')
  const resolveId = raw.resolveId as { handler: () => string; filter: { id: RegExp } }
  const load = raw.load as { handler: (id: string) => { code: string; map: { sources: string[] } }; filter: { id: RegExp } }

  test("'polykern/runtime' resolves to the runtime's entry", () => {
    expect(resolveId.filter.id.test('polykern/runtime')).toBe(true)
    expect(resolveId.filter.id.test('polykern/runtime/x')).toBe(false)
    expect(resolveId.handler()).toBe(path.join(import.meta.dirname, '../../runtime/index.ts'))
  })

  test('runtime files load as JavaScript with a source map', () => {
    const entry = resolveId.handler()
    expect(load.filter.id.test(entry)).toBe(true)
    expect(load.filter.id.test(kernelsFile)).toBe(false)
    const { code, map } = load.handler(entry)
    expect(code).toContain('export function loadKernels(desc)')
    expect(code).not.toMatch(/interface |: KernelModuleDescriptor/)
    expect(code).toContain("from './load-addon.ts'")
    expect(map.sources).toEqual(['index.ts'])
  })
})
