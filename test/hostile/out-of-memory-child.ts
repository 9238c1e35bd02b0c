// Run by out-of-memory.test.ts under a 3 GB address-space limit: calls viaTemp with a 4 GB temporary on the native
// path and on the JS path, and prints what each threw.
import { hostileKernels } from './kernels.ts'

const k = await hostileKernels()
const N = 2 ** 15
const outcome = (f: (...a: unknown[]) => unknown) => {
  try {
    f(new Float32Array(N), new Float32Array(N), N)
    return { accepted: true }
  } catch (e) {
    const { name, message, code, kernel } = e as Error & { code?: string; kernel?: string }
    return { name, message, code, kernel, type: e instanceof RangeError ? 'RangeError' : e instanceof TypeError ? 'TypeError' : 'other' }
  }
}
process.stdout.write(JSON.stringify({ native: outcome(k.viaTemp.native), js: outcome(k.viaTemp.js) }))
