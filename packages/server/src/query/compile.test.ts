import type { Metric } from '@strata/contract/document'
import { describe, expect, it } from 'vitest'
import { bareModel, ctx, metric, model } from '../../test/fixtures/query.js'
import { trinoLiteral } from '../connectors/trino/literals.js'
import { ApiError, TokenRefusal } from '../errors.js'
import { type CompileContext, compileMetric } from './compile.js'
import { getDialect } from './dialects/registry.js'
import { TrinoTemporal } from './dialects/trino.js'
import type { AppliedFilter } from './filters.js'

const pg = getDialect('postgres')
const run = (m: Metric, c: Partial<CompileContext> = {}, dialect = pg) =>
  compileMetric({ metric: m, model: model(), dialect, context: ctx(c) })
const fails = (fn: () => unknown, message: RegExp) => {
  let error: unknown
  try {
    fn()
  } catch (e) {
    error = e
  }
  expect(error).toBeInstanceOf(ApiError)
  expect((error as ApiError).status).toBe(400)
  expect((error as ApiError).message).toMatch(message)
}
const count = [{ name: 'n', aggregate: 'count' as const }]
const onOrders = (value: unknown, extra: Partial<AppliedFilter> = {}): AppliedFilter => ({
  table: 'public.orders',
  column: 'amount',
  value: value as AppliedFilter['value'],
  source: 'dashboard',
  ...extra,
})

describe('aggregates and output columns', () => {
  it('types each aggregate and groups by the dimensions', () => {
    const out = run(
      metric({
        from: 'orders',
        dimensions: [{ name: 'status', column: 'status' }],
        measures: [
          { name: 's', aggregate: 'sum', column: 'amount' },
          { name: 'c', aggregate: 'count' },
          { name: 'cd', aggregate: 'count-distinct', column: 'customer_id' },
          { name: 'a', aggregate: 'avg', column: 'amount' },
          { name: 'lo', aggregate: 'min', column: 'ordered_on' },
          { name: 'hi', aggregate: 'max', column: 'amount' },
        ],
      }),
    )
    expect(out.sql).toBe(
      'SELECT "t0"."status" AS "status", SUM("t0"."amount") AS "s", COUNT(*) AS "c", COUNT(DISTINCT "t0"."customer_id") AS "cd", AVG("t0"."amount") AS "a", MIN("t0"."ordered_on") AS "lo", MAX("t0"."amount") AS "hi" FROM "public"."orders" AS "t0" GROUP BY 1',
    )
    expect(out.columns.map((c) => c.dataType)).toEqual([
      'string',
      'number',
      'integer',
      'integer',
      'number',
      'date',
      'number',
    ])
    expect(out.groupBy).toEqual(['status'])
  })

  it('refuses a non-count aggregate without a column', () => {
    fails(
      () => run(metric({ from: 'orders', measures: [{ name: 's', aggregate: 'sum' }] })),
      /measures\[0\]\.column: sum needs a column/,
    )
  })

  it('resolves a column by its datamart alias', () => {
    expect(run(metric({ from: 'orders', dimensions: [{ name: 's', column: 'state' }] })).sql).toContain(
      '"t0"."status" AS "s"',
    )
  })
})

describe('joins', () => {
  it('follows a two-hop path, LEFT by default and a flipped explicit INNER', () => {
    const out = run(
      metric({ from: 'orders', measures: count, dimensions: [{ name: 'r', table: 'countries', column: 'region' }] }),
    )
    expect(out.sql).toBe(
      'SELECT "t1"."region" AS "r", COUNT(*) AS "n" FROM "public"."orders" AS "t0" LEFT JOIN "public"."customers" AS "t2" ON "t0"."customer_id" = "t2"."id" INNER JOIN "public"."countries" AS "t1" ON "t2"."country_code" = "t1"."code" GROUP BY 1',
    )
  })

  it('reads an explicit join type parent → child, flipping it when walking child → parent', () => {
    const out = run(
      metric({ from: 'countries', measures: count, dimensions: [{ name: 's', table: 'orders', column: 'status' }] }),
    )
    expect(out.sql).toContain('FROM "public"."countries" AS "t0" INNER JOIN "public"."customers"')
    expect(out.sql).toContain('LEFT JOIN "public"."orders"')
  })

  it('names the table no relationship reaches', () => {
    fails(
      () =>
        run(
          metric({
            from: 'orders',
            measures: count,
            dimensions: [{ name: 'w', table: 'public.audit', column: 'what' }],
          }),
        ),
      /no relationship path from public\.orders to public\.audit/,
    )
  })
})

