// Run under ASan/UBSan by sanitize.test.ts with the sanitized addon of gemmVariants(): every variant, shape, ISA and
// thread count (at 2 threads on arrays at odd element offsets) against the interpreter. Prints the cases run and any
// that disagree.
import { createRequire } from 'node:module'
import { interpret } from '../../plugin/ir/interp.ts'
import { copyArgs, copyArgsAtOddOffsets, irArgs } from '../support/kernel-args.ts'
import { maxRelErr, rng, tolerance, type TensorArray } from '../support/random.ts'
import type { FuzzAddon } from '../fuzz/differential.ts'
import { GEMM_SHAPES, gemmVariants } from './gemm-variants.ts'

const addon = createRequire(import.meta.url)(process.argv[2]) as FuzzAddon
const meta = addon.__polykern
const next = rng(5)
const wrong: string[] = []
let cases = 0
const ran = new Set<string>()
for (const kernel of gemmVariants()) {
  for (const [M, N, K] of GEMM_SHAPES) {
    const sizes = new Map([['M', M], ['N', N], ['K', K], ['Bt', 3]])
    const args = irArgs(kernel, sizes, next)
    const want = copyArgs(args)
    interpret(kernel, want)
    const out = kernel.params.findIndex((p) => p.name === 'C')
    for (const isa of meta.isas) {
      if (meta.setIsa(isa) !== isa) continue
      ran.add(isa)
      for (const threads of [1, 2]) {
        meta.setThreads(threads)
        // At 2 threads every array is a view at an odd element offset, which no fresh (16-byte aligned) array is.
        const got = (threads === 2 ? copyArgsAtOddOffsets : copyArgs)(args)
        addon[kernel.name](...got)
        cases++
        const err = maxRelErr(want[out] as TensorArray, got[out] as TensorArray)
        if (err > tolerance(kernel.tensors[0].dtype, K)) wrong.push(`${kernel.name} ${M}x${N}x${K} ${isa} ${threads}: ${err}`)
      }
    }
  }
}
process.stdout.write(JSON.stringify({ cases, wrong, isas: [...ran] }))

