/**
 * `polykern-report.html`: the build report as one self-contained page (inline CSS and SVG, no script, nothing fetched),
 * so it opens from disk anywhere. Layout: the machine and the assumptions, the roofline of every kernel, then one
 * section per kernel (spec, loops, native status, per contraction the schedule of each shape class with its working
 * sets and predicted against measured GFLOP/s, and the ranking chart).
 */
import type { BuildReport, ClassSchedule, ContractionReport, KernelReport, Measurement, WarningReport } from './report-types.ts'
import { escapeXml as esc, rankingSvg, rooflineSvg } from './report-svg.ts'

const STYLE = `
body { font: 14px/1.45 system-ui, sans-serif; margin: 24px auto; max-width: 1100px; color: #1d232a; background: #fff; }
h1 { font-size: 24px; } h2 { font-size: 19px; margin-top: 36px; border-bottom: 2px solid #d6dde4; }
h3 { font-size: 15px; margin-bottom: 6px; } .loc, .dim { color: #5d6b78; }
pre { background: #f3f5f7; padding: 8px 12px; overflow-x: auto; }
table { border-collapse: collapse; margin: 6px 0 14px; } th, td { border: 1px solid #d6dde4; padding: 3px 8px; text-align: left; vertical-align: top; }
th { background: #eef2f6; } td.num { text-align: right; font-variant-numeric: tabular-nums; }
.chart .grid { stroke: #e3e8ee; } .chart .axis { font-size: 11px; fill: #5d6b78; } .chart .axis-title { font-size: 12px; fill: #1d232a; }
.roof-memory { stroke: #2f7d32; stroke-width: 2.5; } .roof-compute { stroke: #c62828; stroke-width: 2.5; }
.roof-label { font-size: 12px; fill: #1d232a; } .point-label { font-size: 12px; fill: #1d232a; }
.kernel-point.measured { fill: #1565c0; } .kernel-point.predicted { fill: #fff; stroke: #1565c0; stroke-width: 2; }
.bar { fill: #90a4ae; } .bar.chosen { fill: #1565c0; } .bar-label { font-size: 12px; fill: #1d232a; }
.ok { color: #2f7d32; } .bad { color: #c62828; }
.warning { border-left: 4px solid #ef6c00; background: #fff3e0; padding: 6px 12px; margin: 8px 0; }
`

export function renderReportHtml(r: BuildReport): string {
  const points = r.kernels.flatMap((k) => (k.point ? [{ ...k.point, kernel: k.name }] : []))
  const m = r.machine
  const caches = m.caches.map((c) => `L${c.level} ${bytes(c.bytes)}${c.sharedBy > 1 ? ` (shared by ${c.sharedBy})` : ''}`).join(', ')
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>polykern build report</title><style>${STYLE}</style></head>
<body>
<h1>polykern build report</h1>
<p class="dim">${esc(r.generated)} · ${r.kernels.length} kernel${r.kernels.length === 1 ? '' : 's'}</p>
<h2 id="machine">Build machine</h2>
<p>${esc(m.cpu)}: ${m.cores} core${m.cores === 1 ? '' : 's'}, ${esc(caches)} (${esc(m.source)}); addons run the <b>${esc(m.isa)}</b> version here;
${r.roofline.threads} thread${r.roofline.threads === 1 ? '' : 's'} at ${r.roofline.clock.ghz.toFixed(2)} GHz (${esc(r.roofline.clock.source)}).</p>
<ul>${r.assumptions.map((a) => `<li>${esc(a)}</li>`).join('')}</ul>
<h2 id="roofline">Roofline</h2>
<p class="dim">Filled: measured on this machine; hollow: predicted by the schedule model (default shape class).</p>
${rooflineSvg(r.roofline, points)}
${r.kernels.map(kernelSection).join('\n')}
</body></html>
`
}

function kernelSection(k: KernelReport): string {
  const native = k.native.built
    ? `<span class="ok">native</span>, ${esc(k.native.isa)} version (${esc(k.native.addon)})` +
      (k.native.jsBelow
        ? `; calls below ${k.native.jsBelow} units of work (a call's work: the product of its loop extents, M·N·K for a ` +
          'matmul) run the JS loops, measured faster there'
        : '')
    : `<span class="bad">JS loops</span>: ${esc(k.native.reason)}`
  return `<section class="kernel" id="kernel-${esc(k.name)}">
<h2>${esc(k.name)} <span class="loc">${esc(k.location)}</span></h2>
<p>Module ${esc(k.module)} · ISAs ${esc(k.isas.join(', '))} · ${native}</p>
${k.point?.unmeasured ? `<p class="dim">Its roofline dot is hollow: predicted by the schedule model, not measured (${esc(k.point.unmeasured)}).</p>` : ''}
${k.warnings.map(warningBlock).join('\n')}
<h3>Spec</h3><pre>${esc(k.spec)}</pre>
<table><tr><th>tensor</th><th>type</th><th>role</th></tr>${k.tensors
    .map((t) => `<tr><td>${esc(t.name)}</td><td>${esc(`${t.dtype}[${t.shape.join(', ')}]`)}</td><td>${esc(t.role)}</td></tr>`)
    .join('')}</table>
<h3>Loops after lowering</h3><pre>${esc(k.loops.join('\n') || '(none)')}</pre>
${k.contractions.map((c) => contractionSection(c, k.measurements, k.native.built ? k.native.isa : undefined)).join('\n')}
<h3>Measured on this machine</h3>${measurementTable(k.measurements)}
</section>`
}

