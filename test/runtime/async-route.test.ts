// `.async` follows the same route as the sync call: below `jsBelow` the JS loops (on the calling thread), above it
// the addon's own `.async` (observed through a fake addon counting both of its entry points).
import { createRequire } from 'node:module'
import { describe, expect, test } from 'vitest'
import { loadKernels } from '../../runtime/index.ts'
import { descriptor, fakeMatmul, matmulAbi, matmulRef, scratchDir, writeFakeAddon } from './fixtures.ts'

// The fake's `.async` defers its work to a later task, as the libuv worker does, and counts its calls apart.
const fakeWithAsync = `Object.assign(${fakeMatmul}, {
    async: function (...args) {
      module.exports.asyncCalls = (module.exports.asyncCalls ?? 0) + 1
      return new Promise((resolve) => setImmediate(() => { module.exports.matmul(...args); calls--; resolve(undefined) }))
    },
  })`

const require = createRequire(import.meta.url)

describe('.async and the small-call route', () => {
  const dir = scratchDir('async-route')
  const file = writeFakeAddon(dir, 'fake.cjs', { matmul: fakeWithAsync })
  const addon = require(file) as { calls(): number }
  const asyncCalls = () => Number((require(file) as Record<string, unknown>).asyncCalls ?? 0)
  const abi = { ...matmulAbi, work: [[1, 'M', 'N', 'K']] as const, jsBelow: 1000 }
  const { matmul } = loadKernels(descriptor({ module: 'async-route.ts', addon: 'fake.cjs', base: file, kernels: { matmul: { abi, js: matmulRef as never } } }))

  const args = (n: number) => [new Float32Array(n * n).fill(1), new Float32Array(n * n).fill(2), new Float32Array(n * n), n, n, n]

  test('a call below jsBelow runs the JS loops; a larger one the addon\'s .async; both resolve with C', async () => {
    const small = args(4)
    const before = addon.calls()
    expect(await matmul.async(...small)).toBe(small[2])
    expect(addon.calls()).toBe(before)
    expect([...(small[2] as Float32Array)]).toEqual(new Array(16).fill(8))

    const large = args(12)
    const pending = matmul.async(...large)
    // Not run yet: the fake's .async works in a later task, like the real one on its worker.
    expect((large[2] as Float32Array)[0]).toBe(0)
    expect(await pending).toBe(large[2])
    expect((large[2] as Float32Array)[0]).toBe(24)
    expect(asyncCalls()).toBe(1)
  })
})
