/**
 * Convolutions on a GEMM microkernel (SConv's macro-kernel): per ISA, `emitConvSupport` prints, for each microkernel
 * a convolution uses, the tile functions its driver calls and the driver (c-conv-driver.ts); a call site fills the
 * descriptor (pk_conv_desc, native/polykern_conv.h) from the access maps (extents, strides, stride/dilation/offset
 * of each spatial axis, the plan's tiles and choices) and calls it.
 */
import { KernelInternalError } from '../diagnostics.ts'
import { equal } from '../ir/affine.ts'
import type { Access, Convolution, ConvolutionPlan, IndexRange, Kernel, Stmt } from '../ir/nodes.ts'
import { walkStmts, zeroFillsBefore } from '../ir/walk.ts'
import type { Isa } from '../targets/isa.ts'
import type { Microkernel } from '../targets/microkernel.ts'
import { convolutionUses, driverSymbol, emitConvDriver } from './c-conv-driver.ts'
import type { OutlinedEpilogue } from './c-conv-epilogue.ts'
import type { RegisterEpilogue } from './c-tile-epilogue.ts'
import { microkernelDeclaration, microkernelSymbol, type CSupport, type MicrokernelUse } from './c-microkernel.ts'
import { definesPack, emitPackA, packASymbol } from './c-pack.ts'
import type { Layout } from './layout.ts'
import type { Names } from './names.ts'
import { affineCode } from './syntax.ts'

export interface ConvolutionEmitPlan {
  readonly plan: ConvolutionPlan
  readonly mk: Microkernel
  /** The microkernels of calls through im2col (ConvolutionPlan.im2colMicrokernels), the cheapest run per call. */
  readonly im2colMks: readonly Microkernel[]
}

/** The plan of `s` for `isa` and its microkernel, or undefined when `isa` runs the loop nest. */
export function convolutionPlan(s: Convolution, isa: Isa): ConvolutionEmitPlan | undefined {
  const plan = s.plans.find((p) => p.isa === isa.name)
  if (plan === undefined) return undefined
  const named = (name: string) => {
    const mk = isa.microkernels.find((m) => m.name === name)
    if (mk === undefined || mk.dtype !== s.roles.dtype) {
      throw new KernelInternalError('emit', `${isa.name} has no ${s.roles.dtype} microkernel '${name}'`)
    }
    return mk
  }
  return { plan, mk: named(plan.microkernel), im2colMks: plan.im2colMicrokernels.map(named) }
}


/** Whether calls with `p` may run the direct channels-last path: the one whose tiles apply an epilogue in registers. */
export const runsDirectChannelsLast = (p: ConvolutionEmitPlan): boolean =>
  p.plan.layout === 'channels-last' && p.plan.lowering === 'direct'

/**
 * The helpers `isa`'s convolutions in `kernels` call, each once, beside `gemm` (the GEMMs' in the ISA's region): pack
 * routines and drivers printed, tile families the GEMMs do not call already declared.
 */
export function emitConvSupport(kernels: readonly Kernel[], isa: Isa, gemm: CSupport): CSupport {
  // Each microkernel's driver, whole or (only ever a plan's direct driver beside an im2col one) direct-only.
  const mks = new Map<string, { mk: Microkernel; whole: boolean }>()
  const need = (mk: Microkernel, whole: boolean) => mks.set(mk.name, { mk, whole: whole || (mks.get(mk.name)?.whole ?? false) })
  for (const kernel of kernels) {
    walkStmts(kernel.body, (s) => {
      if (s.kind !== 'convolution') return
      const p = convolutionPlan(s, isa)
      if (p === undefined) return
      need(p.mk, ownsIm2col(p))
      for (const m of p.im2colMks) need(m, true)
    })
  }
  const declared = new Set(gemm.families.map(microkernelSymbol))
  const families: MicrokernelUse[] = []
  const code = [...mks.values()].flatMap(({ mk, whole }) => {
    const uses = whole ? Object.values(convolutionUses(mk)) : [convolutionUses(mk).packedFilter]
    const added = uses.filter((u) => !declared.has(microkernelSymbol(u)))
    families.push(...added)
    const pack = !whole || definesPack(gemm.code, packASymbol(mk)) ? [] : [emitPackA(mk)]
    return [...added.map(microkernelDeclaration), ...pack, emitConvDriver(mk, !whole)]
  }).join('\n')
  return { code, families }
}

