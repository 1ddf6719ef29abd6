import type { Metric } from '@strata/contract/document'
import { describe, expect, it } from 'vitest'
import { metric, model, NOW } from '../../../test/fixtures/query.js'
import { compileMetric } from '../compile.js'
import { getDialect } from '../dialects/registry.js'
import type { AppliedFilter } from '../filters.js'
import type { Tenancy } from '../tenancy/tenancy.js'
import { grainAnswers, onBucket } from './grains.js'
import { chooseRollup, type MatchRequest, type RollupCandidate, type RollupRead } from './match.js'
import type { RollupColumn, RollupPlan } from './types.js'

const dim = (name: string, column = name, table = 'public.orders', role: RollupColumn['role'] = 'dimension') => ({
  name,
  table,
  column,
  role,
})
const orders = (over: Partial<RollupPlan> = {}): RollupPlan => ({
  name: 'orders_daily',
  from: 'public.orders',
  time: { name: 'created_at', table: 'public.orders', column: 'created_at', role: 'time', grain: 'day' },
  dimensions: [dim('status'), dim('client_id', 'client_id', 'public.orders', 'tenant')],
  measures: [
    { name: 'revenue', aggregate: 'sum', column: 'amount', of: 'revenue' },
    { name: 'orders', aggregate: 'count', of: 'orders' },
    { name: 'avg_amount__sum', aggregate: 'sum', column: 'amount', of: 'avg_amount' },
    { name: 'avg_amount__count', aggregate: 'count', column: 'amount', of: 'avg_amount' },
    { name: 'low', aggregate: 'min', column: 'amount', of: 'low' },
  ],
  everyMs: 3_600_000,
  fingerprint: 'f1',
  ...over,
})
const candidate = (plan: RollupPlan = orders(), rows = 100, files = [{ location: 'a/2024-03.parquet' }]) =>
  ({ plan, rows, files, builtAt: '2024-03-15T00:00:00.000Z' }) satisfies RollupCandidate

const acme: Tenancy = { kind: 'table', clientId: 'acme' }
const byMonth = metric({
  from: 'orders',
  dimensions: [{ name: 'month', column: 'created_at', timeGrain: 'month' }],
  measures: [{ name: 'revenue', aggregate: 'sum', column: 'amount' }],
})
const request = (m: Metric, over: Partial<MatchRequest> = {}): MatchRequest => ({
  metric: m,
  model: model(),
  tenancy: acme,
  filters: [],
  timezone: 'UTC',
  now: NOW,
  underlying: false,
  dialect: getDialect('postgres'),
  ...over,
})
const served = (r: MatchRequest, candidates = [candidate()]): RollupRead => {
  const m = chooseRollup(r, candidates)
  if (!m.ok) throw new Error(`not served: ${m.reason}`)
  return m.read
}
const reason = (r: MatchRequest, candidates = [candidate()]): string => {
  const m = chooseRollup(r, candidates)
  if (m.ok) throw new Error(`served from ${m.read.rollup.plan.name}`)
  return m.reason
}
const range = (startDate: string, endDate: string, column = 'created_at'): AppliedFilter => ({
  table: 'public.orders',
  column,
  value: { startDate, endDate },
  source: 'dashboard',
  name: 'period',
})

describe('grains', () => {
  it('answers a coarser grain only when its buckets are whole rollup buckets', () => {
    expect(grainAnswers('day', 'month')).toBe(true)
    expect(grainAnswers('day', 'week')).toBe(true)
    expect(grainAnswers('week', 'month')).toBe(false)
    expect(grainAnswers('month', 'day')).toBe(false)
    expect(grainAnswers('month', 'quarter')).toBe(true)
    expect(grainAnswers('hour', 'hour')).toBe(true)
  })
  it('knows bucket starts (weeks on Mondays)', () => {
    const w = (year: number, month: number, day: number, hour = 0) => ({ year, month, day, hour, minute: 0, second: 0 })
    expect(onBucket(w(2024, 3, 11), 'week')).toBe(true) // a Monday
    expect(onBucket(w(2024, 3, 12), 'week')).toBe(false)
    expect(onBucket(w(2024, 4, 1), 'quarter')).toBe(true)
    expect(onBucket(w(2024, 5, 1), 'quarter')).toBe(false)
    expect(onBucket(w(2024, 5, 1, 3), 'day')).toBe(false)
    expect(onBucket(w(2024, 5, 1, 3), 'hour')).toBe(true)
  })
})

