import { describe, expect, it } from 'vitest'
import { asWritten, inferColumnFormat, nameWords } from './column-formats.js'

describe('nameWords', () => {
  it('splits snake, camel and spaced names', () => {
    expect(nameWords('customer_id')).toEqual(['customer', 'id'])
    expect(nameWords('customerId')).toEqual(['customer', 'id'])
    expect(nameWords('Postal Code')).toEqual(['postal', 'code'])
  })
})

describe('inferColumnFormat', () => {
  it('identifiers and codes are drawn as written, whatever their type', () => {
    for (const name of [
      'id',
      'customer_id',
      'customerId',
      'orderID',
      'zip',
      'postal_code',
      'phone',
      'phone_number',
      'sku',
    ])
      expect(inferColumnFormat(name, 'integer'), name).toEqual({ style: 'id' })
    expect(inferColumnFormat('order_id', 'string')).toEqual({ style: 'id' })
  })

  it('a year is text (2024, never 2,024)', () => {
    expect(inferColumnFormat('year', 'integer')).toEqual({ style: 'text' })
    expect(inferColumnFormat('order_year', 'number')).toEqual({ style: 'text' })
    // a date column named year is a date, not a number
    expect(inferColumnFormat('year', 'date')).toBeUndefined()
  })

  it('money names are currency only when the model declares a currency', () => {
    expect(inferColumnFormat('amount', 'number', 'EUR')).toEqual({ style: 'currency', currency: 'EUR' })
    expect(inferColumnFormat('unit_price', 'number', 'USD')).toEqual({ style: 'currency', currency: 'USD' })
    expect(inferColumnFormat('revenue', 'number', 'USD')).toEqual({ style: 'currency', currency: 'USD' })
    expect(inferColumnFormat('shipping_cost', 'number', 'USD')).toEqual({ style: 'currency', currency: 'USD' })
    expect(inferColumnFormat('amount', 'number')).toEqual({ style: 'number' })
    expect(inferColumnFormat('total_orders', 'integer', 'USD')).toEqual({ style: 'number' })
  })

  it('rates and percentages are percent', () => {
    for (const name of ['refund_rate', 'discount_pct', 'percent', 'conversionRate'])
      expect(inferColumnFormat(name, 'number'), name).toEqual({ style: 'percent' })
  })

  it('other numeric columns are numbers; text, dates and booleans have no format', () => {
    expect(inferColumnFormat('quantity', 'integer')).toEqual({ style: 'number' })
    expect(inferColumnFormat('orders', undefined)).toEqual({ style: 'number' })
    expect(inferColumnFormat('country', 'string')).toBeUndefined()
    expect(inferColumnFormat('created_at', 'datetime')).toBeUndefined()
    expect(inferColumnFormat('refunded', 'boolean')).toBeUndefined()
  })

  it('asWritten: id and text only', () => {
    expect(asWritten({ style: 'id' })).toBe(true)
    expect(asWritten({ style: 'text' })).toBe(true)
    expect(asWritten({ style: 'number' })).toBe(false)
    expect(asWritten(undefined)).toBe(false)
  })
})
