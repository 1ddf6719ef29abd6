/**
 * A rollup built through the mssql connector against the SQL Server stand-in
 * (src/connectors/mssql/standin: TDS from [MS-TDS], executing on the local PostgreSQL through a
 * translation of the T-SQL our dialect emits). The scheduler builds it with the mssql dialect's
 * GROUP BY (CAST(… AS date) day buckets, the tenant column kept); numeric, date-range and preset
 * queries are then served from its files (`servedFrom: "rollup"`), each equal to the stand-in's
 * own answer with serving off (a week, a month and a quarter made of day buckets included). A
 * text filter is never served: SQL Server compares text by a collation that ignores case and
 * trailing spaces (`foldsText`), so the warehouse answers and the reason is logged at debug. The
 * stand-in compares text in binary, so it proves the routing, not SQL Server's collations.
 */
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MssqlStandIn } from '../../src/connectors/mssql/standin/server.js'
import { ACCESS } from '../helpers/analytics.js'
import { createTestApp, type TestContext } from '../helpers/app.js'
import { bearer, bootstrap } from '../helpers/bootstrap.js'
import { buildDueRollups } from '../helpers/rollup-engines.js'
import { comparableResult, filesOf, ordersMetric, rollupDir } from '../helpers/rollups.js'
import { requireService, withPostgres } from '../helpers/services.js'

const up = await requireService('PostgreSQL', '127.0.0.1', 5432)
const schema = `strata_rmssql_${randomBytes(4).toString('hex')}`
const TENANTS = ['acme', 'globex'] as const

const admin = (text: string, values: unknown[] = []) => withPostgres((c) => c.query(text, values))

/** 150 orders of two tenants over January to June 2026 (every 29 hours), four statuses each (one NULL). */
const ORDERS = Array.from({ length: 150 }, (_, i) => [
  i + 1,
  TENANTS[i % 2] as string,
  (['paid', 'shipped', 'refunded', null] as const)[Math.floor(i / 2) % 4] ?? null,
  (((i * 37) % 500) + 0.25 * (i % 4) + 0.5).toFixed(2),
  new Date(Date.UTC(2026, 0, 1) + i * 29 * 3_600_000).toISOString().replace('T', ' ').slice(0, 19),
])

const orders = 'dbo.orders'
const document = {
  name: 'Orders on SQL Server',
  filters: [
    { name: 'period', label: 'Order date', type: 'date-range', table: orders, column: 'created_at' },
    { name: 'status', label: 'Status', type: 'multi-select', table: orders, column: 'status' },
  ],
  layout: [],
  metrics: [
    ordersMetric.revenueByMonth(orders),
    ordersMetric.revenue(orders),
    {
      metricId: 'by_status',
      name: 'Orders by status',
      chart: { type: 'table' },
      query: {
        from: orders,
        measures: [
          { name: 'orders', aggregate: 'count' },
          { name: 'low', aggregate: 'min', column: 'amount' },
          { name: 'high', aggregate: 'max', column: 'amount' },
        ],
        dimensions: [{ name: 'status', column: 'status' }],
        orderBy: [{ name: 'status', direction: 'asc' }],
      },
    },
    ordersMetric.ordersByWeek(orders),
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
          { name: 'status', direction: 'desc' },
        ],
      },
    },
  ],
  rollups: [
    {
      name: 'daily',
      from: orders,
      time: { column: 'created_at', grain: 'day' },
      dimensions: ['status'],
      measures: [
        { name: 'revenue', aggregate: 'sum', column: 'amount' },
        { name: 'orders', aggregate: 'count' },
        { name: 'avg', aggregate: 'avg', column: 'amount' },
        { name: 'low', aggregate: 'min', column: 'amount' },
        { name: 'high', aggregate: 'max', column: 'amount' },
      ],
    },
  ],
}

type Result = { data: Record<string, unknown>[]; totalRecords: number; servedFrom: string }

