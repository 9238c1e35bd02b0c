/** Kernels from spec text through the passes that find contractions, with a fixed machine so schedules never vary. */
import { buildKernel } from '../../plugin/spec/build-ir.ts'
import type { Block, ContractionSchedule, Kernel } from '../../plugin/ir/nodes.ts'
import { verifyKernel } from '../../plugin/ir/verify.ts'
import { mapStmts } from '../../plugin/ir/walk.ts'
import { lowerBlocks } from '../../plugin/passes/lower-blocks.ts'
import { reorder } from '../../plugin/passes/reorder.ts'
import { substituteMicrokernels } from '../../plugin/passes/substitute-microkernel.ts'
import { ISAS } from '../../plugin/targets/index.ts'
import type { Machine } from '../../plugin/targets/machine.ts'
import { specOf } from './examples.ts'

/** This machine's shape (48 KiB L1d, 2 MiB L2 per core), written down. */
export const TEST_MACHINE: Machine = {
  cores: 2,
  caches: [
    { level: 1, bytes: 48 * 1024, lineBytes: 64, sharedBy: 1, latency: 5, bandwidth: 64 },
    { level: 2, bytes: 2 * 1024 * 1024, lineBytes: 64, sharedBy: 1, latency: 14, bandwidth: 48 },
    { level: 3, bytes: 32 * 1024 * 1024, lineBytes: 64, sharedBy: 2, latency: 50, bandwidth: 16 },
  ],
  memory: { latency: 200, bandwidth: 8 },
  prefetchStreams: 8,
  source: 'options',
  model: 'test machine',
  clock: { ghz: 2.5, source: 'assumed' },
}

/**
 * The kernel's parameters: tensors in declaration order, then sizes in order of first use: the dimensions', then the
 * names of two or more lower-case letters its statements use and nothing declares (call-time sizes such as a
 * convolution's `pad`; the tests' indices are one letter).
 */
export function paramsOf(specText: string): string[] {
  const decls = [...specText.matchAll(/^\s*([A-Za-z_]\w*)\s*:\s*\w+\[([^\]]*)\]/gm)]
  const sizes = decls.flatMap((m) => m[2].split(',').map((s) => s.trim()).filter((s) => /^[A-Za-z_]/.test(s)))
  const declared = new Set(decls.map((m) => m[1]))
  const statements = specText.split('\n').filter((line) => !/^\s*(let\s+)?[A-Za-z_]\w*\s*:/.test(line)).join('\n')
  const free = [...statements.matchAll(/\b[a-z][a-z_]+\b/g)].map((m) => m[0]).filter((w) => !declared.has(w) && !RESERVED.has(w))
  return [...declared, ...new Set([...sizes, ...free])]
}

const RESERVED = new Set(['where', 'exp', 'log', 'sqrt', 'abs', 'tanh', 'sigmoid', 'max', 'min', 'pow', 'let'])

/** The block of the spec's last statement, in block form after reorder (what the matcher sees). */
export function lastBlock(specText: string): Block {
  const ir = reorder(buildKernel(specOf(specText, paramsOf(specText))))
  const blocks = ir.body.filter((s): s is Block => s.kind === 'block')
  return blocks[blocks.length - 1]
}

/**
 * Spec → lowered IR with contractions, as the pipeline builds it; `name` renames the kernel and `schedule` may
 * rewrite every schedule (small blocks, other loop orders) to reach code paths the default sizes do not.
 */
export function contractionKernel(
  specText: string,
  name: string,
  schedule: (x: ContractionSchedule) => ContractionSchedule = (x) => x,
): Kernel {
  const spec = specOf(specText, paramsOf(specText))
  let ir: Kernel = { ...reorder(buildKernel(spec)), name }
  ir = substituteMicrokernels(ir, { isas: ISAS, machine: TEST_MACHINE, threads: TEST_MACHINE.cores })
  const body = mapStmts(ir.body, { contraction: (c) => ({ ...c, schedules: c.schedules.map(schedule) }) })
  return verifyKernel(lowerBlocks({ ...ir, body }), 'test', { lowered: true })
}

/** A random product of `n` factors: indices a..; each in two factors, or one factor and the output. */
export function randomEinsum(n: number, next: () => number): string {
  const letters = 'abcdefghpqrstuvw'
  const factors: string[][] = Array.from({ length: n }, () => [])
  const output: string[] = []
  const count = n + 1 + Math.floor(next() * 4)
  for (let k = 0; k < count; k++) {
    const v = letters[k]
    const first = k < n ? k : Math.floor(next() * n)
    factors[first].push(v)
    if (next() < 0.3 && output.length < 3) output.push(v)
    else {
      let other = Math.floor(next() * (n - 1))
      if (other >= first) other++
      factors[other].push(v)
    }
  }
  // Connected: factor k shares an index with factor k + 1.
  for (let k = 0; k + 1 < n; k++) if (!factors[k].some((v) => factors[k + 1].includes(v))) factors[k + 1].push(factors[k][0])
  const size = (v: string) => `S${v}`
  const decl = (name: string, ix: readonly string[]) => `${name}: f64[${ix.map(size).join(', ')}]`
  const names = factors.map((_, k) => `T${k}`)
  return [
    ...factors.map((f, k) => decl(names[k], f)),
    decl('O', output),
    `O[${output.join(', ')}] +=! ${factors.map((f, k) => `${names[k]}[${f.join(', ')}]`).join(' * ')}`,
  ].join('\n')
}
