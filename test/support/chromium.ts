/**
 * Headless Chromium for the tests that render HTML: Debian's `chromium` package, installed with apt-get the first time
 * a test needs it (the test machines run as root and may install Debian packages, but start without it).
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { ensureDebianPackage } from './debian-package.ts'

export const CHROMIUM = '/usr/bin/chromium'

/**
 * The path of a working Chromium; installs Debian's package when it is missing (its recommended packages, the setuid
 * sandbox and extra fonts, are not needed headless), or throws saying why it could not.
 */
export function ensureChromium(): string {
  ensureDebianPackage('chromium', CHROMIUM, 'for the HTML tests')
  return CHROMIUM
}

/** Flags for a quiet, offline headless run with `profile` as its (fresh) user data directory. */
function headlessFlags(profile: string): string[] {
  return [
    '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', `--user-data-dir=${profile}`,
  ]
}

/**
 * Runs headless Chromium with `args` in a throwaway profile and returns its stdout. stderr is piped, not inherited:
 * Chromium logs D-Bus noise there on machines without a session bus.
 */
function runHeadless(args: readonly string[]): string {
  const profile = mkdtempSync(path.join(os.tmpdir(), 'polykern-chromium-'))
  try {
    return execFileSync(ensureChromium(), [...headlessFlags(profile), ...args], {
      encoding: 'utf8',
      maxBuffer: 64 << 20,
      timeout: 60_000,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
  } finally {
    rmSync(profile, { recursive: true, force: true })
  }
}

/** The DOM of `url` after it loaded, as Chromium serializes it. */
export const dumpDom = (url: string): string => runHeadless(['--dump-dom', url])

/** Renders `url` into the PNG `file` at the given window size. */
export function screenshot(url: string, file: string, width = 1200, height = 2000): void {
  runHeadless([`--screenshot=${file}`, `--window-size=${width},${height}`, url])
}
