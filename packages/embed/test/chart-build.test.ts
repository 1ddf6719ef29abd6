import { describe, expect, it } from 'vitest'
import type { ChartType } from '../src/api/types.js'
import { resolveAxes } from '../src/charts/axes.js'
import { buildVisual, CHART_TYPES, fitCategoryLabels, type Visual } from '../src/charts/build.js'
import { mergeDeep } from '../src/charts/merge.js'
// registers the builders of the chart types with a shape, as the server and the lazily loaded chunk do
import '../src/chart-options.js'
import { DEFAULT_CHART_THEME } from '../src/lib/theme.js'
import { metric, result } from './fixtures.js'

const theme = { ...DEFAULT_CHART_THEME, palette: ['#111111', '#222222', '#333333'], text: '#000', muted: '#777' }
const ctx = { theme, locale: 'en-US' }
const monthly = result(
  [
    { month: '2024-01-01', revenue: '1200.50', orders: 10 },
    { month: '2024-02-01', revenue: '900', orders: 8 },
    { month: '2024-03-01', revenue: null, orders: 12 },
  ],
  [
    ['month', 'date'],
    ['revenue', 'number'],
    ['orders', 'integer'],
  ],
  { groupBy: ['month'] },
)

type Echarts = Extract<Visual, { kind: 'echarts' }>
type Series = { type: string; name: string; data: unknown[]; stack?: string; areaStyle?: unknown }
const echarts = (v: Visual): Echarts => {
  if (v.kind !== 'echarts') throw new Error(`expected echarts, got ${v.kind}`)
  return v
}
const seriesOf = (v: Visual) => echarts(v).option.series as Series[]

describe('resolveAxes', () => {
  it('uses chart.x and chart.y when the result has them', () => {
    expect(resolveAxes({ type: 'line', x: 'month', y: ['orders'] }, monthly)).toEqual({ x: 'month', y: ['orders'] })
  })
  it('infers x from the group-by and y from the numeric columns otherwise', () => {
    expect(resolveAxes({ type: 'line' }, monthly)).toEqual({ x: 'month', y: ['revenue', 'orders'] })
    expect(resolveAxes({ type: 'bar', x: 'nope', y: ['missing'] }, monthly)).toEqual({
      x: 'month',
      y: ['revenue', 'orders'],
    })
  })
  it('sniffs values when there is no metadata', () => {
    const r = result([{ c: 'DE', v: '3.5' }])
    expect(resolveAxes({ type: 'pie' }, r)).toEqual({ x: 'c', y: ['v'] })
  })
})

