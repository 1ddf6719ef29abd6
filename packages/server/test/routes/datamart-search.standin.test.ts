/**
 * A datamart over an Elasticsearch index, end to end through the API only (docs/api.md#datamarts,
 * docs/api.md#a-table-without-a-schema, docs/datasources.md#live-connectors): an index is a
 * table without a schema, so the
 * datamart names it with `schemaName` empty or omitted; its client column is the tenancy of a
 * dashboard imported over it (`from: "orders"`), embedded, and read with guest tokens. Two
 * tenants each see only their rows, whatever filter an end user sends. Against the stand-in
 * (src/connectors/elasticsearch/standin); the expected figures are computed here from the rows
 * the index was loaded with.
 */
import { ObjectId } from 'bson'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SearchStandIn } from '../../src/connectors/elasticsearch/standin/server.js'
import { MongoStandIn } from '../../src/connectors/mongodb/standin/server.js'
import { ACCESS } from '../helpers/analytics.js'
import { createTestApp, type TestContext } from '../helpers/app.js'
import { bearer, bootstrap } from '../helpers/bootstrap.js'

const TENANTS = ['acme', 'globex'] as const
const STATUSES = ['paid', 'shipped', 'refunded'] as const

/** 40 orders; globex's amounts ten times acme's scale, so a leaked row moves every figure. */
const ORDERS = Array.from({ length: 40 }, (_, i) => ({
  id: i + 1,
  client_id: TENANTS[i % 2] as string,
  status: STATUSES[i % 3] as string,
  amount: (i % 2 === 0 ? 1 : 10) * (10 + (i % 7)),
}))

const own = (tenant: string) => ORDERS.filter((o) => o.client_id === tenant)
const sum = (rows: readonly { amount: number }[]) => rows.reduce((s, o) => s + o.amount, 0)

let ctx: TestContext
let search: SearchStandIn
let mongo: MongoStandIn
let serviceToken: string
let dataAppKey: string
let embedId: string

const call = (method: 'GET' | 'POST', url: string, token: string, payload?: object) =>
  ctx.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) })

async function ok(method: 'GET' | 'POST', url: string, token: string, payload?: object) {
  const res = await call(method, url, token, payload)
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(200)
  return res.json()
}

const DOCUMENT = {
  name: 'Orders',
  layout: [],
  metrics: [
    {
      metricId: 'revenue',
      name: 'Revenue',
      chart: { type: 'single-value', y: ['revenue'] },
      query: {
        from: 'orders',
        measures: [
          { name: 'revenue', aggregate: 'sum', column: 'amount' },
          { name: 'orders', aggregate: 'count' },
        ],
      },
    },
    {
      metricId: 'by_status',
      name: 'Revenue by status',
      chart: { type: 'bar', x: 'status', y: ['revenue'] },
      query: {
        from: 'orders',
        measures: [{ name: 'revenue', aggregate: 'sum', column: 'amount' }],
        dimensions: [{ name: 'status', column: 'status' }],
        orderBy: [{ name: 'status', direction: 'asc' }],
      },
    },
  ],
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
    },
    ORDERS,
  )
  await search.start()
  mongo = new MongoStandIn({ users: { analyst: 'mongo-pass' } })
  mongo.insert(
    'shop',
    'orders',
    ORDERS.map((o) => ({ _id: new ObjectId(), ...o })),
  )
  const mongoPort = await mongo.start()
  ctx = await createTestApp('sqlite', { RESULT_CACHE_TTL_MS: '0' })
  const creds = await bootstrap(ctx.app)
  serviceToken = creds.serviceToken
  dataAppKey = creds.dataAppKey
  await ok('POST', '/api/v2/datasource', serviceToken, {
    datasourceType: 'elasticsearch',
    credentials: {
      name: 'search',
      server_type: 'self-managed',
      server_url: search.url,
      username: 'u',
      password: 'search-pass',
    },
  })
  await ok('POST', '/api/v2/datasource', serviceToken, {
    datasourceType: 'mongodb',
    credentials: { name: 'mongo', host: '127.0.0.1', port: mongoPort, user: 'analyst', password: 'mongo-pass' },
  })
}, 120_000)

afterAll(async () => {
  await ctx?.close()
  await search?.stop()
  await mongo?.stop()
})

