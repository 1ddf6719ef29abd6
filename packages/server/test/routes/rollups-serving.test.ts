/**
 * Metric queries served from rollups, end to end on a real PostgreSQL warehouse (SQLite store):
 * rollups built by the scheduler, then queries answered from their Parquet files by DuckDB in
 * the engine process (`servedFrom: "rollup"`), each answer equal to the warehouse's with serving
 * switched off, across tenants, filters, presets, grains, avg and comparisons; the requests a
 * rollup cannot answer exactly go to the warehouse; a rollup being rebuilt answers from its last
 * build, one never built or whose files cannot be read goes to the warehouse, never an error.
 */
import { rmSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RollupScheduler } from '../../src/services/rollups/scheduler.js'
import { ACCESS, type Analytics, embedDashboard, salesDocument, setupAnalytics } from '../helpers/analytics.js'
import { createTestApp, type TestContext } from '../helpers/app.js'
import { comparableResult } from '../helpers/rollups.js'
import { createPgWarehouse, type PgWarehouse } from '../helpers/warehouse.js'

let ctx: TestContext
let wh: PgWarehouse
let a: Analytics
let embedId: string

function servedDocument(schema: string) {
  const sales = salesDocument(schema)
  const orders = `${schema}.orders`
  return {
    ...sales,
    metrics: [
      ...sales.metrics,
      {
        metricId: 'avg_by_status',
        name: 'Average by status',
        chart: { type: 'bar', x: 'status', y: ['avg'] },
        query: {
          from: orders,
          measures: [
            { name: 'avg', aggregate: 'avg', column: 'amount' },
            { name: 'top', aggregate: 'max', column: 'amount' },
          ],
          dimensions: [{ name: 'status', column: 'status' }],
          orderBy: [{ name: 'status', direction: 'asc' }],
        },
      },
      {
        metricId: 'revenue_vs_last_month',
        name: 'Revenue vs last month',
        chart: { type: 'single-value', y: ['revenue'] },
        comparison: { period: 'previous-period' },
        query: { from: orders, measures: [{ name: 'revenue', aggregate: 'sum', column: 'amount' }] },
      },
      {
        metricId: 'orders_by_quarter',
        name: 'Orders by quarter',
        chart: { type: 'table' },
        query: {
          from: orders,
          measures: [{ name: 'orders', aggregate: 'count' }],
          dimensions: [
            { name: 'quarter', column: 'created_at', timeGrain: 'quarter' },
            { name: 'status', column: 'status' },
          ],
          orderBy: [
            { name: 'quarter', direction: 'asc' },
            { name: 'status', direction: 'asc' },
          ],
        },
      },
      {
        metricId: 'orders_rls',
        name: 'Orders (RLS on status)',
        chart: { type: 'line', x: 'month', y: ['orders'] },
        rls: [{ variable: 'statuses', column: 'status' }],
        query: {
          from: orders,
          measures: [{ name: 'orders', aggregate: 'count' }],
          dimensions: [{ name: 'month', column: 'created_at', timeGrain: 'month' }],
          orderBy: [{ name: 'month', direction: 'asc' }],
        },
      },
      {
        metricId: 'customers_reached',
        name: 'Customers reached',
        chart: { type: 'single-value', y: ['customers'] },
        query: { from: orders, measures: [{ name: 'customers', aggregate: 'count-distinct', column: 'customer_id' }] },
      },
    ],
    rollups: [
      {
        name: 'orders_daily',
        from: orders,
        time: { column: 'created_at', grain: 'day' },
        dimensions: ['status'],
        measures: [
          { name: 'revenue', aggregate: 'sum', column: 'amount' },
          { name: 'orders', aggregate: 'count' },
          { name: 'avg_amount', aggregate: 'avg', column: 'amount' },
          { name: 'top', aggregate: 'max', column: 'amount' },
        ],
      },
      {
        name: 'by_country_monthly',
        from: orders,
        time: { column: 'created_at', grain: 'month' },
        dimensions: ['status', `${schema}.customers.country`],
        measures: [
          { name: 'revenue', aggregate: 'sum', column: 'amount' },
          { name: 'orders', aggregate: 'count' },
        ],
      },
    ],
  }
}

type Result = {
  data: Record<string, unknown>[]
  totalRecords: number
  metaData: unknown
  comparisonValue?: number
  servedFrom: string
}

const query = async (body: object): Promise<Result> => {
  const res = await a.call('POST', '/api/v2/data-app/query', a.dataAppKey, { embedId, ...body })
  expect(res.statusCode, res.body).toBe(200)
  return res.json()
}

const same = (r: Result) => comparableResult(r)

/** The request answered with serving on, then with it off: where each came from, and both answers. */
async function both(body: object): Promise<{ served: Result; warehouse: Result }> {
  const service = ctx.app.services.metricQueries
  const served = await query(body)
  service.serveRollups = false
  try {
    const warehouse = await query(body)
    return { served, warehouse }
  } finally {
    service.serveRollups = true
  }
}