describe('buildVisual: axis charts', () => {
  it('line: a category axis of x and a series per y, decimals parsed, gaps kept', () => {
    const v = echarts(buildVisual(metric({ type: 'line', x: 'month', y: ['revenue', 'orders'] }), monthly, ctx))
    // date values on the first of each month read as months
    expect(v.option.xAxis).toMatchObject({ type: 'category', data: ['Jan 2024', 'Feb 2024', 'Mar 2024'] })
    expect(v.option.yAxis).toMatchObject({ type: 'value' })
    expect(v.option.color).toEqual(theme.palette)
    expect(v.option.textStyle).toEqual({ fontFamily: theme.font, color: '#000' })
    expect(seriesOf(v)).toMatchObject([
      { type: 'line', name: 'revenue', data: [1200.5, 900, null] },
      { type: 'line', name: 'orders', data: [10, 8, 12] },
    ])
    expect(seriesOf(v)[0]!.areaStyle).toBeUndefined()
    expect(v.legend).toEqual([
      { name: 'revenue', color: '#111111' },
      { name: 'orders', color: '#222222' },
    ])
    expect(v.table.columns).toEqual(['Month', 'Revenue', 'Orders'])
    expect(v.table.rows[0]).toEqual(['Jan 2024', '1,200.5', '10'])
    expect(v.summary).toContain('Line chart: Revenue by month. 3 points by month.')
    expect(v.summary).toContain('revenue from 1,200.5 (Jan 2024) to 900 (Feb 2024)')
  })
  it('area: a line with an area style', () => {
    const s = seriesOf(buildVisual(metric({ type: 'area', x: 'month', y: ['revenue'] }), monthly, ctx))
    expect(s[0]).toMatchObject({ type: 'line', areaStyle: { opacity: 0.18 } })
  })
  it('bar and stacked-bar', () => {
    const bar = seriesOf(buildVisual(metric({ type: 'bar', x: 'month', y: ['revenue', 'orders'] }), monthly, ctx))
    expect(bar.map((s) => [s.type, s.stack])).toEqual([
      ['bar', undefined],
      ['bar', undefined],
    ])
    const stacked = seriesOf(
      buildVisual(metric({ type: 'stacked-bar', x: 'month', y: ['revenue', 'orders'] }), monthly, ctx),
    )
    expect(stacked.map((s) => [s.type, s.stack])).toEqual([
      ['bar', 'total'],
      ['bar', 'total'],
    ])
  })
  it('horizontal bars swap the axes', () => {
    const v = echarts(buildVisual(metric({ type: 'bar', x: 'month', y: ['orders'], horizontal: true }), monthly, ctx))
    expect(v.option.yAxis).toMatchObject({ type: 'category', inverse: true })
    expect(v.option.xAxis).toMatchObject({ type: 'value' })
    expect(v.option).not.toHaveProperty('horizontal')
  })
  it('single series: no legend', () => {
    expect(echarts(buildVisual(metric({ type: 'line', x: 'month', y: ['orders'] }), monthly, ctx)).legend).toEqual([])
  })
  it('other chart keys pass through into the option, merged deeply', () => {
    const v = echarts(
      buildVisual(
        metric({ type: 'line', x: 'month', y: ['orders'], smooth: true, yAxis: { min: 0 }, grid: { top: 40 } }),
        monthly,
        ctx,
      ),
    )
    expect(v.option.yAxis).toMatchObject({ type: 'value', min: 0 })
    expect(v.option.grid).toMatchObject({ top: 40, left: 8, outerBoundsMode: 'same' })
    expect(seriesOf(v)[0]).toMatchObject({ smooth: true })
    expect(v.option).not.toHaveProperty('smooth')
    expect(v.option).not.toHaveProperty('type')
  })
  it('formats value-axis labels compactly', () => {
    const v = echarts(buildVisual(metric({ type: 'bar', x: 'month', y: ['orders'] }), monthly, ctx))
    const formatter = (v.option.yAxis as { axisLabel: { formatter: (n: number) => string } }).axisLabel.formatter
    expect(formatter(25000)).toBe('25K')
    expect(formatter(12.5)).toBe('12.5')
  })
})

describe('buildVisual: pie and doughnut', () => {
  const byCountry = result(
    [
      { country: 'DE', revenue: '300' },
      { country: 'FR', revenue: '100' },
      { country: 'IT', revenue: 'n/a' },
    ],
    [
      ['country', 'string'],
      ['revenue', 'number'],
    ],
  )
  it('pie: one slice per row of the first measure, non-numbers dropped', () => {
    const v = echarts(buildVisual(metric({ type: 'pie', x: 'country', y: ['revenue'] }, 'Revenue'), byCountry, ctx))
    const [s] = seriesOf(v)
    expect(s).toMatchObject({
      type: 'pie',
      radius: ['0%', '78%'],
      data: [
        { name: 'DE', value: 300 },
        { name: 'FR', value: 100 },
      ],
    })
    expect(v.legend.map((l) => l.name)).toEqual(['DE', 'FR'])
    expect(v.summary).toBe('Pie chart: Revenue. 2 slices of revenue. Largest: DE 75.0% (300), FR 25.0% (100).')
  })
  it('doughnut: a ring', () => {
    const [s] = seriesOf(buildVisual(metric({ type: 'doughnut', x: 'country', y: ['revenue'] }), byCountry, ctx))
    expect(s).toMatchObject({ type: 'pie', radius: ['40%', '78%'] })
  })
  it('labels each slice share on the slice, never truncated, with a halo that reads past the edge', () => {
    const [s] = seriesOf(buildVisual(metric({ type: 'doughnut', x: 'country', y: ['revenue'] }), byCountry, ctx))
    expect(s).toMatchObject({
      label: { position: 'inside', formatter: '{d}%', overflow: 'none', color: theme.text, textBorderWidth: 3 },
    })
  })
})

