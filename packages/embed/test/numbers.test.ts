import { describe, expect, it } from 'vitest'
import { formatCell, formatTemporal, labelOf } from '../src/lib/format.js'
import { formatChange, formatNumber, percentChange, toNumber } from '../src/lib/numbers.js'

describe('toNumber', () => {
  it('takes JSON numbers and decimal strings', () => {
    expect(toNumber(12)).toBe(12)
    expect(toNumber('12.50')).toBe(12.5)
    expect(toNumber(' -3 ')).toBe(-3)
    expect(toNumber('1e3')).toBe(1000)
    expect(toNumber('.5')).toBe(0.5)
    expect(toNumber('12345678901234567890')).toBe(12345678901234567000)
  })
  it('refuses what is not a number', () => {
    for (const v of [
      '',
      'abc',
      '12abc',
      '1,5',
      'NaN',
      'Infinity',
      null,
      undefined,
      true,
      {},
      [],
      Number.NaN,
      Infinity,
    ]) {
      expect(toNumber(v)).toBeNull()
    }
  })
})

describe('percentChange and formatChange', () => {
  it('is relative to the comparison, with a sign-safe denominator', () => {
    expect(percentChange(120, 100)).toBeCloseTo(20)
    expect(percentChange(80, 100)).toBeCloseTo(-20)
    expect(percentChange(-50, -100)).toBeCloseTo(50)
    expect(percentChange(10, 0)).toBeNull()
    expect(percentChange(null, 10)).toBeNull()
    expect(percentChange(10, null)).toBeNull()
  })
  it('shows ▲/▼', () => {
    expect(formatChange(12.34, 'en-US')).toBe('▲ 12%')
    expect(formatChange(-4.56, 'en-US')).toBe('▼ 4.6%')
    expect(formatChange(0, 'en-US')).toBe('0.0%')
  })
})

describe('formatting', () => {
  it('formats numbers by locale, compact when asked', () => {
    expect(formatNumber(1234.567, { locale: 'en-US' })).toBe('1,234.57')
    expect(formatNumber(1234.5, { locale: 'de-DE' })).toBe('1.234,5')
    expect(formatNumber(1500000, { locale: 'en-US', compact: true })).toBe('1.5M')
    expect(formatNumber(3, { locale: 'en-US', decimals: 2 })).toBe('3.00')
    expect(formatNumber(3, { locale: 'not a locale!!' })).toBe('3')
  })
  it('formats cells by data type', () => {
    expect(formatCell('1234.5', 'number', 'en-US')).toBe('1,234.5')
    expect(formatCell(7, 'integer', 'en-US')).toBe('7')
    expect(formatCell(null, 'string')).toBe('')
    expect(formatCell(true, 'boolean')).toBe('true')
    expect(formatCell({ a: 1 }, 'json')).toBe('{"a":1}')
    expect(formatCell('2024-03-01T00:00:00.000Z', 'datetime')).toBe('2024-03-01')
    expect(formatCell('2024-03-01T13:45:00Z', 'datetime')).toBe('2024-03-01 13:45')
    expect(formatCell('007', 'string')).toBe('007')
  })
  it('labels categories', () => {
    expect(formatTemporal('2024-01-01 00:00:00')).toBe('2024-01-01')
    expect(labelOf(null)).toBe('(empty)')
    expect(labelOf(2024)).toBe('2024')
  })
})
