import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { inflateSync } from 'node:zlib'
import { buildVisual, DEFAULT_CHART_THEME, type RuntimeMetric } from '@strata/embed/chart-options'
import { describe, expect, it } from 'vitest'
import type { MetricResult } from '../../query/metric-queries.js'
import { safeName, uniqueNames } from './filename.js'
import { renderReport } from './index.js'
import { PNG_SCALE } from './png.js'
import { chartSvg } from './svg.js'

const metric = (metricId: string, name: string, chart: RuntimeMetric['chart'], extra: Partial<RuntimeMetric> = {}) =>
  ({
    metricId,
    name,
    chart,
    origin: 'company',
    isPublished: true,
    visibility: 'shared',
    createdByUser: null,
    ...extra,
  }) as RuntimeMetric

const result = (
  data: Record<string, unknown>[],
  columns: [string, string][],
  groupBy: string[] = [],
  extra: Partial<MetricResult> = {},
): MetricResult =>
  ({
    data,
    timeTaken: 1,
    totalRecords: data.length,
    metaData: { columns: columns.map(([name, dataType]) => ({ name, dataType })), groupbyColumnList: groupBy },
    metricid: 'm',
    error: null,
    ...extra,
  }) as MetricResult

const monthly = result(
  [
    { month: '2024-01-01', revenue: 1200.5, orders: 10 },
    { month: '2024-02-01', revenue: 900, orders: 8 },
    { month: '2024-03-01', revenue: 1500, orders: 12 },
  ],
  [
    ['month', 'date'],
    ['revenue', 'number'],
    ['orders', 'integer'],
  ],
  ['month'],
)
const bar = { metric: metric('bar', 'Revenue by month', { type: 'bar', x: 'month', y: ['revenue'] }), result: monthly }
const line = {
  metric: metric('line', 'Orders and revenue', { type: 'line', x: 'month', y: ['revenue', 'orders'] }),
  result: monthly,
}
const pie = {
  metric: metric('pie', 'Orders by country', { type: 'pie', x: 'country', y: ['orders'] }),
  result: result(
    [
      { country: 'DE', orders: 30 },
      { country: 'FR', orders: 20 },
      { country: 'US', orders: 50 },
    ],
    [
      ['country', 'string'],
      ['orders', 'integer'],
    ],
    ['country'],
  ),
}
const single = {
  metric: metric('sv', 'Total revenue', { type: 'single-value' }),
  result: result([{ revenue: 1352004.2 }], [['revenue', 'number']], [], { comparisonValue: 1_200_000 }),
}
const table = {
  metric: metric('tbl', 'Top customers', { type: 'table' }),
  result: result(
    Array.from({ length: 40 }, (_, i) => ({ customer_name: `Customer ${i}`, order_count: i * 3 })),
    [
      ['customer_name', 'string'],
      ['order_count', 'integer'],
    ],
    [],
    { totalRecords: 40 },
  ),
}
const items = [bar, line, pie, single, table]

// --- a PNG read back: chunks, IHDR, and the RGBA pixels (8-bit RGBA, as resvg writes) ---
interface Image {
  width: number
  height: number
  pixel(x: number, y: number): [number, number, number, number]
}
function decodePng(png: Buffer): Image {
  expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  let offset = 8
  let width = 0
  let height = 0
  const idat: Buffer[] = []
  while (offset < png.length) {
    const length = png.readUInt32BE(offset)
    const type = png.toString('ascii', offset + 4, offset + 8)
    const data = png.subarray(offset + 8, offset + 8 + length)
    if (type === 'IHDR') {
      width = data.readUInt32BE(0)
      height = data.readUInt32BE(4)
      expect([data[8], data[9]]).toEqual([8, 6]) // 8-bit RGBA
    }
    if (type === 'IDAT') idat.push(data)
    offset += 12 + length
  }
  const raw = inflateSync(Buffer.concat(idat))
  const stride = width * 4
  const out = Buffer.alloc(height * stride)
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]
    for (let x = 0; x < stride; x++) {
      const v = raw[y * (stride + 1) + 1 + x] ?? 0
      const a = x >= 4 ? (out[y * stride + x - 4] ?? 0) : 0
      const b = y > 0 ? (out[(y - 1) * stride + x] ?? 0) : 0
      const c = x >= 4 && y > 0 ? (out[(y - 1) * stride + x - 4] ?? 0) : 0
      const p = a + b - c
      const paeth =
        Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c)
          ? a
          : Math.abs(p - b) <= Math.abs(p - c)
            ? b
            : c
      const predicted = [0, a, b, (a + b) >> 1, paeth][filter ?? 0] ?? 0
      out[y * stride + x] = (v + predicted) & 0xff
    }
  }
  return {
    width,
    height,
    pixel: (x, y) => {
      const i = y * stride + x * 4
      return [out[i] ?? 0, out[i + 1] ?? 0, out[i + 2] ?? 0, out[i + 3] ?? 0]
    },
  }
}