describe('chooseRollup', () => {
  it('serves a structured metric at a coarser grain, tenant condition on the rollup client column', () => {
    const read = served(request(byMonth))
    expect(read.rollup.plan.name).toBe('orders_daily')
    expect(read.tenancy).toEqual({ kind: 'table' })
    expect(read.model.tables.get('main.rollup')?.clientColumn).toBe('client_id')
    expect(read.metric.query?.dimensions).toEqual([{ name: 'month', column: 'created_at', timeGrain: 'month' }])
    expect(read.measures.get('revenue')).toEqual({ fn: 'sum', columns: ['revenue'] })
    expect(read.files).toEqual(['a/2024-03.parquet'])
  })

  it('compiles the reading in DuckDB: re-aggregated measures, the tenant a bound parameter', () => {
    const m = metric({
      from: 'orders',
      dimensions: [{ name: 'status', column: 'state' }],
      measures: [
        { name: 'n', aggregate: 'count' },
        { name: 'a', aggregate: 'avg', column: 'amount' },
        { name: 'lo', aggregate: 'min', column: 'amount' },
      ],
    })
    const read = served(request(m))
    const out = compileMetric({
      metric: read.metric,
      model: read.model,
      dialect: getDialect('duckdb'),
      context: { tenancy: { kind: 'table', clientId: 'acme' }, rls: {}, filters: [], timezone: 'UTC', now: NOW },
      reaggregate: (x) => read.measures.get(x.name) as { fn: 'sum'; columns: string[] },
    })
    expect(out.sql).toBe(
      'SELECT "t0"."status" AS "status", CAST(COALESCE(SUM("t0"."orders"), 0) AS BIGINT) AS "n", CAST(SUM("t0"."revenue") AS DOUBLE PRECISION) / NULLIF(SUM("t0"."avg_amount__count"), 0) AS "a", MIN("t0"."low") AS "lo" FROM (SELECT * FROM "main"."rollup" AS "t0" WHERE "t0"."client_id" = $1) AS "t0" GROUP BY 1',
    )
    expect(out.params).toEqual(['acme'])
    expect(out.columns.map((c) => c.dataType)).toEqual(['string', 'integer', 'number', 'number'])
  })

  it('never serves SQL metrics, underlying rows or distinct counts', () => {
    expect(reason(request(metric(undefined, { sql: 'select 1' })))).toMatch(/SQL metric/)
    expect(reason(request(byMonth, { underlying: true }))).toMatch(/underlying rows/)
    const distinct = metric({ from: 'orders', measures: [{ name: 'c', aggregate: 'count-distinct', column: 'id' }] })
    expect(reason(request(distinct))).toBe('orders_daily: count-distinct does not re-aggregate')
  })

  it('names the column a rollup lacks, in a dimension, a filter, a where or an RLS binding', () => {
    const byPaid = metric({
      from: 'orders',
      dimensions: [{ name: 'paid', column: 'paid' }],
      measures: [{ name: 'n', aggregate: 'count' }],
    })
    expect(reason(request(byPaid))).toMatch(/no column paid of public.orders \(dimension paid\)/)
    const filtered: AppliedFilter = { table: 'public.orders', column: 'paid', value: true, source: 'dashboard' }
    expect(reason(request(byMonth, { filters: [filtered] }))).toMatch(/no column paid of public.orders/)
    const where = metric({ ...byMonth.query, where: [{ column: 'paid', operator: 'eq', values: [true] }] } as never)
    expect(reason(request(where))).toMatch(/no column paid/)
    const rls = { ...byMonth, rls: [{ variable: 'p', column: 'paid' }] } as Metric
    expect(reason(request(rls))).toMatch(/no column paid of public.orders \(the RLS column paid\)/)
    // the same RLS column kept by the rollup: served, the binding on the rollup's column
    const withPaid = orders({ dimensions: [...orders().dimensions, dim('paid', 'paid', 'public.orders', 'rls')] })
    expect(served(request(rls), [candidate(withPaid)]).metric.rls).toEqual([{ variable: 'p', column: 'paid' }])
  })

  it('refuses a measure the rollup does not keep, and an avg without its sum and count', () => {
    const hi = metric({ from: 'orders', measures: [{ name: 'hi', aggregate: 'max', column: 'amount' }] })
    expect(reason(request(hi))).toMatch(/no max of amount/)
    const avg = metric({ from: 'orders', measures: [{ name: 'a', aggregate: 'avg', column: 'amount' }] })
    const noCount = orders({ measures: orders().measures.filter((m) => m.name !== 'avg_amount__count') })
    expect(reason(request(avg), [candidate(noCount)])).toMatch(/no sum and count of amount/)
  })

  it('serves day buckets as weeks, never week buckets as months', () => {
    const byWeek = metric({
      ...byMonth.query,
      dimensions: [{ name: 'w', column: 'created_at', timeGrain: 'week' }],
    } as Metric['query'])
    expect(served(request(byWeek)).rollup.plan.name).toBe('orders_daily')
    const weekly = orders({ time: { ...(orders().time as NonNullable<RollupPlan['time']>), grain: 'week' } })
    expect(reason(request(byMonth), [candidate(weekly)])).toMatch(/a month grain is not made of week buckets/)
    const raw = metric({
      from: 'orders',
      dimensions: [{ name: 't', column: 'created_at' }],
      measures: [{ name: 'n', aggregate: 'count' }],
    })
    expect(reason(request(raw))).toMatch(/groups by created_at itself/)
  })

  it('serves a date range only when its bounds fall on the buckets', () => {
    expect(served(request(byMonth, { filters: [range('2024-01-01', '2024-02-29')] })).filters[0]).toMatchObject({
      table: 'main.rollup',
      column: 'created_at',
    })
    const monthly = orders({
      name: 'orders_monthly',
      time: { ...(orders().time as NonNullable<RollupPlan['time']>), grain: 'month' },
    })
    expect(
      served(request(byMonth, { filters: [range('2024-01-01', '2024-02-29')] }), [candidate(monthly)]),
    ).toBeTruthy()
    expect(reason(request(byMonth, { filters: [range('2024-01-10', '2024-02-29')] }), [candidate(monthly)])).toMatch(
      /does not fall on the rollup's month buckets/,
    )
    const preset: AppliedFilter = { ...range('2024-01-01', '2024-01-01'), value: 'Last 7 days' }
    expect(served(request(byMonth, { filters: [preset] })).rollup.plan.name).toBe('orders_daily')
    expect(reason(request(byMonth, { filters: [preset] }), [candidate(monthly)])).toMatch(/month buckets/)
    const equal: AppliedFilter = { ...range('2024-01-01', '2024-01-01'), value: '2024-01-01 10:00:00' }
    expect(reason(request(byMonth, { filters: [equal] }))).toMatch(/not a date range/)
  })

  it('serves only in the zone the buckets were made in, unless nothing depends on the zone', () => {
    expect(reason(request(byMonth, { timezone: 'Europe/Paris' }))).toMatch(/time zone Europe\/Paris is not UTC/)
    const byStatus = metric({
      from: 'orders',
      dimensions: [{ name: 's', column: 'status' }],
      measures: [{ name: 'n', aggregate: 'count' }],
    })
    expect(served(request(byStatus, { timezone: 'Europe/Paris' }))).toBeTruthy()
  })

  it('keeps a comparison only when its window falls on the buckets', () => {
    const kpi = metric(
      { from: 'orders', measures: [{ name: 'revenue', aggregate: 'sum', column: 'amount' }] },
      { comparison: { period: 'previous-year' } },
    )
    // no range: everything up to the end of the same day a year ago, on the first date column (created_at)
    expect(served(request(kpi)).model.tables.get('main.rollup')?.columns.keys().next().value).toBe('created_at')
    const weekly = orders({ time: { ...(orders().time as NonNullable<RollupPlan['time']>), grain: 'week' } })
    const weeks = range('2024-03-04', '2024-03-10')
    // a year before a Monday is not a Monday
    expect(
      reason(request({ ...kpi, comparison: { period: 'previous-year' } }, { filters: [weeks] }), [candidate(weekly)]),
    ).toMatch(/comparison's window does not fall on the rollup's week buckets/)
    expect(
      served(request({ ...kpi, comparison: { period: 'previous-period' } }, { filters: [weeks] }), [candidate(weekly)]),
    ).toBeTruthy()
  })

  it('keeps tenancy: the client column must be a rollup column; DATABASE tenancy reads the tenant database files only', () => {
    const noTenant = orders({ dimensions: [dim('status')] })
    expect(reason(request(byMonth), [candidate(noTenant)])).toMatch(/no column client_id \(the client column\)/)
    const perDb = candidate(noTenant, 10, [
      { tenant: 'acme', location: 'tenant=acme/2024-03.parquet' } as never,
      { tenant: 'globex', location: 'tenant=globex/2024-03.parquet' } as never,
    ])
    const read = served(request(byMonth, { tenancy: { kind: 'database', database: 'acme' } }), [perDb])
    expect(read.files).toEqual(['tenant=acme/2024-03.parquet'])
    expect(read.tenancy).toEqual({ kind: 'none' })
    expect(reason(request(byMonth, { tenancy: { kind: 'database', database: 'initech' } }), [perDb])).toMatch(
      /no files for the tenant/,
    )
    expect(reason(request(byMonth), [perDb])).toMatch(/kept per tenant database/)
    const viaTable: Tenancy = {
      kind: 'table',
      clientId: 'acme',
      tenancyTable: { table: 'public.tenants', clientNameColumn: 'name', primaryKeyColumn: 'id' },
    }
    expect(reason(request(byMonth, { tenancy: viaTable }))).toMatch(/tenancy table/)
    // an embed's own client column for the table
    const own: Tenancy = { kind: 'table', clientId: 'acme', clientColumns: new Map([['public.orders', 'status']]) }
    expect(served(request(byMonth, { tenancy: own })).model.tables.get('main.rollup')?.clientColumn).toBe('status')
  })

  it('refuses a joined table with its own client column and a rollup join that may repeat rows', () => {
    const withCustomer = orders({
      dimensions: [
        ...orders().dimensions,
        dim('customers.name', 'name', 'public.customers'),
        dim('public.customers.client_id', 'client_id', 'public.customers', 'tenant'),
      ],
    })
    const byCustomer = metric({
      from: 'orders',
      dimensions: [{ name: 'c', column: 'name', table: 'customers' }],
      measures: [{ name: 'n', aggregate: 'count' }],
    })
    expect(reason(request(byCustomer), [candidate(withCustomer)])).toMatch(
      /it joins public.customers \(LEFT\), a table with a client column of its own/,
    )
    // without tenancy the same metric is served; one not reading customers is not (no cardinality declared)
    expect(served(request(byCustomer, { tenancy: { kind: 'none' } }), [candidate(withCustomer)])).toBeTruthy()
    expect(reason(request(byMonth, { tenancy: { kind: 'none' } }), [candidate(withCustomer)])).toMatch(
      /joins public.customers, which could repeat or drop rows/,
    )
  })

  it('chooses the smallest matching rollup, and says when none is of the table', () => {
    const big = candidate(orders({ name: 'big' }), 1000)
    const small = candidate(orders({ name: 'small' }), 10)
    expect(served(request(byMonth), [big, small]).rollup.plan.name).toBe('small')
    const onCustomers = metric({ from: 'customers', measures: [{ name: 'n', aggregate: 'count' }] })
    expect(reason(request(onCustomers), [big])).toBe('no ready rollup of public.customers')
  })
})
