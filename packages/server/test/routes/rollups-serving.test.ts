/**
 * Metric queries served from rollups, end to end on every live SQL engine here (SQLite store):
 * PostgreSQL, MariaDB (a `mysql` datasource), ClickHouse (chdb behind its HTTP front, a
 * `clickhouse` datasource) and DuckDB (CSV files of a `csv` datasource), each holding the same
 * orders and customers. Rollups are built by the scheduler (once per engine for the whole file),
 * then queries are answered from their Parquet files by DuckDB in the engine process
 * (`servedFrom: "rollup"`), each answer equal to that engine's own with serving switched off,
 * across tenants, filters, presets, grains (day → week, month, quarter; hour → hour, day), avg
 * and comparisons; the requests a rollup cannot answer exactly go to the warehouse, with the
 * reason logged. On PostgreSQL also: the runtime (RLS, an end user's own metric), a rollup being
 * rebuilt answers from its last build, one never built or whose files cannot be read goes to the
 * warehouse, never an error.
 */
import { rmSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ACCESS, type Analytics, embedDashboard, salesDocument, setupAnalytics } from '../helpers/analytics.js'
import { createTestApp, type TestContext } from '../helpers/app.js'
import {
  buildDueRollups,
  type EngineSources,
  engineSources,
  importAndEmbed,
  type RollupEngine,
  rollupEngines,
} from '../helpers/rollup-engines.js'
import { comparableResult, dashboardRow, ordersMetric } from '../helpers/rollups.js'
import { createPgWarehouse, type PgWarehouse } from '../helpers/warehouse.js'
import { loadWarehouse, type Warehouse } from '../reliability/ground-truth.js'

const ENGINES = await rollupEngines('rollup serving on ClickHouse (chdb)')

