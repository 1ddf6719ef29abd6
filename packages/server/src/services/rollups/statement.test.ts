import type { DashboardDocument } from '@strata/contract/document'
import type { Rollup } from '@strata/contract/rollups'
import { describe, expect, it } from 'vitest'
import { model } from '../../../test/fixtures/query.js'
import type { CompiledSql } from '../../query/dialects/base.js'
import { dialects } from '../../query/dialects/registry.js'
import type { DialectName } from '../../query/types.js'
import { planRollup } from './definition.js'
import { rollupStatement } from './statement.js'

/**
 * The build's GROUP BY as each SQL dialect renders it, side by side (a new dialect fails here
 * until its line is added): week buckets of a timestamp, a joined table's column, the tenant
 * columns the plan adds, sum/count/min/max and an avg as sum and count, and an incremental
 * refresh's start as a bound value. Engines with a live server here (PostgreSQL, MariaDB,
 * ClickHouse through chdb, DuckDB) also build for real in test/routes/rollups-engines.test.ts;
 * for the others this rendering is the proof.
 */
const ROLLUP = {
  name: 'weekly',
  from: 'public.orders',
  time: { column: 'created_at', grain: 'week' },
  dimensions: ['status', 'customers.name'],
  measures: [
    { name: 'revenue', aggregate: 'sum', column: 'amount' },
    { name: 'orders', aggregate: 'count' },
    { name: 'low', aggregate: 'min', column: 'amount' },
    { name: 'high', aggregate: 'max', column: 'amount' },
    { name: 'avg_amount', aggregate: 'avg', column: 'amount' },
  ],
  refresh: { every: '1h', incremental: '7 days' },
} as Rollup

const DOC = { name: 'd', metrics: [], layout: [], rollups: [ROLLUP] } as unknown as DashboardDocument
const SINCE = new Date('2024-03-01T00:00:00Z')

/**
 * Dialects that are not SQL (one JSON request): their build runs through the connector against
 * its stand-in instead (test/routes/rollups-search-mongo.standin.test.ts).
 */
const JSON_DIALECTS: ReadonlySet<DialectName> = new Set(['elasticsearch', 'mongodb'])

