/**
 * `node --import polykern/register app.ts`: registers the module-customization hooks of register-hooks.ts, which
 * compile annotated kernels on first import (through the same addon cache as the bundler plugin) and strip
 * TypeScript types, which Node 20 cannot do itself.
 */
import { register } from 'node:module'

// Beside this file: .ts when run from polykern's sources, .js from its compiled dist/.
const hooks = import.meta.url.endsWith('.ts') ? './register-hooks.ts' : './register-hooks.js'
register(new URL(hooks, import.meta.url))
