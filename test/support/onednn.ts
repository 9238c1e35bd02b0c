/**
 * Debian's oneDNN 2.x (`libdnnl-dev`: headers, libdnnl and its OpenMP runtime) for the bench's `onednn` system and its
 * test, installed with apt-get the first time one of them needs it, as chromium.ts installs Chromium.
 */
import { ensureDebianPackage } from './debian-package.ts'

export const ONEDNN_HEADER = '/usr/include/oneapi/dnnl/dnnl.h'

/**
 * Installs Debian's libdnnl-dev when its header is missing, or throws saying why it could not. Its recommended
 * package (OpenCL's headers) is for oneDNN's GPU engine, which the bench does not use.
 */
export function ensureOnednn(): void {
  ensureDebianPackage('libdnnl-dev', ONEDNN_HEADER, "(oneDNN) for the bench's onednn system")
}
