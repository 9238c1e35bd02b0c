/**
 * The `report` option's HTML in a real browser: Debian's Chromium, headless (installed on first use by
 * test/support/chromium.ts). The dumped DOM holds every kernel and the SVG charts; the screenshot is not blank.
 */
import fs from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { dumpDom, ensureChromium, screenshot } from '../support/chromium.ts'
import { pngHeader, pngRows } from '../support/png.ts'
import { FIXTURE_KERNELS, buildWithReport, removeScratch } from './build-fixture.ts'

let html: string
let url: string
beforeAll(async () => {
  ensureChromium() // apt-get on a fresh machine: minutes, not seconds
  const dir = await buildWithReport()
  html = path.join(dir, 'polykern-report.html')
  url = pathToFileURL(html).href
}, 900_000)
afterAll(removeScratch)

describe('polykern-report.html in headless Chromium', () => {
  test('is self-contained: no script, stylesheet link or remote URL', () => {
    const text = fs.readFileSync(html, 'utf8')
    expect(text).not.toMatch(/<script|<link|<img|https?:\/\/(?!www\.w3\.org\/2000\/svg)/)
  })

  test('the rendered DOM holds every kernel, the roofline with a dot per kernel, and the ranking bars', () => {
    const dom = dumpDom(url)
    // Matched, not searched for with toContain, so a failure prints the names rather than the whole page.
    expect([...dom.matchAll(/<section class="kernel" id="kernel-(\w+)">/g)].map((m) => m[1])).toEqual(FIXTURE_KERNELS)
    const headings = [...dom.matchAll(/<h2>(\w+) <span class="loc">src\/kernels\.ts:\d+:\d+<\/span><\/h2>/g)]
    expect(headings.map((m) => m[1])).toEqual(FIXTURE_KERNELS)
    const roofline = /<svg class="chart roofline"[^]*?<\/svg>/.exec(dom)?.[0] ?? ''
    expect(roofline).toContain('<line class="roof-memory"')
    expect(roofline).toContain('<line class="roof-compute"')
    expect(roofline.match(/<circle class="kernel-point/g)).toHaveLength(FIXTURE_KERNELS.length)
    // One ranking chart per contraction (matmul, batchedMatmul), each with several bars, the chosen one marked.
    const rankings = dom.match(/<svg class="chart ranking"[^]*?<\/svg>/g) ?? []
    expect(rankings).toHaveLength(2)
    for (const chart of rankings) {
      expect((chart.match(/<rect class="bar/g) ?? []).length).toBeGreaterThan(1)
      expect(chart).toContain('<rect class="bar chosen"')
    }
    expect(dom.includes('<th>measured GFLOP/s</th>')).toBe(true)
  })

  test('the screenshot shows a drawn page, not a blank one', () => {
    const png = path.join(path.dirname(html), 'report.png')
    screenshot(url, png, 1200, 2000)
    const bytes = fs.readFileSync(png)
    expect(pngHeader(bytes)).toMatchObject({ width: 1200, height: 2000, bitDepth: 8 })
    // The first 900 rows hold the title, the machine text and the roofline (red, green and blue strokes).
    const rows = pngRows(bytes, 900)
    const colours = new Set(rows.flat())
    expect(colours.size).toBeGreaterThan(20)
    const white = rows.flat().filter((c) => c === 0xffffff).length
    expect(white / (rows.length * 1200)).toBeLessThan(0.99)
    const reddish = [...colours].some((c) => c >> 16 > 0xa0 && ((c >> 8) & 0xff) < 0x60 && (c & 0xff) < 0x60)
    expect(reddish).toBe(true) // the compute roof, so the SVG was drawn, not only the text
  })
})
