/**
 * `polykern explain`'s convolution section: per reduction entering substitute-convolution, the roles it was matched
 * with (or why not), and per ISA the tiling it runs: tiles per cache level, stationarity with both costs, packing.
 */
import type { Block, Convolution, ConvolutionPlan, Kernel } from './ir/nodes.ts'
import { format } from './ir/affine.ts'
import { loadsOf, walkStmts } from './ir/walk.ts'
import { plainIndex } from './passes/match-convolution.ts'
import { microkernelNamed } from './targets/index.ts'

export interface ConvolutionReport {
  readonly block: string
  readonly roles?: {
    readonly output: string
    readonly input: string
    readonly filter: string
    readonly batch: readonly string[]
    /** `stride·out + dilation·tap + offset` per spatial axis, as the input reads it. */
    readonly axes: readonly string[]
    readonly outChannels: string
    readonly inChannels: string
  }
  readonly plans: readonly (ConvolutionPlan & {
    /** What each cache level holds (SConv's slicing), and how the operands are laid out. */
    readonly tiles: { readonly registers: string; readonly l1: string; readonly l2: string }
    readonly packing: string
  })[]
  readonly log: readonly string[]
}

/** The reports, from the IR before and after substitute-convolution and its messages. */
export function convolutionReports(before: Kernel, after: Kernel, messages: readonly string[]): ConvolutionReport[] {
  const found = new Map<string, Convolution>()
  walkStmts(after.body, (s) => void (s.kind === 'convolution' && found.set(s.id, s)))
  const reports: ConvolutionReport[] = []
  walkStmts(before.body, (s) => {
    if (s.kind !== 'block' || !s.tags.includes('reduction')) return
    // A reduction whose every access is plain (a matmul, a row sum) has nothing to say about convolutions.
    if (!found.has(s.id) && !slidesAWindow(s)) return
    const prefix = `${before.name} ${s.id}: `
    const log = messages.filter((m) => m.startsWith(prefix)).map((m) => m.slice(prefix.length))
    const c = found.get(s.id)
    if (c === undefined) {
      reports.push({ block: s.id, plans: [], log })
      return
    }
    const r = c.roles
    reports.push({
      block: s.id,
      roles: {
        output: r.output.tensor, input: r.input.tensor, filter: r.filter.tensor, batch: r.batch.map((b) => b.name),
        axes: r.spatial.map((a) => format(r.input.index[a.inputDim])),
        outChannels: r.outChannels.name, inChannels: r.inChannels.name,
      },
      plans: c.plans.map((p) => ({ ...p, ...describePlan(c, p) })),
      log,
    })
  })
  return reports
}

/** Whether some access of the block indexes a dimension by more than one plain index (`2*p + r - 1`). */
function slidesAWindow(b: Block): boolean {
  const accesses = b.body.flatMap((x) => (x.kind === 'store' ? [x.access, ...loadsOf(x.value).map((l) => l.access)] : []))
  return accesses.some((a) => a.index.some((ix) => plainIndex(ix) === undefined))
}

/** The register tile of plan p's microkernel (0 × 0 for a name no ISA has). */
function tileOf(p: ConvolutionPlan): readonly [number, number] {
  const mk = microkernelNamed(p.microkernel)
  return [mk?.mr ?? 0, mk?.nr ?? 0]
}