describe('buildVisual: single-value', () => {
  it('shows the number with its change against comparisonValue', () => {
    const r = result([{ revenue: '1250' }], [['revenue', 'number']], { comparisonValue: 1000 })
    const v = buildVisual(metric({ type: 'single-value', y: ['revenue'], prefix: '$' }, 'Revenue'), r, ctx)
    expect(v).toMatchObject({
      kind: 'single-value',
      value: 1250,
      text: '$1,250',
      change: 25,
      changeText: '▲ 25%',
      tone: 'good',
    })
    expect(v.summary).toBe('Revenue: $1,250, up 25.0% compared with the previous period')
    expect(v).toMatchObject({ lastYear: false })
  })
  it('says when the comparison is with the same period a year before', () => {
    const r = result([{ revenue: '900' }], [['revenue', 'number']], { comparisonValue: 1000 })
    const m = {
      ...metric({ type: 'single-value', y: ['revenue'] }, 'Revenue'),
      comparison: { period: 'previous-year' as const },
    }
    const v = buildVisual(m, r, ctx)
    expect(v).toMatchObject({ kind: 'single-value', lastYear: true, changeText: '▼ 10%' })
    expect(v.summary).toBe('Revenue: 900, down 10.0% compared with the same period a year before')
  })
  it('a drop is bad news unless lower is better; no comparison, no change', () => {
    const r = result([{ churn: 8 }], [['churn', 'number']], { comparisonValue: 10 })
    expect(buildVisual(metric({ type: 'single-value' }), r, ctx)).toMatchObject({ changeText: '▼ 20%', tone: 'bad' })
    expect(buildVisual(metric({ type: 'single-value', lowerIsBetter: true }), r, ctx)).toMatchObject({ tone: 'good' })
    const plain = buildVisual(metric({ type: 'single-value' }), result([{ n: 3 }], [['n', 'integer']]), ctx)
    expect(plain).toMatchObject({ text: '3', change: null, changeText: null, tone: null })
    const zero = buildVisual(metric({ type: 'single-value' }), result([{ n: 3 }], [], { comparisonValue: 0 }), ctx)
    expect(zero).toMatchObject({ change: null })
  })
  it('shows a non-numeric value as text', () => {
    const r = result([{ top: 'Berlin' }], [['top', 'string']])
    expect(buildVisual(metric({ type: 'single-value' }), r, ctx)).toMatchObject({ text: 'Berlin', value: null })
  })
})

describe('buildVisual: table', () => {
  it('formats cells by type and pages by 100', () => {
    const r = result(
      [{ id: 1, name: 'Ada', amount: '1234.5', paid: true }],
      [
        ['id', 'integer'],
        ['name', 'string'],
        ['amount', 'number'],
        ['paid', 'boolean'],
      ],
      { totalRecords: 250 },
    )
    const v = buildVisual(metric({ type: 'table' }, 'Orders'), r, { ...ctx, page: 3 })
    expect(v).toMatchObject({
      kind: 'table',
      columns: [
        // an id is written as is and aligned as text (the column-formats rule), a quantity to the right
        { name: 'id', numeric: false },
        { name: 'name', numeric: false },
        { name: 'amount', numeric: true },
        { name: 'paid', numeric: false },
      ],
      rows: [['1', 'Ada', '1,234.5', 'true']],
      page: 3,
      pageCount: 3,
      totalRecords: 250,
    })
    expect(v.summary).toBe('Orders: table of 250 rows and 4 columns')
  })
})

