import { describe, expect, it } from 'vitest'
import type { RuntimeFilter } from '../src/api/types.js'
import { decodeUrlValue, encodeUrlValue, readUrlValues, writeUrlValues } from '../src/lib/url-state.js'

const filters: RuntimeFilter[] = [
  { name: 'country', type: 'multi-select', table: 't', column: 'country' },
  { name: 'period', type: 'date-range', table: 't', column: 'd', default: 'Last 90 days' },
  { name: 'amount', type: 'number-range', table: 't', column: 'a' },
  { name: 'paid', type: 'boolean', table: 't', column: 'p' },
  { name: 'q', type: 'text', table: 't', column: 'n' },
  { name: 'hidden', type: 'text', table: 't', column: 'h', isShowOnUrl: false },
  { name: 'tenant', type: 'single-select', table: 't', column: 'c', pinned: 'acme', isShowOnUrl: true },
  { name: 'secret', type: 'single-select', table: 't', column: 's', pinned: 'x', isShowOnUrl: false },
]

describe('encode/decode', () => {
  it('writes strings plainly and the rest as JSON', () => {
    expect(encodeUrlValue('Last 7 days')).toBe('Last 7 days')
    expect(encodeUrlValue(['DE', 'FR'])).toBe('["DE","FR"]')
    expect(encodeUrlValue({ min: 1 })).toBe('{"min":1}')
    expect(encodeUrlValue(true)).toBe('true')
  })
  it('round-trips every type', () => {
    const cases = [
      ['multi-select', ['DE', 'A, B', '"quoted"']],
      ['date-range', 'This quarter'],
      ['date-range', { startDate: '2024-01-01', endDate: '2024-02-01' }],
      ['number-range', { min: -1.5, max: 10 }],
      ['boolean', false],
      ['text', '[not json'],
      ['text', 'true'],
      ['single-select', '{x}'],
    ] as const
    for (const [type, value] of cases) expect(decodeUrlValue(type, encodeUrlValue(value))).toEqual(value)
  })
  it('accepts hand-written params and refuses bad ones', () => {
    expect(decodeUrlValue('multi-select', 'DE')).toEqual(['DE'])
    expect(decodeUrlValue('date-range', 'last 7 days')).toBe('Last 7 days')
    expect(decodeUrlValue('date-range', 'someday')).toBeUndefined()
    expect(decodeUrlValue('number-range', '{"min":"x"}')).toBeUndefined()
    expect(decodeUrlValue('boolean', 'maybe')).toBeUndefined()
    expect(decodeUrlValue('single-select', '"quoted"')).toBe('quoted')
  })
})

describe('readUrlValues', () => {
  it('reads the filters shown on the URL, skipping pinned, hidden and invalid ones', () => {
    const search =
      '?token=abc&country=%5B%22DE%22%5D&period=Last+7+days&amount=oops&paid=true&hidden=x&tenant=other&q=gift'
    expect(readUrlValues(filters, search)).toEqual({
      country: ['DE'],
      period: 'Last 7 days',
      paid: true,
      q: 'gift',
    })
  })
})

describe('writeUrlValues', () => {
  it('writes set values, removes cleared and default ones, keeps unrelated params', () => {
    const search = '?token=abc&country=%5B%22FR%22%5D&q=old&period=This+year'
    const next = writeUrlValues(search, filters, {
      country: ['DE', 'IT'],
      period: 'Last 90 days',
      amount: { min: 5 },
      hidden: 'never',
      tenant: 'acme',
    })
    const params = new URLSearchParams(next)
    expect(params.get('token')).toBe('abc')
    expect(params.get('country')).toBe('["DE","IT"]')
    expect(params.get('amount')).toBe('{"min":5}')
    expect(params.has('period')).toBe(false)
    expect(params.has('q')).toBe(false)
    expect(params.has('hidden')).toBe(false)
    expect(params.get('tenant')).toBe('acme')
    expect(params.has('secret')).toBe(false)
  })
  it('gives an empty search when nothing is left', () => {
    expect(writeUrlValues('?q=x', filters.slice(4, 5), {})).toBe('')
  })
  it('round-trips through read', () => {
    const values = { country: ['DE'], amount: { max: 3 }, paid: false, q: 'a&b=c' }
    expect(readUrlValues(filters, writeUrlValues('', filters, values))).toEqual(values)
  })
})