describe('tenancy', () => {
  const joined = metric({
    from: 'orders',
    measures: count,
    dimensions: [{ name: 'c', table: 'customers', column: 'name' }],
  })

  it('TABLE: scopes every table with a client column to the tenant, one bound parameter', () => {
    const out = run(joined, { tenancy: { kind: 'table', clientId: "o'hara" } })
    expect(out.sql).toBe(
      'SELECT "t1"."name" AS "c", COUNT(*) AS "n" FROM (SELECT * FROM "public"."orders" AS "t0" WHERE "t0"."client_id" = $1) AS "t0" LEFT JOIN (SELECT * FROM "public"."customers" AS "t1" WHERE "t1"."client_id" = $1) AS "t1" ON "t0"."customer_id" = "t1"."id" GROUP BY 1',
    )
    expect(out.params).toEqual(["o'hara"])
  })

  it('TABLE: the embed client columns win over the datamart', () => {
    const out = run(joined, {
      tenancy: { kind: 'table', clientId: 'a', clientColumns: new Map([['public.customers', 'name']]) },
    })
    expect(out.sql).toContain('WHERE "t1"."name" = $1')
  })

  it('TABLE: through the tenancy table', () => {
    const out = run(metric({ from: 'orders', measures: count }), {
      tenancy: {
        kind: 'table',
        clientId: 'acme',
        clientColumns: new Map([['public.orders', 'customer_id']]),
        tenancyTable: { table: 'public.tenants', clientNameColumn: 'name', primaryKeyColumn: 'id' },
      },
    })
    expect(out.sql).toBe(
      'SELECT COUNT(*) AS "n" FROM (SELECT * FROM "public"."orders" AS "t0" WHERE "t0"."customer_id" IN (SELECT "s"."id" FROM (SELECT "tt"."id" AS "id" FROM "public"."tenants" AS "tt" WHERE "tt"."name" = $1) AS "s")) AS "t0"',
    )
  })

  it('TABLE: refuses a from table without a client column instead of returning every tenant', () => {
    fails(
      () => run(metric({ from: 'countries', measures: count }), { tenancy: { kind: 'table', clientId: 'a' } }),
      /public\.countries has no client column/,
    )
  })

  it('DATABASE: MySQL and ClickHouse qualify tables with the tenant database; Postgres keeps its schema', () => {
    const m = metric({ from: 'orders', measures: count })
    const tenancy = { kind: 'database', database: 'tenant_42' } as const
    expect(run(m, { tenancy }, getDialect('mysql')).sql).toBe(
      'SELECT COUNT(*) AS `n` FROM `tenant_42`.`orders` AS `t0`',
    )
    expect(run(m, { tenancy }, getDialect('clickhouse')).sql).toContain('`tenant_42`.`orders`')
    // trino and athena: the unit is a schema of the catalog (an Athena database is one)
    expect(run(m, { tenancy }, getDialect('trino')).sql).toBe(
      'SELECT COUNT(*) AS "n" FROM "tenant_42"."orders" AS "t0"',
    )
    expect(run(m, { tenancy }).sql).toContain('"public"."orders"')
  })

  it('none: no tenant condition', () => {
    expect(run(metric({ from: 'countries', measures: count })).sql).toBe(
      'SELECT COUNT(*) AS "n" FROM "public"."countries" AS "t0"',
    )
  })
})

