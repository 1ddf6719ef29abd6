/**
 * Rollups built through the elasticsearch and mongodb connectors, against their stand-ins
 * (src/connectors/elasticsearch/standin, src/connectors/mongodb/standin: the vendors' protocols
 * over mingo). The build's GROUP BY is the dialect's one request (a composite aggregation with a
 * date_histogram source; an aggregation pipeline with $group); the scheduler builds the rollup
 * and its Parquet files, read back, must equal the stand-in's own answer to the same metric
 * query per tenant (asked with serving off). Then metric queries are served from the rollup
 * (`servedFrom: "rollup"`), each answer equal to the stand-in's.
 */
import { DuckDBInstance } from '@duckdb/node-api'
import { ObjectId } from 'bson'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SearchStandIn } from '../../src/connectors/elasticsearch/standin/server.js'
import { MongoStandIn } from '../../src/connectors/mongodb/standin/server.js'
import type { RollupPartition } from '../../src/services/rollups/builder.js'
import { RollupScheduler } from '../../src/services/rollups/scheduler.js'
import { ACCESS } from '../helpers/analytics.js'
import { createTestApp, type TestContext } from '../helpers/app.js'
import { bearer, bootstrap } from '../helpers/bootstrap.js'
import { comparableResult, readParquet, rollupDir } from '../helpers/rollups.js'

const TENANTS = ['acme', 'globex', 'initech'] as const
const STATUSES = ['paid', 'shipped', 'refunded', null] as const

/** 90 orders over January to June 2026, three tenants, four statuses (one missing: a NULL group). */
const ORDERS = Array.from({ length: 90 }, (_, i) => ({
  id: i + 1,
  client_id: TENANTS[i % 3] as string,
  status: STATUSES[i % 4] ?? null,
  amount: Math.round(((i * 37) % 500) + 0.25 * (i % 4)) + 0.5,
  created_at: new Date(Date.UTC(2026, Math.floor(i / 15), 1 + ((i * 7) % 27), (i * 5) % 24, 0, 0)),
}))

let ctx: TestContext
let duck: DuckDBInstance
let serviceToken: string
let dataAppKey: string
let search: SearchStandIn
let mongo: MongoStandIn

const call = (method: 'GET' | 'POST' | 'DELETE', url: string, token: string, payload?: object) =>
  ctx.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) })

async function ok(method: 'GET' | 'POST' | 'DELETE', url: string, token: string, payload?: object) {
  const res = await call(method, url, token, payload)
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(200)
  return res.json()
}

interface Target {
  readonly name: 'search' | 'mongo'
  /** `from` of the metrics and the rollup: the table as the datamart names it. */
  readonly from: string
  /** The table's schema in the datamart: none for an index (omitted from the request). */
  readonly schema: string | undefined
  embedId?: string
}

const TARGETS: Target[] = [
  // an index is a table without a schema (the cluster has no schemas)
  { name: 'search', from: 'orders', schema: undefined },
  { name: 'mongo', from: 'shop.orders', schema: 'shop' },
]

