import { describe, expect, it } from 'vitest'
import type { ColumnFormat } from '../src/api/types.js'
import { columnDecimals, formatMeasure, sameUnit } from '../src/lib/column-format.js'

const usd: ColumnFormat = { style: 'currency', currency: 'USD' }
const pct: ColumnFormat = { style: 'percent' }
const en = { locale: 'en-US' }

describe('formatMeasure', () => {
  it('without a format reads as before: plain numbers, compact only from a size on', () => {
    expect(formatMeasure(1234.5, 'value', undefined, { ...en, decimals: 2 })).toBe('1,234.50')
    expect(formatMeasure(250_000, 'tick', undefined, en)).toBe('250K')
    expect(formatMeasure(5000, 'tick', undefined, en)).toBe('5,000')
    expect(formatMeasure(1_352_004.2, 'single', undefined, { ...en, decimals: 1 })).toBe('1.35M')
    expect(formatMeasure(99_999.5, 'single', undefined, { ...en, decimals: 1 })).toBe('99,999.5')
    expect(formatMeasure(1_352_004.2, 'full', undefined, { ...en, decimals: 1 })).toBe('1,352,004.2')
  })

  it('currency: its sign and its own minor units, compact where compact', () => {
    expect(formatMeasure(1267.6, 'value', usd, en)).toBe('$1,267.60')
    expect(formatMeasure(1267.6, 'value', usd, { ...en, decimals: 0 })).toBe('$1,267.60') // a column's decimals do not apply
    expect(formatMeasure(22_571_234.56, 'single', usd, en)).toBe('$22.57M')
    expect(formatMeasure(22_571_234.56, 'full', usd, en)).toBe('$22,571,234.56')
    expect(formatMeasure(2_500_000, 'tick', usd, en)).toBe('$2.5M')
    expect(formatMeasure(500, 'tick', usd, en)).toBe('$500')
    expect(formatMeasure(1234, 'value', { style: 'currency', currency: 'JPY' }, en)).toBe('¥1,234')
    expect(formatMeasure(1234.5, 'value', { style: 'currency', currency: 'EUR' }, { locale: 'de-DE' })).toBe(
      '1.234,50\u00a0€',
    )
  })

  it('compact: true always (a full value stays full), false never', () => {
    expect(formatMeasure(950, 'single', { ...usd, compact: true }, en)).toBe('$950')
    expect(formatMeasure(12_345.67, 'value', { ...usd, compact: true }, en)).toBe('$12.3K')
    expect(formatMeasure(12_345.67, 'full', { ...usd, compact: true }, en)).toBe('$12,345.67')
    expect(formatMeasure(1_352_004.2, 'single', { style: 'number', compact: false }, { ...en, decimals: 1 })).toBe(
      '1,352,004.2',
    )
    expect(formatMeasure(250_000, 'tick', { style: 'number', compact: false }, en)).toBe('250,000')
  })

  it('decimals of the format win over the column’s', () => {
    expect(formatMeasure(1267.6, 'value', { ...usd, decimals: 0 }, en)).toBe('$1,268')
    expect(formatMeasure(3, 'value', { style: 'number', decimals: 2 }, { ...en, decimals: 0 })).toBe('3.00')
    expect(formatMeasure(22_571_234.56, 'single', { ...usd, compact: true, decimals: 1 }, en)).toBe('$22.6M')
  })

  it('percent: the value is a fraction', () => {
    expect(formatMeasure(0.25, 'value', pct, en)).toBe('25%')
    expect(formatMeasure(0.1666, 'value', pct, { ...en, decimals: 1 })).toBe('16.7%')
    expect(formatMeasure(0.1666, 'value', { ...pct, decimals: 2 }, en)).toBe('16.66%')
    expect(formatMeasure(0.05, 'tick', pct, en)).toBe('5%')
    expect(formatMeasure(0.125, 'single', pct, en)).toBe('12.5%')
  })

  it('number: grouping in the viewer’s locale', () => {
    expect(formatMeasure(17_804, 'single', { style: 'number' }, { locale: 'de-DE', decimals: 0 })).toBe('17.804')
  })
})

describe('columnDecimals', () => {
  it('one count per column: the most a value needs (a percent of its percentage), a currency its own', () => {
    expect(columnDecimals([1.5, 2.25, null])).toBe(2)
    expect(columnDecimals([0.5, 0.1234], pct)).toBe(1)
    expect(columnDecimals([0.5, 0.25], pct)).toBe(0)
    expect(columnDecimals([1.5], usd)).toBeUndefined()
    expect(columnDecimals([1.5], { ...usd, decimals: 3 })).toBe(3)
  })
})

describe('sameUnit', () => {
  it('compares formats by style and currency', () => {
    expect(sameUnit(usd, { ...usd, decimals: 0 })).toBe(true)
    expect(sameUnit(usd, { style: 'currency', currency: 'EUR' })).toBe(false)
    expect(sameUnit(undefined, { style: 'number' })).toBe(true)
    expect(sameUnit(pct, usd)).toBe(false)
  })
})