describe('filter value forms', () => {
  const where = (value: unknown, extra: Partial<AppliedFilter> = {}, c: Partial<CompileContext> = {}) => {
    const out = run(metric({ from: 'orders', measures: count }), { filters: [onOrders(value, extra)], ...c })
    return { where: out.sql.split(' WHERE ')[1] ?? null, params: out.params }
  }

  it('boolean, number and string bind as equality', () => {
    expect(where(true, { column: 'paid' })).toEqual({ where: '"t0"."paid" = $1', params: [true] })
    expect(where(12.5)).toEqual({ where: '"t0"."amount" = $1', params: [12.5] })
    expect(where('x', { column: 'status' })).toEqual({ where: '"t0"."status" = $1', params: ['x'] })
  })

  it('a list binds IN, an empty list matches nothing', () => {
    expect(where(['a', 'b'], { column: 'status' })).toEqual({ where: '"t0"."status" IN ($1, $2)', params: ['a', 'b'] })
    expect(where([], { column: 'status' })).toEqual({ where: 'FALSE', params: [] })
  })

  it('a date preset binds a half-open range computed in the token time zone', () => {
    expect(where('last 7 days', { column: 'created_at' }, { timezone: 'Europe/Paris' })).toEqual({
      where:
        '((("t0"."created_at" AT TIME ZONE \'UTC\') AT TIME ZONE $1) >= $2 AND (("t0"."created_at" AT TIME ZONE \'UTC\') AT TIME ZONE $1) < $3)',
      params: ['Europe/Paris', '2024-03-09 00:00:00', '2024-03-16 00:00:00'],
    })
    const onBare = compileMetric({
      metric: metric({ from: 'orders', measures: count }),
      model: bareModel(),
      dialect: pg,
      context: ctx({ timezone: 'Europe/Paris', filters: [onOrders('Today', { column: 'created_at' })] }),
    })
    expect(onBare.params).toEqual(['2024-03-14T23:00:00.000Z', '2024-03-15T23:00:00.000Z'])
    expect(where('This month', { column: 'ordered_on' }).params).toEqual(['2024-03-01', '2024-04-01'])
    expect(where('All time', { column: 'ordered_on' })).toEqual({ where: null, params: [] })
  })

  it('trino: date-range bounds carry their type (Trino never compares varchar with a date or timestamp)', () => {
    const trino = getDialect('trino')
    const onDate = run(
      metric({ from: 'orders', measures: count }),
      { filters: [onOrders('This month', { column: 'ordered_on' })] },
      trino,
    )
    expect(onDate.params).toEqual([new TrinoTemporal('DATE', '2024-03-01'), new TrinoTemporal('DATE', '2024-04-01')])
    expect(onDate.params.map(trinoLiteral)).toEqual(["DATE '2024-03-01'", "DATE '2024-04-01'"])
    const converted = run(
      metric({ from: 'orders', measures: count }),
      { timezone: 'Europe/Paris', filters: [onOrders('last 7 days', { column: 'created_at' })] },
      trino,
    )
    expect(converted.params.map(trinoLiteral)).toEqual([
      "'Europe/Paris'",
      "TIMESTAMP '2024-03-09 00:00:00'",
      "'Europe/Paris'",
      "TIMESTAMP '2024-03-16 00:00:00'",
    ])
    expect(() => trinoLiteral(new TrinoTemporal('DATE', "2024-01-01' OR '1'='1"))).toThrow(
      expect.objectContaining({ status: 400 }),
    )
  })

  it('{ startDate, endDate } ends at the start of the day after endDate; either may be absent', () => {
    expect(where({ startDate: '2024-01-01', endDate: '2024-01-31' }, { column: 'ordered_on' }).params).toEqual([
      '2024-01-01',
      '2024-02-01',
    ])
    expect(where({ endDate: '2024-01-31' }, { column: 'ordered_on' })).toEqual({
      where: '"t0"."ordered_on" < $1',
      params: ['2024-02-01'],
    })
    fails(() => where({ startDate: '2024-02-30' }, { column: 'ordered_on' }), /startDate: expected a date YYYY-MM-DD/)
    fails(
      () => where({ startDate: '2024-03-01', endDate: '2024-01-01' }, { column: 'ordered_on' }),
      /startDate is after endDate/,
    )
    fails(() => where('Last 7 days', { column: 'status' }), /needs a date column/)
  })

  it('{ min, max } is inclusive; either may be absent', () => {
    expect(where({ min: 1, max: 2 })).toEqual({
      where: '("t0"."amount" >= $1 AND "t0"."amount" <= $2)',
      params: [1, 2],
    })
    expect(where({ max: 2 })).toEqual({ where: '"t0"."amount" <= $1', params: [2] })
    fails(() => where({ min: 3, max: 2 }), /min is greater than max/)
  })

  it('{ sql, columnName } is trusted text from the token only', () => {
    const sql = { sql: 'SELECT id FROM allowed;', columnName: 'id' }
    expect(where(sql, { source: 'app' }).where).toBe(
      '"t0"."amount" IN (SELECT "s"."id" FROM (SELECT id FROM allowed) AS "s")',
    )
    fails(() => where(sql, { source: 'dashboard' }), /only from a secret-key holder/)
  })

  it('a text filter is a case-insensitive contains with an escaped, bound pattern', () => {
    expect(where('50%', { column: 'status', type: 'text' })).toEqual({
      where: '"t0"."status" ILIKE $1 ESCAPE \'!\'',
      params: ['%50!%%'],
    })
  })

  it('refuses malformed values with a 400', () => {
    fails(() => where({ foo: 1 }), /not a filter value/)
    fails(() => where(Number.NaN), /finite/)
    fails(() => where([{}], { column: 'status' }), /expected a string, number or boolean/)
    fails(() => where('a\u0000b', { column: 'status' }), /NUL/)
    fails(() => where('yesterday-ish', { type: 'date-range', column: 'ordered_on' }), /not a date preset/)
  })

  it('a metric filter must reach its table; a dashboard filter that cannot is skipped', () => {
    const audit = { table: 'public.audit', column: 'what', value: 'x', source: 'metric' } as const
    fails(() => run(metric({ from: 'orders', measures: count }), { filters: [audit] }), /no relationship path/)
    const out = run(metric({ from: 'orders', measures: count }), { filters: [{ ...audit, scope: 'dashboard' }] })
    expect(out.sql).not.toContain('WHERE')
  })
})

