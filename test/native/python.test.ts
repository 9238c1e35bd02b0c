// node-gyp is told which Python to run, found once per process, so a version manager's `python3` shim (pyenv's costs
// half a second of CPU per call) runs once, not on every addon build.
import { execFileSync } from 'node:child_process'
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, expect, it, vi } from 'vitest'
import { buildAddon } from '../../plugin/addon/build.ts'
import { pythonFor } from '../../plugin/addon/toolchain.ts'

const tmp = mkdtempSync(path.join(os.tmpdir(), 'polykern-python-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

const interpreter = execFileSync('python3', ['-c', 'import sys; sys.stdout.write(sys.executable)'], { encoding: 'utf8' })

it('gives node-gyp the interpreter python3 resolves to, unless the user chose one for node-gyp', async () => {
  expect(await pythonFor({})).toEqual([`--python=${interpreter}`])
  for (const name of ['NODE_GYP_FORCE_PYTHON', 'npm_config_python', 'PYTHON']) {
    expect(await pythonFor({ [name]: '/opt/python3' }), name).toEqual([])
  }
})

it('two addon builds run the python3 on PATH once at most', async () => {
  // A python3 first on PATH that counts its calls and runs the real interpreter.
  const bin = path.join(tmp, 'bin')
  const calls = path.join(tmp, 'calls')
  mkdirSync(bin, { recursive: true })
  writeFileSync(calls, '')
  writeFileSync(path.join(bin, 'python3'), `#!/bin/sh\necho "$@" >> '${calls}'\nexec '${interpreter}' "$@"\n`)
  chmodSync(path.join(bin, 'python3'), 0o755)
  vi.stubEnv('PATH', `${bin}${path.delimiter}${process.env.PATH}`)
  for (const name of ['NODE_GYP_FORCE_PYTHON', 'npm_config_python', 'PYTHON']) vi.stubEnv(name, undefined)
  for (const n of [1, 2]) {
    const source = `#include <node_api.h>\nstatic int pk_built_${n};\nNAPI_MODULE_INIT() { (void)pk_built_${n}; return exports; }\n`
    const built = await buildAddon({ sources: [{ name: 'polykern.c', text: source }], cacheDir: path.join(tmp, 'cache') })
    expect(built.ok, built.ok ? '' : built.error).toBe(true)
  }
  // Once where this worker had not looked for Python yet (pythonArgument), never where it had.
  expect(readFileSync(calls, 'utf8').split('\n').filter((l) => l !== '').length).toBeLessThanOrEqual(1)
})
