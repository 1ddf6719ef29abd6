/**
 * awss3 over S3 end to end through the API, live against s3rver (a real S3-protocol server):
 * POST /api/v2/datasource with the s3rver endpoint (objects listed, cached, introspected), a
 * datamart with TABLE-style tenancy (the client column of orders and customers), an imported
 * dashboard, metric queries per tenant, hostile clientIds that must match no tenant, and
 * POST /api/v2/datasource/sync picking up a changed object. The secret key is never returned
 * or logged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { goldenParquet, putGolden } from '../../src/connectors/awss3/standin/golden-objects.js'
import { type LocalS3, S3RVER_KEYS, S3RVER_REGION, startLocalS3 } from '../../src/connectors/awss3/standin/server.js'
import { READ_ONLY_ACCESS } from '../../src/schemas/embeds.js'
import { goldenRows, TENANTS } from '../fixtures/golden-data.js'
import { createTestApp, type TestContext } from '../helpers/app.js'
import { bearer, bootstrap } from '../helpers/bootstrap.js'
import { expectError } from '../helpers/expect-error.js'

const BUCKET = 'lake'
const round = (v: unknown) => (v === null || v === undefined ? null : Math.round(Number(v) * 100) / 100)

const document = {
  name: 'Lake sales',
  filters: [],
  layout: [
    { metricId: 'revenue', x: 0, y: 0, w: 3, h: 2 },
    { metricId: 'revenue_by_country', x: 3, y: 0, w: 6, h: 4 },
  ],
  metrics: [
    {
      metricId: 'revenue',
      name: 'Revenue',
      chart: { type: 'single-value', y: ['revenue'] },
      query: { from: 'main.orders', measures: [{ name: 'revenue', aggregate: 'sum', column: 'amount' }] },
    },
    {
      metricId: 'revenue_by_country',
      name: 'Revenue by country',
      chart: { type: 'bar', x: 'country', y: ['revenue'] },
      query: {
        from: 'main.orders',
        measures: [{ name: 'revenue', aggregate: 'sum', column: 'amount' }],
        dimensions: [{ name: 'country', table: 'main.customers', column: 'country' }],
        orderBy: [{ name: 'country', direction: 'asc' }],
      },
    },
  ],
}

/** Revenue per tenant and country, computed from the golden rows (not by the engine). */
function expected(extra: { client_id: string; amount: number; customer_id: number }[] = []) {
  const { customers, orders } = goldenRows()
  const all = [...orders, ...extra]
  const revenue = (tenant: string) =>
    round(all.filter((o) => o.client_id === tenant).reduce((sum, o) => sum + o.amount, 0))
  const byCountry = (tenant: string) => {
    const totals = new Map<string, number>()
    for (const o of all) {
      const c = customers.find((x) => x.id === o.customer_id)
      if (o.client_id !== tenant || c === undefined || c.client_id !== tenant) continue
      totals.set(c.country, (totals.get(c.country) ?? 0) + o.amount)
    }
    return [...totals.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([country, v]) => [country, round(v)])
  }
  return { revenue, byCountry }
}

