/**
 * Runs before each test file. Files share a worker (isolate: false in vitest.config.ts), and the runtime keeps two
 * records on `globalThis` so that every bundle's copy of it agrees: the threads asked for with setThreads and the
 * addons it applies to, and the environment warnings already given. Each file starts as a fresh process would.
 */
const shared = globalThis as Record<symbol, unknown>
const threads = shared[Symbol.for('polykern.threads')] as { addons: Set<unknown>; requested?: number } | undefined
if (threads !== undefined) {
  threads.addons.clear()
  delete threads.requested
}
;(shared[Symbol.for('polykern.envWarnings')] as Set<string> | undefined)?.clear()
