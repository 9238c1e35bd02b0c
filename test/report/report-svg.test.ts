/** The roofline's labels: none drawn over another, the roofs' included; a hollow (predicted) dot says why. */
import { describe, expect, it } from 'vitest'
import { rooflineSvg } from '../../plugin/report/report-svg.ts'

const roof = { peakGflops: 100, memoryGBs: 33.6 } as Parameters<typeof rooflineSvg>[0]

/** Each text's baseline and start, and its string. */
const texts = (svg: string) =>
  [...svg.matchAll(/<text class="(roof-label|point-label)" x="([\d.-]+)" y="([\d.-]+)"[^>]*>([^<]*)<\/text>/g)]
    .map(([, kind, x, y, text]) => ({ kind, x: Number(x), y: Number(y), text }))

describe('roofline', () => {
  it('a kernel label that would land on the memory roof label, and labels of coinciding dots, step down clear of it', () => {
    // At the left edge (intensity 1/8) and right on the memory roof: its label starts where the roof's does.
    const points = ['columnMax', 'rowMax', 'columnMin'].map((kernel) => ({
      kernel, label: 'uniform', intensity: 1 / 8, gflops: 33.6 / 8, source: 'measured' as const,
    }))
    const labels = texts(rooflineSvg(roof, points))
    const memory = labels.find((l) => l.text.startsWith('memory'))!
    const kernels = labels.filter((l) => l.kind === 'point-label')
    expect(kernels).toHaveLength(3)
    // Boxes 12 px tall above the baseline, 7 px a character wide, as the chart reserves them.
    const box = (l: (typeof labels)[number]) => ({ left: l.x, right: l.x + 7 * l.text.length, top: l.y - 12, bottom: l.y + 2 })
    const all = [...kernels, memory].map(box)
    for (const [i, a] of all.entries()) {
      for (const b of all.slice(i + 1)) expect(a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom).toBe(false)
    }
  })

  it("a predicted dot's title says why it was not measured", () => {
    const svg = rooflineSvg(roof, [{ kernel: 'big', label: 'large', intensity: 20, gflops: 80, source: 'predicted', unmeasured: 'over the 150 ms timing budget' }])
    expect(svg).toContain('big (large, predicted; not measured: over the 150 ms timing budget): 80 GFLOP/s')
  })
})