describe('awss3 datasource over S3, through the API (live: s3rver)', () => {
  let s3: LocalS3
  let t: TestContext
  let creds: Awaited<ReturnType<typeof bootstrap>>
  let embedId: string
  const call = (method: 'POST' | 'GET' | 'PUT', url: string, payload: object | undefined, token: string) =>
    t.app.inject({ method, url, payload, headers: bearer(token) })
  const ok = async (method: 'POST' | 'GET' | 'PUT', url: string, payload: object | undefined, token: string) => {
    const res = await call(method, url, payload, token)
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(200)
    return res.json()
  }
  const lake = (extra: object = {}) => ({
    name: 'lake',
    bucket: BUCKET,
    region: S3RVER_REGION,
    ...S3RVER_KEYS,
    prefix: 'golden/',
    endpoint: s3.endpoint,
    ...extra,
  })
  const query = (metricId: string, clientId: string) =>
    call('POST', '/api/v2/data-app/query', { embedId, metricId, clientId }, creds.dataAppKey)

  beforeAll(async () => {
    s3 = await startLocalS3([BUCKET])
    await putGolden(s3, BUCKET, 'golden/')
    await s3.put(BUCKET, 'golden/readme.md', 'not a table')
    t = await createTestApp('sqlite', { RATE_LIMIT: '0' })
    creds = await bootstrap(t.app)
  })
  afterAll(async () => {
    await t?.close()
    await s3?.close()
  })

  it('refuses what S3 refuses with 400 DATASOURCE_CONNECTION_ERROR and the reason, never the secret', async () => {
    const s = creds.serviceToken
    const wrongKey = await call(
      'POST',
      '/api/v2/datasource',
      { datasourceType: 'awss3', credentials: lake({ accessKeyId: 'NOPE', secretAccessKey: 'secret-never-shown-42' }) },
      s,
    )
    expectError(wrongKey, 400, 'DATASOURCE_CONNECTION_ERROR', /InvalidAccessKeyId/)
    expect(wrongKey.body).not.toContain('secret-never-shown-42')
    const noBucket = await call(
      'POST',
      '/api/v2/datasource',
      { datasourceType: 'awss3', credentials: lake({ bucket: 'no-such-bucket' }) },
      s,
    )
    expectError(noBucket, 400, 'DATASOURCE_CONNECTION_ERROR', /NoSuchBucket/)
  })

  it('creates the datasource (objects cached and introspected), then answers metric queries per tenant', async () => {
    const s = creds.serviceToken
    const created = await ok('POST', '/api/v2/datasource', { datasourceType: 'awss3', credentials: lake() }, s)
    expect(created.tables ?? created.data?.tables).toBe(3) // tenants, customers, orders; readme.md is no table
    await ok(
      'POST',
      '/api/v2/data-app/datamarts',
      {
        name: 'sales',
        datasourceName: 'lake',
        tableList: ['orders', 'customers'].map((name) => ({ schemaName: 'main', name, clientColumn: 'client_id' })),
        relationships: [
          {
            parentTable: 'main.customers',
            parentColumn: 'id',
            childTable: 'main.orders',
            childColumn: 'customer_id',
            cardinality: 'OneToMany',
            joinType: 'INNER JOIN',
          },
        ],
      },
      s,
    )
    await ok('POST', '/api/v2/workspace', { name: 'lake', connectionType: 'DATAMART', datamartName: 'sales' }, s)
    await ok(
      'POST',
      '/api/v2/data-app/import-dashboard',
      { workspaceName: 'lake', dashboardId: 'lake-sales', importDashboardData: document },
      s,
    )
    const embed = await ok(
      'POST',
      '/api/v2/data-app/embeds',
      {
        dashboardId: 'lake-sales',
        embedType: 'dashboard',
        workspaceName: 'lake',
        name: 'Lake',
        accessSettings: { ...READ_ONLY_ACCESS, datamartName: 'sales', isAllowUnderlyingData: true },
      },
      creds.dataAppKey,
    )
    embedId = embed.id as string

    const want = expected()
    for (const tenant of TENANTS) {
      const revenue = await query('revenue', tenant)
      expect(revenue.statusCode, revenue.body).toBe(200)
      expect(round((revenue.json().data as { revenue: unknown }[])[0]?.revenue), tenant).toBe(want.revenue(tenant))
      const byCountry = await query('revenue_by_country', tenant)
      const rows = byCountry.json().data as { country: string; revenue: unknown }[]
      expect(
        rows.map((r) => [r.country, round(r.revenue)]),
        tenant,
      ).toEqual(want.byCountry(tenant))
    }
    // the tenants differ: the check above could not pass with one tenant's rows for all
    expect(new Set(TENANTS.map((x) => want.revenue(x))).size).toBe(TENANTS.length)
  })

  it("TABLE tenancy over S3 data: hostile clientIds match no tenant, never another tenant's rows", async () => {
    const hostile = [
      "acme' or '1'='1",
      "acme' --",
      'ACME',
      ' acme',
      'acme\u0000',
      '%',
      'acme%',
      '*',
      "' OR client_id IS NOT NULL OR '",
      'acme\\',
      '$1',
      'globex; select * from orders',
    ]
    const answered: string[] = []
    for (const clientId of hostile) {
      const res = await query('revenue', clientId)
      if (res.statusCode !== 200) {
        expectError(res, 400, 'INVALID_REQUEST_BODY', /clientId/) // refused outright is fine too
        continue
      }
      answered.push(clientId)
      expect((res.json().data as { revenue: unknown }[])[0]?.revenue ?? null, clientId).toBeNull()
      const grouped = await query('revenue_by_country', clientId)
      expect(grouped.json().data, clientId).toEqual([])
    }
    // the quote and comment injections reached the engine as values (and matched nothing)
    expect(answered).toEqual(expect.arrayContaining(["acme' or '1'='1", "acme' --", 'ACME', '%']))
    expectError(await query('revenue', 'None'), 400, 'CLIENT_ID_ERROR', /clientId/)
  })

  it('POST /api/v2/datasource/sync re-lists the bucket: a changed object is fetched and answers', async () => {
    const extra = {
      client_id: 'acme',
      amount: 1000,
      customer_id: goldenRows().customers.find((c) => c.client_id === 'acme')!.id,
    }
    const files = await goldenParquet([
      `INSERT INTO g.orders (id, client_id, customer_id, amount, status, paid) VALUES (999999, 'acme', ${extra.customer_id}, 1000, 'paid', true)`,
    ])
    await s3.put(BUCKET, 'golden/orders.parquet', files.orders)
    const before = await query('revenue', 'acme')
    expect(round((before.json().data as { revenue: unknown }[])[0]?.revenue)).toBe(expected().revenue('acme')) // cached
    await ok('POST', '/api/v2/datasource/sync', { input: { datasourceId: 'lake' } }, creds.serviceToken)
    const want = expected([extra])
    const after = await query('revenue', 'acme')
    expect(round((after.json().data as { revenue: unknown }[])[0]?.revenue)).toBe(want.revenue('acme'))
    const globex = await query('revenue', 'globex')
    expect(round((globex.json().data as { revenue: unknown }[])[0]?.revenue)).toBe(want.revenue('globex'))
  })

  it('never returns or logs the secret access key', async () => {
    const list = await ok('GET', '/api/v2/datasource', undefined, creds.serviceToken)
    expect(JSON.stringify(list)).not.toContain('S3RVER') // the key pair is S3RVER/S3RVER
    expect(JSON.stringify(list)).not.toMatch(/secretAccessKey|accessKeyId/)
    expect(t.rawLogs.length).toBeGreaterThan(0)
    expect(t.rawLogs.join('\n')).not.toContain('secret-never-shown-42')
  })
})
