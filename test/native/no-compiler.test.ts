// Without a C compiler buildAddon reports why instead of throwing (its own file: the compiler lookup is memoized).
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { buildAddon } from '../../plugin/addon/build.ts'

const saved = process.env.CC
afterEach(() => {
  if (saved === undefined) delete process.env.CC
  else process.env.CC = saved
})

it('returns ok:false naming the missing compiler', async () => {
  const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'polykern-nocc-'))
  try {
    process.env.CC = '/nonexistent/polykern-cc'
    const result = await buildAddon({ sources: [{ name: 'polykern.c', text: 'int x;\n' }], cacheDir })
    expect(result.ok).toBe(false)
    expect(!result.ok && result.error).toContain("no C compiler: '/nonexistent/polykern-cc' was not found")
    expect(result.hash).toMatch(/^[0-9a-f]{64}$/)
    expect(readdirSync(cacheDir)).toEqual([])
  } finally {
    rmSync(cacheDir, { recursive: true, force: true })
  }
})
