/**
 * Every example kernel, on random shapes (1, primes, sizes that are not multiples of 8 or 16), four ways:
 * the reference interpreter on the IR straight from the spec, the developer's own JS body (imported untouched),
 * the generated JS loops after all passes, and the native addon. All must agree within the dtype's tolerance.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { buildKernel } from '../../plugin/spec/build-ir.ts'
import { interpret } from '../../plugin/ir/interp.ts'
import { resolveOptions } from '../../plugin/options.ts'
import { compileModule } from '../../plugin/pipeline.ts'
import { checkSpec } from '../../plugin/spec/check.ts'
import { parseSpec } from '../../plugin/spec/parser.ts'
import type { KernelAbi } from '../../runtime/abi.ts'
import { copyArgs, makeArgs, points, reductionLength } from '../support/kernel-args.ts'
import { maxRelErr, rng, tolerance, type TensorArray } from '../support/random.ts'

const root = path.resolve(fileURLToPath(import.meta.url), '../../..')
const require = createRequire(import.meta.url)
const opts = resolveOptions({ root, cacheDir: 'node_modules/.cache/polykern-test' })
const SIZES = [1, 2, 3, 5, 7, 8, 13, 16, 17, 31, 33]
const MAX_POINTS = 400_000
const SHAPES_PER_KERNEL = 6

for (const file of ['examples/kernels/linalg.ts', 'examples/kernels/nn.ts']) {
  describe(file, async () => {
    const abs = path.join(root, file)
    const compiled = await compileModule(abs, readFileSync(abs, 'utf8'), opts)
    if (!compiled) throw new Error(`${file} has no kernels`)
    if (!compiled.addon) throw new Error(`native build failed: ${compiled.warnings.map((w) => w.notes[0]?.text).join('\n')}`)
    const addon = require(compiled.addon.path) as Record<string, (...args: unknown[]) => void>
    const userModule = (await import(abs)) as Record<string, (...args: unknown[]) => unknown>

    for (const k of compiled.kernels) {
      const reference = buildKernel(checkSpec(parseSpec(k.site.specText, k.site.specStart, abs), k.site))
      const generated = new Function(`return ${k.js}`)() as (...args: unknown[]) => void

      it(`${k.abi.name}: interpreter = developer's loops = generated JS = native`, () => {
        const next = rng(hash(k.abi.name))
        let tried = 0
        for (let shape = 0; shape < SHAPES_PER_KERNEL; tried++) {
          expect(tried).toBeLessThan(1000)
          const sizes = new Map(k.abi.params.filter((p) => p.kind === 'size').map((p) => [p.name, SIZES[Math.floor(next() * SIZES.length)]]))
          if (points(reference, sizes) > MAX_POINTS) continue
          shape++
          const args = makeArgs(k.abi, sizes, next)
          const run = (f: (...a: unknown[]) => unknown) => {
            const copy = copyArgs(args)
            f(...copy)
            return copy
          }
          const want = run((...a) => interpret(reference, a))
          const tol = tolerance(dtypeOf(k.abi), reductionLength(reference, sizes))
          const label = `${k.abi.name} with ${[...sizes].map(([n, v]) => `${n}=${v}`).join(' ')}`
          for (const [system, got] of [
            ['developer', run(userModule[k.abi.name])],
            ['generated JS', run(generated)],
            ['native', run(addon[k.abi.name])],
          ] as const) {
            k.abi.params.forEach((p, n) => {
              if (p.kind !== 'tensor' || p.role === 'in') return
              const err = maxRelErr(want[n] as TensorArray, got[n] as TensorArray)
              expect(err, `${system}: ${label}, output ${p.name}`).toBeLessThanOrEqual(tol)
            })
          }
        }
      })
    }
  })
}


function dtypeOf(abi: KernelAbi) {
  for (const p of abi.params) if (p.kind === 'tensor' && p.role !== 'in') return p.dtype
  throw new Error(`${abi.name} has no output`)
}

const hash = (s: string) => [...s].reduce((h, c) => (Math.imul(h, 31) + c.charCodeAt(0)) | 0, 7)
