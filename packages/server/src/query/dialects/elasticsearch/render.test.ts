import type { Metric } from '@strata/contract/document'
import { describe, expect, it } from 'vitest'
import { ctx, metric, model } from '../../../../test/fixtures/query.js'
import { type CompileContext, compileMetric } from '../../compile.js'
import { getDialect } from '../registry.js'
import type { SearchStatement } from './statement.js'

const dialect = getDialect('elasticsearch')
const compile = (m: Metric, context: Partial<CompileContext> = {}) =>
  compileMetric({ metric: m, model: model(), dialect, context: ctx(context) })
const parsed = (sql: string) => JSON.parse(sql) as SearchStatement
const acme = { tenancy: { kind: 'table' as const, clientId: 'acme' } }

describe('elasticsearch dialect: shapes', () => {
  it('measures only: top-level metric aggregations, COUNT(*) from an exactly tracked hits.total', () => {
    const out = compile(
      metric({
        from: 'orders',
        measures: [
          { name: 'n', aggregate: 'count' },
          { name: 'buyers', aggregate: 'count-distinct', column: 'customer_id' },
        ],
      }),
      acme,
    )
    expect(parsed(out.sql)).toEqual({
      index: 'orders',
      body: {
        size: 0,
        track_total_hits: true,
        query: { bool: { filter: [{ term: { client_id: { value: { $param: 0 } } } }] } },
        aggs: { m1: { cardinality: { field: 'customer_id', precision_threshold: 40000 } } },
      },
      plan: {
        shape: 'metrics',
        columns: [
          { name: 'n', from: 'total', fn: 'count' },
          { name: 'buyers', from: 'agg', agg: 'm1', fn: 'count-distinct', field: 'customer_id' },
        ],
      },
    })
    expect(out.params).toEqual(['acme'])
  })

  it('dimensions only: documents with their _source fields and a sort; the paging count is hits.total', () => {
    const out = compile(
      metric({
        from: 'orders',
        dimensions: [
          { name: 'id', column: 'id' },
          { name: 'state', column: 'status' },
        ],
      }),
      { ...acme, page: { limit: 5, offset: 10 } },
    )
    const main = parsed(out.sql)
    expect(main.body).toEqual({
      query: { bool: { filter: [{ term: { client_id: { value: { $param: 0 } } } }] } },
      _source: ['id', 'status'],
      sort: [{ id: { order: 'asc' } }, { status: { order: 'asc' } }],
      track_total_hits: false,
    })
    expect(main.plan).toMatchObject({ shape: 'hits', limit: 5, offset: 10 })
    const count = parsed(out.countSql?.sql as string)
    expect(count.body).toEqual({ query: main.body.query, size: 0, track_total_hits: true })
    expect(count.plan).toEqual({ shape: 'count', of: 'hits', name: 'total', limit: null })
  })

  it('where operators become term, range, terms, exists and wildcard clauses; <> and NOT IN also require the field', () => {
    const out = compile(
      metric({
        from: 'orders',
        measures: [{ name: 'n', aggregate: 'count' }],
        where: [
          { column: 'status', operator: 'neq', values: ['pending'] },
          { column: 'amount', operator: 'between', values: [50, 300] },
          { column: 'status', operator: 'not-in', values: ['refunded'] },
          { column: 'status', operator: 'is-null' },
          { column: 'status', operator: 'contains', values: ['A*'] },
        ],
      }),
    )
    const filter = (parsed(out.sql).body.query as { bool: { filter: unknown[] } }).bool.filter
    expect(filter).toEqual([
      {
        bool: { filter: [{ exists: { field: 'status' } }], must_not: [{ term: { status: { value: { $param: 0 } } } }] },
      },
      {
        bool: {
          filter: [{ range: { amount: { gte: { $param: 1 } } } }, { range: { amount: { lte: { $param: 2 } } } }],
        },
      },
      { bool: { filter: [{ exists: { field: 'status' } }], must_not: [{ terms: { status: [{ $param: 3 }] } }] } },
      { bool: { must_not: [{ exists: { field: 'status' } }] } },
      { wildcard: { status: { value: { $param: 4 }, case_insensitive: true } } },
    ])
    expect(out.params).toEqual(['pending', 50, 300, 'refunded', '*A\\**'])
  })

  it('a converted column: its range carries the zone and the wall-clock format; its grain the zone', () => {
    const out = compile(
      metric({
        from: 'orders',
        measures: [{ name: 'n', aggregate: 'count' }],
        dimensions: [{ name: 'h', column: 'created_at', timeGrain: 'hour' }],
      }),
      {
        timezone: 'Asia/Kolkata',
        filters: [
          {
            table: 'public.orders',
            column: 'created_at',
            value: { startDate: '2024-03-01', endDate: '2024-03-01' },
            source: 'dashboard',
          },
        ],
      },
    )
    const s = parsed(out.sql)
    expect(JSON.stringify(s.body)).toContain(
      '"date_histogram":{"field":"created_at","calendar_interval":"hour","time_zone":{"$param":1}',
    )
    expect(JSON.stringify(s.body)).toContain(
      '{"range":{"created_at":{"gte":{"$param":0},"time_zone":{"$param":1},"format":"yyyy-MM-dd HH:mm:ss||strict_date_optional_time||epoch_millis"}}}',
    )
    expect(out.params).toEqual(['2024-03-01 00:00:00', 'Asia/Kolkata', '2024-03-02 00:00:00'])
  })
})

describe('elasticsearch dialect: what one search request cannot do is a 400 naming it', () => {
  const refused = (fn: () => unknown, what: RegExp) =>
    expect(fn).toThrow(expect.objectContaining({ status: 400, message: expect.stringMatching(what) }))

  it('joins, SQL metrics, custom columns, { sql } lists, a tenancy table', () => {
    refused(
      () =>
        compile(
          metric({
            from: 'orders',
            measures: [{ name: 'n', aggregate: 'count' }],
            dimensions: [{ name: 'c', table: 'customers', column: 'name' }],
          }),
        ),
      /join/,
    )
    refused(
      () => compile(metric(undefined, { sql: 'select count(*) from orders where client_id = {{clientId}}' }), acme),
      /SQL metric|no SQL/,
    )
    refused(
      () =>
        compile(
          metric({ from: 'orders', measures: [{ name: 's', aggregate: 'sum', column: 'amount_with_tax' }] }),
          acme,
        ),
      /custom SQL column/,
    )
    refused(
      () =>
        compile(metric({ from: 'orders', measures: [{ name: 'n', aggregate: 'count' }] }), {
          filters: [
            { table: 'public.orders', column: 'id', value: { sql: 'select 1 as x', columnName: 'x' }, source: 'app' },
          ],
        }),
      /subquery/,
    )
    refused(
      () =>
        compile(metric({ from: 'orders', measures: [{ name: 'n', aggregate: 'count' }] }), {
          tenancy: {
            kind: 'table',
            clientId: 'acme',
            tenancyTable: { table: 'public.tenants', clientNameColumn: 'name', primaryKeyColumn: 'id' },
          },
        }),
      /subquery/,
    )
  })
})