const document = (from: string) => ({
  name: 'Orders',
  layout: [],
  metrics: [
    {
      metricId: 'by_month_status',
      name: 'Orders by month and status',
      chart: { type: 'table' },
      query: {
        from,
        measures: [
          { name: 'orders', aggregate: 'count' },
          { name: 'revenue', aggregate: 'sum', column: 'amount' },
          { name: 'low', aggregate: 'min', column: 'amount' },
          { name: 'high', aggregate: 'max', column: 'amount' },
        ],
        dimensions: [
          { name: 'month', column: 'created_at', timeGrain: 'month' },
          { name: 'status', column: 'status' },
        ],
        orderBy: [
          { name: 'month', direction: 'asc' },
          { name: 'status', direction: 'asc' },
        ],
      },
    },
    {
      metricId: 'revenue',
      name: 'Revenue',
      chart: { type: 'single-value', y: ['revenue'] },
      query: { from, measures: [{ name: 'revenue', aggregate: 'sum', column: 'amount' }] },
    },
    {
      metricId: 'avg_by_status',
      name: 'Average by status',
      chart: { type: 'bar', x: 'status', y: ['avg'] },
      query: {
        from,
        measures: [{ name: 'avg', aggregate: 'avg', column: 'amount' }],
        dimensions: [{ name: 'status', column: 'status' }],
        orderBy: [{ name: 'status', direction: 'asc' }],
      },
    },
    {
      // descending: MongoDB puts the NULL group last, Elasticsearch (as SQL) first
      metricId: 'orders_by_status_desc',
      name: 'Orders by status, descending',
      chart: { type: 'table' },
      query: {
        from,
        measures: [{ name: 'orders', aggregate: 'count' }],
        dimensions: [{ name: 'status', column: 'status' }],
        orderBy: [{ name: 'status', direction: 'desc' }],
      },
    },
    {
      metricId: 'orders_by_quarter',
      name: 'Orders by quarter',
      chart: { type: 'line', x: 'quarter', y: ['orders'] },
      query: {
        from,
        measures: [{ name: 'orders', aggregate: 'count' }],
        dimensions: [{ name: 'quarter', column: 'created_at', timeGrain: 'quarter' }],
        orderBy: [{ name: 'quarter', direction: 'asc' }],
      },
    },
  ],
  rollups: [
    {
      name: 'monthly',
      from,
      time: { column: 'created_at', grain: 'month' },
      // the tenant column (the datamart's client column) kept in the rollup, so each tenant's rows are served
      dimensions: ['status', 'client_id'],
      measures: [
        { name: 'orders', aggregate: 'count' },
        { name: 'revenue', aggregate: 'sum', column: 'amount' },
        { name: 'low', aggregate: 'min', column: 'amount' },
        { name: 'high', aggregate: 'max', column: 'amount' },
        { name: 'avg', aggregate: 'avg', column: 'amount' },
      ],
    },
  ],
})

type Result = { data: Record<string, unknown>[]; totalRecords: number; metaData: unknown; servedFrom: string }

async function query(t: Target, metricId: string, clientId: string, serve: boolean): Promise<Result> {
  const service = ctx.app.services.metricQueries
  service.serveRollups = serve
  try {
    const res = await call('POST', '/api/v2/data-app/query', dataAppKey, { embedId: t.embedId, metricId, clientId })
    expect(res.statusCode, res.body).toBe(200)
    return res.json() as Result
  } finally {
    service.serveRollups = true
  }
}

/**
 * Datasource, datamart (tenant column client_id), workspace, dashboard with the rollup, embed,
 * all through the API. The search datamart names its index without a schema.
 */
async function model(t: Target, datasourceType: string, credentials: object): Promise<void> {
  await ok('POST', '/api/v2/datasource', serviceToken, {
    datasourceType,
    credentials: { name: t.name, ...credentials },
  })
  await ok('POST', '/api/v2/data-app/datamarts', serviceToken, {
    name: t.name,
    datasourceName: t.name,
    tableList: [
      { ...(t.schema === undefined ? {} : { schemaName: t.schema }), name: 'orders', clientColumn: 'client_id' },
    ],
  })
  await ok('POST', '/api/v2/workspace', serviceToken, {
    name: t.name,
    connectionType: 'DATAMART',
    datamartName: t.name,
  })
  await ok('POST', '/api/v2/data-app/import-dashboard', serviceToken, {
    workspaceName: t.name,
    dashboardId: 'rolled',
    importDashboardData: document(t.from),
  })
  const embed = await ok('POST', '/api/v2/data-app/embeds', dataAppKey, {
    dashboardId: 'rolled',
    embedType: 'dashboard',
    workspaceName: t.name,
    name: t.name,
    accessSettings: { ...ACCESS, datamartName: t.name },
  })
  t.embedId = embed.id as string
}