describe('RLS', () => {
  const m = metric(
    { from: 'orders', measures: count },
    { rls: [{ variable: 'region', column: 'region', table: 'countries' }] },
  )
  it('binds the variable to its column (a list as IN)', () => {
    expect(run(m, { rls: { region: ['EU', 'NA'] } }).sql).toContain('WHERE "t1"."region" IN ($1, $2)')
  })
  // Regression (issue 12, fail closed): a declared variable the token left without a value (its
  // rlsSettings naming only other metrics, or none) added no condition: the metric ran unrestricted.
  it('refuses a declared variable without a value, naming the metric and the variable', () => {
    fails(() => run(m), /rlsSettings: metric m1 declares the RLS variable "region", and the token gives it no value/)
  })
  it('refuses a token variable the metric does not declare', () => {
    fails(() => run(m, { rls: { country: 'FR' } }), /no RLS variable "country"/)
  })
  it('these refusals, and a token restriction refusing the metric, are the token’s own (TokenRefusal)', () => {
    const refusalOf = (fn: () => unknown) => {
      try {
        fn()
      } catch (e) {
        return e
      }
    }
    expect(refusalOf(() => run(m))).toBeInstanceOf(TokenRefusal)
    expect(refusalOf(() => run(m, { rls: { country: 'FR' } }))).toBeInstanceOf(TokenRefusal)
    const restricted = refusalOf(() =>
      run(metric({ from: 'orders', measures: count }), {
        filters: [{ ...onOrders([]), source: 'rls', scope: 'dashboard', refuse: 'no value for the token' }],
      }),
    )
    expect(restricted).toBeInstanceOf(TokenRefusal)
    expect((restricted as TokenRefusal).message).toBe('no value for the token')
  })
})

describe('SQL metrics', () => {
  const sqlMetric = (sql: string): Metric =>
    metric(undefined, { sql, filters: [{ name: 'status', type: 'single-select', column: 'status' }] })
  const statusFilter: AppliedFilter = { table: '', column: 'status', name: 'status', value: 'paid', source: 'metric' }

  it('binds {{variables}} from RLS, then metric filters; lists expand', () => {
    const out = run(
      sqlMetric('select * from countries where r IN ({{region}}) and s = {{ status }} and r2 IN ({{region}});'),
      { rls: { region: ['EU', 'NA'] }, filters: [statusFilter] },
    )
    expect(out).toMatchObject({
      sql: 'select * from "public"."countries" AS countries where r IN ($1, $2) and s = $3 and r2 IN ($1, $2)',
      params: ['EU', 'NA', 'paid'],
    })
    expect(run(sqlMetric('select {{x}}'), { rls: { x: [] } }).sql).toBe('select NULL')
    const my = run(sqlMetric('select {{x}}, {{x}}'), { rls: { x: 1 } }, getDialect('mysql'))
    expect(my).toMatchObject({ sql: 'select ?, ?', params: [1, 1] })
  })

  it('a variable without a value is a 400 naming it', () => {
    fails(() => run(sqlMetric('select {{missing}}')), /no value for the variable \{\{missing\}\}/)
  })

  it('under TABLE tenancy requires a tenant table or {{clientId}}, bound to the tenant', () => {
    const tenancy = { kind: 'table', clientId: 'acme' } as const
    fails(
      () => run(sqlMetric('select 1'), { tenancy }),
      /must read a table with a client column or filter on \{\{clientId\}\}/,
    )
    fails(() => run(sqlMetric('select * from countries'), { tenancy }), /client column or filter on \{\{clientId\}\}/)
    const q = 'select * from countries c where c.code = {{clientId}}'
    expect(run(sqlMetric(q), { tenancy, rls: {} }).params).toEqual(['acme'])
    // MySQL/MariaDB: as a binary string, so that `c = …` is exact whatever c's collation
    const my = run(sqlMetric(q), { tenancy, rls: {} }, getDialect('mysql'))
    expect(my).toMatchObject({
      sql: 'select * from `public`.`countries` c where c.code = CAST(? AS BINARY)',
      params: ['acme'],
    })
  })

  it('pages by wrapping, with a count query', () => {
    const out = run(sqlMetric('select 1 as x'), { page: { limit: 5, offset: 10 } })
    expect(out.sql).toBe('SELECT * FROM (select 1 as x) AS "q" LIMIT 5 OFFSET 10')
    expect(out.countSql?.sql).toBe('SELECT COUNT(*) AS "total" FROM (select 1 as x) AS "q"')
  })
})

