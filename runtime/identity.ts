/**
 * An addon's identity: the content hash of what it was built from (its C files, the headers, the build flags and
 * toolchain: plugin/addon/hash.ts), which the build bakes into the addon as a marker string in its bytes and which
 * it exports as `__polykern.identity`. The builder checks the marker of a cache hit and the loader checks it before
 * loading a file, so an addon built from other sources (another module's, exporting kernels of the same names) is
 * refused before its code can run.
 */

/** What the marker starts with; the identity (64 hex digits) and a NUL follow. */
export const IDENTITY_PREFIX = 'polykern-addon-identity:'

/** Whether an addon's bytes carry the marker of `identity` (no dlopen: a foreign addon's init never runs). */
export function carriesIdentity(bytes: Uint8Array, identity: string): boolean {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).includes(`${IDENTITY_PREFIX}${identity}\0`, 0, 'latin1')
}
