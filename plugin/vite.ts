import { polykern } from './index.ts'

/**
 * polykern for Vite.
 * @example
 * // vite.config.ts; for Node, `vite build --ssr src/main.ts` puts the addon beside the bundle
 * import polykern from 'polykern/vite'
 * export default { plugins: [polykern()] }
 */
export default polykern.vite
