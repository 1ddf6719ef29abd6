import { describe, expect, it } from 'vitest'
import type { RuntimeFilter } from '../src/api/types.js'
import {
  buildDashboardFilter,
  DATE_PRESETS,
  describeFilterValue,
  effectiveFilterValues,
  initialFilterValues,
  isPinned,
  normalizeFilterValue,
  sameFilterValue,
  seenValues,
} from '../src/lib/filters.js'
import { result } from './fixtures.js'

const filters: RuntimeFilter[] = [
  { name: 'country', label: 'Country', type: 'multi-select', table: 'public.customers', column: 'country' },
  {
    name: 'period',
    label: 'Order date',
    type: 'date-range',
    table: 'public.orders',
    column: 'created_at',
    default: 'Last 90 days',
  },
  { name: 'amount', type: 'number-range', table: 'public.orders', column: 'amount' },
  {
    name: 'region',
    type: 'single-select',
    table: 'public.customers',
    column: 'region',
    pinned: 'EMEA',
    isShowOnUrl: true,
  },
  { name: 'paid', type: 'boolean', table: 'public.orders', column: 'paid' },
  { name: 'q', type: 'text', table: 'public.orders', column: 'note', isShowOnUrl: false },
]

describe('normalizeFilterValue', () => {
  it('multi-select: a list of strings, deduplicated', () => {
    expect(normalizeFilterValue('multi-select', ['DE', 'FR', 'DE', 3, true, null, ''])).toEqual([
      'DE',
      'FR',
      '3',
      'true',
    ])
    expect(normalizeFilterValue('multi-select', 'DE')).toEqual(['DE'])
    expect(normalizeFilterValue('multi-select', [])).toBeUndefined()
  })
  it('single-select and text: a non-empty string', () => {
    expect(normalizeFilterValue('single-select', 'EMEA')).toBe('EMEA')
    expect(normalizeFilterValue('single-select', 7)).toBe('7')
    expect(normalizeFilterValue('text', '')).toBeUndefined()
    expect(normalizeFilterValue('text', { a: 1 })).toBeUndefined()
  })
  it('date-range: one of the 16 presets (any case) or a valid { startDate, endDate }', () => {
    expect(DATE_PRESETS).toHaveLength(16)
    expect(normalizeFilterValue('date-range', 'last  30 DAYS')).toBe('Last 30 days')
    expect(normalizeFilterValue('date-range', 'Next week')).toBeUndefined()
    expect(normalizeFilterValue('date-range', { startDate: '2024-01-01', endDate: '2024-01-31' })).toEqual({
      startDate: '2024-01-01',
      endDate: '2024-01-31',
    })
    expect(normalizeFilterValue('date-range', { startDate: '2024-01-01' })).toEqual({ startDate: '2024-01-01' })
    expect(normalizeFilterValue('date-range', { startDate: '2024-02-30' })).toBeUndefined()
    expect(normalizeFilterValue('date-range', { startDate: '2024-02-01', endDate: '2024-01-01' })).toBeUndefined()
    expect(normalizeFilterValue('date-range', {})).toBeUndefined()
  })
  it('number-range: { min, max } numbers, strings parsed, min ≤ max', () => {
    expect(normalizeFilterValue('number-range', { min: '10', max: '' })).toEqual({ min: 10 })
    expect(normalizeFilterValue('number-range', { min: 1, max: 2.5 })).toEqual({ min: 1, max: 2.5 })
    expect(normalizeFilterValue('number-range', { min: 3, max: 2 })).toBeUndefined()
    expect(normalizeFilterValue('number-range', { min: 'x' })).toBeUndefined()
    expect(normalizeFilterValue('number-range', 5)).toBeUndefined()
  })
  it('boolean: true/false, also as text', () => {
    expect(normalizeFilterValue('boolean', true)).toBe(true)
    expect(normalizeFilterValue('boolean', 'false')).toBe(false)
    expect(normalizeFilterValue('boolean', 'yes')).toBeUndefined()
  })
})

