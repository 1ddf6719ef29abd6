import { describe, expect, it } from 'vitest'
import { canonicalDateRange, canonicalFilterValues } from './date-range.js'

describe('canonicalDateRange', () => {
  it('reads { start, end } as { startDate, endDate }, alone, mixed or one-sided', () => {
    expect(canonicalDateRange({ start: '2026-01-01', end: '2026-01-31' }, 'f')).toEqual({
      startDate: '2026-01-01',
      endDate: '2026-01-31',
    })
    expect(canonicalDateRange({ start: '2026-01-01', endDate: '2026-01-31' }, 'f')).toEqual({
      startDate: '2026-01-01',
      endDate: '2026-01-31',
    })
    expect(canonicalDateRange({ end: '2026-01-31' }, 'f')).toEqual({ endDate: '2026-01-31' })
    expect(canonicalDateRange({ start: '2026-01-01', startDate: '2026-01-01' }, 'f')).toEqual({
      startDate: '2026-01-01',
    })
  })

  it('leaves every other value as it is, for the value checks to judge', () => {
    for (const v of [
      'Last 30 days',
      ['a'],
      { startDate: '2026-01-01' },
      { min: 1, max: 2 },
      { start: '2026-01-01', other: 1 },
      { sql: 'select 1', columnName: 'x' },
      null,
    ]) {
      expect(canonicalDateRange(v, 'f')).toBe(v)
    }
  })

  it('refuses both spellings of a bound with different values, naming both', () => {
    expect(() =>
      canonicalDateRange({ start: '2026-01-01', startDate: '2026-01-02' }, 'dashboardFilter.period'),
    ).toThrow(/^dashboardFilter\.period: startDate and start are the same bound with different values/)
    expect(() => canonicalDateRange({ end: '2026-01-01', endDate: null }, 'f')).toThrow(/endDate and end/)
  })

  it('canonicalFilterValues maps each value, naming its key', () => {
    expect(canonicalFilterValues({ a: { start: '2026-01-01' }, b: 'x' }, 'values')).toEqual({
      a: { startDate: '2026-01-01' },
      b: 'x',
    })
    expect(() => canonicalFilterValues({ p: { end: '1', endDate: '2' } }, 'values')).toThrow(/^values\.p: endDate/)
  })
})
