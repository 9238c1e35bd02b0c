/**
 * The report's two charts as inline SVG text, no library: a log-log roofline (attainable GFLOP/s against arithmetic
 * intensity, under the machine's memory and compute roofs, one dot per kernel) and a horizontal bar chart of ranked
 * variants' predicted cycles.
 */
import type { Roofline } from './machine-peak.ts'
import type { RankedEntry, RooflinePoint } from './report-types.ts'

/** Text safe inside HTML and SVG elements and attribute values. */
export const escapeXml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)

const num = (x: number): string => (Math.round(x * 10) / 10).toString()

/** Axis labels of powers of two and ten: 1/4, 4, 1000. */
const tick = (x: number): string => (x >= 1 ? String(x) : `1/${Math.round(1 / x)}`)

/** A text label's box: baseline `bottom`, 12 px glyphs. */
interface Box {
  readonly left: number
  readonly right: number
  readonly top: number
  readonly bottom: number
}
/** Roughly 7 px per character of the 12 px font: labels are short, so a bound is enough. */
const textWidth = (text: string): number => 7 * text.length
const labelBox = (left: number, baseline: number, text: string): Box =>
  ({ left, right: left + textWidth(text), top: baseline - 12, bottom: baseline + 2 })
const overlap = (a: Box, b: Box): boolean => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom

export function rooflineSvg(roof: Roofline, points: readonly (RooflinePoint & { readonly kernel: string })[]): string {
  const [width, height, left, right, top, bottom] = [720, 420, 64, 20, 20, 48]
  const intensities = points.map((p) => p.intensity).filter((x) => x > 0)
  const ridge = roof.peakGflops / roof.memoryGBs
  const xMin = 2 ** Math.floor(Math.log2(Math.min(1 / 8, ...intensities)))
  // Room to the right of the rightmost dot for its label.
  const xMax = 2 ** Math.ceil(Math.log2(Math.max(ridge * 8, ...intensities.map((v) => v * 8))))
  const rates = points.map((p) => p.gflops).filter((y) => y > 0)
  const yMin = 10 ** Math.floor(Math.log10(Math.min(xMin * roof.memoryGBs, ...rates)))
  const yMax = 10 ** Math.ceil(Math.log10(Math.max(roof.peakGflops * 1.5, ...rates)))
  const x = (v: number) => left + ((Math.log(v) - Math.log(xMin)) / (Math.log(xMax) - Math.log(xMin))) * (width - left - right)
  const y = (v: number) => height - bottom - ((Math.log(v) - Math.log(yMin)) / (Math.log(yMax) - Math.log(yMin))) * (height - top - bottom)
  const parts: string[] = []
  for (let v = xMin; v <= xMax; v *= 4) {
    parts.push(`<line class="grid" x1="${num(x(v))}" x2="${num(x(v))}" y1="${top}" y2="${height - bottom}"/>`,
      `<text class="axis" x="${num(x(v))}" y="${height - bottom + 16}" text-anchor="middle">${tick(v)}</text>`)
  }
  for (let v = yMin; v <= yMax; v *= 10) {
    parts.push(`<line class="grid" x1="${left}" x2="${width - right}" y1="${num(y(v))}" y2="${num(y(v))}"/>`,
      `<text class="axis" x="${left - 6}" y="${num(y(v) + 4)}" text-anchor="end">${tick(v)}</text>`)
  }
  const memEnd = Math.min(ridge, xMax)
  const [peakLabel, memoryLabel] = [`peak ${num(roof.peakGflops)} GFLOP/s`, `memory ${num(roof.memoryGBs)} GB/s`]
  parts.push(
    `<line class="roof-memory" x1="${num(x(xMin))}" y1="${num(y(xMin * roof.memoryGBs))}" x2="${num(x(memEnd))}" y2="${num(y(memEnd * roof.memoryGBs))}"><title>memory ${num(roof.memoryGBs)} GB/s</title></line>`,
    `<line class="roof-compute" x1="${num(x(memEnd))}" y1="${num(y(roof.peakGflops))}" x2="${num(x(xMax))}" y2="${num(y(roof.peakGflops))}"><title>peak ${num(roof.peakGflops)} GFLOP/s</title></line>`,
    `<text class="roof-label" x="${num(x(xMax) - 4)}" y="${num(y(roof.peakGflops) - 6)}" text-anchor="end">${peakLabel}</text>`,
    `<text class="roof-label" x="${num(x(xMin) + 6)}" y="${num(y(xMin * roof.memoryGBs) - 8)}">${memoryLabel}</text>`,
  )
  // Every label's box, the roofs' first: a kernel's label steps down until it overlaps none (dots of kernels that
  // perform alike coincide, and a label can land on a roof's).
  const placed: Box[] = [
    labelBox(x(xMax) - 4 - textWidth(peakLabel), y(roof.peakGflops) - 6, peakLabel),
    labelBox(x(xMin) + 6, y(xMin * roof.memoryGBs) - 8, memoryLabel),
  ]
  for (const p of points) {
    if (!(p.intensity > 0 && p.gflops > 0)) continue
    const [cx, cy] = [num(x(p.intensity)), num(y(p.gflops))]
    let label = labelBox(Number(cx) + 9, Number(cy) + 4, p.kernel)
    while (placed.some((q) => overlap(q, label))) label = { ...label, top: label.top + 14, bottom: label.bottom + 14 }
    placed.push(label)
    const labelY = label.bottom - 2
    const why = p.unmeasured ? `; not measured: ${p.unmeasured}` : ''
    parts.push(
      `<circle class="kernel-point ${p.source}" cx="${cx}" cy="${cy}" r="6"><title>${escapeXml(
        `${p.kernel} (${p.label}, ${p.source}${why}): ${num(p.gflops)} GFLOP/s at ${p.intensity.toPrecision(3)} FLOP/B`,
      )}</title></circle>`,
      `<text class="point-label" x="${Number(cx) + 9}" y="${labelY}">${escapeXml(p.kernel)}</text>`,
    )
  }
  parts.push(
    `<text class="axis-title" x="${(width + left) / 2}" y="${height - 8}" text-anchor="middle">arithmetic intensity (FLOP/byte)</text>`,
    `<text class="axis-title" transform="translate(14 ${(height - bottom + top) / 2}) rotate(-90)" text-anchor="middle">GFLOP/s</text>`,
  )
  return svg('roofline', width, height, parts)
}

