// `npm run example -- image-filter`: blur and edge-detect a 2048×2048 synthetic photo (discs on a gradient, with
// noise), natively and in the JS fallback; writes the input and the edge map as PGM images beside the bundle.
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { entryOf, maxRelErr, printTable, random, timeBoth } from '../shared/measure.ts'
import { blurEdges } from './filters.ts'

const H = 2048
const W = 2048
const image = new Float32Array(H * W)
const discs = Array.from({ length: 40 }, () => ({ y: (random() + 1) * H / 2, x: (random() + 1) * W / 2, r: 40 + (random() + 1) * 120 }))
for (let y = 0; y < H; y++)
  for (let x = 0; x < W; x++) {
    const inside = discs.some((d) => (y - d.y) ** 2 + (x - d.x) ** 2 < d.r ** 2)
    image[y * W + x] = 0.25 * (x / W) + (inside ? 0.6 : 0) + 0.05 * random()
  }
// The 5×5 binomial kernel (Pascal's row 1 4 6 4 1, squared), normalised: a Gaussian blur.
const row = [1, 4, 6, 4, 1]
const F = Float32Array.from({ length: 25 }, (_, n) => (row[Math.floor(n / 5)] * row[n % 5]) / 256)

const native = blurEdges(image, F, new Float32Array(H * W), H, W)
const js = entryOf('blurEdges').js(image, F, new Float32Array(H * W), H, W) as Float32Array
const err = maxRelErr(js, native)
const t = timeBoth('blurEdges', () => [image, F, new Float32Array(H * W), H, W])
printTable(['kernel', 'image', 'path', 'native ms', 'JS ms', 'native/JS', 'max rel err'], [
  ['blurEdges', `${H}x${W}`, t.native ? 'native' : 'JS (fallback!)', t.nativeMs.toFixed(2), t.jsMs.toFixed(2), `${(t.jsMs / t.nativeMs).toFixed(1)}x`, err.toExponential(1)],
], 3)

/** An 8-bit binary PGM of `pixels` scaled so that `top` is white. */
function pgm(file: string, pixels: Float32Array, top: number): void {
  const bytes = Buffer.alloc(H * W)
  for (let i = 0; i < H * W; i++) bytes[i] = Math.max(0, Math.min(255, Math.round((pixels[i] / top) * 255)))
  writeFileSync(file, Buffer.concat([Buffer.from(`P5\n${W} ${H}\n255\n`), bytes]))
}
const dir = path.dirname(fileURLToPath(import.meta.url))
let strongest = 0
for (const v of native) strongest = Math.max(strongest, v)
pgm(path.join(dir, 'photo.pgm'), image, 1)
pgm(path.join(dir, 'edges.pgm'), native, strongest)
console.log(`\nwrote ${path.join(dir, 'photo.pgm')} and edges.pgm (edge strength up to ${strongest.toFixed(3)})`)
if (!(err < 1e-3)) {
  console.error('native and JS disagree')
  process.exitCode = 1
}
