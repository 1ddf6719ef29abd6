import { describe, expect, it } from 'vitest'
import { formatTime, humanise, inferGrain } from '../src/lib/format.js'
import { decimalsFor, formatNumber } from '../src/lib/numbers.js'

describe('formatTime: a time bucket by its grain, in the viewer locale', () => {
  it('months, quarters, years', () => {
    expect(formatTime('2025-12-01', 'month', 'en-US')).toBe('Dec 2025')
    expect(formatTime('2025-12-01T00:00:00.000Z', 'month', 'de-DE')).toBe('Dez. 2025')
    expect(formatTime('2026-01-01', 'quarter', 'en-US')).toBe('Q1 2026')
    expect(formatTime('2025-10-01 00:00:00', 'quarter', 'de-DE')).toBe('Q4 2025')
    expect(formatTime('2026-01-01', 'year', 'en-US')).toBe('2026')
  })
  it('ISO weeks', () => {
    expect(formatTime('2026-01-26', 'week', 'en-US')).toBe('2026-W05')
    // 2024-12-30 is in week 1 of 2025; 2021-01-03 in week 53 of 2020
    expect(formatTime('2024-12-30', 'week', 'en-US')).toBe('2025-W01')
    expect(formatTime('2021-01-03', 'week', 'en-US')).toBe('2020-W53')
  })
  it('days and hours as locale dates, never shifted by the viewer time zone', () => {
    expect(formatTime('2026-03-05', 'day', 'en-US')).toBe('Mar 5, 2026')
    expect(formatTime('2026-03-05', 'day', 'de-DE')).toBe('05.03.2026')
    expect(formatTime('2026-03-05T14:00:00Z', 'hour', 'en-US')).toBe('Mar 5, 2026, 2:00 PM')
  })
  it('leaves what is not a date, and dates without a grain, as they were', () => {
    expect(formatTime('Books', 'month', 'en-US')).toBe('Books')
    expect(formatTime(null, 'month', 'en-US')).toBe('(empty)')
    expect(formatTime('2026-03-05T00:00:00Z', undefined, 'en-US')).toBe('2026-03-05')
  })
  it('infers months or days for a SQL metric from its values', () => {
    expect(inferGrain(['2025-10-01', '2026-01-01T00:00:00.000Z'])).toBe('month')
    expect(inferGrain(['2025-07-01', '2025-10-01', '2026-01-01T00:00:00.000Z'])).toBe('quarter')
    expect(inferGrain(['2024-01-01', '2025-01-01', '2026-01-01'])).toBe('year')
    expect(inferGrain(['2025-07-01', '2025-10-01', '2025-11-01'])).toBe('month')
    expect(inferGrain(['2025-10-01', '2025-10-02'])).toBe('day')
    expect(inferGrain(['2025-10-01T13:00:00Z'])).toBeUndefined()
    expect(inferGrain(['Books'])).toBeUndefined()
    expect(inferGrain([])).toBeUndefined()
  })
})

describe('humanise: table headers from column names', () => {
  it('turns snake_case and camelCase into a sentence', () => {
    expect(humanise('order_count')).toBe('Order count')
    expect(humanise('avgOrderValue')).toBe('Avg order value')
    expect(humanise('revenue')).toBe('Revenue')
    expect(humanise('SKU')).toBe('SKU')
  })
})

describe('decimalsFor: one number of decimals per measure', () => {
  it('the most any value needs, at most 2', () => {
    expect(decimalsFor([147694.7, 151729.23])).toBe(2)
    expect(decimalsFor([10, 12])).toBe(0)
    expect(decimalsFor([1.5, 2])).toBe(1)
    expect(decimalsFor([1 / 3])).toBe(2)
    expect(decimalsFor([1.999])).toBe(0)
    expect(decimalsFor([])).toBe(0)
  })
  it('so a column reads alike in en-US and de-DE', () => {
    const d = decimalsFor([147694.7, 151729.23])
    expect([147694.7, 151729.23].map((v) => formatNumber(v, { locale: 'en-US', decimals: d }))).toEqual([
      '147,694.70',
      '151,729.23',
    ])
    expect(formatNumber(147694.7, { locale: 'de-DE', decimals: d })).toBe('147.694,70')
  })
})
