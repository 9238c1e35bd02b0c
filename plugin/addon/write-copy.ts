/**
 * Copies a built addon into an output directory for a bundler that writes nothing itself (esbuild). Rebuilds in
 * watch mode copy the same addon again and again, while the app built last time may still have it loaded: rewriting
 * a loaded shared object in place can kill that process (SIGBUS), so identical bytes are left alone and new bytes
 * go to a temporary file renamed over the old one (a new inode; the loaded one stays intact).
 */
import fs from 'node:fs'
import path from 'node:path'

export function writeAddonCopy(file: string, source: Buffer): void {
  if (fs.existsSync(file) && fs.readFileSync(file).equals(source)) return
  fs.mkdirSync(path.dirname(file), { recursive: true })
  const tmp = `${file}.${process.pid}.tmp`
  fs.writeFileSync(tmp, source)
  fs.renameSync(tmp, file)
}