describe('buildVisual: every type', () => {
  it('says "no data" for an empty result', () => {
    for (const type of CHART_TYPES) {
      expect(buildVisual(metric({ type }), result([], [['x', 'string']]), ctx).kind).toBe('empty')
    }
  })
  it('draws every type from the same result', () => {
    const kinds = Object.fromEntries(
      CHART_TYPES.map((type: ChartType) => [
        type,
        buildVisual(metric({ type, x: 'month', y: ['revenue'] }), monthly, ctx).kind,
      ]),
    )
    expect(kinds).toEqual({
      line: 'echarts',
      bar: 'echarts',
      'stacked-bar': 'echarts',
      area: 'echarts',
      pie: 'echarts',
      doughnut: 'echarts',
      table: 'table',
      'single-value': 'single-value',
      combo: 'echarts',
      funnel: 'echarts',
      trend: 'trend',
      // a result that does not fit (one measure, one dimension) shows as a table
      scatter: 'table',
      pivot: 'table',
    })
  })
  it('falls back to a table for an unknown type', () => {
    const v = buildVisual(metric({ type: 'radar' as ChartType }), monthly, ctx)
    expect(v.kind).toBe('table')
  })
})

describe('mergeDeep', () => {
  it('merges objects, replaces the rest, ignores prototype keys', () => {
    const extra = JSON.parse('{"a":{"b":2},"c":[1],"__proto__":{"polluted":true}}')
    const out = mergeDeep({ a: { a: 1 }, c: [0, 0] }, extra)
    expect(out).toEqual({ a: { a: 1, b: 2 }, c: [1] })
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })
})

describe('time axes by grain', () => {
  const quarters = result(
    [
      { quarter: '2025-10-01T00:00:00.000Z', web: 3 },
      { quarter: '2026-01-01T00:00:00.000Z', web: 4 },
    ],
    [
      ['quarter', 'date'],
      ['web', 'integer'],
    ],
  )
  it("uses the metric's timeGrains from the runtime load, in the viewer's locale", () => {
    const m = { ...metric({ type: 'bar', x: 'quarter', y: ['web'] }), timeGrains: { quarter: 'quarter' } }
    expect(echarts(buildVisual(m, quarters, ctx)).option.xAxis).toMatchObject({ data: ['Q4 2025', 'Q1 2026'] })
    const months = { ...m, timeGrains: { quarter: 'month' } }
    expect(echarts(buildVisual(months, quarters, { ...ctx, locale: 'de-DE' })).option.xAxis).toMatchObject({
      data: ['Okt. 2025', 'Jan. 2026'],
    })
    const weeks = { ...m, timeGrains: { quarter: 'week' } }
    expect(echarts(buildVisual(weeks, quarters, ctx)).option.xAxis).toMatchObject({ data: ['2025-W40', '2026-W01'] })
  })
  it("keeps a long line's first and last date labels inside the plot (aligned inward, not centred on the edge)", () => {
    const days = result(
      Array.from({ length: 60 }, (_, i) => ({ day: new Date(Date.UTC(2026, 0, 1 + i)).toISOString(), web: i })),
      [
        ['day', 'date'],
        ['web', 'integer'],
      ],
    )
    const line = { ...metric({ type: 'line', x: 'day', y: ['web'] }), timeGrains: { day: 'day' } }
    expect(echarts(buildVisual(line, days, ctx)).option.xAxis).toMatchObject({
      axisLabel: { hideOverlap: true, alignMinLabel: 'left', alignMaxLabel: 'right' },
    })
    // bars sit in bands: their labels stay centred under them
    const bars = { ...metric({ type: 'bar', x: 'day', y: ['web'] }), timeGrains: { day: 'day' } }
    const barLabel = (echarts(buildVisual(bars, days, ctx)).option.xAxis as { axisLabel: object }).axisLabel
    expect(barLabel).not.toHaveProperty('alignMaxLabel')
  })
  it('formats time columns of tables by grain too', () => {
    const m = { ...metric({ type: 'table' }), timeGrains: { quarter: 'quarter' } }
    expect(buildVisual(m, quarters, ctx)).toMatchObject({
      rows: [
        ['Q4 2025', '3'],
        ['Q1 2026', '4'],
      ],
    })
  })
})

