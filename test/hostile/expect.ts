/** Assertions shared by the hostile-argument tests: the same error on every path, or the same result. */
import { expect } from 'vitest'
import type { Paths } from './kernels.ts'

interface Rejection {
  readonly type: typeof TypeError | typeof RangeError
  readonly code: string
  readonly kernel: string
  /** The argument the message names. */
  readonly argument?: string
  /** The raw addon's code, where its C (which cannot see a temporary's size before allocating it) differs. */
  readonly rawCode?: string
}

export function thrown(f: () => unknown): Error & { code?: string; kernel?: string; argument?: string } {
  try {
    f()
  } catch (e) {
    return e as Error
  }
  throw new Error('the call was accepted')
}

/**
 * Both runtime paths throw the same error (class, code, kernel, argument, message), naming the kernel and the
 * argument; the raw addon throws the same kind and code, naming them too. Returns the runtime's message.
 */
export function expectRejected(paths: Paths, args: () => unknown[], want: Rejection): string {
  const [native, js] = [thrown(() => paths.native(...args())), thrown(() => paths.js(...args()))]
  for (const e of [native, js]) {
    expect(e).toBeInstanceOf(want.type)
    expect(e.code).toBe(want.code)
    expect(e.kernel).toBe(want.kernel)
    expect(e.message).toContain(`${want.kernel}()`)
    if (want.argument !== undefined) {
      expect(e.argument).toBe(want.argument)
      expect(e.message).toContain(`'${want.argument}'`)
    }
  }
  expect([native.constructor, native.message]).toEqual([js.constructor, js.message])
  const raw = thrown(() => paths.raw(...args()))
  expect(raw).toBeInstanceOf(want.type)
  expect(raw.code).toBe(want.rawCode ?? want.code)
  expect(raw.message).toContain(`'${want.kernel}'`)
  if (want.argument !== undefined && want.rawCode === undefined) expect(raw.message).toContain(`'${want.argument}'`)
  return native.message
}

/** Every path (and the addon at every ISA it can run) computes the same outputs as the JS loops. */
export function expectSameResults(paths: Paths, args: () => unknown[], outputs: readonly number[]): void {
  const run = (f: (...a: unknown[]) => unknown) => {
    const a = args()
    f(...a)
    return outputs.map((n) => Array.from(a[n] as ArrayLike<number>))
  }
  const want = run(paths.js)
  expect(run(paths.native)).toEqual(want)
  const meta = paths.addon.__polykern
  for (const isa of meta.isas) {
    if (meta.setIsa(isa) !== isa) continue
    for (const threads of [1, 2]) {
      meta.setThreads(threads)
      expect(run(paths.raw), `${isa}, ${threads} threads`).toEqual(want)
    }
  }
}
