/**
 * A bundle under Node's restricting flags, each in a child process: where addons may load it runs natively; where
 * they may not (`--no-addons`, the permission model without `--allow-addons`) it runs its JS loops after one
 * `runtime_fallback` warning that says why; and neither the runtime nor the rewritten code needs what the others
 * take away (code generation from strings, the JIT, mutable intrinsics, `__proto__`). Results are exact: the inputs
 * are small integers.
 */
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { beforeAll, expect, it } from 'vitest'
import { bundleForNode } from '../support/esbuild-bundle.ts'

const root = path.resolve(import.meta.dirname, '../..')
const child = path.join(import.meta.dirname, 'node-flags-child.mjs')
// Node 20 and 21 call the permission model experimental; later versions name it --permission.
const permission = process.allowedNodeEnvironmentFlags.has('--permission') ? '--permission' : '--experimental-permission'

let bundle: string
beforeAll(async () => {
  bundle = await bundleForNode(path.join(root, 'test/workers/kernels.ts'), path.join(root, 'test/.out/node-flags'))
})

interface Report {
  readonly native: boolean
  readonly sync: number
  readonly async: number
  readonly warnings: readonly { readonly name: string; readonly code?: string; readonly message: string }[]
}

function runUnder(flags: readonly string[]): Report {
  const run = spawnSync(process.execPath, [...flags, child, bundle], { encoding: 'utf8', timeout: 60_000 })
  expect(run.status, `${flags.join(' ')}:\n${run.stdout}${run.stderr}`).toBe(0)
  const report = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as Report
  // Node's own notices about experimental or risky flags are not polykern's.
  return { ...report, warnings: report.warnings.filter((w) => w.name === 'PolykernWarning') }
}

const NATIVE: readonly (readonly string[])[] = [
  [],
  ['--disallow-code-generation-from-strings'],
  ['--jitless'],
  ['--frozen-intrinsics'],
  ['--disable-proto=throw'],
  [permission, '--allow-fs-read=*', '--allow-addons'],
]

for (const flags of NATIVE) {
  it(`native and exact under ${flags.length === 0 ? 'no flags' : flags.join(' ')}`, () => {
    expect(runUnder(flags)).toEqual({ native: true, sync: 0, async: 0, warnings: [] })
  })
}

for (const flags of [['--no-addons'], [permission, '--allow-fs-read=*']]) {
  it(`JS loops after one warning naming the refusal, exact, under ${flags.join(' ')}`, () => {
    const report = runUnder(flags)
    expect(report).toMatchObject({ native: false, sync: 0, async: 0 })
    expect(report.warnings).toHaveLength(1)
    expect(report.warnings[0].code).toBe('runtime_fallback')
    expect(report.warnings[0].message).toMatch(/could not load the native kernels for test\/workers\/kernels\.ts .*loading addons is disabled/)
  })
}
