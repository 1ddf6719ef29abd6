import { describe, expect, it } from 'vitest'
import type { Metric } from '../../query/document.js'
import { buildModel } from '../../query/model.js'
import type { DataType } from '../../query/types.js'
import { metricFormats } from './column-formats.js'

const col = (name: string, dataType: DataType) => ({ name, dataType, nativeType: '', nullable: false })
const tables = [
  {
    schema: 'public',
    name: 'orders',
    columns: [
      col('id', 'integer'),
      col('customer_id', 'integer'),
      col('amount', 'number'),
      col('unit_price', 'number'),
      col('discount_rate', 'number'),
      col('order_year', 'integer'),
      col('status', 'string'),
    ],
  },
]
const query = (dimensions: object[], measures: object[]): Metric =>
  ({
    metricId: 'm',
    name: 'M',
    chart: { type: 'table' },
    query: { from: 'public.orders', dimensions, measures },
  }) as Metric

describe('metricFormats', () => {
  const plain = buildModel(tables)
  const priced = buildModel(tables, {
    tableList: [
      {
        schemaName: 'public',
        name: 'orders',
        columns: [{ name: 'amount', format: { style: 'currency', currency: 'EUR' } }],
      },
    ],
  })
  const metric = query(
    [
      { name: 'customer', column: 'customer_id' },
      { name: 'year', column: 'order_year' },
      { name: 'status', column: 'status' },
    ],
    [
      { name: 'revenue', aggregate: 'sum', column: 'amount' },
      { name: 'avg_price', aggregate: 'avg', column: 'unit_price' },
      { name: 'discount', aggregate: 'avg', column: 'discount_rate' },
      { name: 'customers', aggregate: 'count-distinct', column: 'customer_id' },
      { name: 'last_id', aggregate: 'max', column: 'id' },
    ],
  )

  it('dimensions by their column, measures by what they aggregate, counts as numbers', () => {
    expect(metricFormats(metric, plain)).toEqual({
      customer: { style: 'id' },
      year: { style: 'text' },
      revenue: { style: 'number' },
      avg_price: { style: 'number' },
      discount: { style: 'percent' },
      customers: { style: 'number' },
      last_id: { style: 'number' },
    })
  })

  it('a currency declared on one column makes the model’s money columns currency; the document’s formats win', () => {
    expect(metricFormats(metric, priced)).toMatchObject({
      revenue: { style: 'currency', currency: 'EUR' },
      avg_price: { style: 'currency', currency: 'EUR' },
      customers: { style: 'number' },
    })
    const declared = { ...metric, formats: { revenue: { style: 'number' as const, decimals: 0 } } }
    expect(metricFormats(declared, priced)?.revenue).toEqual({ style: 'number', decimals: 0 })
  })

  it('a SQL metric, or no model: only what the document declares', () => {
    const sql = { metricId: 's', name: 'S', chart: { type: 'table' }, sql: 'select 1 as id' } as Metric
    expect(metricFormats(sql, plain)).toBeUndefined()
    expect(metricFormats(metric, undefined)).toBeUndefined()
  })
})
