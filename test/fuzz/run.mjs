// `npm run fuzz -- --minutes N --seed S`: runs test/fuzz/main.ts (TypeScript, through the module hooks of
// ts-hooks.mjs) in a fresh process with the arguments; see main.ts for the options.
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const here = path.dirname(fileURLToPath(import.meta.url))
const args = ['--import', new URL('./ts-register.mjs', import.meta.url).href, path.join(here, 'main.ts'), ...process.argv.slice(2)]
const fuzz = spawnSync(process.execPath, args, { stdio: 'inherit' })
process.exitCode = fuzz.status ?? 1
