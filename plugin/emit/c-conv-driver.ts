/**
 * The C driver of a microkernel's convolutions (SConv's macro-kernel), one per microkernel and ISA region: the
 * template native/polykern_conv_driver.h (on what native/polykern_conv.h shares between drivers) instantiated on the
 * microkernel's element type, register tile, tile functions and pack of A. Only these depend on the kernel.
 */
import { C_TYPE } from './c-expr.ts'
import { microkernelSymbol, type MicrokernelUse } from './c-microkernel.ts'
import { packASymbol } from './c-pack.ts'
import type { Microkernel } from '../targets/microkernel.ts'
import { tileCostTable } from '../schedule/conv-slicing.ts'

/** The operand layouts of the tile functions the driver calls. */
export const convolutionUses = (mk: Microkernel) => ({
  /** Channels last: the windows in place, the filter packed; a call may run several rows of taps (groupedK). */
  packedFilter: { mk, packA: false, packB: true, groupedK: true },
  /** Channels last, few positions: both in place. */
  filterInPlace: { mk, packA: false, packB: false },
  /** Channels first: the filter (A) packed, the input rows (B) in place. */
  channelsFirst: { mk, packA: true, packB: false },
}) satisfies Record<string, MicrokernelUse>

export const driverSymbol = (mk: Microkernel): string => `pk_conv_${mk.name}`

/**
 * The driver's functions, `<symbol>_run(const pk_conv_desc *)` among them: the template's parameters, then it.
 * `directOnly`: the driver of a plan's direct calls only (not among ConvolutionPlan.im2colMicrokernels), on packed
 * filters. Both get the tiles' cost model (the direct path's row ends weigh window copies against columns); a whole
 * driver also has `<symbol>_im2col_cycles`, its tiles' modelled cost of an im2col call.
 */
export function emitConvDriver(mk: Microkernel, directOnly: boolean): string {
  const uses = convolutionUses(mk)
  const costs = tileCostTable(mk)
  const list = (xs: readonly number[]) => `{${xs.join(', ')}}`
  return [
    `/* ${directOnly ? 'Direct channels-last' : 'Direct and im2col'} convolutions on ${mk.name}. */`,
    `#define PK_CONV(name) ${driverSymbol(mk)}_##name`,
    `#define PK_CONV_T ${C_TYPE[mk.dtype]}`,
    `#define PK_CONV_MR ${mk.mr}`,
    `#define PK_CONV_NR ${mk.nr}`,
    `#define PK_CONV_TILE ${microkernelSymbol(uses.packedFilter)}`,
    `#define PK_CONV_LANES ${mk.lanes}`,
    `#define PK_CONV_HEIGHTS ${list(costs.heights)}`,
    `#define PK_CONV_STEP_CYCLES ${list(costs.step.flat())}`,
    `#define PK_CONV_CALL_CYCLES ${list(costs.call.flat())}`,
    ...(directOnly ? ['#define PK_CONV_DIRECT_ONLY'] : [
      `#define PK_CONV_TILE_IN_PLACE ${microkernelSymbol(uses.filterInPlace)}`,
      `#define PK_CONV_TILE_FIRST ${microkernelSymbol(uses.channelsFirst)}`,
      `#define PK_CONV_PACK_A ${packASymbol(mk)}`,
    ]),
    '#include "polykern_conv_driver.h"',
    '',
  ].join('\n')
}
