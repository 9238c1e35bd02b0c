// Test helper: finds `@kernel` sites in a source text with regexes, standing in for the ts-morph finder (plugin/find).
import type { Span } from '../../plugin/diagnostics.ts'
import type { KernelSite, SiteParam } from '../../plugin/find/site.ts'

const COMMENT = /\/\*\*?[\s*]*@kernel([\s\S]*?)\*\/\s*(?:export\s+)?/.source
const FUNCTION = /function\s+(\w+)\s*\(([^)]*)\)/.source
const ARROW = /const\s+(\w+)\s*=\s*\(([^)]*)\)/.source
const SITE = new RegExp(`${COMMENT}(?:${FUNCTION}|${ARROW})`, 'g')

/** JSDoc gutters (`   * `) become spaces, so offsets into the spec text still line up with the file. */
export const blankGutters = (text: string) => text.replace(/(\n[ \t]*)\*(?!\/)/g, '$1 ')

export function sitesIn(file: string, text: string): KernelSite[] {
  const span = (start: number, end: number): Span => ({ file, start, end })
  return [...text.matchAll(SITE)].map((m) => {
    const at = m.index
    const specStart = at + m[0].indexOf('@kernel') + '@kernel'.length
    const commentEnd = text.indexOf('*/', specStart) + 2
    const name = m[2] ?? m[4]
    const paramText = m[3] ?? m[5]
    const nameStart = text.indexOf(name, commentEnd)
    const paramsStart = text.indexOf('(', nameStart) + 1
    const bodyStart = text.indexOf('{', at + m[0].length)
    return {
      file,
      name,
      specText: blankGutters(text.slice(specStart, commentEnd - 2)),
      specStart,
      params: paramsOf(paramText, paramsStart, span),
      commentSpan: span(at, commentEnd),
      nameSpan: span(nameStart, nameStart + name.length),
      bodySpan: span(bodyStart, bodyStart + 1),
      form: m[2] ? 'function' : 'arrow',
    }
  })
}

function paramsOf(text: string, offset: number, span: (start: number, end: number) => Span): SiteParam[] {
  const params: SiteParam[] = []
  let start = 0
  for (const piece of text.split(',')) {
    const lead = piece.length - piece.trimStart().length
    const trimmed = piece.trim()
    if (trimmed !== '') {
      const colon = trimmed.indexOf(':')
      const name = colon < 0 ? trimmed : trimmed.slice(0, colon).trim()
      const typeText = colon < 0 ? undefined : trimmed.slice(colon + 1).trim()
      params.push({ name, typeText, span: span(offset + start + lead, offset + start + lead + trimmed.length) })
    }
    start += piece.length + 1
  }
  return params
}