function describePlan(c: Convolution, p: ConvolutionPlan): { tiles: ConvolutionReport['plans'][number]['tiles']; packing: string } {
  const [mr, nr] = tileOf(p)
  const taps = c.roles.spatial.map((a) => a.tap.name).join('·')
  const q = c.roles.spatial[c.roles.spatial.length - 1].out.name
  const { outChannels: k, inChannels: ch } = c.roles
  if (p.layout === 'channels-first') {
    return {
      tiles: {
        registers: `${mr} ${k.name} × ${nr} ${q} outputs`,
        l1: `${mr} ${k.name} × ${p.kc} ${ch.name} filter panel, ${p.kc} input rows of ${nr} ${q}, the ${mr} × ${nr} output tile`,
        l2: `every output channel's filter for one tap, ${p.mc} ${q} × all ${k.name} output block`,
      },
      packing: `filter packed once per call into ${mr}-row panels of ${k.name}, tap-major; input rows read in place (no copy, padding skipped)`,
    }
  }
  return {
    tiles: {
      registers: `${mr} ${q} × ${nr} ${k.name} outputs`,
      l1: `${p.kc} ${ch.name} × ${nr} ${k.name} filter panel, ${mr} windows of ${p.kc} ${ch.name}, the ${mr} × ${nr} output tile`,
      l2: `${taps} taps × ${p.kc} ${ch.name} × ${p.nc} ${k.name} filter block, ${p.mc} ${q} × ${p.nc} ${k.name} output block`,
    },
    packing: p.lowering === 'direct'
      ? `filter packed once per call into ${nr}-column panels, tap-major; input read in place (no copy, padding skipped)`
      : `filter packed once per call into ${nr}-column panels; each output row's windows copied into a ${q} × (${taps}·${ch.name}) buffer, zeros for padding`,
  }
}

/** The section's lines; `good`/`bad`/`dim` colour them like the microkernel section. */
export function formatConvolutions(
  reports: readonly ConvolutionReport[], paint: (role: 'good' | 'bad' | 'dim', text: string) => string,
): string[] {
  return reports.flatMap((m) => {
    const lines: string[] = []
    if (m.roles) {
      const r = m.roles
      const batch = r.batch.length ? `batch ${r.batch.join(', ')}; ` : ''
      lines.push(
        `${m.block}: ${paint('good', 'convolution')} ${r.output} += ${r.input} ⊛ ${r.filter}; ${batch}axes ` +
          `${r.axes.join(', ')}; channels ${r.inChannels} → ${r.outChannels}`,
      )
    } else {
      lines.push(`${m.block}: ${paint('bad', 'not a convolution')}`)
    }
    for (const p of m.plans) {
      lines.push(
        `    ${p.isa} ${p.microkernel}: ${p.lowering} ${p.layout}, mc=${p.mc} nc=${p.nc} kc=${p.kc}, ${p.stationary}-stationary ` +
          `(cost input ${Math.round(p.cost.input)}, weight ${Math.round(p.cost.weight)})`,
        `      registers: ${p.tiles.registers}`,
        `      L1: ${p.tiles.l1}`,
        `      L2: ${p.tiles.l2}`,
        `      packing: ${p.packing}`,
        ...(p.layout === 'channels-last'
          ? [`      a call slices mc and nc again on its own channels and positions, within ${p.l2Elements} elements of L2;` +
            ` with a single tap, up to ${p.gemmKc} input channels a microkernel call (a GEMM's kc); taps fused along` +
            ` the last axis take every input channel while a tile's windows fill at most` +
            // 3: PK_CONV_FEW_TILES (native/polykern_conv.h).
            ` ${Math.floor(p.l1Elements / 2)} elements of L1, and so do rows of at most 3 register tiles while every` +
            ` tap's filter block for a panel fits ${2 * p.l2Elements} elements (all of L2)`] : []),
        ...(p.layout === 'channels-last' && p.lowering === 'direct'
          ? [`      where a call's block is a whole row and no window copies take its ends, the positions a tap leaves past` +
            ` its whole register tiles run as one tile down ${tileOf(p)[0]} output rows`] : []),
        ...(p.im2colBelow > 0
          ? [`      rows of fewer than ${p.im2colBelow} positions run through im2col (one GEMM per block of rows` +
            `${onEach(p.im2colMicrokernels)}, kc up to ${p.gemmKc})`]
          : []),
        ...(p.layout === 'channels-last' && p.packFilterFrom > 0
          ? [`      calls with fewer than ${p.packFilterFrom} output positions per filter read it in place, unpacked`] : []),
      )
    }
    lines.push(...m.log.map((l) => paint('dim', `    ${l}`)))
    return lines
  })
}

/** Where im2col's GEMMs run: the one microkernel, or the cheapest per call of several. */
const onEach = (mks: readonly string[]): string =>
  mks.length === 0 ? '' : mks.length === 1 ? `, on ${mks[0]}` : `, each call on the cheapest of ${mks.join(', ')} for its sizes`