beforeAll(async () => {
  wh = await createPgWarehouse()
  ctx = await createTestApp('sqlite', { ROLLUP_POLL_INTERVAL_MS: '0' })
  a = await setupAnalytics(ctx.app, wh)
  const imported = await a.call('POST', '/api/v2/data-app/import-dashboard', a.serviceToken, {
    workspaceName: 'main',
    dashboardId: 'served',
    importDashboardData: servedDocument(wh.schema),
  })
  expect(imported.statusCode, imported.body).toBe(200)
  embedId = await embedDashboard(a, 'served')
}, 120_000)

afterAll(async () => {
  await ctx?.close()
  await wh?.drop()
})

describe('before the rollups are built', () => {
  it('the warehouse answers', async () => {
    const r = await query({ metricId: 'orders_by_month', clientId: 'acme' })
    expect(r.servedFrom).toBe('warehouse')
    expect((await query({ metricId: 'orders_by_month', clientId: 'acme' })).servedFrom).toBe('cache')
  })
})

describe('served from rollups', () => {
  beforeAll(async () => {
    const scheduler = new RollupScheduler(ctx.app.services.store, ctx.app.services.rollups, {
      pollMs: 1000,
      leaseMs: 60_000,
    })
    const built = await scheduler.tick(new Date(Date.now() + 5_000))
    expect(built.sort()).toEqual(['by_country_monthly', 'orders_daily'])
  }, 120_000)

  const cases: [string, object][] = [
    ['a count by month, from day buckets', { metricId: 'orders_by_month' }],
    ['a count by quarter and status', { metricId: 'orders_by_quarter' }],
    ['a sum with no dimension', { metricId: 'revenue' }],
    ['a joined dimension (INNER, its client column kept)', { metricId: 'revenue_by_country' }],
    ['avg and max by status', { metricId: 'avg_by_status' }],
    ['a comparison without a date range', { metricId: 'revenue_vs_last_month' }],
    ['an end user status filter', { metricId: 'revenue_by_country', dashboardFilter: { status: ['paid', 'shipped'] } }],
    [
      'a date range on day buckets',
      { metricId: 'orders_by_month', dashboardFilter: { period: { startDate: '2026-02-10', endDate: '2026-05-20' } } },
    ],
    [
      'a date range with a comparison',
      {
        metricId: 'revenue_vs_last_month',
        dashboardFilter: { period: { startDate: '2026-03-01', endDate: '2026-03-31' } },
      },
    ],
    [
      'a preset with no rows (SUM is null, count 0)',
      { metricId: 'revenue', dashboardFilter: { period: 'Last 7 days' } },
    ],
    ['a preset with no rows, counted', { metricId: 'orders_by_month', dashboardFilter: { period: 'Last 7 days' } }],
  ]
  for (const tenant of ['acme', 'globex']) {
    for (const [name, body] of cases) {
      it(`${tenant}: ${name}: equal to the warehouse`, async () => {
        const { served, warehouse } = await both({ ...body, clientId: tenant })
        expect(served.servedFrom).toBe('rollup')
        expect(warehouse.servedFrom).not.toBe('rollup')
        expect(same(served)).toEqual(same(warehouse))
      })
    }
  }

  it('answers a tenant only its own rows', async () => {
    const acme = await query({ metricId: 'revenue', clientId: 'acme' })
    const globex = await query({ metricId: 'revenue', clientId: 'globex' })
    for (const [tenant, r] of [
      ['acme', acme],
      ['globex', globex],
    ] as const) {
      const [row] = await wh.query<{ s: string }>(`select sum(amount) s from ${wh.schema}.orders where tenant = $1`, [
        tenant,
      ])
      expect(r.servedFrom).toMatch(/rollup|cache/)
      expect(Number(r.data[0]?.revenue)).toBeCloseTo(Number(row?.s), 6)
    }
    const nobody = await query({ metricId: 'revenue', clientId: 'nobody' })
    expect(nobody.data).toEqual([{ revenue: null }])
  })

  const warehouseOnly: [string, object][] = [
    ['a distinct count', { metricId: 'customers_reached' }],
    [
      'a filter on a column no rollup keeps',
      { metricId: 'revenue', dashboardFilter: { amount: { min: 20, max: 80 } } },
    ],
    [
      'a date range off the month buckets, on a metric only the monthly rollup could serve',
      {
        metricId: 'revenue_by_country',
        dashboardFilter: { period: { startDate: '2026-02-10', endDate: '2026-05-20' } },
      },
    ],
  ]
  for (const [name, body] of warehouseOnly) {
    it(`${name}: the warehouse answers`, async () => {
      const { served, warehouse } = await both({ ...body, clientId: 'acme' })
      expect(served.servedFrom).not.toBe('rollup')
      expect(same(served)).toEqual(same(warehouse))
    })
  }

  it('the runtime (guest token): RLS values land on the rollup; an end user’s own metric that fits is served too', async () => {
    const runtimeEmbed = await embedDashboard(a, 'served', {
      name: 'Served self-serve',
      accessSettings: { ...ACCESS, isAllowMetricCreation: true },
    })
    const mint = async (clientId: string, statuses: string[]) =>
      (
        await a.ok('POST', '/api/v2/guest-token/create', a.dataAppKey, {
          dataAppName: 'salesapp',
          clientId,
          params: { rlsSettings: [{ metricId: 'orders_rls', values: { statuses } }] },
        })
      ).token as string
    const call = (token: string, path: string, body: object) =>
      a.call('POST', `/api/v2/embed/runtime/${runtimeEmbed}${path}`, token, body)
    const runtime = async (token: string, body: object): Promise<{ served: Result; warehouse: Result }> => {
      const service = ctx.app.services.metricQueries
      const first = await call(token, '/query', body)
      expect(first.statusCode, first.body).toBe(200)
      service.serveRollups = false
      try {
        const second = await call(token, '/query', body)
        expect(second.statusCode, second.body).toBe(200)
        return { served: first.json(), warehouse: second.json() }
      } finally {
        service.serveRollups = true
      }
    }
    for (const [tenant, statuses] of [
      ['acme', ['paid']],
      ['globex', ['shipped', 'refunded']],
    ] as const) {
      const token = await mint(tenant, [...statuses])
      const rls = await runtime(token, { metricId: 'orders_rls' })
      expect(rls.served.servedFrom).toBe('rollup')
      expect(same(rls.served)).toEqual(same(rls.warehouse))
      const [row] = await wh.query<{ n: string }>(
        `select count(*) n from ${wh.schema}.orders where tenant = $1 and status = any($2)`,
        [tenant, statuses],
      )
      expect(rls.served.data.reduce((n, r) => n + Number(r.orders), 0)).toBe(Number(row?.n))
      // an end user's own metric (self-serve) that fits a rollup
      const saved = await call(token, '/metrics', {
        metric: {
          name: `Mine ${tenant}`,
          chart: { type: 'bar' },
          query: {
            from: `${wh.schema}.orders`,
            measures: [{ name: 'orders', aggregate: 'count' }],
            dimensions: [{ name: 'status', column: 'status' }],
            orderBy: [{ name: 'status', direction: 'asc' }],
          },
        },
      })
      expect(saved.statusCode, saved.body).toBe(200)
      const own = await runtime(token, { metricId: saved.json().data.metricId })
      expect(own.served.servedFrom).toBe('rollup')
      expect(same(own.served)).toEqual(same(own.warehouse))
    }
  })

  it('a rollup being rebuilt answers from its last build; one never built goes to the warehouse', async () => {
    const dashboard = await ctx.app.services.store.db
      .selectFrom('dashboards')
      .select('id')
      .where('dashboard_id', '=', 'served')
      .executeTakeFirstOrThrow()
    const db = ctx.app.services.store.db
    const rows = await db.selectFrom('rollups').select(['name', 'state', 'built_fingerprint']).execute()
    const restore = async () => {
      for (const r of rows) {
        await db
          .updateTable('rollups')
          .set({ state: r.state, built_fingerprint: r.built_fingerprint })
          .where('name', '=', r.name)
          .execute()
      }
      await ctx.app.services.bus.publish({ kind: 'rollup', dashboardRowId: dashboard.id })
    }
    try {
      await db.updateTable('rollups').set({ state: 'building' }).execute()
      await ctx.app.services.bus.publish({ kind: 'rollup', dashboardRowId: dashboard.id })
      const rebuilding = await both({
        metricId: 'avg_by_status',
        clientId: 'initech',
        dashboardFilter: { status: ['paid'] },
      })
      expect(rebuilding.served.servedFrom).toBe('rollup')
      expect(same(rebuilding.served)).toEqual(same(rebuilding.warehouse))

      await db.updateTable('rollups').set({ built_fingerprint: null }).execute()
      await ctx.app.services.bus.publish({ kind: 'rollup', dashboardRowId: dashboard.id })
      const first = await query({
        metricId: 'avg_by_status',
        clientId: 'initech',
        dashboardFilter: { status: ['shipped'] },
      })
      expect(first.servedFrom).toBe('warehouse')
    } finally {
      await restore()
    }
  })

  it('a rollup whose files cannot be read falls back to the warehouse, never an error', async () => {
    const row = await ctx.app.services.store.db
      .selectFrom('rollups')
      .select(['partitions'])
      .where('name', '=', 'orders_daily')
      .executeTakeFirstOrThrow()
    const files = JSON.parse(row.partitions) as { location: string }[]
    const storage = ctx.app.services.rollups.storage as unknown as { pathOf(l: string): string }
    for (const f of files) rmSync(storage.pathOf(f.location), { force: true })
    const r = await query({ metricId: 'orders_by_month', clientId: 'initech' })
    expect(r.servedFrom).toBe('warehouse')
    expect(r.data.length).toBeGreaterThan(0)
  })
})