describe('sameFilterValue', () => {
  it('compares lists as sets, presets case-insensitively, ranges structurally', () => {
    expect(sameFilterValue(['a', 'b'], ['b', 'a'])).toBe(true)
    expect(sameFilterValue(['a'], ['a', 'b'])).toBe(false)
    expect(sameFilterValue('Last 7 days', 'last 7 days')).toBe(true)
    expect(sameFilterValue({ min: 1 }, { min: 1 })).toBe(true)
    expect(sameFilterValue({ min: 1 }, { min: 1, max: 2 })).toBe(false)
    expect(sameFilterValue(true, undefined)).toBe(false)
  })
})

describe('initialFilterValues', () => {
  it('pinned beats URL beats default', () => {
    const fromUrl = { country: ['DE'], region: 'APAC', period: 'This year' }
    expect(initialFilterValues(filters, fromUrl, true)).toEqual({
      country: ['DE'],
      period: 'This year',
      region: 'EMEA',
    })
  })
  it('ignores the URL when the end user may not filter', () => {
    expect(initialFilterValues(filters, { country: ['DE'] }, false)).toEqual({ period: 'Last 90 days', region: 'EMEA' })
  })
})

describe('buildDashboardFilter', () => {
  it('sends only what the user chose: not pinned values, not defaults', () => {
    const values = {
      country: ['DE', 'FR'],
      period: 'Last 90 days',
      amount: { min: 10 },
      region: 'EMEA',
      paid: false,
      q: 'gift',
    }
    expect(buildDashboardFilter(filters, values, true)).toEqual({
      country: ['DE', 'FR'],
      amount: { min: 10 },
      paid: false,
      q: 'gift',
    })
  })
  it('sends a changed default and a custom date range', () => {
    expect(buildDashboardFilter(filters, { period: { startDate: '2024-01-01', endDate: '2024-03-31' } }, true)).toEqual(
      {
        period: { startDate: '2024-01-01', endDate: '2024-03-31' },
      },
    )
    expect(buildDashboardFilter(filters, { period: 'All time' }, true)).toEqual({ period: 'All time' })
  })
  it('is undefined when there is nothing to send or filtering is read-only', () => {
    expect(buildDashboardFilter(filters, { region: 'EMEA' }, true)).toBeUndefined()
    expect(buildDashboardFilter(filters, { country: ['DE'] }, false)).toBeUndefined()
  })
})

describe('effectiveFilterValues and describeFilterValue', () => {
  it('lists every value in effect', () => {
    expect(effectiveFilterValues(filters, { region: 'EMEA', paid: true })).toEqual({
      period: 'Last 90 days',
      region: 'EMEA',
      paid: true,
    })
  })
  it('describes values for people', () => {
    expect(describeFilterValue('multi-select', undefined)).toBe('Any')
    expect(describeFilterValue('multi-select', ['DE', 'FR', 'IT', 'ES'])).toBe('DE, FR +2')
    expect(describeFilterValue('number-range', { min: 1000, max: 2000 }, 'en-US')).toBe('1,000 – 2,000')
    expect(describeFilterValue('number-range', { max: 5 }, 'en-US')).toBe('≤ 5')
    expect(describeFilterValue('date-range', { startDate: '2024-01-01' })).toBe('From 2024-01-01')
    expect(describeFilterValue('boolean', false)).toBe('No')
  })
})

describe('seenValues', () => {
  it('offers the values of the column named like the filter, sorted', () => {
    const r = result(
      [
        { country: 'FR', revenue: '10' },
        { country: 'DE', revenue: '20' },
        { country: 'FR', revenue: '5' },
        { country: null, revenue: '1' },
      ],
      [
        ['country', 'string'],
        ['revenue', 'number'],
      ],
    )
    expect(seenValues(filters[0]!, [r, undefined])).toEqual(['DE', 'FR'])
    expect(seenValues(filters[4]!, [r])).toEqual([])
  })
})

describe('a filter the token pins without showing its value (locked, no pinned)', () => {
  const locked: RuntimeFilter = { name: 'region', type: 'multi-select', table: 't', column: 'r', locked: true }
  it('is pinned: no value to open with, nothing sent, not settable', () => {
    expect(isPinned(locked)).toBe(true)
    expect(initialFilterValues([locked], { region: ['x'] }, true)).toEqual({})
    expect(buildDashboardFilter([locked], { region: ['x'] }, true)).toBeUndefined()
  })
})