describe('a datamart over an Elasticsearch index', () => {
  it('names the index without a schema; a schema it does not have, or none where tables have one, is a 400', async () => {
    const wrong = await call('POST', '/api/v2/data-app/datamarts', serviceToken, {
      name: 'wrong',
      datasourceName: 'search',
      tableList: [{ schemaName: 'public', name: 'orders' }],
    })
    expect(wrong.statusCode).toBe(400)
    expect(wrong.json().error.message).toContain('tableList[0]: no table public.orders in datasource search')
    // a datasource whose tables have a schema: leaving it out is told at the field, with where the table is
    const bare = await call('POST', '/api/v2/data-app/datamarts', serviceToken, {
      name: 'bare',
      datasourceName: 'mongo',
      tableList: [{ name: 'orders', clientColumn: 'client_id' }],
    })
    expect(bare.statusCode).toBe(400)
    expect(bare.json().error.message).toContain('tableList[0].schemaName: required')
    expect(bare.json().error.message).toContain('orders is in shop')
    const empty = await call('POST', '/api/v2/data-app/datamarts', serviceToken, {
      name: 'bare',
      datasourceName: 'mongo',
      tableList: [{ schemaName: '', name: 'orders' }],
    })
    expect(empty.statusCode).toBe(400)
    expect(empty.json().error.message).toContain('tableList[0].schemaName: required')

    await ok('POST', '/api/v2/data-app/datamarts', serviceToken, {
      name: 'search',
      datasourceName: 'search',
      tableList: [{ schemaName: '', name: 'orders', label: 'Orders', clientColumn: 'client_id' }],
    })
    // omitted is the same as empty
    await ok('POST', '/api/v2/data-app/datamarts', serviceToken, {
      name: 'search-omitted',
      datasourceName: 'search',
      tableList: [{ name: 'orders', clientColumn: 'client_id' }],
    })
    const list = await ok('GET', '/api/v2/data-app/datamarts?expandDetails=true', serviceToken)
    const mart = (list.data as { name: string; datamartTables: object[] }[]).find((d) => d.name === 'search')
    expect(mart?.datamartTables).toMatchObject([
      { schemaName: '', tableName: 'orders', label: 'Orders', clientColumn: 'client_id' },
    ])
  })

  it('holds a dashboard imported over the index, embedded with its client column as tenancy', async () => {
    await ok('POST', '/api/v2/workspace', serviceToken, {
      name: 'search',
      connectionType: 'DATAMART',
      datamartName: 'search',
    })
    await ok('POST', '/api/v2/data-app/import-dashboard', serviceToken, {
      workspaceName: 'search',
      dashboardId: 'orders',
      importDashboardData: DOCUMENT,
    })
    const embed = await ok('POST', '/api/v2/data-app/embeds', dataAppKey, {
      dashboardId: 'orders',
      embedType: 'dashboard',
      workspaceName: 'search',
      name: 'Orders',
      accessSettings: { ...ACCESS, datamartName: 'search', isAllowEndUserDashboardFilter: true },
    })
    embedId = embed.id as string
    expect(embedId).toBeTruthy()
  })

  const mint = async (clientId: string) =>
    (await ok('POST', '/api/v2/guest-token/create', dataAppKey, { dataAppName: 'salesapp', clientId })).token as string
  const runtime = (token: string, body: object) => call('POST', `/api/v2/embed/runtime/${embedId}/query`, token, body)
  const rows = async (token: string, body: object) => {
    const res = await runtime(token, body)
    expect(res.statusCode, res.body).toBe(200)
    return (res.json() as { data: Record<string, unknown>[] }).data
  }

  it.each(TENANTS)('a guest token of %s reads only its own rows', async (tenant) => {
    const token = await mint(tenant)
    const [total] = await rows(token, { metricId: 'revenue' })
    expect(Number(total?.revenue)).toBe(sum(own(tenant)))
    expect(Number(total?.orders)).toBe(own(tenant).length)
    const byStatus = await rows(token, { metricId: 'by_status' })
    expect(byStatus.map((r) => [r.status, Number(r.revenue)])).toEqual(
      [...STATUSES].sort().map((s) => [s, sum(own(tenant).filter((o) => o.status === s))]),
    )
    // the load shows the metrics and not the tenant column
    const load = await call('GET', `/api/v2/embed/runtime/${embedId}`, token)
    expect(load.statusCode, load.body).toBe(200)
    expect(load.body).not.toContain('client_id')
  })

  it('a hostile filter reads no other tenant', async () => {
    const token = await mint('acme')
    // a drill on the tenant column itself is refused
    const onTenant = await runtime(token, {
      metricId: 'revenue',
      drill: { filters: [{ table: 'orders', column: 'client_id', value: 'globex' }] },
    })
    expect(onTenant.statusCode, onTenant.body).toBeGreaterThanOrEqual(400)
    expect(onTenant.statusCode).toBeLessThan(500)
    // an injection attempt is a value that matches no status
    for (const value of ["paid' OR client_id = 'globex", 'paid OR client_id:globex', '*']) {
      const [r] = await rows(token, {
        metricId: 'revenue',
        drill: { filters: [{ table: 'orders', column: 'status', value }] },
      })
      expect(Number(r?.orders ?? 0), value).toBe(0)
    }
    // an honest drill stays within the tenant
    const [paid] = await rows(token, {
      metricId: 'revenue',
      drill: { filters: [{ table: 'orders', column: 'status', value: 'paid' }] },
    })
    expect(Number(paid?.revenue)).toBe(sum(own('acme').filter((o) => o.status === 'paid')))
    // the secret-key query names a tenant too, and reads only it
    const answer = await ok('POST', '/api/v2/data-app/query', dataAppKey, {
      embedId,
      metricId: 'revenue',
      clientId: 'globex',
    })
    expect(Number(answer.data[0].revenue)).toBe(sum(own('globex')))
  })
})
