/**
 * A cache file written whole: `write` fills a temp name beside it (unique to this process and call), then one rename
 * puts it in place, so a build reading the cache at the same moment sees the old file or the new one, never half of
 * either. The temp file is removed whatever happens.
 */
import { randomBytes } from 'node:crypto'
import { rename, rm } from 'node:fs/promises'

export async function placeWhole(file: string, write: (tmp: string) => Promise<void>): Promise<void> {
  const tmp = `${file}.tmp-${process.pid}-${randomBytes(6).toString('hex')}`
  try {
    await write(tmp)
    await rename(tmp, file)
  } finally {
    await rm(tmp, { force: true }).catch(() => {})
  }
}