/** Pixels in a box (card px, before PNG_SCALE) that pass `test`. */
function count(
  img: Image,
  box: [number, number, number, number],
  test: (p: [number, number, number, number]) => boolean,
) {
  let n = 0
  for (let y = box[1] * PNG_SCALE; y < box[3] * PNG_SCALE; y++)
    for (let x = box[0] * PNG_SCALE; x < box[2] * PNG_SCALE; x++) if (test(img.pixel(x, y))) n++
  return n
}
const hex = (c: string) => [1, 3, 5].map((i) => Number.parseInt(c.slice(i, i + 2), 16))
const near =
  (c: string, tolerance = 12) =>
  (p: number[]) =>
    hex(c).every((v, i) => Math.abs(v - (p[i] ?? 0)) <= tolerance)
const dark = (p: number[]) => (p[0] ?? 255) < 90 && (p[1] ?? 255) < 90 && (p[2] ?? 255) < 110
// the card's title sits 12px (margin) + 10..36px into the image, from x 28
const TITLE: [number, number, number, number] = [28, 20, 300, 48]

describe('renderReport: png', () => {
  it('draws one PNG per metric, named from the metric, as the dashboard card (title, chart colours)', async () => {
    const files = await renderReport({ title: 'Sales', timezone: 'UTC', items, format: 'png' })
    expect(files.map((f) => [f.filename, f.contentType])).toEqual([
      ['Revenue-by-month.png', 'image/png'],
      ['Orders-and-revenue.png', 'image/png'],
      ['Orders-by-country.png', 'image/png'],
      ['Total-revenue.png', 'image/png'],
      ['Top-customers.png', 'image/png'],
    ])
    const [barPng, linePng, piePng, singlePng, tablePng] = files.map((f) => decodePng(f.content)) as Image[]
    for (const img of [barPng, linePng, piePng, singlePng, tablePng] as Image[]) {
      expect(img.width).toBe((720 + 24) * PNG_SCALE)
      // the title is drawn: text pixels in the title's box
      expect(count(img, TITLE, dark)).toBeGreaterThan(100)
    }
    const [first, second, third] = DEFAULT_CHART_THEME.palette as readonly string[]
    // bars and lines in the web component's palette, the second series in its second colour
    expect(count(barPng as Image, [28, 60, 740, 380], near(first as string))).toBeGreaterThan(2000)
    expect(count(linePng as Image, [28, 60, 740, 380], near(second as string))).toBeGreaterThan(100)
    // a slice in each of the first three colours
    for (const c of [first, second, third])
      expect(count(piePng as Image, [28, 60, 740, 380], near(c as string))).toBeGreaterThan(2000)
    // the value in large dark text, the change pill in the positive green
    expect(count(singlePng as Image, [28, 60, 300, 120], dark)).toBeGreaterThan(1000)
    expect(count(singlePng as Image, [28, 120, 200, 160], near('#059669', 30))).toBeGreaterThan(50)
    // lower is better: a rise is drawn in the negative red
    const [worse] = await renderReport({
      title: 'Sales',
      timezone: 'UTC',
      items: [{ ...single, metric: { ...single.metric, chart: { type: 'single-value', lowerIsBetter: true } } }],
      format: 'png',
    })
    const worsePng = decodePng(worse?.content as Buffer)
    expect(count(worsePng, [28, 120, 200, 160], near('#dc2626', 30))).toBeGreaterThan(50)
    expect(count(worsePng, [28, 120, 200, 160], near('#059669', 30))).toBe(0)
    // a table of 25 rows of the 40 (30px each), and the note under it
    expect((tablePng as Image).height).toBeGreaterThan(26 * 30 * PNG_SCALE)
    expect((tablePng as Image).height).toBeLessThan(28 * 30 * PNG_SCALE + 120 * PNG_SCALE)
  })

  it('names files safely and uniquely', async () => {
    const files = await renderReport({
      title: 'x',
      timezone: 'UTC',
      items: [
        { ...bar, metric: { ...bar.metric, name: 'Revenue / Umsatz (€) — 2024' } },
        { ...bar, metric: { ...bar.metric, name: 'revenue umsatz 2024' } },
        { ...bar, metric: { ...bar.metric, name: '€€€', metricId: 'rev_id' } },
      ],
      format: 'png',
    })
    expect(files.map((f) => f.filename)).toEqual(['Revenue-Umsatz-2024.png', 'revenue-umsatz-2024-2.png', 'rev_id.png'])
    expect(safeName('../../etc/passwd', 'f')).toBe('etc-passwd')
    expect(safeName('Café', 'f')).toBe('Cafe')
    expect(uniqueNames(['a', 'A', 'a'])).toEqual(['a', 'A-2', 'a-3'])
  })
})

