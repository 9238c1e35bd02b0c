import fs from 'node:fs'
import path from 'node:path'
import type { KernelAbi } from '../../runtime/abi.ts'
import type { KernelModuleDescriptor } from '../../runtime/index.ts'

export const matmulAbi: KernelAbi = {
  name: 'matmul',
  loc: 'src/linalg.ts:3:1',
  params: [
    { kind: 'tensor', name: 'A', dtype: 'f32', shape: ['M', 'K'], role: 'in' },
    { kind: 'tensor', name: 'B', dtype: 'f32', shape: ['K', 'N'], role: 'in' },
    { kind: 'tensor', name: 'C', dtype: 'f32', shape: ['M', 'N'], role: 'out' },
    { kind: 'size', name: 'M' },
    { kind: 'size', name: 'N' },
    { kind: 'size', name: 'K' },
  ],
  returns: 2,
}

/** Fixed extents, a size used twice, f64 and i32, an inout tensor and no single output to return. */
export const mixedAbi: KernelAbi = {
  name: 'mixed',
  loc: 'src/nn.ts:10:1',
  params: [
    { kind: 'tensor', name: 'F', dtype: 'f64', shape: [3, 3, 'C'], role: 'in' },
    { kind: 'tensor', name: 'acc', dtype: 'f64', shape: ['C', 'C'], role: 'inout' },
    { kind: 'tensor', name: 'idx', dtype: 'i32', shape: [], role: 'out' },
    { kind: 'size', name: 'C' },
  ],
  returns: -1,
}

/** The reference both the fake addon and the JS path compute. */
export function matmulRef(A: Float32Array, B: Float32Array, C: Float32Array, M: number, N: number, K: number): void {
  for (let i = 0; i < M; i++) {
    for (let j = 0; j < N; j++) {
      let s = 0
      for (let k = 0; k < K; k++) s += A[i * K + k] * B[k * N + j]
      C[i * N + j] = s
    }
  }
}

export const matmulJs = matmulRef as unknown as (...args: never[]) => unknown
export const mixedJs = ((F: Float64Array, acc: Float64Array, idx: Int32Array, C: number) => {
  for (let i = 0; i < C * C; i++) acc[i] += F[i % F.length]
  idx[0] = C
}) as unknown as (...args: never[]) => unknown

/** A directory of fresh test files under test/.out. */
export function scratchDir(name: string): string {
  const dir = path.join(import.meta.dirname, '../.out/runtime', `${name}-${process.pid}`)
  fs.rmSync(dir, { recursive: true, force: true })
  fs.mkdirSync(dir, { recursive: true })
  return dir
}

/**
 * A stand-in for a compiled addon: a CommonJS file with the addon's exports (`__polykern.kernels` and one function
 * per kernel returning undefined). require() loads it like a .node file, so the real loader path runs.
 */
export function writeFakeAddon(
  dir: string,
  fileName: string,
  kernels: Record<string, string>,
  listed = Object.keys(kernels),
): string {
  const file = path.join(dir, fileName)
  const fns = Object.entries(kernels).map(([name, body]) => `${JSON.stringify(name)}: ${body}`)
  fs.writeFileSync(file, `let calls = 0
module.exports = {
  __polykern: { napiVersion: 8, isa: 'fake', kernels: ${JSON.stringify(listed)} },
  calls: () => calls,
  ${fns.join(',\n  ')}
}
`)
  return file
}

/**
 * The fake addon's matmul. Like the C of a real one (native/polykern_napi.h), it refuses what the runtime's checks
 * refuse before it touches an array: the runtime runs a native call first and its own checks only to explain a
 * refusal, so the fake's error itself never reaches the caller. `calls` counts the calls that computed.
 */
export const fakeMatmul = `function (A, B, C, M, N, K) {
    const size = (v) => Number.isSafeInteger(v) && v >= 0
    const array = (a, length) => Object.prototype.toString.call(a) === '[object Float32Array]' && a.length === length
    const overlap = (a, b) => a.buffer === b.buffer && a.byteLength > 0 && b.byteLength > 0 &&
      a.byteOffset < b.byteOffset + b.byteLength && b.byteOffset < a.byteOffset + a.byteLength
    if (arguments.length !== 6 || ![M, N, K].every(size) || !array(A, M * K) || !array(B, K * N) || !array(C, M * N) ||
      overlap(C, A) || overlap(C, B)) {
      throw Object.assign(new TypeError("polykern: kernel 'matmul': refused"), { code: 'runtime_arg_type' })
    }
    calls++
    for (let i = 0; i < M; i++) for (let j = 0; j < N; j++) {
      let s = 0
      for (let k = 0; k < K; k++) s += A[i * K + k] * B[k * N + j]
      C[i * N + j] = s
    }
  }`

export function descriptor(overrides: Partial<KernelModuleDescriptor>): KernelModuleDescriptor {
  return {
    module: 'src/linalg.ts',
    addon: null,
    cachePath: null,
    reason: null,
    base: undefined,
    requires: [],
    kernels: { matmul: { abi: matmulAbi, js: matmulJs } },
    ...overrides,
  }
}
