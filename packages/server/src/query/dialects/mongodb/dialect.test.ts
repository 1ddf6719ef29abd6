import type { Metric } from '@strata/contract/document'
import { describe, expect, it } from 'vitest'
import { ctx, metric, model } from '../../../../test/fixtures/query.js'
import { compileMetric } from '../../compile.js'
import { buildModel } from '../../model.js'
import { getDialect } from '../registry.js'

const dialect = getDialect('mongodb')
const count = [{ name: 'n', aggregate: 'count' as const }]
const compile = (m: Metric, over: Parameters<typeof ctx>[0] = {}) =>
  compileMetric({ metric: m, model: model(), dialect, context: ctx(over) })
const pipeline = (sql: string) => (JSON.parse(sql) as { pipeline: unknown[] }).pipeline

describe('mongodb dialect: what a pipeline cannot say is a 400 naming it', () => {
  it.each([
    ['a SQL metric', metric(undefined, { sql: 'select 1 from orders where c = {{clientId}}' }), {}],
    [
      'a custom SQL column',
      metric({ from: 'orders', measures: [{ name: 'x', aggregate: 'sum', column: 'amount_with_tax' }] }),
      {},
    ],
    [
      'a SQL-driven list',
      metric({ from: 'orders', measures: count }),
      {
        filters: [
          {
            table: 'public.orders',
            column: 'status',
            value: { sql: 'select 1', columnName: 'x' },
            source: 'app' as const,
          },
        ],
      },
    ],
    [
      'TABLE tenancy through a tenancy table',
      metric({ from: 'orders', measures: count }),
      {
        tenancy: {
          kind: 'table' as const,
          clientId: 'acme',
          tenancyTable: { table: 'public.tenants', clientNameColumn: 'name', primaryKeyColumn: 'id' },
        },
      },
    ],
  ])('%s', (what, m, over) => {
    expect(() => compile(m, over)).toThrow(
      expect.objectContaining({ status: 400, message: expect.stringContaining(String(what).split(' ')[1] ?? '') }),
    )
  })

  it('a field with "." or a leading "$" (not addressable by a path)', () => {
    for (const name of ['a.b', '$where']) {
      const m = buildModel([
        { schema: 'db', name: 'c', columns: [{ name, dataType: 'string', nativeType: 'string', nullable: true }] },
      ])
      const run = () =>
        compileMetric({
          metric: metric({ from: 'db.c', dimensions: [{ name: 'x', column: name }] }),
          model: m,
          dialect,
          context: ctx(),
        })
      expect(run).toThrow(
        expect.objectContaining({ status: 400, message: expect.stringContaining('cannot be queried') }),
      )
    }
  })
})

describe('mongodb dialect: values', () => {
  it('binds hostile values only as params, in $literal where an expression could read them', () => {
    const hostile = ['$where', '$$ROOT', '{"$gt": ""}', "'; db.dropDatabase() //", '.*']
    const out = compile(metric({ from: 'orders', measures: count }), {
      filters: [{ table: 'public.orders', column: 'status', value: hostile, source: 'dashboard' }],
      tenancy: { kind: 'table', clientId: '$ne' },
    })
    expect(out.params).toEqual(['$ne', ...hostile])
    for (const v of hostile) expect(out.sql).not.toContain(v)
    const stages = pipeline(out.sql)
    expect(stages[0]).toEqual({ $match: { client_id: { $eq: { $param: 0 } } } })
    expect(JSON.stringify(stages[1])).toContain(
      JSON.stringify(hostile.map((_, i) => ({ $literal: { $param: i + 1 } }))),
    )
  })

  it('binds instants as Date values (BSON dates)', () => {
    const out = compile(metric({ from: 'orders', measures: count }), {
      filters: [{ table: 'public.orders', column: 'ordered_on', value: 'Last 7 days', source: 'dashboard' }],
    })
    // ordered_on is a date column in this model: date strings; an instant column binds Dates
    expect(out.params.every((p) => typeof p === 'string')).toBe(true)
    const m = buildModel([
      { schema: 'db', name: 'c', columns: [{ name: 'at', dataType: 'datetime', nativeType: 'date', nullable: true }] },
    ])
    const zoned = compileMetric({
      metric: metric({ from: 'db.c', measures: count }),
      model: m,
      dialect,
      context: ctx({ filters: [{ table: 'db.c', column: 'at', value: 'Last 7 days', source: 'dashboard' }] }),
    })
    expect(zoned.params.map((p) => p instanceof Date)).toEqual([true, true])
  })

  it('negation keeps SQL NULL semantics: NOT (x = v) and x <> v exclude rows where x is null', () => {
    const out = compile(
      metric({ from: 'orders', measures: count, where: [{ column: 'status', operator: 'neq', values: ['paid'] }] }),
    )
    expect(pipeline(out.sql)[0]).toEqual({
      $match: {
        $expr: {
          $and: [{ $ne: [{ $ifNull: ['$status', null] }, null] }, { $ne: ['$status', { $literal: { $param: 0 } }] }],
        },
      },
    })
  })

  it('an ungrouped aggregate yields one row on no input ($facet with the SQL values of an empty set)', () => {
    const out = compile(
      metric({ from: 'orders', measures: [...count, { name: 's', aggregate: 'sum', column: 'amount' }] }),
    )
    expect(pipeline(out.sql).at(-1)).toEqual({
      $replaceRoot: { newRoot: { $ifNull: [{ $arrayElemAt: ['$r', 0] }, { $literal: { f0: 0, f1: null } }] } },
    })
  })
})