describe('the chart is the web component’s option', () => {
  it('draws what the embed’s buildVisual builds: its category labels, tick formatter and pass-through options', () => {
    const m = metric(
      'bar',
      'Revenue by month',
      { type: 'bar', x: 'month', y: ['revenue'], yAxis: { name: 'Turnover' } },
      { formats: { revenue: { style: 'currency', currency: 'EUR' } } },
    )
    const visual = buildVisual(m, monthly, { theme: DEFAULT_CHART_THEME, locale: 'en-US' })
    if (visual.kind !== 'echarts') throw new Error(visual.kind)
    const svg = chartSvg(visual.option, 600, 300)
    const labels = [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((t) => t[1])
    // the months as the embed's formatTime writes them, the ticks by its currency formatter, the chart's own yAxis.name
    expect(labels).toEqual(expect.arrayContaining(['Jan 2024', 'Feb 2024', 'Mar 2024', '€1,500', '€0', 'Turnover']))
    expect(svg).toContain(DEFAULT_CHART_THEME.palette[0])
  })
})

const hasPoppler = spawnSync('pdftotext', ['-v']).status === 0
if (!hasPoppler) {
  if (process.env.CI === 'true') throw new Error('pdftotext (poppler-utils) is missing; CI=true requires it')
  console.warn('\n  ⚠ SKIPPING the PDF text checks: pdftotext (poppler-utils) is not installed\n')
}

describe('renderReport: pdf', () => {
  it('is one PDF of the dashboard: heading, every metric by name, axis labels, the value, the table', async () => {
    const files = await renderReport({
      title: 'Sales overview',
      timezone: 'Europe/Berlin',
      items,
      format: 'pdf',
      now: new Date('2026-01-15T12:00:00Z'),
    })
    expect(files).toHaveLength(1)
    const [pdf] = files
    expect(pdf?.filename).toBe('Sales-overview.pdf')
    expect(pdf?.contentType).toBe('application/pdf')
    const content = pdf?.content as Buffer
    expect(content.subarray(0, 5).toString()).toBe('%PDF-')
    const pages = content.toString('latin1').match(/\/Type \/Page\b(?!s)/g) ?? []
    expect(pages.length).toBeGreaterThanOrEqual(2)
    // a bookmark for each metric
    for (const { metric: m } of items) expect(content.toString('latin1')).toContain(`(${m.name})`)
    if (!hasPoppler) return
    const dir = mkdtempSync(join(tmpdir(), 'strata-report-'))
    const file = join(dir, 'report.pdf')
    writeFileSync(file, content)
    expect(execFileSync('pdfinfo', [file], { encoding: 'utf8' })).toMatch(new RegExp(`Pages:\\s+${pages.length}\\b`))
    const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' })
    for (const words of [
      'Sales overview',
      'Generated Jan 15, 2026, 1:00 PM (Europe/Berlin)',
      'Revenue by month',
      'Orders and revenue',
      'Orders by country',
      'Total revenue',
      'Top customers',
      'Jan 2024',
      '1.35M',
      '▲ 13%',
      'Customer name',
      'Customer 17',
      'Showing the first 18 of 40 rows',
    ])
      expect(text).toContain(words)
    expect(text).not.toContain('Customer 18')
  })

  it('says "No data" for an empty result and reads an unknown time zone as UTC', async () => {
    const [pdf] = await renderReport({
      title: 'Empty',
      timezone: 'Nowhere/Else',
      items: [{ metric: bar.metric, result: result([], [['month', 'date']]) }],
      format: 'pdf',
      now: new Date('2026-01-15T12:00:00Z'),
    })
    if (!hasPoppler) return
    const file = join(mkdtempSync(join(tmpdir(), 'strata-report-')), 'empty.pdf')
    writeFileSync(file, pdf?.content as Buffer)
    const text = execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' })
    expect(text).toContain('No data')
    expect(text).toContain('Generated Jan 15, 2026, 12:00 PM (UTC)')
  })
})

describe('renderReport: the chart types with a shape', () => {
  const funnel = {
    metric: metric('funnel', 'Checkout funnel', { type: 'funnel', x: 'stage', y: ['visitors'] }),
    result: result(
      [
        { stage: 'Visited', visitors: 1000 },
        { stage: 'Added to cart', visitors: 400 },
        { stage: 'Paid', visitors: 150 },
      ],
      [
        ['stage', 'string'],
        ['visitors', 'integer'],
      ],
      ['stage'],
    ),
  }
  const combo = {
    metric: metric('combo', 'Revenue and orders', {
      type: 'combo',
      x: 'month',
      y: ['revenue', 'orders'],
      line: 'orders',
    }),
    result: monthly,
  }
  const scatter = {
    metric: metric('scatter', 'Customers: orders against revenue', {
      type: 'scatter',
      y: ['orders', 'revenue'],
      seriesBy: 'country',
    }),
    result: result(
      [
        { customer: 'Ada', country: 'DE', orders: 4, revenue: 400 },
        { customer: 'Bo', country: 'FR', orders: 9, revenue: 1250 },
        { customer: 'Cy', country: 'DE', orders: 2, revenue: 90 },
      ],
      [
        ['customer', 'string'],
        ['country', 'string'],
        ['orders', 'integer'],
        ['revenue', 'number'],
      ],
      ['customer', 'country'],
    ),
  }
  const pivot = {
    metric: metric(
      'pivot',
      'Orders by country and quarter',
      { type: 'pivot', x: 'country', columns: 'quarter', y: ['orders'] },
      { aggregates: { orders: 'count' }, timeGrains: { quarter: 'quarter' } },
    ),
    result: result(
      [
        { country: 'DE', quarter: '2026-01-01', orders: 11 },
        { country: 'DE', quarter: '2026-04-01', orders: 13 },
        { country: 'FR', quarter: '2026-01-01', orders: 7 },
      ],
      [
        ['country', 'string'],
        ['quarter', 'date'],
        ['orders', 'integer'],
      ],
      ['country', 'quarter'],
    ),
  }
  const trend = {
    metric: metric('trend', 'Monthly revenue', { type: 'trend', x: 'month', y: ['revenue'] }),
    result: monthly,
  }

  it('draws each from the web component’s builders: the PDF reads back their stages, axes, cells, totals and change', async () => {
    const [pdf] = await renderReport({
      title: 'Shapes',
      timezone: 'UTC',
      items: [combo, scatter, funnel, pivot, trend],
      format: 'pdf',
      now: new Date('2026-01-15T12:00:00Z'),
    })
    if (!hasPoppler) return
    const file = join(mkdtempSync(join(tmpdir(), 'strata-report-')), 'shapes.pdf')
    writeFileSync(file, pdf?.content as Buffer)
    const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' })
    const lines = text.split('\n').map((l) => l.trim().replace(/\s+/g, ' '))
    for (const name of ['Revenue and orders', 'Customers: orders against revenue', 'Checkout funnel'])
      expect(lines).toContain(name)
    // combo: revenue's ticks on the left, the orders line's on a second axis at the right, one row each
    expect(lines).toContain('1,500 12')
    // scatter: both measures' names on their axes, the series' legend
    expect(lines).toContain('Orders')
    expect(lines).toContain('DE FR')
    // funnel: the stages in the query's order, each with its share of the first
    expect(lines.filter((l) => /^(Visited|Added to cart|Paid) /.test(l))).toEqual([
      'Visited 1,000',
      'Added to cart 400 (40%)',
      'Paid 150 (15%)',
    ])
    // pivot: quarters across, countries down, totals of counts on both sides
    expect(lines).toContain('Country Q1 2026 Q2 2026 Total')
    expect(lines).toContain('DE 11 13 24')
    expect(lines).toContain('FR 7 7')
    expect(lines).toContain('Total 18 13 31')
    // trend: the latest month's value and its change against the month before
    expect(lines).toContain('1,500')
    expect(lines).toContain('▲ 67% vs Feb 2024')
  })

  it('combo puts the line on a second axis; a pivot of averages has no totals', () => {
    const v = buildVisual(combo.metric, combo.result, { theme: DEFAULT_CHART_THEME })
    if (v.kind !== 'echarts') throw new Error(v.kind)
    expect(v.option.yAxis).toHaveLength(2)
    expect(v.option.series).toMatchObject([
      { name: 'revenue', type: 'bar' },
      { name: 'orders', type: 'line', yAxisIndex: 1 },
    ])
    const averaged = buildVisual({ ...pivot.metric, aggregates: { orders: 'avg' } }, pivot.result, {
      theme: DEFAULT_CHART_THEME,
    })
    if (averaged.kind !== 'pivot') throw new Error(averaged.kind)
    expect(averaged.rows[0]?.totals).toEqual([''])
    expect(averaged.totals.grand).toEqual([''])
    expect(averaged.totals.cells).toEqual(['', ''])
  })
})