let ctx: TestContext
let wh: PgWarehouse
let a: Analytics
let sources: EngineSources
let data: Warehouse
const embeds = new Map<RollupEngine, string>()

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
        metricId: 'avg_by_month',
        name: 'Average by month',
        chart: { type: 'line', x: 'month', y: ['avg'] },
        query: {
          from: orders,
          measures: [{ name: 'avg', aggregate: 'avg', column: 'amount' }],
          dimensions: [{ name: 'month', column: 'created_at', timeGrain: 'month' }],
          orderBy: [{ name: 'month', direction: 'asc' }],
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
      ordersMetric.ordersByWeek(orders),
      {
        metricId: 'orders_by_hour',
        name: 'Orders by hour',
        chart: { type: 'line', x: 'hour', y: ['orders'] },
        query: {
          from: orders,
          measures: [{ name: 'orders', aggregate: 'count' }],
          dimensions: [{ name: 'hour', column: 'created_at', timeGrain: 'hour' }],
          orderBy: [{ name: 'hour', direction: 'asc' }],
        },
      },
      {
        // only the hourly rollup keeps the smallest amount: a day grain answered from hour buckets
        metricId: 'smallest_by_day',
        name: 'Smallest order by day',
        chart: { type: 'line', x: 'day', y: ['smallest'] },
        query: {
          from: orders,
          measures: [{ name: 'smallest', aggregate: 'min', column: 'amount' }],
          dimensions: [{ name: 'day', column: 'created_at', timeGrain: 'day' }],
          orderBy: [{ name: 'day', direction: 'asc' }],
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
        name: 'hourly',
        from: orders,
        time: { column: 'created_at', grain: 'hour' },
        dimensions: ['status'],
        measures: [
          { name: 'orders', aggregate: 'count' },
          { name: 'smallest', aggregate: 'min', column: 'amount' },
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

const query = async (engine: RollupEngine, body: object): Promise<Result> => {
  const res = await a.call('POST', '/api/v2/data-app/query', a.dataAppKey, { embedId: embeds.get(engine), ...body })
  expect(res.statusCode, res.body).toBe(200)
  return res.json()
}

const same = (r: Result) => comparableResult(r)

/** The request answered with serving on, then with it off: where each came from, and both answers. */
async function both(engine: RollupEngine, body: object): Promise<{ served: Result; warehouse: Result }> {
  const service = ctx.app.services.metricQueries
  const served = await query(engine, body)
  service.serveRollups = false
  try {
    const warehouse = await query(engine, body)
    return { served, warehouse }
  } finally {
    service.serveRollups = true
  }
}

beforeAll(async () => {
  wh = await createPgWarehouse()
  data = await loadWarehouse(wh)
  // every engine's cases through one data app key: above the default global rate limit
  ctx = await createTestApp('sqlite', { ROLLUP_POLL_INTERVAL_MS: '0', LOG_LEVEL: 'debug', RATE_LIMIT: '100000' })
  a = await setupAnalytics(ctx.app, wh)
  sources = await engineSources(ctx, a, wh, ENGINES)
  for (const engine of ENGINES) {
    const source = sources.source(engine)
    embeds.set(engine, await importAndEmbed(a, source, 'served', servedDocument(source.schema)))
  }
}, 180_000)

afterAll(async () => {
  await ctx?.close()
  await sources?.close()
  await wh?.drop()
})

describe('before the rollups are built', () => {
  it.each(ENGINES)('%s: the warehouse answers', async (engine) => {
    const r = await query(engine, { metricId: 'orders_by_month', clientId: 'acme' })
    expect(r.servedFrom).toBe('warehouse')
    expect((await query(engine, { metricId: 'orders_by_month', clientId: 'acme' })).servedFrom).toBe('cache')
  })
})

describe('served from rollups', () => {
  beforeAll(async () => {
    const built = await buildDueRollups(ctx)
    expect(built).toEqual(ENGINES.flatMap(() => ['by_country_monthly', 'hourly', 'orders_daily']).sort())
    const list = (await a.ok('GET', '/api/v2/data-app/rollups', a.serviceToken)).data as Record<string, unknown>[]
    for (const r of list) expect(r, JSON.stringify(r)).toMatchObject({ state: 'ready', lastError: null })
  }, 180_000)

  /** Engines whose text comparisons follow a collation that folds case (MariaDB): a text filter goes to the warehouse. */
  const FOLDING: readonly RollupEngine[] = ['mariadb']
  const cases: [string, object][] = [
    ['a count by month, from day buckets', { metricId: 'orders_by_month' }],
    ['a count by week, from day buckets', { metricId: 'orders_by_week' }],
    ['a count by quarter and status', { metricId: 'orders_by_quarter' }],
    ['a count by hour, from hour buckets', { metricId: 'orders_by_hour' }],
    ['a min by day, from hour buckets', { metricId: 'smallest_by_day' }],
    ['a sum with no dimension', { metricId: 'revenue' }],
    ['a joined dimension (INNER, its client column kept)', { metricId: 'revenue_by_country' }],
    ['avg and max by status', { metricId: 'avg_by_status' }],
    ['an avg by month (fractional averages)', { metricId: 'avg_by_month' }],
    ['a comparison without a date range', { metricId: 'revenue_vs_last_month' }],
    ['an end user status filter', { metricId: 'revenue_by_country', dashboardFilter: { status: ['paid', 'shipped'] } }],
    [
      'a date range on day buckets',
      { metricId: 'orders_by_month', dashboardFilter: { period: { startDate: '2026-02-10', endDate: '2026-05-20' } } },
    ],
    [
      'a date range on hour buckets, by hour',
      { metricId: 'orders_by_hour', dashboardFilter: { period: { startDate: '2026-03-02', endDate: '2026-03-08' } } },
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
    ['a preset with rows', { metricId: 'avg_by_status', dashboardFilter: { period: 'This year' } }],
  ]

  const warehouseOnly: [string, object, RegExp][] = [
    ['a distinct count', { metricId: 'customers_reached' }, /count-distinct does not re-aggregate/],
    [
      'a filter on a column no rollup keeps',
      { metricId: 'revenue', dashboardFilter: { amount: { min: 20, max: 80 } } },
      /no column amount/,
    ],
    [
      'a date range off the month buckets, on a metric only the monthly rollup could serve',
      {
        metricId: 'revenue_by_country',
        dashboardFilter: { period: { startDate: '2026-02-10', endDate: '2026-05-20' } },
      },
      /by_country_monthly: the date range on created_at does not fall on the rollup's month buckets/,
    ],
  ]

  describe.each(ENGINES)('on %s', (engine) => {
    for (const tenant of ['acme', 'globex']) {
      for (const [name, body] of cases) {
        const folded =
          FOLDING.includes(engine) && 'dashboardFilter' in body && 'status' in (body.dashboardFilter as object)
        it(`${tenant}: ${name}: equal to the warehouse${folded ? ', which answers (text by collation)' : ''}`, async () => {
          const since = ctx.logs.length
          const { served, warehouse } = await both(engine, { ...body, clientId: tenant })
          if (folded) {
            expect(served.servedFrom).not.toBe('rollup')
            const said = ctx.logs.slice(since).map((l) => String(l.msg))
            expect(said.join('\n')).toMatch(
              /filter status compares text, which the mysql warehouse compares by its collation/,
            )
          } else expect(served.servedFrom).toBe('rollup')
          expect(warehouse.servedFrom).not.toBe('rollup')
          expect(same(served)).toEqual(same(warehouse))
        })
      }
    }

    it('answers a tenant only its own rows', async () => {
      for (const tenant of ['acme', 'globex']) {
        const r = await query(engine, { metricId: 'revenue', clientId: tenant })
        const own = data.orders
          .filter((o) => o.tenant === tenant && o.customerTenant === tenant)
          .reduce((s, o) => s + o.amount, 0)
        expect(r.servedFrom).toMatch(/rollup|cache/)
        expect(Number(r.data[0]?.revenue)).toBeCloseTo(own, 6)
      }
      const nobody = await query(engine, { metricId: 'revenue', clientId: 'nobody' })
      expect(nobody.data).toEqual([{ revenue: null }])
    })

    for (const [name, body, reason] of warehouseOnly) {
      it(`${name}: the warehouse answers, and the log says why`, async () => {
        const since = ctx.logs.length
        const { served, warehouse } = await both(engine, { ...body, clientId: 'acme' })
        expect(served.servedFrom).not.toBe('rollup')
        expect(same(served)).toEqual(same(warehouse))
        const said = ctx.logs
          .slice(since)
          .map((l) => String(l.msg))
          .filter((m) => m.startsWith('warehouse: '))
        expect(said.join('\n')).toMatch(reason)
      })
    }
  })

  describe('on postgres: the runtime and the lifecycle', () => {
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
      const dashboard = await dashboardRow(ctx.app, 'served', 'main')
      const db = ctx.app.services.store.db
      const mine = () => db.updateTable('rollups').where('dashboard_row_id', '=', dashboard.id)
      const rows = await db
        .selectFrom('rollups')
        .select(['name', 'state', 'built_fingerprint'])
        .where('dashboard_row_id', '=', dashboard.id)
        .execute()
      const restore = async () => {
        for (const r of rows) {
          await mine()
            .set({ state: r.state, built_fingerprint: r.built_fingerprint })
            .where('name', '=', r.name)
            .execute()
        }
        await ctx.app.services.bus.publish({ kind: 'rollup', dashboardRowId: dashboard.id })
      }
      try {
        await mine().set({ state: 'building' }).execute()
        await ctx.app.services.bus.publish({ kind: 'rollup', dashboardRowId: dashboard.id })
        const rebuilding = await both('postgres', {
          metricId: 'avg_by_status',
          clientId: 'initech',
          dashboardFilter: { status: ['paid'] },
        })
        expect(rebuilding.served.servedFrom).toBe('rollup')
        expect(same(rebuilding.served)).toEqual(same(rebuilding.warehouse))

        await mine().set({ built_fingerprint: null }).execute()
        await ctx.app.services.bus.publish({ kind: 'rollup', dashboardRowId: dashboard.id })
        const first = await query('postgres', {
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
      // the files of both rollups a count by month fits (days and hours)
      const rows = await ctx.app.services.store.db
        .selectFrom('rollups')
        .select(['partitions'])
        .where('name', 'in', ['orders_daily', 'hourly'])
        .where('dashboard_row_id', '=', (await dashboardRow(ctx.app, 'served', 'main')).id)
        .execute()
      expect(rows).toHaveLength(2)
      const storage = ctx.app.services.rollups.storage as unknown as { pathOf(l: string): string }
      for (const row of rows) {
        for (const f of JSON.parse(row.partitions) as { location: string }[]) {
          rmSync(storage.pathOf(f.location), { force: true })
        }
      }
      const r = await query('postgres', { metricId: 'orders_by_month', clientId: 'initech' })
      expect(r.servedFrom).toBe('warehouse')
      expect(r.data.length).toBeGreaterThan(0)
    })
  })
})