describe('category labels: every category labelled, never dropped', () => {
  const cats = ['Electronics', 'Home & Garden', 'Sports and outdoors', 'Books']
  const r = result(
    cats.map((c, i) => ({ category: c, revenue: 1000 * (i + 1) })),
    [
      ['category', 'string'],
      ['revenue', 'number'],
    ],
  )
  const bar = echarts(buildVisual(metric({ type: 'bar', x: 'category', y: ['revenue'] }), r, ctx))
  type Axis = { data: string[]; axisLabel: { interval: number; rotate?: number; width?: number; overflow?: string } }
  it('shows every label (interval 0, no overlap hiding)', () => {
    expect((bar.option.xAxis as Axis).axisLabel).toMatchObject({ interval: 0, hideOverlap: false })
    expect((bar.option.xAxis as Axis).data).toEqual(cats)
  })
  it('on one line when wide, wrapped when the words fit, rotated and truncated when not', () => {
    const wide = fitCategoryLabels(bar.option, 1200).xAxis as Axis
    expect(wide.axisLabel).toMatchObject({ interval: 0, rotate: 0, overflow: 'truncate' })
    const mid = fitCategoryLabels(bar.option, 560).xAxis as Axis
    expect(mid.axisLabel).toMatchObject({ interval: 0, rotate: 0, overflow: 'break' })
    const narrow = fitCategoryLabels(bar.option, 300).xAxis as Axis
    // a long time axis keeps ECharts' own tick spacing; a category axis never skips
    const days = result(
      Array.from({ length: 60 }, (_, i) => ({ d: `2026-01-${String((i % 28) + 1).padStart(2, '0')}`, n: i })),
      [
        ['d', 'date'],
        ['n', 'integer'],
      ],
    )
    const daily = echarts(buildVisual(metric({ type: 'line', x: 'd', y: ['n'] }), days, ctx))
    expect((daily.option.xAxis as Axis).axisLabel.interval).toBeUndefined()
    expect(narrow.axisLabel).toMatchObject({ interval: 0, rotate: 40, overflow: 'truncate' })
    expect(narrow.axisLabel.width).toBeGreaterThanOrEqual(48)
    expect(narrow.data).toEqual(cats)
    // crowded slots: labels upright rather than overlapping
    expect((fitCategoryLabels(bar.option, 150).xAxis as Axis).axisLabel).toMatchObject({ interval: 0, rotate: 90 })
  })
  it('horizontal bars: labels on the y axis, truncated to a share of the width', () => {
    const h = echarts(buildVisual(metric({ type: 'bar', x: 'category', y: ['revenue'], horizontal: true }), r, ctx))
    const y = fitCategoryLabels(h.option, 400).yAxis as Axis
    expect(y.axisLabel).toMatchObject({ interval: 0, width: 120, overflow: 'truncate' })
  })
})

describe('numbers that fit and agree', () => {
  it('single value: compact from 100,000 with the full value kept for the hover title', () => {
    const r = result([{ revenue: '1352004.2' }], [['revenue', 'number']])
    const v = buildVisual(metric({ type: 'single-value', prefix: '$' }), r, ctx)
    expect(v).toMatchObject({ text: '$1.35M', fullText: '$1,352,004.2' })
    expect(v.summary).toContain('$1,352,004.2')
    const de = buildVisual(metric({ type: 'single-value' }), r, { ...ctx, locale: 'de-DE' })
    expect(de).toMatchObject({ text: '1,35\u00a0Mio.', fullText: '1.352.004,2' })
  })
  it('one number of decimals per measure, in tables and tooltips alike', () => {
    const r = result(
      [
        { customer: 'Ada', order_count: 3, revenue: 147694.7 },
        { customer: 'Bo', order_count: 12, revenue: '151729.23' },
      ],
      [
        ['customer', 'string'],
        ['order_count', 'integer'],
        ['revenue', 'number'],
      ],
    )
    const t = buildVisual(metric({ type: 'table' }), r, ctx)
    expect(t).toMatchObject({
      columns: [
        { name: 'customer', label: 'Customer' },
        { name: 'order_count', label: 'Order count' },
        { name: 'revenue', label: 'Revenue' },
      ],
      rows: [
        ['Ada', '3', '147,694.70'],
        ['Bo', '12', '151,729.23'],
      ],
    })
    const b = echarts(
      buildVisual(metric({ type: 'bar', x: 'customer', y: ['revenue'] }), r, { ...ctx, locale: 'de-DE' }),
    )
    const f = (b.option.series as { tooltip: { valueFormatter: (v: number) => string } }[])[0]!.tooltip.valueFormatter
    expect([f(147694.7), f(151729.23)]).toEqual(['147.694,70', '151.729,23'])
    const pie = echarts(buildVisual(metric({ type: 'pie', x: 'customer', y: ['revenue'] }), r, ctx))
    const g = (pie.option.series as { tooltip: { valueFormatter: (v: number) => string } }[])[0]!.tooltip.valueFormatter
    expect(g(147694.7)).toBe('147,694.70')
  })
})

