/** Running the repository's TypeScript in a child `node` (Node 20 cannot run .ts itself): see ts-hooks.mjs. */
import path from 'node:path'
import { pathToFileURL } from 'node:url'

const register = pathToFileURL(path.join(import.meta.dirname, 'ts-register.mjs')).href

/** `node` arguments that run `script` (a .ts file) with `args`. */
export const nodeTs = (script: string, args: readonly string[] = []): string[] => ['--import', register, script, ...args]
