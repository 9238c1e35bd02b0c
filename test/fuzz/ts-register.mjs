// `node --import ./test/fuzz/ts-register.mjs script.ts`: runs TypeScript sources in place (see ts-hooks.mjs).
import { register } from 'node:module'

register('./ts-hooks.mjs', import.meta.url)
