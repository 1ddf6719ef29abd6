import { describe, expect, it } from 'vitest'
import { bareModel, ctx, metric, model } from '../../test/fixtures/query.js'
import type { DialectName } from '../connectors/types.js'
import { ApiError } from '../errors.js'
import type { CompileContext } from './compile.js'
import { compileMetric } from './compile.js'
import { getDialect } from './dialects/registry.js'
import { analyzeSqlMetric } from './sql-metric-scope.js'

const TENANT = { kind: 'table', clientId: 'acme' } as const
const run = (sql: string, over: Partial<CompileContext> = {}, dialect: DialectName = 'postgres') =>
  compileMetric({
    metric: metric(undefined, { sql }),
    model: model(),
    dialect: getDialect(dialect),
    context: ctx({ tenancy: TENANT, ...over }),
  })
const ORDERS = '(SELECT * FROM "public"."orders" AS "s" WHERE "s"."client_id" = $1)'
const CUSTOMERS = '(SELECT * FROM "public"."customers" AS "s" WHERE "s"."client_id" = $1)'

function refused(sql: string, reason: RegExp, dialect: DialectName = 'postgres', m = model()): void {
  let error: unknown
  try {
    analyzeSqlMetric(sql, dialect, m, 'metrics[0].sql')
  } catch (e) {
    error = e
  }
  expect(error).toBeInstanceOf(ApiError)
  expect((error as ApiError).status).toBe(400)
  expect((error as ApiError).message).toMatch(/^metrics\[0\]\.sql: /)
  expect((error as ApiError).message).toMatch(reason)
}