/** Whether the plan's direct driver runs its im2col calls too: channels first (none), or its one im2col microkernel. */
const ownsIm2col = (p: ConvolutionEmitPlan): boolean =>
  p.im2colMks.length === 0 || (p.im2colMks.length === 1 && p.im2colMks[0] === p.mk)

/**
 * The zero fills of `body` a convolution right after them makes redundant, with those convolutions: the fill of the
 * output the convolution sums into, when it covers the whole output and is not one of its operands. The driver's
 * first sums into each output block store instead of adding, the positions they miss (padding) zeroed just before
 * (`zero_out`): on the thread that sums the block, where the fill is a serial pass over the whole output first.
 */
export function overwritingConvolutions(body: readonly Stmt[], kernel: Kernel, isa: Isa): ReadonlySet<Stmt> {
  const found = new Set<Stmt>()
  for (const { fill, next: s, shape } of zeroFillsBefore(body, kernel)) {
    if (s.kind !== 'convolution' || convolutionPlan(s, isa) === undefined) continue
    const r = s.roles
    if (fill.tensor !== r.output.tensor || fill.tensor === r.input.tensor || fill.tensor === r.filter.tensor) continue
    const ranges = [...r.batch, ...r.spatial.map((a) => a.out), r.outChannels]
    const whole = r.output.index.every((ix, d) => {
      const range = ranges.find((x) => ix.terms.length === 1 && x.name === ix.terms[0].v)
      return range !== undefined && equal(range.extent, shape[d])
    })
    if (whole) found.add(fill).add(s)
  }
  return found
}

/**
 * The statements running convolution `s` with `p`: its descriptor, read off the access maps, and the driver call;
 * `zeroOut`: the output's zero fill was dropped (overwritingConvolutions); `onNoMemory` releases the kernel's
 * temporaries and returns PK_NO_MEMORY. The epilogue runs on the output blocks (`epilogue`), but on those whose direct
 * calls sum each tile whole, where the tiles apply it (`registers`: a family of the plan's packed-filter tiles).
 */
