import type { ChartTheme, RuntimeMetric, Visual } from '@strata/embed/chart-options'
import { chartSvg, svgBody } from './svg.js'

/**
 * One metric drawn as the web component's card (packages/embed/src/render/card.ts and its styles):
 * a white card with a border and rounded corners, the metric's name as its title, and under it the
 * ECharts chart with its legend, the single value with its change pill, the table, or "No data".
 * One SVG document, so the PNG (resvg) and the PDF (svg-to-pdfkit) draw the same picture.
 */

/** The web component's CSS colours that ECharts' theme does not carry (styles/base.ts). */
const POSITIVE = '#059669'
const NEGATIVE = '#dc2626'
const BACKGROUND = '#f6f7f9'
const RADIUS = 10
const PAD = 16
const HEADER = 44
const SINGLE_HEIGHT = 120
const LEGEND_MAX = 12
const ROW = 30

export interface CardOptions {
  readonly theme: ChartTheme
  /** Card width, px. */
  readonly width: number
  /** Space around the card in the dashboard's background colour (PNG), 0 for none (PDF). */
  readonly margin: number
  /** The chart's height, px (its legend comes under it). */
  readonly chartHeight: number
  /** Table rows a card shows; the rest is counted in a note under it. */
  readonly tableRows: number
}

export interface CardSvg {
  readonly svg: string
  readonly width: number
  readonly height: number
}

export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": 'apos' }[c]};`)
}

/** A text's width in px, estimated (DejaVu Sans runs about 0.6em a character). */
const textWidth = (text: string, size: number) => text.length * size * 0.6

/** The text cut with an ellipsis to fit `width` px. */
export function fitText(text: string, size: number, width: number): string {
  if (textWidth(text, size) <= width) return text
  const chars = Math.max(1, Math.floor(width / (size * 0.6)) - 1)
  return `${text.slice(0, chars).trimEnd()}…`
}

interface Body {
  readonly svg: string
  readonly height: number
}

