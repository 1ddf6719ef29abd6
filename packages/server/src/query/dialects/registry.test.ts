import { describe, expect, it } from 'vitest'
import { ctx, metric, model } from '../../../test/fixtures/query.js'
import type { DialectName } from '../../connectors/types.js'
import { compileMetric } from '../compile.js'
import type { CompiledSql } from './base.js'
import { dialects, getDialect } from './registry.js'

/** One query, its expected SQL and params per dialect side by side: a new dialect fails here until added. */
const QUERY = metric({
  from: 'orders',
  measures: [{ name: 'revenue', aggregate: 'sum', column: 'amount' }],
  dimensions: [{ name: 'month', column: 'ordered_on', timeGrain: 'month' }],
  where: [{ column: 'status', operator: 'in', values: ['paid', 'shipped'] }],
})
const CONTEXT = ctx({
  tenancy: { kind: 'table', clientId: 'acme' },
  filters: [{ table: 'public.orders', column: 'status', value: '50%_off', type: 'text', source: 'dashboard' }],
  page: { limit: 10, offset: 20 },
})
const PARAMS = ['acme', 'paid', 'shipped', '%50\\%\\_off%']

const EXPECTED: Record<DialectName, CompiledSql> = {
  postgres: {
    sql: `SELECT CAST(date_trunc('month', "t0"."ordered_on") AS DATE) AS "month", SUM("t0"."amount") AS "revenue" FROM (SELECT * FROM "public"."orders" AS "t0" WHERE "t0"."client_id" = $1) AS "t0" WHERE ("t0"."status" IN ($2, $3) AND "t0"."status" ILIKE $4 ESCAPE '\\') GROUP BY 1 ORDER BY "month" ASC LIMIT 10 OFFSET 20`,
    params: PARAMS,
  },
  mysql: {
    sql: "SELECT CAST(DATE_FORMAT(`t0`.`ordered_on`, '%Y-%m-01') AS DATE) AS `month`, SUM(`t0`.`amount`) AS `revenue` FROM (SELECT * FROM `public`.`orders` AS `t0` WHERE (`t0`.`client_id` = ? AND `t0`.`client_id` = CAST(? AS BINARY))) AS `t0` WHERE (`t0`.`status` IN (?, ?) AND LOWER(`t0`.`status`) LIKE ?) GROUP BY 1 ORDER BY `month` ASC LIMIT 10 OFFSET 20",
    // the tenant twice: an indexable `=`, then the byte comparison that makes it exact
    params: ['acme', ...PARAMS],
  },
  clickhouse: {
    sql: 'SELECT toStartOfMonth(`t0`.`ordered_on`) AS `month`, SUM(`t0`.`amount`) AS `revenue` FROM (SELECT * FROM `public`.`orders` AS `t0` WHERE `t0`.`client_id` = {p0:String}) AS `t0` WHERE (`t0`.`status` IN ({p1:String}, {p2:String}) AND lowerUTF8(`t0`.`status`) LIKE {p3:String}) GROUP BY toStartOfMonth(`t0`.`ordered_on`) ORDER BY `month` ASC LIMIT 10 OFFSET 20',
    params: PARAMS,
  },
  duckdb: {
    sql: `SELECT CAST(date_trunc('month', "t0"."ordered_on") AS DATE) AS "month", SUM("t0"."amount") AS "revenue" FROM (SELECT * FROM "public"."orders" AS "t0" WHERE "t0"."client_id" = $1) AS "t0" WHERE ("t0"."status" IN ($2, $3) AND "t0"."status" ILIKE $4 ESCAPE '\\') GROUP BY 1 ORDER BY "month" ASC LIMIT 10 OFFSET 20`,
    params: PARAMS,
  },
  mssql: {
    sql: "SELECT DATEFROMPARTS(YEAR([t0].[ordered_on]), MONTH([t0].[ordered_on]), 1) AS [month], SUM([t0].[amount]) AS [revenue] FROM (SELECT * FROM [public].[orders] AS [t0] WHERE ([t0].[client_id] = @p0 AND CONVERT(nvarchar(4000), [t0].[client_id]) COLLATE Latin1_General_100_BIN2 = CONVERT(nvarchar(4000), @p0) COLLATE Latin1_General_100_BIN2 AND LEN(CONCAT([t0].[client_id], N'.')) = LEN(CONCAT(@p0, N'.')))) AS [t0] WHERE ([t0].[status] IN (@p1, @p2) AND LOWER([t0].[status]) LIKE @p3 ESCAPE '\\') GROUP BY DATEFROMPARTS(YEAR([t0].[ordered_on]), MONTH([t0].[ordered_on]), 1) ORDER BY [month] ASC OFFSET 20 ROWS FETCH NEXT 10 ROWS ONLY",
    params: PARAMS,
  },
  trino: {
    sql: `SELECT CAST(date_trunc('month', "t0"."ordered_on") AS DATE) AS "month", SUM("t0"."amount") AS "revenue" FROM (SELECT * FROM "public"."orders" AS "t0" WHERE "t0"."client_id" = ?) AS "t0" WHERE ("t0"."status" IN (?, ?) AND LOWER("t0"."status") LIKE ? ESCAPE '\\') GROUP BY 1 ORDER BY "month" ASC OFFSET 20 LIMIT 10`,
    params: PARAMS,
  },
}

