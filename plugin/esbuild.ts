import { polykern } from './index.ts'

/**
 * polykern for esbuild.
 * @example
 * import { build } from 'esbuild'
 * import polykern from 'polykern/esbuild'
 * await build({
 *   entryPoints: ['src/main.ts'], bundle: true, platform: 'node', format: 'esm', outdir: 'dist',
 *   plugins: [polykern()],
 * })
 */
export default polykern.esbuild
