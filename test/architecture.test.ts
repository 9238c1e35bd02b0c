/**
 * plugin/ARCHITECTURE.md's layers, enforced: every relative import of a plugin/ file (static, `export … from` or
 * dynamic `import()`) points into its own part (a folder or top-level file of plugin/) or to a part listed before
 * it. The order is read from the document itself (its numbered list, parts in backticks, in the order written),
 * so the order a reader sees is the order checked.
 */
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

const plugin = path.resolve(import.meta.dirname, '../plugin')

/** Each part's rank: its place in ARCHITECTURE.md's numbered list, parts of one item in the order written. */
function ranks(): Map<string, number> {
  const doc = readFileSync(path.join(plugin, 'ARCHITECTURE.md'), 'utf8')
  const out = new Map<string, number>()
  for (const [, parts] of doc.matchAll(/^\d+\. ((?:`[\w.-]+` ?)+):/gm))
    for (const [, part] of parts.matchAll(/`([\w.-]+)`/g)) out.set(part, out.size)
  return out
}

const sources = (readdirSync(plugin, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts'))
const partOf = (file: string): string => file.split(path.sep)[0]

/** The plugin/ files `file` imports, relative to plugin/. */
function importsOf(file: string): string[] {
  const text = readFileSync(path.join(plugin, file), 'utf8')
  const specifiers = [...text.matchAll(/(?:\bfrom\s+|\bimport\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) => m[1])
  return specifiers
    .map((s) => path.relative(plugin, path.resolve(plugin, path.dirname(file), s)))
    .filter((target) => !target.startsWith('..'))
}

describe('plugin/ARCHITECTURE.md', () => {
  const order = ranks()

  it('places every part of plugin/ in the order', () => {
    const parts = [...new Set(sources.map(partOf))]
    expect(parts.filter((p) => !order.has(p))).toEqual([])
    expect(order.size).toBeGreaterThan(20)
  })

  it('no import points to a part listed after its own', () => {
    const backEdges = sources.flatMap((file) =>
      importsOf(file)
        .filter((target) => {
          const [from, to] = [partOf(file), partOf(target)]
          return from !== to && order.get(to)! >= order.get(from)!
        })
        .map((target) => `${file} imports ${target}, listed after it`))
    expect(backEdges).toEqual([])
  })

  it('loads a built addon only through measure/load-built.ts, which checks its identity and kernels', () => {
    const loaders = sources.filter((f) => /createRequire\([^)]*\)\(/.test(readFileSync(path.join(plugin, f), 'utf8')))
    expect(loaders).toEqual([path.join('measure', 'load-built.ts')])
  })
})