describe('the document’s number formats', () => {
  const formats = {
    revenue: { style: 'currency', currency: 'USD' },
    refund_rate: { style: 'percent', decimals: 1 },
  } as const
  const withFormats = (chart: Parameters<typeof metric>[0]) => ({ ...metric(chart), formats })
  const r = result(
    [
      { customer: 'Ada', revenue: 1_250_000.5, refund_rate: 0.125 },
      { customer: 'Bo', revenue: '2500', refund_rate: 0.08 },
    ],
    [
      ['customer', 'string'],
      ['revenue', 'number'],
      ['refund_rate', 'number'],
    ],
  )
  type Tip = { tooltip: { valueFormatter: (v: number) => string } }

  it('single values: the currency, compact on the card, in full on hover and in the summary', () => {
    const v = buildVisual(withFormats({ type: 'single-value', y: ['revenue'] }), r, ctx)
    expect(v).toMatchObject({ text: '$1.25M', fullText: '$1,250,000.50' })
    expect(v.summary).toContain('$1,250,000.50')
    const p = buildVisual(withFormats({ type: 'single-value', y: ['refund_rate'] }), r, ctx)
    expect(p).toMatchObject({ text: '12.5%', fullText: '12.5%' })
  })

  it('axis ticks, tooltips and the summary of an axis chart', () => {
    const b = echarts(buildVisual(withFormats({ type: 'bar', x: 'customer', y: ['revenue'] }), r, ctx))
    const tick = (b.option.yAxis as { axisLabel: { formatter: (n: number) => string } }).axisLabel.formatter
    expect([tick(0), tick(500), tick(1_500_000)]).toEqual(['$0', '$500', '$1.5M'])
    const tip = (b.option.series as Tip[])[0]!.tooltip.valueFormatter
    expect(tip(2500)).toBe('$2,500.00')
    expect(b.summary).toContain('$1,250,000.50')
    const pct = echarts(buildVisual(withFormats({ type: 'line', x: 'customer', y: ['refund_rate'] }), r, ctx))
    const pctTick = (pct.option.yAxis as { axisLabel: { formatter: (n: number) => string } }).axisLabel.formatter
    expect(pctTick(0.05)).toBe('5%')
    expect(b.table.rows[1]).toEqual(['Bo', '$2,500.00'])
  })

  it('an axis shared by measures of different units shows plain numbers', () => {
    const b = echarts(buildVisual(withFormats({ type: 'bar', x: 'customer', y: ['revenue', 'refund_rate'] }), r, ctx))
    const tick = (b.option.yAxis as { axisLabel: { formatter: (n: number) => string } }).axisLabel.formatter
    expect(tick(500)).toBe('500')
    const tips = (b.option.series as Tip[]).map((s) => s.tooltip.valueFormatter)
    expect([tips[0]!(500), tips[1]!(0.5)]).toEqual(['$500.00', '50.0%'])
  })

  it('table cells and pie tooltips', () => {
    expect(buildVisual(withFormats({ type: 'table' }), r, ctx)).toMatchObject({
      rows: [
        ['Ada', '$1,250,000.50', '12.5%'],
        ['Bo', '$2,500.00', '8.0%'],
      ],
    })
    const pie = echarts(buildVisual(withFormats({ type: 'pie', x: 'customer', y: ['revenue'] }), r, ctx))
    expect((pie.option.series as Tip[])[0]!.tooltip.valueFormatter(2500)).toBe('$2,500.00')
    expect(pie.summary).toContain('($1,250,000.50)')
  })
})
