#!/usr/bin/env node
/** The `polykern` executable (package.json `bin`): main.ts holds the commands. */
import { main } from './main.ts'

process.exitCode = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  cwd: process.cwd(),
  env: process.env,
})