/** Time-zone conversion of a naive timestamp per dialect (the zone is always a parameter). */
const TZ: Record<DialectName, string> = {
  postgres: `(("t0"."created_at" AT TIME ZONE 'UTC') AT TIME ZONE $1)`,
  mysql: "CONVERT_TZ(`t0`.`created_at`, '+00:00', ?)",
  clickhouse: 'toTimeZone(`t0`.`created_at`, {p0:String})',
  duckdb: `timezone($1, timezone('UTC', "t0"."created_at"))`,
  mssql: "CAST(([t0].[created_at] AT TIME ZONE 'UTC') AT TIME ZONE @p0 AS datetime2)",
  trino: `CAST(at_timezone(with_timezone("t0"."created_at", 'UTC'), ?) AS timestamp)`,
}

describe.each([...dialects.keys()])('dialect %s', (name) => {
  const dialect = getDialect(name)

  it('compiles the reference query to its expected { sql, params }', () => {
    const { sql, params } = compileMetric({ metric: QUERY, model: model(), dialect, context: CONTEXT })
    expect({ sql, params }).toEqual(EXPECTED[name])
  })

  it('converts a flagged column to the token time zone, bound as a parameter', () => {
    const m = metric({ from: 'orders', dimensions: [{ name: 'at', column: 'created_at' }] })
    const out = compileMetric({ metric: m, model: model(), dialect, context: ctx({ timezone: 'Europe/Paris' }) })
    expect(out.sql).toContain(`${TZ[name]} AS ${dialect.quoteIdentifier('at')}`)
    expect(out.params).toEqual(['Europe/Paris'])
  })

  it('renders every time grain and each aggregate', () => {
    for (const timeGrain of ['hour', 'day', 'week', 'month', 'quarter', 'year'] as const) {
      for (const aggregate of ['sum', 'count', 'count-distinct', 'avg', 'min', 'max'] as const) {
        const m = metric({
          from: 'orders',
          measures: [{ name: 'v', aggregate, column: 'amount' }],
          dimensions: [{ name: 'g', column: 'ordered_on', timeGrain }],
        })
        const out = compileMetric({ metric: m, model: model(), dialect, context: ctx() })
        expect(out.sql).toMatch(/^SELECT .+ FROM .+ GROUP BY .+$/)
        expect(out.params).toEqual([])
        expect(out.columns[0]?.dataType).toBe(timeGrain === 'hour' ? 'datetime' : 'date')
      }
    }
  })
})

it('getDialect refuses an unknown name with a 400', () => {
  expect(() => getDialect('oracle' as DialectName)).toThrow(expect.objectContaining({ status: 400 }))
})
