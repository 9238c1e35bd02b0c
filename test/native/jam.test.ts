/**
 * Jammed register nests (emit/c-jam.ts) against the reference interpreter, bit for bit, at every ISA and at 1 and 2
 * threads: windows whose edges split the jammed loop (padding a literal, padding a size, stride 2, no padding), a max
 * pooling window; and a sum whose element does not move with the outer loop is not jammed. Extents run
 * from below one jam (8 columns) to several jams and a remainder, so the edges, the jammed steps and the single steps
 * after them all run, and channel counts around the lane counts, so every rung of the vector ladder runs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { emitC } from '../../plugin/emit/c.ts'
import { constant } from '../../plugin/ir/affine.ts'
import { mapStmts } from '../../plugin/ir/walk.ts'
import { findKernelSites } from '../../plugin/find/annotations.ts'
import { interpret } from '../../plugin/ir/interp.ts'
import { resolveOptions } from '../../plugin/options.ts'
import { compileKernel } from '../../plugin/pipeline.ts'
import { buildKernel } from '../../plugin/spec/build-ir.ts'
import { checkSpec } from '../../plugin/spec/check.ts'
import { parseSpec } from '../../plugin/spec/parser.ts'
import { AVX2, AVX512 } from '../../plugin/targets/index.ts'
import { ROOT } from '../support/examples.ts'
import { copyArgs, makeArgs } from '../support/kernel-args.ts'
import { rngOf, type TensorArray } from '../support/random.ts'
import { loadTestAddon, onEveryIsaAndThreads, testAddonSource, type KernelCall } from '../support/test-addon.ts'

const opts = resolveOptions({ root: ROOT, cacheDir: 'node_modules/.cache/polykern-test' })

interface Case {
  readonly name: string
  readonly params: string
  readonly spec: string
  /** Sizes for one trial: `w` is the jammed extent, `c` the channels. */
  readonly sizes: (w: number, c: number, pick: (lo: number, hi: number) => number) => Record<string, number>
}

const CASES: readonly Case[] = [
  {
    name: 'depthwisePadded',
    params: 'I, F, O, H, W, C',
    spec: `I: f32[H, W, C]; F: f32[3, 3, C]; O: f32[H, W, C]
      O[p, q, c] +=! I[p + r - 1, q + s - 1, c] * F[r, s, c]`,
    sizes: (w, c, pick) => ({ H: pick(1, 4), W: w, C: c }),
  },
  {
    name: 'depthwiseValid',
    params: 'I, F, O, H, W, C, P, Q',
    spec: `I: f32[H, W, C]; F: f32[3, 3, C]; O: f32[P, Q, C]
      O[p, q, c] +=! I[p + r, q + s, c] * F[r, s, c]`,
    sizes: (w, c, pick) => ({ H: pick(3, 6), W: w + pick(0, 3), C: c, P: pick(1, 4), Q: w }),
  },
  {
    name: 'stride2PadSize',
    params: 'I, F, O, H, W, C, P, Q, pad',
    spec: `I: f32[H, W, C]; F: f32[3, 3, C]; O: f32[P, Q, C]
      O[p, q, c] +=! I[2*p + r - pad, 2*q + s - pad, c] * F[r, s, c]`,
    sizes: (w, c, pick) => ({ H: pick(2, 7), W: 2 * w + pick(-1, 2), C: c, P: pick(1, 3), Q: w, pad: pick(0, 2) }),
  },
  {
    name: 'maxPool3x3',
    params: 'X, Y, H, W, C, P, Q',
    spec: `X: f32[H, W, C]; Y: f32[P, Q, C]
      Y[p, q, c] max=! X[2*p + r - 1, 2*q + s - 1, c] where r < 3, s < 3`,
    sizes: (w, c, pick) => ({ H: pick(2, 7), W: 2 * w, C: c, P: pick(1, 3), Q: w }),
  },
]

/** Jammed extents: none, one column, under, at and past one jam of 8, several jams with remainders. */
const WIDTHS = [1, 2, 7, 8, 9, 10, 17, 26, 33]
/** Channels: one lane, a partial vector, and around one, two and four vectors at 8 and 16 lanes. */
const CHANNELS = [1, 5, 16, 17, 32, 40, 64, 71]

const code = CASES.map((c) => `/* @kernel\n${c.spec.split(';').join('\n')}\n*/\nexport function ${c.name}(${c.params}) {}\n`).join('\n')
const file = `${ROOT}/test/native/jam-kernels.ts`

