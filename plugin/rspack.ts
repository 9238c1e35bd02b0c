import { polykern } from './index.ts'

/**
 * polykern for Rspack.
 * @example
 * // rspack.config.js
 * import polykern from 'polykern/rspack'
 * export default { target: 'node', plugins: [polykern()] }
 */
export default polykern.rspack