export function cardSvg(metric: RuntimeMetric, visual: Visual, o: CardOptions): CardSvg {
  const inner = o.width - 2 * PAD
  const body = bodyOf(visual, inner, o)
  const cardHeight = HEADER + body.height + PAD
  const width = o.width + 2 * o.margin
  const height = cardHeight + 2 * o.margin
  const font = escapeXml(o.theme.font)
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`,
    o.margin > 0 ? `<rect width="${width}" height="${height}" fill="${BACKGROUND}"/>` : '',
    `<g transform="translate(${o.margin} ${o.margin})" font-family="${font}">`,
    `<rect x="0.5" y="0.5" width="${o.width - 1}" height="${cardHeight - 1}" rx="${RADIUS}" ry="${RADIUS}" fill="${o.theme.surface}" stroke="${o.theme.border}"/>`,
    `<text x="${PAD}" y="28" font-size="14" font-weight="600" fill="${o.theme.text}">${escapeXml(fitText(metric.name, 14, inner))}</text>`,
    `<g transform="translate(${PAD} ${HEADER})">${body.svg}</g>`,
    '</g></svg>',
  ]
  return { svg: parts.join(''), width, height }
}

function bodyOf(visual: Visual, width: number, o: CardOptions): Body {
  const { theme } = o
  switch (visual.kind) {
    case 'echarts':
      return chartBody(visual, width, o.chartHeight, theme)
    case 'single-value':
      return singleValueBody(visual, width, theme, visual.lastYear ? 'vs a year before' : undefined)
    case 'trend':
      return trendBody(visual, width, theme)
    case 'table':
      return tableBody(visual, width, o.tableRows, theme)
    case 'pivot':
      return tableBody(pivotAsTable(visual), width, o.tableRows, theme)
    case 'empty':
      return {
        svg: `<text x="${width / 2}" y="${SINGLE_HEIGHT / 2}" text-anchor="middle" font-size="13" fill="${theme.muted}">No data</text>`,
        height: SINGLE_HEIGHT,
      }
  }
}

/** The chart, and under it the legend the web component draws in HTML (swatch and name, wrapping). */
function chartBody(
  visual: Extract<Visual, { kind: 'echarts' }>,
  width: number,
  height: number,
  theme: ChartTheme,
): Body {
  const chart = svgBody(chartSvg(visual.option, width, height))
  const items = visual.legend.slice(0, LEGEND_MAX).map((l) => ({ label: l.name, color: l.color }))
  if (visual.legend.length > LEGEND_MAX) items.push({ label: `+${visual.legend.length - LEGEND_MAX} more`, color: '' })
  const legend: string[] = []
  let x = 0
  let y = height + 8
  for (const item of items) {
    const label = fitText(item.label, 12, width - 16)
    const w = (item.color ? 16 : 0) + textWidth(label, 12)
    if (x > 0 && x + w > width) {
      x = 0
      y += 18
    }
    if (item.color) legend.push(`<rect x="${x}" y="${y + 2}" width="10" height="10" rx="3" fill="${item.color}"/>`)
    legend.push(
      `<text x="${x + (item.color ? 16 : 0)}" y="${y + 11}" font-size="12" fill="${theme.muted}">${escapeXml(label)}</text>`,
    )
    x += w + 14
  }
  return { svg: `<g>${chart}</g>${legend.join('')}`, height: items.length ? y + 18 : height }
}

/** The value, as large as the card allows (44px at most), and the change pill with what it compares with. */
function singleValueBody(
  visual: Extract<Visual, { kind: 'single-value' | 'trend' }>,
  width: number,
  theme: ChartTheme,
  versus = 'vs previous period',
): Body {
  const size = Math.max(14, Math.min(44, width / (Math.max(4, visual.text.length) * 0.62)))
  const parts = [
    `<text x="0" y="${20 + size * 0.8}" font-size="${size.toFixed(1)}" font-weight="700" fill="${theme.text}">${escapeXml(visual.text)}</text>`,
  ]
  if (visual.changeText) {
    const color = visual.tone === 'good' ? POSITIVE : visual.tone === 'bad' ? NEGATIVE : theme.muted
    const top = 20 + size * 1.1 + 10
    const pill = textWidth(visual.changeText, 13) + 16
    parts.push(
      `<rect x="0" y="${top}" width="${pill}" height="22" rx="11" ry="11" fill="${color}" fill-opacity="0.12"/>`,
      `<text x="8" y="${top + 15.5}" font-size="13" font-weight="600" fill="${color}">${escapeXml(visual.changeText)}</text>`,
      `<text x="${pill + 6}" y="${top + 15.5}" font-size="13" fill="${theme.muted}">${escapeXml(versus)}</text>`,
    )
  }
  return { svg: parts.join(''), height: SINGLE_HEIGHT }
}

const SPARK = 40

/** The number with its change (against the period before), and under it the sparkline over every period. */
function trendBody(visual: Extract<Visual, { kind: 'trend' }>, width: number, theme: ChartTheme): Body {
  const value = singleValueBody(visual, width, theme, visual.versus ?? '')
  if (visual.spark.length < 2) return value
  const top = value.height
  const at = visual.spark.map((p) => `${(p.x * width).toFixed(1)} ${(top + SPARK - 4 - p.y * (SPARK - 8)).toFixed(1)}`)
  const line = `M${at.join('L')}`
  const area = `${line}L${width} ${top + SPARK}L0 ${top + SPARK}Z`
  const color = theme.palette[0] ?? theme.text
  return {
    svg: `${value.svg}<path d="${area}" fill="${color}" fill-opacity="0.12"/><path d="${line}" fill="none" stroke="${color}" stroke-width="2" stroke-linejoin="round"/>`,
    height: top + SPARK,
  }
}

/**
 * A pivot table drawn as the table is: its row dimensions, a column per column key and measure
 * ("Mar 2026 · Revenue" when there are several measures), the row totals, and a last row of column totals.
 */
function pivotAsTable(v: Extract<Visual, { kind: 'pivot' }>): Extract<Visual, { kind: 'table' }> {
  const several = v.measures.length > 1
  const keyed = (key: string) => v.measures.map((m) => (several ? `${key} · ${m}` : key))
  const totals = v.totals.grand.length > 0
  const columns = [
    ...v.rowHeaders.map((label) => ({ name: label, label, numeric: false })),
    ...[...v.columnKeys, ...(totals ? ['Total'] : [])]
      .flatMap(keyed)
      .map((label) => ({ name: label, label, numeric: true })),
  ]
  const rows = v.rows.map((r) => [...r.labels, ...r.cells, ...r.totals])
  if (totals) rows.push(['Total', ...v.rowHeaders.slice(1).map(() => ''), ...v.totals.cells, ...v.totals.grand])
  return { kind: 'table', columns, rows, page: 1, pageCount: 1, totalRecords: rows.length, summary: v.summary }
}

/** The web component's table: a shaded header row, rows ruled off, numbers right-aligned, cut to `most` rows. */
function tableBody(visual: Extract<Visual, { kind: 'table' }>, width: number, most: number, theme: ChartTheme): Body {
  const rows = visual.rows.slice(0, most)
  const natural = visual.columns.map(
    (c, i) => Math.max(textWidth(c.label, 12), ...rows.map((r) => textWidth(r[i] ?? '', 13))) + 24,
  )
  const total = natural.reduce((a, b) => a + b, 0) || 1
  const widths = natural.map((w) => (w / total) * width)
  const height = ROW * (rows.length + 1)
  const header = mix(theme.border, theme.surface, 0.3)
  const parts = [
    `<rect x="0.5" y="0.5" width="${width - 1}" height="${height - 1}" rx="7" ry="7" fill="${theme.surface}" stroke="${theme.border}"/>`,
    `<path d="M1 ${ROW}V8a7 7 0 0 1 7-7H${width - 8}a7 7 0 0 1 7 7V${ROW}Z" fill="${header}"/>`,
  ]
  const cell = (text: string, i: number, y: number, size: number, weight: string, color: string) => {
    const x = widths.slice(0, i).reduce((a, b) => a + b, 0)
    const w = widths[i] ?? 0
    const numeric = visual.columns[i]?.numeric === true
    const t = escapeXml(fitText(text, size, w - 24))
    return numeric
      ? `<text x="${x + w - 12}" y="${y}" text-anchor="end" font-size="${size}"${weight} fill="${color}">${t}</text>`
      : `<text x="${x + 12}" y="${y}" font-size="${size}"${weight} fill="${color}">${t}</text>`
  }
  visual.columns.forEach((c, i) => {
    parts.push(cell(c.label, i, 19, 12, ' font-weight="600"', theme.muted))
  })
  rows.forEach((row, r) => {
    const top = ROW * (r + 1)
    parts.push(`<path d="M1 ${top + 0.5}H${width - 1}" stroke="${theme.border}"/>`)
    row.forEach((text, i) => {
      parts.push(cell(text, i, top + 19.5, 13, '', theme.text))
    })
  })
  const shown = rows.length
  const total_ = visual.totalRecords
  if (shown < total_) {
    parts.push(
      `<text x="0" y="${height + 20}" font-size="12" fill="${theme.muted}">Showing the first ${shown} of ${total_} rows</text>`,
    )
    return { svg: parts.join(''), height: height + 28 }
  }
  return { svg: parts.join(''), height }
}

/** `a` over `b` at `share` (CSS color-mix in srgb) for #rrggbb colours; `b` when either is another notation. */
function mix(a: string, b: string, share: number): string {
  const rgb = (c: string) =>
    /^#[0-9a-f]{6}$/i.test(c) ? [1, 3, 5].map((i) => Number.parseInt(c.slice(i, i + 2), 16)) : null
  const x = rgb(a)
  const y = rgb(b)
  if (!x || !y) return b
  return `#${x
    .map((v, i) =>
      Math.round(v * share + (y[i] ?? 0) * (1 - share))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`
}
