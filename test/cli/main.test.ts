/**
 * The `polykern` command itself: help, version, the exit codes scripts rely on, and the executable as a real
 * process (its entry bundled with esbuild, as `npm run build` compiles it with tsc: the shebang line survives).
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { build } from 'esbuild'
import { describe, expect, it } from 'vitest'
import { main } from '../../plugin/cli/main.ts'
import { ROOT } from '../support/examples.ts'
import { runCli } from './io.ts'

type Manifest = { version: string; bin: Record<string, string> }
const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as Manifest

describe('polykern', () => {
  it('--help lists the commands and the exit codes; no command is a usage error', async () => {
    const help = await runCli(['--help'])
    expect(help.code).toBe(0)
    expect(help.stdout).toMatch(/^ {2}explain /m)
    expect(help.stdout).toMatch(/0 ok, 1 .*, 2 .*, 3 /)
    const none = await runCli([])
    expect(none.code).toBe(2)
    expect(none.stderr).toContain('Usage: polykern <command>')
  })

  it('--version prints the package version', async () => {
    expect(await runCli(['--version'])).toMatchObject({ code: 0, stdout: `${manifest.version}\n` })
  })

  it('an unknown command exits 2', async () => {
    const run = await runCli(['explian', 'x.ts'])
    expect(run.code).toBe(2)
    expect(run.stderr).toContain("unknown command 'explian'")
  })

  it('each command has --help, exit 0', async () => {
    for (const flag of ['--help', '-h']) {
      const run = await runCli(['explain', 'whatever.ts', flag])
      expect(run.code).toBe(0)
      expect(run.stdout).toMatch(/^Usage: polykern explain FILE\[:KERNEL\]/)
      expect(run.stdout).toContain('Exit codes:')
    }
  })

  it('anything else that escapes a command is reported as a bug, exit 3', async () => {
    let stderr = ''
    const code = await main(['explain', 'examples/kernels/linalg.ts:dot'], {
      stdout: { write: () => { throw new RangeError('stdout is gone') } },
      stderr: { write: (s: string) => (stderr += s) },
      cwd: ROOT,
      env: {},
    })
    expect(code).toBe(3)
    expect(stderr).toContain('internal error')
    expect(stderr).toContain('stdout is gone')
  })
})

describe('the executable', () => {
  const dir = path.join(ROOT, 'test/.out', `cli-bin-${process.pid}`)
  const entry = path.join(ROOT, 'plugin/cli/index.ts')
  const bin = path.join(dir, 'polykern.mjs')

  it('package.json points `polykern` at the compiled entry, which starts with a shebang', () => {
    expect(manifest.bin.polykern).toBe('./dist/plugin/cli/index.js')
    expect(readFileSync(entry, 'utf8').split('\n')[0]).toBe('#!/usr/bin/env node')
  })

  it('runs as a process with the documented exit codes', async () => {
    mkdirSync(dir, { recursive: true })
    await build({
      entryPoints: [entry], bundle: true, platform: 'node', format: 'esm', packages: 'external', outfile: bin, logLevel: 'silent',
    })
    expect(readFileSync(bin, 'utf8').split('\n')[0]).toBe('#!/usr/bin/env node')
    const run = (...args: string[]) => spawnSync(process.execPath, [bin, ...args], { cwd: ROOT, encoding: 'utf8' })

    const ok = run('explain', 'examples/kernels/linalg.ts:chain3', '--json')
    expect(ok.status, ok.stderr).toBe(0)
    expect(JSON.parse(ok.stdout).kernels[0].name).toBe('chain3')

    const bad = path.join(dir, 'bad.ts')
    writeFileSync(bad, '/* @kernel\n  x: f32[N]\n  y[i] = x[i]\n*/\nexport function f(x: Float32Array, N: number) {}\n')
    const userError = run('explain', bad)
    expect(userError.status).toBe(1)
    expect(userError.stderr).toMatch(/\[spec_\w+\]/)

    expect(run('explain', 'examples/kernels/linalg.ts:nope').status).toBe(2)
    expect(run('nope').status).toBe(2)
  })
})