export function rankingSvg(entries: readonly RankedEntry[]): string {
  // Bars on the left, each variant's numbers and blocking written after its bar.
  const [width, rowHeight, left, barSpace, top] = [1040, 26, 36, 300, 8]
  const height = top * 2 + entries.length * rowHeight
  const most = Math.max(...entries.map((e) => e.cycles))
  const parts = entries.flatMap((e, n) => {
    const w = (barSpace * e.cycles) / most
    const yTop = top + n * rowHeight
    return [
      `<text class="axis" x="${left - 6}" y="${yTop + 17}" text-anchor="end">#${e.rank}</text>`,
      `<rect class="bar${n === 0 ? ' chosen' : ''}" x="${left}" y="${yTop + 4}" width="${num(Math.max(1, w))}" height="${rowHeight - 8}"><title>${escapeXml(e.description)}</title></rect>`,
      `<text class="bar-label" x="${left + barSpace + 8}" y="${yTop + 17}">${escapeXml(
        `${(e.cycles / 1e6).toFixed(2)} Mcycles, ${num(e.gflops)} GFLOP/s · ${e.description}`,
      )}</text>`,
    ]
  })
  return svg('ranking', width, height, parts)
}

const svg = (kind: string, width: number, height: number, parts: readonly string[]): string =>
  `<svg class="chart ${kind}" xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img">` +
  `${parts.join('')}</svg>`
