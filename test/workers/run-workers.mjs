/**
 * A process whose main thread never loads the kernels: argv[2] is a scenario, argv[3] the module (or `addon:<path>`),
 * argv[4] the rounds of `cycles` (50 unless given). It exits 0 only when every worker finished as expected and
 * nothing crashed on the way out.
 *   alone: one worker runs sync, ends; a second (the addon unloaded and loaded again) runs `.async`, ends; the first
 *     one's bound filter must be gone when the second starts.
 *   cycles: rounds of 4 workers at once, sync and async mixed, each created, run and exited.
 *   terminate: terminate() of an idle worker that ran its kernels, then while a long sync GEMM runs, then while a
 *     long `.async` one runs.
 */
import { Worker } from 'node:worker_threads'

const [scenario, target, rounds = '50'] = process.argv.slice(2)
const where = target.startsWith('addon:') ? { addon: target.slice(6) } : { module: target }
const worker = (data) => new Worker(new URL('./worker.mjs', import.meta.url), { workerData: { ...where, size: 96, ...data } })

function finished(w) {
  return new Promise((resolve, reject) => {
    let done = false
    w.on('message', (m) => (done ||= m === 'done'))
    w.on('error', reject)
    w.on('exit', (code) => (code === 0 && done ? resolve() : reject(new Error(`worker exited with ${code}${done ? '' : ' before it finished'}`))))
  })
}

if (scenario === 'alone') {
  await finished(worker({ async: false }))
  await finished(worker({ async: true, noForms: true }))
} else if (scenario === 'cycles') {
  for (let round = 0; round < Number(rounds); round++) {
    await Promise.all([0, 1, 2, 3].map((i) => finished(worker({ async: i % 2 === 1, size: 40 + 7 * i }))))
  }
} else if (scenario === 'terminate') {
  const idle = worker({ async: false, stay: true })
  const exited = new Promise((resolve, reject) => (idle.on('exit', resolve), idle.on('error', reject)))
  await new Promise((resolve) => idle.on('message', (m) => m === 'done' && resolve()))
  await idle.terminate()
  if ((await exited) !== 1) throw new Error('a terminated idle worker did not exit with 1')
  for (const async of [false, true]) {
    const w = worker({ async, size: 2048, signal: true })
    const exited = new Promise((resolve, reject) => (w.on('exit', resolve), w.on('error', reject)))
    await new Promise((resolve) => w.once('message', resolve))
    await new Promise((resolve) => setTimeout(resolve, 30))
    await w.terminate()
    const code = await exited
    if (code !== 1) throw new Error(`a terminated worker exited with ${code}`)
  }
} else {
  throw new Error(`unknown scenario ${scenario}`)
}
console.log(`${scenario}: ok`)
