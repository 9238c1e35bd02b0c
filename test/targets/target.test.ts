/**
 * The build target (plugin/targets/target.ts), resolved once with the options: its default thread count is the CPUs
 * the process may use, the count the addon's pool starts with (pk_usable_cpus: the affinity mask), checked against
 * `nproc` and under `taskset`, which narrow that mask independently of Node.
 */
import { execFileSync } from 'node:child_process'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { resolveOptions } from '../../plugin/options.ts'
import { readMachine } from '../../plugin/targets/machine.ts'
import { resolveTarget } from '../../plugin/targets/target.ts'

const targetModule = path.resolve(import.meta.dirname, '../../plugin/targets/target.ts')

describe('the build target', () => {
  it('plans for the CPUs the process may use unless `threads` says otherwise', () => {
    const nproc = Number(execFileSync('nproc', { encoding: 'utf8' }).trim())
    expect(resolveOptions().target).toMatchObject({ cpus: nproc, threads: nproc })
    expect(resolveOptions({ threads: 3 }).target).toMatchObject({ cpus: nproc, threads: 3 })
    expect(resolveTarget({}, undefined).machine).toEqual(readMachine())
  })

  it('follows the affinity mask, as the addon pool does (taskset -c 0: one CPU)', () => {
    const script = `import { resolveTarget } from ${JSON.stringify(targetModule)}; console.log(resolveTarget({}, undefined).threads)`
    const out = execFileSync('taskset', ['-c', '0', process.execPath, '--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' })
    expect(Number(out.trim())).toBe(1)
  })
})