describe('jammed register nests at every ISA equal the interpreter', () => {
  const sites = findKernelSites(file, code)
  const compiled = sites.map((site) => compileKernel(site, code, opts))
  const sources = testAddonSource(compiled.map((k) => k.ir), 'jam.test.ts')
  let built: Awaited<ReturnType<typeof loadTestAddon>>

  beforeAll(async () => void (built = await loadTestAddon(sources, 'jam')))
  afterAll(() => built?.remove())

  it('jams each window at both vector ISAs, eight columns at a time', () => {
    for (const isa of ['avx512', 'avx2']) {
      const text = sources.find((f) => f.name === `polykern_${isa}.c`)!.text
      for (const [n, c] of CASES.entries()) {
        const own = [...text.matchAll(new RegExp(`kc_${n}_${c.name}_${isa}(_p\\d+)?\\([^;]*?\\{[\\s\\S]*?\\n}\\n`, 'g'))].join('')
        expect(own, `${isa} ${c.name}`).toMatch(/pk_vacc0_0_7 = /)
      }
    }
  })

  it('does not jam columns that all sum into the same element', () => {
    // The padded depthwise nest with its store moved to column 0: copies of q side by side would each add to a stale
    // value of O[p, 0, c].
    const across = mapStmts(compiled[0].ir.body, {
      store: (s) => ({ ...s, access: { ...s.access, index: s.access.index.map((ix, d) => (d === 1 ? constant(0) : ix)) } }),
    })
    const kernel = { ...compiled[0].ir, body: across }
    for (const isa of [AVX2, AVX512]) {
      expect(emitC(compiled[0].ir, 'k', isa), isa.name).toMatch(/pk_vacc0_0_7 = /)
      expect(emitC(kernel, 'k', isa), isa.name).not.toMatch(/pk_vacc0_0_1 = /)
    }
  })

  it('runs columns and channels as one stretch of memory where a row of channels is whole vectors', () => {
    for (const isa of ['avx512', 'avx2']) {
      const text = sources.find((f) => f.name === `polykern_${isa}.c`)!.text
      const own = (name: string) => [...text.matchAll(new RegExp(`kc_\\d+_${name}_${isa}(_p\\d+)?\\([^;]*?\\{[\\s\\S]*?\\n}\\n`, 'g'))].join('')
      expect(own('depthwisePadded'), isa).toMatch(/_Alignas\(64\) float pk_run_F\[/)
      // Stride 2 reads every other column: not one stretch of I.
      expect(own('stride2PadSize'), isa).not.toMatch(/pk_run_/)
    }
  })

  it('runs along memory bit for bit at every alignment of the arrays, every ISA, 1 and 2 threads', () => {
    // Arrays at 16 consecutive offsets in their buffers: whatever a buffer's address, each of the 16 places an f32 can
    // start in a 64-byte line, and with it the run's masked head, where its aligned vectors start and the rotation of
    // its filter copy; each array 5 elements further than the one before it, so the input (whose lines the run
    // follows) and the output lie apart in their lines too. Channels of 1, 2, 4 and 3 vectors of 16 (the last not a
    // run at AVX-512).
    const n = CASES.findIndex((c) => c.name === 'depthwisePadded')
    const site = sites[n]
    const reference = buildKernel(checkSpec(parseSpec(site.specText, site.specStart, file), site))
    const { abi } = compiled[n]
    const next = rngOf('jam run alignment')
    for (const C of [16, 32, 48, 64]) {
      for (const W of [9, 26]) {
        const sizes = new Map(Object.entries({ H: 3, W, C }))
        const args = makeArgs(abi, sizes, next)
        const want = copyArgs(args)
        interpret(reference, want)
        for (let offset = 0; offset < 16; offset++) {
          onEveryIsaAndThreads(built.addon, (isa, threads) => {
            const got = args.map((a, i) => (ArrayBuffer.isView(a) ? atOffset(a as Float32Array, (offset + 5 * i) % 16) : a))
            ;(built.addon.depthwisePadded as KernelCall)(...got)
            const O = got[abi.params.findIndex((p) => p.name === 'O')] as Float32Array
            const wanted = want[abi.params.findIndex((p) => p.name === 'O')] as Float32Array
            const differs = wanted.findIndex((x, i) => !Object.is(x, O[i]))
            expect(differs, `${isa} ${threads}T C ${C} W ${W}, arrays ${offset} + 5·i elements into their buffers: first differing element`).toBe(-1)
          })
        }
      }
    }
  })

  for (const [n, c] of CASES.entries()) {
    const site = sites[n]
    const reference = buildKernel(checkSpec(parseSpec(site.specText, site.specStart, file), site))
    const { abi } = compiled[n]
    it(`${c.name}: every extent around the jam, every ISA, 1 and 2 threads, bit for bit`, () => {
      const next = rngOf(`jam ${c.name}`)
      const pick = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1))
      for (const w of WIDTHS) {
        const sizes = new Map(Object.entries(c.sizes(w, CHANNELS[pick(0, CHANNELS.length - 1)], pick)))
        const args = makeArgs(abi, sizes, next)
        const run = (f: (...a: unknown[]) => unknown) => {
          const copy = copyArgs(args)
          f(...copy)
          return copy
        }
        const want = run((...a) => interpret(reference, a))
        onEveryIsaAndThreads(built.addon, (isa, threads) => {
          const got = run(built.addon[c.name] as KernelCall)
          abi.params.forEach((p, k) => {
            if (p.kind !== 'tensor' || p.role === 'in') return
            const [a, b] = [want[k] as TensorArray, got[k] as TensorArray]
            const differs = a.findIndex((x, i) => !Object.is(x, b[i]))
            expect(differs, `${isa} ${threads}T ${[...sizes].join(' ')}: ${p.name}, first differing element`).toBe(-1)
          })
        })
      }
    })
  }
})

/** A copy of `a`, `offset` elements into a fresh buffer. */
function atOffset(a: Float32Array, offset: number): Float32Array {
  const copy = new Float32Array(a.length + 16).subarray(offset, offset + a.length)
  copy.set(a)
  return copy
}
