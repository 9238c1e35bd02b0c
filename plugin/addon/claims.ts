/**
 * Claims on the shared object files a build is about to compile (build.ts), so that builds running at once (a
 * bundler's modules, two processes on one cache) compile each tile family once: a build creates `<object>.claim`
 * before compiling it, and a build that finds the claim taken waits for it to go, then links what it left. Claims
 * are taken in one order (the objects' names sorted) and a build that meets a taken one gives back those it holds
 * before waiting, so no two builds ever wait on each other. A claim whose process is gone (killed), or older than a
 * build may take, is taken over. Nothing here is needed for a correct build: a claim that cannot be created only
 * means compiling the object here, as without claims.
 */
import { open, readFile, rm, stat } from 'node:fs/promises'
import os from 'node:os'
import { processAlive } from './alive.ts'

/** The claims a build holds on the objects it compiles, until it `release`s them. */
export interface ObjectClaims {
  /** How long the build waited for other builds' claims (ms; undefined when it never waited). */
  readonly waitedMs: number | undefined
  release(): Promise<void>
}

/** How often a waiting build looks at the claim it waits for. */
const POLL_MS = 100
/** A claim that does not parse this long after it was written was left half-written (its process killed). */
const UNREADABLE_GRACE_MS = 5_000

/**
 * Claims each of `objects` (paths of object files missing from the cache) that no other build holds, waiting for
 * those another holds; `present` says whether an object is in the cache now (another build may have put it there).
 * Returns once every object missing is claimed here: the caller then links the objects present and compiles the
 * rest. `maxAgeMs`: how long a build may take, past which its claims are taken over; `onWait`: called when it first
 * waits.
 */
export async function claimObjects(
  objects: readonly string[], present: (object: string) => boolean, maxAgeMs: number, onWait: () => void = () => {},
): Promise<ObjectClaims> {
  const started = Date.now()
  let waited = false
  const mine = new Set<string>()
  const release = async (): Promise<void> => {
    await Promise.all([...mine].map((o) => rm(claimFile(o), { force: true }).catch(() => {})))
    mine.clear()
  }
  for (;;) {
    const taken = await claimInOrder(objects.filter((o) => !mine.has(o) && !present(o)).sort(), mine, maxAgeMs)
    if (taken === undefined) break
    // Never wait holding claims: a build waiting on this one could be the one this one waits on.
    await release()
    if (!waited) onWait()
    await waitFor(taken, maxAgeMs)
    waited = true
  }
  return { waitedMs: waited ? Date.now() - started : undefined, release }
}

/** Claims `wanted` in order into `mine`, up to the first another build holds: that one, or none. */
async function claimInOrder(wanted: readonly string[], mine: Set<string>, maxAgeMs: number): Promise<string | undefined> {
  for (const object of wanted) {
    const claimed = await tryClaim(object, maxAgeMs)
    if (claimed === 'taken') return object
    if (claimed === 'mine') mine.add(object)
  }
  return undefined
}

/** Creates the claim; 'taken' when a live build holds it, 'failed' when it cannot be created (compiled unclaimed). */
async function tryClaim(object: string, maxAgeMs: number): Promise<'mine' | 'taken' | 'failed'> {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const file = await open(claimFile(object), 'wx')
      const claimant: Claimant = { pid: process.pid, host: os.hostname(), since: Date.now() }
      await file.writeFile(JSON.stringify(claimant)).finally(() => file.close())
      return 'mine'
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') return 'failed'
      if (!(await cleared(object, maxAgeMs))) return 'taken'
    }
  }
  return 'failed'
}

/** Until no live build holds the claim on `object`. */
async function waitFor(object: string, maxAgeMs: number): Promise<void> {
  do await new Promise((resolve) => setTimeout(resolve, POLL_MS))
  while (!(await cleared(object, maxAgeMs)))
}

/** Whether no live build holds the claim on `object`: it is gone, or it was stale and is now removed. */
async function cleared(object: string, maxAgeMs: number): Promise<boolean> {
  const claim = await readClaim(object)
  if (claim.kind === 'gone') return true
  if (!isStale(claim, maxAgeMs)) return false
  await rm(claimFile(object), { force: true }).catch(() => {})
  return true
}

interface Claimant {
  readonly pid: number
  readonly host: string
  /** When it was claimed (ms since the epoch). */
  readonly since: number
}

type Claim =
  | ({ readonly kind: 'held' } & Claimant)
  | { readonly kind: 'gone' }
  /** Written by no one known: being written, or left half-written. */
  | { readonly kind: 'unreadable'; readonly writtenMs: number }

const claimFile = (object: string): string => `${object}.claim`

async function readClaim(object: string): Promise<Claim> {
  try {
    const claim = JSON.parse(await readFile(claimFile(object), 'utf8')) as Partial<Claimant>
    if (typeof claim.pid === 'number' && typeof claim.host === 'string' && typeof claim.since === 'number') {
      return { kind: 'held', pid: claim.pid, host: claim.host, since: claim.since }
    }
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'gone' }
  }
  const written = await stat(claimFile(object)).then((s) => s.mtimeMs, () => undefined)
  return written === undefined ? { kind: 'gone' } : { kind: 'unreadable', writtenMs: written }
}

/** Its process gone (on this host), held longer than a build may take, or unreadable past the grace. */
function isStale(claim: Exclude<Claim, { readonly kind: 'gone' }>, maxAgeMs: number): boolean {
  const now = Date.now()
  switch (claim.kind) {
    case 'unreadable':
      return now - claim.writtenMs > UNREADABLE_GRACE_MS
    case 'held':
      return now - claim.since > maxAgeMs || (claim.host === os.hostname() && !processAlive(claim.pid))
  }
}
