// `npm run example -- kmeans`: 6 Lloyd iterations clustering 30,000 points in 32 dimensions into 64 clusters (drawn
// around 64 hidden centres), with the compiled steps, then the same iterations with their JS fallbacks; both runs
// must end with the same assignment.
import { entryOf, printTable, random } from '../shared/measure.ts'
import { clusterSums, distances } from './steps.ts'

const [N, D, K, ITERATIONS] = [30_000, 32, 64, 6]
const centres = Array.from({ length: K }, () => Float32Array.from({ length: D }, () => random() * 10))
const X = new Float32Array(N * D)
for (let n = 0; n < N; n++) {
  const centre = centres[n % K]
  for (let d = 0; d < D; d++) X[n * D + d] = centre[d] + 3 * random()
}

type Step = (...args: unknown[]) => unknown
/** Runs the iterations with the given implementations of the two steps; returns the assignment, inertia and time. */
function lloyd(distancesStep: Step, sumsStep: Step) {
  const C = X.slice(0, K * D) // the first K points as initial centroids
  const dist = new Float32Array(N * K)
  const assign = new Float32Array(N * K)
  const label = new Int32Array(N)
  const S = new Float32Array(K * D)
  let inertia = 0
  let stepMs = 0
  const inertias: number[] = []
  for (let it = 0; it < ITERATIONS; it++) {
    let t0 = performance.now()
    distancesStep(X, C, dist, N, D, K)
    stepMs += performance.now() - t0
    inertia = 0
    assign.fill(0)
    const counts = new Float64Array(K)
    for (let n = 0; n < N; n++) {
      let best = 0
      for (let c = 1; c < K; c++) if (dist[n * K + c] < dist[n * K + best]) best = c
      label[n] = best
      assign[n * K + best] = 1
      counts[best]++
      inertia += dist[n * K + best]
    }
    inertias.push(inertia / N)
    t0 = performance.now()
    sumsStep(X, assign, S, N, D, K)
    stepMs += performance.now() - t0
    for (let c = 0; c < K; c++) if (counts[c] > 0) for (let d = 0; d < D; d++) C[c * D + d] = S[c * D + d] / counts[c]
  }
  return { label, inertias, stepMs }
}

const native = lloyd(distances as Step, clusterSums as Step)
const js = lloyd(entryOf('distances').js, entryOf('clusterSums').js)
let same = 0
for (let n = 0; n < N; n++) if (native.label[n] === js.label[n]) same++
printTable(['steps', 'points', 'path', 'native ms', 'JS ms', 'native/JS'], [
  [`${ITERATIONS} x (distances + sums)`, `${N} x ${D}, K=${K}`, entryOf('distances').native ? 'native' : 'JS (fallback!)',
    native.stepMs.toFixed(1), js.stepMs.toFixed(1), `${(js.stepMs / native.stepMs).toFixed(1)}x`],
], 3)
console.log(`\nmean squared distance per iteration: ${native.inertias.map((v) => v.toFixed(2)).join(' → ')}`)
console.log(`same final cluster as the JS run for ${same} of ${N} points`)
if (same !== N) process.exitCode = 1
