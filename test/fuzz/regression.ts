/** Shrunk fuzz findings as regression tests: the data they keep, and how the fuzzer prints one to paste. */
import type { KernelText } from './model.ts'

export interface FuzzRegression {
  /** What went wrong, and where it was fixed (or which bug it still shows). */
  readonly title: string
  readonly spec: string
  readonly params: readonly string[]
  readonly sizes: Readonly<Record<string, number>>
  readonly dataSeed: number
  /** Set while the bug is open in a file this suite does not own: the test is `test.fails` until it is fixed. */
  readonly openBug?: string
}

export const regressionText = (r: FuzzRegression, name: string): KernelText => ({ name, spec: r.spec, params: r.params })

/** The entry to paste into REGRESSIONS in test/fuzz/regressions.test.ts. */
export function printRegression(r: FuzzRegression): string {
  const spec = r.spec.split('\n').map((l) => `      ${l}`).join('\n')
  const sizes = Object.entries(r.sizes).map(([k, v]) => `${/^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k)}: ${v}`).join(', ')
  return [
    '  {',
    `    title: ${JSON.stringify(r.title)},`,
    `    spec: \``,
    spec,
    '    `,',
    `    params: ${JSON.stringify(r.params).replace(/","/g, '", "')},`,
    `    sizes: { ${sizes} },`,
    `    dataSeed: ${r.dataSeed},`,
    '  },',
  ].join('\n')
}

/** Spec text as written in a template literal (indented): back to the spec. */
export const dedent = (text: string): string =>
  text.split('\n').map((l) => l.trim()).filter((l) => l !== '').join('\n')