describe('comparison and paging', () => {
  it('compiles the measures over the previous period when a date range applies', () => {
    const m = metric(
      { from: 'orders', measures: count, dimensions: [{ name: 's', column: 'status' }] },
      { comparison: { period: 'previous-period' } },
    )
    const filters = [onOrders('Last month', { column: 'ordered_on' })]
    const out = run(m, { filters })
    expect(out.params).toEqual(['2024-02-01', '2024-03-01'])
    expect(out.comparison).toEqual({
      sql: 'SELECT COUNT(*) AS "n" FROM "public"."orders" AS "t0" WHERE ("t0"."ordered_on" >= $1 AND "t0"."ordered_on" < $2)',
      params: ['2024-01-01', '2024-02-01'],
    })
    const year = run({ ...m, comparison: { period: 'previous-year' } }, { filters })
    expect(year.comparison?.params).toEqual(['2023-02-01', '2023-03-01'])
    const days = run(m, { filters: [onOrders('Last 7 days', { column: 'ordered_on' })] })
    expect(days.comparison?.params).toEqual(['2024-03-02', '2024-03-09'])
  })

  it('without a date range, compares with the value as it stood one month or one year ago (end of that day)', () => {
    const m = metric({ from: 'orders', measures: count }, { comparison: { period: 'previous-period' } })
    // no time dimension: the first date column of the table (created_at, converted to the zone)
    const out = run(m)
    expect(out.sql).toBe('SELECT COUNT(*) AS "n" FROM "public"."orders" AS "t0"')
    expect(out.comparison?.sql).toBe(
      'SELECT COUNT(*) AS "n" FROM "public"."orders" AS "t0" WHERE (("t0"."created_at" AT TIME ZONE \'UTC\') AT TIME ZONE $1) < $2',
    )
    expect(out.comparison?.params).toEqual(['UTC', '2024-02-16 00:00:00']) // NOW is 2024-03-15
    expect(run({ ...m, comparison: { period: 'previous-year' } }).comparison?.params).toEqual([
      'UTC',
      '2023-03-16 00:00:00',
    ])
    // a day the earlier month lacks is its last day; the day is the zone's
    expect(run(m, { now: new Date('2024-03-31T12:00:00Z') }).comparison?.params).toEqual(['UTC', '2024-03-01 00:00:00'])
    expect(run(m, { now: new Date('2024-03-31T23:30:00Z'), timezone: 'Asia/Tokyo' }).comparison?.params).toEqual([
      'Asia/Tokyo',
      '2024-03-02 00:00:00',
    ])
    // a time dimension's column wins
    const byDay = metric(
      { from: 'orders', measures: count, dimensions: [{ name: 'd', column: 'ordered_on', timeGrain: 'day' }] },
      { comparison: { period: 'previous-year' } },
    )
    expect(run(byDay).comparison?.sql).toContain('"t0"."ordered_on" < $1')
    expect(run(byDay).comparison?.params).toEqual(['2023-03-16'])
    // nothing to compare on
    fails(
      () => run(metric({ from: 'customers', measures: count }, { comparison: { period: 'previous-period' } })),
      /comparison: public.customers has no date column/,
    )
  })

  it('pages within the metric limit, ordered, with a count of the unpaged rows', () => {
    const m = metric({ from: 'orders', measures: count, dimensions: [{ name: 's', column: 'status' }], limit: 25 })
    const out = run(m, { page: { limit: 10, offset: 20 } })
    expect(out.sql).toBe(
      'SELECT "t0"."status" AS "s", COUNT(*) AS "n" FROM "public"."orders" AS "t0" GROUP BY 1 ORDER BY "s" ASC LIMIT 5 OFFSET 20',
    )
    expect(out.countSql?.sql).toBe(
      'SELECT COUNT(*) AS "total" FROM (SELECT "t0"."status" AS "s", COUNT(*) AS "n" FROM "public"."orders" AS "t0" GROUP BY 1 LIMIT 25) AS "q"',
    )
    fails(() => run(m, { page: { limit: 0, offset: 0 } }), /page/)
  })

  it('refuses an unknown time zone', () => {
    fails(() => run(metric({ from: 'orders', measures: count }), { timezone: 'Mars/Olympus' }), /Unknown time zone/)
  })
})