describe('SQL metrics are scoped to the tenant structurally', () => {
  it('replaces a tenant table by a subquery filtered exactly on the bound clientId', () => {
    expect(run('select count(*) as n from orders')).toMatchObject({
      sql: `select count(*) as n from ${ORDERS} AS orders`,
      params: ['acme'],
    })
  })

  it('keeps aliases, joins, schema-qualified and quoted names; one bound clientId', () => {
    const out = run(
      'select c.name, sum(o.amount) from public.orders o join "customers" AS c on c.id = o.customer_id group by 1',
    )
    expect(out.sql).toBe(
      `select c.name, sum(o.amount) from ${ORDERS} o join ${CUSTOMERS} AS c on c.id = o.customer_id group by 1`,
    )
    expect(out.params).toEqual(['acme'])
    expect(run('select * from "public"."orders"').sql).toBe(`select * from ${ORDERS} AS "orders"`)
  })

  it('leaves comments and string literals that name a table untouched', () => {
    const sql =
      "select 'orders' as t /* from orders */, count(*) from\r\n  orders -- orders\n where status <> 'from orders'"
    expect(run(sql).sql).toBe(
      `select 'orders' as t /* from orders */, count(*) from\r\n  ${ORDERS} AS orders -- orders\n where status <> 'from orders'`,
    )
    // Offsets count code points as the parser does: text before a reference may be any Unicode.
    expect(run("select 'é😀€' as x from orders").sql).toBe(`select 'é😀€' as x from ${ORDERS} AS orders`)
  })

  it('scopes subqueries in FROM, WHERE and SELECT', () => {
    const out = run(
      'select (select count(*) from customers) as k from (select * from orders) q where q.customer_id in (select id from customers)',
    )
    expect(out.sql.match(/"client_id" = \$1/g)).toHaveLength(3)
    expect(out.sql).not.toMatch(/from (orders|customers)\b/)
  })

  it('a CTE named like a tenant table reads the scoped table; the CTE itself is not rewritten', () => {
    const out = run("with orders as (select * from orders where status = 'paid') select count(*) from orders")
    expect(out.sql).toBe(
      `with orders as (select * from ${ORDERS} AS orders where status = 'paid') select count(*) from orders`,
    )
  })

  it('a CTE is in scope only where the engine sees it; elsewhere the name is the table', () => {
    const out = run('select * from (with orders as (select 1 as a) select * from orders) q, orders')
    expect(out.sql).toBe(`select * from (with orders as (select 1 as a) select * from orders) q, ${ORDERS} AS orders`)
    // A later CTE is not visible in an earlier one's body.
    const later = run('with a as (select * from orders), orders as (select 1) select * from a, orders')
    expect(later.sql).toBe(
      `with a as (select * from ${ORDERS} AS orders), orders as (select 1) select * from a, orders`,
    )
  })

  it('refuses a reference that may be a CTE or a table (fail closed)', () => {
    refused('with Orders as (select 1) select * from "Orders"', /may name the CTE/)
    refused('with x as (select 1) select * from X', /may name the CTE/)
  })

  it('tables outside the model, and ambiguous names, are refused with the reason', () => {
    refused('select * from secrets', /no table "secrets"/)
    refused('select * from pg_catalog.pg_authid', /no table "pg_catalog.pg_authid"/)
    refused('select * from audit', /ambiguous/, 'postgres', bareModel())
    expect(analyzeSqlMetric('select * from archive.audit', 'postgres', bareModel(), 'x').tables).toHaveLength(1)
    refused('select * from db.public.orders', /name it as schema.table or table/)
  })

  it('refuses anything but one SELECT, naming the reason', () => {
    refused("UPDATE orders SET status = 'x' WHERE client_id <> {{clientId}}", /one SELECT query, not UPDATE/, 'mysql')
    refused('CREATE TABLE stolen AS SELECT * FROM orders', /one SELECT query, not CREATETABLE/, 'mysql')
    refused('INSERT INTO orders SELECT * FROM orders', /not INSERT/)
    refused('DELETE FROM orders', /not DELETE/)
    refused('select 1; select 2', /exactly one statement \(found 2\)/)
    refused('select * into stolen from orders', /SELECT … INTO/)
    refused('select * from orders for update', /must not lock rows/, 'mysql')
    refused('with d as (delete from orders returning *) select * from d', /not DELETE/)
    refused("select set_config('default_transaction_read_only', 'off', false)", /set_config\(\) is not one of them/)
    refused("select pg_catalog.set_config('search_path', 'x', false) from orders", /set_config/)
    refused("select query_to_xml('select * from orders', true, false, '')", /query_to_xml/)
    refused("select load_file('/etc/passwd')", /load_file/, 'mysql')
    refused('select * from generate_series(1, 3)', /arguments/)
    refused("select * from 'orders.csv'", /string is not a table name/, 'duckdb')
    refused('select * from orders settings readonly = 0', /must not change settings/, 'clickhouse')
    refused('selec * from orders', /does not parse as postgres/)
    refused('select * from orders o with (nolock)', /hints/, 'mssql')
  })

  it('scopes in every dialect with its quoting and exact comparison', () => {
    const my = run('select count(*) from orders o', {}, 'mysql')
    expect(my).toMatchObject({
      sql: 'select count(*) from (SELECT * FROM `public`.`orders` AS `s` WHERE (`s`.`client_id` = ? AND `s`.`client_id` = CAST(? AS BINARY))) o',
      params: ['acme', 'acme'],
    })
    expect(run('select count(*) from `orders`', {}, 'clickhouse').sql).toBe(
      'select count(*) from (SELECT * FROM `public`.`orders` AS `s` WHERE `s`.`client_id` = {p0:String}) AS `orders`',
    )
    expect(run('select count(*) from orders', {}, 'duckdb').sql).toBe(`select count(*) from ${ORDERS} AS orders`)
    expect(run('select count(*) from [public].[orders]', {}, 'mssql').sql).toMatch(
      /^select count\(\*\) from \(SELECT \* FROM \[public\]\.\[orders\] AS \[s\] WHERE \(\[s\]\.\[client_id\] = @p0 AND .*\)\) AS \[orders\]$/,
    )
  })

  it('through the tenancy table, and {{clientId}} keeps working where the author wrote it', () => {
    const tenancy = {
      ...TENANT,
      tenancyTable: { table: 'public.tenants', clientNameColumn: 'name', primaryKeyColumn: 'id' },
    }
    const out = run('select * from orders where client_id = {{clientId}}', { tenancy })
    expect(out.sql).toBe(
      'select * from (SELECT * FROM "public"."orders" AS "s" WHERE "s"."client_id" IN (SELECT "s"."id" FROM (SELECT "tt"."id" AS "id" FROM "public"."tenants" AS "tt" WHERE "tt"."name" = $1) AS "s")) AS orders where client_id = $2',
    )
    expect(out.params).toEqual(['acme', 'acme'])
  })

  it('without tenancy every model table is still read by its exact name; DATABASE tenancy names the database', () => {
    expect(run('select * from orders', { tenancy: { kind: 'none' } }).sql).toBe(
      'select * from "public"."orders" AS orders',
    )
    expect(run('select * from orders o', { tenancy: { kind: 'database', database: 'tenant_a' } }, 'mysql').sql).toBe(
      'select * from `tenant_a`.`orders` o',
    )
    // trino (parsed with sqlparser's generic dialect): the unit is a schema
    expect(run('select * from orders o', { tenancy: { kind: 'database', database: 'tenant_a' } }, 'trino').sql).toBe(
      'select * from "tenant_a"."orders" o',
    )
  })

  it('a clientId never reaches the text, and paging wraps the scoped query', () => {
    const out = run('select * from orders', {
      tenancy: { kind: 'table', clientId: "x' OR 1=1 --" },
      page: { limit: 5, offset: 0 },
    })
    expect(out.sql).not.toContain('OR 1=1')
    expect(out.params).toEqual(["x' OR 1=1 --"])
    expect(out.countSql?.sql).toContain('"client_id" = $1')
  })
})
