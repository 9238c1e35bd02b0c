/**
 * What a build compiles for, resolved once from the options (options.ts) and handed to the passes and module steps,
 * so that none of them reads sysfs or the environment: the machine's caches and costs, the CPUs the process may use,
 * the threads the cost model plans for, and the ISAs every addon holds.
 */
import os from 'node:os'
import { ISAS } from './index.ts'
import type { Isa } from './isa.ts'
import { readMachine, type Machine, type MachineOverrides } from './machine.ts'

export interface Target {
  readonly machine: Machine
  /**
   * CPUs this process may use (its affinity mask, as libuv reads it): the count the addon's pool starts with when
   * `threads` is not given (pk_usable_cpus in native/polykern_pool.h reads the same mask), logical CPUs on SMT.
   */
  readonly cpus: number
  /** Threads the ranking plans for: the `threads` option, else `cpus`, the addon's own default. */
  readonly threads: number
  readonly isas: readonly Isa[]
}

export function resolveTarget(overrides: MachineOverrides, threads: number | undefined): Target {
  const cpus = os.availableParallelism()
  return { machine: readMachine(overrides), cpus, threads: threads ?? cpus, isas: ISAS }
}