export function emitConvCall(
  s: Convolution, p: ConvolutionEmitPlan, names: Names, layout: Layout, depth: number, onNoMemory: readonly string[],
  zeroOut: boolean, epilogue?: OutlinedEpilogue, registers?: RegisterEpilogue,
): string[] {
  const r = s.roles
  const { plan, mk, im2colMks } = p
  const extent = (a: IndexRange) => affineCode(a.extent, names.of).text
  // Roles index plain dimensions (match-convolution.ts), but for the input's spatial ones, never asked for here.
  const strideOf = (a: Access, v: string): string => layout.strideAlong(a, v)?.text ?? '0'
  const list = (xs: readonly string[], n: number) => `{${[...xs, ...Array(n - xs.length).fill('0')].join(', ')}}`
  const inShape = layout.tensor(r.input.tensor).shape
  const ax = r.spatial
  const fields = [
    `.in = ${names.of(r.input.tensor)}`, `.flt = ${names.of(r.filter.tensor)}`, `.out = ${names.of(r.output.tensor)}`,
    `.nb = ${r.batch.length}`, `.nd = ${ax.length}`,
    `.b_ext = ${list(r.batch.map(extent), 4)}`,
    `.b_in = ${list(r.batch.map((b) => strideOf(r.input, b.name)), 4)}`,
    `.b_out = ${list(r.batch.map((b) => strideOf(r.output, b.name)), 4)}`,
    `.b_flt = ${list(r.batch.map((b) => strideOf(r.filter, b.name)), 4)}`,
    `.p_ext = ${list(ax.map((a) => extent(a.out)), 3)}`,
    `.r_ext = ${list(ax.map((a) => extent(a.tap)), 3)}`,
    `.h_ext = ${list(ax.map((a) => affineCode(inShape[a.inputDim], names.of).text), 3)}`,
    `.stride = ${list(ax.map((a) => String(a.stride)), 3)}`,
    `.dil = ${list(ax.map((a) => String(a.dilation)), 3)}`,
    `.off = ${list(ax.map((a) => affineCode(a.offset, names.of).text), 3)}`,
    `.in_s = ${list(ax.map((a) => layout.stride(r.input.tensor, a.inputDim).text), 3)}`,
    `.out_s = ${list(ax.map((a) => strideOf(r.output, a.out.name)), 3)}`,
    `.flt_s = ${list(ax.map((a) => strideOf(r.filter, a.tap.name)), 3)}`,
    `.C = ${extent(r.inChannels)}`, `.K = ${extent(r.outChannels)}`,
    `.flt_c = ${strideOf(r.filter, r.inChannels.name)}`, `.flt_k = ${strideOf(r.filter, r.outChannels.name)}`,
    `.in_c = ${strideOf(r.input, r.inChannels.name)}`, `.out_k = ${strideOf(r.output, r.outChannels.name)}`,
    `.mc = ${plan.mc}`, `.nc = ${plan.nc}`, `.kc = ${plan.kc}`, `.l1 = ${plan.l1Elements}`, `.l2 = ${plan.l2Elements}`,
    `.weight_stationary = ${plan.stationary === 'weight' ? 1 : 0}`, `.im2col = ${plan.lowering === 'im2col' ? 1 : 0}`,
    `.im2col_below = ${plan.im2colBelow}`, `.channels_first = ${plan.layout === 'channels-first' ? 1 : 0}`,
    `.pack_filter_from = ${plan.packFilterFrom}`, `.gemm_kc = ${plan.gemmKc}`,
    ...(zeroOut ? ['.zero_out = 1'] : []),
    ...(epilogue ? [`.epilogue = ${epilogue.fn}`, '.epilogue_ctx = &pk_ectx'] : []),
    ...(registers ? [`.final = (pk_conv_final)${registers.family({ ...convolutionUses(mk).packedFilter, epilogue: registers.tiles })}`, '.final_ctx = &pk_gectx'] : []),
  ]
  const pad = '  '.repeat(depth + 1)
  const what = `${plan.lowering}, mc ${plan.mc} nc ${plan.nc} kc ${plan.kc}, ${plan.stationary}-stationary` +
    (ownsIm2col(p) ? '' : `; through im2col on the cheapest of ${im2colMks.map((m) => m.name).join(', ')}`)
  const run = (m: Microkernel) => `${driverSymbol(m)}_run`
  // Several im2col microkernels: a table of their drivers, the cheapest on the call's sizes run.
  const choices = ownsIm2col(p) || im2colMks.length === 1 ? [] : [
    `${pad}const pk_conv_driver pk_im2col[] = {`,
    ...im2colMks.map((m) => `${pad}  {${driverSymbol(m)}_im2col_cycles, ${run(m)}},`),
    `${pad}};`,
  ]
  const im2colRun = () => choices.length ? `pk_conv_run_cheapest(&pk_cv, pk_im2col, ${im2colMks.length})` : `${run(im2colMks[0])}(&pk_cv)`
  const status = ownsIm2col(p) ? `${run(mk)}(&pk_cv)` : `(pk_conv_runs_im2col(&pk_cv) ? ${im2colRun()} : ${run(mk)}(&pk_cv))`
  return [
    `${'  '.repeat(depth)}{ /* convolution ${s.id}: ${mk.name}, ${what} */`,
    ...[...(epilogue?.context ?? []), ...(registers?.context ?? [])].map((l) => `${pad}${l}`),
    `${pad}const pk_conv_desc pk_cv = {`,
    ...fields.map((f) => `${pad}  ${f},`),
    `${pad}};`,
    ...choices,
    `${pad}if (${status} != PK_OK) {`,
    ...onNoMemory.map((l) => `${pad}  ${l}`),
    `${pad}}`,
    `${'  '.repeat(depth)}}`,
  ]
}
