// This CPU's features as /proc/cpuinfo lists them: the independent account of which ISA levels can run here, for
// tests that check the addon's choice or run every level the CPU has.
import { readFileSync } from 'node:fs'
import { ISAS } from '../../plugin/targets/index.ts'
import type { Isa } from '../../plugin/targets/isa.ts'

export const cpuFlags: ReadonlySet<string> = new Set(/^flags\s*:(.*)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1].trim().split(/\s+/))

/** Whether this CPU has every feature the level needs. */
export const cpuRuns = (isa: Isa): boolean => isa.cpuFeatures.every((f) => cpuFlags.has(f))

/** The levels this CPU runs, best first, by name. */
export const runnableIsas: readonly string[] = ISAS.filter(cpuRuns).map((isa) => isa.name)
