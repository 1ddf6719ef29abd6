import { describe, expect, it } from 'vitest'
import { columnFormatters } from '../src/charts/build.js'
import { formatMeasure } from '../src/lib/column-format.js'
import { metric, result } from './fixtures.js'

/** Identifier columns read as written (issue 28, item 7): ids, codes and years are not quantities. */
describe('column styles id and text', () => {
  it('formatMeasure draws an id or a year as written, whatever the use', () => {
    for (const use of ['value', 'tick', 'single', 'full'] as const) {
      expect(formatMeasure(48318, use, { style: 'id' }, { locale: 'en-US' })).toBe('48318')
      expect(formatMeasure(2024, use, { style: 'text' }, { locale: 'de-DE' })).toBe('2024')
    }
    expect(formatMeasure(48318, 'value', { style: 'number' }, { locale: 'en-US' })).toBe('48,318')
  })

  it('a table: the load’s formats first; without one, an id column is inferred from its name, a quantity grouped', () => {
    const r = result(
      [{ customer_id: 48318, order_year: 2024, amount: 1234.5, orders: 12000 }],
      [
        ['customer_id', 'integer'],
        ['order_year', 'integer'],
        ['amount', 'number'],
        ['orders', 'integer'],
      ],
    )
    const m = { ...metric({ type: 'table' }), formats: { amount: { style: 'currency' as const, currency: 'EUR' } } }
    const cells = columnFormatters(m, r, ['customer_id', 'order_year', 'amount', 'orders'], 'en-US')
    expect(cells.map((f, i) => f(Object.values(r.data[0]!)[i]))).toEqual(['48318', '2024', '€1,234.50', '12,000'])
    // a declared format wins over the name
    const declared = { ...m, formats: { customer_id: { style: 'number' as const } } }
    expect(columnFormatters(declared, r, ['customer_id'], 'en-US')[0]!(48318)).toBe('48,318')
  })
})
