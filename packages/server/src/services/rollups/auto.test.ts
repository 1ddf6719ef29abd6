import type { DashboardDocument } from '@strata/contract/document'
import { describe, expect, it } from 'vitest'
import { buildModel } from '../../query/model.js'
import type { TableInfo } from '../../query/types.js'
import { deriveAutoRollups } from './auto.js'

const column = (name: string, dataType: TableInfo['columns'][number]['dataType']) => ({
  name,
  dataType,
  nativeType: dataType,
  nullable: true,
})
const TABLES: TableInfo[] = [
  {
    schema: 'public',
    name: 'orders',
    columns: [
      column('id', 'integer'),
      column('customer_id', 'integer'),
      column('tenant', 'string'),
      column('status', 'string'),
      column('amount', 'number'),
      column('created_at', 'datetime'),
      column('shipped_at', 'datetime'),
    ],
  },
  {
    schema: 'public',
    name: 'customers',
    columns: [column('id', 'integer'), column('country', 'string'), column('tenant', 'string')],
  },
]
const model = buildModel(TABLES, {
  tableList: [
    { schemaName: 'public', name: 'orders', clientColumn: 'tenant' },
    { schemaName: 'public', name: 'customers', clientColumn: 'tenant' },
  ],
  relationships: [
    { parentTable: 'public.customers', parentColumn: 'id', childTable: 'public.orders', childColumn: 'customer_id' },
  ],
})

const doc = (patch: Partial<DashboardDocument>): DashboardDocument => ({ name: 'd', metrics: [], ...patch })

describe('"rollups": "auto"', () => {
  it('one rollup per table at the finest grain, with what the metrics group and filter by', () => {
    const rollups = deriveAutoRollups(
      doc({
        filters: [
          { name: 'country', type: 'multi-select', table: 'public.customers', column: 'country' },
          { name: 'period', type: 'date-range', table: 'public.orders', column: 'created_at' },
        ],
        metrics: [
          {
            metricId: 'by_month',
            name: 'By month',
            chart: { type: 'line' },
            query: {
              from: 'public.orders',
              measures: [{ name: 'revenue', aggregate: 'sum', column: 'amount' }],
              dimensions: [{ name: 'month', column: 'created_at', timeGrain: 'month' }],
              where: [{ column: 'status', operator: 'in', values: ['paid'] }],
            },
          },
          {
            metricId: 'avg',
            name: 'Average',
            chart: { type: 'single-value' },
            query: {
              from: 'orders',
              measures: [
                { name: 'avg', aggregate: 'avg', column: 'amount' },
                { name: 'n', aggregate: 'count' },
                { name: 'buyers', aggregate: 'count-distinct', column: 'customer_id' },
              ],
            },
            filters: [{ name: 'status', type: 'multi-select', column: 'status' }],
          },
        ],
      }),
      model,
    )
    expect(rollups).toEqual([
      {
        name: 'auto_orders_created_at_day',
        from: 'public.orders',
        time: { column: 'created_at', grain: 'day' },
        dimensions: ['status', 'public.customers.country'],
        measures: [
          { name: 'sum_amount', aggregate: 'sum', column: 'amount' },
          { name: 'avg_amount', aggregate: 'avg', column: 'amount' },
          { name: 'count', aggregate: 'count' },
        ],
      },
    ])
  })

  it('a second time column of a table gets its own rollup; SQL metrics and tables without measures none', () => {
    const rollups = deriveAutoRollups(
      doc({
        metrics: [
          {
            metricId: 'a',
            name: 'A',
            chart: { type: 'line' },
            query: {
              from: 'public.orders',
              measures: [{ name: 'n', aggregate: 'count' }],
              dimensions: [{ name: 'h', column: 'created_at', timeGrain: 'hour' }],
            },
          },
          {
            metricId: 'b',
            name: 'B',
            chart: { type: 'line' },
            query: {
              from: 'public.orders',
              measures: [{ name: 'm', aggregate: 'max', column: 'amount' }],
              dimensions: [{ name: 'w', column: 'shipped_at', timeGrain: 'week' }],
            },
          },
          {
            metricId: 'c',
            name: 'C',
            chart: { type: 'table' },
            query: { from: 'public.customers', dimensions: [{ name: 'c', column: 'country' }] },
          },
          { metricId: 'd', name: 'D', chart: { type: 'table' }, sql: 'select 1' },
        ],
      }),
      model,
    )
    expect(rollups.map((r) => [r.name, r.time, r.measures.map((m) => m.name)])).toEqual([
      ['auto_orders_created_at_hour', { column: 'created_at', grain: 'hour' }, ['count']],
      ['auto_orders_shipped_at_week', { column: 'shipped_at', grain: 'week' }, ['max_amount']],
    ])
  })
})
