/** Golden files of generated code: compared as text, rewritten with UPDATE_GOLDEN=1 (then review the diff). */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { expect } from 'vitest'

/** `actual` against `dir/name`, or written there when UPDATE_GOLDEN=1. */
export function expectGolden(dir: string, name: string, actual: string): void {
  const file = path.join(dir, name)
  if (process.env.UPDATE_GOLDEN === '1') writeFileSync(file, actual)
  expect(existsSync(file), `${name} is missing: run UPDATE_GOLDEN=1 npx vitest run test/emit`).toBe(true)
  expect(actual).toBe(readFileSync(file, 'utf8'))
}