function warningBlock(w: WarningReport): string {
  const notes = w.notes.map((n) => `<li>${esc(n)}</li>`).join('')
  return `<div class="warning"><b>${esc(w.code)}</b>${w.location ? ` <span class="loc">${esc(w.location)}</span>` : ''}: ${esc(w.message)}` +
    (notes ? `<ul>${notes}</ul>` : '') + '</div>'
}

function contractionSection(c: ContractionReport, measured: readonly Measurement[], isaHere: string | undefined): string {
  const r = c.roles
  const batch = r.batch.length ? `, batch ${r.batch.join(', ')}` : ''
  const isas = c.schedules.map((s) => {
    const rows = s.classes.map((cl) => classRow(cl, s.isa === isaHere ? measured.find((x) => x.label === cl.shapeClass) : undefined))
    return `<h3>${esc(`${c.id} on ${s.isa} (${s.microkernel})`)}</h3>
<table><tr><th>shape class</th><th>calls</th><th>ranked on</th><th>schedule</th><th>working sets (model)</th><th>predicted GFLOP/s</th><th>measured GFLOP/s</th></tr>
${rows.join('\n')}</table>`
  })
  const ranking = c.ranking.length
    ? `<h3>${esc(`${c.id}: ranked variants of the default class on ${isaHere ?? 'this machine'} (predicted cycles, top ${c.ranking.length})`)}</h3>
<p class="dim">Cheapest first; variants within half a percent of each other are ordered by PolyDL's Eq. 1 (less far traffic first).</p>
${rankingSvg(c.ranking)}`
    : ''
  return `<h3>Contraction ${esc(c.id)}: ${esc(`${r.c}[${r.m}, ${r.n}] += ${r.a} · ${r.b} over ${r.k}${batch} (${c.dtype})`)}</h3>
${isas.join('\n')}${ranking}`
}

function classRow(cl: ClassSchedule, m: Measurement | undefined): string {
  const rep = cl.representative
  const sets = cl.workingSets
    .map((l) => `${esc(l.level)}: ${l.sets.map((s) => esc(`${s.tensor}/${s.loop} ${bytes(s.bytes)}`)).join(', ')}`)
    .join('<br>')
  const measured = m === undefined ? '<span class="dim">n/a</span>' : m.gflops !== undefined ? m.gflops.toFixed(1) : `<span class="dim">${esc(m.skipped ?? '')}</span>`
  return `<tr><td>${esc(cl.shapeClass)}</td><td>${esc(cl.guard)}</td><td>${rep.batch > 1 ? `${rep.batch} × ` : ''}${rep.m} × ${rep.n} × ${rep.k}</td>` +
    `<td>${esc(cl.description)}</td><td>${sets}</td><td class="num">${cl.predicted.gflops.toFixed(1)}</td><td class="num">${measured}</td></tr>`
}

function measurementTable(ms: readonly Measurement[]): string {
  if (ms.length === 0) return '<p class="dim">Not timed: no native addon.</p>'
  const rows = ms.map((m) => {
    const sizes = Object.entries(m.sizes).map(([k, v]) => `${k}=${v}`).join(' ')
    const result = m.gflops !== undefined ? `${(m.seconds! * 1e3).toFixed(3)} ms, ${m.gflops.toFixed(2)} GFLOP/s` : `skipped: ${m.skipped}`
    return `<tr><td>${esc(m.label)}</td><td>${esc(sizes)}</td><td class="num">${m.intensity.toPrecision(3)}</td><td>${esc(result)}</td></tr>`
  })
  return `<table><tr><th>timing</th><th>sizes</th><th>FLOP/byte</th><th>fastest call</th></tr>${rows.join('')}</table>`
}

const bytes = (n: number): string =>
  n >= 2 ** 20 ? `${(n / 2 ** 20).toFixed(1)} MiB` : n >= 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${n} B`
