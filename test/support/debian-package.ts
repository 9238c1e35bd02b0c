/**
 * Debian packages the tests and the bench need but the machines start without (Chromium, oneDNN): installed with
 * apt-get the first time something needs one. The test machines run as root and may install Debian packages.
 */
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'

/**
 * Installs Debian's `pkg` (without recommended packages) unless `file` exists, and checks that it then does; throws
 * saying why, for `purpose`, when it cannot.
 */
export function ensureDebianPackage(pkg: string, file: string, purpose: string): void {
  if (existsSync(file)) return
  try {
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
    execFileSync('sh', ['-c', `apt-get update && apt-get install -y --no-install-recommends ${pkg}`], { env, stdio: 'pipe' })
  } catch (e) {
    const err = e as { stderr?: Buffer; message: string }
    throw new Error(
      `could not install Debian's ${pkg} ${purpose} (needs root and access to the Debian mirrors): ` +
        `${err.stderr?.toString().trim().split('\n').slice(-3).join(' | ') || err.message}`,
    )
  }
  if (!existsSync(file)) throw new Error(`apt-get installed ${pkg}, but ${file} is still missing`)
}
