// `npm run example -- attention`: one causal self-attention head over a sequence of 512 positions of width 256 (head
// width 64), natively and in the JS fallback.
import { entryOf, f32, maxRelErr, printTable, timeBoth } from '../shared/measure.ts'
import { causalAttention } from './block.ts'

const [S, D, E] = [512, 256, 64]
const scaled = (n: number, fanIn: number) => f32(n).map((v) => v / Math.sqrt(fanIn))
const X = f32(S * D)
const [Wq, Wk, Wv] = [scaled(D * E, D), scaled(D * E, D), scaled(D * E, D)]
const Wo = scaled(E * D, E)
const args = () => [X, Wq, Wk, Wv, Wo, new Float32Array(S * D), S, D, E]

const native = causalAttention(X, Wq, Wk, Wv, Wo, new Float32Array(S * D), S, D, E)
const js = entryOf('causalAttention').js(...args()) as Float32Array
const err = maxRelErr(js, native)
const t = timeBoth('causalAttention', args)
// Projections (4 of S·D·E multiply-adds), the scores and the weighted values (about S²/2·E each, causal).
const flops = 2 * (4 * S * D * E + S * S * E)
printTable(['kernel', 'sequence', 'path', 'native ms', 'JS ms', 'native/JS', 'GFLOP/s native', 'max rel err'], [
  ['causalAttention', `S=${S}, D=${D}, E=${E}`, t.native ? 'native' : 'JS (fallback!)', t.nativeMs.toFixed(3), t.jsMs.toFixed(2),
    `${(t.jsMs / t.nativeMs).toFixed(1)}x`, (flops / t.nativeMs / 1e6).toFixed(1), err.toExponential(1)],
], 3)
if (!(err < 1e-3)) {
  console.error('native and JS disagree')
  process.exitCode = 1
}