describe.skipIf(!up)('a rollup built through the mssql connector against the SQL Server stand-in', () => {
  let standIn: MssqlStandIn
  let ctx: TestContext
  let serviceToken: string
  let dataAppKey: string
  let embedId: string

  const call = (method: 'GET' | 'POST', url: string, token: string, payload?: object) =>
    ctx.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) })
  const ok = async (method: 'GET' | 'POST', url: string, token: string, payload?: object) => {
    const res = await call(method, url, token, payload)
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(200)
    return res.json()
  }

  async function query(clientId: string, body: object, serve: boolean): Promise<Result> {
    const service = ctx.app.services.metricQueries
    service.serveRollups = serve
    try {
      const res = await call('POST', '/api/v2/data-app/query', dataAppKey, { embedId, clientId, ...body })
      expect(res.statusCode, res.body).toBe(200)
      return res.json() as Result
    } finally {
      service.serveRollups = true
    }
  }

  beforeAll(async () => {
    await admin(`CREATE SCHEMA ${schema}`)
    await admin(`CREATE TABLE ${schema}.orders (id int NOT NULL, client_id varchar(20) NOT NULL, status varchar(20),
      amount numeric(10, 2) NOT NULL, created_at timestamp NOT NULL)`)
    await admin(
      `INSERT INTO ${schema}.orders SELECT * FROM unnest($1::int[], $2::text[], $3::text[], $4::numeric[], $5::timestamp[])`,
      [0, 1, 2, 3, 4].map((c) => ORDERS.map((o) => o[c])),
    )
    standIn = new MssqlStandIn({
      logins: { reader: 'Reader-Passw0rd' },
      databases: { sales: schema },
      defaultDatabase: 'sales',
      encryption: 'unsupported',
    })
    await standIn.start()
    ctx = await createTestApp('sqlite', { ROLLUP_POLL_INTERVAL_MS: '0', RESULT_CACHE_TTL_MS: '0', LOG_LEVEL: 'debug' })
    const creds = await bootstrap(ctx.app)
    serviceToken = creds.serviceToken
    dataAppKey = creds.dataAppKey
    await ok('POST', '/api/v2/datasource', serviceToken, {
      datasourceType: 'mssql',
      credentials: {
        name: 'sqlserver',
        server: '127.0.0.1',
        port: standIn.port,
        user: 'reader',
        password: 'Reader-Passw0rd',
        database: 'sales',
        tlsMode: 'off',
      },
    })
    await ok('POST', '/api/v2/data-app/datamarts', serviceToken, {
      name: 'sqlserver',
      datasourceName: 'sqlserver',
      tableList: [{ schemaName: 'dbo', name: 'orders', clientColumn: 'client_id' }],
    })
    await ok('POST', '/api/v2/workspace', serviceToken, {
      name: 'sqlserver',
      connectionType: 'DATAMART',
      datamartName: 'sqlserver',
    })
    await ok('POST', '/api/v2/data-app/import-dashboard', serviceToken, {
      workspaceName: 'sqlserver',
      dashboardId: 'orders',
      importDashboardData: document,
    })
    embedId = (
      await ok('POST', '/api/v2/data-app/embeds', dataAppKey, {
        dashboardId: 'orders',
        embedType: 'dashboard',
        workspaceName: 'sqlserver',
        name: 'Orders',
        accessSettings: { ...ACCESS, datamartName: 'sqlserver' },
      })
    ).id as string
    expect(await buildDueRollups(ctx)).toEqual(['daily'])
  }, 120_000)

  afterAll(async () => {
    await ctx?.close()
    await standIn?.close()
    await admin(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
  })

  it("is built through the connector with the dialect's GROUP BY: ready, a file per month", async () => {
    const rows = await ok('GET', '/api/v2/data-app/rollups?workspaceName=sqlserver&dashboardId=orders', serviceToken)
    expect(rows.data[0], JSON.stringify(rows.data)).toMatchObject({ name: 'daily', state: 'ready', lastError: null })
    const dir = await rollupDir(ctx.app, ctx.config.dataDir, 'orders', 'daily', 'sqlserver')
    expect(filesOf(dir).map((f) => f.slice(dir.length + 1))).toEqual(
      ['01', '02', '03', '04', '05', '06'].map((m) => `2026-${m}.parquet`),
    )
    // the build's statement went over TDS: day buckets by CAST(… AS date), every tenant's groups
    const build = standIn.log.statements.find((s) => s.includes('GROUP BY') && s.includes('[c0]'))
    expect(build).toMatch(/^SELECT CAST\(\[t0\]\.\[created_at\] AS date\) AS \[c0\]/)
  })

  const served: [string, object][] = [
    ['a sum, count and avg by month, from day buckets', { metricId: 'revenue_by_month' }],
    ['a sum', { metricId: 'revenue' }],
    ['a count, min and max by status (a NULL group first)', { metricId: 'by_status' }],
    ['a count by week, from day buckets', { metricId: 'orders_by_week' }],
    ['a count by quarter and status, descending', { metricId: 'orders_by_quarter' }],
    [
      'a date range on day buckets',
      { metricId: 'revenue_by_month', dashboardFilter: { period: { startDate: '2026-02-10', endDate: '2026-05-20' } } },
    ],
    ['a preset with rows', { metricId: 'by_status', dashboardFilter: { period: 'This year' } }],
    ['a preset with no rows (SUM is null)', { metricId: 'revenue', dashboardFilter: { period: 'Last 7 days' } }],
  ]
  for (const tenant of TENANTS) {
    for (const [name, body] of served) {
      it(`${tenant}: ${name}: served from the rollup, equal to the stand-in's answer`, async () => {
        const fromRollup = await query(tenant, body, true)
        const fromStandIn = await query(tenant, body, false)
        expect(fromRollup.servedFrom, JSON.stringify(ctx.logs.slice(-3))).toBe('rollup')
        expect(fromStandIn.servedFrom).toBe('warehouse')
        expect(fromRollup.data.length).toBeGreaterThan(0)
        expect(comparableResult(fromRollup)).toEqual(comparableResult(fromStandIn))
      })
    }
  }

  it('a text filter is answered by the warehouse (SQL Server compares text by its collation), the reason at debug', async () => {
    const body = { metricId: 'revenue_by_month', dashboardFilter: { status: ['paid'] } }
    const since = ctx.logs.length
    const answer = await query('acme', body, true)
    expect(answer.servedFrom).toBe('warehouse')
    const reasons = ctx.logs.slice(since).filter((l) => /warehouse: /.test(String(l.msg)))
    expect(reasons.map((l) => l.level)).toContain(20)
    expect(reasons.map((l) => String(l.msg)).join('\n')).toMatch(
      /daily: filter status compares text, which the mssql warehouse compares by its collation/,
    )
    const direct = await query('acme', body, false)
    expect(comparableResult(answer)).toEqual(comparableResult(direct))
    expect(answer.data.length).toBeGreaterThan(0)
  })
})
