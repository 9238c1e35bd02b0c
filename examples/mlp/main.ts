// `npm run example -- mlp`: class probabilities of a batch of 512 28×28 inputs through a 784-256-10 MLP with
// random (He-initialised) weights, natively and in the JS fallback; both must pick the same classes.
import { entryOf, f32, maxRelErr, printTable, timeBoth } from '../shared/measure.ts'
import { mlp } from './model.ts'

const [B, I, H, O] = [512, 784, 256, 10]
const he = (fanIn: number, n: number) => f32(n).map((v) => v * Math.sqrt(6 / fanIn))
const X = f32(B * I).map((v) => (v + 1) / 2)
const W1 = he(I, I * H)
const b1 = f32(H).map((v) => v * 0.01)
const W2 = he(H, H * O)
const b2 = f32(O).map((v) => v * 0.01)
const args = () => [X, W1, b1, W2, b2, new Float32Array(B * O), B, I, H, O]

const native = mlp(X, W1, b1, W2, b2, new Float32Array(B * O), B, I, H, O)
const js = entryOf('mlp').js(...args()) as Float32Array
const argmax = (p: Float32Array, n: number) => {
  let best = 0
  for (let o = 1; o < O; o++) if (p[n * O + o] > p[n * O + best]) best = o
  return best
}
let same = 0
const counts = new Array<number>(O).fill(0)
for (let n = 0; n < B; n++) {
  const c = argmax(native, n)
  counts[c]++
  if (c === argmax(js, n)) same++
}
const t = timeBoth('mlp', args)
const flops = 2 * B * (I * H + H * O)
printTable(['kernel', 'batch', 'layers', 'path', 'native ms', 'JS ms', 'native/JS', 'GFLOP/s native', 'max rel err'], [
  ['mlp', `${B}`, `${I}-${H}-${O}`, t.native ? 'native' : 'JS (fallback!)', t.nativeMs.toFixed(3), t.jsMs.toFixed(2),
    `${(t.jsMs / t.nativeMs).toFixed(1)}x`, (flops / t.nativeMs / 1e6).toFixed(1), maxRelErr(js, native).toExponential(1)],
], 4)
console.log(`\npredicted classes (native): ${counts.map((c, o) => `${o}: ${c}`).join(', ')}; same class as JS for ${same} of ${B} inputs`)
if (same !== B) process.exitCode = 1
