/** `polykern build`'s file arguments: plain paths, or globs (`src/**​/*.ts`, `{a,b}`, `*`, `?`) expanded by a walk. */
import { readdirSync, statSync } from 'node:fs'
import path from 'node:path'

/** Directories a glob never descends into. */
const SKIPPED = new Set(['node_modules', '.git'])

/** Absolute paths of the files `patterns` name, relative to `cwd`, sorted and without duplicates. */
export function expandFiles(patterns: readonly string[], cwd: string): { files: string[]; unmatched: string[] } {
  const files = new Set<string>()
  const unmatched: string[] = []
  for (const pattern of patterns) {
    const before = files.size
    if (!/[*?{]/.test(pattern)) {
      const file = path.resolve(cwd, pattern)
      if (isFile(file)) files.add(file)
    } else {
      const base = path.resolve(cwd, globBase(pattern))
      const matcher = globRegExp(path.resolve(cwd, pattern).split(path.sep).join('/'))
      for (const file of walk(base)) if (matcher.test(file.split(path.sep).join('/'))) files.add(file)
    }
    if (files.size === before) unmatched.push(pattern)
  }
  return { files: [...files].sort(), unmatched }
}

/** The directories before the first one with a glob character. */
function globBase(pattern: string): string {
  const parts = pattern.split(/[\\/]/)
  const fixed = parts.slice(0, parts.findIndex((p) => /[*?{]/.test(p)))
  return fixed.join('/') || '.'
}

export function globRegExp(glob: string): RegExp {
  let re = ''
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]
    if (c === '*' && glob[i + 1] === '*') {
      const slash = glob[i + 2] === '/'
      re += slash ? '(?:.*/)?' : '.*'
      i += slash ? 2 : 1
    } else if (c === '*') re += '[^/]*'
    else if (c === '?') re += '[^/]'
    else if (c === '{') re += '(?:'
    else if (c === '}') re += ')'
    else if (c === ',' && glob.lastIndexOf('{', i) > glob.lastIndexOf('}', i)) re += '|'
    else re += c.replace(/[.+^$()|[\]\\]/g, '\\$&')
  }
  return new RegExp(`^${re}$`)
}

function* walk(dir: string): Generator<string> {
  let entries: import('node:fs').Dirent[]
  try {
    entries = readdirSync(dir, { withFileTypes: true })
  } catch {
    return
  }
  for (const entry of entries) {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory() && !SKIPPED.has(entry.name)) yield* walk(full)
    else if (entry.isFile()) yield full
  }
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile()
  } catch {
    return false
  }
}
