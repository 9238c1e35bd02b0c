/**
 * Debian's oneDNN 2.x (`libdnnl-dev`: headers, libdnnl and its OpenMP runtime) for the bench's `onednn` system and its
 * test, installed with apt-get the first time one of them needs it, as chromium.ts installs Chromium.
 */
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'

export const ONEDNN_HEADER = '/usr/include/oneapi/dnnl/dnnl.h'

/** Installs Debian's libdnnl-dev when its header is missing, or throws saying why it could not. */
export function ensureOnednn(): void {
  if (existsSync(ONEDNN_HEADER)) return
  try {
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
    // The recommended package (OpenCL's headers) is for oneDNN's GPU engine, which the bench does not use.
    execFileSync('sh', ['-c', 'apt-get update && apt-get install -y --no-install-recommends libdnnl-dev'], { env, stdio: 'pipe' })
  } catch (e) {
    const err = e as { stderr?: Buffer; message: string }
    throw new Error(
      `could not install Debian's libdnnl-dev (oneDNN; needs root and access to the Debian mirrors): ` +
        `${err.stderr?.toString().trim().split('\n').slice(-3).join(' | ') || err.message}`,
    )
  }
  if (!existsSync(ONEDNN_HEADER)) throw new Error(`apt-get installed libdnnl-dev, but ${ONEDNN_HEADER} is still missing`)
}
