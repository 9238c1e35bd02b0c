// Every command answers --help with its own usage on stdout and exit 0, and the overview lists it.
import { describe, expect, it } from 'vitest'
import { runCli } from './io.ts'

describe('--help', () => {
  it('is there for every command the overview lists', async () => {
    const overview = await runCli(['--help'])
    const names = [...overview.stdout.matchAll(/^ {2}(\w+) {2,}/gm)].map((m) => m[1])
    expect(names).toEqual(expect.arrayContaining(['explain', 'verify', 'build', 'bench']))
    for (const name of names) {
      for (const flag of ['--help', '-h']) {
        const r = await runCli([name, flag])
        expect(r, `${name} ${flag}`).toMatchObject({ code: 0, stderr: '' })
        expect(r.stdout).toContain(`Usage: polykern ${name}`)
        expect(r.stdout).toMatch(/Exit codes: 0 /)
      }
    }
  })
})
