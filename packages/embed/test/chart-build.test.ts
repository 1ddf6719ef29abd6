import { describe, expect, it } from 'vitest'
import type { ChartType } from '../src/api/types.js'
import { resolveAxes } from '../src/charts/axes.js'
import { buildVisual, CHART_TYPES, type Visual } from '../src/charts/build.js'
import { mergeDeep } from '../src/charts/merge.js'
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
    expect(v.option.xAxis).toMatchObject({ type: 'category', data: ['2024-01-01', '2024-02-01', '2024-03-01'] })
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
    expect(v.table.columns).toEqual(['month', 'revenue', 'orders'])
    expect(v.table.rows[0]).toEqual(['2024-01-01', '1,200.5', '10'])
    expect(v.summary).toContain('Line chart: Revenue by month. 3 points by month.')
    expect(v.summary).toContain('revenue from 1,200.5 (2024-01-01) to 900 (2024-02-01)')
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
      radius: ['0%', '76%'],
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
    expect(s).toMatchObject({ type: 'pie', radius: ['42%', '76%'] })
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
  })
  it('a drop is bad news unless lower is better; no comparison, no change', () => {
    const r = result([{ churn: 8 }], [['churn', 'number']], { comparisonValue: '10' })
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
        { name: 'id', numeric: true },
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
