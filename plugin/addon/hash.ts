/** The content address of a built addon: everything that can change the bytes of `polykern.node`. */
import { createHash } from 'node:crypto'
import type { AddonFile } from '../emit/napi.ts'

export interface AddonInputs {
  /** The generated C files. */
  readonly sources: readonly AddonFile[]
  /** native/*.h, by file name. */
  readonly headers: readonly { readonly name: string; readonly text: string }[]
  /** The repo-root binding.gyp template and the generated kernels.gypi. */
  readonly bindingGyp: string
  readonly gypi: string
  /** First line of `cc --version`. */
  readonly compiler: string
  readonly napiVersion: number
  /** polykern's package.json version. */
  readonly version: string
  readonly platform: string
  readonly arch: string
}

/** sha256 (hex) over every input, each length-prefixed so no two different input sets hash the same text. */
export function addonHash(inputs: AddonInputs): string {
  const { hash, field } = hasher()
  for (const f of inputs.sources) field(`source ${f.name}`, f.text)
  environment(inputs, field)
  field('kernels.gypi', inputs.gypi)
  return hash.digest('hex')
}

/**
 * The content address of a shared source's object file (AddonFile.shared): the file, the flags it is compiled with
 * (binding.gyp's, node-gyp's from this Node's headers, `cflags`) and everything it can include.
 */
export function objectHash(inputs: AddonInputs, file: AddonFile, cflags: readonly string[]): string {
  const { hash, field } = hasher()
  field(`source ${file.name}`, file.text)
  environment(inputs, field)
  field('cflags', JSON.stringify(cflags))
  field('node', process.version)
  return hash.digest('hex')
}

function hasher() {
  const hash = createHash('sha256')
  const field = (label: string, text: string): void => {
    hash.update(`${label}:${Buffer.byteLength(text)}:`).update(text)
  }
  return { hash, field }
}

/** What every file of an addon is built with: the headers, the gyp template, the compiler, the platform. */
function environment(inputs: AddonInputs, field: (label: string, text: string) => void): void {
  for (const h of [...inputs.headers].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    field(`header ${h.name}`, h.text)
  }
  field('binding.gyp', inputs.bindingGyp)
  field('compiler', inputs.compiler)
  field('napi', String(inputs.napiVersion))
  field('polykern', inputs.version)
  field('platform', `${inputs.platform}-${inputs.arch}`)
}
