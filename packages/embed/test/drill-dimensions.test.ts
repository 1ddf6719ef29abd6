import { describe, expect, it } from 'vitest'
import type { RuntimeMetric } from '../src/api/types.js'
import { dimensionsOf, grainOf, pointName, segmentsOf } from '../src/drill/dimensions.js'
import type { DrillLevel } from '../src/drill-state.js'
import type { MetricState } from '../src/embed-controller.js'
import { metric, result } from './fixtures.js'

const state = (m: RuntimeMetric, rows: Record<string, unknown>[], groupBy: string[]): MetricState => ({
  metric: m,
  status: 'ready',
  result: result(rows, [], { groupBy }),
  page: 1,
  resultPage: 1,
  downloading: false,
})

const byMonth = state(
  {
    ...metric({ type: 'bar', x: 'month', y: ['revenue'] }),
    timeGrains: { month: 'month' },
    drillColumns: { month: { table: 'main.orders', column: 'created_at' } },
  },
  [{ month: '2026-03-01', revenue: 10 }],
  ['month'],
)
const scatter = state(
  {
    ...metric({ type: 'scatter', x: 'customer', seriesBy: 'country', y: ['revenue', 'orders'] }),
    drillColumns: {
      customer: { table: 'main.orders', column: 'customer_id' },
      country: { table: 'main.customers', column: 'country' },
    },
  },
  [{ customer: 42, country: 'DE', revenue: 10, orders: 2 }],
  ['customer', 'country'],
)
const march: DrillLevel = {
  dimension: 'month',
  grain: 'day',
  filter: { table: 'main.orders', column: 'created_at', value: { startDate: '2026-03-01', endDate: '2026-03-31' } },
  label: 'March 2026',
}

describe('the dimensions a drill works on', () => {
  it('a category chart drills on its category; a table cell on its column; a scatter point on both of its dimensions', () => {
    const row = byMonth.result?.data[0] ?? {}
    expect(dimensionsOf(byMonth, row, undefined)).toEqual(['month'])
    expect(dimensionsOf(byMonth, row, 'revenue')).toEqual(['month'])
    expect(dimensionsOf(scatter, scatter.result?.data[0] ?? {}, undefined)).toEqual(['customer', 'country'])
  })

  it('a drilled level sets the grain; each segment is a filter on the drill column, a date one a period', () => {
    expect(grainOf(byMonth, [], 'month')).toBe('month')
    expect(grainOf(byMonth, [march], 'month')).toBe('day')
    const [month] = segmentsOf(byMonth, [], byMonth.result?.data[0] ?? {}, ['month'], 'en-US')
    expect(month?.filter).toEqual({
      table: 'main.orders',
      column: 'created_at',
      value: { startDate: '2026-03-01', endDate: '2026-03-31' },
    })
    expect(month?.label).toBe('Month')
    const segments = segmentsOf(scatter, [], scatter.result?.data[0] ?? {}, ['customer', 'country'], 'en-US')
    expect(segments.map((s) => [s.filter.value, s.text])).toEqual([
      [42, '42'],
      ['DE', 'DE'],
    ])
    // a value that is no scalar (an object, a null) makes no segment
    expect(segmentsOf(scatter, [], { customer: null, country: { x: 1 } }, ['customer', 'country'], 'en-US')).toEqual([])
  })

  it('the live region names a scatter point by both dimensions, a bar by its category', () => {
    expect(pointName(scatter, [], 0, 'en-US')).toBe('Customer 42, Country DE')
    expect(pointName(byMonth, [], 0, 'en-US')).toMatch(/Mar/)
  })
})
