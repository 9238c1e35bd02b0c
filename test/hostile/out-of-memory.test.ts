/**
 * A temporary too large for the memory there is (but within the element limit): the same RangeError,
 * `runtime_out_of_memory`, naming the kernel and its temporary, on the native path and the JS fallback. Run in a
 * child process under a 3 GB address-space limit (`ulimit -v`), so the allocation fails on any machine.
 */
import { spawnSync } from 'node:child_process'
import { expect, test } from 'vitest'
import path from 'node:path'
import { nodeTs } from '../fuzz/node-ts.ts'
import { buildHostileAddon } from './kernels.ts'

test('a 4 GB temporary under a 3 GB limit: runtime_out_of_memory on both paths, identical', async () => {
  await buildHostileAddon() // here, so the child only loads it
  const script = path.join(import.meta.dirname, 'out-of-memory-child.ts')
  const child = spawnSync('bash', ['-c', 'ulimit -v 3000000 && exec "$0" "$@"', process.execPath, ...nodeTs(script)], { encoding: 'utf8' })
  expect(child.status, child.stderr).toBe(0)
  const { native, js } = JSON.parse(child.stdout)
  expect(native).toEqual(js)
  expect(native).toMatchObject({ type: 'RangeError', code: 'runtime_out_of_memory', kernel: 'viaTemp' })
  expect(native.message).toMatch(/^viaTemp\(\): not enough memory for its temporaries \('outer'\) \(at .+\)$/)
}, 120_000)
