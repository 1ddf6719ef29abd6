import type { DashboardDocument, Metric } from '@strata/contract/document'
import { describe, expect, it } from 'vitest'
import { withBuiltMetric, withoutMetric } from './document-edits.js'

const metric = (metricId: string, extra: Partial<Metric> = {}): Metric => ({
  metricId,
  name: metricId,
  chart: { type: 'single-value' },
  query: { from: 'public.orders', measures: [{ name: 'sum_amount', aggregate: 'sum', column: 'amount' }] },
  ...extra,
})
const doc = (ids: string[], layout: DashboardDocument['layout']): DashboardDocument => ({
  name: 'Sales',
  metrics: ids.map((id) => metric(id)),
  ...(layout ? { layout } : {}),
})

describe('removing a metric from the company’s document', () => {
  it('takes it out of the metrics and the layout; the card below it rises into its place', () => {
    const before = doc(
      ['a', 'b', 'c', 'd'],
      [
        { metricId: 'a', x: 0, y: 0, w: 6, h: 4 },
        { metricId: 'b', x: 6, y: 0, w: 6, h: 4 },
        { metricId: 'c', x: 0, y: 4, w: 6, h: 4 },
        { metricId: 'd', x: 6, y: 4, w: 6, h: 5 },
      ],
    )
    const after = withoutMetric(before, 'a')
    expect(after.metrics.map((m) => m.metricId)).toEqual(['b', 'c', 'd'])
    expect(after.layout).toEqual([
      { metricId: 'c', x: 0, y: 0, w: 6, h: 4 },
      { metricId: 'b', x: 6, y: 0, w: 6, h: 4 },
      { metricId: 'd', x: 6, y: 4, w: 6, h: 5 },
    ])
    expect(after.name).toBe('Sales')
  })

  it('slides the card to its right on its row into its place when nothing is below it', () => {
    const before = doc(
      ['a', 'b', 'c'],
      [
        { metricId: 'a', x: 0, y: 0, w: 4, h: 4 },
        { metricId: 'b', x: 4, y: 0, w: 4, h: 4 },
        { metricId: 'c', x: 8, y: 0, w: 4, h: 4 },
      ],
    )
    expect(withoutMetric(before, 'a').layout).toEqual([
      { metricId: 'b', x: 0, y: 0, w: 4, h: 4 },
      { metricId: 'c', x: 4, y: 0, w: 4, h: 4 },
    ])
  })

  it('moves nothing else and adds nothing: a metric the layout does not place stays unplaced', () => {
    const before = doc(
      ['a', 'b', 'c'],
      [
        { metricId: 'a', x: 0, y: 0, w: 12, h: 4 },
        { metricId: 'b', x: 0, y: 4, w: 4, h: 4 },
      ],
    )
    expect(withoutMetric(before, 'b').layout).toEqual([{ metricId: 'a', x: 0, y: 0, w: 12, h: 4 }])
    expect(withoutMetric(doc(['a', 'b'], undefined), 'a')).toEqual(doc(['b'], undefined))
  })

  it('says when the metric is gone already', () => {
    expect(() => withoutMetric(doc(['a'], []), 'zz')).toThrow(/no metric zz/)
  })
})

describe('a metric from the builder into the company’s document', () => {
  const built = { name: 'Revenue', chart: { type: 'single-value' as const }, query: metric('x').query }
  it('writes its formats and comparison, and keeps what the builder does not edit', () => {
    const before: DashboardDocument = {
      name: 'Sales',
      metrics: [metric('revenue', { description: 'Paid orders', rls: [{ variable: 'region', column: 'region' }] })],
    }
    const formats = { sum_amount: { style: 'currency' as const, currency: 'EUR' } }
    const [after] = withBuiltMetric(before, 'revenue', { ...built, formats }, { period: 'previous-year' }).metrics
    expect(after).toMatchObject({ description: 'Paid orders', formats, comparison: { period: 'previous-year' } })
    expect(after?.rls).toEqual([{ variable: 'region', column: 'region' }])
  })
  it('drops the formats and comparison the builder no longer sets', () => {
    const before: DashboardDocument = {
      name: 'Sales',
      metrics: [
        metric('revenue', { formats: { sum_amount: { style: 'percent' } }, comparison: { period: 'previous-period' } }),
      ],
    }
    const [after] = withBuiltMetric(before, 'revenue', built, undefined).metrics
    expect(after).not.toHaveProperty('formats')
    expect(after).not.toHaveProperty('comparison')
  })
})