const EXPECTED: Record<Exclude<DialectName, 'elasticsearch' | 'mongodb'>, CompiledSql> = {
  postgres: {
    sql: 'SELECT CAST(date_trunc(\'week\', "t0"."created_at") AS DATE) AS "c0", "t0"."status" AS "c1", "t1"."name" AS "c2", "t0"."client_id" AS "c3", "t1"."client_id" AS "c4", SUM("t0"."amount") AS "c5", COUNT(*) AS "c6", MIN("t0"."amount") AS "c7", MAX("t0"."amount") AS "c8", SUM("t0"."amount") AS "c9", COUNT("t0"."amount") AS "c10" FROM "public"."orders" AS "t0" LEFT JOIN "public"."customers" AS "t1" ON "t0"."customer_id" = "t1"."id" WHERE "t0"."created_at" >= $1 GROUP BY 1, 2, 3, 4, 5',
    params: ['2024-03-01T00:00:00.000Z'],
  },
  mysql: {
    sql: 'SELECT DATE_SUB(CAST(`t0`.`created_at` AS DATE), INTERVAL WEEKDAY(`t0`.`created_at`) DAY) AS `c0`, `t0`.`status` AS `c1`, `t1`.`name` AS `c2`, `t0`.`client_id` AS `c3`, `t1`.`client_id` AS `c4`, SUM(`t0`.`amount`) AS `c5`, COUNT(*) AS `c6`, MIN(`t0`.`amount`) AS `c7`, MAX(`t0`.`amount`) AS `c8`, SUM(`t0`.`amount`) AS `c9`, COUNT(`t0`.`amount`) AS `c10` FROM `public`.`orders` AS `t0` LEFT JOIN `public`.`customers` AS `t1` ON `t0`.`customer_id` = `t1`.`id` WHERE `t0`.`created_at` >= ? GROUP BY 1, 2, 3, 4, 5',
    params: ['2024-03-01 00:00:00.000'],
  },
  // SUM/MIN/MAX of no value made NULL, as in SQL (ClickHouse answers 0); GROUP BY repeats the expressions
  clickhouse: {
    sql: 'SELECT toMonday(`t0`.`created_at`) AS `c0`, `t0`.`status` AS `c1`, `t1`.`name` AS `c2`, `t0`.`client_id` AS `c3`, `t1`.`client_id` AS `c4`, if(count(`t0`.`amount`) = 0, NULL, SUM(`t0`.`amount`)) AS `c5`, COUNT(*) AS `c6`, if(count(`t0`.`amount`) = 0, NULL, MIN(`t0`.`amount`)) AS `c7`, if(count(`t0`.`amount`) = 0, NULL, MAX(`t0`.`amount`)) AS `c8`, if(count(`t0`.`amount`) = 0, NULL, SUM(`t0`.`amount`)) AS `c9`, COUNT(`t0`.`amount`) AS `c10` FROM `public`.`orders` AS `t0` LEFT JOIN `public`.`customers` AS `t1` ON `t0`.`customer_id` = `t1`.`id` WHERE `t0`.`created_at` >= {p0:DateTime64(3)} GROUP BY toMonday(`t0`.`created_at`), `t0`.`status`, `t1`.`name`, `t0`.`client_id`, `t1`.`client_id`',
    params: [SINCE],
  },
  duckdb: {
    sql: 'SELECT CAST(date_trunc(\'week\', "t0"."created_at") AS DATE) AS "c0", "t0"."status" AS "c1", "t1"."name" AS "c2", "t0"."client_id" AS "c3", "t1"."client_id" AS "c4", SUM("t0"."amount") AS "c5", COUNT(*) AS "c6", MIN("t0"."amount") AS "c7", MAX("t0"."amount") AS "c8", SUM("t0"."amount") AS "c9", COUNT("t0"."amount") AS "c10" FROM "public"."orders" AS "t0" LEFT JOIN "public"."customers" AS "t1" ON "t0"."customer_id" = "t1"."id" WHERE "t0"."created_at" >= $1 GROUP BY 1, 2, 3, 4, 5',
    params: ['2024-03-01T00:00:00.000Z'],
  },
  // weeks from Monday whatever @@DATEFIRST says
  mssql: {
    sql: 'SELECT DATEADD(day, -((DATEPART(weekday, [t0].[created_at]) + @@DATEFIRST + 5) % 7), CAST([t0].[created_at] AS date)) AS [c0], [t0].[status] AS [c1], [t1].[name] AS [c2], [t0].[client_id] AS [c3], [t1].[client_id] AS [c4], SUM([t0].[amount]) AS [c5], COUNT(*) AS [c6], MIN([t0].[amount]) AS [c7], MAX([t0].[amount]) AS [c8], SUM([t0].[amount]) AS [c9], COUNT([t0].[amount]) AS [c10] FROM [public].[orders] AS [t0] LEFT JOIN [public].[customers] AS [t1] ON [t0].[customer_id] = [t1].[id] WHERE [t0].[created_at] >= @p0 GROUP BY DATEADD(day, -((DATEPART(weekday, [t0].[created_at]) + @@DATEFIRST + 5) % 7), CAST([t0].[created_at] AS date)), [t0].[status], [t1].[name], [t0].[client_id], [t1].[client_id]',
    params: [SINCE],
  },
  databricks: {
    sql: "SELECT CAST(date_trunc('WEEK', `t0`.`created_at`) AS DATE) AS `c0`, `t0`.`status` AS `c1`, `t1`.`name` AS `c2`, `t0`.`client_id` AS `c3`, `t1`.`client_id` AS `c4`, SUM(`t0`.`amount`) AS `c5`, COUNT(*) AS `c6`, MIN(`t0`.`amount`) AS `c7`, MAX(`t0`.`amount`) AS `c8`, SUM(`t0`.`amount`) AS `c9`, COUNT(`t0`.`amount`) AS `c10` FROM `public`.`orders` AS `t0` LEFT JOIN `public`.`customers` AS `t1` ON `t0`.`customer_id` = `t1`.`id` WHERE `t0`.`created_at` >= :p0 GROUP BY 1, 2, 3, 4, 5",
    params: [SINCE],
  },
  firebolt: {
    sql: 'SELECT CAST(date_trunc(\'week\', "t0"."created_at") AS DATE) AS "c0", "t0"."status" AS "c1", "t1"."name" AS "c2", "t0"."client_id" AS "c3", "t1"."client_id" AS "c4", SUM("t0"."amount") AS "c5", COUNT(*) AS "c6", MIN("t0"."amount") AS "c7", MAX("t0"."amount") AS "c8", SUM("t0"."amount") AS "c9", COUNT("t0"."amount") AS "c10" FROM "public"."orders" AS "t0" LEFT JOIN "public"."customers" AS "t1" ON "t0"."customer_id" = "t1"."id" WHERE "t0"."created_at" >= $1 GROUP BY 1, 2, 3, 4, 5',
    params: ['2024-03-01T00:00:00.000Z'],
  },
  // weeks from Monday: the connector pins WEEK_START = 1 on its sessions
  snowflake: {
    sql: 'SELECT CAST(DATE_TRUNC(\'WEEK\', "t0"."created_at") AS DATE) AS "c0", "t0"."status" AS "c1", "t1"."name" AS "c2", "t0"."client_id" AS "c3", "t1"."client_id" AS "c4", SUM("t0"."amount") AS "c5", COUNT(*) AS "c6", MIN("t0"."amount") AS "c7", MAX("t0"."amount") AS "c8", SUM("t0"."amount") AS "c9", COUNT("t0"."amount") AS "c10" FROM "public"."orders" AS "t0" LEFT JOIN "public"."customers" AS "t1" ON "t0"."customer_id" = "t1"."id" WHERE "t0"."created_at" >= :1 GROUP BY 1, 2, 3, 4, 5',
    params: ['2024-03-01 00:00:00.000+00:00'],
  },
  // a TIMESTAMP's day in UTC, weeks from Monday
  bigquery: {
    sql: 'SELECT DATE_TRUNC(CAST(`t0`.`created_at` AS DATE), WEEK(MONDAY)) AS `c0`, `t0`.`status` AS `c1`, `t1`.`name` AS `c2`, `t0`.`client_id` AS `c3`, `t1`.`client_id` AS `c4`, SUM(`t0`.`amount`) AS `c5`, COUNT(*) AS `c6`, MIN(`t0`.`amount`) AS `c7`, MAX(`t0`.`amount`) AS `c8`, SUM(`t0`.`amount`) AS `c9`, COUNT(`t0`.`amount`) AS `c10` FROM `public`.`orders` AS `t0` LEFT JOIN `public`.`customers` AS `t1` ON `t0`.`customer_id` = `t1`.`id` WHERE `t0`.`created_at` >= @p0 GROUP BY 1, 2, 3, 4, 5',
    params: ['2024-03-01 00:00:00.000'],
  },
  trino: {
    sql: 'SELECT CAST(date_trunc(\'week\', "t0"."created_at") AS DATE) AS "c0", "t0"."status" AS "c1", "t1"."name" AS "c2", "t0"."client_id" AS "c3", "t1"."client_id" AS "c4", SUM("t0"."amount") AS "c5", COUNT(*) AS "c6", MIN("t0"."amount") AS "c7", MAX("t0"."amount") AS "c8", SUM("t0"."amount") AS "c9", COUNT("t0"."amount") AS "c10" FROM "public"."orders" AS "t0" LEFT JOIN "public"."customers" AS "t1" ON "t0"."customer_id" = "t1"."id" WHERE "t0"."created_at" >= ? GROUP BY 1, 2, 3, 4, 5',
    params: [SINCE],
  },
}

describe('the rollup build statement per dialect', () => {
  const plan = planRollup(model(), DOC, ROLLUP, 'rollups[0]')
  for (const [name, dialect] of dialects) {
    if (JSON_DIALECTS.has(name)) continue
    it(name, () => {
      const out = rollupStatement(plan, model(), dialect, { since: SINCE })
      expect(out).toEqual(EXPECTED[name as keyof typeof EXPECTED])
    })
  }
})