beforeAll(async () => {
  search = new SearchStandIn({ flavour: 'elasticsearch', version: '8.15.0', users: { u: 'search-pass' } })
  search.createIndex(
    'orders',
    {
      id: { type: 'integer' },
      client_id: { type: 'keyword' },
      status: { type: 'keyword' },
      amount: { type: 'double' },
      created_at: { type: 'date' },
    },
    ORDERS.map((o) => ({ ...o, created_at: o.created_at.toISOString(), status: o.status })),
  )
  await search.start()
  mongo = new MongoStandIn({ users: { analyst: 'mongo-pass' } })
  mongo.insert(
    'shop',
    'orders',
    ORDERS.map((o) => ({ _id: new ObjectId(), ...o })),
  )
  const port = await mongo.start()

  ctx = await createTestApp('sqlite', { ROLLUP_POLL_INTERVAL_MS: '0', RESULT_CACHE_TTL_MS: '0', LOG_LEVEL: 'debug' })
  const creds = await bootstrap(ctx.app)
  serviceToken = creds.serviceToken
  dataAppKey = creds.dataAppKey
  duck = await DuckDBInstance.create(':memory:')
  await model(TARGETS[0] as Target, 'elasticsearch', {
    server_type: 'self-managed',
    server_url: search.url,
    username: 'u',
    password: 'search-pass',
  })
  await model(TARGETS[1] as Target, 'mongodb', { host: '127.0.0.1', port, user: 'analyst', password: 'mongo-pass' })
}, 120_000)

afterAll(async () => {
  duck?.closeSync()
  await ctx?.close()
  await search?.stop()
  await mongo?.stop()
})

/** A row as one comparable line: month (YYYY-MM), status, count, sum, min, max. */
const line = (month: unknown, r: Record<string, unknown>) =>
  JSON.stringify([
    month === null || month === undefined ? null : String(month).slice(0, 7),
    r.status ?? null,
    Number(r.orders),
    Number(Number(r.revenue).toFixed(6)),
    Number(r.low),
    Number(r.high),
  ])

describe.each(TARGETS)('a rollup built through the $name connector', (t) => {
  it('is built by the scheduler', async () => {
    const scheduler = new RollupScheduler(ctx.app.services.store, ctx.app.services.rollups, {
      pollMs: 1000,
      leaseMs: 60_000,
    })
    // both targets' rollups are due: the first tick builds them (the second finds nothing)
    await scheduler.tick(new Date(Date.now() + 5_000))
    const rows = await ok('GET', `/api/v2/data-app/rollups?workspaceName=${t.name}&dashboardId=rolled`, serviceToken)
    expect(rows.data[0], JSON.stringify(rows.data)).toMatchObject({ name: 'monthly', state: 'ready', lastError: null })
    expect(rows.data[0].partitions).toBe(6)
  }, 120_000)

  it("its files equal the stand-in's own answer to the same metric query, tenant by tenant", async () => {
    const dir = await rollupDir(ctx.app, ctx.config.dataDir, 'rolled', 'monthly', t.name)
    const state = await ctx.app.services.store.db
      .selectFrom('rollups')
      .innerJoin('dashboards', 'dashboards.id', 'rollups.dashboard_row_id')
      .innerJoin('workspaces', 'workspaces.id', 'dashboards.workspace_id')
      .select('rollups.partitions')
      .where('workspaces.name', '=', t.name)
      .executeTakeFirstOrThrow()
    const files = (JSON.parse(state.partitions) as RollupPartition[]).map((p) => `${dir}/${p.partition}.parquet`)
    const built = await readParquet(duck, files)
    for (const tenant of TENANTS) {
      const fromFiles = built
        .filter((r) => r.client_id === tenant)
        .map((r) => line(r.created_at, r))
        .sort()
      const answer = await query(t, 'by_month_status', tenant, false)
      expect(answer.servedFrom).toBe('warehouse')
      const fromStandIn = answer.data.map((r) => line(r.month, r)).sort()
      expect(fromFiles.length).toBeGreaterThan(6)
      expect(fromFiles).toEqual(fromStandIn)
      // avg kept as its sum and count
      for (const r of built.filter((x) => x.client_id === tenant)) {
        expect(Number(r.avg__count)).toBe(Number(r.orders))
        expect(Number(r.avg__sum)).toBeCloseTo(Number(r.revenue), 6)
      }
    }
  })

  it.each(['by_month_status', 'revenue', 'avg_by_status', 'orders_by_status_desc', 'orders_by_quarter'])(
    "%s is served from the rollup, equal to the stand-in's answer",
    async (metricId) => {
      for (const tenant of TENANTS) {
        const served = await query(t, metricId, tenant, true)
        const direct = await query(t, metricId, tenant, false)
        expect(served.servedFrom, JSON.stringify(ctx.logs.slice(-4))).toBe('rollup')
        expect(direct.servedFrom).toBe('warehouse')
        expect(comparableResult(served)).toEqual(comparableResult(direct))
      }
    },
  )
})
