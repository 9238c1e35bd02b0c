import { polykern } from './index.ts'

/**
 * polykern for webpack 5.
 * @example
 * // webpack.config.js
 * import polykern from 'polykern/webpack'
 * export default { target: 'node', plugins: [polykern()] }
 */
export default polykern.webpack
