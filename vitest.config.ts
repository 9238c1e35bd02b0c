import path from 'node:path'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Native builds and real bundler runs take seconds, not milliseconds.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // Two cores: one worker per core keeps node-gyp builds from starving each other.
    maxWorkers: 2,
    // A worker keeps the modules it loaded (ts-morph, the compiler, the bundlers) for its next file instead of loading
    // them again: on a clean clone the suite's import time went from 220 s to 156 s. Files still share no state: every
    // stubbed variable and spy is restored after each test, the runtime's records on globalThis are reset before each
    // file (fresh-worker.ts), and tests name their own modules in the runtime registry.
    isolate: false,
    setupFiles: ['test/support/fresh-worker.ts'],
    // One folder for the microkernels' object files of every test's addons, whatever their cache (addon/build.ts):
    // each tile family compiles once per run instead of once per test file.
    env: { POLYKERN_OBJECT_CACHE: path.join(import.meta.dirname, 'node_modules/.cache/polykern-test/objects') },
    unstubEnvs: true,
    restoreMocks: true,
  },
})
