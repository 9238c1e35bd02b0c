import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Native builds and real bundler runs take seconds, not milliseconds.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // Two cores: one worker per core keeps node-gyp builds from starving each other.
    maxWorkers: 2,
  },
})
