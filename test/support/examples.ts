/** The example kernels (and ad-hoc ones) through the real front end: find → parse → check. */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { findKernelSites } from '../../plugin/find/annotations.ts'
import { checkSpec } from '../../plugin/spec/check.ts'
import type { KernelSpec } from '../../plugin/spec/checked.ts'
import { parseSpec } from '../../plugin/spec/parser.ts'

export const ROOT = path.resolve(fileURLToPath(import.meta.url), '../../..')
export const EXAMPLE_FILES = ['examples/kernels/linalg.ts', 'examples/kernels/nn.ts'].map((f) => path.join(ROOT, f))

export function exampleSpecs(): { name: string; file: string; spec: KernelSpec }[] {
  return EXAMPLE_FILES.flatMap((file) => specsOf(file, readFileSync(file, 'utf8')).map((spec) => ({ name: spec.name, file, spec })))
}

export function specsOf(file: string, code: string): KernelSpec[] {
  return findKernelSites(file, code).map((site) => checkSpec(parseSpec(site.specText, site.specStart, file), site))
}

/** A one-off kernel `k` with untyped parameters `params`, from spec text. */
export function specOf(specText: string, params: readonly string[]): KernelSpec {
  const code = `/* @kernel\n${specText}\n*/\nexport function k(${params.join(', ')}) {}\n`
  return specsOf('/virtual/k.ts', code)[0]
}
