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

/** Dialects that are not SQL: their `sql` is one JSON request (checked by structure below). */
const JSON_DIALECTS: ReadonlySet<DialectName> = new Set(['elasticsearch', 'mongodb'])
const P = (i: number) => ({ $param: i })

const EXPECTED: Record<DialectName, CompiledSql> = {
  // `!` escapes: no backslash in any literal, whatever standard_conforming_strings (Redshift) says
  postgres: {
    sql: `SELECT CAST(date_trunc('month', "t0"."ordered_on") AS DATE) AS "month", SUM("t0"."amount") AS "revenue" FROM (SELECT * FROM "public"."orders" AS "t0" WHERE "t0"."client_id" = $1) AS "t0" WHERE ("t0"."status" IN ($2, $3) AND "t0"."status" ILIKE $4 ESCAPE '!') GROUP BY 1 ORDER BY "month" ASC LIMIT 10 OFFSET 20`,
    params: ['acme', 'paid', 'shipped', '%50!%!_off%'],
  },
  mysql: {
    sql: "SELECT CAST(DATE_FORMAT(`t0`.`ordered_on`, '%Y-%m-01') AS DATE) AS `month`, SUM(`t0`.`amount`) AS `revenue` FROM (SELECT * FROM `public`.`orders` AS `t0` WHERE (`t0`.`client_id` = ? AND `t0`.`client_id` = CAST(? AS BINARY))) AS `t0` WHERE (`t0`.`status` IN (?, ?) AND LOWER(`t0`.`status`) LIKE ?) GROUP BY 1 ORDER BY `month` ASC LIMIT 10 OFFSET 20",
    // the tenant twice: an indexable `=`, then the byte comparison that makes it exact
    params: ['acme', ...PARAMS],
  },
  // SUM of no value made NULL, as in SQL (ClickHouse answers 0)
  clickhouse: {
    sql: 'SELECT toStartOfMonth(`t0`.`ordered_on`) AS `month`, if(count(`t0`.`amount`) = 0, NULL, SUM(`t0`.`amount`)) AS `revenue` FROM (SELECT * FROM `public`.`orders` AS `t0` WHERE `t0`.`client_id` = {p0:String}) AS `t0` WHERE (`t0`.`status` IN ({p1:String}, {p2:String}) AND lowerUTF8(`t0`.`status`) LIKE {p3:String}) GROUP BY toStartOfMonth(`t0`.`ordered_on`) ORDER BY `month` ASC LIMIT 10 OFFSET 20',
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
  databricks: {
    sql: "SELECT CAST(date_trunc('MONTH', `t0`.`ordered_on`) AS DATE) AS `month`, SUM(`t0`.`amount`) AS `revenue` FROM (SELECT * FROM `public`.`orders` AS `t0` WHERE (`t0`.`client_id` = :p0 AND CAST(CAST(`t0`.`client_id` AS STRING) AS BINARY) = CAST(:p0 AS BINARY))) AS `t0` WHERE (`t0`.`status` IN (:p1, :p2) AND LOWER(`t0`.`status`) LIKE :p3) GROUP BY 1 ORDER BY `month` ASC LIMIT 10 OFFSET 20",
    // the tenant once, referenced twice: an `=` for data skipping, then the byte comparison
    params: PARAMS,
  },
  firebolt: {
    sql: `SELECT CAST(date_trunc('month', "t0"."ordered_on") AS DATE) AS "month", SUM("t0"."amount") AS "revenue" FROM (SELECT * FROM "public"."orders" AS "t0" WHERE "t0"."client_id" = $1) AS "t0" WHERE ("t0"."status" IN ($2, $3) AND STRPOS(LOWER("t0"."status"), LOWER($4)) > 0) GROUP BY 1 ORDER BY "month" ASC LIMIT 10 OFFSET 20`,
    // the needle as plain text: Firebolt documents no escape for ILIKE's wildcards
    params: ['acme', 'paid', 'shipped', '50%_off'],
  },
  // One aggregation request (JSON): the tenant $match first, the conditions with SQL's NULL
  // semantics, $dateTrunc in the session zone (filled in by the connector), output fields f0…
  mongodb: {
    sql: JSON.stringify({
      database: 'public',
      collection: 'orders',
      pipeline: [
        { $match: { client_id: { $eq: { $param: 0 } } } },
        {
          $match: {
            $expr: {
              $and: [
                {
                  $and: [
                    { $ne: [{ $ifNull: ['$status', null] }, null] },
                    { $in: ['$status', [{ $literal: { $param: 1 } }, { $literal: { $param: 2 } }]] },
                  ],
                },
                {
                  $and: [
                    { $eq: [{ $type: '$status' }, 'string'] },
                    { $regexMatch: { input: '$status', regex: { $literal: { $param: 3 } }, options: 'i' } },
                  ],
                },
              ],
            },
          },
        },
        {
          $group: {
            _id: {
              k0: {
                $ifNull: [
                  {
                    $dateToString: {
                      date: { $dateTrunc: { date: '$ordered_on', unit: 'month', timezone: { $session: 'timezone' } } },
                      format: '%Y-%m-%d',
                      timezone: { $session: 'timezone' },
                    },
                  },
                  null,
                ],
              },
            },
            a1: { $sum: '$amount' },
            n1: { $sum: { $cond: [{ $ne: [{ $ifNull: ['$amount', null] }, null] }, 1, 0] } },
          },
        },
        { $project: { _id: 0, f0: '$_id.k0', f1: { $cond: [{ $gt: ['$n1', 0] }, '$a1', null] } } },
        { $sort: { f0: 1 } },
        { $skip: 20 },
        { $limit: 10 },
      ],
      columns: ['month', 'revenue'],
    }),
    // the contains value is a regular expression matching the text literally
    params: ['acme', 'paid', 'shipped', '50%_off'],
  },
  snowflake: {
    sql: `SELECT CAST(DATE_TRUNC('MONTH', "t0"."ordered_on") AS DATE) AS "month", SUM("t0"."amount") AS "revenue" FROM (SELECT * FROM "public"."orders" AS "t0" WHERE ("t0"."client_id" = :1 AND TO_BINARY(TO_VARCHAR("t0"."client_id"), 'UTF-8') = TO_BINARY(:1, 'UTF-8'))) AS "t0" WHERE ("t0"."status" IN (:2, :3) AND "t0"."status" ILIKE :4 ESCAPE '\\\\') GROUP BY 1 ORDER BY "month" ASC LIMIT 10 OFFSET 20`,
    // `:1` names the tenant twice (one bound value); `'\\'` is one backslash in Snowflake SQL
    params: PARAMS,
  },
  bigquery: {
    // Google's reference for each construct is cited in dialects/bigquery.ts; the ZetaSQL analyser accepts it (bigquery.zetasql.test.ts).
    // The tenant: a plain `=` (partition and cluster pruning), then the byte comparison that makes it exact
    sql: 'SELECT DATE_TRUNC(CAST(`t0`.`ordered_on` AS DATE), MONTH) AS `month`, SUM(`t0`.`amount`) AS `revenue` FROM (SELECT * FROM `public`.`orders` AS `t0` WHERE (`t0`.`client_id` = @p0 AND CAST(`t0`.`client_id` AS BYTES) = CAST(@p0 AS BYTES))) AS `t0` WHERE (`t0`.`status` IN (@p1, @p2) AND LOWER(`t0`.`status`) LIKE @p3) GROUP BY 1 ORDER BY `month` ASC LIMIT 10 OFFSET 20',
    params: PARAMS,
  },
  // One _search request (Elasticsearch/OpenSearch query DSL, checked against the Elasticsearch 8/9
  // and OpenSearch 2 references): the tenant's term first in bool.filter, the composite paged by
  // after_key, the month grain a date_histogram in the session zone; order/limit/offset are the
  // plan the connector applies to the collected buckets.
  elasticsearch: {
    sql: JSON.stringify({
      index: 'orders',
      body: {
        size: 0,
        track_total_hits: false,
        query: {
          bool: {
            filter: [
              { term: { client_id: { value: P(0) } } },
              { terms: { status: [P(1), P(2)] } },
              { wildcard: { status: { value: P(3), case_insensitive: true } } },
            ],
          },
        },
        aggs: {
          groups: {
            composite: {
              size: 1000,
              sources: [
                {
                  k0: {
                    date_histogram: {
                      field: 'ordered_on',
                      calendar_interval: 'month',
                      time_zone: { $session: 'timezone' },
                      missing_bucket: true,
                    },
                  },
                },
              ],
            },
            aggs: { m1: { sum: { field: 'amount' } } },
          },
        },
      },
      plan: {
        shape: 'groups',
        columns: [
          {
            name: 'month',
            from: 'key',
            source: 'k0',
            field: 'ordered_on',
            grain: 'month',
            zone: { $session: 'timezone' },
          },
          { name: 'revenue', from: 'agg', agg: 'm1', fn: 'sum', field: 'amount' },
        ],
        order: [{ column: 'month', direction: 'asc' }],
        limit: 10,
        offset: 20,
      },
    }),
    // the contains needle as a wildcard pattern: `%` and `_` are plain characters there
    params: ['acme', 'paid', 'shipped', '*50%_off*'],
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
  databricks: "convert_timezone('UTC', :p0, `t0`.`created_at`)",
  firebolt: `(("t0"."created_at" AT TIME ZONE 'UTC') AT TIME ZONE $1)`,
  mongodb: JSON.stringify({
    f0: {
      $ifNull: [
        { $dateToString: { date: '$created_at', format: '%Y-%m-%d %H:%M:%S', timezone: { $literal: { $param: 0 } } } },
        null,
      ],
    },
  }).slice(1, -1),
  snowflake: `CONVERT_TIMEZONE('UTC', :1, "t0"."created_at")`,
  bigquery: "DATETIME(TIMESTAMP(`t0`.`created_at`, 'UTC'), @p0)",
  // a document's field, rendered by the connector in the zone bound as params[0]
  elasticsearch: JSON.stringify({ name: 'at', from: 'source', field: 'created_at', zone: P(0) }),
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
    expect(out.sql).toContain(JSON_DIALECTS.has(name) ? TZ[name] : `${TZ[name]} AS ${dialect.quoteIdentifier('at')}`)
    // SQL Server's AT TIME ZONE takes the Windows name (CLDR windowsZones; dialects/mssql-zones.ts)
    expect(out.params).toEqual([name === 'mssql' ? 'Romance Standard Time' : 'Europe/Paris'])
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
        if (name === 'mongodb') expect(JSON.parse(out.sql).pipeline).toContainEqual({ $group: expect.anything() })
        else if (name === 'elasticsearch') expect(out.sql).toMatch(jsonGroupBy(timeGrain, aggregate))
        else expect(out.sql).toMatch(/^SELECT .+ FROM .+ GROUP BY .+$/)
        expect(out.params).toEqual([])
        expect(out.columns[0]?.dataType).toBe(timeGrain === 'hour' ? 'datetime' : 'date')
      }
    }
  })
})

/** A composite over a date_histogram of the grain, with the aggregate as its sub-aggregation. */
function jsonGroupBy(grain: string, aggregate: string): RegExp {
  const agg = { sum: 'sum', count: 'value_count', 'count-distinct': 'cardinality', avg: 'avg', min: 'min', max: 'max' }[
    aggregate
  ]
  return new RegExp(
    `"composite":\\{.*"date_histogram":\\{"field":"ordered_on","calendar_interval":"${grain}".*"aggs":\\{"m1":\\{"${agg}":\\{"field":"amount"`,
  )
}

it('getDialect refuses an unknown name with a 400', () => {
  expect(() => getDialect('oracle' as DialectName)).toThrow(expect.objectContaining({ status: 400 }))
})
