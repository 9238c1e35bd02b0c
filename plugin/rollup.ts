import { polykern } from './index.ts'

/**
 * polykern for Rollup.
 * @example
 * // rollup.config.js: polykern first, then your TypeScript plugin
 * import polykern from 'polykern/rollup'
 * import typescript from '@rollup/plugin-typescript'
 * export default { input: 'src/main.ts', plugins: [polykern(), typescript()] }
 */
export default polykern.rollup
